/**
 * What the polling triggers cost, within the budget they are given: calls per quiet poll on an
 * account with 10,000 records of each kind, the opt-in date window of Payment Recorded, the daily
 * budget over a simulated day of every-minute polls, a guessed sort that the server ignores, and
 * what the log and Fetch Test Event say about the cost.
 *
 * Time: n8n's clock (Date, faked; timers stay real) and the emulator's clock move together,
 * only when a test says so (`later`). Counts come from the requests the emulator received.
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { setPacingRule, ACCOUNTING_RULE, DOCUMENTED_RULE } from '../../nodes/shared/api/pacing';
import { DEFAULT_MAX_CALLS_PER_DAY } from '../../nodes/shared/poll/budget';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { Clock } from '../../emulator/clock';
import { RULES } from '../../emulator/rules';
import type { Reply } from '../../emulator/rules/context';
import { day, timestampMs } from '../../emulator/rules/formats';
import { Container } from '../../harness/setup';
import { PolledTrigger, WorkflowEnv } from './support';
import { type Account, seedAccount } from '../../emulator/seed';
import { type EventCase, eventCases, localDay } from '../../harness/trigger-events';

const N = 10_000;
/** Noon UTC: the same date in the workflow's time zone as in UTC. */
const T0 = Date.parse('2026-03-02T12:00:00Z');
const env = new WorkflowEnv();
const clock = new Clock({ start: T0 });
let account: Account;
const warn = jest.spyOn(Container.get(Logger), 'warn');

/** Moves n8n's clock and the emulator's together. */
function later(ms: number): void {
	clock.advance(ms);
	jest.setSystemTime(clock.now());
}

const REAL = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

beforeAll(async () => {
	// only Date is faked; no pacing in the way (the budget is what is tested)
	jest.useFakeTimers({ now: T0, doNotFake: [...REAL] });
	setPacingRule({ limit: 1_000_000, windowMs: 60_000 }, 'accounting');
	setPacingRule({ limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 });
	await env.start({ clock, rateLimit: { limit: 1_000_000_000, windowMs: 120_000, blockMs: 1 } });
	account = { store: env.em.store, clock, org: env.orgTenant(), portal: env.portalTenant() };
	seedAccount(account, N);
});
afterAll(async () => {
	await env.stop();
	setPacingRule(ACCOUNTING_RULE, 'accounting');
	setPacingRule(DOCUMENTED_RULE);
	jest.useRealTimers();
});

interface Poll {
	ids: string[];
	items: IDataObject[];
	calls: number;
}

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const { commonPollingParameters } = require('n8n-core/dist/nodes-loader/constants') as {
	commonPollingParameters: INodeProperties[];
};

/** The node type with n8n's "Poll Times" parameter, as n8n's loader hands a polling node to the engine. */
function withPollTimes(Type: new () => INodeType): new () => INodeType {
	return class extends Type {
		description: INodeTypeDescription = {
			...this.description,
			properties: [...commonPollingParameters, ...this.description.properties],
		};
	};
}

