/**
 * Bounded parallel work for the per-item loop and for operations split into several
 * calls. At most `width` tasks run at once (the HTTP calls themselves are bounded by the
 * execution's request limiter, see limit.ts: a task waiting for a request slot holds no
 * slot, so tasks and requests cannot deadlock). Results keep the order of the input.
 */
import { ItemNotStarted } from '../api/failureKinds';

export type Settled<T> =
	| { state: 'done'; value: T }
	| { state: 'failed'; error: unknown }
	/** Never started: an earlier failure, a block or a stop ended the run first. */
	| { state: 'notStarted' };

export interface BoundedOptions {
	/** Tasks running at once (at least 1). */
	width: number;
	/** Whether a failure stops starting further tasks (default: every failure does). */
	stopsOn?: (error: unknown) => boolean;
	/** Called with the task's index at each failure that stops the run (the run's halt, api/run.ts: later running tasks that sent nothing send nothing). */
	onStop?: (index: number) => void;
	/** No task starts once this signal has aborted. */
	signal?: AbortSignal;
}

/**
 * Runs `task(0..count-1)` with at most `width` at once, in index order. After a failure
 * that `stopsOn` accepts (or a stop through `signal`), no further task starts; the
 * running ones settle. Returns each index's outcome, in order; never rejects.
 */
export async function runBounded<T>(
	count: number,
	task: (index: number) => Promise<T>,
	options: BoundedOptions,
): Promise<Array<Settled<T>>> {
	const settled: Array<Settled<T>> = Array.from({ length: count }, () => ({ state: 'notStarted' }));
	const stopsOn = options.stopsOn ?? (() => true);
	let next = 0;
	let stopped = false;
	const worker = async (): Promise<void> => {
		while (!stopped && next < count) {
			if (options.signal?.aborted) {
				stopped = true;
				return;
			}
			const index = next++;
			try {
				settled[index] = { state: 'done', value: await task(index) };
			} catch (error) {
				// a task the stop caught before it sent anything stays not started
				if (error instanceof ItemNotStarted) continue;
				settled[index] = { state: 'failed', error };
				if (stopsOn(error)) {
					stopped = true;
					options.onStop?.(index);
				}
			}
		}
	};
	const width = Math.max(1, Math.min(Math.floor(options.width) || 1, count));
	await Promise.all(Array.from({ length: width }, worker));
	return settled;
}

/** Item indexes as compact ranges: `0-4, 7, 9-12`. */
export function indexRanges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let i = 0; i < sorted.length; ) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
		parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
		i = j + 1;
	}
	return parts.join(', ');
}
