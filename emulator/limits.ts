/**
 * The rate limits: project management's per region and OAuth client (`ProjectLimits`), the
 * accounting areas' per organisation, off by default (`OrganizationLimits`): README.md, "Rate limits".
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
		return this.rule.retryAfter
			? { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) }
			: undefined;
	}

	reset(): void {
		this.hits.clear();
	}
}
