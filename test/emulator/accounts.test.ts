import http from '../../host/http';
import type { AddressInfo } from '../../host/net';
import { request } from 'undici';
import { Accounts } from '../../emulator/accounts';
import { parseScopes, parseVendorAuthorization, scopeCovers } from '../../emulator/accounts-scopes';
import type { ClientRegistration } from '../../emulator/accounts-tokens';
import { Clock } from '../../emulator/clock';

const REGIONS = ['us', 'eu', 'in', 'au', 'cn'];
const REDIRECT = 'http://localhost:5678/rest/oauth2-credential/callback';
const CLIENT: ClientRegistration = {
	clientId: '1000.CLIENTALL',
	clientSecret: 's3cret-all',
	redirectUris: [REDIRECT, 'http://other.example/cb'],
	name: 'Acme n8n <Test>',
};
const US_ONLY: ClientRegistration = {
	clientId: '1000.USONLY',
	clientSecret: 's3cret-us',
	redirectUris: [REDIRECT],
	name: 'US only app',
	regions: ['us'],
};
const SCOPES = ['VendorProjects.portals.READ', 'VendorBooks.invoices.ALL'];

interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
}

let server: http.Server;
let base = '';
let clock: Clock;
let accounts: Accounts;

function header(r: Reply, name: string): string {
	const v = r.headers[name.toLowerCase()];
	return (Array.isArray(v) ? v[0] : v) ?? '';
}

async function call(
	method: 'GET' | 'POST' | 'PUT',
	path: string,
	opts: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
	const headers: Record<string, string> = { ...(opts.headers ?? {}) };
	let body: string | undefined;
	if (opts.form) {
		headers['content-type'] = 'application/x-www-form-urlencoded';
		body = new URLSearchParams(opts.form).toString();
	} else if (opts.json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(opts.json);
	}
	const r = await request(base + path, { method, headers, body });
	return { status: r.statusCode, headers: r.headers, text: await r.body.text() };
}

function authPath(region: string, params: Record<string, string | undefined>): string {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
	return `/${region}/oauth/v2/auth?${q.toString()}`;
}

function goodAuthParams(
	over: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
	return {
		scope: SCOPES.join(','),
		client_id: CLIENT.clientId,
		response_type: 'code',
		access_type: 'offline',
		redirect_uri: REDIRECT,
		state: 'st-123',
		prompt: 'consent',
		...over,
	};
}

function requestIdOf(html: string): string {
	const m = /name="request_id" value="([^"]+)"/.exec(html);
	if (!m) throw new Error('no request_id in consent page');
	return m[1];
}

/** Auth page + decision; returns the parsed redirect. */
async function consent(
	region: string,
	decision: 'accept' | 'reject',
	over: Record<string, string | undefined> = {},
): Promise<URL> {
	const pageReply = await call('GET', authPath(region, goodAuthParams(over)));
	expect(pageReply.status).toBe(200);
	const r = await call('POST', `/${region}/oauth/v2/auth/decision`, {
		form: { request_id: requestIdOf(pageReply.text), decision },
	});
	expect(r.status).toBe(302);
	return new URL(header(r, 'location'));
}

async function codeFor(
	region: string,
	over: Record<string, string | undefined> = {},
): Promise<string> {
	const loc = await consent(region, 'accept', over);
	const code = loc.searchParams.get('code');
	expect(code).toBeTruthy();
	return code as string;
}

async function exchange(
	region: string,
	code: string,
	over: Record<string, string> = {},
): Promise<Record<string, unknown>> {
	const r = await call('POST', `/${region}/oauth/v2/token`, {
		form: {
			grant_type: 'authorization_code',
			code,
			client_id: CLIENT.clientId,
			client_secret: CLIENT.clientSecret,
			redirect_uri: REDIRECT,
			...over,
		},
	});
	expect(r.headers['content-type']).toMatch(/^application\/json/);
	return { __status: r.status, ...(JSON.parse(r.text) as Record<string, unknown>) };
}

