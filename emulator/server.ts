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
 *   for deterministic tests. Restore windows, token expiry and rate limits read it;
 *   `RecordedRequest.time` is wall-clock time.
 * - Latency (`latencyMs`, `setLatency()`, `POST /__admin/latency {ms, jitterMs}`): every
 *   answer of the API areas and the accounts server waits that long before it is processed,
 *   a stand-in for network and server time; with `jitterMs`, each wait is drawn evenly
 *   from ms ± jitterMs (a real network's variance). `inFlight` (`GET /__admin/in-flight`) counts API requests
 *   being handled at once (now, and the most since the last `clearRequests()`).
 * - Data: a default organisation (600000001) and portal (7000000000001) exist in every
 *   region; `demo: true` seeds demo data into the US ones (demo-data.ts).
 */
import http from '../test/host/http';
import type { AddressInfo } from '../test/host/net';
import zlib from '../test/host/zlib';
import type { Area, Operation } from '../nodes/shared/tables/spec';
import { ORGANIZATIONS_LIST } from '../nodes/shared/tables/organizations';
import { locationOf, validateValues } from '../nodes/shared/tables/validate';
import { Accounts, parseVendorAuthorization } from './accounts';
import type { ClientRegistration } from './accounts';
import { Clock } from './clock';
import { seedDemo, seedItems } from './demo-data';
import { checkFault, endlessPage, type Fault, Faults, listOf } from './faults';
import { type OrganizationRateLimit, OrganizationLimits } from './limits';
import { allScopes, type Family, type MatchResult, type Route, Router } from './routes';
import { CODE, invalid, isAccounting, refuse, type Ctx, type FilePart, type Reply } from './rules/common';
import { citing, ORGANIZATION_SOURCES, PIPELINE, problemSource, requireSource } from './rules/table-sources';
import { acceptsUnnamedQuery, generic, RULES } from './rules';
import { Store, type Rec } from './store';
import { setTimeout, clearTimeout } from '../test/host/globals';

export const REGIONS = ['us', 'eu', 'in', 'au', 'cn'] as const;
export const DEFAULT_ORGANIZATION_ID = '600000001';
export const DEFAULT_PORTAL_ID = '7000000000001';
export const DEFAULT_CLIENT = {
	clientId: '1000.EMULATORDEFAULTCLIENT',
	clientSecret: 'emulator-default-secret',
	redirectUri: 'http://localhost:5678/rest/oauth2-credential/callback',
};
export const DEFAULT_RATE_LIMIT = { limit: 100, windowMs: 120_000, blockMs: 1_800_000 };

export interface EmulatorOptions {
	port?: number;
	clients?: ClientRegistration[];
	clock?: Clock;
	/** Seed demo data (demo-data.ts) into the US organisation and portal. */
	demo?: boolean;
	/** Add this many items to the US organisation (benchmarks of Return All; demo-data.ts). */
	seedItems?: number;
	/** Project-management rate limit (default 100 per 120000 ms, block 1800000 ms). */
	rateLimit?: { limit: number; windowMs: number; blockMs: number };
	/** Send `Retry-After` with rate-limit 429s (default off: the documents do not show it). */
	retryAfterHeader?: boolean;
	/** The accounting areas' limit per organization (default off; the service: 100 per 60000 ms): limits.ts. */
	accountingRateLimit?: OrganizationRateLimit;
	/** Milliseconds every answer (API areas and accounts server, not admin routes) waits before it is processed (default 0): a network and server delay. */
	latencyMs?: number;
	/**
	 * Redirect URI the default client accepts (default: n8n's OAuth2 callback on
	 * `http://localhost:5678`). n8n sends `<its editor base URL>/rest/oauth2-credential/callback`.
	 */
	redirectUri?: string;
}

export interface RecordedRequest {
	method: string;
	/** Path without the query. */
	path: string;
	query: Record<string, string>;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** Parsed JSON, form fields, multipart parts, or the raw text. */
	body: unknown;
	region: string;
	/** Area value (`books`, `projects`, ...) or `accounts`. */
	area?: string;
	/** Operation id, e.g. `books.item.create`. */
	operation?: string;
	/** Answered status; 0 while pending or when the connection was dropped. */
	status: number;
	/** Wall-clock time of arrival (ms). */
	time: number;
}

export interface MultipartPart {
	name: string;
	fileName?: string;
	contentType?: string;
	/** Text of non-file parts. */
	value?: string;
	data: Buffer;
}

export interface Emulator {
	url: string;
	regionUrls(region?: string): { accounts: string; api: string; projects: string };
	accounts: Accounts;
	clock: Clock;
	store: Store;
	requests: RecordedRequest[];
	clearRequests(): void;
	faults: Faults;
	issueToken(opts?: { region?: string; scopes?: string[] }): ReturnType<Accounts['issueTokens']>;
	defaultClient: { clientId: string; clientSecret: string; redirectUri: string };
	organizationId: string;
	portalId: string;
	router: Router;
	/** Forgets rate-limit counters and blocks. */
	resetRateLimits(): void;
	/** The delay added to every answer (ms), drawn from ms ± jitter; see `EmulatorOptions.latencyMs`. */
	setLatency(ms: number, jitter?: number): void;
	/** API-area requests (not the accounts server) being handled now, and the most at once since the start or the last `clearRequests()`. */
	inFlight: { now: number; max: number };
	close(): Promise<void>;
}

// ---------------------------------------------------------------- body parsing

function parseMultipart(buf: Buffer, boundary: string): MultipartPart[] {
	const delimiter = Buffer.from(`--${boundary}`);
	const parts: MultipartPart[] = [];
	let pos = buf.indexOf(delimiter);
	while (pos !== -1) {
		const start = pos + delimiter.length;
		if (buf.subarray(start, start + 2).toString() === '--') break;
		const next = buf.indexOf(delimiter, start);
		if (next === -1) break;
		const part = buf.subarray(start + 2, next - 2);
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd !== -1) {
			const head = part.subarray(0, headerEnd).toString('utf8');
			const data = Buffer.from(part.subarray(headerEnd + 4));
			const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
			const fileName = /filename="([^"]*)"/i.exec(head)?.[1];
			const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
			parts.push({ name, fileName, contentType, data, value: fileName === undefined ? data.toString('utf8') : undefined });
		}
		pos = next;
	}
	return parts;
}

