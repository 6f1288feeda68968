/**
 * A clock a test controls, for tests of the package's waits: a wait of a second or more passes
 * at once and moves `Date.now()` on by its length, so a test proves what was waited for (the
 * time a request arrived, on that clock) without waiting, whatever the machine's speed.
 */
import * as wait from '../../nodes/shared/api/wait';
import { setImmediate } from '../../host/globals';

/**
 * The package's waits (retry backoff, 429 holds, pacing) pass at once and move a virtual clock
 * (`Date.now()`) by their length; the Timeout's 200 ms watcher runs on real time (its waits, under
 * a second, are not virtual). Returns the clock's offset from real time.
 */
export function useVirtualClock(): {
	offset: () => number;
	waits: number[];
	advance: (ms: number) => void;
} {
	const state = { offset: 0, waits: [] as number[] };
	const realNow = Date.now.bind(Date);
	const realPause = wait.pause;
	beforeAll(() => {
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + state.offset);
		jest.spyOn(wait, 'pause').mockImplementation(async (ms, signal) => {
			if (ms < 1000) return await realPause(ms, signal);
			state.waits.push(ms);
			state.offset += ms;
			await new Promise<void>((resolve) => setImmediate(resolve));
		});
	});
	afterAll(() => jest.restoreAllMocks());
	return { offset: () => state.offset, waits: state.waits, advance: (ms) => (state.offset += ms) };
}
