/**
 * What every area's rules share: list paging, generic CRUD by kind, comments.
 */
import type { Operation } from '../../nodes/shared/tables/spec';
import type { Source } from '../source';
import type { Rec } from '../store';
import { envelope, invalidField, isAccounting, ok } from './answers';
import { bodyObject, type Ctx, isReply, type Reply, tenantOf } from './context';
import { day, timestamp, timestampMs } from './formats';
import { BILLING_PROJECT_NOT_FOUND, GUESS, notFound, refuse } from './refusals';

/** Sources of the refusals the generic behaviour and `listReply` make. */
export const GENERIC_SOURCES: readonly Source[] = [GUESS.notFound, BILLING_PROJECT_NOT_FOUND, GUESS.paging];

/** The record-id parameter of an operation: the last `{param}` of its path. */
export function recordParam(op: Operation): string | undefined {
	const all = op.path.match(/\{([^}]+)\}/g);
	return all ? all[all.length - 1].slice(1, -1) : undefined;
}

// ---------------------------------------------------------------- lists

const LIST_CONTROL = new Set(['page', 'per_page', 'sort_column', 'sort_order', 'organization_id']);

/** Where a `<base>_startswith` / `_contains` filter looks. */
function texts(rec: Rec, base: string): string[] {
	const lines: Rec[] = Array.isArray(rec.line_items) ? rec.line_items : [];
	switch (base) {
		case 'item_name':
			return lines.map((l) => String(l.name ?? ''));
		case 'item_description':
			return lines.map((l) => String(l.description ?? ''));
		case 'custom_field':
			return (Array.isArray(rec.custom_fields) ? rec.custom_fields : []).map((c: Rec) => String(c.value ?? ''));
		case 'notes':
			return [String(rec.description ?? rec.notes ?? '')];
		default:
			return [String(rec[base] ?? '')];
	}
}

const OPEN_STATUSES = ['sent', 'unpaid', 'partially_paid', 'viewed', 'overdue'];

function statusMatches(rec: Rec, wanted: string): boolean {
	if (wanted === 'unpaid') return OPEN_STATUSES.includes(String(rec.status));
	return String(rec.status) === wanted;
}

/** `Status.OverDue` -> overdue, `Status.PartiallyPaid` -> partially_paid, `PaymentMode.BankTransfer` -> banktransfer. */
function filterBy(rec: Rec, value: string): boolean {
	const [kind, name] = value.split('.');
	if (!name || name === 'All') return true;
	if (kind === 'Status') {
		const wanted = name === 'OverDue' ? 'overdue' : name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
		return statusMatches(rec, wanted);
	}
	if (kind === 'PaymentMode') return String(rec.payment_mode ?? '').toLowerCase() === name.toLowerCase();
	if (kind === 'Date' && name === 'PaymentExpectedDate') return !!rec.payment_expected_date;
	return true;
}

/**
 * The documented list filters, where cheap: `<field>_startswith` / `_contains` (case
 * insensitive), `<field>_less_than` / `_less_equals` / `_greater_than` / `_greater_equals`,
 * `<date field>_start` / `_end` / `_before` / `_after`, `status`, `filter_by` (Status.*,
 * PaymentMode.*, Date.PaymentExpectedDate), and equality on customer_id, date, is_taxable.
 * Other parameters are ignored.
 */
export function filterRecords(records: Rec[], query: Record<string, string>): Rec[] {
	let out = records;
	for (const [key, value] of Object.entries(query)) {
		if (LIST_CONTROL.has(key) || value === '') continue;
		let m: RegExpExecArray | null;
		if ((m = /^(.+)_(startswith|contains)$/.exec(key))) {
			const [, base, how] = m;
			const needle = value.toLowerCase();
			out = out.filter((r) => texts(r, base).some((t) => (how === 'startswith' ? t.toLowerCase().startsWith(needle) : t.toLowerCase().includes(needle))));
		} else if ((m = /^(.+)_(less_than|less_equals|greater_than|greater_equals)$/.exec(key))) {
			const [, base, how] = m;
			const n = Number(value);
			out = out.filter((r) => {
				const v = Number(r[base]);
				return how === 'less_than' ? v < n : how === 'less_equals' ? v <= n : how === 'greater_than' ? v > n : v >= n;
			});
		} else if ((m = /^(.+)_(start|end|before|after)$/.exec(key))) {
			const [, base, how] = m;
			out = out.filter((r) => {
				const v = String(r[base] ?? '');
				if (!v) return false;
				return how === 'start' ? v >= value : how === 'end' ? v <= value : how === 'before' ? v < value : v > value;
			});
		} else if (key === 'status') {
			out = out.filter((r) => statusMatches(r, value));
		} else if (key === 'filter_by') {
			out = out.filter((r) => filterBy(r, value));
		} else if (key === 'customer_id' || key === 'date' || key === 'is_taxable') {
			out = out.filter((r) => String(r[key]) === value);
		}
	}
	return out;
}

