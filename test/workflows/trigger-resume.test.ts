/**
 * A read of a whole list that does not fit one poll goes on at the next. For every event read
 * in full (`scan` and `changed` in the five trigger nodes' events tables, the date window left
 * out: it reads a day at a time), on an account of 10,000 records of each kind whose service
 * answers each page in 3 s (so a poll's 30 s deadline reads about ten of the 50 pages), activated
 * through n8n-core's own ActiveWorkflows and polled every minute on the same poll context: the
 * baseline and every later pass take several polls; records made meanwhile (one a minute, and for
 * the events whose time field says when, also while the baseline is read) are each emitted once,
 * by the poll that reads them; a record deleted from an early page every few minutes (the pages
 * shift under the pass) makes no old record be emitted; the cost the poll keeps is one poll's
 * calls, and the state says how many polls a full read takes.
 *
 * Time: n8n's clock and timers are fake (`useFakeClock`), the emulator's clock follows n8n's (a
 * real-time Clock reads the faked `Date.now()`) and its slow answers are timers of the test's
 * process, so a poll's deadline passes as simulated time.
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import type { TriggerEvent } from '../../nodes/shared/poll/event';
import { Clock } from '../../emulator/clock';
import type { Tenant } from '../../emulator/store';
import { pollOnce } from '../../harness';
import { activateTrigger, type ActiveTrigger } from '../../harness/activation';
import { Container } from '../../harness/setup';
import { useFakeClock } from '../tools/fake-timers';
import { resetPacers } from '../tools/pacers';
import { TRIGGER_TABLES } from '../tools/trigger-tables';
import { vendorNode } from '../../harness/workflows';
import { WorkflowEnv } from './support';
import { type Account, seedAccount } from '../../emulator/seed';
import { type EventCase, eventCases } from '../../harness/trigger-events';
import { changeOf, withIds } from './trigger-accounts';

const N = 10_000;
const env = new WorkflowEnv();
const clock = new Clock({ realTime: true });
let account: Account;
const info = jest.spyOn(Container.get(Logger), 'info');

interface ResumeCase extends EventCase {
	event: TriggerEvent;
}

/** Every event read in full (or, `newest`, newest first), from the events tables, with its change (harness/trigger-events.ts). */
function eventsUnderTest(newest = false): ResumeCase[] {
	const cases = eventCases('{org}', '{portal}');
	return TRIGGER_TABLES.flatMap(({ type, events }) =>
		events
			.filter((e) => (e.strategy === 'newest') === newest)
			.flatMap((e) => {
				const mine = cases.filter(
					(c) => c.nodeType === type && c.parameters.event === e.value && !c.parameters.windowDays,
				);
				if (!mine.length)
					throw new Error(
						`no change for ${new type().description.displayName}: ${e.name} in harness/trigger-events.ts`,
					);
				return mine.map((c) => ({ ...c, event: e }));
			}),
	);
}

const CASES = eventsUnderTest();
const NEWEST = eventsUnderTest(true);

/** The store and collection an event lists, and which of its records it lists. */
function listOf(c: ResumeCase): {
	tenant: Tenant;
	collection: string;
	idField: string;
	listed: (r: IDataObject) => boolean;
} {
	const status = c.parameters.status as string | undefined;
	const listed = (r: IDataObject) => status === undefined || r.status === status;
	const collection = (
		{
			estimateCreated: 'estimates',
			invoiceCreated: 'invoices',
			estimateStatusChanged: 'estimates',
			invoiceStatusChanged: 'invoices',
			itemCreated: 'items',
			paymentRecorded: 'customerpayments',
			billCreated: 'bills',
			projectCreated: 'projects',
			projectUpdated: 'projects',
		} as Record<string, string>
	)[String(c.parameters.event)];
	if (!collection) throw new Error(`no collection for ${c.label}`);
	return {
		tenant: c.parameters.portal_id ? account.portal : account.org,
		collection,
		idField: c.idField,
		listed,
	};
}

/** Deletes the first listed record of the event's list that the test did not make (its page and those after shift by one). */
function deleteEarly(c: ResumeCase, keep: Set<string>): void {
	const { tenant, collection, idField, listed } = listOf(c);
	const record = tenant
		.all(collection)
		.find((r) => listed(r as IDataObject) && !keep.has(String(r[idField])));
	if (record) tenant.remove(collection, String(record[idField]));
}

const active: ActiveTrigger[] = [];
let lastNow = 0;

beforeAll(async () => {
	await env.start({ clock });
	account = { store: env.em.store, clock, org: env.orgTenant(), portal: env.portalTenant() };
	seedAccount(account, N);
});
afterAll(async () => {
	await env.stop();
});
beforeEach(() => {
	info.mockClear();
	useFakeClock();
	jest.setSystemTime(Math.max(Date.now(), lastNow + 60_000));
	resetPacers();
	env.em.faults.clear();
	// every page answered in 3 s: a poll's 30 s read about ten pages
	env.em.faults.next(1_000_000, { kind: 'hang', ms: 3_000 }, (r) => r.area !== 'accounts');
});
afterEach(async () => {
	env.em.faults.clear();
	for (const trigger of active.splice(0)) await trigger.deactivate();
	await jest.runOnlyPendingTimersAsync();
	lastNow = Date.now();
	jest.useRealTimers();
	resetPacers();
});