/** A trigger node (with n8n's Poll Times) in a workflow; each poll runs with the static data the previous one left. */
class Trigger extends PolledTrigger {
	constructor(
		type: new () => INodeType,
		parameters: IDataObject,
		private readonly idField: string,
	) {
		super(env, withPollTimes(type), parameters);
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<Poll> {
		const { items, calls } = await this.pollTrigger(mode);
		return { items, ids: items.map((i) => String(i[this.idField])), calls: calls.length };
	}

	budget(): IDataObject {
		return (this.staticData['node:Trigger'] as IDataObject).vendorBudget as IDataObject;
	}
}

/** The event case of that label. */
function caseOf(label: string, org = env.org): EventCase {
	const found = eventCases(org, env.portal).find((c) => c.label === label);
	if (!found) throw new Error(`no case ${label}`);
	return found;
}

/** No budget in the way of a measurement. */
const UNLIMITED = { maxCallsPerDay: 100_000_000 };

describe('calls per poll at N = 10,000 records of each kind', () => {
	/** Pages of 200 of what the event must compare. */
	const pages = (records: number) => Math.ceil(records / 200);
	const QUIET: Record<string, number> = {
		'Books: Estimate Created': 1,
		'Books: Invoice Created': 1,
		'Billing: Billing Project Created': 1,
		'Projects: Record Moved to Trash': 1,
		// no documented sort by modification time: the records in that status (a quarter)
		'Books: Estimate Status Changed (accepted)': pages(N / 4),
		'Books: Invoice Status Changed (overdue)': pages(N / 4),
		// no documented sort at all: every record
		'Books: Item Created': pages(N),
		'Payments: Payment Recorded': pages(N),
		'Purchase Bills: Bill Created': pages(N),
		// every project (the answer's page_info.has_next_page says where the list ends), as many as there are now
		'Projects: Project Created': -1,
		'Projects: Project Updated': -1,
		// the payments dated today
		'Payments: Payment Recorded, dated within the last 1 day': 1,
	};

	test.each(Object.keys(QUIET))(
		'%s: the quiet poll, then one change found and emitted once',
		async (label) => {
			const event = caseOf(label);
			const trigger = new Trigger(
				event.nodeType,
				{ ...event.parameters, ...UNLIMITED },
				event.idField,
			);
			later(1000);
			expect((await trigger.poll()).ids).toEqual([]);
			later(60_000);
			const quiet = await trigger.poll();
			const cost =
				QUIET[label] === -1 ? pages(account.portal.all('projects').length) : QUIET[label];
			expect([quiet.ids, quiet.calls]).toEqual([[], cost]);
			later(1000);
			const changed = event.change(account);
			const next = await trigger.poll();
			expect(next.ids).toEqual([changed]);
			expect(next.calls).toBeLessThanOrEqual(cost + 1);
			later(60_000);
			expect((await trigger.poll()).ids).toEqual([]);
		},
	);

	test('Payment Recorded dated within the last day: across midnight the day before is read once more (2 calls), and a payment dated earlier is never emitted', async () => {
		const event = caseOf('Payments: Payment Recorded, dated within the last 1 day');
		const trigger = new Trigger(
			VendorInvoiceTrigger,
			{ ...event.parameters, ...UNLIMITED },
			'payment_id',
		);
		const put = (date: string) => {
			const id = env.em.store.nextId();
			account.org.put('customerpayments', id, {
				payment_id: id,
				payment_number: `P-${id}`,
				date,
				payment_mode: 'cash',
				amount: 1,
			});
			return id;
		};
		// the next midnight in the workflow's time zone
		const today = localDay(clock.now());
		let midnight = clock.now();
		while (localDay(midnight) === today) midnight += 60_000;
		later(midnight - 5 * 60_000 - clock.now());
		await trigger.poll();
		later(2 * 60_000);
		// 23:57: one dated today, one dated last week (entered late)
		const dated = put(today);
		const backdated = put(day(Date.parse(`${today}T12:00:00Z`), -7));
		later(6 * 60_000);
		// 00:03 the next day: the day before and today, one call each
		const after = await trigger.poll();
		expect([after.ids, after.calls]).toEqual([[dated], 2]);
		expect(after.ids).not.toContain(backdated);
		const next = await trigger.poll();
		expect([next.ids, next.calls]).toEqual([[], 1]);
		const tomorrow = put(localDay(clock.now()));
		expect((await trigger.poll()).ids).toEqual([tomorrow]);
	});
});

describe('a guessed sort that the server ignores is noticed in the answer: the poll reads every page and misses nothing', () => {
	const LIST = 'books.estimate.getAll';
	const original = RULES[LIST];
	const handle = original.handle as NonNullable<typeof original.handle>;
	afterEach(() => {
		RULES[LIST] = original;
	});

	/** The estimate list as a server that ignores the sort answers it; `answer` may change the page's `page_context`. */
	function ignoreSort(
		order: (records: IDataObject[]) => IDataObject[],
		answer: (context: IDataObject) => void,
	): void {
		RULES[LIST] = {
			handle: (ctx) => {
				const query = { ...ctx.query };
				delete query.sort_column;
				delete query.sort_order;
				const all = handle({ ...ctx, query: { ...query, page: '1', per_page: '1000000' } });
				const records = order(((all.json as IDataObject).estimates as IDataObject[]) ?? []);
				const page = Number(ctx.query.page ?? 1);
				const size = Number(ctx.query.per_page ?? 200);
				const reply = handle({ ...ctx, query }) as Reply;
				const json = reply.json as IDataObject;
				json.estimates = records.slice((page - 1) * size, page * size);
				for (const context of json.page_context as IDataObject[]) {
					context.has_more_page = page * size < records.length;
					answer(context);
				}
				return reply;
			},
		};
	}

	async function missesNothing(): Promise<void> {
		const trigger = new Trigger(
			VendorBooksTrigger,
			{ organizationId: env.org, event: 'estimateCreated', ...UNLIMITED },
			'estimate_id',
		);
		later(1000);
		await trigger.poll();
		later(1000);
		const made = caseOf('Books: Estimate Created').change(account);
		const next = await trigger.poll();
		expect(next.ids).toEqual([made]);
		expect(next.calls).toBe(Math.ceil(account.org.all('estimates').length / 200));
		later(1000);
		const quiet = await trigger.poll();
		expect(quiet.ids).toEqual([]);
		expect(quiet.calls).toBe(Math.ceil(account.org.all('estimates').length / 200));
	}

	test('the server answers in its own order, newest first by date as it happens, the new estimate last, and says so (page_context sort_column "date"): the echo alone gives it away', async () => {
		// page 1 alone looks newest first by created_time: only the echoed sort column shows the order is another
		ignoreSort(
			(records) => [
				...records.filter((r) => !String(r.estimate_number).startsWith('EST-new')),
				...records.filter((r) => String(r.estimate_number).startsWith('EST-new')),
			],
			(context) => {
				context.sort_column = 'date';
				context.sort_order = 'D';
			},
		);
		await missesNothing();
	});

	test('the server answers oldest first and echoes no sort: the order of the records gives it away', async () => {
		ignoreSort(
			(records) =>
				[...records].sort((a, b) => String(a.created_time).localeCompare(String(b.created_time))),
			(context) => {
				delete context.sort_column;
				delete context.sort_order;
			},
		);
		await missesNothing();
	});
});

describe('a daily budget', () => {
	const MINUTE = 60_000;
	/** Bills on the account of the budget test: 50 pages of 200 for the whole day. */
	const BILLS = 9_950;

	test('Max API Calls per Day 1,000 on an account whose poll costs 50: a day of every-minute polls makes at most 1,000 calls, each bill made that day is emitted once', async () => {
		// an account of its own: only bills
		const store = env.em.store;
		const tenant = store.addOrg('us', '70000000001', 'Budget Org');
		const budgetAccount: Account = { store, clock, org: tenant, portal: account.portal };
		for (let i = 0; i < BILLS; i++) {
			const id = store.nextId();
			const created = timestampMs(clock.now() - (i + 1) * 1000);
			tenant.put('bills', id, {
				bill_id: id,
				bill_number: `B-${i}`,
				status: 'open',
				created_time: created,
				last_modified_time: created,
			});
		}
		const parameters = {
			organizationId: '70000000001',
			event: 'billCreated',
			maxCallsPerDay: 1000,
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		};
		const trigger = new Trigger(VendorInventoryTrigger, parameters, 'bill_id');
		const dayStart = Date.parse(`${day(clock.now(), 1)}T00:00:00Z`);
		later(dayStart - clock.now());

		const made: string[] = [];
		const emitted: string[] = [];
		let callsToday = 0;
		let polls = 0;
		for (let minute = 0; minute < 1440; minute++) {
			if (minute % 37 === 5)
				made.push(caseOf('Purchase Bills: Bill Created').change(budgetAccount));
			const poll = await trigger.poll();
			callsToday += poll.calls;
			if (poll.calls) polls++;
			expect([0, 50]).toContain(poll.calls);
			emitted.push(...poll.ids);
			later(MINUTE);
		}
		expect(callsToday).toBeLessThanOrEqual(1000);
		expect(polls).toBeGreaterThanOrEqual(19);
		// the next day: the first polls catch up on the end of the day
		for (let minute = 0; minute < 120; minute++) {
			emitted.push(...(await trigger.poll()).ids);
			later(MINUTE);
		}
		expect(emitted).toEqual(made);
		expect(trigger.budget()).toMatchObject({ cost: 50 });
		// the log said why: the cost, the poll times and the budget
		expect(warn.mock.calls.map(([message]) => String(message))).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/A poll costs 50 API calls .*every minute: 1,440 polls a day.* 72,000 calls a day, above its Max API Calls per Day \(1,000\)/,
				),
			]),
		);
	}, 120_000);

	test('a skipped poll makes no call, and the next real poll emits what was made meanwhile, once; the default budget is declared on every trigger', async () => {
		// 240 a day: 10 calls of credit an hour; a poll costs about 50
		const trigger = new Trigger(
			VendorInventoryTrigger,
			{ organizationId: env.org, event: 'billCreated', maxCallsPerDay: 240 },
			'bill_id',
		);
		const pages = () => Math.ceil(account.org.all('bills').length / 200);
		later(MINUTE);
		expect((await trigger.poll()).calls).toBe(pages());
		later(MINUTE);
		expect((await trigger.poll()).calls).toBe(0);
		const made = caseOf('Purchase Bills: Bill Created').change(account);
		later(5 * 60 * MINUTE);
		expect((await trigger.poll()).calls).toBe(0);
		later(5 * 60 * MINUTE);
		const next = await trigger.poll();
		expect([next.calls, next.ids]).toEqual([pages(), [made]]);
		later(MINUTE);
		expect((await trigger.poll()).calls).toBe(0);
		expect(trigger.budget()).toMatchObject({ cost: pages() });
		for (const T of [VendorBooksTrigger, VendorInvoiceTrigger, VendorInventoryTrigger]) {
			expect(new T().description.properties.find((p) => p.name === 'maxCallsPerDay')).toMatchObject(
				{
					displayName: 'Max API Calls per Day',
					type: 'number',
					default: DEFAULT_MAX_CALLS_PER_DAY,
				},
			);
		}
	});
});

