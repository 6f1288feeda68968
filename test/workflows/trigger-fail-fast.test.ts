/**
 * The poll at activation ends quickly whatever the service answers: n8n gives the
 * activation a deadline (n8n 2.41: 84 s for a workflow's publication), so every trigger event
 * (generated from the five trigger nodes' events tables), activated through n8n-core's own
 * ActiveWorkflows while every call is answered 429 without Retry-After, 429 with Retry-After 60
 * or 503, returns within 30 s of simulated time, keeps the workflow active with its poll
 * scheduled, and says so in n8n's log. A hold learned there still applies to the next poll.
 *
 * Time: n8n's clock and timers are fake (test/tools/fake-timers.ts `useFakeClock`): the test
 * moves them half a second at a time until the activation settles, so a wait the poll made
 * would show as simulated time, however fast the machine runs. The emulator's clock stands still.
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { Clock } from '../../emulator/clock';
import type { Fault } from '../../emulator/faults';
import { activateTrigger, type ActiveTrigger } from '../../harness/activation';
import { Container } from '../../harness/setup';
import { useFakeClock } from '../tools/fake-timers';
import { TRIGGER_TABLES } from '../tools/trigger-tables';
import { resetPacers } from '../tools/pacers';
import { byId, vendorNode } from '../../harness/workflows';
import { WorkflowEnv } from './support';

const env = new WorkflowEnv();
const clock = new Clock({ start: Date.parse('2026-03-02T09:00:00Z') });
const warn = jest.spyOn(Container.get(Logger), 'warn');

/** The longest the poll at activation may take, of simulated time (n8n 2.41's deadline is 84 s). */
const DEADLINE_MS = 30_000;
/** How long the test lets simulated time run before it gives up on the activation. */
const GIVE_UP_MS = 5 * 60_000;

/** Every event of every trigger node, from the events tables, with the parameters a user must give. */

interface EventUnderTest {
	trigger: string;
	event: string;
	type: new () => INodeType;
	parameters: () => IDataObject;
}

function eventsUnderTest(): EventUnderTest[] {
	return TRIGGER_TABLES.flatMap(({ type, events }) => {
		const description = new type().description;
		const takes = (name: string) => description.properties.some((p) => p.name === name);
		return events.flatMap((e) => {
			const parameters = () => ({
				event: e.value,
				...(takes('organizationId') ? { organizationId: env.org } : {}),
				...(takes('portal_id') ? { portal_id: byId(env.portal) } : {}),
				...(e.status ? { status: e.status.values[0] } : {}),
			});
			const one = { trigger: description.displayName, event: e.name, type, parameters };
			// a date window reads once a day of it: the same answer to every call
			return e.window
				? [
						one,
						{
							...one,
							event: `${e.name}, ${e.window.label} = 3`,
							parameters: () => ({ ...parameters(), windowDays: 3 }),
						},
					]
				: [one];
		});
	});
}

const ANSWERS: Array<{ answer: string; fault: Fault }> = [
	{ answer: '429 without Retry-After', fault: { kind: 'status', status: 429 } },
	{ answer: '429 with Retry-After 60', fault: { kind: 'status', status: 429, retryAfter: 60 } },
	{ answer: '503', fault: { kind: 'status', status: 503 } },
];

const CASES = eventsUnderTest().flatMap((e) => ANSWERS.map((a) => ({ ...e, ...a })));

const active: ActiveTrigger[] = [];

beforeAll(async () => {
	await env.start({ demo: true, clock });
});
afterAll(async () => {
	await env.stop();
});
beforeEach(() => {
	useFakeClock();
	resetPacers();
	env.em.faults.clear();
	env.em.clearRequests();
	warn.mockClear();
});
afterEach(async () => {
	for (const trigger of active.splice(0)) await trigger.deactivate();
	// the Timeout watcher's wait ends, so that it sees it has nothing left to do
	await jest.runOnlyPendingTimersAsync();
	jest.useRealTimers();
	resetPacers();
});

