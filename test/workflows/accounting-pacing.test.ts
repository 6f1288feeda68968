/**
 * Pacing of the accounting areas (Books, Payments, Billing, Purchase Bills) by count, per
 * organization, against the emulator enforcing the service's limit (100 requests per minute per
 * organization, 429 past it: emulator/limits.ts), end to end on n8n's engine.
 *
 * Every test runs on the test's clock (fake timers and Date: the node's waits, its pacer and the
 * emulator's clock move only when the test moves them). The clock is moved to the next timer
 * only while no paced request is in flight, so it measures what pacing costs (the waits), never
 * how busy the machine is: a 1,000-item run takes its 10 minutes of the limit in a few seconds.
 *
 * - 1,000 items of Item → Get: 0 429s, never more than the limit within any minute as the server
 *   counts, and at most 1.1x the limit's minimum (1,000 / 100 minutes) on the test's clock;
 * - two executions at once share their organization's figure; two organizations do not;
 * - the credential's figure (queue mode: this n8n's share) is what the pacer keeps to;
 * - a 429 (another client used the minute) holds the organization's requests until the minute
 *   allows again (its Retry-After, else a whole minute), then every item completes without an
 *   error at a pace lowered a little (none of this process's requests had got through: the
 *   organization is crowded by others); a write answered 429 is sent again after the wait, and
 *   created once; a stop ends the wait.
 *
 * How several processes find their share of the organization's limit (the pace adapting to 429s)
 * is test/api/pacing-convergence.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { Limiter } from '../../nodes/shared/api/limit';
import { ACCOUNTING_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { until, useFakeClock } from '../tools/fake-timers';
import type { OrganizationRateLimit } from '../../emulator/limits';
import type { RecordedRequest } from '../../emulator/server';
import { apiClient } from '../../emulator/server';
import type { RunResult } from '../../harness';
import { byId, expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const MINUTE = ACCOUNTING_RULE.windowMs;
const LIMIT = ACCOUNTING_RULE.limit;
/** The emulator's limit: read on every request, so a test may ask for Retry-After. */
const ENFORCED: OrganizationRateLimit = { limit: LIMIT, windowMs: MINUTE, retryAfter: false };
const SECOND_ORG = '600000002';

const env = useWorkflowEnv({ accountingRateLimit: ENFORCED });
const items = env.orgSteps('vendorBooks', { resource: 'item' });
let itemId: string;
let secondOrgItem: string;
/** The figure the shared set-up gave the credential, restored after these tests. */
let setUpFigure: unknown;

/** The credential's Accounting Requests per Minute (this n8n's share of the organization's limit). */
function setFigure(perMinute: unknown): void {
	const data = env.credentials[0].data;
	if (perMinute === undefined) delete data.accountingRequestsPerMinute;
	else data.accountingRequestsPerMinute = perMinute as number;
}

beforeAll(async () => {
	setUpFigure = env.credentials[0].data.accountingRequestsPerMinute;
	env.em.store.addOrg('us', SECOND_ORG, 'Second Org');
	itemId = String(
		(await env.call('POST', 'books', '/items', { json: { name: 'Paced', rate: 1 } })).body.item
			.item_id,
	);
	secondOrgItem = String(
		(
			await env.call('POST', 'books', '/items', {
				org: SECOND_ORG,
				json: { name: 'Paced too', rate: 1 },
			})
		).body.item.item_id,
	);
});
beforeEach(() => {
	setPacingRule(ACCOUNTING_RULE, 'accounting'); // fresh pacers
	setFigure(LIMIT);
	ENFORCED.retryAfter = false;
	env.em.resetRateLimits();
	env.em.clearRequests();
});
afterAll(() => setFigure(setUpFigure));

/**
 * Runs `start` on the test's clock: whenever no request is being sent (the run waits on a timer:
 * the pacer's window, a hold, a stop, or a freed slot handed on at the next turn), the clock
 * moves to the next timer, never past it. Returns what `start` returned and how long it took on
 * that clock.
 */
async function onTestClock<T>(start: () => Promise<T>): Promise<{ value: T; took: number }> {
	let sending = 0;
	const original = Limiter.prototype.run;
	const send = jest.spyOn(Limiter.prototype, 'run').mockImplementation(async function <R>(
		this: Limiter,
		task: () => Promise<R>,
		signal?: AbortSignal,
	): Promise<R> {
		const counted = async (): Promise<R> => {
			sending++;
			try {
				return await task();
			} finally {
				sending--;
			}
		};
		return await original.call<Limiter, [() => Promise<R>, AbortSignal | undefined], Promise<R>>(
			this,
			counted,
			signal,
		);
	});
	useFakeClock();
	try {
		const began = Date.now();
		let settled = false;
		const running = start().finally(() => (settled = true));
		while (!settled) {
			await until(() => settled || (sending === 0 && jest.getTimerCount() > 0));
			if (!settled) await jest.advanceTimersToNextTimerAsync();
		}
		return { value: await running, took: Date.now() - began };
	} finally {
		await jest.runOnlyPendingTimersAsync();
		jest.useRealTimers();
		send.mockRestore();
	}
}