async function refresh(
	region: string,
	refreshToken: string,
	over: Record<string, string> = {},
): Promise<Record<string, unknown>> {
	const r = await call('POST', `/${region}/oauth/v2/token`, {
		form: {
			grant_type: 'refresh_token',
			refresh_token: refreshToken,
			client_id: CLIENT.clientId,
			client_secret: CLIENT.clientSecret,
			...over,
		},
	});
	return { __status: r.status, ...(JSON.parse(r.text) as Record<string, unknown>) };
}

function basic(id: string, secret: string): string {
	return 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64');
}

beforeAll(async () => {
	server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			void (async () => {
				const url = new URL(req.url ?? '/', 'http://127.0.0.1');
				const region = url.pathname.split('/')[1] ?? '';
				const handled = await accounts.handle(req, res, url, region, Buffer.concat(chunks));
				if (!handled) {
					res.writeHead(404, { 'content-type': 'text/plain' });
					res.end('not found');
				}
			})().catch((e: unknown) => {
				res.writeHead(500);
				res.end(String(e));
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	clock = new Clock();
	accounts = new Accounts({
		clock,
		regions: REGIONS,
		clients: [CLIENT, US_ONLY],
		baseUrl: () => base,
	});
});

describe('full round trip', () => {
	test('auth page -> accept -> code exchange -> expiry -> refresh', async () => {
		const pageReply = await call('GET', authPath('us', goodAuthParams()));
		expect(pageReply.status).toBe(200);
		expect(header(pageReply, 'content-type')).toMatch(/text\/html/);
		expect(pageReply.text).toContain('Acme n8n &lt;Test&gt;'); // client name, escaped
		for (const s of SCOPES) expect(pageReply.text).toContain(`<li class="scope">${s}</li>`);
		expect(pageReply.text).toContain('action="/us/oauth/v2/auth/decision"');
		expect(pageReply.text).toMatch(/id="accept"/);
		expect(pageReply.text).toMatch(/id="reject"/);

		const decision = await call('POST', '/us/oauth/v2/auth/decision', {
			form: { request_id: requestIdOf(pageReply.text), decision: 'accept' },
		});
		expect(decision.status).toBe(302);
		const loc = new URL(header(decision, 'location'));
		expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
		expect(loc.searchParams.get('code')).toMatch(/\S{20,}/);
		expect(loc.searchParams.get('location')).toBe('us');
		expect(loc.searchParams.get('accounts-server')).toBe(`${base}/us`);
		expect(loc.searchParams.get('state')).toBe('st-123');

		const tok = await exchange('us', loc.searchParams.get('code') as string);
		expect(tok.__status).toBe(200);
		expect(typeof tok.access_token).toBe('string');
		expect(typeof tok.refresh_token).toBe('string');
		expect(tok.access_token).not.toBe(tok.refresh_token);
		expect(tok.expires_in_sec).toBe(3600);
		expect(tok.expires_in).toBe(3600000);
		expect(tok.api_domain).toBe(`${base}/us/api`);
		expect(tok.token_type).toBe('Bearer');
		expect(tok.scope).toBe(SCOPES.join(' '));

		const check = accounts.checkAccessToken(tok.access_token as string, 'us');
		expect(check.ok).toBe(true);
		if (!check.ok) throw new Error('unreachable');
		expect(check.info.clientId).toBe(CLIENT.clientId);
		expect(check.info.region).toBe('us');
		expect(check.info.scopes).toEqual(SCOPES);
		expect(check.info.expiresAt).toBe(clock.now() + 3600_000);
		expect(accounts.hasScope(check.info, 'VendorProjects.portals.READ')).toBe(true);
		expect(accounts.hasScope(check.info, 'VendorProjects.portals.CREATE')).toBe(false);
		expect(accounts.hasScope(check.info, 'VendorBooks.invoices.DELETE')).toBe(true); // ALL covers it
		expect(accounts.hasScope(check.info, 'VendorBooks.items.READ')).toBe(false);

		clock.advance(3599_000);
		expect(accounts.checkAccessToken(tok.access_token as string, 'us').ok).toBe(true);
		clock.advance(2_000);
		expect(accounts.checkAccessToken(tok.access_token as string, 'us')).toEqual({
			ok: false,
			reason: 'expired',
		});

		// refresh with client credentials in an HTTP Basic header
		const r = await call('POST', '/us/oauth/v2/token', {
			form: { grant_type: 'refresh_token', refresh_token: tok.refresh_token as string },
			headers: { authorization: basic(CLIENT.clientId, CLIENT.clientSecret) },
		});
		expect(r.status).toBe(200);
		const ref = JSON.parse(r.text) as Record<string, unknown>;
		expect(ref.access_token).toEqual(expect.any(String));
		expect(ref.access_token).not.toBe(tok.access_token);
		expect(ref.refresh_token).toBeUndefined();
		expect(ref).toMatchObject({
			token_type: 'Bearer',
			expires_in: 3600,
			expires_in_sec: 3600,
			api_domain: `${base}/us/api`,
			scope: SCOPES.join(' '),
		});
		const again = accounts.checkAccessToken(ref.access_token as string, 'us');
		expect(again.ok && again.info.scopes).toEqual(SCOPES);

		expect(accounts.stats()).toEqual({ tokenRequests: 2, refreshRequests: 1, authPageViews: 1 });
	});

	test('online access gives no refresh token; JSON token body accepted', async () => {
		const code = await codeFor('eu', { access_type: 'online' });
		const r = await call('POST', '/eu/oauth/v2/token', {
			json: {
				grant_type: 'authorization_code',
				code,
				client_id: CLIENT.clientId,
				client_secret: CLIENT.clientSecret,
				redirect_uri: REDIRECT,
			},
		});
		const tok = JSON.parse(r.text) as Record<string, unknown>;
		expect(r.status).toBe(200);
		expect(tok.access_token).toEqual(expect.any(String));
		expect(tok).not.toHaveProperty('refresh_token');
		expect(tok.api_domain).toBe(`${base}/eu/api`);
		expect(accounts.checkAccessToken(tok.access_token as string, 'eu').ok).toBe(true);
	});

	test('space-separated scopes are refused (the documents separate them with commas); access_type defaults to online', async () => {
		const spaced = await call(
			'GET',
			authPath('us', { ...goodAuthParams(), scope: SCOPES.join(' ') }),
		);
		expect([spaced.status, header(spaced, 'x-error')]).toEqual([400, 'ERROR_invalid_scope']);
		const code = await codeFor('us', {
			scope: SCOPES.join(', '),
			access_type: undefined,
			state: undefined,
		});
		const tok = await exchange('us', code);
		expect(tok.scope).toBe(SCOPES.join(' '));
		expect(tok).not.toHaveProperty('refresh_token');
	});

	test('client credentials only in a Basic header work for the code exchange', async () => {
		const code = await codeFor('us');
		const r = await call('POST', '/us/oauth/v2/token', {
			form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
			headers: { authorization: basic(CLIENT.clientId, CLIENT.clientSecret) },
		});
		expect(JSON.parse(r.text)).toHaveProperty('access_token');
	});

	test('autoDecision answers without a consent page', async () => {
		accounts.autoDecision = 'accept';
		const r = await call('GET', authPath('au', goodAuthParams()));
		expect(r.status).toBe(302);
		const loc = new URL(header(r, 'location'));
		expect(loc.searchParams.get('location')).toBe('au');
		const tok = await exchange('au', loc.searchParams.get('code') as string);
		expect(tok.access_token).toEqual(expect.any(String));
	});
});

describe('grant codes', () => {
	test('single use', async () => {
		const code = await codeFor('us');
		expect((await exchange('us', code)).access_token).toEqual(expect.any(String));
		const second = await exchange('us', code);
		expect(second).toEqual({ __status: 200, error: 'invalid_code' });
	});

	test('valid 1 minute by the clock (the documented life of a redirect-flow grant code)', async () => {
		const early = await codeFor('us');
		clock.advance(59_999);
		expect((await exchange('us', early)).access_token).toEqual(expect.any(String));

		const late = await codeFor('us');
		clock.advance(60_000);
		expect(await exchange('us', late)).toEqual({ __status: 200, error: 'invalid_code' });
	});

	test('a failed exchange (wrong redirect_uri) does not consume the code', async () => {
		const code = await codeFor('us');
		expect((await exchange('us', code, { redirect_uri: 'http://other.example/cb' })).error).toBe(
			'invalid_redirect_uri',
		);
		expect((await exchange('us', code)).access_token).toEqual(expect.any(String));
	});

	test('the 11th grant code within 10 minutes deletes the first', async () => {
		const codes: string[] = [];
		for (let i = 0; i < 11; i++) codes.push(await codeFor('us'));
		expect((await exchange('us', codes[0])).error).toBe('invalid_code');
		expect((await exchange('us', codes[1])).access_token).toEqual(expect.any(String));
		expect((await exchange('us', codes[10])).access_token).toEqual(expect.any(String));
	});

	test('a consent request id is single use', async () => {
		const pageReply = await call('GET', authPath('us', goodAuthParams()));
		const id = requestIdOf(pageReply.text);
		expect(
			(
				await call('POST', '/us/oauth/v2/auth/decision', {
					form: { request_id: id, decision: 'accept' },
				})
			).status,
		).toBe(302);
		const replay = await call('POST', '/us/oauth/v2/auth/decision', {
			form: { request_id: id, decision: 'accept' },
		});
		expect(replay.status).toBe(400);
		expect(header(replay, 'x-error')).toBe('ERROR_invalid_authorization_request');
	});
});

describe('authorization errors', () => {
	const cases: Array<[string, string, Record<string, string | undefined>, string?]> = [
		['response_type not code', 'ERROR_invalid_response_type', { response_type: 'token' }],
		['response_type missing', 'ERROR_invalid_response_type', { response_type: undefined }],
		['scope missing', 'ERROR_invalid_response_type', { scope: undefined }],
		['redirect_uri missing', 'ERROR_invalid_response_type', { redirect_uri: undefined }],
		['access_type invalid', 'ERROR_invalid_response_type', { access_type: 'forever' }],
		['client_id empty', 'ERROR_invalid_client', { client_id: '' }],
		['client_id missing', 'ERROR_invalid_client', { client_id: undefined }],
		['client_id unknown', 'ERROR_invalid_client', { client_id: '1000.NOPE' }],
		[
			'client not registered in region',
			'ERROR_invalid_client',
			{ client_id: US_ONLY.clientId },
			'eu',
		],
		[
			'redirect_uri not registered',
			'ERROR_invalid_redirect_uri',
			{ redirect_uri: 'http://evil.example/cb' },
		],
		[
			'redirect_uri differs by a slash',
			'ERROR_invalid_redirect_uri',
			{ redirect_uri: REDIRECT + '/' },
		],
		['unknown service', 'ERROR_invalid_scope', { scope: 'VendorMail.messages.READ' }],
		['unknown operation', 'ERROR_invalid_scope', { scope: 'VendorProjects.portals.WRITE' }],
		['two-part scope', 'ERROR_invalid_scope', { scope: 'VendorProjects.portals' }],
		['one bad among good', 'ERROR_invalid_scope', { scope: 'VendorProjects.portals.READ,bogus' }],
		['empty scope', 'ERROR_invalid_scope', { scope: ' , ' }],
	];

	test.each(cases)(
		'%s -> %s (HTML page + X-Error header)',
		async (_name, code, over, region = 'us') => {
			const r = await call('GET', authPath(region, goodAuthParams(over)));
			expect(r.status).toBe(400);
			expect(header(r, 'content-type')).toMatch(/text\/html/);
			expect(header(r, 'x-error')).toBe(code);
			expect(r.text).toContain(code);
			expect(header(r, 'location')).toBe('');
		},
	);

	test('JSON error body when Accept: application/json', async () => {
		const r = await call('GET', authPath('us', goodAuthParams({ client_id: '1000.NOPE' })), {
			headers: { accept: 'application/json' },
		});
		expect(r.status).toBe(400);
		expect(JSON.parse(r.text)).toEqual({ error: 'ERROR_invalid_client' });
		expect(header(r, 'x-error')).toBe('ERROR_invalid_client');
	});

	test('Reject redirects with error=access_denied and the state, no code', async () => {
		const loc = await consent('us', 'reject');
		expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
		expect(loc.searchParams.get('error')).toBe('access_denied');
		expect(loc.searchParams.get('state')).toBe('st-123');
		expect(loc.searchParams.has('code')).toBe(false);
	});
});

describe('token errors', () => {
	test('invalid_client: wrong secret, unknown id, missing id, client not in that region', async () => {
		const code = await codeFor('us');
		expect(await exchange('us', code, { client_secret: 'wrong' })).toEqual({
			__status: 200,
			error: 'invalid_client',
		});
		expect(await exchange('us', code, { client_id: '1000.NOPE' })).toEqual({
			__status: 200,
			error: 'invalid_client',
		});
		expect(await exchange('us', code, { client_id: '', client_secret: '' })).toEqual({
			__status: 200,
			error: 'invalid_client',
		});
		const basicWrong = await call('POST', '/us/oauth/v2/token', {
			form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
			headers: { authorization: basic(CLIENT.clientId, 'nope') },
		});
		expect(JSON.parse(basicWrong.text)).toEqual({ error: 'invalid_client' });
		const notInRegion = await exchange('eu', 'whatever', {
			client_id: US_ONLY.clientId,
			client_secret: US_ONLY.clientSecret,
		});
		expect(notInRegion.error).toBe('invalid_client');
		// none of the failures consumed the code
		expect((await exchange('us', code)).access_token).toEqual(expect.any(String));
	});

	test('invalid_code: unknown code, code of another client, wrong refresh token', async () => {
		expect((await exchange('us', 'not-a-code')).error).toBe('invalid_code');
		expect((await exchange('us', '')).error).toBe('invalid_code');
		const usOnlyCode = await codeFor('us', { client_id: US_ONLY.clientId });
		expect((await exchange('us', usOnlyCode)).error).toBe('invalid_code'); // presented by CLIENT
		expect(await refresh('us', 'not-a-refresh-token')).toEqual({
			__status: 200,
			error: 'invalid_code',
		});
	});

	test('invalid_redirect_uri: registered but not the one of the grant, or missing', async () => {
		const code = await codeFor('us');
		expect((await exchange('us', code, { redirect_uri: 'http://other.example/cb' })).error).toBe(
			'invalid_redirect_uri',
		);
		expect((await exchange('us', code, { redirect_uri: '' })).error).toBe('invalid_redirect_uri');
	});

	test('unsupported_grant_type for an unknown or missing grant_type', async () => {
		const r = await call('POST', '/us/oauth/v2/token', {
			form: {
				grant_type: 'password',
				client_id: CLIENT.clientId,
				client_secret: CLIENT.clientSecret,
			},
		});
		expect(JSON.parse(r.text)).toEqual({ error: 'unsupported_grant_type' });
		const r2 = await call('POST', '/us/oauth/v2/token', { form: { client_id: CLIENT.clientId } });
		expect(JSON.parse(r2.text)).toEqual({ error: 'unsupported_grant_type' });
	});

	test('tokenErrorStatus: 400 switches the error status', async () => {
		accounts = new Accounts({
			clock,
			regions: REGIONS,
			clients: [CLIENT],
			baseUrl: () => base,
			tokenErrorStatus: 400,
		});
		const r = await exchange('us', 'nope');
		expect(r).toEqual({ __status: 400, error: 'invalid_code' });
	});

	test('wrong method is 405; other paths are not handled', async () => {
		const r = await call('GET', '/us/oauth/v2/token');
		expect(r.status).toBe(405);
		expect(header(r, 'allow')).toBe('POST');
		expect((await call('POST', authPath('us', goodAuthParams()))).status).toBe(405);
		expect((await call('GET', '/us/oauth/v2/userinfo')).status).toBe(404);
		expect((await call('GET', '/us/api/v3/portals')).status).toBe(404);
		expect((await call('GET', authPath('xx', goodAuthParams()))).status).toBe(404);
	});
});

describe('region isolation', () => {
	test('a client registered in one region only is refused elsewhere', async () => {
		const r = await call('GET', authPath('cn', goodAuthParams({ client_id: US_ONLY.clientId })));
		expect(header(r, 'x-error')).toBe('ERROR_invalid_client');
		expect(() =>
			accounts.issueTokens({ clientId: US_ONLY.clientId, region: 'cn', scopes: SCOPES }),
		).toThrow(/not registered/);
	});

	test('code, refresh token and access token from us are refused in eu', async () => {
		const code = await codeFor('us');
		// documented: "region mismatch between grant and token calls" -> invalid_client
		expect((await exchange('eu', code)).error).toBe('invalid_client');
		const tok = await exchange('us', code); // still usable in its own region
		expect(tok.access_token).toEqual(expect.any(String));

		expect((await refresh('eu', tok.refresh_token as string)).error).toBe('invalid_client');
		expect((await refresh('us', tok.refresh_token as string)).access_token).toEqual(
			expect.any(String),
		);

		expect(accounts.checkAccessToken(tok.access_token as string, 'eu')).toEqual({
			ok: false,
			reason: 'wrong_region',
		});
		expect(accounts.checkAccessToken(tok.access_token as string, 'us').ok).toBe(true);
	});

	test('revoking in another region is a no-op', async () => {
		const t = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'in', scopes: SCOPES });
		expect(
			(await call('POST', `/us/oauth/v2/token/revoke?token=${encodeURIComponent(t.refresh_token)}`))
				.status,
		).toBe(200);
		expect((await refresh('in', t.refresh_token)).access_token).toEqual(expect.any(String));
	});
});