interface ParsedBody {
	/** What the rules see: JSON, or the JSON of a multipart `JSONString` part. */
	json: unknown;
	files: FilePart[];
	/** What the request log shows. */
	recorded: unknown;
	error?: string;
}

function parseBody(contentType: string, buf: Buffer): ParsedBody {
	if (buf.length === 0) return { json: undefined, files: [], recorded: undefined };
	const text = (): string => buf.toString('utf8');
	if (/multipart\/form-data/i.test(contentType)) {
		const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
		const parts = boundary ? parseMultipart(buf, boundary[1] ?? boundary[2]) : [];
		const files = parts.filter((p) => p.fileName !== undefined).map((p) => ({ field: p.name, fileName: p.fileName ?? '', contentType: p.contentType ?? 'application/octet-stream', data: p.data }));
		const jsonPart = parts.find((p) => p.name === 'JSONString');
		let json: unknown;
		let error: string | undefined;
		if (jsonPart) {
			try {
				json = JSON.parse(jsonPart.value ?? '');
			} catch {
				error = 'JSONString is not valid JSON';
			}
		}
		return { json, files, recorded: parts, error };
	}
	if (/json/i.test(contentType)) {
		try {
			const json: unknown = JSON.parse(text());
			return { json, files: [], recorded: json };
		} catch {
			return { json: undefined, files: [], recorded: text(), error: 'the request body is not valid JSON' };
		}
	}
	if (/x-www-form-urlencoded/i.test(contentType)) {
		const form = Object.fromEntries(new URLSearchParams(text()));
		return { json: form, files: [], recorded: form };
	}
	return { json: undefined, files: [], recorded: text() };
}

function firstValues(params: URLSearchParams): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of params) if (!(k in out)) out[k] = v;
	return out;
}

function flatHeaders(req: http.IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
	return out;
}

// ---------------------------------------------------------------- replies

function familyError(family: Family | undefined, status: number, kind: 'url' | 'method' | 'internal' | 'rate', message: string): Reply {
	if (family === 'projects') {
		const errorCode = { url: 'URL_RULE_NOT_CONFIGURED', method: 'INVALID_METHOD', internal: 'INTERNAL_SERVER_ERROR', rate: 'TOO_MANY_REQUESTS' }[kind];
		return { status, json: { errorCode, message } };
	}
	// code 5 for unknown URLs / methods is the emulator's choice (no code is documented).
	const code = kind === 'url' || kind === 'method' ? CODE.invalidUrl : status;
	return { status, json: { code, message } };
}

function faultReply(family: Family | undefined, fault: Extract<Fault, { kind: 'status' }>): Reply {
	const message = fault.status === 429 ? 'Too many requests. Try again later.' : fault.status === 503 ? 'Service unavailable. Try again later.' : 'Internal error.';
	const reply = fault.body !== undefined ? { status: fault.status, json: fault.body } : familyError(family, fault.status, fault.status === 429 ? 'rate' : 'internal', message);
	if (fault.retryAfter !== undefined) reply.headers = { 'Retry-After': String(fault.retryAfter) };
	return reply;
}

/** An answer as it goes over the wire: status, headers (without Content-Length) and body bytes. */
interface Wire {
	status: number;
	headers: Record<string, string | number>;
	payload: Buffer;
}

function render(reply: Reply): Wire {
	const headers: Record<string, string | number> = { 'Cache-Control': 'no-store', ...(reply.headers ?? {}) };
	let payload: Buffer;
	if (reply.file) {
		payload = reply.file.data;
		headers['Content-Type'] = reply.file.contentType;
		headers['Content-Disposition'] = `attachment; filename="${reply.file.fileName.replace(/["\r\n]/g, '_')}"`;
	} else {
		payload = Buffer.from(reply.json === undefined ? '' : JSON.stringify(reply.json));
		headers['Content-Type'] = 'application/json;charset=UTF-8';
	}
	return { status: reply.status, headers, payload };
}

/** `headers` without the names in `drop` (any case). */
function without(headers: Record<string, string | number>, ...drop: string[]): Record<string, string | number> {
	return Object.fromEntries(Object.entries(headers).filter(([k]) => !drop.includes(k.toLowerCase())));
}

function write(res: http.ServerResponse, wire: Wire): void {
	res.writeHead(wire.status, { ...without(wire.headers, 'content-length'), 'Content-Length': wire.payload.length });
	res.end(wire.payload);
}

