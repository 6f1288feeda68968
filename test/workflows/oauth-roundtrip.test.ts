/**
 * The whole OAuth life of the credential against the emulator's accounts server:
 * authorize (Accept) -> code -> token -> API call through the node -> token expiry ->
 * refresh -> API call; and the URLs the credential derives from its region.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { DEFAULT_SCOPES, VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { REGIONS } from '../../nodes/shared/api/regions';
import { HarnessCredentialsHelper, HarnessCredentialTypes } from '../../harness';
import type { HarnessCredential } from '../../harness';
import { Clock } from '../../emulator/clock';
import { CREDENTIAL_ID, expectNoError, json } from '../../harness/workflows';
import { WorkflowEnv } from './support';

const env = new WorkflowEnv();
beforeAll(async () => await env.start({ clock: new Clock() }));
afterAll(async () => await env.stop());

/** The credential's fields as n8n resolves them (defaults applied, expressions evaluated). */
function resolved(data: IDataObject): IDataObject {
	const helper = new HarnessCredentialsHelper(new HarnessCredentialTypes([VendorOAuth2Api]), []);
	return helper.applyDefaultsAndResolve(
		{} as IWorkflowExecuteAdditionalData,
		data as ICredentialDataDecryptedObject,
		'vendorOAuth2Api',
		'manual',
	) as IDataObject;
}

test('the region decides the authorization and token URLs; Custom uses its own fields', () => {
	for (const [region, urls] of Object.entries(REGIONS)) {
		const c = resolved({ region, clientId: 'id', clientSecret: 's' });
		expect([c.authUrl, c.accessTokenUrl]).toEqual([
			`${urls.accounts}/oauth/v2/auth`,
			`${urls.accounts}/oauth/v2/token`,
		]);
	}
	const custom = resolved({
		region: 'custom',
		accountsUrl: 'http://127.0.0.1:9/eu/',
		clientId: 'id',
		clientSecret: 's',
	});
	expect(custom).toMatchObject({
		authUrl: 'http://127.0.0.1:9/eu/oauth/v2/auth',
		accessTokenUrl: 'http://127.0.0.1:9/eu/oauth/v2/token',
		authQueryParameters: 'access_type=offline&prompt=consent',
		authentication: 'body',
		grantType: 'authorizationCode',
		scope: DEFAULT_SCOPES,
	});
});

