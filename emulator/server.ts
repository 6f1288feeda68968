/**
 * The Vendor API emulator: one `node:http` server on 127.0.0.1 serving every data-center
 * region by path prefix.
 *
 *   /{region}/oauth/v2/...          accounts server (accounts.ts)
 *   /{region}/api/books/v3/...      items, estimates, invoices       (api_domain = /{region}/api)
 *   /{region}/api/invoice/v3/...    customer payments, refunds
 *   /{region}/api/billing/v1/...    billing projects
 *   /{region}/api/inventory/v1/...  bills
 *   /{region}/projects/api/v3/...   project management
 *   /__admin/...                    test and demo switches (not recorded, no auth)
 *
 * The parts, each a file (moto's URL table / request parsing / models, localstack's one
 * provider per area):
 * - routes.ts: the URL table (field tables -> routes); request.ts: reading a request's body,
 *   query and headers;
 * - handler.ts: one request from arrival to answer (record, latency, faults, accounts
 *   server or API); pipeline.ts: an API request through the checks to its rule;
 * - checks.ts: token, rate limits, scope, organisation / portal, keys no table names, field
 *   validation; rules/*.ts: the answers per area (rules/common.ts: generic by kind);
 * - state.ts: what is held between requests (store.ts, accounts.ts, clock.ts, limits.ts,
 *   faults.ts, latency, the request log); admin.ts: the admin routes;
 * - replies.ts, wire.ts, bad-answers.ts, pending.ts: the server's own replies, writing an
 *   answer, the faults that change an answer, and the waits `close()` cuts short;
 * - client.ts: a small client for tests and the demo; types.ts: the options and the handle.
 *
 * Every API request goes: route (tables) -> fault -> token (401) -> rate limit (project
 * management; the accounting areas' per organization when enabled, 429) -> scope (403) ->
 * organisation / portal -> rule `pre` -> table keys no table names (400 naming them) -> table validation (400, nested keys no table names
 * included) -> rule or generic behaviour by operation kind. Every refusal names its source
 * (`X-Emulator-Source`): the pipeline's own and the table validation's through
 * rules/table-sources.ts (an untagged one is answered 500), the rules' through rules/index.ts. Error bodies and the
 * emulator's choices are listed in rules/common.ts; area behaviour in rules/*.ts. Faults
 * (faults.ts) that answer without processing (status, drop, html) act at "fault"; those
 * that change the answer (noPageContext, endlessPages, truncated, empty, drip) act on the
 * processed answer where it is sent (`answer`; for the accounts server through its
 * `writeHead` / `end`).
 *
 * Emulator choices here:
 * - 401 (both families): `{ errorCode: 'INVALID_OAUTHTOKEN', message }`, accounting also
 *   `code: 57`. A `Bearer` scheme counts as no token.
 * - 403 (token without the operation's scopes; operations without a stated scope need
 *   none): project management `{ errorCode: 'INVALID_OAUTHSCOPE', message }`, accounting
 *   `{ code: 57, message: 'You are not authorized to perform this operation' }`.
 * - Unknown URL: project management 404 URL_RULE_NOT_CONFIGURED, known path with another
 *   method 405 INVALID_METHOD (both families: accounting `{ code: 5, message: 'Invalid URL
 *   Passed' }` for 404 and 405). Unknown region: 404 in the family's form.
 * - Organisation: books and inventory read the query `organization_id`, invoice and billing
 *   their headers; missing or unknown -> 400 `{ code: 6041, message }`. Unknown portal ->
 *   404 INVALID_PARAMETER_VALUE.
 * - Rate limit (project management only): per region + OAuth client (tokens carry no user),
 *   `rateLimit.limit` requests per sliding `windowMs`; the next request starts a block of
 *   `blockMs` during which every request gets 429 `{ errorCode: 'TOO_MANY_REQUESTS',
 *   message }`. Requests refused with 401 do not count. `Retry-After` (seconds left) is sent
 *   only with the option `retryAfterHeader: true` (the documents do not show it).
 * - Accounting rate limit (off by default; the service's help pages, not the documents):
 *   with `accountingRateLimit: { limit, windowMs, retryAfter? }`, at most `limit` requests
 *   per sliding `windowMs` per region and organization (the organization id the request
 *   carries, whatever the client) across Books, Invoice, Billing and Inventory; past it
 *   429 `{ code: 429, message }`, no block, with `Retry-After` when `retryAfter` (limits.ts).
 *   `resetRateLimits()` forgets its counts too.
 * - The clock defaults to real time (`new Clock({ realTime: true })`); pass a frozen Clock
 *   for deterministic tests. Restore windows, token expiry and rate limits read it, and every
 *   answer's `Date` header is its time when the request arrived (a real service's answers
 *   carry its own clock, which the triggers read); `RecordedRequest.time` is wall-clock time.
 * - Latency (`latencyMs`, `setLatency()`, `POST /__admin/latency {ms, jitterMs}`): every
 *   answer of the API areas and the accounts server waits that long before it is processed,
 *   a stand-in for network and server time; with `jitterMs`, each wait is drawn evenly
 *   from ms ± jitterMs (a real network's variance). `inFlight` (`GET /__admin/in-flight`) counts API requests
 *   being handled at once (now, and the most since the last `clearRequests()`).
 * - Data: a default organisation (600000001) and portal (7000000000001) exist in every
 *   region; `demo: true` seeds demo data into the US ones (demo-data.ts).
 */
import http from '../host/http';
import type { AddressInfo } from '../host/net';
import { handleRequest } from './handler';
import { EmulatorState } from './state';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_PORTAL_ID, type Emulator, type EmulatorOptions } from './types';
import { send } from './wire';

export { apiClient, type CallOptions, type CallResult } from './client';
export type { MultipartPart } from './request';
export { DEFAULT_CLIENT, DEFAULT_ORGANIZATION_ID, DEFAULT_PORTAL_ID, DEFAULT_RATE_LIMIT, type Emulator, type EmulatorOptions, type RecordedRequest, REGIONS } from './types';

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
	const state = new EmulatorState(opts);
	const server = http.createServer((req, res) => {
		// The service's time is the emulator's clock: its answers are dated by it, as its records are.
		res.setHeader('Date', new Date(state.clock.now()).toUTCString());
		handleRequest(state, req, res).catch((error: Error) => {
			if (!res.headersSent) send(res, { status: 500, json: { errorCode: 'INTERNAL_SERVER_ERROR', message: error.message } });
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
	});
	state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: state.baseUrl,
		regionUrls: (region) => state.regionUrls(region),
		accounts: state.accounts,
		clock: state.clock,
		store: state.store,
		requests: state.requests,
		clearRequests: () => state.clearRequests(),
		faults: state.faults,
		issueToken: (o) => state.issueToken(o),
		defaultClient: state.defaultClient,
		organizationId: DEFAULT_ORGANIZATION_ID,
		portalId: DEFAULT_PORTAL_ID,
		router: state.router,
		resetRateLimits: () => state.resetRateLimits(),
		setLatency: (ms, jitter) => state.latency.set(ms, jitter),
		inFlight: state.inFlight,
		close: async () => {
			state.pending.close();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