function send(res: http.ServerResponse, reply: Reply): void {
	write(res, render(reply));
}

// ---------------------------------------------------------------- bad answers (faults.ts)

/** The page of an `html` fault. */
function htmlPage(status: number): string {
	const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
	if (status >= 400) return `<!DOCTYPE html><html><head><title>${title}</title></head>\n<body>\n<center><h1>${title}</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n`;
	return '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="5"></head>\n<body>\n<h1>Checking your browser before accessing the site.</h1>\n<p>This process is automatic. Your browser will redirect to your requested content shortly.</p>\n</body>\n</html>\n';
}

function htmlAnswer(fault: Extract<Fault, { kind: 'html' }>): Wire {
	const status = fault.status ?? 200;
	return { status, headers: { 'Content-Type': fault.contentType ?? 'text/html', 'Cache-Control': 'no-store' }, payload: Buffer.from(fault.body ?? htmlPage(status), 'utf8') };
}

/** How many of `total` bytes `keep` keeps: a fraction below 1, else a byte count; always fewer than `total` (0 when empty). */
function keptBytes(total: number, keep = 0.5): number {
	const want = keep < 1 ? Math.floor(total * keep) : Math.floor(keep);
	return Math.max(0, Math.min(want, total - 1));
}

/** What a lenient gunzip (flushing what it has, as undici and axios do) makes of `data`. */
function lenientGunzip(data: Buffer): Buffer {
	try {
		return zlib.gunzipSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
	} catch {
		return Buffer.alloc(0);
	}
}

function truncatedAnswer(wire: Wire, fault: Extract<Fault, { kind: 'truncated' }>): Wire {
	const headers = without(wire.headers, 'content-length', 'content-encoding');
	if (!fault.gzip) return { status: wire.status, headers, payload: wire.payload.subarray(0, keptBytes(wire.payload.length, fault.keep)) };
	const gz = zlib.gzipSync(wire.payload);
	let kept = keptBytes(gz.length, fault.keep);
	// A cut inside the trailer (or right after the last deflate block) still inflates to the whole body leniently.
	while (kept > 0 && wire.payload.length > 0 && lenientGunzip(gz.subarray(0, kept)).length >= wire.payload.length) kept--;
	return { status: wire.status, headers: { ...headers, 'Content-Encoding': 'gzip' }, payload: gz.subarray(0, kept) };
}

function emptyAnswer(wire: Wire, fault: Extract<Fault, { kind: 'empty' }>): Wire {
	return { status: 200, headers: { ...without(wire.headers, 'content-type', 'content-length', 'content-encoding', 'content-disposition'), 'Content-Type': fault.contentType ?? 'application/json' }, payload: Buffer.alloc(0) };
}

/** Lists whose records are not the resource's own (id and name fields of their entries). */
const ENDLESS_FIELDS: Readonly<Record<string, { idField: string; nameField: string }>> = {
	'billing.project.getInvoices': { idField: 'invoice_id', nameField: 'invoice_number' },
};

/** Page, page size and record fields of an `endlessPages` answer to a list call. */
function endlessShape(route: Route, query: Record<string, string>): { page: number; perPage: number; idField: string; nameField: string } {
	const asked = (v: string | undefined): number | undefined => (v !== undefined && Number.isInteger(Number(v)) && Number(v) >= 1 ? Number(v) : undefined);
	const accounting = isAccounting(route.area);
	const fields = ENDLESS_FIELDS[route.id] ?? (accounting ? { idField: route.resource.idField ?? 'id', nameField: route.resource.nameField ?? 'name' } : { idField: 'id', nameField: 'name' });
	return { page: asked(query.page) ?? 1, perPage: asked(query.per_page) ?? route.op.perPage ?? (accounting ? 200 : 100), ...fields };
}

// ---------------------------------------------------------------- the emulator

