/**
 * Pacing of the project-management area, with the documented rule scaled down (100
 * requests per 2 minutes, 30 minutes blocked -> 10 per second, 1.5 s blocked; the logic is
 * the same). Runs of 3x the limit through the node (many input items, Return All over many
 * pages, a batch trash) get zero 429s, never more than the limit within any window as the
 * server counts (the arrival times it recorded), every request answered, and take at least
 * the least time the rule allows (a pacer that did not wait would finish sooner); with a
 * clock the test controls, the pacer lets each window's requests through as soon as the
 * rule allows; and a 429 makes the node wait instead of retrying at once (a Retry-After on
 * the test's clock, and waited out even when its timer ends a millisecond before Date.now()
 * says it is over, as Node's timers can).
 *
 * At the end, the same pacer under the accounting areas' rule of its own (per organization, no
 * block: test/workflows/accounting-pacing.test.ts runs it end to end), and a request let
 * through but not sent, which does not count.
 *
 * No test asserts an upper bound on elapsed time: that depends on how busy the machine is.
 * How close to the minimum time real runs come is a figure of the benchmark (bench/pacing.ts,
 * `npm run bench`).
 */
import {
	ACCOUNTING_RULE,
	DOCUMENTED_RULE,
	getPacingRule,
	marginMs,
	Pacer,
	pacerFor,
	setPacingRule,
} from '../../nodes/shared/api/pacing';
import { Clock } from '../../emulator/clock';
import { until, useFakeClock } from '../tools/fake-timers';
import type { RecordedRequest } from '../../emulator/server';
import { apiClient } from '../../emulator/server';
import { expectNoError, json, steps } from '../../harness/workflows';
import { WorkflowEnv } from '../workflows/support';
import { setTimeout } from '../../host/globals';

const RULE = { limit: 10, windowMs: 1000, blockMs: 1500 };

/**
 * The emulator's clock: real time (the paced runs need the server to count as time passes),
 * held still on demand, so that a block the test provokes lasts exactly as long as the test
 * wants, however slowly the machine runs.
 */
class HoldableClock extends Clock {
	private heldAt: number | undefined;

	constructor() {
		super({ realTime: true });
	}

	override now(): number {
		return this.heldAt ?? super.now();
	}

	/** Stops the clock where it is. */
	hold(): void {
		this.heldAt = super.now();
	}

	/** Lets it follow real time again (it jumps to the present). */
	release(): void {
		this.heldAt = undefined;
	}
}

const clock = new HoldableClock();
const env = new WorkflowEnv();
let portal: string;
let projects: ReturnType<typeof steps>;
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

beforeAll(async () => {
	await env.start({ demo: true, rateLimit: RULE, clock });
	portal = env.em.portalId;
	projects = steps('vendorProjects', { portal_id: byId(portal) });
});
afterAll(async () => {
	setPacingRule(DOCUMENTED_RULE);
	await env.stop();
});
beforeEach(() => {
	setPacingRule(RULE); // fresh pacers
	clock.release();
	env.em.resetRateLimits();
	env.em.clearRequests();
});

/** The least time N requests can span under the rule: request k*limit+1 comes a window after request (k-1)*limit+1. */
function minimumSpan(n: number): number {
	return Math.floor((n - 1) / RULE.limit) * RULE.windowMs;
}

/**
 * The pacing rule as the server saw it, whatever the machine's speed: `n` requests, every one
 * answered 200 (none refused 429), never more than `limit` arriving within any window, and
 * (a lower bound, which only a pacer that does not wait can miss) spread over at least the
 * least time the rule allows.
 */
function expectPaced(requests: RecordedRequest[], n: number): void {
	expect(requests).toHaveLength(n);
	expect(requests.filter((r) => r.status === 429)).toEqual([]);
	expect(requests.map((r) => r.status)).toEqual(Array(n).fill(200));
	const times = requests.map((r) => r.time);
	// never more than `limit` within any window, as the server counts (arrival times, in arrival order)
	for (let i = RULE.limit; i < n; i++)
		expect(times[i] - times[i - RULE.limit]).toBeGreaterThanOrEqual(RULE.windowMs);
	expect(times[n - 1] - times[0]).toBeGreaterThanOrEqual(minimumSpan(n));
}