/** Runs `work` while moving the fake time a second at a time until it settles (at most `limitMs`). */
async function settle<T>(work: Promise<T>, limitMs = 5 * 60_000): Promise<T> {
	let done = false;
	const watched = work.finally(() => void (done = true));
	for (let ms = 0; !done && ms < limitMs; ms += 1_000) await jest.advanceTimersByTimeAsync(1_000);
	return await watched;
}

const stateOf = (trigger: ActiveTrigger) =>
	(trigger.staticData()['node:Trigger'] as IDataObject) ?? {};

test.each(CASES)(
	'$label over 10,000 records, a page every 3 s: every pass takes several polls, each new record is emitted once by the poll that reads it',
	async (c) => {
		const placed = !!c.event.timeField && c.event.timeField !== 'date';
		const change = changeOf(c, 100);
		const made: string[] = [];
		const made_ = new Set<string>();
		const make = () => {
			const id = change(account);
			made.push(id);
			made_.add(id);
		};
		const trigger = await settle(
			activateTrigger({
				nodeType: c.nodeType,
				node: vendorNode(c.nodeType, withIds(c.parameters, env), 'Trigger'),
				credentials: env.credentials,
				credentialTypes: [VendorOAuth2Api],
			}),
		);
		active.push(trigger);
		expect(trigger.isActive()).toBe(true);
		// the poll at activation stopped at its deadline: the baseline goes on at the next polls
		expect((stateOf(trigger).vendorPoll as IDataObject).pass).toBeDefined();
		let polls = 0;
		const minute = async () => {
			await jest.advanceTimersByTimeAsync(1_000);
			const started = Date.now();
			await settle(trigger.poll());
			polls++;
			// a poll ends soon after its deadline
			expect(Date.now() - started).toBeLessThanOrEqual(45_000);
			await jest.advanceTimersByTimeAsync(Math.max(0, 60_000 - (Date.now() - started)));
		};
		// the baseline pass: records placed by their time are new from when it began
		while ((stateOf(trigger).vendorPoll as IDataObject).pass) {
			if (placed) make();
			await minute();
			expect(polls).toBeLessThan(20);
		}
		const baselinePolls = polls;
		expect(baselinePolls).toBeGreaterThanOrEqual(1);
		// two passes and more with a record a minute, and an early record deleted every third minute
		for (let i = 0; i < 12; i++) {
			make();
			if (i % 3 === 1) deleteEarly(c, made_);
			await minute();
		}
		// no change until a whole pass has read everything
		let passes = 0;
		let wasInPass = !!(stateOf(trigger).vendorPoll as IDataObject).pass;
		for (let i = 0; i < 30 && passes < 2; i++) {
			await minute();
			const inPass = !!(stateOf(trigger).vendorPoll as IDataObject).pass;
			if (wasInPass && !inPass) passes++;
			wasInPass = inPass;
		}
		expect(passes).toBe(2);

		const emitted = trigger.emitted.flatMap((run) =>
			run[0].map((item) => String(item.json[c.idField])),
		);
		expect([...emitted].sort()).toEqual([...made].sort());
		expect(trigger.errors).toEqual([]);
		const budget = stateOf(trigger).vendorBudget as IDataObject;
		// a full read takes several polls, and the cost kept is one poll's (about ten pages), not a pass's
		expect(budget.passPolls).toBeGreaterThan(1);
		expect(budget.cost).toBeLessThan(20);
		// n8n's log and Fetch Test Event say how many polls a full read takes
		expect(info.mock.calls.map((call) => String(call[0]))).toContainEqual(
			expect.stringMatching(/took \d+ polls to read its list through/),
		);
		const test = await settle(
			pollOnce({
				nodeType: c.nodeType,
				node: vendorNode(c.nodeType, withIds(c.parameters, env), 'Trigger'),
				credentials: env.credentials,
				credentialTypes: [VendorOAuth2Api],
				staticData: trigger.staticData(),
				mode: 'manual',
			}),
		);
		const cost = (test.items?.[0]?.[0]?.json as IDataObject | undefined)?._pollCost as
			| IDataObject
			| undefined;
		expect(cost).toMatchObject({
			callsPerPoll: budget.cost,
			pollsPerPass: budget.passPolls,
			summary: expect.stringMatching(/A full read of the list takes \d+ polls/),
		});
	},
);

