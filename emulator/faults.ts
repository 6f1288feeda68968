/**
 * Faults on demand. `faults.next(n, fault, scope?)` makes the next `n` matching requests
 * fail in the given way; queued faults are used first-in, first-out.
 *
 * - `status`: answer at once with that status (429 / 500 / 503) and the area's error body
 *   (or `body`); `retryAfter` (seconds) adds a `Retry-After` header. Nothing is processed.
 * - `hang`: wait `ms` milliseconds, then process and answer normally (a slow server; a
 *   client that gives up earlier sees a timeout while the request is still processed).
 * - `drop`: destroy the connection without processing or answering.
 * - `dropAfterCommit`: process the request (writes are kept), then destroy the connection
 *   instead of answering.
 * - `noPageContext`: process and answer normally, without the list's `page_context` (a
 *   server whose lists do not page the way the documents show for other lists); with
 *   `ignorePage`, every call answers the first page whatever `page` asks.
 *
 * Bad answers (what real servers, proxies and load balancers sometimes send; none of them
 * is a success the client may take). They apply to the API areas and to the accounts server:
 * - `html`: answer at once with `status` (default 200) and a proxy's HTML page: for a status
 *   of 400 or more an nginx error page (`<!DOCTYPE html><html><head><title>502 Bad
 *   Gateway</title>...`), below 400 a "Just a moment..." browser-check page; `body` replaces
 *   the page. `Content-Type` is `contentType` (default `text/html`; e.g. `application/json` for
 *   a proxy that labels its page JSON), `Content-Length` the page's bytes. Nothing is processed.
 * - `truncated`: process the request (writes are kept), build the normal answer (status and
 *   headers as usual), then send only its first `keep` bytes: `keep` below 1 is a fraction of
 *   the body, 1 or more a byte count (an integer); default 0.5. At most the body's length
 *   minus 1 is kept, so the body is always cut. `Content-Length` is the kept length: the
 *   client gets a complete HTTP message whose JSON is cut short. With `gzip: true` the whole
 *   body is gzipped and `keep` cuts the gzip stream (`Content-Encoding: gzip`,
 *   `Content-Length` = the kept bytes), so decompression ends early; the cut is moved earlier
 *   where needed so that even a lenient decompressor (one that flushes what it has, as
 *   fetch / undici and axios do) yields less than the whole body.
 * - `empty`: process the request (writes are kept), then answer 200 with an empty body
 *   (`Content-Length: 0`) and `Content-Type` `contentType` (default `application/json`),
 *   whatever the normal answer was.
 * - `drip`: process the request (writes are kept), send the normal status and headers
 *   (with the full `Content-Length`) and the first `bytes` (default 1) of the body at once,
 *   then the next `bytes` every `everyMs` (default 500) until the body is complete. Stops
 *   (no timer left) when the client goes away and when the emulator is closed.
 * - `endlessPages`: only for list operations (operation kind `list`; other requests matching
 *   the scope neither use it nor count against `n`, so it can be queued with a large `n`,
 *   e.g. `faults.next(1_000_000, { kind: 'endlessPages' }, 'books.item.getAll')`). The request
 *   is processed normally (a refusal such as 401 or 400 is answered as is); a success answers
 *   `per_page` records (the page size asked, else the list's default: 200 accounting, 100
 *   project management) that are new on every page: copies of the first real record of the
 *   page (on a page past the real records: of the last real record the emulator answered
 *   for that operation, kept one per operation; with none, just an id and a name) with a fresh id derived from the
 *   page and position (`9` + page in 6 digits + position in 6 digits, e.g. `9000002000001`;
 *   unique for page and per_page below a million) and a name `Endless page <page> #<n>`.
 *   The page structure always says more: accounting `page_context.has_more_page: true`
 *   (object, or each entry of the array form), project management `page_info.has_next_page:
 *   true`; lists without a page structure (e.g. my tasks, refunds) only get the records.
 *   Nothing generated is stored (the emulator's memory does not grow with the pages).
 *
 * Scope: none = every request to the API areas (not the accounts server); a string = an
 * operation id (`books.item.create`, lists are `<area>.<resource>.getAll` and a few others,
 * see routes.ts), an area (`books`, `projects`, ...) or `accounts` (the OAuth endpoints); or a
 * predicate over the recorded request. `POST /__admin/faults {count, fault, scope}` queues
 * any of these faults as JSON (scope a string); `checkFault` checks its options.
 */

