/**
 * Pacing by count, one pacer for every area, each under its rule:
 *
 * - the project-management area: 100 requests per 2 minutes, and 30 minutes blocked past it
 *   (document 1), per credential;
 * - the accounting areas (Books, Payments, Billing, Purchase Bills): 100 requests per minute per
 *   organization, 429 past it, no block (the service's help pages, not the documents: a listed
 *   guess), per credential and organization, shared by those areas.
 *
 * A sliding window per key: a request waits until it would be at most the `limit`-th within any
 * `windowMs` plus a small margin (1 % of the window, at least 100 ms) that absorbs differences
 * in network delay between requests, so the server's count never reaches the limit. After a 429
 * the pacer holds every request of that key until the wait is over (the Retry-After, else the
 * rule's block, else one whole window: by then every request the server counted before the 429
 * has left its minute, however it counts).
 *
 * A hold is measured on `Date.now()`, the package's waits on Node's timers, which count whole
 * milliseconds on the monotonic clock: a wait of exactly a hold's length, begun as the hold was
 * set, can end while `Date.now()` is still a millisecond short of its end (20 ms timers end 19 ms
 * later by `Date.now()` in about 2 % of waits). A request that comes back from waiting out a
 * 429's Retry-After must not fail as blocked by that remainder: a request that finds at most
 * `TIMER_SLACK_MS` of a hold left waits it out, whatever it would do during a block.
 */
import { aborted, onAbort, pause } from './wait';

export interface PacingRule {
	limit: number;
	windowMs: number;
	/** How long the server blocks once the limit is crossed (the wait after a 429 without Retry-After); none: no block, a 429 holds for a window. */
	blockMs?: number;
}

/** The areas paced under a rule of their own. */
export type PacedArea = 'projects' | 'accounting';

/** How much of a hold may be left when a wait of its length ends (see above): waited out, never failed on. */
export const TIMER_SLACK_MS = 10;

/** The project-management area (document 1). */
export const DOCUMENTED_RULE: Readonly<Required<PacingRule>> = { limit: 100, windowMs: 120_000, blockMs: 1_800_000 };

/** The accounting areas, per organization: the service's help pages (a listed guess), no block. */
export const ACCOUNTING_RULE: Readonly<PacingRule> = { limit: 100, windowMs: 60_000 };

const DEFAULT_RULES: Readonly<Record<PacedArea, PacingRule>> = { projects: DOCUMENTED_RULE, accounting: ACCOUNTING_RULE };

const rules: Record<PacedArea, PacingRule> = { projects: { ...DOCUMENTED_RULE }, accounting: { ...ACCOUNTING_RULE } };

/** For tests and benchmarks: the same logic with scaled-down numbers (the project area unless `area` says otherwise); its pacers start afresh. */
export function setPacingRule(next: PacingRule, area: PacedArea = 'projects'): void {
	rules[area] = { ...next };
	for (const [key, pacer] of pacers) if (pacer.area === area) pacers.delete(key);
}

export function getPacingRule(area: PacedArea = 'projects'): PacingRule {
	return { ...rules[area] };
}

/** The rule an area is paced under when no test or benchmark has scaled it. */
export function defaultPacingRule(area: PacedArea): PacingRule {
	return { ...DEFAULT_RULES[area] };
}

/** The safety margin added to the window: 1 % of it, at least 100 ms. */
export function marginMs(r: PacingRule = rules.projects): number {
	return Math.max(100, Math.ceil(r.windowMs / 100));
}

/**
 * Waits until `ms` have passed (none: no time limit) or `wake` resolves, whichever is first,
 * and rejects when `signal` aborts; leaves no timer or listener behind (the timer is
 * the package's `pause`, cut short through its own signal when woken first).
 */
async function waitFor(ms: number | undefined, wake: Promise<void>, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw aborted(signal);
	const timer = new AbortController();
	const stop = onAbort(signal);
	const elapsed = ms === undefined ? [] : [pause(ms, timer.signal).catch(() => undefined)];
	try {
		await Promise.race([wake, stop.promise, ...elapsed]);
	} finally {
		timer.abort();
		stop.off();
	}
}

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
	let resolve = () => {};
	const promise = new Promise<void>((r) => (resolve = r));
	return { promise, resolve };
}

export class Pacer {
	/** Requests let through whose answer (or failure) is not back yet: they count until it is. */
	private outstanding = 0;

	/** When each counted request's answer came back (epoch ms), in the order they came back; those before `first` have left the window. */
	private answeredAt: number[] = [];

	private first = 0;

	/** Requests waiting for their turn (the window or a hold). */
	private waits = 0;

	/** Until when every request waits (a short Retry-After, or a block). */
	private holdUntil = 0;

	/** Until when a block lasts (a 429 without Retry-After in the paced area, or a long one): a run may end on it. */
	private blockedUntil = 0;

	private queue: Promise<void> = Promise.resolve();