/** Activates while every API call gets `fault`; moves the fake time until the activation settles. Returns the simulated time it took. */
async function activateAgainst(
	c: (typeof CASES)[number],
): Promise<{ trigger: ActiveTrigger; tookMs: number }> {
	env.em.faults.next(1_000, c.fault, (r) => r.area !== 'accounts');
	let trigger: ActiveTrigger | undefined;
	let failure: unknown;
	const activating = activateTrigger({
		nodeType: c.type,
		node: vendorNode(c.type, c.parameters(), 'Trigger'),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
	}).then(
		(t) => void (trigger = t),
		(error: unknown) => void (failure = error),
	);
	let tookMs = 0;
	while (!trigger && !failure && tookMs < GIVE_UP_MS) {
		await jest.advanceTimersByTimeAsync(500);
		tookMs += 500;
	}
	if (!trigger && !failure)
		throw new Error(
			`the activation had not settled after ${GIVE_UP_MS / 1000} s of simulated time`,
		);
	await activating;
	if (failure) throw failure;
	active.push(trigger as ActiveTrigger);
	return { trigger: trigger as ActiveTrigger, tookMs };
}

test.each(CASES)(
	'$trigger, $event, every call answered $answer: the activation returns within 30 s and keeps the trigger',
	async (c) => {
		const { trigger, tookMs } = await activateAgainst(c);
		expect(tookMs).toBeLessThanOrEqual(DEADLINE_MS);
		expect(trigger.isActive()).toBe(true);
		expect(trigger.scheduled).toBe(1);
		expect(trigger.emitted).toEqual([]);
		// one call, not retried nor sent again after a hold
		expect(env.apiRequests().length).toBeLessThanOrEqual(1);
		expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
			expect.stringMatching(
				/^The first poll of "Trigger" at the activation of workflow ".*" did not succeed: .*The workflow stays active/,
			),
		]);
		// the pending state: when activation began, on the service's clock
		expect((trigger.staticData()['node:Trigger'] as IDataObject).vendorPoll).toMatchObject({
			since: Math.floor(clock.now() / 1000) * 1000,
		});
	},
);

test('a hold learned at activation applies to the next polls: a 429 with Retry-After 60 at activation; the scheduled poll 10 s later sends nothing (the hold ends past its 30 s deadline), the poll after the hold sends', async () => {
	const books = CASES.find(
		(c) => c.event === 'Invoice Created' && c.answer === '429 with Retry-After 60',
	) as (typeof CASES)[number];
	const activatedAt = Date.now();
	const { trigger } = await activateAgainst(books);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	const pending = (trigger.staticData()['node:Trigger'] as IDataObject).vendorPoll;
	env.em.faults.clear();
	/** Runs a scheduled poll, moving the fake time until it is done; the simulated time it took. */
	const pollNow = async (): Promise<number> => {
		let polled = false;
		const polling = trigger.poll().then(() => void (polled = true));
		let tookMs = 0;
		while (!polled) {
			await jest.advanceTimersByTimeAsync(500);
			tookMs += 500;
		}
		await polling;
		return tookMs;
	};
	await jest.advanceTimersByTimeAsync(10_000);
	// a wait that would end past the poll's deadline is not waited: a transient failure at once, no call, the state as it was
	expect(await pollNow()).toBeLessThanOrEqual(1_000);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	expect(trigger.errors.map((e) => e.message)).toEqual([
		expect.stringMatching(/holds further requests until/),
	]);
	expect((trigger.staticData()['node:Trigger'] as IDataObject).vendorPoll).toEqual(pending);
	await jest.advanceTimersByTimeAsync(60_000 - (Date.now() - activatedAt) + 1_000);
	await pollNow();
	expect(env.apiRequests().map((r) => r.status)).toEqual([429, 200]);
	expect(Date.now() - activatedAt).toBeGreaterThanOrEqual(60_000);
	expect(trigger.errors).toHaveLength(1);
});
