/**
 * The accounting pacer finds its share (nodes/shared/api/pacing.ts, ADAPTIVE): several processes,
 * each with a pacer of its own and no knowledge of the others, share one organization's limit of
 * 100 requests a minute, as queue-mode workers do. A simulation on the test's clock (fake timers
 * and Date: the pacers' waits, the answers' latency and the server's window move only when the
 * test moves them; nothing depends on the machine's speed):
 *
 * - the server is the emulator's rule (emulator/limits.ts: a sliding window of arrivals per
 *   organization, 429 past it, a refused request not counted, no Retry-After);
 * - each simulated process runs its items as the transport does (nodes/shared/api/transport.ts):
 *   at most 10 requests in flight, each taken from the pacer, sent, answered after the latency;
 *   a 429 holds the pacer for `holdAfterRefusal` (block, not lasting) and the request is sent
 *   again after it, while the holds add up to at most 5 windows (past that the item fails).
 *
 * Asserted: three processes converge on the limit together (at most 10 429s over 450 items, at
 * least 90 in the busiest minute, at least 85 a minute on average, no item failed), and so do
 * two, a late starter and a long run (each process near a fair share); one process alone meets
 * no 429 and keeps the full rate; the project area's pacer never adapts; a lowering is told once
 * in n8n's log, calmly, with no secret.
 */
import { LoggerProxy } from 'n8n-workflow';

import {
	ACCOUNTING_RULE,
	ADAPTIVE,
	DOCUMENTED_RULE,
	Pacer,
	setPacingRule,
} from '../../nodes/shared/api/pacing';
import { Clock } from '../../emulator/clock';
import { OrganizationLimits } from '../../emulator/limits';
import { process, setTimeout } from '../../host/globals';

const MINUTE = ACCOUNTING_RULE.windowMs;
const LIMIT = ACCOUNTING_RULE.limit;
/** As the transport: Requests in Flight (default), and how long the holds of one request may add up to. */
const IN_FLIGHT = 10;
const MAX_HELD_MS = 5 * MINUTE;

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Process {
	/** How many items it runs. */
	items: number;
	/** When it starts (ms from 0). */
	startAt?: number;
}

interface Outcome {
	/** Arrival times at the server of the requests it answered, and of those it refused. */
	answered: number[];
	refused: number[];
	/** Items that gave up (holds past the transport's budget). */
	failed: number;
	/** When the last process finished (ms from 0). */
	took: number;
	pacers: Pacer[];
	/** Each pacer's pace, sampled every 10 s: [time, paces]. */
	paces: Array<[number, number[]]>;
}

/** One item as the transport sends it: taken from the pacer, sent, answered; a 429 holds and sends again. */
async function sendItem(
	pacer: Pacer,
	server: OrganizationLimits,
	out: Outcome,
	latencyMs: number,
): Promise<boolean> {
	let heldMs = 0;
	for (;;) {
		const answered = await pacer.take();
		if (pacer.heldTill > Date.now()) {
			answered(false); // a hold began while it waited for a slot: not sent
			continue;
		}
		await sleep(latencyMs / 2);
		const arrival = Date.now();
		const refusal = server.hit('us:org');
		await sleep(latencyMs / 2);
		answered(true);
		if (refusal === undefined) {
			out.answered.push(arrival);
			return true;
		}
		out.refused.push(arrival);
		const hold = pacer.holdAfterRefusal;
		pacer.block(hold, false);
		if (heldMs + hold > MAX_HELD_MS) return false;
		heldMs += hold;
		await sleep(hold);
	}
}

/** Runs the processes against one organization limit of 100 a minute on the test's clock from 0. */
async function simulate(processes: Process[], latencyMs = 40): Promise<Outcome> {
	setPacingRule(ACCOUNTING_RULE, 'accounting');
	jest.useFakeTimers({
		now: 0,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate'],
	});
	try {
		const server = new OrganizationLimits(
			{ limit: LIMIT, windowMs: MINUTE },
			new Clock({ realTime: true }),
		);
		const out: Outcome = { answered: [], refused: [], failed: 0, took: 0, pacers: [], paces: [] };
		const runs = processes.map(async ({ items, startAt = 0 }) => {
			const pacer = new Pacer(undefined, 'accounting');
			out.pacers.push(pacer);
			await sleep(startAt);
			let next = 0;
			const worker = async () => {
				while (next < items) {
					next++;
					if (!(await sendItem(pacer, server, out, latencyMs))) out.failed++;
				}
			};
			await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
			out.took = Math.max(out.took, Date.now());
		});
		let settled = false;
		const all = Promise.all(runs).finally(() => (settled = true));
		while (!settled) {
			out.paces.push([Date.now(), out.pacers.map((p) => p.pace)]);
			await jest.advanceTimersByTimeAsync(10_000);
		}
		await all;
		out.answered.sort((a, b) => a - b);
		return out;
	} finally {
		jest.useRealTimers();
	}
}

