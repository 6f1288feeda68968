// Polling (poll/): reading an event's list (pages counted against the budget, the sort check, newest first); imports tables/, api/ and poll/.
/**
 * Reading the list of an event for a poll: the pages of each read, one call each, counted by
 * the poll's meter (./budget.ts); whether an answer confirms the sort asked; reading newest
 * first down to a time; and what the strategies (./strategies.ts) tell records apart by.
 */
import { createHash } from 'crypto';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isTransientFailure } from '../api/failureKinds';
import { answerRecords, hasMore, listPages, pageRequest, pagingFacts } from '../api/pages';
import type { ApiRequest } from '../api/request';
import type { Area, Operation } from '../tables/spec';
import { pageContext, vendorRequest } from '../api/transport';
import type { RunState } from '../api/transport';
import { BudgetSpent } from './budget';
import type { Meter } from './budget';
import type { TriggerEvent } from './event';

/** Epoch ms of a timestamp (`...+0530`, `...Z`, `yyyy-mm-dd`) or undefined. */
export function timeOf(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return value;
	const t = Date.parse(String(value).replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
	return Number.isNaN(t) ? undefined : t;
}

export interface Source {
	ctx: IPollFunctions;
	/** The state of this poll (api/run.ts): every request of the poll is sent with it. */
	run: RunState<IPollFunctions>;
	area: Area;
	op: Operation;
	/** The list request (its query sorts and filters). */
	req: ApiRequest;
	/** The reads of a poll: `req`, or one per day of a date window. */
	reads: ApiRequest[];
	meter: Meter;
	event: TriggerEvent;
	/** The records' id field when one field identifies them (pages are de-duplicated by it). */
	idField?: string;
	key: (r: IDataObject) => string;
	time: (r: IDataObject) => number | undefined;
	matches: (r: IDataObject) => boolean;
	/** When this poll began, before its first request, on the service's clock (as its answers' Date headers tell it, the latest seen): epoch ms to the second. */
	serviceTime: () => number;
}

/**
 * The pages of each read, as the engine's `listPages` reads them (on past a page shorter than
 * asked while the answer says there is more; each record once by its id). No page is asked for
 * once the calls sent (./meter.ts) reach what the day's budget leaves: the poll is cut short.
 */
/** The page size a poll asks for. */
const pageSizeOf = (src: Source): number => src.op.perPage ?? 200;

export async function* pages(
	src: Source,
): AsyncGenerator<{ entries: IDataObject[]; body: unknown; page: number; read: number }> {
	const size = pageSizeOf(src);
	for (const [index, req] of src.reads.entries()) {
		const read = listPages(src.run, src.area, src.op, req, size, undefined, src.idField);
		for (let more = true; more; ) {
			spendOne(src);
			const page = await read.next();
			if (page.done) break;
			yield { ...page.value, read: index };
			more =
				page.value.entries.length > 0 && hasMore(src.op, page.value.body, page.value.entries, size);
		}
	}
}

/** Before a call: the poll is cut short once the calls sent reach what the day's budget leaves. */
function spendOne(src: Source): void {
	if (src.meter.calls < src.meter.left) return;
	src.meter.cut = true;
	throw new BudgetSpent();
}

/** Where a pass over the pages stands: the read (of `src.reads`) and the page to read next. */
export interface PageAt {
	read: number;
	page: number;
}

/** Why a read of the pages stopped before the end: the poll's deadline, the day's calls, a transient failure. */
export type Stop = 'time' | 'calls' | 'failure';

/** Why this poll reads no further page now (it has read one already), or undefined. */
function stopNow(src: Source): Stop | undefined {
	if (src.meter.calls >= src.meter.left) return 'calls';
	return Date.now() >= src.meter.until ? 'time' : undefined;
}

/**
 * The pages of each read from `from` on, in order, each given to `onPage` as it is read. Before
 * every page but the poll's first (so that every poll goes on), the read stops once the poll's
 * deadline has passed or the day's calls are spent, and at a transient failure after a page of
 * this poll, unless `mayStop` says the read cannot go on later: it then returns where to go on and
 * why. Undefined: every read reached its end, or `onPage` said the read is done (true). A
 * server that answers the same page whatever `page` asks ends the read when the same page has
 * come back more often in a row than pages were read (records created meanwhile push pages on).
 */
export async function readPagesFrom(
	src: Source,
	from: PageAt,
	onPage: (entries: IDataObject[], at: PageAt, body: unknown) => boolean | void,
	mayStop: () => boolean = () => true,
): Promise<{ at: PageAt; stop: Stop; error?: unknown } | undefined> {
	const size = pageSizeOf(src);
	const paged = !!src.op.pagination && src.op.pagination !== 'none';
	let readNow = 0;
	for (let index = from.read; index < src.reads.length; index++) {
		const req = src.reads[index];
		const seen = new Set<string>();
		let repeats = 0;
		for (let page = index === from.read ? from.page : 1; ; page++) {
			const at = { read: index, page };
			const stop = readNow > 0 && mayStop() ? stopNow(src) : undefined;
			if (stop) return { at, stop };
			spendOne(src);
			const answer = await vendorRequest(
				src.run,
				src.area,
				paged ? pageRequest(req, page, size) : req,
			).then(
				(sent) => ({ body: sent.body }),
				(error: unknown) => ({ error }),
			);
			if ('error' in answer) {
				if (readNow > 0 && mayStop() && isTransientFailure(answer.error))
					return { at, stop: 'failure', error: answer.error };
				throw answer.error;
			}
			const body = answer.body;
			readNow++;
			src.meter.progressed?.();
			const entries = answerRecords(src.ctx.getNode(), src.area, src.op, body);
			const print = entries.map(src.key).join(',');
			if (page > 1 && entries.length > 0 && seen.has(print)) {
				if (++repeats > seen.size || pagingFacts(body).more !== true) break;
				continue;
			}
			repeats = 0;
			seen.add(print);
			if (onPage(entries, at, body) === true) return undefined;
			if (!paged || entries.length === 0 || !hasMore(src.op, body, entries, size)) break;
		}
	}
	return undefined;
}

/**
 * The pages of each read again, backward from the one before its last to page 1 (`lastPages`:
 * as a forward read found them). Page-number paging read forward cannot see a record that moves
 * onto a page already read (another deleted before it while the pages are read); read backward,
 * a deletion moves records onto pages not yet read, so a read in each direction together list
 * every record that was there throughout, unless a deletion during the one and a creation during
 * the other hide the same record. The last page is not read again: a record the forward read
 * missed moved from the page after to the page before, so it sits on a page before the last.
 */
export async function readBackward(src: Source, lastPages: number[]): Promise<IDataObject[]> {
	const size = pageSizeOf(src);
	const out: IDataObject[] = [];
	for (const [index, req] of src.reads.entries()) {
		for (let page = (lastPages[index] ?? 0) - 1; page >= 1; page--) {
			// a confirmation only: it ends where the poll's time or calls do
			if (stopNow(src)) return out;
			spendOne(src);
			const { body } = await vendorRequest(src.run, src.area, pageRequest(req, page, size));
			out.push(...answerRecords(src.ctx.getNode(), src.area, src.op, body));
		}
	}
	return out;
}

export function missingTime(src: Source, record: IDataObject): NodeOperationError {
	return new NodeOperationError(
		src.ctx.getNode(),
		`The ${src.event.resource} list answered a record without a readable "${src.event.timeField}" (key ${src.key(record)}), so new records cannot be told from old ones`,
		{
			description:
				'Nothing was emitted and the trigger state was kept. Check the API answer or choose another event.',
		},
	);
}

/**
 * Whether an answer does not contradict the sort asked: the `page_context` of the accounting
 * lists echoes `sort_column` and `sort_order` (the Accounting document); an echo that differs means the server
 * sorted otherwise. Lists without an echo (the bin) are checked by the order of their records only.
 */
export function confirmsSort(src: Source, body: unknown): boolean {
	const context = pageContext(body);
	return ['sort_column', 'sort_order'].every((name) => {
		const asked = src.req.qs[name];
		const answered = context?.[name];
		return asked === undefined || answered === undefined || String(answered) === String(asked);
	});
}

/**
 * Newest first, down to `since` (inclusive): every record with a time at or after it; with
 * `newestToo`, also the records at the newest time when they are older. Stops at the first
 * page that reaches older records, unless the answer turned out not to be sorted newest first.
 */
export async function readNewest(
	src: Source,
	since: number,
	newestToo = false,
): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let previous = Infinity;
	let max = -Infinity;
	let sorted = true;
	for await (const { entries, body } of pages(src)) {
		src.meter.progressed?.();
		if (!confirmsSort(src, body)) sorted = false;
		let older = false;
		for (const record of entries) {
			const t = src.time(record);
			if (t === undefined) throw missingTime(src, record);
			if (t > previous) sorted = false;
			previous = t;
			max = Math.max(max, t);
			if (t < (newestToo ? Math.min(max, since) : since)) older = true;
			else out.push(record);
		}
		if (older && sorted) break;
		// not sorted as asked: read to the end in this poll (it cannot go on at the next)
		if (!sorted) src.meter.until = Infinity;
	}
	const floor = newestToo ? Math.min(max, since) : since;
	return out.filter((r) => (src.time(r) as number) >= floor);
}

