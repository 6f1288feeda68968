/**
 * The package's one timer picks n8n-workflow's helper by what the loaded release offers:
 * `sleepWithAbort` (1.98 to 2.33), `sleep(ms, signal)` (2.34 on), or a signal-less `sleep`
 * (n8n 1.100) slept in slices raced against the signal. Each is driven here with stand-ins
 * that record their calls, so the choice and the cancellation are checked without timing.
 * The version matrix (test/matrix) runs the same code on the real releases.
 */
import * as workflow from 'n8n-workflow';

import { pause, waitHelper, waitHelperOf } from '../../nodes/shared/api/wait';

/** A stand-in timer: records each call and resolves it when `tick` is called. */
function fakeTimers() {
	const calls: Array<{ ms: number; signal?: AbortSignal; resolve: () => void }> = [];
	const start = (ms: number, signal?: AbortSignal) =>
		new Promise<void>((resolve) => calls.push({ ms, signal, resolve }));
	const flush = async () => {
		for (let i = 0; i < 5; i++) await Promise.resolve();
	};
	return { calls, start, flush };
}

describe('which helper', () => {
	test('sleepWithAbort when the release has it, with the signal passed on', async () => {
		const t = fakeTimers();
		const helper = waitHelperOf({
			sleepWithAbort: (ms: number, signal?: AbortSignal) => t.start(ms, signal),
			sleep: () => Promise.resolve(),
		});
		expect(helper.name).toBe('sleepWithAbort');
		const signal = new AbortController().signal;
		const done = helper.pause(250, signal);
		expect(t.calls).toHaveLength(1);
		expect(t.calls[0]).toMatchObject({ ms: 250, signal });
		t.calls[0].resolve();
		await expect(done).resolves.toBeUndefined();
	});

	test('sleep(ms, signal) when sleepWithAbort is gone (n8n 2.34 on)', async () => {
		const t = fakeTimers();
		const sleep = async (ms: number, signal?: AbortSignal) => await t.start(ms, signal);
		const helper = waitHelperOf({ sleep });
		expect(helper.name).toBe('sleep');
		const signal = new AbortController().signal;
		const done = helper.pause(30_000, signal);
		expect(t.calls).toEqual([expect.objectContaining({ ms: 30_000, signal })]);
		t.calls[0].resolve();
		await expect(done).resolves.toBeUndefined();
	});

	test('a signal-less sleep(ms) (n8n 1.100): slices of at most a second until the wait is over', async () => {
		const t = fakeTimers();
		const helper = waitHelperOf({ sleep: async (ms: number) => await t.start(ms) });
		expect(helper.name).toBe('sleep (sliced)');
		let settled = false;
		const done = helper.pause(2500, new AbortController().signal).then(() => (settled = true));
		for (const expected of [1000, 1000, 500]) {
			await t.flush();
			expect(t.calls[t.calls.length - 1].ms).toBe(expected);
			expect(settled).toBe(false);
			t.calls[t.calls.length - 1].resolve();
		}
		await done;
		expect(t.calls.map((c) => c.ms)).toEqual([1000, 1000, 500]);
	});

	test('a signal-less sleep: a stop settles the wait at once, in the middle of a slice, and no further slice starts', async () => {
		const t = fakeTimers();
		const helper = waitHelperOf({ sleep: async (ms: number) => await t.start(ms) });
		const controller = new AbortController();
		const done = helper.pause(30 * 60_000, controller.signal);
		await t.flush();
		expect(t.calls).toHaveLength(1);
		controller.abort(new Error('stopped by the user'));
		await expect(done).rejects.toThrow('stopped by the user');
		t.calls[0].resolve();
		await t.flush();
		expect(t.calls).toHaveLength(1);
	});

	test('neither helper: an error that says so, not a TypeError', () => {
		expect(() => waitHelperOf({})).toThrow(/offers neither sleep nor sleepWithAbort/);
	});

	test('the n8n-workflow this project builds against is served by the helper its exports suggest', () => {
		const exports = workflow as unknown as Record<string, unknown>;
		const expected = typeof exports.sleepWithAbort === 'function' ? 'sleepWithAbort' : 'sleep';
		expect(waitHelper().name).toBe(expected);
	});
});

describe('pause', () => {
	test('an already stopped execution waits for nothing', async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(pause(60_000, controller.signal)).rejects.toBeDefined();
	});

	test('a stop during a real wait rejects it without the wait running out', async () => {
		const controller = new AbortController();
		const done = pause(10 * 60_000, controller.signal);
		controller.abort();
		await expect(done).rejects.toBeDefined();
	});

	test('a negative wait is no wait', async () => {
		await expect(pause(-5)).resolves.toBeUndefined();
	});
});