describe('revoke and fault switches', () => {
	test('POST revoke kills the refresh token and its access tokens', async () => {
		const tok = await exchange('us', await codeFor('us'));
		const ref = await refresh('us', tok.refresh_token as string);
		const r = await call(
			'POST',
			`/us/oauth/v2/token/revoke?token=${encodeURIComponent(tok.refresh_token as string)}`,
		);
		expect(r.status).toBe(200);
		expect(JSON.parse(r.text)).toEqual({ status: 'success' });
		expect(accounts.checkAccessToken(tok.access_token as string, 'us')).toEqual({
			ok: false,
			reason: 'unknown',
		});
		expect(accounts.checkAccessToken(ref.access_token as string, 'us')).toEqual({
			ok: false,
			reason: 'unknown',
		});
		expect((await refresh('us', tok.refresh_token as string)).error).toBe('invalid_code');
	});

	test('GET revoke and a token in the form body work too; unknown token is a 200 no-op', async () => {
		const a = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'us', scopes: SCOPES });
		const b = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'us', scopes: SCOPES });
		expect(
			(await call('GET', `/us/oauth/v2/token/revoke?token=${encodeURIComponent(a.refresh_token)}`))
				.status,
		).toBe(200);
		expect(
			(await call('POST', '/us/oauth/v2/token/revoke', { form: { token: b.refresh_token } }))
				.status,
		).toBe(200);
		expect((await refresh('us', a.refresh_token)).error).toBe('invalid_code');
		expect((await refresh('us', b.refresh_token)).error).toBe('invalid_code');
		expect((await call('POST', '/us/oauth/v2/token/revoke?token=nothing')).status).toBe(200);
	});

	test('revokeRefreshToken() does the same without HTTP', async () => {
		const t = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'us', scopes: SCOPES });
		expect(accounts.checkAccessToken(t.access_token, 'us').ok).toBe(true);
		accounts.revokeRefreshToken(t.refresh_token);
		expect(accounts.checkAccessToken(t.access_token, 'us')).toEqual({
			ok: false,
			reason: 'unknown',
		});
		expect((await refresh('us', t.refresh_token)).error).toBe('invalid_code');
	});

	test('expireAllAccessTokens expires every access token; refresh still works', async () => {
		const a = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'us', scopes: SCOPES });
		const b = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'eu', scopes: SCOPES });
		accounts.expireAllAccessTokens();
		expect(accounts.checkAccessToken(a.access_token, 'us')).toEqual({
			ok: false,
			reason: 'expired',
		});
		expect(accounts.checkAccessToken(b.access_token, 'eu')).toEqual({
			ok: false,
			reason: 'expired',
		});
		const ref = await refresh('us', a.refresh_token);
		expect(accounts.checkAccessToken(ref.access_token as string, 'us').ok).toBe(true);
	});

	test('checkAccessToken: missing and unknown', () => {
		expect(accounts.checkAccessToken(undefined, 'us')).toEqual({ ok: false, reason: 'missing' });
		expect(accounts.checkAccessToken('', 'us')).toEqual({ ok: false, reason: 'missing' });
		expect(accounts.checkAccessToken('1000.bogus', 'us')).toEqual({ ok: false, reason: 'unknown' });
	});
});

