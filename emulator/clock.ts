/**
 * The emulator's "now", read by every time-dependent rule instead of `Date.now()`: frozen (moved by
 * tests) or real time (README.md, "The clock").
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