test('authorize (Accept) -> code -> token -> API call -> expiry -> refresh -> API call', async () => {
	const { em } = env;
	const urls = em.regionUrls('us');
	const settings = resolved({
		region: 'custom',
		accountsUrl: urls.accounts,
		apiUrl: urls.api,
		projectsUrl: urls.projects,
		clientId: em.defaultClient.clientId,
		clientSecret: em.defaultClient.clientSecret,
	});

	// 1. n8n sends the user to the authorization URL with the credential's parameters.
	const auth = new URL(String(settings.authUrl));
	auth.search = new URLSearchParams({
		client_id: String(settings.clientId),
		redirect_uri: em.defaultClient.redirectUri,
		response_type: 'code',
		scope: String(settings.scope),
		state: 'n8n-state',
		...Object.fromEntries(new URLSearchParams(String(settings.authQueryParameters))),
	}).toString();
	const page = await fetch(auth);
	const html = await page.text();
	expect(page.status).toBe(200);
	for (const scope of DEFAULT_SCOPES.split(',')) expect(html).toContain(scope);
	const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
	expect(requestId).toBeDefined();

	// 2. The user clicks Accept; the redirect carries the code.
	const decision = await fetch(`${em.url}/us/oauth/v2/auth/decision`, {
		method: 'POST',
		body: new URLSearchParams({ request_id: String(requestId), decision: 'accept' }),
		redirect: 'manual',
	});
	expect(decision.status).toBe(302);
	const back = new URL(String(decision.headers.get('location')));
	expect(`${back.origin}${back.pathname}`).toBe(em.defaultClient.redirectUri);
	expect(back.searchParams.get('state')).toBe('n8n-state');
	expect(back.searchParams.get('accounts-server')).toBe(urls.accounts);
	const code = String(back.searchParams.get('code'));

	// 3. n8n exchanges the code (client credentials in the body) and stores the token.
	const tokenAnswer = await fetch(String(settings.accessTokenUrl), {
		method: 'POST',
		body: new URLSearchParams({
			grant_type: 'authorization_code',
			code,
			redirect_uri: em.defaultClient.redirectUri,
			client_id: em.defaultClient.clientId,
			client_secret: em.defaultClient.clientSecret,
		}),
	});
	const token = (await tokenAnswer.json()) as IDataObject;
	expect(token).toMatchObject({ token_type: 'Bearer', expires_in_sec: 3600, api_domain: urls.api });
	expect(token.refresh_token).toEqual(expect.any(String));
	const credential: HarnessCredential = {
		id: CREDENTIAL_ID,
		name: 'Vendor (emulator)',
		type: 'vendorOAuth2Api',
		data: {
			region: 'custom',
			accountsUrl: urls.accounts,
			apiUrl: urls.api,
			projectsUrl: urls.projects,
			clientId: em.defaultClient.clientId,
			clientSecret: em.defaultClient.clientSecret,
			oauthTokenData: token,
		},
	};
	env.credentials = [credential];

	// 4. An API call through the node, signed with the new token.
	em.clearRequests();
	const list = [
		{
			name: 'Items',
			type: 'vendorBooks',
			parameters: {
				organizationId: em.organizationId,
				resource: 'item',
				operation: 'getAll',
				returnAll: true,
			},
		},
	];
	const first = await env.run(list);
	expectNoError(first);
	expect(env.apiRequests().map((r) => [r.status, r.headers.authorization])).toEqual([
		[200, `Vendor-oauthtoken ${token.access_token}`],
	]);

	// 5. An hour passes: the token expires; the node refreshes once and calls again.
	em.clock.advance(3601_000);
	em.clearRequests();
	const second = await env.run(list);
	expectNoError(second);
	expect(json(second, 'Items')).toEqual(json(first, 'Items'));
	const stored = credential.data.oauthTokenData as IDataObject;
	expect(stored.access_token).not.toBe(token.access_token);
	expect(stored.refresh_token).toBe(token.refresh_token);
	expect(em.requests.map((r) => [r.area, r.status])).toEqual([
		['books', 401],
		['accounts', 200], // the token endpoint asked without a secret whether it redirects
		['accounts', 200],
		['books', 200],
	]);
	expect(env.apiRequests()[1].headers.authorization).toBe(
		`Vendor-oauthtoken ${stored.access_token}`,
	);
	// The admin route shows that refresh (n8n's own token call) without its secrets.
	const admin = await (await fetch(`${em.url}/__admin/requests`)).text();
	for (const secret of [
		em.defaultClient.clientSecret,
		String(token.refresh_token),
		String(token.access_token),
		String(stored.access_token),
	])
		expect(admin).not.toContain(secret);
	const refresh = (
		JSON.parse(admin) as Array<{ area?: string; body?: IDataObject; headers: IDataObject }>
	).find((r) => r.area === 'accounts' && r.body?.refresh_token !== undefined);
	expect(refresh?.body?.grant_type).toBe('refresh_token');
	expect([
		refresh?.body?.refresh_token,
		refresh?.body?.client_secret ?? refresh?.headers.authorization,
	]).toEqual(['<redacted>', expect.stringContaining('<redacted>')]);

	// 6. A revoked refresh token cannot be used again: the node reports the token problem.
	em.accounts.revokeRefreshToken(String(token.refresh_token));
	em.accounts.expireAllAccessTokens();
	const third = await env.run(list);
	const error = third.error('Items');
	expect(error?.message).toBe('The access token could not be refreshed (invalid_code) [item 0]');
	expect((error as { description?: string }).description).toMatch(
		/Reconnect the Vendor credential/,
	);
	expect(JSON.stringify(error)).not.toContain(em.defaultClient.clientSecret);
	expect(JSON.stringify(error)).not.toContain(String(token.refresh_token));
});

