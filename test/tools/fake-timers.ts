import { setImmediate } from '../../host/globals';
/**
 * For tests that must decide when the emulator's waits are over instead of waiting for them: its
 * latency and `hang` faults (and the harness's `timeoutMs` stop) are `setTimeout` timers of the
 * test's own process, so with jest's fake timers they end only when the test moves the time
 * (`jest.advanceTimersByTimeAsync`), however slowly the machine runs.
 */

/** Fakes the timers only (setTimeout, setInterval): Date, setImmediate, process.nextTick and the network run as usual. */
export function useFakeTimersOnly(): void {
	jest.useFakeTimers({
		doNotFake: [
			'Date',
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
		],
	});
}

/**
 * Fakes the timers and `Date` (so the package's and the emulator's clocks too): time moves only
 * when the test moves it, however slowly the machine runs; setImmediate, process.nextTick and
 * the network run as usual. Before `jest.useRealTimers()`, `jest.runOnlyPendingTimersAsync()`
 * lets a loop that waits on a timer (the package's Timeout watcher) see that it has nothing left
 * to do, instead of being left waiting on a timer that will never fire.
 */
export function useFakeClock(): void {
	jest.useFakeTimers({
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'setImmediate',
			'clearImmediate',
		],
	});
}

/** Waits until `ready()` holds, without timers (they may be fake); the test's timeout is the only limit. */
export async function until(ready: () => boolean): Promise<void> {
	while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}
