// Polling (poll/): the strategies (newest / scan / changed) and the state they keep; imports poll/ only.
/**
 * Strategies (chosen per event in its table):
 * - `newest`: the list sorted newest first (a documented sort column plus the sort order),
 *   read page by page until a record older than the cursor shows up. State: the cursor
 *   time and the keys of the records seen at exactly that time (records sharing a
 *   timestamp are neither missed nor repeated). A poll that finds nothing new costs one
 *   call. If the answer is not in newest-first order (the server ignored the sort), the
 *   poll reads every page instead: slower, never wrong.
 * - `scan`: for lists without a documented newest-first sort (items, payments, bills,
 *   projects) every page is read and the keys are compared with those remembered from the
 *   last poll. State: the keys of the records currently listed (records that disappear are
 *   remembered a while, see below). Cost: ceil(records / page size); the baseline of a list
 *   without creation times twice that, less one, when it has more than one page.
 * - `changed`: like `scan`, remembering a short fingerprint of each record; emits the
 *   records whose fingerprint changed (updates).
 * Status events (`status` in the table) use `scan` over the list filtered by the status:
 * the documents name no sort by modification time, so a record that enters the status can
 * be anywhere in the list. State: the keys of the records currently in that status only.
 * The status is also checked on each record, so a server that ignored the filter costs
 * calls, not correctness.
 * A guessed sort is checked on every answer: the `page_context` echo of `sort_column` and
 * `sort_order` where the list gives one, and the order of the records; an answer that does not
 * confirm it makes the poll read every page. A `scan` event may offer a date window (`window`):
 * the user opts into reading only the records dated in the last N days, one call a day.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollStrategy } from './event';
import { chronological, fingerprint, happenedSince, readAll, readAllPages, readBackward, readNewest, timeOfDay, uniqueByKey } from './read';
import type { Source } from './read';

export interface PollState {
	sig: string;
	/** `newest`: cursor time (null: the list was empty, everything after is new). */
	t?: number | null;
	/** `newest`: keys at the cursor time; `scan`: keys currently listed. */
	keys?: string[];
	/** `changed`: fingerprint per key. */
	fp?: Record<string, string>;
	/** No baseline yet (the poll at activation failed on an outage): when activation began, before its first request, on the service's clock, epoch ms to the second; records from then on are new. */
	since?: number;
	/** `scan`: the service's time (epoch ms, to the second) when this state's read began. */
	at?: number;
	/** `scan`: keys known once and missing from a later read, with the service's time of the last read that listed them. */
	gone?: Array<[string, number]>;
	/** Date window: the newest day read (the next poll reads back to it, so nothing dated between two polls is missed). */
	day?: string;
}

export interface Outcome {
	emitted: IDataObject[];
	state: Omit<PollState, 'sig'>;
}

/**
 * `from`: without a baseline (no state, or one pending since activation), the time (the
 * service's) from which a record placed by its time field is new (-Infinity: every record is;
 * Infinity: none is, the read is the baseline).
 */
type Strategy = (src: Source, previous: PollState | undefined, from: number) => Promise<Outcome>;

/** Without a baseline: the records new from `from`. */
function newFrom(src: Source, records: IDataObject[], from: number): IDataObject[] {
	return from === -Infinity ? records : records.filter((r) => happenedSince(src, r, from));
}

const newest: Strategy = async (src, stored, from) => {
	// pending since activation: a cursor at that time with nothing known at it
	const previous = stored?.since !== undefined ? { ...stored, t: stored.since, keys: [] } : stored;
	// no state: down to `from`, and the newest records (the cursor) however old
	const records = uniqueByKey(src, previous ? await readNewest(src, previous.t ?? -Infinity) : await readNewest(src, from, true));
	const known = new Set(previous?.keys ?? []);
	const isOld = (r: IDataObject) => previous?.t !== undefined && previous.t !== null && src.time(r) === previous.t && known.has(src.key(r));
	const fresh = (previous ? records.filter((r) => !isOld(r)) : newFrom(src, records, from)).filter(src.matches);
	const prevT = previous?.t ?? null;
	const t = records.length ? records.reduce((max, r) => Math.max(max, src.time(r) as number), prevT ?? -Infinity) : prevT;
	const keys = records.filter((r) => src.time(r) === t).map(src.key);
	if (t !== null && t === prevT) keys.push(...known);
	return { emitted: chronological(src, [...fresh].reverse()), state: { t, keys: [...new Set(keys)] } };
};

