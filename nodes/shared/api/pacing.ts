/**
 * Pacing by count, one pacer for every area, each under its rule:
 *
 * - the project-management area: 100 requests per 2 minutes, and 30 minutes blocked past it
 *   (the Conventions document), per credential;
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
 * The accounting pacers adapt (the project area's limit blocks for 30 minutes, so it is never probed:
 * its share stays a setting). Every process of an n8n in queue mode paces the same organization
 * without knowing of the others; the service's 429 is the signal they share. Within the ceiling
 * (the credential's per-minute figure), each pacer:
 * - spaces its requests evenly (a window's worth never leaves in one burst, so a crowded window
 *   meets one 429 per process, not one per request in flight);
 * - on a 429 (a short hold, not a block) lowers its pace multiplicatively, at most once a window:
 *   to `ADAPTIVE.keep` of the requests it got through within the window before it (its part of
 *   the organization's full window), but not below `ADAPTIVE.atLeastOfPace` of its pace nor
 *   `ADAPTIVE.floor` of the ceiling; when none of its requests got through (other clients filled
 *   the window), to `ADAPTIVE.keep` of its pace. The requests it did get through leave the window
 *   as they came, so the hold after the 429 lasts until its oldest has left (at most a window);
 * - raises it additively while answers come back: `ADAPTIVE.rise` of the ceiling per window, the
 *   step doubling for every window past the first without a lowering (when others finish, their
 *   part is found in minutes, not tens of minutes).
 * Several processes so converge on the organization's limit together (additive increase,
 * multiplicative decrease); one process alone never meets a 429 and keeps the ceiling.
 *
 * A hold is measured on `Date.now()`, the package's waits on Node's timers, which count whole
 * milliseconds on the monotonic clock: a wait of exactly a hold's length, begun as the hold was
 * set, can end while `Date.now()` is still a millisecond short of its end (20 ms timers end 19 ms
 * later by `Date.now()` in about 2 % of waits). A request that comes back from waiting out a
 * 429's Retry-After must not fail as blocked by that remainder: a request that finds at most
 * `TIMER_SLACK_MS` of a hold left waits it out, whatever it would do during a block.
 */
import { LoggerProxy } from 'n8n-workflow';

import type { Family } from '../tables/spec';

import { aborted, onAbort, pause } from './wait';

interface PacingRule {
	limit: number;
	windowMs: number;
	/** How long the server blocks once the limit is crossed (the wait after a 429 without Retry-After); none: no block, a 429 holds for a window. */
	blockMs?: number;
}

/** How much of a hold may be left when a wait of its length ends (see above): waited out, never failed on. */
const TIMER_SLACK_MS = 10;

/** The project-management area (the Conventions document). */
export const DOCUMENTED_RULE: Readonly<Required<PacingRule>> = {
	limit: 100,
	windowMs: 120_000,
	blockMs: 1_800_000,
};

/** The accounting areas, per organization: the service's help pages (a listed guess), no block. */
export const ACCOUNTING_RULE: Readonly<PacingRule> = { limit: 100, windowMs: 60_000 };

/** How an accounting pacer's pace adapts (fractions of what it got through, of its pace, of its ceiling). */
export const ADAPTIVE = {
	/** A lowering keeps this much of the requests the process got through within the window before the 429 (of its pace when none got through). */
	keep: 0.85,
	/** ... but never less than this much of the pace it had. */
	atLeastOfPace: 0.3,
	/** The lowest pace, as a part of the ceiling. */
	floor: 0.1,
	/** The pace rises by this part of the ceiling per window of answers without a 429 ... */
	rise: 0.02,
	/** ... doubled for every further window since the last lowering (others may have finished: their part is found in minutes). */
	calmWindows: 1,
} as const;

/**
 * A test seam (tests and benchmarks, never the nodes): the process's pacers (`PACERS`) pace under
 * `next`, the same logic with scaled-down numbers (the project area unless `family` says otherwise);
 * that area's pacers start afresh.
 */
export function setPacingRule(next: PacingRule, family: Family = 'projects'): void {
	PACERS.setRule(family, next);
}

/** The rule the process's pacers pace `family` under (a copy). */
export function getPacingRule(family: Family = 'projects'): PacingRule {
	return { ...PACERS.rule(family) };
}

/** The safety margin added to the window: 1 % of it, at least 100 ms. */
export function marginMs(r: PacingRule = PACERS.rule('projects')): number {
	return Math.max(100, Math.ceil(r.windowMs / 100));
}

/**
 * Waits until `ms` have passed (none: no time limit) or `wake` resolves, whichever is first,
 * and rejects when `signal` aborts; leaves no timer or listener behind (the timer is
 * the package's `pause`, cut short through its own signal when woken first).
 */
