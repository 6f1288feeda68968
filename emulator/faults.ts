/**
 * Faults on demand: `faults.next(n, fault, scope?)` makes the next `n` matching requests fail that
 * way, first in first out (each kind and the scopes: README.md, "Faults").
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

type FaultScope = string | ((req: FaultTarget) => boolean);

interface Queued {
	fault: Fault;
	remaining: number;
	scope?: FaultScope;
}

export class Faults {
	private queue: Queued[] = [];

	/** The next `n` requests matching `scope` get `fault`. */
	next(n: number, fault: Fault, scope?: FaultScope): void {
		if (!Number.isInteger(n) || n < 1)
			throw new RangeError(`faults.next: n must be a positive integer, got ${n}`);
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
		const q = this.queue.find(
			(x) => x.remaining > 0 && applies(x.fault, target) && matches(x.scope, target),
		);
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
	const isString = (v: unknown): boolean =>
		typeof v === 'string' && v.trim() !== '' && !/[\r\n]/.test(v);
	switch (f.kind) {
		case 'html':
			return (
				optional(
					'status',
					(v) => Number.isInteger(v) && (v as number) >= 200 && (v as number) <= 599,
					'an integer from 200 to 599',
				) ??
				optional('contentType', isString, 'a non-empty header value') ??
				optional('body', (v) => typeof v === 'string', 'a string')
			);
		case 'truncated':
			return (
				optional(
					'keep',
					(v) => typeof v === 'number' && v >= 0 && (v < 1 || Number.isInteger(v)),
					'a fraction from 0 to below 1 or a whole byte count',
				) ?? optional('gzip', (v) => typeof v === 'boolean', 'true or false')
			);
		case 'empty':
			return optional('contentType', isString, 'a non-empty header value');
		case 'drip':
			return (
				optional(
					'bytes',
					(v) => Number.isInteger(v) && (v as number) >= 1,
					'a whole number of at least 1',
				) ??
				optional(
					'everyMs',
					(v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
					'a number of milliseconds >= 0',
				)
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
export function endlessPage(
	json: unknown,
	o: {
		page: number;
		perPage: number;
		idField: string;
		nameField: string;
		template?: Record<string, unknown>;
	},
): unknown {
	const list = listOf(json);
	if (!list) return json;
	const src = json as Json;
	const key = list.key;
	const context = src.page_context;
	const info = src.page_info as Json | undefined;
	const stated =
		(Array.isArray(context) ? (context[0] as Json | undefined) : (context as Json | undefined)) ??
		info;
	const page = Number.isInteger(stated?.page) ? (stated?.page as number) : o.page;
	const perPage = Number.isInteger(stated?.per_page) ? (stated?.per_page as number) : o.perPage;
	const first = list.records[0];
	const template =
		first && typeof first === 'object' && !Array.isArray(first)
			? (first as Json)
			: (o.template ?? {});
	const records: Json[] = [];
	for (let n = 1; n <= perPage; n++)
		records.push({
			...template,
			[o.idField]: endlessId(page, n),
			[o.nameField]: `Endless page ${page} #${n}`,
		});
	const out: Json = { ...src, [key]: records };
	if (Array.isArray(context))
		out.page_context = context.map((c) => ({ ...(c as Json), has_more_page: true }));
	else if (context && typeof context === 'object')
		out.page_context = { ...(context as Json), has_more_page: true };
	if (info && typeof info === 'object') out.page_info = { ...info, has_next_page: true };
	return out;
}