/** Whether the event's time field is when a record was created, which never changes. */
const createdAt = (src: Source): boolean => src.event.timeField === 'created_time';

/**
 * The most pages a baseline is read again backward for (5,000 records at 200 a page): a read
 * twice as long stays within about 50 calls, half a minute at the accounting areas' pace, so
 * the poll at activation keeps far inside n8n's deadline (84 s on n8n 2.41). A longer list's
 * baseline is read once, as before.
 */
export const CONFIRM_MAX_PAGES = 25;

/** How far the service's time of a read's start may be off (its `Date` headers have whole seconds): records created this close before it may still be new. */
const CLOCK_MARGIN_MS = 5_000;

/** Whether a record's time field, with its time of day, is before `t`. */
function placedBefore(src: Source, record: IDataObject, t: number): boolean {
	const time = timeOfDay(src, record);
	return time !== undefined && time < t;
}

/** Keys remembered as gone from a scanned list at most (the oldest are forgotten first). */
export const GONE_MAX = 1000;

/**
 * `scan`: the keys listed now, against those of the last poll. A known key missing from this
 * read is remembered as gone, with the service's time of the last read that listed it: paging by
 * page number can hide a record when another is deleted during the read, and a server may ignore
 * a guessed filter (an item made inactive leaves the list). Such a record listed again is new only
 * if its time field says it changed since then (a status event's modification); a created record,
 * an item or a payment never becomes new again. A key never listed before is new, unless the
 * record's creation time (Bill Created, Project Created) is before the last read began: that read
 * missed it. The first read (the baseline) of a list whose records carry no creation time (items,
 * payments, a status) is read again backward when it had more than one page (and at most
 * CONFIRM_MAX_PAGES), so that no record is missed there and emitted by the next poll as new.
 */
const scan: Strategy = async (src, previous, from) => {
	const { records: read, lastPages } = await readAllPages(src);
	// the first read is the baseline: where no creation time can tell an old record from a new
	// one, a record it missed would be emitted as new by the next poll, so it is read both ways
	const pagesRead = lastPages.reduce((sum, last) => sum + last, 0);
	const confirm = !previous?.keys && !createdAt(src) && lastPages.some((last) => last > 1) && pagesRead <= CONFIRM_MAX_PAGES;
	const records = uniqueByKey(src, [...read, ...(confirm ? await readBackward(src, lastPages) : [])].filter(src.matches));
	const keys = records.map(src.key);
	const at = src.serviceTime();
	if (!previous?.keys) return { emitted: chronological(src, newFrom(src, records, from)), state: { keys, at } };
	const known = new Set(previous.keys);
	const gone = new Map(previous.gone ?? []);
	const lastRead = previous.at;
	const isNew = (r: IDataObject) => {
		const key = src.key(r);
		if (known.has(key)) return false;
		const missedSince = gone.get(key);
		if (missedSince !== undefined) return happenedSince(src, r, missedSince);
		// never listed: a record created before the last read began was there, and that read missed it
		return !(createdAt(src) && lastRead !== undefined && placedBefore(src, r, lastRead - CLOCK_MARGIN_MS));
	};
	const fresh = records.filter(isNew);
	const listed = new Set(keys);
	for (const key of keys) gone.delete(key);
	for (const key of previous.keys) if (!listed.has(key)) gone.set(key, previous.at ?? at);
	const kept = [...gone].slice(-GONE_MAX);
	return { emitted: chronological(src, fresh), state: { keys, at, ...(kept.length ? { gone: kept } : {}) } };
};

/**
 * `changed`: the fingerprints of the records listed now, against the last poll's. A record
 * missing from this read keeps its last fingerprint (at most GONE_MAX of them, the oldest
 * forgotten first): a deletion during the read can hide a record, and its change must still be
 * seen when it is listed again.
 */
const changed: Strategy = async (src, previous, from) => {
	const records = uniqueByKey(src, (await readAll(src)).filter(src.matches));
	const fp: Record<string, string> = {};
	for (const r of records) fp[src.key(r)] = fingerprint(r);
	const before = previous?.fp;
	const fresh = before ? records.filter((r) => before[src.key(r)] !== undefined && before[src.key(r)] !== fp[src.key(r)]) : newFrom(src, records, from);
	const missing = Object.entries(before ?? {}).filter(([key]) => fp[key] === undefined);
	for (const [key, print] of missing.slice(-GONE_MAX)) fp[key] = print;
	return { emitted: chronological(src, fresh), state: { fp } };
};

export const STRATEGIES: Record<PollStrategy, Strategy> = { newest, scan, changed };