const input = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
const get = (id = itemId, organizationId?: string) =>
	items('Get', {
		operation: 'get',
		item_id: byId(id),
		...(organizationId ? { organizationId } : {}),
	});

/** The requests of an organization as the server received them (arrival order). */
const ofOrg = (org = env.org) => env.apiRequests().filter((r) => r.query.organization_id === org);

/** Never more than `limit` requests arriving within any window, as the server counts. */
function expectWithinLimit(requests: RecordedRequest[], limit = LIMIT): void {
	const times = requests.map((r) => r.time);
	for (let i = limit; i < times.length; i++)
		expect(times[i] - times[i - limit]).toBeGreaterThanOrEqual(MINUTE);
}

const statuses = (requests: RecordedRequest[]) => requests.map((r) => r.status);

test("1,000 items of Item → Get against 100 a minute: 0 429s, never more than 100 within a minute, at most 1.1x the limit's minimum (10 minutes) on the test's clock", async () => {
	const n = 1000;
	const { value: result, took } = await onTestClock(async () => await env.run([get()], input(n)));
	expectNoError(result);
	expect(json(result, 'Get')).toHaveLength(n);
	const requests = ofOrg();
	expect(requests).toHaveLength(n);
	expect(statuses(requests).filter((s) => s !== 200)).toEqual([]);
	expectWithinLimit(requests);
	const minimum = (n / LIMIT) * MINUTE;
	expect(took).toBeLessThanOrEqual(1.1 * minimum);
	// and it was paced, not merely lucky: the 901st request came 9 minutes after the first
	expect(requests[n - 1].time - requests[0].time).toBeGreaterThanOrEqual(9 * MINUTE);
}, 180_000);

test("two executions at once share their organization's figure: 0 429s, never more than 100 within a minute between them", async () => {
	const { value: runs, took } = await onTestClock(
		async () => await Promise.all([env.run([get()], input(150)), env.run([get()], input(150))]),
	);
	for (const result of runs) {
		expectNoError(result);
		expect(json(result, 'Get')).toHaveLength(150);
	}
	const requests = ofOrg();
	expect(requests).toHaveLength(300);
	expect(statuses(requests).filter((s) => s !== 200)).toEqual([]);
	expectWithinLimit(requests);
	// 300 requests at 100 a minute: the third hundred no sooner than two minutes after the first
	expect(took).toBeGreaterThanOrEqual(2 * MINUTE);
}, 120_000);

test("two organizations are paced apart: 150 items each at once take one minute's wait, not two", async () => {
	const { value: runs, took } = await onTestClock(
		async () =>
			await Promise.all([
				env.run([get()], input(150)),
				env.run([get(secondOrgItem, SECOND_ORG)], input(150)),
			]),
	);
	for (const result of runs) expectNoError(result);
	for (const org of [env.org, SECOND_ORG]) {
		const requests = ofOrg(org);
		expect(requests).toHaveLength(150);
		expect(statuses(requests).filter((s) => s !== 200)).toEqual([]);
		expectWithinLimit(requests);
	}
	expect(took).toBeGreaterThanOrEqual(MINUTE);
	expect(took).toBeLessThan(2 * MINUTE);
}, 120_000);

test("the credential's figure is what this n8n keeps to: at 30 a minute (main + 2 workers), 90 items need three minutes", async () => {
	setFigure(30);
	const { value: result, took } = await onTestClock(async () => await env.run([get()], input(90)));
	expectNoError(result);
	const requests = ofOrg();
	expect(requests).toHaveLength(90);
	expectWithinLimit(requests, 30);
	expect(took).toBeGreaterThanOrEqual(2 * MINUTE);
	expect(took).toBeLessThan(3 * MINUTE);
}, 120_000);

/** How long before the run another client used up the organization's minute. */
const USED_BEFORE_MS = 45_000;

