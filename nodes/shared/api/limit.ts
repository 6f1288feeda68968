/**
 * Requests in flight: one limiter per run (its run state, api/run.ts), shared by its
 * items, batches and pages, sized by Options → Requests in Flight. Only the HTTP call
 * itself holds a slot: waits (pacing, backoff) do not.
 *
 * Slots freed while requests wait are handed on together on the next turn of the event
 * loop, not one by one from the answer that freed them: starting the next request from the
 * continuation of the previous answer cost about a third more CPU per request (n8n's HTTP
 * helper opens a connection per request; bench/vs-http-request.ts), for at most a
 * millisecond's delay per slot.
 */
import { listenOnce, nextTurn } from './wait';

interface Waiter {
	grant: () => void;
	reject: (reason: unknown) => void;
	signal?: AbortSignal;
}

export class Limiter {
	private active = 0;

	private readonly waiting: Waiter[] = [];

	/** Signals that have the one listener ending their waits (not one listener per wait). */
	private readonly watched = new WeakSet<AbortSignal>();

	private handOnDue = false;

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
		// a free slot is taken at once, unless requests already wait for one (they come first)
		if (this.active < this.size && this.waiting.length === 0) {
			this.active++;
			return;
		}
		if (signal) listenOnce(this.watched, signal, () => this.endWaits(signal));
		await new Promise<void>((grant, reject) => {
			this.waiting.push({ grant, reject, signal });
			this.handOn();
		});
	}

	private release(): void {
		this.active--;
		this.handOn();
	}

	/** Gives the free slots to the waiting requests, in order, on the next turn. */
	private handOn(): void {
		if (this.handOnDue || this.waiting.length === 0 || this.active >= this.size) return;
		this.handOnDue = true;
		void nextTurn().then(() => {
			this.handOnDue = false;
			while (this.active < this.size && this.waiting.length > 0) {
				this.active++;
				this.waiting.shift()!.grant();
			}
		});
	}

	private endWaits(signal: AbortSignal): void {
		const ended = this.waiting.filter((w) => w.signal === signal);
		this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((w) => w.signal !== signal));
		for (const w of ended) w.reject(signal.reason);
	}
}
