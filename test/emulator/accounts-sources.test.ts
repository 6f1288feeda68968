/**
 * Every refusal of the emulator's accounts server names its source, as the API's refusals do
 * (sources.test.ts, table-sources.test.ts): each way the authorization page, the consent step
 * and the token endpoint refuse is made to happen over HTTP, and its `X-Emulator-Source` header
 * must be the source accounts.ts gives that refusal, a quote of the Conventions document found in the section
 * it names (where the API reference is beside the repository) or a docs/ASSUMPTIONS.md bullet.
 * The scenarios are listed against OAUTH_SOURCES: a source no scenario reaches fails too.
 * Run: npx jest test/emulator/accounts-sources
 */
import { request } from 'undici';
import { OAUTH_SOURCES } from '../../emulator/accounts';
import { Clock } from '../../emulator/clock';
import { type Emulator, startEmulator } from '../../emulator/server';
import { sourceProblems } from '../tools/doc-sources';

type SourceKey = keyof typeof OAUTH_SOURCES;

const EU_CLIENT = {
	clientId: '1000.MULTIDC',
	clientSecret: 'main-secret',
	regionSecrets: { eu: 'eu-secret' },
	redirectUris: ['http://localhost:5678/cb'],
	name: 'Multi-DC app',
};

let em: Emulator;

beforeEach(async () => {
	em = await startEmulator({ clock: new Clock(), clients: [EU_CLIENT] });
});
afterEach(async () => {
	await em.close();
});

interface Answer {
	status: number;
	source: string | undefined;
	error: string | undefined;
}

