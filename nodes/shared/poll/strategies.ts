// Polling (poll/): the strategies (newest / scan / changed) and the state they keep; imports poll/ only.
/**
 * Strategies (chosen per event in its table):
 * - `newest`: the list sorted newest first (a documented sort column plus the sort order),
 *   read page by page until a record older than the cursor shows up. State: the cursor
 *   time and the keys of the records seen at exactly that time (records sharing a
 *   timestamp are neither missed nor repeated). A poll that finds nothing new costs one
 *   call. If the answer is not in newest-first order (the server ignored the sort), the
 *   poll reads every page instead: slower, never wrong. A read after a long pause that does not
 *   fit one poll goes on at the next (`newestFromCursor`).
 * - `scan`: for lists without a documented newest-first sort (items, payments, bills,
 *   projects) every page is read and the keys are compared with those remembered from the
 *   last poll (the last completed pass: a pass that does not fit one poll goes on at the next). State: the keys of the records currently listed (records that disappear are
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
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { PollStrategy } from './event';
import {
	chronological,
	confirmsSort,
	fingerprint,
	happenedSince,
	missingTime,
	readBackward,
	readNewest,
	readPagesFrom,
	timeOfDay,
	uniqueByKey,
} from './read';
import type { PageAt, Source, Stop } from './read';

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
	/** `scan` / `changed`: a read of the whole list that did not fit one poll, going on at the next (the fields above stay the last completed pass's). */
	pass?: Pass;
}

/** A read of a whole list under way over several polls. */
interface Pass extends PageAt {
	/** What the reads were (a date window's days): a pass goes on over the same reads only. */
	reads: string;
	/** `scan`: the keys listed so far in this pass (each emitted, when new, by the poll that read it). */
	keys?: string[];
	/** `changed`: the fingerprints of the records listed so far in this pass. */
	fp?: Record<string, string>;
	/** The service's time (epoch ms, to the second) when the pass's first poll began. */
	at: number;
	/** Polls that have read in this pass so far. */
	polls: number;
	/** `newest`: the newest records read in this pass (the cursor once it is done) and the oldest read so far. */
	top?: [number, string[]];
	low?: [number, string[]];
}