/** Another client of the organization uses up the minute (direct calls with the same organization), `USED_BEFORE_MS` before the run. */
async function anotherClientUsesTheMinute(): Promise<void> {
	const call = apiClient(env.em, { token: String(env.storedToken.access_token) });
	for (let i = 0; i < LIMIT; i++)
		expect((await call('GET', 'books', `/items/${itemId}`)).status).toBe(200);
	expect((await call('GET', 'books', `/items/${itemId}`)).status).toBe(429);
	env.em.clearRequests();
	jest.setSystemTime(Date.now() + USED_BEFORE_MS);
}

test.each([
	['without Retry-After: held a whole minute', false],
	["with Retry-After: held as long as it says (the 15 s left of the other client's minute)", true],
])(
	"a 429 (another client used the minute) holds the organization's requests, then every item completes without an error: %s",
	async (_label, retryAfter) => {
		ENFORCED.retryAfter = retryAfter;
		const { value: result, took } = await onTestClock(async () => {
			await anotherClientUsesTheMinute();
			return await env.run([get()], input(150));
		});
		expectNoError(result);
		const out = json(result, 'Get');
		expect(out).toHaveLength(150);
		expect(out.every((o) => o.item_id === itemId && o.error === undefined)).toBe(true);
		const requests = ofOrg();
		const refused = requests.filter((r) => r.status === 429);
		// requests are spaced, never a burst: only the one sent when the minute ran out met it; then none
		expect(refused).toHaveLength(1);
		const firstAnswered = requests.findIndex((r) => r.status === 200);
		expect(statuses(requests.slice(firstAnswered)).filter((s) => s !== 200)).toEqual([]);
		expect(requests.filter((r) => r.status === 200)).toHaveLength(150);
		// held until the minute allowed again, no request in between: as long as Retry-After said, else a whole minute
		const held = requests[firstAnswered].time - refused[refused.length - 1].time;
		if (retryAfter) expect(held).toBe(MINUTE - USED_BEFORE_MS);
		else expect(held).toBe(MINUTE);
		expectWithinLimit(requests.slice(firstAnswered));
		// the other client's 45 s, the hold (at most a minute), then 150 requests at a pace lowered to 85 a minute and
		// rising (about 105 s, where the previous bursts took 90 s)
		expect(took).toBeLessThan(USED_BEFORE_MS + MINUTE + 110_000);
	},
	120_000,
);

test('a write answered 429 was not processed: it is sent again after the wait, and each record is created once', async () => {
	const create = items('Create', {
		operation: 'create',
		name: '={{ "Held " + $json.i }}',
		rate: 1,
	});
	const before = env.orgTenant().all('items').length;
	const { value: result } = await onTestClock(async () => {
		await anotherClientUsesTheMinute();
		return await env.run([create], input(5));
	});
	expectNoError(result);
	expect(json(result, 'Create').map((o) => o.name)).toEqual([
		'Held 0',
		'Held 1',
		'Held 2',
		'Held 3',
		'Held 4',
	]);
	const posts = ofOrg().filter((r) => r.method === 'POST');
	expect(posts.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);
	expect(posts.filter((r) => r.status === 201 || r.status === 200)).toHaveLength(5);
	const names = env
		.orgTenant()
		.all('items')
		.slice(before)
		.map((r) => (r as IDataObject).name);
	expect(names.sort()).toEqual(['Held 0', 'Held 1', 'Held 2', 'Held 3', 'Held 4']);
}, 120_000);

test('a stop during the hold ends the run at once, without sending anything more', async () => {
	const { value: result, took } = await onTestClock(async (): Promise<RunResult> => {
		await anotherClientUsesTheMinute();
		return await env.run([get()], input(20), { timeoutMs: 5000 });
	});
	expect(['canceled', 'error']).toContain(result.run.status);
	expect(statuses(ofOrg()).every((s) => s === 429)).toBe(true);
	expect(took).toBeLessThan(MINUTE);
}, 120_000);

test("a service that keeps refusing is not waited on for ever: after holds adding up to 5 minutes the item fails with the API's 429 (continue-on-fail: an error item)", async () => {
	env.em.faults.next(20, { kind: 'status', status: 429 }, 'books');
	try {
		const { value: result, took } = await onTestClock(
			async () =>
				await env.run([
					items(
						'Get',
						{ operation: 'get', item_id: byId(itemId) },
						{ onError: 'continueRegularOutput' },
					),
				]),
		);
		const out = json(result, 'Get');
		expect(out).toHaveLength(1);
		expect(JSON.stringify(out[0])).toMatch(/too many requests/i);
		// the first refusal and one after each of 5 whole-minute holds
		expect(statuses(ofOrg())).toEqual(Array(6).fill(429));
		expect(took).toBe(5 * MINUTE);
	} finally {
		env.em.faults.clear();
	}
}, 120_000);