export type Fault =
	| { kind: 'status'; status: 429 | 500 | 503; body?: unknown; retryAfter?: number }
	| { kind: 'hang'; ms: number }
	| { kind: 'drop' }
	| { kind: 'dropAfterCommit' }
	| { kind: 'noPageContext'; ignorePage?: boolean }
	| { kind: 'html'; status?: number; contentType?: string; body?: string }
	| { kind: 'truncated'; keep?: number; gzip?: boolean }
	| { kind: 'empty'; contentType?: string }
	| { kind: 'drip'; bytes?: number; everyMs?: number }
	| { kind: 'endlessPages' };

/** What a fault scope sees of a request. */
export interface FaultTarget {
	method: string;
	path: string;
	region: string;
	/** Area value, or `accounts` for the OAuth endpoints. */
	area?: string;
	operation?: string;
	/** Operation kind (`list`, `create`, ...) of a routed API request. */
	kind?: string;
	/** The query and the parsed body, as recorded (a fault for one item's request among several of one operation). */
	query?: Record<string, string>;
	body?: unknown;
}

export type FaultScope = string | ((req: FaultTarget) => boolean);

interface Queued {
	fault: Fault;
	remaining: number;
	scope?: FaultScope;
}

export class Faults {
	private queue: Queued[] = [];

	/** The next `n` requests matching `scope` get `fault`. */
	next(n: number, fault: Fault, scope?: FaultScope): void {
		if (!Number.isInteger(n) || n < 1) throw new RangeError(`faults.next: n must be a positive integer, got ${n}`);
		const problem = checkNewFault(fault);
		if (problem) throw new RangeError(`faults.next: ${problem}`);
		this.queue.push({ fault, remaining: n, scope });
	}

	/** Removes every queued fault. */
	clear(): void {
		this.queue = [];
	}

	/** Queued faults (for the admin route). */
	pending(): Array<{ fault: Fault; remaining: number; scope?: string }> {
		return this.queue.map((q) => ({
			fault: q.fault,
			remaining: q.remaining,
			scope: typeof q.scope === 'function' ? '(predicate)' : q.scope,
		}));
	}

	/** Takes the fault for a request, if one applies (used by the server). */
	take(target: FaultTarget): Fault | undefined {
		const q = this.queue.find((x) => x.remaining > 0 && applies(x.fault, target) && matches(x.scope, target));
		if (!q) return undefined;
		q.remaining -= 1;
		this.queue = this.queue.filter((x) => x.remaining > 0);
		return q.fault;
	}
}

/** `endlessPages` is only for list operations; the others apply to every request. */
function applies(fault: Fault, t: FaultTarget): boolean {
	return fault.kind !== 'endlessPages' || t.kind === 'list';
}

function matches(scope: FaultScope | undefined, t: FaultTarget): boolean {
	if (scope === undefined) return t.area !== undefined && t.area !== 'accounts';
	if (typeof scope === 'function') return scope(t);
	return scope === t.operation || scope === t.area;
}

/** Checks a fault given as JSON (admin route). Returns an error message or undefined. */
export function checkFault(value: unknown): string | undefined {
	const f = value as Partial<Fault> | undefined;
	if (!f || typeof f !== 'object') return 'fault must be an object';
	switch (f.kind) {
		case 'status': {
			const s = (f as { status?: unknown }).status;
			return s === 429 || s === 500 || s === 503 ? undefined : 'status must be 429, 500 or 503';
		}
		case 'hang': {
			const ms = (f as { ms?: unknown }).ms;
			return typeof ms === 'number' && ms >= 0 ? undefined : 'hang needs ms >= 0';
		}
		case 'drop':
		case 'dropAfterCommit':
		case 'noPageContext':
			return undefined;
		case 'html':
		case 'truncated':
		case 'empty':
		case 'drip':
		case 'endlessPages':
			return checkNewFault(f as Fault);
		default:
			return 'kind must be status, hang, drop, dropAfterCommit, noPageContext, html, truncated, empty, drip or endlessPages';
	}
}