describe('token limits', () => {
	test('the 11th access token from one refresh token within 10 minutes deletes the first', async () => {
		const t = accounts.issueTokens({ clientId: CLIENT.clientId, region: 'us', scopes: SCOPES }); // #1
		const minted: string[] = [t.access_token];
		for (let i = 0; i < 10; i++)
			minted.push((await refresh('us', t.refresh_token)).access_token as string);
		expect(accounts.checkAccessToken(minted[0], 'us')).toEqual({ ok: false, reason: 'unknown' });
		for (const tok of minted.slice(1)) expect(accounts.checkAccessToken(tok, 'us').ok).toBe(true);
		// outside the window nothing more is deleted
		clock.advance(10 * 60_000 + 1);
		const later = (await refresh('us', t.refresh_token)).access_token as string;
		expect(accounts.checkAccessToken(later, 'us').ok).toBe(true);
		expect(accounts.checkAccessToken(minted[1], 'us').ok).toBe(true);
	});

	test('the 21st refresh token of a client within 10 minutes deletes the first', async () => {
		const pairs = Array.from({ length: 21 }, () =>
			accounts.issueTokens({ clientId: CLIENT.clientId, region: 'us', scopes: SCOPES }),
		);
		expect((await refresh('us', pairs[0].refresh_token)).error).toBe('invalid_code');
		expect((await refresh('us', pairs[1].refresh_token)).access_token).toEqual(expect.any(String));
		expect(accounts.checkAccessToken(pairs[0].access_token, 'us').ok).toBe(true); // access tokens run out normally
	});
});