describe('the cost is visible', () => {
	test('Fetch Test Event: the test item says what a poll costs (estimated from its one call, then as measured)', async () => {
		const parameters = {
			organizationId: env.org,
			event: 'billCreated',
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		};
		const trigger = new Trigger(VendorInventoryTrigger, parameters, 'bill_id');
		const test = await trigger.poll('manual');
		expect(test.calls).toBe(1);
		expect(test.items).toHaveLength(1);
		expect(test.items[0]._pollCost).toMatchObject({
			callsPerPoll: 2,
			atLeast: true,
			pollsPerDay: 1440,
			maxCallsPerDay: DEFAULT_MAX_CALLS_PER_DAY,
		});
		expect(String((test.items[0]._pollCost as IDataObject).summary)).toMatch(
			/^A poll costs at least 2 API calls \(every page of the list is read/,
		);

		later(60_000);
		await trigger.poll();
		const measured = await trigger.poll('manual');
		const pages = Math.ceil(account.org.all('bills').length / 200);
		expect(measured.items[0]._pollCost).toMatchObject({
			callsPerPoll: pages,
			atLeast: false,
			callsPerDay: pages * 1440,
		});
		const every = Math.round((pages * 1440) / 500);
		expect(String((measured.items[0]._pollCost as IDataObject).summary)).toContain(
			`above its Max API Calls per Day (500): polls are spaced to about one every ${every} minutes`,
		);

		const newest = new Trigger(
			VendorBooksTrigger,
			{
				organizationId: env.org,
				event: 'estimateCreated',
				pollTimes: { item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] },
			},
			'estimate_id',
		);
		const cheap = await newest.poll('manual');
		expect(cheap.items[0]._pollCost).toMatchObject({
			callsPerPoll: 1,
			atLeast: false,
			pollsPerDay: 288,
			callsPerDay: 288,
		});
		expect(String((cheap.items[0]._pollCost as IDataObject).summary)).toMatch(
			/within its Max API Calls per Day \(500\)/,
		);
		// real events never carry it
		later(1000);
		await newest.poll();
		later(1000);
		caseOf('Books: Estimate Created').change(account);
		const real = await newest.poll();
		expect(real.items).toHaveLength(1);
		expect(real.items[0]._pollCost).toBeUndefined();
	});

	test('Poll Times given as cron expressions are counted', async () => {
		const cron = (cronExpression: string) => ({
			organizationId: env.org,
			event: 'estimateCreated',
			pollTimes: { item: [{ mode: 'custom', cronExpression }] },
		});
		const perDay = async (expression: string) =>
			(
				(await new Trigger(VendorBooksTrigger, cron(expression), 'estimate_id').poll('manual'))
					.items[0]._pollCost as IDataObject
			).pollsPerDay;
		expect(await perDay('*/10 * * * *')).toBe(144);
		expect(await perDay('0 */2 9-17 * * MON-FRI')).toBeCloseTo((30 * 9 * 261) / 365, 5);
		expect(await perDay('not a cron')).toBeNull();
	});
});