test('an account of another region: Accept names its accounts-server, the token call to the chosen region answers invalid_client, and the node explains why and what to do', async () => {
	const { em } = env;
	const us = em.regionUrls('us');
	const eu = em.regionUrls('eu');
	const settings = resolved({
		region: 'custom',
		accountsUrl: us.accounts,
		apiUrl: us.api,
		projectsUrl: us.projects,
		clientId: em.defaultClient.clientId,
		clientSecret: em.defaultClient.clientSecret,
	});
	em.accounts.accountRegion = 'eu';
	try {
		em.accounts.autoDecision = 'accept';
		const auth = new URL(String(settings.authUrl));
		auth.search = new URLSearchParams({
			client_id: em.defaultClient.clientId,
			redirect_uri: em.defaultClient.redirectUri,
			response_type: 'code',
			scope: String(settings.scope),
			...Object.fromEntries(new URLSearchParams(String(settings.authQueryParameters))),
		}).toString();
		const accepted = await fetch(auth, { redirect: 'manual' });
		const back = new URL(String(accepted.headers.get('location')));
		expect([back.searchParams.get('location'), back.searchParams.get('accounts-server')]).toEqual([
			'eu',
			eu.accounts,
		]);
		const exchange = async (tokenUrl: string) =>
			(await (
				await fetch(tokenUrl, {
					method: 'POST',
					body: new URLSearchParams({
						grant_type: 'authorization_code',
						code: String(back.searchParams.get('code')),
						redirect_uri: em.defaultClient.redirectUri,
						client_id: em.defaultClient.clientId,
						client_secret: em.defaultClient.clientSecret,
					}),
				})
			).json()) as IDataObject;

		// n8n sends the code to the token URL of the chosen region: a region mismatch (HTTP 200, as the vendor answers).
		const answer = await exchange(String(settings.accessTokenUrl));
		expect(answer).toEqual({ error: 'invalid_client' });
		// n8n stores that answer as the credential's token data; the node says what happened and what to do.
		env.credentials = [
			{
				id: CREDENTIAL_ID,
				name: 'Vendor (emulator)',
				type: 'vendorOAuth2Api',
				data: {
					...settings,
					region: 'custom',
					accountsUrl: us.accounts,
					apiUrl: us.api,
					projectsUrl: us.projects,
					oauthTokenData: answer,
				},
			},
		];
		em.clearRequests();
		const run = await env.run([
			{
				name: 'Items',
				type: 'vendorBooks',
				parameters: {
					organizationId: em.organizationId,
					resource: 'item',
					operation: 'getAll',
					returnAll: true,
				},
			},
		]);
		const error = run.error('Items') as (Error & { description?: string }) | undefined;
		expect(error?.message).toBe(
			'The credential holds no access token: the token call answered invalid_client [item 0]',
		);
		expect(error?.description).toMatch(/your account lives in another data-center region/);
		expect(error?.description).toMatch(/accounts-server/);
		expect(error?.description).toMatch(
			/Set Data Center Region to your account's region, or choose Custom with that accounts-server address as Accounts URL/,
		);
		expect(em.requests).toHaveLength(0);
		expect(JSON.stringify(error)).not.toContain(em.defaultClient.clientSecret);

		// What the explanation says to do works: the account's own accounts server takes the code.
		const again = await fetch(auth, { redirect: 'manual' });
		const code = new URL(String(again.headers.get('location'))).searchParams.get('code');
		const fixed = (await (
			await fetch(`${eu.accounts}/oauth/v2/token`, {
				method: 'POST',
				body: new URLSearchParams({
					grant_type: 'authorization_code',
					code: String(code),
					redirect_uri: em.defaultClient.redirectUri,
					client_id: em.defaultClient.clientId,
					client_secret: em.defaultClient.clientSecret,
				}),
			})
		).json()) as IDataObject;
		expect(fixed.access_token).toEqual(expect.any(String));
	} finally {
		em.accounts.accountRegion = null;
		em.accounts.autoDecision = null;
	}
});