	/** Resolves when a counted request's answer comes back (then replaced). */
	private answered = signalled();

	/** The part of the rule's limit this n8n instance may use: queue-mode workers split it (the project area at most all of it). */
	share = 1;

	/** `now` is read on every use (the clock of the moment, also when a test swaps it); `area` names the rule (read on every use too). */
	constructor(
		private readonly now: () => number = () => Date.now(),
		readonly area: PacedArea = 'projects',
	) {}

	/** The rule of the moment. */
	get rule(): PacingRule {
		return rules[this.area];
	}

	/** Requests this instance may send per window: its share of the rule's limit, at least 1. */
	get limit(): number {
		return Math.max(1, Math.floor(this.rule.limit * this.share));
	}

	/** Requests let through whose answer is not back yet (for tests and benchmarks). */
	get inFlight(): number {
		return this.outstanding;
	}

	/** Requests waiting for their turn: the window is full, or a hold is on (for tests and benchmarks). */
	get waiting(): number {
		return this.waits;
	}

	/** Counted requests within the window at `t`: those in flight and those answered since `t - span`. */
	private counted(t: number, span: number): number {
		const times = this.answeredAt;
		while (this.first < times.length && times[this.first] <= t - span) this.first++;
		if (this.first > 1024 && this.first * 2 > times.length) {
			this.answeredAt = times.slice(this.first);
			this.first = 0;
		}
		return this.outstanding + this.answeredAt.length - this.first;
	}

	/**
	 * Resolves when one more request may be sent, and counts it; the returned `done` is called
	 * when its answer (or failure) is back, or with `false` when it was not sent after all (it
	 * then does not count). A request counts from then, not from when it was
	 * let through: the server saw it by the time it answered, so however late a request
	 * reached the server, none of the next window's can arrive within its window. A wait ends
	 * when `signal` aborts; during a block, `failWhenBlocked` (if given) gives the error to
	 * end with instead of waiting (not for the last `TIMER_SLACK_MS` of it).
	 */
	async take(signal?: AbortSignal, failWhenBlocked?: (until: number) => Error): Promise<(sent?: boolean) => void> {
		const turn = this.queue.then(async () => {
			for (;;) {
				const t = this.now();
				// the remainder a timer of the hold's length can leave is waited, not a block met
				if (failWhenBlocked && this.blockedUntil - t > TIMER_SLACK_MS) throw failWhenBlocked(this.blockedUntil);
				const span = this.rule.windowMs + marginMs(this.rule);
				let wait: Promise<void>;
				if (t < this.holdUntil) {
					// a short hold (the API's own Retry-After) is waited by every request, even one that may not wait out a block
					wait = pause(this.holdUntil - t, signal);
				} else if (this.counted(t, span) < this.limit) {
					this.outstanding++;
					let done = false;
					return (sent = true) => {
						if (done) return;
						done = true;
						this.answer(sent);
					};
				} else {
					// the earliest answered request leaves the window first; with all in flight, the next answer is awaited
					const oldest = this.first < this.answeredAt.length ? this.answeredAt[this.first] : undefined;
					wait = waitFor(oldest === undefined ? undefined : oldest + span - t + 1, this.answered.promise, signal);
				}
				this.waits++;
				try {
					await wait;
				} finally {
					this.waits--;
				}
			}
		});
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		return await turn;
	}

	private answer(sent: boolean): void {
		this.outstanding--;
		if (sent) this.answeredAt.push(this.now());
		const { resolve } = this.answered;
		this.answered = signalled();
		resolve();
	}

	/** Until when (epoch ms) every request waits (a hold or a block); in the past when none. */
	get heldTill(): number {
		return this.holdUntil;
	}

	/** Until when (epoch ms) a block lasts; in the past when not blocked. */
	get blockedTill(): number {
		return this.blockedUntil;
	}

	/**
	 * How long a 429 without Retry-After holds: the rule's block, else one whole window (by then
	 * every request the server counted before the 429 has left its window, however it counts).
	 */
	get holdAfterRefusal(): number {
		return this.rule.blockMs ?? this.rule.windowMs;
	}

	/** Holds every request for `ms` (after a 429); `lasting` (a block, not a short Retry-After) lets a run that may not wait end on it. */
	block(ms: number, lasting = true): void {
		this.holdUntil = Math.max(this.holdUntil, this.now() + ms);
		if (lasting) this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
	}
}

const pacers = new Map<string, Pacer>();

/**
 * The pacer of a key (the project area: credential and area; the accounting areas: credential and
 * organization) under the rule of `area`; `share` is the part of the rule's limit this instance
 * may use (the project area's at most 1: its limit is documented).
 */
export function pacerFor(key: string, share = 1, area: PacedArea = 'projects'): Pacer {
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new Pacer(undefined, area);
		pacers.set(key, pacer);
	}
	pacer.share = Math.min(area === 'projects' ? 1 : Infinity, Math.max(0, share));
	return pacer;
}