/** The admin routes, answered by `GET /__admin`. */
const ADMIN_ROUTES = ['GET /__admin/info', 'GET /__admin/requests', 'POST /__admin/account-region', 'DELETE /__admin/requests', 'GET /__admin/in-flight', 'GET /__admin/latency', 'POST /__admin/latency', 'GET /__admin/faults', 'POST /__admin/faults', 'DELETE /__admin/faults', 'POST /__admin/tokens', 'POST /__admin/tokens/expire', 'POST /__admin/tokens/revoke', 'POST /__admin/clock', 'POST /__admin/rate-limit/reset', 'GET /__admin/mails'];

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
	const clock = opts.clock ?? new Clock({ realTime: true });
	const rateLimit = opts.rateLimit ?? DEFAULT_RATE_LIMIT;
	const router = new Router();
	const store = new Store();
	const faults = new Faults();
	const requests: RecordedRequest[] = [];
	let latencyMs = Math.max(0, opts.latencyMs ?? 0);
	let jitterMs = 0;
	const delay = () => Math.max(0, latencyMs + (jitterMs ? (Math.random() * 2 - 1) * jitterMs : 0));
	const inFlight = { now: 0, max: 0 };
	const defaultClient = { ...DEFAULT_CLIENT, redirectUri: opts.redirectUri ?? DEFAULT_CLIENT.redirectUri };
	let baseUrl = '';
	const accounts = new Accounts({
		clock,
		regions: [...REGIONS],
		clients: [
			{ clientId: defaultClient.clientId, clientSecret: defaultClient.clientSecret, redirectUris: [defaultClient.redirectUri], name: 'Vendor emulator default client' },
			...(opts.clients ?? []),
		],
		baseUrl: () => baseUrl,
	});
	for (const region of REGIONS) {
		store.addOrg(region, DEFAULT_ORGANIZATION_ID, 'Zylker Demo Org');
		store.addPortal(region, DEFAULT_PORTAL_ID, 'Zylker Demo Portal');
	}
	if (opts.demo) seedDemo(store, clock, 'us', DEFAULT_ORGANIZATION_ID, DEFAULT_PORTAL_ID);
	if (opts.seedItems) seedItems(store, clock, 'us', DEFAULT_ORGANIZATION_ID, opts.seedItems);

	// ---- rate limit (project management)
	const rates = new Map<string, { hits: number[]; blockedUntil: number }>();
	function rateLimited(key: string): number | undefined {
		const now = clock.now();
		const state = rates.get(key) ?? { hits: [], blockedUntil: 0 };
		rates.set(key, state);
		if (now < state.blockedUntil) return state.blockedUntil - now;
		state.hits = state.hits.filter((t) => t > now - rateLimit.windowMs);
		if (state.hits.length >= rateLimit.limit) {
			state.blockedUntil = now + rateLimit.blockMs;
			state.hits = [];
			return rateLimit.blockMs;
		}
		state.hits.push(now);
		return undefined;
	}

	// ---- rate limit (accounting, per organization; off unless asked for)
	const organizationLimits = opts.accountingRateLimit ? new OrganizationLimits(opts.accountingRateLimit, clock) : undefined;

	// ---- the API pipeline
	function api(req: http.IncomingMessage, found: MatchResult, family: Family, region: string, query: Record<string, string>, body: ParsedBody, rec: RecordedRequest): Reply {
		const method = rec.method;
		if (found.kind === 'none') return refuse(PIPELINE.url, familyError(family, 404, 'url', family === 'projects' ? `No API at ${method} ${rec.path}` : 'Invalid URL Passed'));
		if (found.kind === 'method') {
			return refuse(PIPELINE.method, familyError(family, 405, 'method', family === 'projects' ? `${method} is not valid for this URL; use ${found.allowed.join(', ')}` : 'Invalid URL Passed'));
		}
		const { route, params } = found.match;
		const { area, op } = route;
		const accounting = isAccounting(area);

		const authHeader = req.headers.authorization;
		const check = accounts.checkAccessToken(parseVendorAuthorization(authHeader), region);
		if (!check.ok) {
			const why = {
				missing: /^bearer\s/i.test(String(authHeader ?? '')) ? 'The Bearer scheme is not accepted: send Authorization: Vendor-oauthtoken <token>' : 'No access token: send Authorization: Vendor-oauthtoken <token>',
				unknown: 'The access token is invalid',
				expired: 'The access token has expired',
				wrong_region: 'The access token belongs to another data-center region',
			}[check.reason];
			return refuse(PIPELINE.token, { status: 401, json: accounting ? { code: CODE.notAuthorized, errorCode: 'INVALID_OAUTHTOKEN', message: why } : { errorCode: 'INVALID_OAUTHTOKEN', message: why } });
		}
		if (family === 'projects') {
			const wait = rateLimited(`${region}:${check.info.clientId}`);
			if (wait !== undefined) {
				const reply = familyError(family, 429, 'rate', `Too many requests: at most ${rateLimit.limit} per ${rateLimit.windowMs / 1000} s; blocked for ${Math.ceil(wait / 1000)} s`);
				if (opts.retryAfterHeader) reply.headers = { 'Retry-After': String(Math.ceil(wait / 1000)) };
				return refuse(PIPELINE.rateProjects, reply);
			}
		}
		if (organizationLimits && area.org) {
			const raw = area.org.in === 'query' ? query[area.org.name] : req.headers[area.org.name.toLowerCase()];
			const organization = (Array.isArray(raw) ? raw[0] : raw)?.trim();
			const wait = organization ? organizationLimits.hit(`${region}:${organization}`) : undefined;
			if (wait !== undefined) {
				const { limit, windowMs } = organizationLimits.rule;
				const reply = familyError(family, 429, 'rate', `Too many requests: at most ${limit} per ${windowMs / 1000} s per organization`);
				reply.headers = organizationLimits.headers(wait);
				return refuse(PIPELINE.rateAccounting, reply);
			}
		}
		const scopes = op.scope === undefined ? [] : Array.isArray(op.scope) ? op.scope : [op.scope];
		const missing = scopes.filter((s) => !accounts.hasScope(check.info, s));
		if (missing.length) {
			return refuse(
				PIPELINE.scope,
				accounting
					? { status: 403, json: { code: CODE.notAuthorized, message: 'You are not authorized to perform this operation' } }
					: { status: 403, json: { errorCode: 'INVALID_OAUTHSCOPE', message: `The access token lacks the scope ${missing.join(', ')}` } },
			);
		}

		// the organizations of the account (the pickers' list; needs no organization itself)
		if (op === ORGANIZATIONS_LIST) {
			const organizations = store.orgsIn(region).map((t) => ({ organization_id: t.id, name: t.name }));
			return { status: 200, json: { code: 0, message: 'success', organizations } };
		}
		const tenant = resolveTenant(area, region, params, query, req);
		if (tenant && 'status' in tenant) return tenant;
		if (body.error) return refuse(PIPELINE.json, invalid(area, [{ field: 'body', message: body.error }]));

		// Project bodies also carry custom-field values keyed by the portal's custom-field API names.
		const customNames = route.resource.value === 'project' && tenant && 'customFields' in tenant ? tenant.customFields.filter((d) => d.module === 'projects').map((d) => d.api_name) : [];
		// query parameters the documents give without names are accepted where they do (rules' `unnamedQuery`)
		const unknown = unknownKeys(area, op, acceptsUnnamedQuery(route.id) ? {} : query, body.json, customNames);
		if (unknown) return refuse(PIPELINE.tableShape, invalid(area, unknown.keys.map((key) => ({ field: key, message: `is not a ${unknown.where === 'query' ? 'query parameter' : 'body key'} of this operation (no field table names it)` })), unknown.where));

		const ctx: Ctx = { id: route.id, area, resource: route.resource, op, region, tenant, params, query, body: body.json, files: body.files, token: check.info, store, clock };
		const rule = RULES[route.id];
		const early = rule?.pre?.(ctx);
		if (early) return early;
		const values = valuesOf(op, params, query, req, body.json);
		const problems = validateValues(op, values, 'server');
		if (problems.length) {
			const inBody = problems.some((p) => {
				const f = op.fields.find((x) => x.name === p.field.split(/[.[]/)[0]);
				return !f || locationOf(f, op) === 'body';
			});
			return citing(problemSource(area.value, route.resource, op, problems[0]), invalid(area, problems, inBody ? 'body' : 'query'));
		}
		return rule?.handle ? rule.handle(ctx) : generic(ctx);
	}

	function resolveTenant(area: Area, region: string, params: Record<string, string>, query: Record<string, string>, req: http.IncomingMessage): Ctx['tenant'] | Reply {
		if (area.org) {
			const raw = area.org.in === 'query' ? query[area.org.name] : req.headers[area.org.name.toLowerCase()];
			const id = (Array.isArray(raw) ? raw[0] : raw)?.trim();
			const where = area.org.in === 'query' ? `query parameter ${area.org.name}` : `header ${area.org.name}`;
			const source = ORGANIZATION_SOURCES[area.value];
			if (!id) return citing(source, { status: 400, json: { code: CODE.organization, message: `The organization id is required: send it as the ${where}.` } });
			const org = store.org(region, id);
			if (!org) return citing(source, { status: 400, json: { code: CODE.organization, message: `The organization id ${id} (${where}) is not an organization of this account in this region.` } });
			return org;
		}
		if (params.portal_id === undefined) return undefined;
		const portal = store.portal(region, params.portal_id);
		return portal ?? refuse(PIPELINE.portal, { status: 404, json: { errorCode: 'INVALID_PARAMETER_VALUE', message: `No portal with id ${params.portal_id}` } });
	}

	/**
	 * Query parameters and top-level body keys no table names (nested entries are checked by the
	 * server-side schemas), besides `extraBodyKeys` (a portal's custom-field API names). Named: the operation's fields where they travel, `page` / `per_page`
	 * on paged lists, and the organisation parameter of an area that sends it in the query.
	 */
	function unknownKeys(area: Area, op: Operation, query: Record<string, string>, json: unknown, extraBodyKeys: string[] = []): { where: 'query' | 'body'; keys: string[] } | undefined {
		const named = (where: string): Set<string> => new Set(op.fields.filter((f) => locationOf(f, op) === where).map((f) => f.name));
		const inQuery = named('query');
		if (op.pagination && op.pagination !== 'none') ['page', 'per_page'].forEach((k) => inQuery.add(k));
		if (area.org?.in === 'query') inQuery.add(area.org.name);
		const badQuery = Object.keys(query).filter((k) => !inQuery.has(k));
		if (badQuery.length) return { where: 'query', keys: badQuery };
		if (!json || typeof json !== 'object' || Array.isArray(json) || op.fields.some((f) => f.bodyRoot)) return undefined;
		const inBody = new Set([...named('body'), ...extraBodyKeys]);
		const badBody = Object.keys(json).filter((k) => !inBody.has(k));
		return badBody.length ? { where: 'body', keys: badBody } : undefined;
	}

	/** The operation's field values, each read from where the table says it travels. */
	function valuesOf(op: Operation, params: Record<string, string>, query: Record<string, string>, req: http.IncomingMessage, json: unknown): Record<string, unknown> {
		const values: Record<string, unknown> = {};
		const obj = json && typeof json === 'object' && !Array.isArray(json) ? (json as Rec) : {};
		for (const f of op.fields) {
			const where = locationOf(f, op);
			if (where === 'path') values[f.name] = params[f.name];
			else if (where === 'query') values[f.name] = query[f.name];
			else if (where === 'header') values[f.name] = req.headers[f.name.toLowerCase()];
			else values[f.name] = f.bodyRoot ? json : obj[f.name];
		}
		return values;
	}

	// ---- hangs and drips that close() must cut short
	const sleepers = new Set<() => void>();
	const drips = new Set<() => void>();
	let closing = false;
	function sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const done = (): void => {
				clearTimeout(timer);
				sleepers.delete(done);
				resolve();
			};
			const timer = setTimeout(done, ms);
			sleepers.add(done);
		});
	}

	/**
	 * A `drip` answer: status, headers (full Content-Length) and the first `bytes` at once,
	 * then `bytes` every `everyMs`. Stops when the client goes away or the emulator closes.
	 */
	function drip(res: http.ServerResponse, wire: Wire, fault: Extract<Fault, { kind: 'drip' }>): void {
		const bytes = fault.bytes ?? 1;
		const everyMs = fault.everyMs ?? 500;
		res.writeHead(wire.status, { ...without(wire.headers, 'content-length'), 'Content-Length': wire.payload.length });
		if (wire.payload.length === 0) return void res.end();
		res.flushHeaders();
		let sent = 0;
		let timer: NodeJS.Timeout | undefined;
		const stop = (): void => {
			if (timer) clearTimeout(timer);
			timer = undefined;
			drips.delete(stop);
			res.off('close', stop);
		};
		const step = (): void => {
			timer = undefined;
			if (closing || res.destroyed || res.socket?.destroyed) return stop();
			const chunk = wire.payload.subarray(sent, sent + bytes);
			sent += chunk.length;
			if (sent >= wire.payload.length) {
				stop();
				res.end(chunk);
				return;
			}
			res.write(chunk);
			timer = setTimeout(step, everyMs);
		};
		drips.add(stop);
		res.once('close', stop);
		step();
	}

	/** Sends `wire`, as the request's bad-answer fault (if any) wants it. */
	function answer(res: http.ServerResponse, wire: Wire, fault: Fault | undefined): void {
		if (fault?.kind === 'truncated') return write(res, truncatedAnswer(wire, fault));
		if (fault?.kind === 'empty') return write(res, emptyAnswer(wire, fault));
		if (fault?.kind === 'drip') return drip(res, wire, fault);
		write(res, wire);
	}

	/**
	 * Makes a handler's `res.writeHead(status, headers)` + `res.end(body)` (the accounts
	 * server's only way of answering) go through `answer` with `fault`.
	 */
	function captureAnswer(res: http.ServerResponse, fault: Fault): void {
		const wire: Wire = { status: 200, headers: {}, payload: Buffer.alloc(0) };
		const writeHead = res.writeHead;
		const end = res.end;
		res.writeHead = ((status: number, ...rest: unknown[]) => {
			wire.status = status;
			const headers = rest.find((x) => x && typeof x === 'object');
			if (headers) wire.headers = { ...(headers as Record<string, string | number>) };
			return res;
		}) as typeof res.writeHead;
		res.end = ((chunk?: unknown) => {
			res.writeHead = writeHead;
			res.end = end;
			if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) wire.payload = Buffer.from(chunk);
			answer(res, wire, fault);
			return res;
		}) as typeof res.end;
	}

	// ---- endlessPages: the last real list record per operation, the template of pages past the real ones
	const endlessTemplates = new Map<string, Rec>();
	function endless(route: Route, query: Record<string, string>, json: unknown): unknown {
		const first = listOf(json)?.records[0];
		if (first && typeof first === 'object' && !Array.isArray(first)) endlessTemplates.set(route.id, first as Rec);
		return endlessPage(json, { ...endlessShape(route, query), template: endlessTemplates.get(route.id) });
	}

	// ---- admin routes (GET /__admin lists them)
	function admin(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: ParsedBody): void {
		const method = (req.method ?? 'GET').toUpperCase();
		const input = (body.json && typeof body.json === 'object' ? body.json : {}) as Rec;
		const reply = (status: number, json: unknown): void => send(res, { status, json });
		const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
		switch (route) {
			case 'GET /__admin':
				return reply(200, { routes: ADMIN_ROUTES });
			case 'GET /__admin/info':
				return reply(200, { url: baseUrl, regions: REGIONS, regionUrls: Object.fromEntries(REGIONS.map((r) => [r, emulator.regionUrls(r)])), clientId: defaultClient.clientId, redirectUri: defaultClient.redirectUri, organizationId: DEFAULT_ORGANIZATION_ID, portalId: DEFAULT_PORTAL_ID });
			case 'GET /__admin/requests':
				res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(requests.map(redactSecrets), redact));
				return;
			case 'POST /__admin/account-region':
				accounts.accountRegion = typeof input.region === 'string' ? input.region : null;
				return reply(200, { accountRegion: accounts.accountRegion });
			case 'DELETE /__admin/requests':
				requests.length = 0;
				inFlight.max = inFlight.now;
				return reply(200, { cleared: true });
			case 'GET /__admin/in-flight':
				return reply(200, { ...inFlight });
			case 'GET /__admin/latency':
				return reply(200, { latencyMs, jitterMs });
			case 'POST /__admin/latency': {
				const ms = Number(input.ms);
				const jitter = Number(input.jitterMs ?? 0);
				if (!Number.isFinite(ms) || ms < 0) return reply(400, { error: 'ms must be a number >= 0' });
				if (!Number.isFinite(jitter) || jitter < 0 || jitter > ms) return reply(400, { error: 'jitterMs must be a number from 0 to ms' });
				latencyMs = ms;
				jitterMs = jitter;
				return reply(200, { latencyMs, jitterMs });
			}
			case 'GET /__admin/faults':
				return reply(200, { faults: faults.pending() });
			case 'POST /__admin/faults': {
				const problem = checkFault(input.fault);
				const count = input.count === undefined ? 1 : Number(input.count);
				if (problem || !Number.isInteger(count) || count < 1) return reply(400, { error: problem ?? 'count must be a positive integer' });
				faults.next(count, input.fault as Fault, typeof input.scope === 'string' ? input.scope : undefined);
				return reply(200, { faults: faults.pending() });
			}
			case 'DELETE /__admin/faults':
				faults.clear();
				return reply(200, { faults: [] });
			case 'POST /__admin/tokens':
				return reply(200, emulator.issueToken({ region: input.region, scopes: input.scopes }));
			case 'POST /__admin/tokens/expire':
				accounts.expireAllAccessTokens();
				return reply(200, { expired: true });
			case 'POST /__admin/tokens/revoke':
				accounts.revokeRefreshToken(String(input.refresh_token ?? ''));
				return reply(200, { revoked: true });
			case 'POST /__admin/clock':
				if (typeof input.advanceMs === 'number') clock.advance(input.advanceMs);
				if (typeof input.set === 'number') clock.set(input.set);
				return reply(200, { now: clock.now(), iso: new Date(clock.now()).toISOString() });
			case 'POST /__admin/rate-limit/reset':
				rates.clear();
				organizationLimits?.reset();
				return reply(200, { reset: true });
			case 'GET /__admin/mails': {
				const org = store.org(url.searchParams.get('region') ?? 'us', url.searchParams.get('organization_id') ?? DEFAULT_ORGANIZATION_ID);
				return reply(200, { mails: org?.mails ?? [] });
			}
			default:
				return reply(404, { error: `no admin route ${route}` });
		}
	}

	// ---- the request handler
	async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const raw = Buffer.concat(chunks);
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const body = parseBody(String(req.headers['content-type'] ?? ''), raw);
		if (url.pathname === '/__admin' || url.pathname.startsWith('/__admin/')) return admin(req, res, url, body);

		const method = (req.method ?? 'GET').toUpperCase();
		const [, region = '', ...rest] = url.pathname.split('/');
		const sub = `/${rest.join('/')}`;
		const family: Family | 'accounts' | undefined = sub.startsWith('/oauth/')
			? 'accounts'
			: sub === '/api' || sub.startsWith('/api/')
				? 'api'
				: sub === '/projects' || sub.startsWith('/projects/')
					? 'projects'
					: undefined;
		const familyPath = family === 'api' ? sub.slice('/api'.length) : family === 'projects' ? sub.slice('/projects'.length) : sub;
		const query = firstValues(url.searchParams);
		const rec: RecordedRequest = { method, path: url.pathname, query, headers: flatHeaders(req), body: body.recorded, region, status: 0, time: Date.now() };
		requests.push(rec);
		res.on('finish', () => {
			rec.status = res.statusCode;
		});
		const found = family && family !== 'accounts' ? router.match(family, method, familyPath) : undefined;
		if (family === 'accounts') rec.area = 'accounts';
		else if (found?.kind === 'ok') Object.assign(rec, { area: found.match.route.area.value, operation: found.match.route.id });
		else if (found?.area) rec.area = found.area.value;

		if (rec.area && rec.area !== 'accounts') {
			inFlight.now++;
			inFlight.max = Math.max(inFlight.max, inFlight.now);
			res.once('close', () => inFlight.now--);
		}
		if (latencyMs > 0) {
			await sleep(delay());
			if (closing) return void req.socket.destroy();
		}
		const route = found?.kind === 'ok' ? found.match.route : undefined;
		const fault = faults.take({ method, path: rec.path, region, area: rec.area, operation: rec.operation, kind: route?.op.kind });
		if (fault?.kind === 'drop') return void req.socket.destroy();
		if (fault?.kind === 'status') return send(res, faultReply(family === 'accounts' ? undefined : family, fault));
		if (fault?.kind === 'html') return write(res, htmlAnswer(fault));
		if (fault?.kind === 'hang') {
			await sleep(fault.ms);
			if (closing) return void req.socket.destroy();
		}
		const dropAfterCommit = fault?.kind === 'dropAfterCommit';

		if (!(REGIONS as readonly string[]).includes(region) || !family || (family !== 'accounts' && !found)) {
			return answer(res, render(refuse(PIPELINE.url, familyError(family === 'accounts' ? undefined : family, 404, 'url', family === 'projects' ? `No API at ${method} ${rec.path}` : 'Invalid URL Passed'))), fault);
		}
		if (family === 'accounts') {
			if (dropAfterCommit) {
				res.writeHead = (() => res) as unknown as typeof res.writeHead;
				res.end = (() => {
					req.socket.destroy();
					return res;
				}) as unknown as typeof res.end;
			}
			if (fault?.kind === 'truncated' || fault?.kind === 'empty' || fault?.kind === 'drip') captureAnswer(res, fault);
			if (!(await accounts.handle(req, res, url, region, raw))) send(res, { status: 404, json: { error: 'not_found' } });
			return;
		}
		let reply: Reply;
		try {
			const asked = fault?.kind === 'noPageContext' && fault.ignorePage ? { ...query, page: '1' } : query;
			reply = requireSource(`${method} ${rec.path}`, api(req, found as MatchResult, family, region, asked, body, rec));
		} catch (error) {
			reply = familyError(family, 500, 'internal', `Internal error: ${(error as Error).message}`);
		}
		if (dropAfterCommit) return void req.socket.destroy();
		if (fault?.kind === 'noPageContext' && reply.json && typeof reply.json === 'object') delete (reply.json as Rec).page_context;
		if (fault?.kind === 'endlessPages' && route && reply.status >= 200 && reply.status < 300) reply = { ...reply, json: endless(route, query, reply.json) };
		answer(res, render(reply), fault);
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			if (!res.headersSent) send(res, { status: 500, json: { errorCode: 'INTERNAL_SERVER_ERROR', message: error.message } });
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
	});
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const emulator: Emulator = {
		url: baseUrl,
		regionUrls: (region = 'us') => ({ accounts: `${baseUrl}/${region}`, api: `${baseUrl}/${region}/api`, projects: `${baseUrl}/${region}/projects` }),
		accounts,
		clock,
		store,
		requests,
		clearRequests: () => {
			requests.length = 0;
			inFlight.max = inFlight.now;
		},
		faults,
		issueToken: (o = {}) => accounts.issueTokens({ clientId: defaultClient.clientId, region: o.region ?? 'us', scopes: o.scopes ?? allScopes() }),
		defaultClient,
		organizationId: DEFAULT_ORGANIZATION_ID,
		portalId: DEFAULT_PORTAL_ID,
		router,
		resetRateLimits: () => {
			rates.clear();
			organizationLimits?.reset();
		},
		setLatency: (ms: number, jitter = 0) => {
			latencyMs = Math.max(0, ms);
			jitterMs = Math.min(latencyMs, Math.max(0, jitter));
		},
		inFlight,
		close: async () => {
			closing = true;
			for (const wake of [...sleepers]) wake();
			for (const stop of [...drips]) stop();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	return emulator;
}

/** Secrets of the accounts server's requests: the client secret, grant codes and tokens in bodies and queries. */
const SECRET_PARAMS = new Set(['client_secret', 'refresh_token', 'code', 'token', 'access_token']);

/** A recorded accounts request with its secret parameters replaced (admin output only; tests see the originals). */
function redactSecrets(rec: RecordedRequest): RecordedRequest {
	if (rec.area !== 'accounts') return rec;
	const hide = (params: unknown): unknown =>
		params && typeof params === 'object' && !Array.isArray(params)
			? Object.fromEntries(Object.entries(params as Record<string, unknown>).map(([k, v]) => [k, SECRET_PARAMS.has(k) ? '<redacted>' : v]))
			: params;
	return { ...rec, query: hide(rec.query) as Record<string, string>, body: hide(rec.body) };
}

/** Admin output: buffers as sizes, tokens hidden. */
function redact(key: string, value: unknown): unknown {
	if (key === 'authorization' && typeof value === 'string') return value.replace(/(\s)\S+$/, '$1<redacted>');
	if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer') return `<${((value as { data: unknown[] }).data ?? []).length} bytes>`;
	return value;
}


// ---------------------------------------------------------------- a small client (tests, demo)

export interface CallOptions {
	query?: Record<string, string | number | boolean>;
	json?: unknown;
	/** multipart/form-data: text fields and files. */
	form?: { fields?: Record<string, string>; files?: Array<{ field: string; fileName: string; contentType: string; data: Buffer }> };
	headers?: Record<string, string>;
	/** Access token; `null` sends no Authorization header. Default: the client's token. */
	token?: string | null;
	/** Organisation id for accounting areas (query or header as the area wants); `null` sends none. */
	org?: string | null;
	region?: string;
}

export interface CallResult {
	status: number;
	headers: Record<string, string>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	buffer: Buffer;
}

/**
 * Calls an area of the emulator the way the nodes do (`Vendor-oauthtoken`, the area's
 * organisation parameter, JSON bodies). `area` is an area value (`books`, `projects`, ...).
 */
export function apiClient(em: Emulator, defaults: { token: string; region?: string }) {
	return async function call(method: string, area: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
		const a = em.router.areas.find((x) => x.value === area);
		if (!a) throw new Error(`unknown area ${area}`);
		const region = opts.region ?? defaults.region ?? 'us';
		const urls = em.regionUrls(region);
		const url = new URL(`${a.root === 'projects' ? urls.projects : urls.api}${a.basePath}${path}`);
		const headers: Record<string, string> = { ...(opts.headers ?? {}) };
		const token = opts.token === undefined ? defaults.token : opts.token;
		if (token !== null) headers.Authorization = `Vendor-oauthtoken ${token}`;
		const org = opts.org === undefined ? em.organizationId : opts.org;
		if (a.org && org !== null) {
			if (a.org.in === 'query') url.searchParams.set(a.org.name, org);
			else headers[a.org.name] = org;
		}
		for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
		let body: string | FormData | undefined;
		if (opts.form) {
			const fd = new FormData();
			for (const [k, v] of Object.entries(opts.form.fields ?? {})) fd.append(k, v);
			for (const f of opts.form.files ?? []) fd.append(f.field, new Blob([f.data], { type: f.contentType }), f.fileName);
			body = fd;
		} else if (opts.json !== undefined) {
			headers['Content-Type'] = 'application/json';
			body = JSON.stringify(opts.json);
		}
		const res = await fetch(url, { method, headers, body });
		const buffer = Buffer.from(await res.arrayBuffer());
		const type = res.headers.get('content-type') ?? '';
		return {
			status: res.status,
			headers: Object.fromEntries(res.headers.entries()),
			body: /json/.test(type) && buffer.length ? JSON.parse(buffer.toString('utf8')) : buffer.toString('utf8'),
			buffer,
		};
	};
}