test.each(NEWEST)(
	'$label after a pause in which 12,000 records were made, a page every 3 s: the read goes on over several polls down to the cursor, each new record emitted once',
	async (c) => {
		const made: string[] = [];
		const trigger = await settle(
			activateTrigger({
				nodeType: c.nodeType,
				node: vendorNode(c.nodeType, withIds(c.parameters, env), 'Trigger'),
				credentials: env.credentials,
				credentialTypes: [VendorOAuth2Api],
			}),
		);
		active.push(trigger);
		const minute = async () => {
			await jest.advanceTimersByTimeAsync(1_000);
			const started = Date.now();
			await settle(trigger.poll());
			expect(Date.now() - started).toBeLessThanOrEqual(45_000);
			await jest.advanceTimersByTimeAsync(Math.max(0, 60_000 - (Date.now() - started)));
		};
		await minute();
		expect(trigger.emitted).toEqual([]);
		// a pause of 30 minutes (the workflow's polls did not run), 12,000 records made in it, several in each second
		const pausedAt = Date.now();
		await jest.advanceTimersByTimeAsync(30 * 60_000);
		for (let i = 0; i < 12_000; i++) {
			const at = pausedAt + 1_000 + Math.floor((i * (29 * 60_000)) / 12_000);
			made.push(c.change({ ...account, clock: { now: () => at } as Clock }));
		}
		const emittedNow = () =>
			new Set(trigger.emitted.flatMap((run) => run[0].map((item) => String(item.json[c.idField]))));
		let polls = 0;
		await minute();
		// the read stopped at its deadline, before the cursor
		expect((stateOf(trigger).vendorPoll as IDataObject).pass).toBeDefined();
		// more records made while the read goes on, and a record already emitted deleted now and then (the pages shift)
		const { tenant, collection } =
			c.parameters.event === 'recordTrashed'
				? { tenant: account.portal, collection: '' }
				: listOf(c);
		while ((stateOf(trigger).vendorPoll as IDataObject).pass && polls < 20) {
			made.push(c.change(account));
			if (polls % 3 === 1 && collection) tenant.remove(collection, [...emittedNow()][0]);
			if (polls % 3 === 1 && !collection) tenant.bin.delete(`tasks:${[...emittedNow()][0]}`);
			await minute();
			polls++;
		}
		expect(polls).toBeGreaterThan(1);
		expect(polls).toBeLessThan(20);
		expect((stateOf(trigger).vendorBudget as IDataObject).passPolls).toBeGreaterThan(1);
		expect(info.mock.calls.map((call) => String(call[0]))).toContainEqual(
			expect.stringMatching(/took \d+ polls to read its list through/),
		);
		await minute();
		await minute();
		const emitted = trigger.emitted.flatMap((run) =>
			run[0].map((item) => String(item.json[c.idField])),
		);
		expect(emitted.length).toBe(new Set(emitted).size);
		expect([...emitted].sort()).toEqual([...made].sort());
		expect(trigger.errors).toEqual([]);
	},
);

/**
 * n8n's durable scheduler runs each poll on a new context, from the static data its database
 * holds, and saves that static data only at publication and when a poll emits: a quiet poll's
 * progress comes back lost. The package keeps its last state in the process too
 * (nodes/shared/poll/kept.ts), so a read of the whole list still ends over several polls and a
 * record made meanwhile is emitted once.
 */
test.each(CASES)(
	"$label over 10,000 records on n8n's durable scheduler (a quiet poll's state not saved): the read still ends and a new record is emitted once",
	async (c) => {
		const node = vendorNode(c.nodeType, withIds(c.parameters, env), 'Trigger');
		/** The workflow's static data as n8n's database holds it. */
		let saved: IDataObject = {};
		let latest: IDataObject = {};
		let polls = 0;
		const emitted: string[] = [];
		const poll = async () => {
			await jest.advanceTimersByTimeAsync(1_000);
			const started = Date.now();
			const result = await settle(
				pollOnce({
					nodeType: c.nodeType,
					node,
					credentials: env.credentials,
					credentialTypes: [VendorOAuth2Api],
					staticData: saved,
				}),
			);
			const items = result.items?.[0] ?? [];
			emitted.push(...items.map((item) => String(item.json[c.idField])));
			latest = result.staticData;
			// saved at publication (the first poll) and by a poll that emits
			if (polls === 0 || items.length) saved = result.staticData;
			polls++;
			await jest.advanceTimersByTimeAsync(Math.max(0, 60_000 - (Date.now() - started)));
		};
		const inPass = () =>
			!!((latest['node:Trigger'] as IDataObject | undefined)?.vendorPoll as IDataObject | undefined)
				?.pass;
		await poll();
		// the baseline took more than the first poll, and each later poll goes on from this process's state, not from the saved one
		expect(inPass()).toBe(true);
		while (inPass() && polls < 20) await poll();
		expect(polls).toBeGreaterThanOrEqual(2);
		expect(polls).toBeLessThan(20);
		const made = changeOf(c, 100)(account);
		for (let i = 0; i < 12 && !emitted.includes(made); i++) await poll();
		// and the polls after it emit it no more
		for (let i = 0; i < 4; i++) await poll();
		expect(emitted).toEqual([made]);
	},
);
