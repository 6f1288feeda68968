/** Lists: the documented filters, sorting, paging and the list answer in each family's form. */
import type { Rec } from '../store';
import { envelope, invalidField, isAccounting, ok } from './answers';
import type { Ctx, Reply } from './context';
import { GUESS, refuse } from './refusals';

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
			return (Array.isArray(rec.custom_fields) ? rec.custom_fields : []).map((c: Rec) =>
				String(c.value ?? ''),
			);
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
		const wanted =
			name === 'OverDue' ? 'overdue' : name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
		return statusMatches(rec, wanted);
	}
	if (kind === 'PaymentMode')
		return String(rec.payment_mode ?? '').toLowerCase() === name.toLowerCase();
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
			out = out.filter((r) =>
				texts(r, base).some((t) =>
					how === 'startswith'
						? t.toLowerCase().startsWith(needle)
						: t.toLowerCase().includes(needle),
				),
			);
		} else if ((m = /^(.+)_(less_than|less_equals|greater_than|greater_equals)$/.exec(key))) {
			const [, base, how] = m;
			const n = Number(value);
			out = out.filter((r) => {
				const v = Number(r[base]);
				return how === 'less_than'
					? v < n
					: how === 'less_equals'
						? v <= n
						: how === 'greater_than'
							? v > n
							: v >= n;
			});
		} else if ((m = /^(.+)_(start|end|before|after)$/.exec(key))) {
			const [, base, how] = m;
			out = out.filter((r) => {
				const v = String(r[base] ?? '');
				if (!v) return false;
				return how === 'start'
					? v >= value
					: how === 'end'
						? v <= value
						: how === 'before'
							? v < value
							: v > value;
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
	if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb) && typeof a !== 'boolean')
		return na - nb;
	return String(a ?? '').localeCompare(String(b ?? ''));
}

function sortRecords(records: Rec[], column: string | undefined, descending: boolean): Rec[] {
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
	const perPage =
		ctx.query.per_page === undefined
			? (opts.perPage ?? (accounting ? 200 : 100))
			: Number(ctx.query.per_page);
	if (!Number.isInteger(page) || page < 1)
		return refuse(
			GUESS.paging,
			invalidField(ctx, 'page', 'must be a whole number of at least 1', 'query'),
		);
	if (!Number.isInteger(perPage) || perPage < 1)
		return refuse(
			GUESS.paging,
			invalidField(ctx, 'per_page', 'must be a whole number of at least 1', 'query'),
		);
	const sortColumn = ctx.query.sort_column;
	const sortOrder = ctx.query.sort_order === 'D' ? 'D' : 'A';
	const sorted = sortRecords(records, sortColumn, sortOrder === 'D');
	const slice = sorted.slice((page - 1) * perPage, page * perPage).map(opts.entry ?? ((r) => r));
	const hasMore = page * perPage < sorted.length;
	if (!accounting)
		return ok({ [key]: slice, page_info: { page, per_page: perPage, has_next_page: hasMore } });
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
		return envelope('success', {
			[key]: slice,
			page_context: [{ ...context, applied_filter: ctx.query.filter_by ?? 'Status.All' }],
		});
	}
	return envelope('success', { [key]: slice, page_context: context });
}