test('30 input items (3x the limit): zero 429s, never more than the limit within a window, not sooner than the rule allows', async () => {
	const items = Array.from({ length: 30 }, (_, i) => ({ n: i }));
	const result = await env.run(
		[projects('Portal', { resource: 'portal', operation: 'get' })],
		items,
	);
	expectNoError(result);
	expect(json(result, 'Portal')).toHaveLength(30);
	expectPaced(env.apiRequests(), 30);
});

test('30 items with 50 requests in flight and server latency: still zero 429s and never more than the limit per window', async () => {
	env.em.setLatency(100);
	try {
		const items = Array.from({ length: 30 }, (_, i) => ({ n: i }));
		const result = await env.run(
			[
				projects('Portal', {
					resource: 'portal',
					operation: 'get',
					options: { requestsInFlight: 50 },
				}),
			],
			items,
		);
		expectNoError(result);
		expect(json(result, 'Portal')).toHaveLength(30);
		expect(result.output('Portal').map((o) => (o.pairedItem as { item: number }).item)).toEqual(
			items.map((i) => i.n),
		);
		expectPaced(env.apiRequests(), 30);
		// the first window's requests really went out together (the test did exercise parallel requests: ten let
		// through at once overlap at the server during its 100 ms latency; not a timing of the pacer)
		expect(env.em.inFlight.max).toBeGreaterThan(1);
	} finally {
		env.em.setLatency(0);
	}
});

test('Return All over 30 pages: zero 429s, never more than the limit within a window, not sooner than the rule allows', async () => {
	const t = env.em.store.portal('us', portal)!;
	for (let i = t.all('projects').length; i < 30 * 200 - 10; i++) {
		const id = String(5400000000000 + i);
		t.put('projects', id, { id, name: `Paced ${i}` });
	}
	const result = await env.run([
		projects('List', { resource: 'project', operation: 'getAll', returnAll: true }),
	]);
	expectNoError(result);
	expect(json(result, 'List')).toHaveLength(30 * 200 - 10);
	expectPaced(env.apiRequests(), 30);
	expect(env.apiRequests().map((r) => r.query.page)).toEqual(
		Array.from({ length: 30 }, (_, i) => String(i + 1)),
	);
});