/** The options of the bad-answer faults (html, truncated, empty, drip, endlessPages); other kinds pass. */
function checkNewFault(f: Fault): string | undefined {
	const o = f as Record<string, unknown>;
	const optional = (key: string, ok: (v: unknown) => boolean, what: string): string | undefined =>
		o[key] === undefined || ok(o[key]) ? undefined : `${f.kind}: ${key} must be ${what}`;
	const isString = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '' && !/[\r\n]/.test(v);
	switch (f.kind) {
		case 'html':
			return (
				optional('status', (v) => Number.isInteger(v) && (v as number) >= 200 && (v as number) <= 599, 'an integer from 200 to 599') ??
				optional('contentType', isString, 'a non-empty header value') ??
				optional('body', (v) => typeof v === 'string', 'a string')
			);
		case 'truncated':
			return (
				optional('keep', (v) => typeof v === 'number' && v >= 0 && (v < 1 || Number.isInteger(v)), 'a fraction from 0 to below 1 or a whole byte count') ??
				optional('gzip', (v) => typeof v === 'boolean', 'true or false')
			);
		case 'empty':
			return optional('contentType', isString, 'a non-empty header value');
		case 'drip':
			return (
				optional('bytes', (v) => Number.isInteger(v) && (v as number) >= 1, 'a whole number of at least 1') ??
				optional('everyMs', (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a number of milliseconds >= 0')
			);
		default:
			return undefined;
	}
}

// ---------------------------------------------------------------- endlessPages

type Json = Record<string, unknown>;

/** The id of the `n`th record (1-based) of endless page `page`. */
export function endlessId(page: number, n: number): string {
	return `9${String(page).padStart(6, '0')}${String(n).padStart(6, '0')}`;
}

/** The records of a list answer: its first array-valued key (not `page_context`). */
export function listOf(json: unknown): { key: string; records: unknown[] } | undefined {
	if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
	const src = json as Json;
	const key = Object.keys(src).find((k) => k !== 'page_context' && Array.isArray(src[k]));
	return key === undefined ? undefined : { key, records: src[key] as unknown[] };
}

/**
 * The answer of an `endlessPages` list call, built from the normal answer `json` (not
 * changed): `perPage` new records on the list's array and a page structure that says more.
 * `page` / `perPage` are what the call asked (or the defaults); the answer's own page
 * structure wins where it states them. The records copy the answer's first record, else
 * `template` (a record of an earlier page), else hold only the id and name fields.
 */
export function endlessPage(json: unknown, o: { page: number; perPage: number; idField: string; nameField: string; template?: Record<string, unknown> }): unknown {
	const list = listOf(json);
	if (!list) return json;
	const src = json as Json;
	const key = list.key;
	const context = src.page_context;
	const info = src.page_info as Json | undefined;
	const stated = (Array.isArray(context) ? (context[0] as Json | undefined) : (context as Json | undefined)) ?? info;
	const page = Number.isInteger(stated?.page) ? (stated?.page as number) : o.page;
	const perPage = Number.isInteger(stated?.per_page) ? (stated?.per_page as number) : o.perPage;
	const first = list.records[0];
	const template = first && typeof first === 'object' && !Array.isArray(first) ? (first as Json) : (o.template ?? {});
	const records: Json[] = [];
	for (let n = 1; n <= perPage; n++) records.push({ ...template, [o.idField]: endlessId(page, n), [o.nameField]: `Endless page ${page} #${n}` });
	const out: Json = { ...src, [key]: records };
	if (Array.isArray(context)) out.page_context = context.map((c) => ({ ...(c as Json), has_more_page: true }));
	else if (context && typeof context === 'object') out.page_context = { ...(context as Json), has_more_page: true };
	if (info && typeof info === 'object') out.page_info = { ...info, has_next_page: true };
	return out;
}
