/**
 * The request limiter (Options → Requests in Flight): never more than its size at once,
 * waiting requests served in order, the slots freed in one turn handed on together on the
 * next turn (not one by one from the answers that freed them), and a stop ending every
 * wait through one listener on the execution's signal. No timings: turns are counted.
 */
import { Limiter } from '../../nodes/shared/api/limit';
import { setTimeout } from '../../host/globals';

/** A task that runs until `finish(i)`; records when each starts. */
function tasks() {
	const started: number[] = [];
	const finishers = new Map<number, () => void>();
	const task = (i: number) => async () => {
		started.push(i);
		await new Promise<void>((resolve) => finishers.set(i, resolve));
		return i;
	};
	return { started, task, finish: (i: number) => finishers.get(i)!() };
}

/** Lets every pending promise callback run (not a timer). */
async function settle(): Promise<void> {
	for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** One turn of the event loop: the limiter's own 0 ms timer, set before this one, has fired. */
async function nextTurn(): Promise<void> {
	await settle();
	await new Promise((resolve) => setTimeout(resolve, 0));
	await settle();
}

test('at most `size` at once; the slots freed in one turn go to the waiting requests together, in order, on the next turn', async () => {
	const limiter = new Limiter(3);
	const t = tasks();
	const runs = [0, 1, 2, 3, 4, 5, 6].map((i) => limiter.run(t.task(i)));
	await settle();
	expect(t.started).toEqual([0, 1, 2]);

	t.finish(1);
	t.finish(0);
	await settle();
	// freed, not yet handed on: nothing starts from the continuation of an answer
	expect(t.started).toEqual([0, 1, 2]);
	await nextTurn();
	expect(t.started).toEqual([0, 1, 2, 3, 4]);

	for (const i of [2, 3, 4, 5, 6]) {
		t.finish(i);
		await nextTurn();
	}
	await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2, 3, 4, 5, 6]);
	expect(t.started).toEqual([0, 1, 2, 3, 4, 5, 6]);
});

test('a request that comes while others wait for a slot queues behind them, even when a slot is free', async () => {
	const limiter = new Limiter(1);
	const t = tasks();
	const first = limiter.run(t.task(0));
	const second = limiter.run(t.task(1));
	await settle();
	t.finish(0);
	await settle();
	// slot 0 is free but handed on only next turn: a newcomer must not take it before 1
	const third = limiter.run(t.task(2));
	await nextTurn();
	expect(t.started).toEqual([0, 1]);
	t.finish(1);
	await nextTurn();
	expect(t.started).toEqual([0, 1, 2]);
	t.finish(2);
	await expect(Promise.all([first, second, third])).resolves.toEqual([0, 1, 2]);
});

test('a stop ends every wait with the stop reason through one listener on the signal, however many wait; the running ones finish', async () => {
	const limiter = new Limiter(2);
	const t = tasks();
	const controller = new AbortController();
	const added = jest.spyOn(controller.signal, 'addEventListener');
	const runs = Array.from({ length: 12 }, (_, i) => limiter.run(t.task(i), controller.signal));
	const outcomes = runs.map(
		async (run) =>
			await run.then(
				(value) => ({ value }),
				(error: unknown) => ({ error }),
			),
	);
	await settle();
	expect(t.started).toEqual([0, 1]);
	expect(added).toHaveBeenCalledTimes(1);

	const reason = new Error('stopped');
	controller.abort(reason);
	t.finish(0);
	t.finish(1);
	await nextTurn();
	const settled = await Promise.all(outcomes);
	expect(settled.slice(0, 2)).toEqual([{ value: 0 }, { value: 1 }]);
	expect(settled.slice(2).every((s) => 'error' in s && s.error === reason)).toBe(true);
	expect(t.started).toEqual([0, 1]);
	// a request after the stop is refused at once
	await expect(limiter.run(t.task(99), controller.signal)).rejects.toBe(reason);
});