function compareValues(a: unknown, b: unknown): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const na = Number(a);
	const nb = Number(b);
	if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb) && typeof a !== 'boolean') return na - nb;
	return String(a ?? '').localeCompare(String(b ?? ''));
}

export function sortRecords(records: Rec[], column: string | undefined, descending: boolean): Rec[] {
	if (!column) return records;
	const sorted = [...records].sort((a, b) => compareValues(a[column], b[column]));
	return descending ? sorted.reverse() : sorted;
}

export interface ListOptions {
	/** Accounting: `object` (items and most lists), `array` (estimates, invoices: one object with applied_filter), `none`. */
	pageContext?: 'object' | 'array' | 'none';
	reportName?: string;
	/** Maps each record to its list-entry form. */
	entry?: (rec: Rec) => Rec;
	/** Default page size (accounting 200 as in the samples; project management 100). */
	perPage?: number;
}

/**
 * Sorts (sort_column + sort_order A/D for accounting; `sort_by=asc(f)|desc(f)` is handled
 * by the bin's rule), pages (`page`, `per_page`) and wraps a list in the area's envelope:
 * accounting `{ code, message, <key>: [...], page_context }`, project management
 * `{ <key>: [...], page_info: { page, per_page, has_next_page } }`.
 */
export function listReply(ctx: Ctx, key: string, records: Rec[], opts: ListOptions = {}): Reply {
	const accounting = isAccounting(ctx.area);
	const page = ctx.query.page === undefined ? 1 : Number(ctx.query.page);
	const perPage = ctx.query.per_page === undefined ? (opts.perPage ?? (accounting ? 200 : 100)) : Number(ctx.query.per_page);
	if (!Number.isInteger(page) || page < 1) return refuse(GUESS.paging, invalidField(ctx, 'page', 'must be a whole number of at least 1', 'query'));
	if (!Number.isInteger(perPage) || perPage < 1) return refuse(GUESS.paging, invalidField(ctx, 'per_page', 'must be a whole number of at least 1', 'query'));
	const sortColumn = ctx.query.sort_column;
	const sortOrder = ctx.query.sort_order === 'D' ? 'D' : 'A';
	const sorted = sortRecords(records, sortColumn, sortOrder === 'D');
	const slice = sorted.slice((page - 1) * perPage, page * perPage).map(opts.entry ?? ((r) => r));
	const hasMore = page * perPage < sorted.length;
	if (!accounting) return ok({ [key]: slice, page_info: { page, per_page: perPage, has_next_page: hasMore } });
	const context: Rec = {
		page,
		per_page: perPage,
		has_more_page: hasMore,
		report_name: opts.reportName ?? ctx.resource.name + 's',
		sort_column: sortColumn ?? 'created_time',
		sort_order: sortOrder,
	};
	const mode = opts.pageContext ?? 'object';
	if (mode === 'none') return envelope('success', { [key]: slice });
	if (mode === 'array') {
		return envelope('success', { [key]: slice, page_context: [{ ...context, applied_filter: ctx.query.filter_by ?? 'Status.All' }] });
	}
	return envelope('success', { [key]: slice, page_context: context });
}

// ---------------------------------------------------------------- generic CRUD

/** The collection of each resource that has generic CRUD. */
export const COLLECTIONS: Readonly<Record<string, string>> = {
	'books.item': 'items',
	'books.estimate': 'estimates',
	'books.invoice': 'invoices',
	'invoice.payment': 'customerpayments',
	'billing.project': 'projects',
	'billing.comment': 'project_comments',
	'inventory.bill': 'bills',
	'projects.project': 'projects',
};

export interface CrudTarget {
	collection: string;
	idField: string;
	thing: string;
	/** Answer key of single records / lists. */
	key: string;
}

export function crudTarget(ctx: Ctx): CrudTarget {
	const collection = COLLECTIONS[`${ctx.area.value}.${ctx.resource.value}`];
	if (!collection) throw new Error(`${ctx.id}: no collection for generic CRUD`);
	return {
		collection,
		idField: ctx.resource.idField ?? 'id',
		thing: ctx.resource.name,
		// Ops without a stated response key (e.g. the inferred bill update) answer like the resource's create / get.
		key: ctx.op.responseKey ?? (ctx.op.kind === 'list' ? undefined : ctx.resource.operations.find((o) => (o.kind === 'create' || o.kind === 'get') && o.responseKey)?.responseKey) ?? collection,
	};
}

/**
 * The record of the resource addressed by the path (its `idField` parameter, else the
 * last path parameter), or a not-found reply.
 */
export function findRecord(ctx: Ctx, collection = crudTarget(ctx).collection, thing = ctx.resource.name): Rec | Reply {
	const id = ctx.params[ctx.resource.idField ?? ''] ?? ctx.params[recordParam(ctx.op) ?? ''] ?? '';
	return tenantOf(ctx).get(collection, id) ?? notFound(ctx, thing, id);
}

