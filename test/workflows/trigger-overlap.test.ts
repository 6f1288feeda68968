/**
 * Polls that overlap, as n8n's cron makes them: it starts a trigger's poll at every tick of its
 * Poll Times whether or not the last poll has ended, with the same poll context. For every event
 * of the five trigger nodes (from their events tables), activated through n8n-core's own
 * ActiveWorkflows, the test starts a poll every 10 s without waiting for the last one while the
 * service answers 429 without Retry-After, 429 with Retry-After 20 (waited: inside the poll's
 * 30 s deadline), 503, or slowly (25 s an answer), a record made before every tick; then the
 * service answers again and two more ticks come. Each record is emitted exactly once, and the
 * cost the poll keeps (what spaces the polls and is logged) is never more than the calls of one
 * quiet poll: not its resends after a hold or a 5xx, nor another poll's calls. No poll takes more
 * than 45 s (n8n's durable scheduler's poll timeout) of simulated time.
 *
 * Time: n8n's clock and timers are fake (test/tools/fake-timers.ts `useFakeClock`), and the
 * emulator's clock follows n8n's (a real-time Clock reads the faked `Date.now()`); the test moves
 * them half a second at a time, so holds, backoffs and the slow answers pass as simulated time.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { isTransientFailure } from '../../nodes/shared/api/failureKinds';
import { markPoll } from '../../nodes/shared/poll/overlap';
import { Clock } from '../../emulator/clock';
import type { Fault } from '../../emulator/faults';
import { activateTrigger, type ActiveTrigger } from '../../harness/activation';
import { useFakeClock } from '../tools/fake-timers';
import { resetPacers } from '../tools/pacers';
import { TRIGGER_TABLES } from '../tools/trigger-tables';
import { vendorNode } from '../../harness/workflows';
import { WorkflowEnv } from './support';
import { type Account, seedAccount } from '../../emulator/seed';
import { type EventCase, eventCases } from '../../harness/trigger-events';
import { changeOf, withIds } from './trigger-accounts';

const env = new WorkflowEnv();
/** The service's clock: follows n8n's (fake) `Date.now()`. */
const clock = new Clock({ realTime: true });
let account: Account;

/** Every event of every trigger node, from the events tables, with its change (harness/trigger-events.ts); an event without one fails here. */
function eventsUnderTest(): Array<EventCase & { event: string }> {
	const cases = eventCases('{org}', '{portal}');
	return TRIGGER_TABLES.flatMap(({ type, events }) =>
		events.flatMap((e) => {
			const mine = cases.filter((c) => c.nodeType === type && c.parameters.event === e.value);
			if (!mine.length)
				throw new Error(
					`no change for ${new type().description.displayName}: ${e.name} in harness/trigger-events.ts`,
				);
			return mine.map((c) => ({ ...c, event: c.label }));
		}),
	);
}

const ANSWERS: Array<{ answer: string; fault: Fault }> = [
	{ answer: '429 without Retry-After', fault: { kind: 'status', status: 429 } },
	{ answer: '429 with Retry-After 20', fault: { kind: 'status', status: 429, retryAfter: 20 } },
	{ answer: '503', fault: { kind: 'status', status: 503 } },
	{ answer: 'slowly (25 s an answer)', fault: { kind: 'hang', ms: 25_000 } },
];

const CASES = eventsUnderTest().flatMap((e) => ANSWERS.map((a) => ({ ...e, ...a })));

const active: ActiveTrigger[] = [];

beforeAll(async () => {
	await env.start({ demo: true, clock });
	account = { store: env.em.store, clock, org: env.orgTenant(), portal: env.portalTenant() };
	// more than one page of every whole list (200 a page), so that a poll reads several pages
	seedAccount(account, 250);
});
afterAll(async () => {
	await env.stop();
});
/** Where the last case left the fake time: the next starts there (the records it made must stay in the past). */
let lastNow = 0;

beforeEach(() => {
	useFakeClock();
	jest.setSystemTime(Math.max(Date.now(), lastNow + 60_000));
	resetPacers();
	env.em.faults.clear();
	env.em.clearRequests();
});
afterEach(async () => {
	env.em.faults.clear();
	for (const trigger of active.splice(0)) await trigger.deactivate();
	await jest.runOnlyPendingTimersAsync();
	lastNow = Date.now();
	jest.useRealTimers();
	resetPacers();
});

/** Moves the fake time by `ms`, half a second at a time (the answers and waits in between run). */
async function pass(ms: number): Promise<void> {
	for (let left = ms; left > 0; left -= 500)
		await jest.advanceTimersByTimeAsync(Math.min(500, left));
}

/** Activates the case's trigger (no fault): its poll at activation takes the baseline. */
async function activate(c: (typeof CASES)[number]): Promise<ActiveTrigger> {
	let trigger: ActiveTrigger | undefined;
	let failure: unknown;
	const activating = activateTrigger({
		nodeType: c.nodeType,
		node: vendorNode(c.nodeType, withIds(c.parameters, env), 'Trigger'),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
	}).then(
		(t) => void (trigger = t),
		(error: unknown) => void (failure = error),
	);
	while (!trigger && !failure) await jest.advanceTimersByTimeAsync(500);
	await activating;
	if (failure) throw failure;
	active.push(trigger as ActiveTrigger);
	return trigger as ActiveTrigger;
}