async function send(
	method: 'GET' | 'POST' | 'PUT',
	path: string,
	form?: Record<string, string>,
	accept = 'application/json',
): Promise<Answer> {
	const r = await request(`${em.url}${path}`, {
		method,
		headers: { accept, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
		body: form ? new URLSearchParams(form).toString() : undefined,
	});
	const text = await r.body.text();
	const header = r.headers['x-emulator-source'];
	let error: string | undefined;
	try {
		error = (JSON.parse(text) as { error?: string }).error;
	} catch {
		error = /<p id="error">([^<]+)<\/p>/.exec(text)?.[1];
	}
	return { status: r.statusCode, source: Array.isArray(header) ? header[0] : header, error };
}

const client = () => em.defaultClient;

function authorize(
	over: Record<string, string | undefined> = {},
	accept?: string,
): Promise<Answer> {
	const params: Record<string, string | undefined> = {
		scope: 'VendorBooks.invoices.ALL',
		client_id: client().clientId,
		response_type: 'code',
		access_type: 'offline',
		redirect_uri: client().redirectUri,
		...over,
	};
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
	return send('GET', `/us/oauth/v2/auth?${q.toString()}`, undefined, accept);
}

function token(region: string, form: Record<string, string>): Promise<Answer> {
	return send('POST', `/${region}/oauth/v2/token`, form);
}

/** A grant code of the default client from the consent (answered without the page). */
async function grantCode(): Promise<string> {
	em.accounts.autoDecision = 'accept';
	const r = await request(
		`${em.url}/us/oauth/v2/auth?${new URLSearchParams({ scope: 'VendorBooks.invoices.ALL', client_id: client().clientId, response_type: 'code', access_type: 'offline', redirect_uri: client().redirectUri }).toString()}`,
	);
	await r.body.text();
	const code = new URL(String(r.headers.location)).searchParams.get('code');
	if (!code) throw new Error('no grant code');
	return code;
}

const refreshForm = (over: Record<string, string> = {}): Record<string, string> => ({
	grant_type: 'refresh_token',
	refresh_token: em.issueToken().refresh_token,
	client_id: client().clientId,
	client_secret: client().clientSecret,
	...over,
});

/** Each way the accounts server refuses: the request, its status, its error code, its source. */
const SCENARIOS: Array<{
	name: string;
	source: SourceKey;
	status: number;
	error: string;
	run: () => Promise<Answer>;
}> = [
	{
		name: 'response_type other than code',
		source: 'responseType',
		status: 400,
		error: 'ERROR_invalid_response_type',
		run: () => authorize({ response_type: 'token' }),
	},
	{
		name: 'a mandatory key missing (redirect_uri)',
		source: 'responseType',
		status: 400,
		error: 'ERROR_invalid_response_type',
		run: () => authorize({ redirect_uri: undefined }),
	},
	{
		name: 'access_type neither online nor offline',
		source: 'accessType',
		status: 400,
		error: 'ERROR_invalid_response_type',
		run: () => authorize({ access_type: 'forever' }),
	},
	{
		name: 'an unknown client id',
		source: 'authClient',
		status: 400,
		error: 'ERROR_invalid_client',
		run: () => authorize({ client_id: '1000.NOBODY' }),
	},
	{
		name: 'an empty client id, as an HTML page',
		source: 'authClient',
		status: 400,
		error: 'ERROR_invalid_client',
		run: () => authorize({ client_id: '' }, 'text/html'),
	},
	{
		name: 'a redirect URI not registered',
		source: 'authRedirect',
		status: 400,
		error: 'ERROR_invalid_redirect_uri',
		run: () => authorize({ redirect_uri: 'http://elsewhere.example/cb' }),
	},
	{
		name: 'scopes separated by a space',
		source: 'scopeSeparator',
		status: 400,
		error: 'ERROR_invalid_scope',
		run: () => authorize({ scope: 'VendorBooks.invoices.READ VendorBooks.bills.READ' }),
	},
	{
		name: 'a scope of an unknown service',
		source: 'scope',
		status: 400,
		error: 'ERROR_invalid_scope',
		run: () => authorize({ scope: 'VendorNowhere.invoices.READ' }),
	},
	{
		name: 'a consent answer for an unknown request',
		source: 'consent',
		status: 400,
		error: 'ERROR_invalid_authorization_request',
		run: () =>
			send('POST', '/us/oauth/v2/auth/decision', { request_id: 'nope', decision: 'accept' }),
	},
	{
		name: 'PUT on the token endpoint',
		source: 'method',
		status: 405,
		error: 'method_not_allowed',
		run: () => send('PUT', '/us/oauth/v2/token', {}),
	},
	{
		name: 'GET on the consent step',
		source: 'method',
		status: 405,
		error: 'method_not_allowed',
		run: () => send('GET', '/us/oauth/v2/auth/decision'),
	},
	{
		name: 'grant_type password',
		source: 'grantType',
		status: 200,
		error: 'unsupported_grant_type',
		run: () => token('us', refreshForm({ grant_type: 'password' })),
	},
	{
		name: 'a wrong client secret',
		source: 'tokenClient',
		status: 200,
		error: 'invalid_client',
		run: () => token('us', refreshForm({ client_secret: 'wrong' })),
	},
	{
		name: 'an unknown client id',
		source: 'tokenClient',
		status: 200,
		error: 'invalid_client',
		run: () => token('us', refreshForm({ client_id: '1000.NOBODY' })),
	},
	{
		name: 'the main secret where the region has its own (multi-data-center)',
		source: 'regionSecret',
		status: 200,
		error: 'invalid_client',
		run: () =>
			token('eu', {
				grant_type: 'refresh_token',
				refresh_token: 'x',
				client_id: EU_CLIENT.clientId,
				client_secret: EU_CLIENT.clientSecret,
			}),
	},
	{
		name: 'a refresh token of another region',
		source: 'regionMismatch',
		status: 200,
		error: 'invalid_client',
		run: () => token('eu', refreshForm()),
	},
	{
		name: 'an unknown refresh token',
		source: 'code',
		status: 200,
		error: 'invalid_code',
		run: () => token('us', refreshForm({ refresh_token: '1000.unknown' })),
	},
	{
		name: 'a grant code with another redirect URI',
		source: 'tokenRedirect',
		status: 200,
		error: 'invalid_redirect_uri',
		run: async () =>
			token('us', {
				grant_type: 'authorization_code',
				code: await grantCode(),
				client_id: client().clientId,
				client_secret: client().clientSecret,
				redirect_uri: 'http://elsewhere.example/cb',
			}),
	},
	{
		name: 'a grant code used twice',
		source: 'code',
		status: 200,
		error: 'invalid_code',
		run: async () => {
			const form = {
				grant_type: 'authorization_code',
				code: await grantCode(),
				client_id: client().clientId,
				client_secret: client().clientSecret,
				redirect_uri: client().redirectUri,
			};
			expect((await token('us', form)).error).toBeUndefined();
			return token('us', form);
		},
	},
];

describe('each refusal of the accounts server carries the source accounts.ts gives it', () => {
	test.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
		const answer = await s.run();
		expect({ status: answer.status, error: answer.error }).toEqual({
			status: s.status,
			error: s.error,
		});
		expect(answer.source).toBe(OAUTH_SOURCES[s.source]);
	});

	test('every source is a quote of the Conventions document or a docs/ASSUMPTIONS.md bullet, and some scenario reaches it', () => {
		expect(Object.values(OAUTH_SOURCES).flatMap((s) => sourceProblems(s))).toEqual([]);
		const reached = new Set(SCENARIOS.map((s) => s.source));
		expect(Object.keys(OAUTH_SOURCES).filter((k) => !reached.has(k as SourceKey))).toEqual([]);
	});

	test('what is not refused carries no source: a token, a refresh, a revoke, a consent page', async () => {
		const code = await grantCode();
		const exchanged = await token('us', {
			grant_type: 'authorization_code',
			code,
			client_id: client().clientId,
			client_secret: client().clientSecret,
			redirect_uri: client().redirectUri,
		});
		const refreshed = await token('us', refreshForm());
		const revoked = await send('POST', '/us/oauth/v2/token/revoke', { token: 'anything' });
		em.accounts.autoDecision = null;
		const page = await authorize({}, 'text/html');
		for (const a of [exchanged, refreshed, revoked, page])
			expect({ status: a.status, error: a.error, source: a.source }).toEqual({
				status: 200,
				error: undefined,
				source: undefined,
			});
	});
});