export function uniqueByKey(src: Source, records: IDataObject[]): IDataObject[] {
	const seen = new Set<string>();
	return records.filter((r) => {
		const k = src.key(r);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

/** Oldest first by the time field when every record has one; else in the given order. */
export function chronological(src: Source, records: IDataObject[]): IDataObject[] {
	if (!src.event.timeField || records.some((r) => src.time(r) === undefined)) return records;
	return [...records].sort((a, b) => (src.time(a) as number) - (src.time(b) as number));
}

/**
 * A record's time by its time field when that says when in the day (a value with a time of day,
 * or epoch ms); undefined for a bare date or no time field, which cannot tell.
 */
export function timeOfDay(src: Source, record: IDataObject): number | undefined {
	const value = src.event.timeField ? record[src.event.timeField] : undefined;
	return typeof value === 'number' || /\d{2}:\d{2}/.test(String(value))
		? src.time(record)
		: undefined;
}

/** Whether a record happened at or after `since` by its time field (see `timeOfDay`). */
export function happenedSince(src: Source, record: IDataObject, since: number): boolean {
	const t = timeOfDay(src, record);
	return t !== undefined && t >= since;
}

export function fingerprint(record: IDataObject): string {
	const stable = (v: unknown): unknown =>
		Array.isArray(v)
			? v.map(stable)
			: v && typeof v === 'object'
				? Object.fromEntries(
						Object.keys(v)
							.sort()
							.map((k) => [k, stable((v as IDataObject)[k])]),
					)
				: v;
	return createHash('sha1')
		.update(JSON.stringify(stable(record)))
		.digest('base64')
		.slice(0, 12);
}