const budgetOf = (trigger: ActiveTrigger) =>
	(trigger.staticData()['node:Trigger'] as IDataObject).vendorBudget as IDataObject;

test.each(CASES)(
	"$event, polls every 10 s on one poll context while the service answers $answer: each new record emitted once; the kept cost is one poll's calls",
	async (c) => {
		const trigger = await activate(c);
		const change = changeOf(c);
		// past n8n's first scheduled poll right after activation (skipped without a call)
		await pass(60_000);
		// a quiet poll: what one poll costs when the service answers
		env.em.clearRequests();
		await trigger.poll();
		const quiet = env.apiRequests().length;
		expect(trigger.emitted).toEqual([]);
		expect(budgetOf(trigger).cost).toBe(quiet);

		const made: string[] = [];
		const polls: Array<Promise<void>> = [];
		/** How long each poll took, in simulated time. */
		const took: number[] = [];
		const tick = async () => {
			await pass(1_000);
			made.push(change(account));
			await pass(1_000);
			// n8n's cron does not wait for the last poll
			const started = Date.now();
			polls.push(trigger.poll().finally(() => took.push(Date.now() - started)));
			await pass(8_000);
		};
		env.em.faults.next(1_000_000, c.fault, (r) => r.area !== 'accounts');
		for (let i = 0; i < 4; i++) await tick();
		env.em.faults.clear();
		// past any hold (a 429 without Retry-After blocks Vendor Projects for 30 minutes) and every poll still running
		await pass(
			c.fault.kind === 'status' && c.fault.status === 429 && c.parameters.portal_id
				? 31 * 60_000
				: 2 * 60_000,
		);
		// a poll that was held and then answered kept the cost of one poll, not of its resends (a read of the
		// whole list that stopped at its deadline after a page and goes on at the next poll: less)
		expect(budgetOf(trigger).cost).toBeGreaterThanOrEqual(1);
		expect(budgetOf(trigger).cost).toBeLessThanOrEqual(quiet);
		for (let i = 0; i < 2; i++) await tick();
		await pass(60_000);
		await Promise.all(polls);

		const emitted = trigger.emitted.flatMap((run) =>
			run[0].map((item) => String(item.json[c.idField])),
		);
		expect([...emitted].sort()).toEqual([...made].sort());
		// no poll outlasts n8n's durable scheduler's poll timeout (45 s): none waits past its 30 s deadline
		expect(Math.max(...took)).toBeLessThanOrEqual(45_000);
		expect(budgetOf(trigger).cost).toBe(quiet);
		// every failure was a transient one of the service's (an error execution each; the state kept)
		for (const error of trigger.errors)
			expect([error.message, isTransientFailure(error)]).toEqual([error.message, true]);
	},
);

describe('the mark of a running poll', () => {
	const contextOf = (workflowId: string, nodeId: string) =>
		({
			getNode: () => ({ id: nodeId, name: 'Trigger' }),
			getWorkflow: () => ({ id: workflowId, name: 'W' }),
		}) as unknown as IPollFunctions;

	test('is one per workflow node (two poll contexts of it, as after a re-activation, share it), goes when released and lapses after its hold', () => {
		const first = markPoll(contextOf('w1', 'n1'), 10_000);
		expect(first).toBeDefined();
		// another context of the same node: refused; another node or workflow: its own
		expect(markPoll(contextOf('w1', 'n1'), 10_000)).toBeUndefined();
		const other = markPoll(contextOf('w1', 'n2'), 10_000);
		expect(other).toBeDefined();
		other?.release();
		first?.release();
		const again = markPoll(contextOf('w1', 'n1'), 10_000);
		expect(again).toBeDefined();
		// a poll that never settles: its mark lapses once its hold has passed without a page read
		jest.setSystemTime(Date.now() + 9_000);
		again?.renew();
		jest.setSystemTime(Date.now() + 9_000);
		expect(markPoll(contextOf('w1', 'n1'), 10_000)).toBeUndefined();
		jest.setSystemTime(Date.now() + 1_001);
		const later = markPoll(contextOf('w1', 'n1'), 10_000);
		expect(later).toBeDefined();
		// the lapsed poll's release leaves the new mark alone
		again?.release();
		expect(markPoll(contextOf('w1', 'n1'), 10_000)).toBeUndefined();
		later?.release();
	});

	test('a poll that fails releases it: after a refused poll (an error execution), the next tick polls', async () => {
		const c = CASES.find((k) => k.event === 'Books: Invoice Created') as (typeof CASES)[number];
		const trigger = await activate(c);
		await pass(60_000);
		env.em.faults.next(1, { kind: 'html', status: 400 }, (r) => r.area !== 'accounts');
		env.em.clearRequests();
		await trigger.poll();
		expect(trigger.errors).toHaveLength(1);
		await trigger.poll();
		expect(env.apiRequests().map((r) => r.status)).toEqual([400, 200]);
		expect(trigger.errors).toHaveLength(1);
	});
});