test("a refresh sent to another region than the token's answers invalid_client: the error explains the region mismatch", async () => {
	const { em } = env;
	const tokens = em.issueToken({ region: 'eu' });
	const us = em.regionUrls('us');
	env.credentials = [
		{
			id: CREDENTIAL_ID,
			name: 'Vendor (emulator)',
			type: 'vendorOAuth2Api',
			data: {
				region: 'custom',
				accountsUrl: us.accounts,
				apiUrl: us.api,
				projectsUrl: us.projects,
				clientId: em.defaultClient.clientId,
				clientSecret: em.defaultClient.clientSecret,
				oauthTokenData: { ...tokens, api_domain: undefined } as unknown as IDataObject,
			},
		},
	];
	const run = await env.run([
		{
			name: 'Items',
			type: 'vendorBooks',
			parameters: {
				organizationId: em.organizationId,
				resource: 'item',
				operation: 'getAll',
				returnAll: true,
			},
		},
	]);
	const error = run.error('Items') as (Error & { description?: string }) | undefined;
	expect(error?.message).toBe('The access token could not be refreshed (invalid_client) [item 0]');
	expect(error?.description).toMatch(/your account lives in another data-center region/);
	expect(JSON.stringify(error)).not.toContain(String(tokens.refresh_token));
});

test("the credential's comma-separated scope is accepted and a space-separated one refused; a grant code lives one minute", async () => {
	const { em } = env;
	const us = em.regionUrls('us');
	const settings = resolved({
		region: 'custom',
		accountsUrl: us.accounts,
		apiUrl: us.api,
		projectsUrl: us.projects,
		clientId: em.defaultClient.clientId,
		clientSecret: em.defaultClient.clientSecret,
	});
	const authorize = async (scope: string) => {
		const auth = new URL(String(settings.authUrl));
		auth.search = new URLSearchParams({
			client_id: em.defaultClient.clientId,
			redirect_uri: em.defaultClient.redirectUri,
			response_type: 'code',
			scope,
			...Object.fromEntries(new URLSearchParams(String(settings.authQueryParameters))),
		}).toString();
		return await fetch(auth, { redirect: 'manual', headers: { Accept: 'application/json' } });
	};
	em.accounts.autoDecision = 'accept';
	try {
		expect(String(settings.scope)).toBe(DEFAULT_SCOPES);
		const spaced = await authorize(DEFAULT_SCOPES.split(',').join(' '));
		expect([spaced.status, await spaced.json()]).toEqual([400, { error: 'ERROR_invalid_scope' }]);
		const accepted = await authorize(String(settings.scope));
		expect(accepted.status).toBe(302);
		const code = String(new URL(String(accepted.headers.get('location'))).searchParams.get('code'));
		em.clock.advance(60_001);
		const late = await fetch(String(settings.accessTokenUrl), {
			method: 'POST',
			body: new URLSearchParams({
				grant_type: 'authorization_code',
				code,
				redirect_uri: em.defaultClient.redirectUri,
				client_id: em.defaultClient.clientId,
				client_secret: em.defaultClient.clientSecret,
			}),
		});
		expect(await late.json()).toEqual({ error: 'invalid_code' });
	} finally {
		em.accounts.autoDecision = null;
	}
});

test('a good refresh succeeds although the stored token data still holds the error of an earlier refused refresh (n8n merges token data)', async () => {
	const { em } = env;
	const tokens = em.issueToken({ region: 'us' });
	const us = em.regionUrls('us');
	const credential: HarnessCredential = {
		id: CREDENTIAL_ID,
		name: 'Vendor (emulator)',
		type: 'vendorOAuth2Api',
		data: {
			region: 'custom',
			accountsUrl: us.accounts,
			apiUrl: us.api,
			projectsUrl: us.projects,
			clientId: em.defaultClient.clientId,
			clientSecret: em.defaultClient.clientSecret,
			oauthTokenData: { ...tokens, error: 'invalid_code' } as unknown as IDataObject,
		},
	};
	env.credentials = [credential];
	em.clock.advance(3601_000); // the access token expires: the next call refreshes
	em.clearRequests();
	const run = await env.run([
		{
			name: 'Items',
			type: 'vendorBooks',
			parameters: {
				organizationId: em.organizationId,
				resource: 'item',
				operation: 'getAll',
				returnAll: true,
			},
		},
	]);
	expectNoError(run);
	expect(em.requests.map((r) => [r.area, r.status])).toEqual([
		['books', 401],
		['accounts', 200], // the token endpoint asked without a secret whether it redirects
		['accounts', 200],
		['books', 200],
	]);
	const stored = credential.data.oauthTokenData as IDataObject;
	expect(stored.access_token).not.toBe(tokens.access_token);
	expect(env.apiRequests()[1].headers.authorization).toBe(
		`Vendor-oauthtoken ${String(stored.access_token)}`,
	);
});