/** Body keys of the operation's body fields plus unknown keys (path values are not copied). */
export function writableBody(ctx: Ctx): Rec {
	const body = { ...bodyObject(ctx) };
	for (const k of Object.keys(ctx.params)) delete body[k];
	return body;
}

/** A hook that completes (or refuses) a record before it is stored. */
export type Prepare = (rec: Rec, ctx: Ctx, previous?: Rec) => Reply | void;

function singleReply(ctx: Ctx, t: CrudTarget, rec: Rec, message: string, status: number): Reply {
	if (isAccounting(ctx.area)) return envelope(message, { [t.key]: rec }, status);
	return ok(rec, status);
}

export function genericCreate(ctx: Ctx, prepare?: Prepare): Reply {
	const t = crudTarget(ctx);
	const stamp = stampNow(ctx);
	const rec: Rec = { [t.idField]: ctx.store.nextId(), ...writableBody(ctx), created_time: stamp, last_modified_time: stamp };
	const refused = prepare?.(rec, ctx);
	if (refused) return refused;
	tenantOf(ctx).put(t.collection, String(rec[t.idField]), rec);
	return singleReply(ctx, t, rec, `${t.thing} has been created.`, 201);
}

/** Timestamps as the area writes them: accounting with a numeric offset, bills and projects with milliseconds. */
function stampNow(ctx: Ctx): string {
	const now = ctx.clock.now();
	return isAccounting(ctx.area) && ctx.area.value !== 'inventory' ? timestamp(now) : timestampMs(now);
}

export function genericGet(ctx: Ctx): Reply {
	const t = crudTarget(ctx);
	const rec = findRecord(ctx);
	if (isReply(rec)) return rec;
	return singleReply(ctx, t, rec, 'success', 200);
}

export function genericUpdate(ctx: Ctx, prepare?: Prepare): Reply {
	const t = crudTarget(ctx);
	const found = findRecord(ctx);
	if (isReply(found)) return found;
	const next: Rec = { ...found, ...writableBody(ctx), [t.idField]: found[t.idField] };
	next.last_modified_time = stampNow(ctx);
	const refused = prepare?.(next, ctx, found);
	if (refused) return refused;
	tenantOf(ctx).put(t.collection, String(next[t.idField]), next);
	return singleReply(ctx, t, next, `${t.thing} has been updated.`, 200);
}

export function genericDelete(ctx: Ctx): Reply {
	const t = crudTarget(ctx);
	const found = findRecord(ctx);
	if (isReply(found)) return found;
	tenantOf(ctx).remove(t.collection, String(found[t.idField]));
	const message = `The ${t.thing.toLowerCase()} has been deleted.`;
	return isAccounting(ctx.area) ? envelope(message) : ok({ message });
}

export function genericList(ctx: Ctx, opts: ListOptions & { records?: Rec[] } = {}): Reply {
	const t = crudTarget(ctx);
	const records = filterRecords(opts.records ?? tenantOf(ctx).all(t.collection), ctx.query);
	return listReply(ctx, t.key, records, opts);
}

/** The behaviour of an operation without a rule of its own. */
export function generic(ctx: Ctx): Reply {
	switch (ctx.op.kind) {
		case 'create':
			return genericCreate(ctx);
		case 'get':
			return genericGet(ctx);
		case 'list':
			return genericList(ctx);
		case 'update':
			return genericUpdate(ctx);
		case 'delete':
			return genericDelete(ctx);
		default:
			// An emulator bug, not an answer of the service (sources.test.ts: every other kind has a rule): 500.
			throw new Error(`The emulator does not implement ${ctx.id}`);
	}
}

// ---------------------------------------------------------------- comments (books and billing)

/** Adds a comment record to `comments` of the tenant, under `parentField` = parent id. */
export function addComment(ctx: Ctx, collection: string, parentField: string, parentId: string, extra: Rec = {}): Rec {
	const now = ctx.clock.now();
	const body = bodyObject(ctx);
	const user = ctx.tenant?.currentUser;
	const rec: Rec = {
		comment_id: ctx.store.nextId(),
		[parentField]: parentId,
		description: String(body.description ?? ''),
		commented_by_id: user?.zpuid ?? '',
		commented_by: user?.name ?? '',
		is_current_user: true,
		date: day(now),
		date_description: 'few seconds ago',
		time: new Date(now).toISOString().slice(11, 16),
		...extra,
	};
	tenantOf(ctx).put(collection, rec.comment_id, rec);
	return rec;
}

export function commentsOf(ctx: Ctx, collection: string, parentField: string, parentId: string): Rec[] {
	return tenantOf(ctx)
		.all(collection)
		.filter((c) => c[parentField] === parentId);
}