/** The most answered requests whose arrivals fall within any `windowMs`. */
function busiest(times: number[], windowMs = MINUTE): number {
	let most = 0;
	for (let i = 0, first = 0; i < times.length; i++) {
		while (times[i] - times[first] >= windowMs) first++;
		most = Math.max(most, i - first + 1);
	}
	return most;
}

/** Answered requests per minute over the run (first to last arrival, plus one request's spacing). */
function perMinute(out: Outcome): number {
	const { answered } = out;
	return ((answered.length - 1) / (answered[answered.length - 1] - answered[0])) * MINUTE;
}

/** The server's view: never more than the limit arriving within any minute. */
function expectWithinLimit(out: Outcome): void {
	expect(busiest(out.answered)).toBeLessThanOrEqual(LIMIT);
}

function report(label: string, out: Outcome): void {
	if (process.env.PACING_SIM_REPORT) {
		const paces = out.paces
			.filter((_, i) => i % 6 === 0)
			.map(([t, p]) => `${t / 1000}s:${p.map((x) => x.toFixed(0)).join('/')}`);
		process.stdout.write(
			`${label}: 429s ${out.refused.length}, busiest ${busiest(out.answered)}, per minute ${perMinute(out).toFixed(1)}, took ${(out.took / 1000).toFixed(0)} s, failed ${out.failed}\n  ${paces.join(' ')}\n`,
		);
	}
}

afterAll(() => setPacingRule(ACCOUNTING_RULE, 'accounting'));

test("three processes x 150 items at once converge on the organization's 100 a minute: at most 10 429s, at least 90 in the busiest minute, at least 85 a minute on average, no item failed", async () => {
	const out = await simulate([{ items: 150 }, { items: 150 }, { items: 150 }]);
	report('3 x 150', out);
	expect(out.failed).toBe(0);
	expect(out.answered).toHaveLength(450);
	expect(out.refused.length).toBeGreaterThan(0); // they did meet the limit: the case is exercised
	expect(out.refused.length).toBeLessThanOrEqual(10);
	expect(busiest(out.answered)).toBeGreaterThanOrEqual(90);
	expect(perMinute(out)).toBeGreaterThanOrEqual(85);
	expectWithinLimit(out);
});

test('two processes x 150 items at once: the same', async () => {
	const out = await simulate([{ items: 150 }, { items: 150 }]);
	report('2 x 150', out);
	expect(out.failed).toBe(0);
	expect(out.refused.length).toBeLessThanOrEqual(10);
	expect(busiest(out.answered)).toBeGreaterThanOrEqual(90);
	expect(perMinute(out)).toBeGreaterThanOrEqual(85);
});

test("one process alone keeps the full rate: 0 429s, within 1.1x the limit's minimum time, its pace at the ceiling", async () => {
	const out = await simulate([{ items: 150 }]);
	report('1 x 150', out);
	expect(out.refused).toEqual([]);
	expect(out.failed).toBe(0);
	expect(out.took).toBeLessThanOrEqual(1.1 * (150 / LIMIT) * MINUTE);
	expect(out.pacers[0].pace).toBe(LIMIT);
	expectWithinLimit(out);
});

test("a long run of three processes stays near the limit and shares it: after the first minutes no pace under half another's, the sum near 100", async () => {
	const out = await simulate([{ items: 600 }, { items: 600 }, { items: 600 }]);
	report('3 x 600', out);
	expect(out.failed).toBe(0);
	// 1,800 requests at 100 a minute: 18 minutes at least; the 429s that probe for room keep to under two a minute
	expect(out.refused.length).toBeLessThanOrEqual(30);
	expect(perMinute(out)).toBeGreaterThanOrEqual(88);
	const steady = out.paces.filter(([t]) => t >= 5 * MINUTE && t <= 15 * MINUTE);
	expect(steady.length).toBeGreaterThan(0);
	for (const [, paces] of steady) {
		const sum = paces.reduce((a, b) => a + b, 0);
		expect(sum).toBeGreaterThanOrEqual(0.8 * LIMIT);
		expect(sum).toBeLessThanOrEqual(1.2 * LIMIT);
		expect(Math.min(...paces)).toBeGreaterThanOrEqual(0.5 * Math.max(...paces));
	}
	expectWithinLimit(out);
});

test("a process that starts while another has the organization's minute to itself gets requests through, and once alone finds the whole minute again: no item failed", async () => {
	const out = await simulate([{ items: 400 }, { items: 200, startAt: 90_000 }]);
	report('400 + 200 late', out);
	expect(out.failed).toBe(0);
	expect(out.answered).toHaveLength(600);
	expect(out.refused.length).toBeLessThanOrEqual(12);
	expectWithinLimit(out);
	// the late one was lowered while both ran, and rose again once the first had finished
	const late = out.paces.map(([, paces]) => paces[1]);
	const lowest = Math.min(...late);
	expect(lowest).toBeLessThan(0.5 * LIMIT);
	expect(late[late.length - 1]).toBeGreaterThanOrEqual(2 * lowest);
});

