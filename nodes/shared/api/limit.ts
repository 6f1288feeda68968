/**
 * Requests in flight: one limiter per execution context (one node run), shared by its
 * items, batches and pages, sized by Options → Requests in Flight. Only the HTTP call
 * itself holds a slot: waits (pacing, backoff) do not.
 */
import { readRunOptions } from './options';

export class Limiter {
	private active = 0;

	private readonly waiting: Array<() => void> = [];

	constructor(readonly size: number) {}

	/** Runs `task` once a slot is free; a wait for a slot ends when `signal` aborts. */
	async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		await this.acquire(signal);
		try {
			return await task();
		} finally {
			this.release();
		}
	}

	private async acquire(signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) return await Promise.reject(signal.reason);
		if (this.active < this.size) {
			this.active++;
			return;
		}
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				const at = this.waiting.indexOf(grant);
				if (at >= 0) this.waiting.splice(at, 1);
				reject(signal?.reason);
			};
			const grant = () => {
				signal?.removeEventListener('abort', onAbort);
				this.active++;
				resolve();
			};
			this.waiting.push(grant);
			signal?.addEventListener('abort', onAbort, { once: true });
		});
	}

	private release(): void {
		this.active--;
		this.waiting.shift()?.();
	}
}

const limiters = new WeakMap<object, Limiter>();

/** The limiter of one execution context (created on first use). */
export function requestLimiter(ctx: object): Limiter {
	let limiter = limiters.get(ctx);
	if (!limiter) {
		limiter = new Limiter(readRunOptions(ctx).requestsInFlight);
		limiters.set(ctx, limiter);
	}
	return limiter;
}
