/**
 * The emulator's notion of "now". Every time-dependent rule of the emulator (token and grant-code
 * expiry, token-count windows, rate limits) reads this clock, never `Date.now()` directly, so tests
 * can move time instead of waiting.
 *
 * By default the clock is frozen: it starts at `Date.now()` (or `opts.start`) and only moves when a
 * test calls `advance` / `set`. That keeps tests deterministic (a 2-minute boundary stays exactly
 * 2 minutes). A long-running process such as the demo can pass `{ realTime: true }`: the clock then
 * follows wall-clock time, and `advance` / `set` shift it by an offset.
 */
export class Clock {
	private readonly realTime: boolean;
	/** Frozen mode: the current time. Real-time mode: offset added to `Date.now()`. */
	private value: number;

	constructor(opts: { start?: number; realTime?: boolean } = {}) {
		this.realTime = opts.realTime ?? false;
		const start = opts.start ?? Date.now();
		this.value = this.realTime ? start - Date.now() : start;
	}

	/** Current emulator time in epoch milliseconds. */
	now(): number {
		return this.realTime ? Date.now() + this.value : this.value;
	}

	/** Moves the clock forward (or backward for a negative value) by `ms` milliseconds. */
	advance(ms: number): void {
		if (!Number.isFinite(ms)) throw new RangeError(`Clock.advance: not a finite number: ${ms}`);
		this.value += ms;
	}

	/** Sets the clock to the epoch-millisecond time `ms`. */
	set(ms: number): void {
		if (!Number.isFinite(ms)) throw new RangeError(`Clock.set: not a finite number: ${ms}`);
		this.value = this.realTime ? ms - Date.now() : ms;
	}
}