/** Fake timers and Date from 0 ms, a scaled rule (10 per second), the test's clock. */
async function onScaledClock(body: () => Promise<void>): Promise<void> {
	setPacingRule(SCALED, 'accounting');
	setPacingRule(SCALED);
	jest.useFakeTimers({
		now: 0,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate'],
	});
	try {
		await body();
	} finally {
		jest.useRealTimers();
		setPacingRule(ACCOUNTING_RULE, 'accounting');
		setPacingRule(DOCUMENTED_RULE);
	}
}

const SCALED = { limit: 10, windowMs: 1000 };
/** The scaled window plus its margin (100 ms). */
const SPAN = 1100;

/** Lets `n` requests through one after the other at the pacer's spacing, each answered at once. */
async function sendAnswered(pacer: Pacer, n: number): Promise<void> {
	for (let i = 0; i < n; i++) {
		const take = pacer.take();
		await jest.advanceTimersByTimeAsync(Math.floor(SPAN / pacer.pace) + 1);
		(await take)(true);
	}
}

test("an accounting pacer spaces its requests evenly at its pace (a window's worth never in one burst); the project area's lets its window through at once", async () => {
	await onScaledClock(async () => {
		const books = new Pacer(undefined, 'accounting');
		const projects = new Pacer();
		const let10 = async (pacer: Pacer) => {
			const at: number[] = [];
			const takes = Array.from({ length: 10 }, async () => {
				(await pacer.take())(true);
				at.push(Date.now());
			});
			await jest.advanceTimersByTimeAsync(2 * SPAN);
			await Promise.all(takes);
			return at;
		};
		expect(await let10(projects)).toEqual(Array(10).fill(0));
		const start = Date.now();
		expect((await let10(books)).map((t) => t - start)).toEqual(
			Array.from({ length: 10 }, (_, i) => i * (SPAN / 10)),
		);
	});
});

test("a 429 lowers an accounting pacer once per crowd, to what got through, and n8n's log says so once, calmly, without a secret; answers raise it again, never above the ceiling", async () => {
	const info = jest.spyOn(LoggerProxy, 'info').mockImplementation(() => undefined);
	try {
		await onScaledClock(async () => {
			const pacer = new Pacer(undefined, 'accounting');
			pacer.label = '600000001';
			await sendAnswered(pacer, 3);
			// two requests in flight when the window is full: both answered 429
			const first = await pacer.take();
			const second = pacer.take();
			await jest.advanceTimersByTimeAsync(SPAN / SCALED.limit);
			const secondDone = await second;
			first(true);
			const hold = pacer.holdAfterRefusal;
			pacer.block(hold, false);
			// 3 got through (the refused one does not count): 0.85 x 3 is under 0.3 x 10, so 3
			expect(pacer.pace).toBe(ADAPTIVE.atLeastOfPace * SCALED.limit);
			// held until the oldest that got through has left the window, not a whole window
			expect(hold).toBeLessThan(SCALED.windowMs);
			secondDone(true);
			pacer.block(pacer.holdAfterRefusal, false);
			expect(pacer.pace).toBe(3); // the same crowd: lowered once
			expect(info).toHaveBeenCalledTimes(1);
			const [message, meta] = info.mock.calls[0] as [string, Record<string, unknown>];
			expect(message).toContain('organization 600000001');
			expect(message).toContain('at most 3 requests per 1 s');
			expect(message).not.toMatch(/error|fail|token|secret/i);
			expect(meta).toEqual({
				organization: '600000001',
				requestsPerWindow: 3,
				windowMs: SCALED.windowMs,
			});
			// answers without a 429 raise the pace, additively, and never past the ceiling
			await jest.advanceTimersByTimeAsync(SPAN);
			await sendAnswered(pacer, 5);
			expect(pacer.pace).toBeGreaterThan(3);
			expect(pacer.pace).toBeLessThan(4);
			await sendAnswered(pacer, 60);
			expect(pacer.pace).toBe(SCALED.limit);
		});
	} finally {
		info.mockRestore();
	}
});

test("a 429 met before any of the process's requests got through (another client filled the window) lowers mildly and holds a whole window; the project area's pace never changes", async () => {
	await onScaledClock(async () => {
		const pacer = new Pacer(undefined, 'accounting');
		(await pacer.take())(true);
		expect(pacer.holdAfterRefusal).toBe(SCALED.windowMs);
		pacer.block(SCALED.windowMs, false);
		expect(pacer.pace).toBeCloseTo(ADAPTIVE.keep * SCALED.limit);
		const projects = new Pacer();
		(await projects.take())(true);
		projects.block(500, false);
		expect(projects.pace).toBe(SCALED.limit);
		expect(projects.holdAfterRefusal).toBe(SCALED.windowMs);
	});
});
