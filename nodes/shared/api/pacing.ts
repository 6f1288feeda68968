/**
 * Pacing under the project-management limit: 100 requests per 2 minutes, and 30 minutes
 * blocked past it. A sliding window per credential and area: a request waits until it
 * would be at most the `limit`-th within any `windowMs` plus a small margin (1 % of the
 * window, at least 100 ms) that absorbs differences in network delay between requests, so
 * the server's count never reaches the limit. After a 429 the pacer holds every request
 * of that key until the wait is over (the Retry-After, else the documented block).
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
	/** How long the server blocks once the limit is crossed (the wait after a 429 without Retry-After). */
	blockMs: number;
}

/** How much of a hold may be left when a wait of its length ends (see above): waited out, never failed on. */
export const TIMER_SLACK_MS = 10;

export const DOCUMENTED_RULE: PacingRule = { limit: 100, windowMs: 120_000, blockMs: 1_800_000 };

let rule: PacingRule = { ...DOCUMENTED_RULE };

/** For tests and benchmarks: the same logic with scaled-down numbers. */
export function setPacingRule(next: PacingRule): void {
	rule = { ...next };
	pacers.clear();
}

export function getPacingRule(): PacingRule {
	return { ...rule };
}

/** The safety margin added to the window: 1 % of it, at least 100 ms. */
export function marginMs(r: PacingRule = rule): number {
	return Math.max(100, Math.ceil(r.windowMs / 100));
}

/** A counted request: when its answer (or failure) came back, epoch ms; Infinity while in flight. */
interface Sent {
	at: number;
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
	private sent: Sent[] = [];

	/** Until when every request waits (a short Retry-After, or a block). */
	private holdUntil = 0;

	/** Until when a block lasts (a 429 without Retry-After in the paced area, or a long one): a run may end on it. */
	private blockedUntil = 0;

	private queue: Promise<void> = Promise.resolve();

	/** Resolves when a counted request's answer comes back (then replaced). */
	private answered = signalled();

	/** The part of the limit this n8n instance may use (0..1]: queue-mode workers split it. */
	share = 1;

	/** `now` is read on every use (the clock of the moment, also when a test swaps it). */
	constructor(private readonly now: () => number = () => Date.now()) {}

	/** Requests this instance may send per window: its share of the rule's limit, at least 1. */
	get limit(): number {
		return Math.max(1, Math.floor(rule.limit * this.share));
	}

	/**
	 * Resolves when one more request may be sent, and counts it; the returned `done` is called
	 * when its answer (or failure) is back. A request counts from then, not from when it was
	 * let through: the server saw it by the time it answered, so however late a request
	 * reached the server, none of the next window's can arrive within its window. A wait ends
	 * when `signal` aborts; during a block, `failWhenBlocked` (if given) gives the error to
	 * end with instead of waiting (not for the last `TIMER_SLACK_MS` of it).
	 */
	async take(signal?: AbortSignal, failWhenBlocked?: (until: number) => Error): Promise<() => void> {
		const turn = this.queue.then(async () => {
			for (;;) {
				const t = this.now();
				// the remainder a timer of the hold's length can leave is waited, not a block met
				if (failWhenBlocked && this.blockedUntil - t > TIMER_SLACK_MS) throw failWhenBlocked(this.blockedUntil);
				if (t < this.holdUntil) {
					// a short hold (the API's own Retry-After) is waited by every request, even one that may not wait out a block
					await pause(this.holdUntil - t, signal);
					continue;
				}
				const span = rule.windowMs + marginMs();
				this.sent = this.sent.filter((s) => s.at > t - span);
				if (this.sent.length < this.limit) {
					const entry: Sent = { at: Infinity };
					this.sent.push(entry);
					return () => this.answer(entry);
				}
				// the oldest answered request leaves the window first; with all in flight, the next answer is awaited
				const oldest = Math.min(...this.sent.map((s) => s.at));
				await waitFor(Number.isFinite(oldest) ? oldest + span - t + 1 : undefined, this.answered.promise, signal);
			}
		});
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		return await turn;
	}

	private answer(entry: Sent): void {
		if (entry.at !== Infinity) return;
		entry.at = this.now();
		const { resolve } = this.answered;
		this.answered = signalled();
		resolve();
	}

	/** Until when (epoch ms) a block lasts; in the past when not blocked. */
	get blockedTill(): number {
		return this.blockedUntil;
	}

	/** Holds every request for `ms` (after a 429); `lasting` (a block, not a short Retry-After) lets a run that may not wait end on it. */
	block(ms: number, lasting = true): void {
		this.holdUntil = Math.max(this.holdUntil, this.now() + ms);
		if (lasting) this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
	}
}

const pacers = new Map<string, Pacer>();

/** The pacer of a credential and area; `share` is the part of the limit this instance may use. */
export function pacerFor(key: string, share = 1): Pacer {
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new Pacer();
		pacers.set(key, pacer);
	}
	pacer.share = Math.min(1, Math.max(0, share));
	return pacer;
}