test('a batch trash of 3000 ids (30 calls): zero 429s, never more than the limit within a window, not sooner than the rule allows', async () => {
	const t = env.em.store.portal('us', portal)!;
	const ids = Array.from({ length: 3000 }, (_, i) => String(5500000000000 + i));
	for (const id of ids) t.put('issues', id, { id, name: `Issue ${id}` });
	const result = await env.run([
		projects('Trash', {
			resource: 'trash',
			operation: 'moveToTrash',
			module: 'issues',
			items: ids.join(','),
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Trash')).toHaveLength(30);
	expectPaced(env.apiRequests(), 30);
});

/**
 * Crosses the server's limit with direct calls while its clock is held: the `limit` calls fall
 * in one window however slowly they run, the next one starts the block, and the block lasts
 * until the clock is released.
 */
async function provokeBlock(): Promise<void> {
	clock.hold();
	const call = apiClient(env.em, { token: String(env.storedToken.access_token) });
	for (let i = 0; i < RULE.limit; i++)
		expect((await call('GET', 'projects', '/portals')).status).toBe(200);
	expect((await call('GET', 'projects', '/portals')).status).toBe(429);
	env.em.clearRequests();
}

test('by default a block ends the run with an error that says when it lifts, after one refused request', async () => {
	await provokeBlock();
	const result = await env.run([
		projects(
			'Portal',
			{ resource: 'portal', operation: 'get' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(1);
	expect(String(out[0].error)).toMatch(/blocks further requests until \d{4}-\d{2}-\d{2}T/);
	expect(out[0].notSent).toBe(true);
});

test('by default, while the area is blocked, later items fail at once without sending anything', async () => {
	env.em.faults.next(1, { kind: 'status', status: 429 });
	const result = await env.run(
		[
			projects(
				'Portal',
				{ resource: 'portal', operation: 'get', options: { requestsInFlight: 1 } },
				{ onError: 'continueRegularOutput' },
			),
		],
		[{ i: 0 }, { i: 1 }, { i: 2 }],
	);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(3);
	for (const o of out) expect(String(o.error)).toMatch(/blocks further requests until/);
});

test('with On Rate-Limit Block = wait, the node waits out the block on its 429 and then succeeds', async () => {
	await provokeBlock();
	const run = env.run([
		projects('Portal', {
			resource: 'portal',
			operation: 'get',
			options: { onRateLimitBlock: 'wait' },
		}),
	]);
	// once the node has met the block, the server's clock follows real time again: the block
	// (started before the node's request) is over in server time by the time the node has waited it out
	await until(() => env.apiRequests().some((r) => r.status === 429));
	clock.release();
	const result = await run;
	expectNoError(result);
	const requests = env.apiRequests();
	expect(requests.map((r) => r.status)).toEqual([429, 200]); // one refusal, no hammering
	// no Retry-After: the documented block (scaled) is waited out before the one retry
	expect(requests[1].time - requests[0].time).toBeGreaterThanOrEqual(RULE.blockMs - 50);
});

/**
 * Runs `body` on the test's clock (fake timers and Date: the node's waits, its pacer and the
 * emulator's clock move only when the test moves them) and hands it a way to know when the
 * node has met a 429 and started waiting: the pacer's hold is set in the same synchronous run
 * as the wait's timer.
 */
async function onTestClock(body: (held: () => boolean) => Promise<void>): Promise<void> {
	const block = jest.spyOn(Pacer.prototype, 'block');
	useFakeClock();
	try {
		await body(() => block.mock.calls.length > 0);
	} finally {
		await jest.runOnlyPendingTimersAsync();
		jest.useRealTimers();
		block.mockRestore();
	}
}

test('a 429 with Retry-After is waited out (not retried at once)', async () => {
	await onTestClock(async (held) => {
		env.em.faults.next(1, { kind: 'status', status: 429, retryAfter: 1 });
		const run = env.run([projects('Portal', { resource: 'portal', operation: 'get' })]);
		await until(held); // the node has the 429 and waits; the test's clock has not moved
		await jest.advanceTimersByTimeAsync(1000);
		const result = await run;
		expectNoError(result);
		const requests = env.apiRequests();
		expect(requests.map((r) => r.status)).toEqual([429, 200]);
		// the retry came once the Retry-After was over by the server's clock, not at once (that would be 0 ms)
		expect(requests[1].time - requests[0].time).toBe(1000);
	});
});

test('a Retry-After whose wait ends a millisecond before Date.now() reaches its end (as a Node timer can) is retried, not ended as a block', async () => {
	await onTestClock(async (held) => {
		env.em.faults.next(1, { kind: 'status', status: 429, retryAfter: 1 });
		const run = env.run([projects('Portal', { resource: 'portal', operation: 'get' })]);
		await until(held);
		// Date.now() 1 ms behind the timers (they keep their due times): the node's 1000 ms wait ends
		// when the pacer's hold, set from Date.now(), has 1 ms left, as a busy machine's timers can
		jest.setSystemTime(Date.now() - 1);
		await jest.advanceTimersByTimeAsync(1001);
		const result = await run;
		// before the fix: "The Vendor API blocks further requests until ...: 0 of 1 items done, 1 not sent"
		expectNoError(result);
		expect(env.apiRequests().map((r) => r.status)).toEqual([429, 200]);
	});
});

test('a second 429 after waiting out the block is an error (continue-on-fail: an error item), not an endless wait', async () => {
	env.em.faults.next(2, { kind: 'status', status: 429 });
	const result = await env.run([
		projects(
			'Portal',
			{ resource: 'portal', operation: 'get', options: { onRateLimitBlock: 'wait' } },
			{ onError: 'continueRegularOutput' },
		),
	]);
	const requests = env.apiRequests();
	expect(requests.map((r) => r.status)).toEqual([429, 429]);
	expect(requests[1].time - requests[0].time).toBeGreaterThanOrEqual(RULE.blockMs - 50);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(1);
	expect(JSON.stringify(out[0])).toMatch(/too many requests/i);
	expect(JSON.stringify(out[0])).not.toContain(String(env.storedToken.access_token));
});

test('queue mode: with the credential share at 50 of 100, this instance sends at most half the limit per window', async () => {
	const data = env.credentials[0].data;
	data.projectsRequestsPerWindow = 50;
	try {
		const result = await env.run(
			[projects('Portal', { resource: 'portal', operation: 'get' })],
			Array.from({ length: 10 }, (_, i) => ({ i })),
		);
		expectNoError(result);
		const times = env.apiRequests().map((r) => r.time);
		expect(times).toHaveLength(10);
		const half = RULE.limit / 2;
		for (let i = half; i < times.length; i++)
			expect(times[i] - times[i - half]).toBeGreaterThanOrEqual(RULE.windowMs);
	} finally {
		delete data.projectsRequestsPerWindow;
	}
});

/** Fake timers and Date from 0 ms, for the pacer alone (no network): the test's clock. */
function useFakeClockFromZero(): void {
	jest.useFakeTimers({
		now: 0,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate'],
	});
}

test('a request counts from when its answer came back: a late first answer holds the next window until it is a window old', async () => {
	setPacingRule(RULE);
	useFakeClockFromZero();
	try {
		const pacer = new Pacer();
		const done: Array<() => void> = [];
		for (let i = 0; i < RULE.limit; i++) done.push(await pacer.take());
		// nine answers come back at once, the first one (slow on the network) only at 400 ms
		for (const d of done.slice(1)) d();
		let eleventh = false;
		const next = pacer.take().then((d) => {
			eleventh = true;
			return d;
		});
		await jest.advanceTimersByTimeAsync(400);
		expect(eleventh).toBe(false); // all ten counted: one is still in flight
		done[0]();
		// now the nine earliest answers (at 0) leave the window first: at windowMs + margin (+1 ms), not sooner
		const leaves = RULE.windowMs + marginMs(RULE) + 1;
		await jest.advanceTimersByTimeAsync(leaves - 1 - 400);
		expect(eleventh).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(eleventh).toBe(true);
		(await next)();
		// the twelfth waits for the late answer: 400 + window + margin (+1 ms)
		let twelfth = false;
		for (let i = 0; i < 8; i++) (await pacer.take())();
		const last = pacer.take().then(() => (twelfth = true));
		await jest.advanceTimersByTimeAsync(400 - 1);
		expect(twelfth).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(twelfth).toBe(true);
		await last;
	} finally {
		jest.useRealTimers();
	}
});

/** The error a run that may not wait ends with during a block. */
const failWhenBlocked = (until: number) => new Error(`blocked until ${until}`);

/** A pacer's take, and whether it has been let through yet. */
function tracked(take: Promise<() => void>): { through: boolean; done: Promise<() => void> } {
	const t = { through: false, done: take };
	t.done = take.then((d) => {
		t.through = true;
		return d;
	});
	return t;
}

/** Runs `body` under RULE on a fake clock from 0, and back on real timers after. */
async function onFakeClock(body: () => Promise<void>): Promise<void> {
	setPacingRule(RULE);
	useFakeClockFromZero();
	try {
		await body();
	} finally {
		jest.useRealTimers();
	}
}

test('a request that waited out a Retry-After and finds the last millisecond of its hold left (a timer ending early by Date.now()) is let through at its end, not failed as blocked', async () => {
	await onFakeClock(async () => {
		const pacer = new Pacer();
		(await pacer.take(undefined, failWhenBlocked))();
		pacer.block(1000);
		// during the hold, a request that may not wait fails at once
		await expect(pacer.take(undefined, failWhenBlocked)).rejects.toThrow('blocked until 1000');
		// the wait of 1000 ms ended, but Date.now() says 999 (timers count whole ms on another clock)
		jest.setSystemTime(999);
		const retry = tracked(pacer.take(undefined, failWhenBlocked));
		await jest.advanceTimersByTimeAsync(0);
		expect(retry.through).toBe(false); // not before the hold is over
		await jest.advanceTimersByTimeAsync(1);
		expect(retry.through).toBe(true);
		(await retry.done)();
	});
});

test("a short hold (the API's own Retry-After) is waited by a request that may not wait out a block; a lasting block fails it", async () => {
	await onFakeClock(async () => {
		const pacer = new Pacer();
		pacer.block(1000, false);
		const other = tracked(pacer.take(undefined, failWhenBlocked));
		await jest.advanceTimersByTimeAsync(999);
		expect(other.through).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(other.through).toBe(true);
		(await other.done)();
		pacer.block(5000);
		await expect(pacer.take(undefined, failWhenBlocked)).rejects.toThrow('blocked until 6000');
	});
});

/**
 * Drives a Pacer on fake timers (its clock and its waits are the test's): `n` requests, at most
 * `inFlight` at once, each answered `latencyMs` after it was let through. Returns when each
 * request was let through (ms from the start).
 */
async function simulate(n: number, inFlight: number, latencyMs: number): Promise<number[]> {
	useFakeClockFromZero();
	try {
		const pacer = new Pacer();
		const letThrough: number[] = [];
		let next = 0;
		const worker = async (): Promise<void> => {
			while (next < n) {
				const i = next++;
				const done = await pacer.take();
				letThrough[i] = Date.now();
				await new Promise((r) => setTimeout(r, latencyMs));
				done();
			}
		};
		const all = Promise.all(Array.from({ length: inFlight }, worker));
		await jest.runAllTimersAsync();
		await all;
		return letThrough;
	} finally {
		jest.useRealTimers();
	}
}

/**
 * When the pacer should let each of `n` requests through, and nothing later: as soon as the
 * request is asked for (at once, or when a slot frees: the answer of request i - inFlight) and
 * the answer of request i - limit is a window and the margin (+1 ms) old.
 */
function asSoonAsAllowed(n: number, inFlight: number, latencyMs: number): number[] {
	const at: number[] = [];
	const answered = (i: number) => at[i] + latencyMs;
	for (let i = 0; i < n; i++) {
		const asked = i < inFlight ? 0 : answered(i - inFlight);
		const allowed =
			i < RULE.limit ? 0 : answered(i - RULE.limit) + RULE.windowMs + marginMs(RULE) + 1;
		at.push(Math.max(asked, allowed));
	}
	return at;
}

test.each([
	['30 requests at once (50 in flight), answered at once', 50, 0],
	['30 requests at once (50 in flight), answered after 100 ms', 50, 100],
	['30 requests, 5 in flight, answered after 100 ms', 5, 100],
	['30 requests one after the other (pages), answered after 100 ms', 1, 100],
])(
	'with a clock the test controls, the pacer lets requests through as soon as the rule allows, never sooner: %s',
	async (_label, inFlight, latencyMs) => {
		const times = await simulate(30, inFlight, latencyMs);
		expect(times).toEqual(asSoonAsAllowed(30, inFlight, latencyMs));
		// e.g. 50 in flight answered at once: 10 at 0 ms, 10 at 1101 ms, 10 at 2202 ms (the minimum, 2000 ms, plus the margin and 1 ms per window)
		if (inFlight === 50 && latencyMs === 0)
			expect([times[0], times[10], times[29]]).toEqual([0, 1101, 2202]);
		// never more than the limit within any window, counting from the answers as the pacer does
		for (let i = RULE.limit; i < 30; i++)
			expect(times[i] - (times[i - RULE.limit] + latencyMs)).toBeGreaterThan(RULE.windowMs);
	},
);

test('a request let through but not sent after all (a hold began while it waited for a slot) does not count', async () => {
	await onFakeClock(async () => {
		const pacer = new Pacer();
		const done: Array<(sent?: boolean) => void> = [];
		for (let i = 0; i < RULE.limit; i++) done.push(await pacer.take());
		expect(pacer.inFlight).toBe(RULE.limit);
		done[0](false);
		for (const d of done.slice(1)) d();
		expect(pacer.inFlight).toBe(0);
		// nine counted: one more goes at once, the next waits for the window
		(await pacer.take())();
		const next = tracked(pacer.take());
		await jest.advanceTimersByTimeAsync(0);
		expect(next.through).toBe(false);
		expect(pacer.waiting).toBe(1);
		await jest.advanceTimersByTimeAsync(RULE.windowMs + marginMs(RULE) + 1);
		expect(next.through).toBe(true);
		(await next.done)();
	});
});

test("the accounting areas: a rule of their own (scaled apart from the project area's), a share above all of it for a higher figure, a 429 held a window and never a block", async () => {
	const accounting = { limit: 4, windowMs: 600 };
	setPacingRule(accounting, 'accounting');
	try {
		const books = pacerFor('accounting:test:1', 1, 'accounting');
		expect(books.rule).toEqual(accounting);
		expect(books.limit).toBe(4);
		expect(pacerFor('accounting:test:1', 2.5, 'accounting').limit).toBe(10);
		expect(pacerFor('accounting:test:1', 0.3, 'accounting').limit).toBe(1);
		// the project area: never more than its documented limit, whatever the share
		expect(pacerFor('test:projects', 2).limit).toBe(RULE.limit);
		expect(books.holdAfterRefusal).toBe(accounting.windowMs);
		expect(pacerFor('test:projects').holdAfterRefusal).toBe(RULE.blockMs);
		// a fresh rule for one area starts its pacers afresh, not the other's
		const projects = pacerFor('test:projects');
		setPacingRule(accounting, 'accounting');
		expect(pacerFor('accounting:test:1', 1, 'accounting')).not.toBe(books);
		expect(pacerFor('test:projects')).toBe(projects);
		expect(getPacingRule()).toEqual(RULE);
	} finally {
		setPacingRule(ACCOUNTING_RULE, 'accounting');
	}
});
