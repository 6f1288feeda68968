/**
 * Pacing under the project-management limit: 100 requests per 2 minutes, and 30 minutes
 * blocked past it. A sliding window per credential and area: a request waits until it
 * would be at most the `limit`-th within any `windowMs` plus a small margin (1 % of the
 * window, at least 100 ms) that absorbs differences in network delay between requests, so
 * the server's count never reaches the limit. After a 429 the pacer holds every request
 * of that key until the wait is over (the Retry-After, else the documented block).
 */
import { sleepWithAbort } from 'n8n-workflow';

export interface PacingRule {
	limit: number;
	windowMs: number;
	/** How long the server blocks once the limit is crossed (the wait after a 429 without Retry-After). */
	blockMs: number;
}

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

export class Pacer {
	private sent: number[] = [];

	private blockedUntil = 0;

	private queue: Promise<void> = Promise.resolve();

	/** The part of the limit this n8n instance may use (0..1]: queue-mode workers split it. */
	share = 1;

	constructor(private readonly now: () => number = Date.now) {}

	/** Requests this instance may send per window: its share of the rule's limit, at least 1. */
	get limit(): number {
		return Math.max(1, Math.floor(rule.limit * this.share));
	}

	/**
	 * Resolves when one more request may be sent, and counts it. A wait ends when `signal`
	 * aborts; during a block, `failWhenBlocked` (if given) gives the error to end with instead of waiting.
	 */
	async take(signal?: AbortSignal, failWhenBlocked?: (until: number) => Error): Promise<void> {
		const turn = this.queue.then(async () => {
			for (;;) {
				const t = this.now();
				if (t < this.blockedUntil) {
					if (failWhenBlocked) throw failWhenBlocked(this.blockedUntil);
					await sleepWithAbort(this.blockedUntil - t, signal);
					continue;
				}
				const span = rule.windowMs + marginMs();
				this.sent = this.sent.filter((s) => s > t - span);
				if (this.sent.length < this.limit) {
					this.sent.push(t);
					return;
				}
				await sleepWithAbort(this.sent[0] + span - t + 1, signal);
			}
		});
		this.queue = turn.catch(() => undefined);
		await turn;
	}

	/** Until when (epoch ms) requests are held; in the past when not blocked. */
	get heldUntil(): number {
		return this.blockedUntil;
	}

	/** Holds every request for `ms` (after a 429). */
	block(ms: number): void {
		this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
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
