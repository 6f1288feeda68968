/**
 * The rate limits: project management's per region and OAuth client (`ProjectLimits`) and,
 * off by default, the accounting areas' per organization (`OrganizationLimits`).
 *
 * Project management: `limit` requests per sliding `windowMs`; the next
 * request starts a block of `blockMs` during which every request is refused.
 *
 * The accounting areas' request limit as the service's help pages give it (not the documents):
 * `limit` requests per minute per organization, HTTP 429 past it, no block; shared by every
 * integration of the organization, so the emulator counts per region and organization, whatever
 * the OAuth client or token. Off by default (`EmulatorOptions.accountingRateLimit`).
 *
 * A sliding window of arrivals (stricter than a calendar minute: any `windowMs` holds at most
 * `limit`); a refused request does not count. The 429's body is the accounting family's
 * `{ code: 429, message }` (the emulator's choice: no body is documented); `Retry-After`
 * (seconds until the oldest counted request leaves the window, rounded up) only with
 * `retryAfter: true`. The rule object is read on every request: a test may change it.
 */
import type { Clock } from './clock';

export interface OrganizationRateLimit {
	/** Requests per window per organization (the service: 100). */
	limit: number;
	/** The window (the service: 60000 ms; benchmarks and tests scale it down). */
	windowMs: number;
	/** Send `Retry-After` with the 429 (default off: nothing says the service sends it). */
	retryAfter?: boolean;
}

export interface ProjectRateLimit {
	limit: number;
	windowMs: number;
	blockMs: number;
}

export class ProjectLimits {
	private readonly states = new Map<string, { hits: number[]; blockedUntil: number }>();

	constructor(
		readonly rule: ProjectRateLimit,
		private readonly clock: Clock,
	) {}

	/** Counts a request of `key` (region and client) and returns undefined, or, blocked, how long (ms) the block lasts. */
	hit(key: string): number | undefined {
		const now = this.clock.now();
		const state = this.states.get(key) ?? { hits: [], blockedUntil: 0 };
		this.states.set(key, state);
		if (now < state.blockedUntil) return state.blockedUntil - now;
		state.hits = state.hits.filter((t) => t > now - this.rule.windowMs);
		if (state.hits.length >= this.rule.limit) {
			state.blockedUntil = now + this.rule.blockMs;
			state.hits = [];
			return this.rule.blockMs;
		}
		state.hits.push(now);
		return undefined;
	}

	reset(): void {
		this.states.clear();
	}
}

export class OrganizationLimits {
	private readonly hits = new Map<string, number[]>();

	constructor(
		readonly rule: OrganizationRateLimit,
		private readonly clock: Clock,
	) {}

	/** Counts a request of `key` (region and organization) and returns undefined, or, past the limit, how long (ms) until one more would be allowed. */
	hit(key: string): number | undefined {
		const now = this.clock.now();
		const times = (this.hits.get(key) ?? []).filter((t) => t > now - this.rule.windowMs);
		this.hits.set(key, times);
		if (times.length >= this.rule.limit) return times[0] + this.rule.windowMs - now;
		times.push(now);
		return undefined;
	}

	/** The 429 headers: `Retry-After` when the option asks for it. */
	headers(waitMs: number): Record<string, string> | undefined {
		return this.rule.retryAfter ? { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } : undefined;
	}

	reset(): void {
		this.hits.clear();
	}
}
