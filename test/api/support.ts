/**
 * A node context for calling the transport directly (nodes/shared/api/transport.ts): the
 * credential's Custom addresses point at a local server, `helpers.httpRequest` is n8n-core's own
 * request helper (or a stub a test gives), and the token refresh is a stub. Each context is a new
 * credential id unless one is given, so no pacer or token state is shared between tests.
 */
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';

import type { ApiRequest } from '../../nodes/shared/api/request';
import { RunState, type VendorContext } from '../../nodes/shared/api/transport';

/** n8n-core's `httpRequest` (what `this.helpers.httpRequest` runs in a node), loaded from the installed n8n-core. */
export function n8nHttpRequest(): (options: IHttpRequestOptions) => Promise<unknown> {
	const helpers =
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as {
			httpRequest: (options: IHttpRequestOptions) => Promise<unknown>;
		};
	return helpers.httpRequest;
}

/** An access token of the vendor family's shape (`1000.<hex>`): redacted wherever it would be shown. */
export const SIGNING_VALUE = [
	'1000',
	'0123456789abcdef'.repeat(2),
	'fedcba9876543210'.repeat(2),
].join('.');
/** What a refresh gives in its place. */
const RENEWED_VALUE = ['1000', 'a'.repeat(32), 'b'.repeat(32)].join('.');

let credentials = 0;

interface TestContext {
	ctx: VendorContext;
	/** The state of one run on `ctx` (api/run.ts): what the run's requests are sent with. */
	run: RunState;
	node: INode;
	/** How many token refreshes were asked. */
	refreshes: () => number;
}

/**
 * A context whose credential's API and Projects addresses are `baseUrl`; `httpRequest` sends
 * (default: n8n-core's); `refresh` answers a refresh (default: a new token at once).
 */
export function testContext(
	baseUrl: string,
	opts: {
		httpRequest?: (options: IHttpRequestOptions) => Promise<unknown>;
		refresh?: () => Promise<IDataObject>;
		credentialId?: string;
	} = {},
): TestContext {
	const id = opts.credentialId ?? `wire-${++credentials}`;
	const node: INode = {
		id: 'n',
		name: 'Node',
		type: 'n8n-nodes-vendor.vendorBooks',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { vendorOAuth2Api: { id, name: id } },
	};
	let stored: IDataObject = {
		region: 'custom',
		apiUrl: baseUrl,
		projectsUrl: baseUrl,
		accountsUrl: baseUrl,
		oauthTokenData: { access_token: SIGNING_VALUE, refresh_token: 'r' },
	};
	let refreshes = 0;
	const refresh = opts.refresh ?? (async () => ({ access_token: RENEWED_VALUE, expires_in: 3600 }));
	const ctx = {
		getNode: () => node,
		getCredentials: async () => stored,
		helpers: {
			// n8n-core's helper loaded at the first request sent, so that suites replacing the transport never load it
			httpRequest:
				opts.httpRequest ?? ((options: IHttpRequestOptions) => n8nHttpRequest()(options)),
			refreshOAuth2Token: async () => {
				refreshes++;
				const data = await refresh();
				stored = {
					...stored,
					oauthTokenData: { ...(stored.oauthTokenData as IDataObject), ...data },
				};
				return data;
			},
		},
	} as unknown as VendorContext;
	return { ctx, run: new RunState(ctx), node, refreshes: () => refreshes };
}

/** A server of the transport's tests (no request leaves the process: the request helper is a stub). */
export const BASE = 'https://api.wire.test';
/** A list read of Books items. */
export const GET: ApiRequest = {
	method: 'GET',
	path: '/items',
	qs: { organization_id: '1' },
	headers: {},
};

/** An answer of the stub request helper: a status with headers and body, a refused connection, or none ever. */
export type Answer =
	| { statusCode: number; headers?: IDataObject; body?: string }
	| 'refused'
	| 'hang';

/** A stand-in for n8n's request helper: the answers in order (the last repeats); every call is recorded. */
export function answering(answers: Answer[]) {
	const calls: Array<{ at: number; options: IHttpRequestOptions }> = [];
	const httpRequest = async (options: IHttpRequestOptions) => {
		calls.push({ at: Date.now(), options });
		const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
		if (answer === 'refused')
			throw Object.assign(new Error('connect ECONNREFUSED'), {
				code: 'ECONNREFUSED',
				isAxiosError: true,
			});
		if (answer === 'hang') {
			return await new Promise((_resolve, reject) => {
				(options.abortSignal as AbortSignal | undefined)?.addEventListener('abort', () =>
					reject(
						Object.assign(new Error('canceled'), { code: 'ERR_CANCELED', isAxiosError: true }),
					),
				);
			});
		}
		return {
			statusCode: answer.statusCode,
			headers: { 'content-type': 'application/json', ...answer.headers },
			body: Buffer.from(answer.body ?? '{"code":0,"items":[]}'),
		};
	};
	return { calls, httpRequest };
}

/** A JSON answer. */
export const json = (statusCode: number, body: unknown, headers: IDataObject = {}): Answer => ({
	statusCode,
	headers,
	body: JSON.stringify(body),
});

/** Runs `work` on the fake clock until it settles (at most `limitMs` simulated): its outcome and the simulated time it took. */
export async function onFakeClock<T>(
	work: Promise<T>,
	limitMs = 3_600_000,
): Promise<{ value?: T; error?: Error; elapsed: number }> {
	const start = Date.now();
	let outcome: { value?: T; error?: Error } | undefined;
	work.then(
		(value) => (outcome = { value }),
		(error: Error) => (outcome = { error }),
	);
	// what settles without time passing is seen at 0 ms
	for (let i = 0; i < 5 && !outcome; i++) await jest.advanceTimersByTimeAsync(0);
	while (!outcome && Date.now() - start < limitMs) await jest.advanceTimersByTimeAsync(100);
	return { ...outcome, elapsed: Date.now() - start };
}