async function waitFor(
	ms: number | undefined,
	wake: Promise<void>,
	signal?: AbortSignal,
): Promise<void> {
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

/** The last counted answer of an accounting pacer: when it came, and when its request was let through. */
interface LastAnswer {
	at: number;
	letThroughAt: number;
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

	/** The accounting areas: requests per window this process allows itself now (within the ceiling; Infinity: the ceiling). */
	private paceNow = Infinity;

	/** The accounting areas: when the last request was let through (the next one is spaced from it). */
	private lastLetThrough = -Infinity;

	/** The accounting areas: when the pace was last lowered (a 429 of a request let through before then lowers nothing more). */
	private loweredAt = -Infinity;

	private lastAnswer: LastAnswer | undefined;

	/** The part of the rule's limit this n8n instance may use: queue-mode workers split it (the project area at most all of it). */
	share = 1;

	/** Who the pacer paces, for n8n's log (the accounting areas: the organization); never a secret. */
	label = '';

	/** `now` is read on every use (the clock of the moment, also when a test swaps it); `family` names the rule, read from `rules` on every use too. */
	constructor(
		private readonly now: () => number = () => Date.now(),
		readonly family: Family = 'projects',
		private readonly rules: { rule(family: Family): PacingRule } = PACERS,
	) {}

	/** The rule of the moment. */
	get rule(): PacingRule {
		return this.rules.rule(this.family);
	}

	/** Requests this instance may send per window at most: its share of the rule's limit, at least 1. */
	get ceiling(): number {
		return Math.max(1, Math.floor(this.rule.limit * this.share));
	}

	/** The requests per window this process allows itself now: the ceiling, or (accounting) less after a 429. */
	get pace(): number {
		return Math.min(this.paceNow, this.ceiling);
	}

	/** Requests this instance may have within a window now: its pace, at least 1. */
	get limit(): number {
		return Math.max(1, Math.floor(this.pace));
	}

	/** Whether the pace adapts (the accounting areas: no block to fear). */
	private get adaptive(): boolean {
		return this.family === 'accounting' && this.rule.blockMs === undefined;
	}

	/** Requests let through whose answer is not back yet (for tests and benchmarks). */
	get inFlight(): number {
		return this.outstanding;
	}

	/** Requests waiting for their turn: the window is full, or a hold is on (for tests and benchmarks). */
	get waiting(): number {
		return this.waits;
	}

	/** The window a request counts in: the rule's, plus the margin. */
	private get span(): number {
		return this.rule.windowMs + marginMs(this.rule);
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

	/** How long the next request still waits to keep the pace's spacing (the accounting areas; under 1 ms: none). */
	private spacingLeft(t: number): number {
		if (!this.adaptive) return 0;
		const gap = Math.floor(this.span / this.pace);
		return gap < 1 ? 0 : this.lastLetThrough + gap - t;
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
	async take(
		signal?: AbortSignal,
		failWhenBlocked?: (until: number) => Error,
	): Promise<(sent?: boolean) => void> {
		const turn = this.queue.then(async () => {
			for (;;) {
				const t = this.now();
				// the remainder a timer of the hold's length can leave is waited, not a block met
				if (failWhenBlocked && this.blockedUntil - t > TIMER_SLACK_MS)
					throw failWhenBlocked(this.blockedUntil);
				const span = this.span;
				let wait: Promise<void>;
				if (t < this.holdUntil) {
					// a short hold (the API's own Retry-After) is waited by every request, even one that may not wait out a block
					wait = pause(this.holdUntil - t, signal);
				} else if (this.counted(t, span) < (this.adaptive ? this.ceiling : this.limit)) {
					const spaced = this.spacingLeft(t);
					if (spaced <= 0) return this.letThrough(t);
					wait = pause(spaced, signal);
				} else {
					// the earliest answered request leaves the window first; with all in flight, the next answer is awaited
					const oldest =
						this.first < this.answeredAt.length ? this.answeredAt[this.first] : undefined;
					wait = waitFor(
						oldest === undefined ? undefined : oldest + span - t + 1,
						this.answered.promise,
						signal,
					);
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

	/** Counts a request let through at `t`; the function its answer (or `false`: not sent) is reported with. */
	private letThrough(t: number): (sent?: boolean) => void {
		this.outstanding++;
		this.lastLetThrough = t;
		let done = false;
		return (sent = true) => {
			if (done) return;
			done = true;
			this.answer(sent, t);
		};
	}

	private answer(sent: boolean, letThroughAt: number): void {
		this.outstanding--;
		if (sent) {
			const at = this.now();
			this.answeredAt.push(at);
			if (this.adaptive) this.rise({ at, letThroughAt });
		}
		const { resolve } = this.answered;
		this.answered = signalled();
		resolve();
	}

	/** An answer came back (a 429 takes it back at once, in `block`): a request let through since the last lowering raises the pace a little. */
	private rise(answer: LastAnswer): void {
		this.lastAnswer = answer;
		if (answer.letThroughAt <= this.loweredAt || this.paceNow === Infinity) return;
		const pace = this.pace;
		const calm = Math.max(
			0,
			(answer.at - this.loweredAt) / this.rule.windowMs - ADAPTIVE.calmWindows,
		);
		this.paceNow = Math.min(this.ceiling, pace + (2 ** calm * ADAPTIVE.rise * this.ceiling) / pace);
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
	 * every request the server counted before the 429 has left its window, however it counts);
	 * an adaptive pacer that got requests through within the window holds until the oldest of them
	 * has left it (the server has then freed its place; the lowered pace spaces the rest).
	 */
	get holdAfterRefusal(): number {
		if (this.rule.blockMs !== undefined || !this.adaptive)
			return this.rule.blockMs ?? this.rule.windowMs;
		const t = this.now();
		this.counted(t, this.span);
		// the answer of the 429 being handled is no request the server counted
		const end = this.answeredAt.length - (this.lastAnswer?.at === t ? 1 : 0);
		if (this.first >= end) return this.rule.windowMs;
		return Math.min(
			this.rule.windowMs,
			Math.max(1, this.answeredAt[this.first] + this.span - t + 1),
		);
	}

	/** Holds every request for `ms` (after a 429); `lasting` (a block, not a short Retry-After) lets a run that may not wait end on it. */
	block(ms: number, lasting = true): void {
		this.holdUntil = Math.max(this.holdUntil, this.now() + ms);
		if (lasting) this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
		else if (this.adaptive) this.lower();
	}

	/**
	 * A 429 (a short hold): the refused request leaves the count (the server did not count it),
	 * and the pace is lowered as the header says, unless the request was let through before the
	 * last lowering or that lowering is less than a window old (the same crowd).
	 */
	private lower(): void {
		const t = this.now();
		const last = this.lastAnswer;
		this.lastAnswer = undefined;
		if (
			last?.at === t &&
			this.answeredAt[this.answeredAt.length - 1] === t &&
			this.answeredAt.length > this.first
		)
			this.answeredAt.pop();
		// one lowering per window: the 429s that follow within it meet the same crowd
		if ((last && last.letThroughAt <= this.loweredAt) || t - this.loweredAt < this.rule.windowMs)
			return;
		const gotThrough = this.counted(t, this.span) - this.outstanding;
		const before = this.pace;
		// none of its requests within the window (others filled it): a mild lowering, the hold waits them out
		const share =
			gotThrough > 0
				? Math.max(ADAPTIVE.keep * gotThrough, ADAPTIVE.atLeastOfPace * before)
				: ADAPTIVE.keep * before;
		const next = Math.min(before, Math.max(ADAPTIVE.floor * this.ceiling, share));
		this.paceNow = next;
		this.loweredAt = t;
		if (next < before) this.tell(next);
	}

	/** Says once per lowering, in n8n's log, what this process does now and why (no secret: the organization's id only). */
	private tell(pace: number): void {
		const { windowMs } = this.rule;
		const per = windowMs === 60_000 ? 'a minute' : `per ${windowMs / 1000} s`;
		const count = Math.max(1, Math.floor(pace));
		const organization = this.label ? ` for organization ${this.label}` : '';
		LoggerProxy.info(
			`Vendor: the service answered 429 (too many requests)${organization}; this n8n process now sends at most ${count} requests ${per} to it and raises that again step by step while requests go through. Other processes or apps are sharing the organization's limit; nothing needs to be done.`,
			{ organization: this.label, requestsPerWindow: count, windowMs },
		);
	}
}

/**
 * Pacers by key and the rules they pace under. Per process, not per run: every execution of this
 * n8n process with a credential (and, in the accounting areas, an organization) shares the
 * service's limit, so they share its pacer. Made with the documented rules unless told others.
 */
class PacerRegistry {
	private readonly rules: Record<Family, PacingRule>;

	private readonly pacers = new Map<string, Pacer>();

	constructor(rules: Partial<Record<Family, PacingRule>> = {}) {
		this.rules = {
			projects: { ...(rules.projects ?? DOCUMENTED_RULE) },
			accounting: { ...(rules.accounting ?? ACCOUNTING_RULE) },
		};
	}

	/** The rule of `family` (its pacers read it on every use). */
	rule(family: Family): PacingRule {
		return this.rules[family];
	}

	/** Paces `family` under `next` from now on; its pacers start afresh. */
	setRule(family: Family, next: PacingRule): void {
		this.rules[family] = { ...next };
		for (const [key, pacer] of this.pacers) if (pacer.family === family) this.pacers.delete(key);
	}

	/**
	 * The pacer of a key (the project area: credential and area; the accounting areas: credential
	 * and organization) under the rule of `family`, made on first use; `share` is the part of the
	 * rule's limit this instance may use (the project area's at most 1: its limit is documented).
	 */
	pacerFor(key: string, share = 1, family: Family = 'projects'): Pacer {
		let pacer = this.pacers.get(key);
		if (!pacer) {
			pacer = new Pacer(undefined, family, this);
			this.pacers.set(key, pacer);
		}
		pacer.share = Math.min(family === 'projects' ? 1 : Infinity, Math.max(0, share));
		// the accounting keys end with the organization's id (credential:organization)
		if (family === 'accounting') pacer.label = key.slice(key.lastIndexOf(':') + 1);
		return pacer;
	}
}

/** The pacers of this process (per process: see `PacerRegistry`). */
const PACERS = new PacerRegistry();

/** The process's pacer of a key (`PacerRegistry.pacerFor`). */
export function pacerFor(key: string, share = 1, family: Family = 'projects'): Pacer {
	return PACERS.pacerFor(key, share, family);
}