export interface Outcome {
	emitted: IDataObject[];
	state: Omit<PollState, 'sig'>;
	/** `scan` / `changed`: how far this poll took its pass (done: it completed; else why it stopped). */
	pass?: { polls: number; done: boolean; stop?: Stop; error?: unknown };
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

/** Records at one time: the time and the keys read at it (`newest`: the newest and the oldest of a pass so far). */
type AtTime = [number, string[]];

/** `at` with `r` (at time `t`) taken in: the newer (`newer`) or the older of the two, keys at the same time joined. */
function extend(at: AtTime, t: number, key: string, newer: boolean): AtTime {
	if (t === at[0]) return at[1].includes(key) ? at : [t, [...at[1], key]];
	return (newer ? t > at[0] : t < at[0]) ? [t, [key]] : at;
}

/**
 * `newest` with a cursor: the list newest first down to the cursor's time. A read that reaches the
 * poll's deadline (or what the day's budget leaves) before the cursor, while the answers are sorted
 * newest first, keeps its progress (`pass`: the page to go on from, the newest records read, which
 * become the cursor once the read reaches the old one, and the oldest read so far) and the next poll
 * goes on there, a page back (a deletion meanwhile moves records up by as many places): a record
 * newer than the oldest read so far, or at its time and read, was read by an earlier poll of the
 * pass, and one made since the pass began is newer than its newest records, so the next pass reads
 * it. An answer not sorted newest first is read to its end in one poll, as before.
 */
async function newestFromCursor(
	src: Source,
	stored: PollState,
	previous: PollState,
): Promise<Outcome> {
	const prevT = previous.t ?? null;
	const since = prevT ?? -Infinity;
	const known = new Set(previous.keys ?? []);
	const resumed = stored.pass?.reads === readsOf(src) ? stored.pass : undefined;
	let top: AtTime = resumed?.top ?? [-Infinity, []];
	let low: AtTime = resumed?.low ?? [Infinity, []];
	const readBefore = new Set(low[1]);
	const records: IDataObject[] = [];
	let sorted = true;
	let last = Infinity;
	const stopped = await readPagesFrom(
		src,
		resumed ? { read: resumed.read, page: Math.max(1, resumed.page - 1) } : { read: 0, page: 1 },
		(entries, _at, body) => {
			if (!confirmsSort(src, body)) sorted = false;
			let older = false;
			for (const record of entries) {
				const t = src.time(record);
				if (t === undefined) throw missingTime(src, record);
				if (t > last) sorted = false;
				last = t;
				if (t < since) older = true;
				else if (!resumed || t < low[0] || (t === low[0] && !readBefore.has(src.key(record))))
					records.push(record);
			}
			// not sorted as asked: read to the end in this poll (it cannot go on at the next)
			if (!sorted) src.meter.until = Infinity;
			return older && sorted;
		},
		() => sorted,
	);
	const read = uniqueByKey(src, records);
	for (const r of read) {
		top = extend(top, src.time(r) as number, src.key(r), true);
		low = extend(low, src.time(r) as number, src.key(r), false);
	}
	const isOld = (r: IDataObject) =>
		prevT !== null && src.time(r) === prevT && known.has(src.key(r));
	const fresh = read.filter((r) => !isOld(r)).filter(src.matches);
	const emitted = chronological(src, [...fresh].reverse());
	if (stopped) {
		const pass: Pass = {
			read: stopped.at.read,
			page: stopped.at.page,
			reads: readsOf(src),
			at: resumed?.at ?? src.serviceTime(),
			polls: (resumed?.polls ?? 0) + 1,
			top,
			low,
		};
		return {
			emitted,
			state: { ...baselineOf(stored), pass },
			pass: { polls: pass.polls, done: false, stop: stopped.stop, error: stopped.error },
		};
	}
	const t = top[0] > -Infinity ? Math.max(top[0], prevT ?? -Infinity) : prevT;
	const keys = t === top[0] ? [...top[1]] : [];
	if (t !== null && t === prevT) keys.push(...known);
	return {
		emitted,
		state: { t, keys: [...new Set(keys)] },
		pass: { polls: (resumed?.polls ?? 0) + 1, done: true },
	};
}

const newest: Strategy = async (src, stored, from) => {
	// pending since activation: a cursor at that time with nothing known at it
	const previous = stored?.since !== undefined ? { ...stored, t: stored.since, keys: [] } : stored;
	if (stored && previous) return await newestFromCursor(src, stored, previous);
	// no state: down to `from`, and the newest records (the cursor) however old
	const records = uniqueByKey(src, await readNewest(src, from, true));
	const fresh = newFrom(src, records, from).filter(src.matches);
	const t = records.length
		? records.reduce((max, r) => Math.max(max, src.time(r) as number), -Infinity)
		: null;
	const keys = records.filter((r) => src.time(r) === t).map(src.key);
	return {
		emitted: chronological(src, [...fresh].reverse()),
		state: { t, keys: [...new Set(keys)] },
	};
};

/** Whether the event's time field is when a record was created, which never changes. */
const createdAt = (src: Source): boolean => src.event.timeField === 'created_time';

/**
 * The most pages a baseline is read again backward for (5,000 records at 200 a page): a read
 * twice as long stays within about 50 calls, half a minute at the accounting areas' pace, so
 * the poll at activation keeps far inside n8n's deadline (84 s on n8n 2.41). A longer list's
 * baseline is read once, as before.
 */
const CONFIRM_MAX_PAGES = 25;

/** How far the service's time of a read's start may be off (its `Date` headers have whole seconds): records created this close before it may still be new. */
const CLOCK_MARGIN_MS = 5_000;

/** Whether a record's time field, with its time of day, is before `t`. */
function placedBefore(src: Source, record: IDataObject, t: number): boolean {
	const time = timeOfDay(src, record);
	return time !== undefined && time < t;
}

/** Keys remembered as gone from a scanned list at most (the oldest are forgotten first). */
const GONE_MAX = 1000;

/** The state kept while a pass goes on: the last completed pass's (the baseline), without its own pass. */
function baselineOf(previous: PollState | undefined): Omit<PollState, 'sig'> {
	const kept: Partial<PollState> = { ...previous };
	delete kept.sig;
	delete kept.pass;
	return kept;
}

/** What the reads of this poll are (a date window's days): a pass goes on only over the same reads. */
function readsOf(src: Source): string {
	return createHash('sha1')
		.update(JSON.stringify(src.reads.map((r) => r.qs)))
		.digest('base64')
		.slice(0, 12);
}

/**
 * The pass this poll goes on with (the stored one, over the same reads), or a new one from the
 * first page, begun when this poll began on the service's clock (read once its answers have
 * told that clock: `at` is filled in after the read).
 */
function passOf(src: Source, previous: PollState | undefined): Pass {
	const stored = previous?.pass;
	if (stored && stored.reads === readsOf(src)) return stored;
	return { read: 0, page: 1, reads: readsOf(src), at: Number.NaN, polls: 0 };
}

/** When the pass began on the service's clock (a new pass: when this poll began, as its answers tell that clock). */
const beganAt = (src: Source, pass: Pass): number =>
	Number.isNaN(pass.at) ? src.serviceTime() : pass.at;

/** A pass that stopped before the list's end: the baseline kept, the pass saved to go on from where it stopped. */
function goesOn(
	src: Source,
	previous: PollState | undefined,
	pass: Pass,
	stopped: { at: PageAt; stop: Stop; error?: unknown },
	emitted: IDataObject[],
	listed: Pick<Pass, 'keys' | 'fp'>,
): Outcome {
	const next: Pass = {
		...pass,
		...stopped.at,
		...listed,
		at: beganAt(src, pass),
		polls: pass.polls + 1,
	};
	return {
		emitted: chronological(src, emitted),
		state: { ...baselineOf(previous), pass: next },
		pass: { polls: next.polls, done: false, stop: stopped.stop, error: stopped.error },
	};
}

/**
 * Without a baseline, from when a record is new: a baseline pass that goes on over several polls
 * takes a record placed (by its time field) at or after the pass began as new, not as part of
 * the baseline, as a baseline read in one poll would have left it to the next poll.
 */
const newSince = (src: Source, pass: Pass, from: number): number =>
	from === Infinity && pass.polls > 0 ? beganAt(src, pass) : from;

/** A completed pass: how many polls it took. */
const completed = (pass: Pass): NonNullable<Outcome['pass']> => ({
	polls: pass.polls + 1,
	done: true,
});

/**
 * `scan`: the keys listed now, against those of the last completed pass (the baseline). A known
 * key missing from this pass is remembered as gone, with the service's time of the last read that
 * listed it: paging by page number can hide a record when another is deleted during the read, and
 * a server may ignore a guessed filter (an item made inactive leaves the list). Such a record
 * listed again is new only if its time field says it changed since then (a status event's
 * modification); a created record, an item or a payment never becomes new again. A key never
 * listed before is new, unless the record's creation time (Bill Created, Project Created) is
 * before the last pass began: that pass missed it. The first pass (the baseline) of a list whose
 * records carry no creation time (items, payments, a status) is read again backward when it had
 * more than one page (and at most CONFIRM_MAX_PAGES) and fit one poll, so that no record is missed
 * there and emitted by the next poll as new.
 *
 * A pass that does not fit one poll (its deadline or the day's calls reached mid-list, or a
 * transient failure after a page) keeps its progress (`pass`: the page to go on from, the keys
 * listed so far) and the next poll goes on there; each new record is emitted by the poll that
 * reads it, once (a key already listed in the pass is passed over, also when paging shifted it
 * onto a later page), and the completed pass becomes the baseline. A record moved onto a page
 * already read is caught by the next pass.
 */
const scan: Strategy = async (src, previous, from) => {
	const pass = passOf(src, previous);
	const listed = new Set(pass.keys ?? []);
	const records: IDataObject[] = [];
	const lastPages = src.reads.map(() => 0);
	const stopped = await readPagesFrom(src, pass, (entries, at) => {
		lastPages[at.read] = Math.max(lastPages[at.read], at.page);
		for (const r of entries) {
			const key = src.key(r);
			if (!src.matches(r) || listed.has(key)) continue;
			listed.add(key);
			records.push(r);
		}
	});
	const baseline = !previous?.keys;
	// the first read is the baseline: where no creation time can tell an old record from a new
	// one, a record it missed would be emitted as new by the next poll, so it is read both ways
	const pagesRead = lastPages.reduce((sum, last) => sum + last, 0);
	const confirm =
		!stopped &&
		pass.polls === 0 &&
		baseline &&
		!createdAt(src) &&
		lastPages.some((last) => last > 1) &&
		pagesRead <= CONFIRM_MAX_PAGES;
	if (confirm) {
		for (const r of (await readBackward(src, lastPages)).filter(src.matches)) {
			if (listed.has(src.key(r))) continue;
			listed.add(src.key(r));
			records.push(r);
		}
	}
	const known = new Set(previous?.keys ?? []);
	const gone = new Map(previous?.gone ?? []);
	const lastRead = previous?.at;
	const isNew = (r: IDataObject) => {
		const key = src.key(r);
		if (known.has(key)) return false;
		const missedSince = gone.get(key);
		if (missedSince !== undefined) return happenedSince(src, r, missedSince);
		// never listed: a record created before the last pass began was there, and that pass missed it
		return !(
			createdAt(src) &&
			lastRead !== undefined &&
			placedBefore(src, r, lastRead - CLOCK_MARGIN_MS)
		);
	};
	const fresh = baseline ? newFrom(src, records, newSince(src, pass, from)) : records.filter(isNew);
	const keys = [...listed];
	if (stopped) return goesOn(src, previous, pass, stopped, fresh, { keys });
	const at = beganAt(src, pass);
	if (baseline)
		return { emitted: chronological(src, fresh), state: { keys, at }, pass: completed(pass) };
	for (const key of keys) gone.delete(key);
	for (const key of previous?.keys ?? []) if (!listed.has(key)) gone.set(key, previous?.at ?? at);
	const kept = [...gone].slice(-GONE_MAX);
	return {
		emitted: chronological(src, fresh),
		state: { keys, at, ...(kept.length ? { gone: kept } : {}) },
		pass: completed(pass),
	};
};

/**
 * `changed`: the fingerprints of the records listed now, against the last completed pass's. A
 * record missing from this pass keeps its last fingerprint (at most GONE_MAX of them, the oldest
 * forgotten first): a deletion during the read can hide a record, and its change must still be
 * seen when it is listed again. A pass that does not fit one poll goes on at the next, as for
 * `scan` (the fingerprints collected so far kept with it; a record already listed in the pass is
 * passed over, a later change of it is seen by the next pass).
 */
const changed: Strategy = async (src, previous, from) => {
	const pass = passOf(src, previous);
	const fp: Record<string, string> = { ...(pass.fp ?? {}) };
	const records: IDataObject[] = [];
	const stopped = await readPagesFrom(src, pass, (entries) => {
		for (const r of entries) {
			const key = src.key(r);
			if (!src.matches(r) || fp[key] !== undefined) continue;
			fp[key] = fingerprint(r);
			records.push(r);
		}
	});
	const before = previous?.fp;
	const fresh = before
		? records.filter(
				(r) => before[src.key(r)] !== undefined && before[src.key(r)] !== fp[src.key(r)],
			)
		: newFrom(src, records, newSince(src, pass, from));
	if (stopped) return goesOn(src, previous, pass, stopped, fresh, { fp });
	const missing = Object.entries(before ?? {}).filter(([key]) => fp[key] === undefined);
	for (const [key, print] of missing.slice(-GONE_MAX)) fp[key] = print;
	return { emitted: chronological(src, fresh), state: { fp }, pass: completed(pass) };
};

export const STRATEGIES: Record<PollStrategy, Strategy> = { newest, scan, changed };
