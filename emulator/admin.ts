/**
 * The admin routes (`/__admin/...`): test and demo switches, not recorded, no auth; `GET /__admin`
 * lists them.
 */
import type http from '../host/http';
import { checkFault, type Fault } from './faults';
import type { ParsedBody } from './request';
import type { EmulatorState } from './state';
import type { Rec } from './store';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_PORTAL_ID, type RecordedRequest, REGIONS } from './types';
import { send } from './wire';

/** What an admin route answers: a status and JSON, or (the request log) JSON text sent as it is. */
type AdminAnswer = [status: number, json: unknown] | { text: string };
type AdminRoute = (state: EmulatorState, input: Rec, url: URL) => AdminAnswer;

const ROUTES: Readonly<Record<string, AdminRoute>> = {
	'GET /__admin/info': (s) => [
		200,
		{
			url: s.baseUrl,
			regions: REGIONS,
			regionUrls: Object.fromEntries(REGIONS.map((r) => [r, s.regionUrls(r)])),
			clientId: s.defaultClient.clientId,
			redirectUri: s.defaultClient.redirectUri,
			organizationId: DEFAULT_ORGANIZATION_ID,
			portalId: DEFAULT_PORTAL_ID,
		},
	],
	'GET /__admin/requests': (s) => ({ text: JSON.stringify(s.requests.map(redactSecrets), redact) }),
	'POST /__admin/account-region': (s, input) => {
		s.accounts.accountRegion = typeof input.region === 'string' ? input.region : null;
		return [200, { accountRegion: s.accounts.accountRegion }];
	},
	'DELETE /__admin/requests': (s) => {
		s.clearRequests();
		return [200, { cleared: true }];
	},
	'GET /__admin/in-flight': (s) => [200, { ...s.inFlight }],
	'GET /__admin/latency': (s) => [200, { latencyMs: s.latency.ms, jitterMs: s.latency.jitter }],
	'POST /__admin/latency': (s, input) => {
		const ms = Number(input.ms);
		const jitter = Number(input.jitterMs ?? 0);
		if (!Number.isFinite(ms) || ms < 0) return [400, { error: 'ms must be a number >= 0' }];
		if (!Number.isFinite(jitter) || jitter < 0 || jitter > ms)
			return [400, { error: 'jitterMs must be a number from 0 to ms' }];
		s.latency.set(ms, jitter);
		return [200, { latencyMs: s.latency.ms, jitterMs: s.latency.jitter }];
	},
	'GET /__admin/faults': (s) => [200, { faults: s.faults.pending() }],
	'POST /__admin/faults': (s, input) => {
		const problem = checkFault(input.fault);
		const count = input.count === undefined ? 1 : Number(input.count);
		if (problem || !Number.isInteger(count) || count < 1)
			return [400, { error: problem ?? 'count must be a positive integer' }];
		s.faults.next(
			count,
			input.fault as Fault,
			typeof input.scope === 'string' ? input.scope : undefined,
		);
		return [200, { faults: s.faults.pending() }];
	},
	'DELETE /__admin/faults': (s) => {
		s.faults.clear();
		return [200, { faults: [] }];
	},
	'POST /__admin/tokens': (s, input) => [
		200,
		s.issueToken({ region: input.region, scopes: input.scopes }),
	],
	'POST /__admin/tokens/expire': (s) => {
		s.accounts.expireAllAccessTokens();
		return [200, { expired: true }];
	},
	'POST /__admin/tokens/revoke': (s, input) => {
		s.accounts.revokeRefreshToken(String(input.refresh_token ?? ''));
		return [200, { revoked: true }];
	},
	'POST /__admin/clock': (s, input) => {
		if (typeof input.advanceMs === 'number') s.clock.advance(input.advanceMs);
		if (typeof input.set === 'number') s.clock.set(input.set);
		return [200, { now: s.clock.now(), iso: new Date(s.clock.now()).toISOString() }];
	},
	'POST /__admin/rate-limit/reset': (s) => {
		s.resetRateLimits();
		return [200, { reset: true }];
	},
	'GET /__admin/mails': (s, _input, url) => {
		const org = s.store.org(
			url.searchParams.get('region') ?? 'us',
			url.searchParams.get('organization_id') ?? DEFAULT_ORGANIZATION_ID,
		);
		return [200, { mails: org?.mails ?? [] }];
	},
};

/** The admin routes, answered by `GET /__admin`. */
const ADMIN_ROUTES = Object.keys(ROUTES);

export function isAdminPath(pathname: string): boolean {
	return pathname === '/__admin' || pathname.startsWith('/__admin/');
}

/** Answers an admin request. */
export function admin(
	state: EmulatorState,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	url: URL,
	body: ParsedBody,
): void {
	const method = (req.method ?? 'GET').toUpperCase();
	const input = (body.json && typeof body.json === 'object' ? body.json : {}) as Rec;
	const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
	const handler =
		route === 'GET /__admin' ? () => [200, { routes: ADMIN_ROUTES }] as AdminAnswer : ROUTES[route];
	const result: AdminAnswer = handler
		? handler(state, input, url)
		: [404, { error: `no admin route ${route}` }];
	if (Array.isArray(result)) return send(res, { status: result[0], json: result[1] });
	res.writeHead(200, { 'Content-Type': 'application/json' }).end(result.text);
}

/** Secrets of the accounts server's requests: the client secret, grant codes and tokens in bodies and queries. */
const SECRET_PARAMS = new Set(['client_secret', 'refresh_token', 'code', 'token', 'access_token']);

/** A recorded accounts request with its secret parameters replaced (admin output only; tests see the originals). */
function redactSecrets(rec: RecordedRequest): RecordedRequest {
	if (rec.area !== 'accounts') return rec;
	const hide = (params: unknown): unknown =>
		params && typeof params === 'object' && !Array.isArray(params)
			? Object.fromEntries(
					Object.entries(params as Record<string, unknown>).map(([k, v]) => [
						k,
						SECRET_PARAMS.has(k) ? '<redacted>' : v,
					]),
				)
			: params;
	return { ...rec, query: hide(rec.query) as Record<string, string>, body: hide(rec.body) };
}

/** Admin output: buffers as sizes, tokens hidden. */
function redact(key: string, value: unknown): unknown {
	if (key === 'authorization' && typeof value === 'string')
		return value.replace(/(\s)\S+$/, '$1<redacted>');
	if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer')
		return `<${((value as { data: unknown[] }).data ?? []).length} bytes>`;
	return value;
}
