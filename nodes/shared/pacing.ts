/**
 * Pacing under the project-management limit: 100 requests per 2 minutes, and 30 minutes
 * blocked past it. A sliding window per credential and area: a request waits until it
 * would be at most the `limit`-th within any `windowMs`. After a 429 the pacer holds
 * every request of that key until the wait is over.
 */
import { sleep } from 'n8n-workflow';

export interface PacingRule {
	limit: number;
	windowMs: number;
}

export const DOCUMENTED_RULE: PacingRule = { limit: 100, windowMs: 120_000 };

let rule: PacingRule = { ...DOCUMENTED_RULE };

/** For tests and benchmarks: the same logic with scaled-down numbers. */
export function setPacingRule(next: PacingRule): void {
	rule = { ...next };
	pacers.clear();
}

export function getPacingRule(): PacingRule {
	return { ...rule };
}

export class Pacer {
	private sent: number[] = [];

	private blockedUntil = 0;

	private queue: Promise<void> = Promise.resolve();

	constructor(private readonly now: () => number = Date.now) {}

	/** Resolves when one more request may be sent, and counts it. */
	async take(): Promise<void> {
		const turn = this.queue.then(async () => {
			for (;;) {
				const t = this.now();
				if (t < this.blockedUntil) {
					await sleep(this.blockedUntil - t);
					continue;
				}
				this.sent = this.sent.filter((s) => s > t - rule.windowMs);
				if (this.sent.length < rule.limit) {
					this.sent.push(t);
					return;
				}
				await sleep(this.sent[0] + rule.windowMs - t + 1);
			}
		});
		this.queue = turn.catch(() => undefined);
		await turn;
	}

	/** Holds every request for `ms` (after a 429). */
	block(ms: number): void {
		this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
	}
}

const pacers = new Map<string, Pacer>();

export function pacerFor(key: string): Pacer {
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new Pacer();
		pacers.set(key, pacer);
	}
	return pacer;
}
