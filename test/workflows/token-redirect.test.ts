/**
 * A token refresh stays home: n8n's OAuth2 helpers follow a token
 * endpoint's redirect and, on a 307 or 308, send the refresh token and the client secret on.
 * So before each refresh the package asks the token endpoint, with no secret, whether it
 * redirects (nodes/shared/api/token.ts). For every redirect status, answered by the token
 * endpoint to that check: the other host receives nothing, no refresh is sent, and the error
 * names where it pointed and says what to check. A control shows the refresh goes on where the
 * endpoint does not redirect, and that the check itself carries no secret.
 */
import type { IDataObject } from 'n8n-workflow';

import { useProxiedEnv } from '../tools/proxied-env';
import { startWireServer, type WireServer } from '../tools/wire-server';
import { isRedirectCheck, steps } from '../../harness/workflows';

const ctx = useProxiedEnv({ demo: true });
const env = ctx.env;
let other: WireServer;

beforeAll(async () => {
	other = await startWireServer();
});
afterAll(async () => await other.close());
beforeEach(() => {
	other.received.length = 0;
	env.em.accounts.expireAllAccessTokens();
});

const list = () =>
	steps('vendorBooks', { organizationId: env.org, resource: 'item' })(
		'List',
		{ operation: 'getAll', returnAll: false, limit: 1 },
		{ onError: 'continueRegularOutput' },
	);
const isTokenCall = (r: { path: string }) => /\/oauth\/v2\/token$/.test(r.path);

/** The client secret and the tokens the credential holds now. */
function secrets(): string[] {
	const data = env.credentials[0].data as IDataObject;
	const token = data.oauthTokenData as IDataObject;
	return [String(data.clientSecret), String(token.access_token), String(token.refresh_token)];
}

test.each([301, 302, 303, 307, 308])(
	'the token endpoint answers %i to another host: nothing reaches it, no refresh is sent, the error names where it pointed',
	async (status) => {
		const held = secrets();
		ctx.proxy.add({
			method: 'POST',
			path: /\/oauth\/v2\/token$/,
			action: {
				answer: {
					status,
					contentType: 'text/plain',
					body: 'moved',
					headers: { Location: `${other.url}/oauth/v2/token?client_secret=${held[0]}` },
				},
			},
		});
		const result = await env.run([list()]);
		expect(other.received).toEqual([]);
		// one token call, the check: no request carrying the refresh token or the client secret
		const tokenCalls = ctx.proxy.records.filter(isTokenCall);
		expect(
			tokenCalls.map((r) =>
				isRedirectCheck({
					path: r.path,
					body: r.json ?? Object.fromEntries(new URLSearchParams(r.text)),
				}),
			),
		).toEqual([true]);
		for (const secret of held) expect(tokenCalls[0].text.includes(secret)).toBe(false);
		const out = result.output('List');
		expect(out).toHaveLength(1);
		const host = new URL(other.url).host;
		expect(out[0].json.error).toBe(
			`The token endpoint answered HTTP ${status}, a redirect to ${host}/oauth/v2/token: the access token was not refreshed [item 0]`,
		);
		expect(String(out[0].json.description)).toMatch(/Data Center Region/);
		const shown = JSON.stringify(out) + JSON.stringify(result.error() ?? {});
		for (const secret of held) expect(shown.includes(secret)).toBe(false);
	},
);

test('a token endpoint that does not redirect: the check (no secret), then the refresh, then the call with the new token', async () => {
	const held = secrets();
	const result = await env.run([list()]);
	expect(result.output('List')[0].json.error).toBeUndefined();
	const tokenCalls = ctx.proxy.records.filter(isTokenCall);
	expect(tokenCalls.map((r) => new URLSearchParams(r.text).has('refresh_token'))).toEqual([
		false,
		true,
	]);
	for (const secret of held) expect(tokenCalls[0].text.includes(secret)).toBe(false);
	expect(secrets()[1]).not.toBe(held[1]);
});
