/**
 * The one timer of the package: `pause(ms, signal)` resolves after `ms` and rejects as soon as
 * `signal` aborts, on every n8n release the package supports. n8n's community rules forbid
 * `setTimeout` in published code and point to n8n-workflow's helpers, which differ by release:
 *
 * - `sleepWithAbort(ms, signal)`: n8n-workflow 1.98 to 2.33 (removed in 2.34);
 * - `sleep(ms, signal)`: honours the signal from 2.34 on; before, `sleep(ms)` ignores it.
 *
 * So the helper is chosen when first needed by what the loaded n8n-workflow offers (never by
 * its version, never imported by name, so a release that drops one loads fine). Where only a
 * signal-less `sleep` exists (n8n 1.100), the wait is slept in slices of at most a second,
 * each raced against the signal: a stop settles at once and leaves at most one short timer.
 */
import * as workflow from 'n8n-workflow';

type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The longest slice slept at a time when the release's `sleep` ignores the signal. */
const SLICE_MS = 1000;

export interface WaitHelper {
	name: 'sleepWithAbort' | 'sleep' | 'sleep (sliced)';
	pause: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The error a stopped wait rejects with: the signal's reason, or a plain one. */
export function aborted(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('The execution was stopped');
}

/** Rejects when `signal` aborts; `off()` removes its listener. */
export function onAbort(signal: AbortSignal | undefined): {
	promise: Promise<never>;
	off: () => void;
} {
	let off = () => {};
	const promise = new Promise<never>((_resolve, reject) => {
		if (!signal) return;
		const listener = () => reject(aborted(signal));
		signal.addEventListener('abort', listener, { once: true });
		off = () => signal.removeEventListener('abort', listener);
	});
	promise.catch(() => undefined);
	return { promise, off };
}

/**
 * Adds `onStop` to `signal` once for every caller that shares `watched`: one listener per
 * execution's signal, however many requests or waits use it (a listener each made every add
 * cost in proportion to those already there).
 */
export function listenOnce(
	watched: WeakSet<AbortSignal>,
	signal: AbortSignal,
	onStop: () => void,
): void {
	if (watched.has(signal)) return;
	watched.add(signal);
	signal.addEventListener('abort', onStop, { once: true });
}

/** Picks the helper from what `helpers` (n8n-workflow's exports) holds. Exported for tests. */
export function waitHelperOf(helpers: Record<string, unknown>): WaitHelper {
	const sleepWithAbort = helpers.sleepWithAbort;
	if (typeof sleepWithAbort === 'function') {
		const fn = sleepWithAbort as Sleep;
		// always a signal: only some releases' code was checked to accept none
		return {
			name: 'sleepWithAbort',
			pause: async (ms, signal) => await fn(ms, signal ?? new AbortController().signal),
		};
	}
	const sleep = helpers.sleep;
	if (typeof sleep !== 'function') {
		throw new Error(
			'n8n-workflow offers neither sleep nor sleepWithAbort: this n8n release is not supported',
		);
	}
	const fn = sleep as Sleep;
	// `sleep(ms, abortSignal?)` (two parameters) cancels its own timer on abort
	if (fn.length >= 2) return { name: 'sleep', pause: async (ms, signal) => await fn(ms, signal) };
	return {
		name: 'sleep (sliced)',
		pause: async (ms, signal) => {
			const stop = onAbort(signal);
			try {
				for (let left = ms; left > 0; left -= SLICE_MS) {
					if (signal?.aborted) throw aborted(signal);
					await Promise.race([fn(Math.min(left, SLICE_MS)), stop.promise]);
				}
				if (signal?.aborted) throw aborted(signal);
			} finally {
				stop.off();
			}
		},
	};
}

let chosen: WaitHelper | undefined;

/** The helper of the loaded n8n-workflow. */
export function waitHelper(): WaitHelper {
	chosen ??= waitHelperOf(workflow as unknown as Record<string, unknown>);
	return chosen;
}

/** Resolves after `ms` (at least 0); rejects at once when `signal` aborts (also when it already has). */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw aborted(signal);
	await waitHelper().pause(Math.max(0, ms), signal);
}

/**
 * Resolves on a later turn of the event loop (a 0 ms timer): n8n-workflow's `sleep`, which
 * every supported release has and which takes no signal here (nothing to stop in 1 ms).
 */
export async function nextTurn(): Promise<void> {
	await (workflow.sleep as Sleep)(0);
}