describe('helpers', () => {
	test('parseScopes splits on commas and whitespace and drops duplicates', () => {
		expect(parseScopes('A.b.READ, A.b.READ  C.d.ALL,,')).toEqual(['A.b.READ', 'C.d.ALL']);
		expect(parseScopes(null)).toEqual([]);
	});

	test('scopeCovers', () => {
		expect(scopeCovers('VendorProjects.portals.ALL', 'VendorProjects.portals.CREATE')).toBe(true);
		expect(scopeCovers('VendorProjects.portals.READ', 'VendorProjects.portals.ALL')).toBe(false);
		expect(scopeCovers('VendorProjects.portals.READ', 'VendorProjects.projects.READ')).toBe(false);
		expect(scopeCovers('VendorProjects.portals.READ', 'VendorSearch.portals.READ')).toBe(false);
	});

	test('parseVendorAuthorization', () => {
		expect(parseVendorAuthorization('Vendor-oauthtoken 1000.abc')).toBe('1000.abc');
		expect(parseVendorAuthorization('Bearer 1000.abc')).toBeUndefined();
		expect(parseVendorAuthorization(undefined)).toBeUndefined();
	});

	test('Clock is frozen unless moved; a real-time Clock follows Date.now() shifted by what it was moved', () => {
		let wall = 1_700_000_000_000;
		const now = jest.spyOn(Date, 'now').mockImplementation(() => wall);
		try {
			const c = new Clock({ start: 1_000 });
			wall += 5_000; // time passes
			expect(c.now()).toBe(1_000);
			c.advance(500);
			expect(c.now()).toBe(1_500);
			c.set(42);
			expect(c.now()).toBe(42);
			const rt = new Clock({ realTime: true });
			expect(rt.now()).toBe(wall);
			rt.advance(60_000);
			expect(rt.now()).toBe(wall + 60_000);
			wall += 1_234; // time passes
			expect(rt.now()).toBe(wall + 60_000);
			rt.set(42);
			expect(rt.now()).toBe(42);
			wall += 10;
			expect(rt.now()).toBe(52);
		} finally {
			now.mockRestore();
		}
	});
});
