/**
 * A polling trigger activated during an outage, through n8n-core's own ActiveWorkflows
 * (harness/activation.ts) against the emulator. n8n runs the first poll at activation
 * and fails the activation if it throws; n8n then gives up after a few retries and the
 * workflow reads active but never polls. So a transient failure there (a rate-limit block,
 * a 503, a token endpoint that did not answer) must leave the workflow active, with the
 * poll scheduled, and the first poll after the outage must emit what was created meanwhile,
 * each record once, and not the records that existed before activation. A permanent failure
 * (a revoked refresh token, an unknown organization, bad input) still fails the activation.
 *
 * The poll at activation never waits on the service (n8n gives the activation a deadline):
 * one call, and a transient answer ends it at once.
 *
 * Time: n8n's clock (Date, faked here; timers stay real) and the emulator's clock move
 * together, only when the test says so (`later`), n8n's possibly minutes off the service's
 * (`setSkew`). The emulator's answers are dated by its clock (./trigger-service.ts): that is
 * the service's time the triggers read. The tests run the poll n8n handed the cron instead of
 * waiting for the cron.
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { RateLimitBlockedError } from '../../nodes/shared/api/failureKinds';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { timeOf } from '../../nodes/shared/poll/read';
import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { Clock } from '../../emulator/clock';
import { jsonAnswer, type AnswerProxy } from '../tools/answer-proxy';
import { datedByServiceClock } from './trigger-service';
import { timestamp } from '../../emulator/rules/formats';
import { Container } from '../../harness/setup';
import { activateTrigger, type ActiveTrigger } from '../../harness/activation';
import { byId, vendorNode } from '../../harness/workflows';
import { WorkflowEnv } from './support';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const env = new WorkflowEnv();
const clock = new Clock({ start: T0 });
/** The emulator behind a proxy that dates its answers by its clock (the service's time). */
let proxy: AnswerProxy;

/** How far n8n's clock is ahead of the service's (the emulator's), ms; negative: behind. */
let skew = 0;

/** Moves n8n's clock and the emulator's together. */
function later(ms: number): void {
	clock.advance(ms);
	jest.setSystemTime(clock.now() + skew);
}

/** Sets n8n's clock `ms` ahead of the service's (behind when negative). */
function setSkew(ms: number): void {
	skew = ms;
	later(0);
}

const warn = jest.spyOn(Container.get(Logger), 'warn');
const active: ActiveTrigger[] = [];

/** What is never faked: the network and the emulator run as usual. */
const REAL = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
] as const;

beforeAll(async () => {
	// only Date is faked: the transport's timers run as usual
	jest.useFakeTimers({ now: T0, doNotFake: [...REAL, 'setTimeout', 'clearTimeout'] });
	await env.start({ demo: true, clock });
	proxy = await datedByServiceClock(env, clock);
});
afterAll(async () => {
	await proxy.close();
	await env.stop();
	jest.useRealTimers();
});
beforeEach(() => {
	env.em.clearRequests();
	env.em.faults.clear();
	warn.mockClear();
	// records made before this test are before its activation
	later(10_000);
});
afterEach(async () => {
	for (const trigger of active.splice(0)) await trigger.deactivate();
	// a block a test left in the transport's pacer ends with the test (resets the pacers)
	setPacingRule(DOCUMENTED_RULE);
});

async function activate(
	type: new () => INodeType,
	parameters: IDataObject,
	staticData?: IDataObject,
): Promise<ActiveTrigger> {
	const trigger = await activateTrigger({
		nodeType: type,
		node: vendorNode(type, parameters, 'Trigger'),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		staticData,
	});
	active.push(trigger);
	return trigger;
}

/** The field `field` of every item every poll emitted so far, in order. */
const emittedIds = (trigger: ActiveTrigger, field: string) =>
	trigger.emitted.flatMap((run) => run[0].map((item) => String(item.json[field])));

async function create(area: string, path: string, json: IDataObject, key: string): Promise<string> {
	const res = await env.call('POST', area, path, { json });
	if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
	const rec = (res.body[key] ?? res.body) as IDataObject;
	return String(rec[`${key}_id`] ?? rec.id);
}

const customer = () => String(env.orgTenant().all('customers')[0].customer_id);
const newEstimate = async () =>
	await create(
		'books',
		'/estimates',
		{ customer_id: customer(), line_items: [{ name: 'Work', rate: 100, quantity: 1 }] },
		'estimate',
	);
const newProject = async (name: string) =>
	await create('projects', `/portal/${env.portal}/projects`, { name }, 'project');

/** The warnings logged, with nothing secret in them. */
function warnings(): string[] {
	const text = warn.mock.calls.map((call) => JSON.stringify(call));
	const secrets = [
		env.em.defaultClient.clientSecret,
		String(env.storedToken.access_token),
		String(env.storedToken.refresh_token),
	];
	for (const line of text) for (const secret of secrets) expect(line).not.toContain(secret);
	return warn.mock.calls.map((call) => String(call[0]));
}

test('Vendor Projects Trigger activated during a rate-limit block: stays active, later polls report the block, the first poll after it emits the projects created meanwhile, once', async () => {
	const before = await newProject('Existed before activation');
	later(1_000);
	env.em.clearRequests();
	// The project-management area answers 429 without Retry-After: its 30-minute block.
	env.em.faults.next(1, { kind: 'status', status: 429 }, 'projects');
	const trigger = await activate(VendorProjectsTrigger, {
		event: 'projectCreated',
		portal_id: byId(env.portal),
	});

	expect(trigger.isActive()).toBe(true);
	expect(trigger.scheduled).toBe(1);
	expect(trigger.emitted).toEqual([]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	expect(warnings()).toEqual([
		expect.stringMatching(
			/^The first poll of "Trigger" at the activation of workflow ".*" did not succeed: The Vendor API blocks further requests until .*\. The workflow stays active/,
		),
	]);

	later(1_000);
	const a = await newProject('Alpha');
	const b = await newProject('Beta');

	// A poll during the block: reported through n8n as an error (an error execution), nothing sent, nothing emitted.
	later(60_000);
	env.em.clearRequests();
	await trigger.poll();
	expect(trigger.errors).toHaveLength(1);
	expect(trigger.errors[0]).toBeInstanceOf(RateLimitBlockedError);
	expect(env.apiRequests()).toEqual([]);
	expect(trigger.emitted).toEqual([]);

	// The block lifts: the projects created since activation, each once; not the one from before.
	later(30 * 60_000);
	const c = await newProject('Gamma');
	await trigger.poll();
	expect(emittedIds(trigger, 'id')).toEqual([a, b, c]);
	expect(emittedIds(trigger, 'id')).not.toContain(before);
	await trigger.poll();
	expect(trigger.emitted).toHaveLength(1);
	later(1_000);
	const d = await newProject('Delta');
	await trigger.poll();
	expect(emittedIds(trigger, 'id')).toEqual([a, b, c, d]);
	expect(trigger.errors).toHaveLength(1);
});

test('Vendor Books Trigger activated while the API answers 503: stays active; after the outage the estimates created meanwhile, once, none from before', async () => {
	const org = env.org;
	await newEstimate();
	later(1_000);
	env.em.clearRequests();
	// the outage lasts: every attempt would be answered 503; the poll at activation makes one (it never waits)
	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	const trigger = await activate(VendorBooksTrigger, {
		organizationId: org,
		event: 'estimateCreated',
	});
	expect(trigger.isActive()).toBe(true);
	expect(env.apiRequests().map((r) => r.status)).toEqual([503]);
	env.em.faults.clear();
	expect(warnings()).toEqual([
		expect.stringContaining('did not succeed: Service unavailable. Try again later. (code 503)'),
	]);

	later(1_000);
	const x = await newEstimate();
	const y = await newEstimate();
	later(1_000);
	const z = await newEstimate();
	await trigger.poll();
	expect(trigger.errors).toEqual([]);
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x, y, z]);
	await trigger.poll();
	expect(trigger.emitted).toHaveLength(1);
});

test('Vendor Books Trigger: a later poll answered 503 is reported through n8n (it throws), as before', async () => {
	const trigger = await activate(VendorBooksTrigger, {
		organizationId: env.org,
		event: 'estimateCreated',
	});
	expect(trigger.emitted).toEqual([]);
	// past the first scheduled poll right after the activation (skipped without a call)
	later(5 * 60_000);
	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	await trigger.poll();
	expect(trigger.errors.map((e) => e.message)).toEqual([
		'Service unavailable. Try again later. (code 503)',
	]);
	expect(warnings()).toEqual([]);
	later(1_000);
	const x = await newEstimate();
	await trigger.poll();
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x]);
});

test('n8n restarts during an outage: the kept state is kept, and the next poll emits what was created since the last poll before the restart', async () => {
	const first = await activate(VendorBooksTrigger, {
		organizationId: env.org,
		event: 'estimateCreated',
	});
	later(1_000);
	const missed = await newEstimate();
	const state = first.staticData();
	await first.deactivate();

	env.em.faults.next(1, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	const restarted = await activateTrigger({
		nodeType: VendorBooksTrigger,
		node: vendorNode(
			VendorBooksTrigger,
			{ organizationId: env.org, event: 'estimateCreated' },
			'Trigger',
		),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		staticData: state,
		activation: 'init',
	});
	active.push(restarted);
	expect(restarted.isActive()).toBe(true);
	// the poll state is kept as it was (the day's call count may grow: the failed call was spent)
	expect(restarted.staticData()['node:Trigger']).toMatchObject({
		vendorPoll: (state['node:Trigger'] as IDataObject).vendorPoll,
	});
	later(1_000);
	const meanwhile = await newEstimate();
	await restarted.poll();
	expect(emittedIds(restarted, 'estimate_id')).toEqual([missed, meanwhile]);
});

test('a token endpoint that does not answer at activation: stays active; the next poll refreshes and emits what was created meanwhile', async () => {
	env.em.accounts.expireAllAccessTokens();
	// the redirect check before the refresh, and the refresh
	env.em.faults.next(
		2,
		{ kind: 'status', status: 503 },
		(r) => r.area === 'accounts' && r.path.includes('/oauth/v2/token'),
	);
	const trigger = await activate(VendorBooksTrigger, {
		organizationId: env.org,
		event: 'estimateCreated',
	});
	expect(trigger.isActive()).toBe(true);
	// the expired token answered 401, the refresh got a 503
	expect(env.apiRequests().map((r) => r.status)).toEqual([401]);
	expect(warnings()).toEqual([
		expect.stringContaining(
			'did not succeed: The access token could not be refreshed (the token endpoint answered HTTP 503)',
		),
	]);
	// an estimate made in the Vendor UI meanwhile (the stored token is expired, so not through the API)
	later(1_000);
	const x = env.em.store.nextId();
	const stamp = timestamp(clock.now());
	env.orgTenant().put('estimates', x, {
		estimate_id: x,
		estimate_number: 'EST-OUTAGE',
		customer_id: customer(),
		status: 'draft',
		created_time: stamp,
		last_modified_time: stamp,
	});
	await trigger.poll();
	expect(trigger.errors).toEqual([]);
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x]);
	expect(env.tokenRequests().map((r) => r.status)).toEqual([503, 200]);
});

describe('the poll at activation never waits; the "since" time is when activation began on the service\'s clock, to the second', () => {
	/** One event: `prepare` makes its records before activation and returns what makes one meanwhile (its id). */
	interface Case {
		event: string;
		type: new () => INodeType;
		parameters: () => IDataObject;
		/** The emitted record's id field and time field. */
		id: string;
		time: string;
		prepare: () => Promise<() => Promise<string>>;
	}

	/** `make` makes a record before activation and another meanwhile. */
	const twice = (make: () => Promise<string>) => async () => {
		await make();
		return make;
	};
	const org = () => ({ organizationId: env.org });
	const portal = () => ({ portal_id: byId(env.portal) });
	const newInvoice = async () =>
		await create(
			'books',
			'/invoices',
			{ customer_id: customer(), line_items: [{ name: 'Work', rate: 100, quantity: 1 }] },
			'invoice',
		);
	let bills = 0;
	const newBill = async () => {
		bills += 1;
		const vendor = String(env.orgTenant().all('vendors')[0]?.vendor_id ?? '1');
		return await create(
			'inventory',
			'/bills',
			{
				vendor_id: vendor,
				bill_number: `B-SINCE-${bills}`,
				date: '2026-03-02',
				due_date: '2026-04-01',
				line_items: [{ name: 'Paper', rate: 3, quantity: 2 }],
			},
			'bill',
		);
	};
	/** A status set in the Vendor UI (no documented operation sets it). */
	const markSent = (id: string) => {
		Object.assign(env.orgTenant().get('estimates', id) as IDataObject, {
			status: 'sent',
			last_modified_time: timestamp(clock.now()),
		});
		return id;
	};
	const trash = async (id: string) => {
		await env.call('POST', 'projects', `/portal/${env.portal}/trash`, {
			json: { module: 'projects', items: [id] },
		});
		return id;
	};

	/** Every strategy, every trigger node: newest first, id sets, status, fingerprints, the bin. */
	const cases: Case[] = [
		{
			event: 'Books Invoice Created',
			type: VendorBooksTrigger,
			parameters: () => ({ ...org(), event: 'invoiceCreated' }),
			id: 'invoice_id',
			time: 'created_time',
			prepare: twice(newInvoice),
		},
		{
			event: 'Books Estimate Status Changed',
			type: VendorBooksTrigger,
			parameters: () => ({ ...org(), event: 'estimateStatusChanged', status: 'sent' }),
			id: 'estimate_id',
			time: 'last_modified_time',
			prepare: async () => {
				markSent(await newEstimate());
				const draft = await newEstimate();
				return async () => markSent(draft);
			},
		},
		{
			event: 'Billing Project Created',
			type: VendorBillingTrigger,
			parameters: () => ({ ...org(), event: 'projectCreated' }),
			id: 'project_id',
			time: 'created_time',
			prepare: twice(
				async () =>
					await create(
						'billing',
						'/projects',
						{
							project_name: 'Retainer',
							customer_id: customer(),
							billing_type: 'based_on_task_hours',
						},
						'project',
					),
			),
		},
		{
			event: 'Inventory Bill Created',
			type: VendorInventoryTrigger,
			parameters: () => ({ ...org(), event: 'billCreated' }),
			id: 'bill_id',
			time: 'created_time',
			prepare: twice(newBill),
		},
		{
			event: 'Projects Project Created',
			type: VendorProjectsTrigger,
			parameters: () => ({ ...portal(), event: 'projectCreated' }),
			id: 'id',
			time: 'created_time',
			prepare: twice(async () => await newProject('New')),
		},
		{
			event: 'Projects Project Updated',
			type: VendorProjectsTrigger,
			parameters: () => ({ ...portal(), event: 'projectUpdated' }),
			id: 'id',
			time: 'last_modified_time',
			prepare: async () => {
				await newProject('Untouched');
				const project = await newProject('Changed meanwhile');
				return async () => {
					await env.call('PATCH', 'projects', `/portal/${env.portal}/projects/${project}`, {
						json: { description: 'Changed' },
					});
					return project;
				};
			},
		},
		{
			event: 'Projects Record Moved to Trash',
			type: VendorProjectsTrigger,
			parameters: () => ({ ...portal(), event: 'recordTrashed' }),
			id: 'id',
			time: 'trashed_time',
			prepare: async () => {
				await trash(await newProject('Trashed before'));
				const project = await newProject('Trashed meanwhile');
				return async () => await trash(project);
			},
		},
	];

	/** Every case with n8n's clock as the service's, 5 minutes ahead of it and 5 minutes behind. */
	const SKEWS = [
		{ skew: 0, shift: "on the service's time" },
		{ skew: 5 * 60_000, shift: '5 minutes ahead of the service' },
		{ skew: -5 * 60_000, shift: '5 minutes behind the service' },
	];
	const skewed = cases.flatMap((c) => SKEWS.map((s) => ({ ...c, ...s })));
	afterEach(() => setSkew(0));

	/**
	 * Activates while every read of the list answers 503 (no Retry-After): the poll at activation
	 * makes one call and gives up at once. `meanwhile` runs 3 s after activation began; then the
	 * outage ends.
	 */
	async function activateDuring503(
		c: Case,
	): Promise<{ trigger: ActiveTrigger; made: string; began: number }> {
		const meanwhile = await c.prepare();
		later(1_000);
		const began = clock.now();
		env.em.clearRequests();
		env.em.faults.next(1_000, { kind: 'status', status: 503 }, (r) => r.kind === 'list');
		const trigger = await activate(c.type, c.parameters());
		expect(
			env
				.apiRequests()
				.filter((r) => r.method === 'GET')
				.map((r) => r.status),
		).toEqual([503]);
		later(3_000);
		const made = await meanwhile();
		env.em.faults.clear();
		return { trigger, made, began };
	}

	const emittedJson = (trigger: ActiveTrigger) =>
		trigger.emitted.flatMap((run) => run[0].map((item) => item.json));

	test.each(skewed)(
		"$event, n8n's clock $shift: activated during a 503, the next poll emits the record made 3 s after activation began, once, and none from before",
		async (c) => {
			setSkew(c.skew);
			const { trigger, made, began } = await activateDuring503(c);
			expect(trigger.isActive()).toBe(true);
			expect(trigger.emitted).toEqual([]);
			expect(warnings()).toEqual([
				expect.stringMatching(
					/^The first poll of "Trigger" at the activation of workflow ".*" did not succeed: .*Service unavailable/,
				),
			]);

			later(60_000);
			await trigger.poll();
			expect(trigger.errors).toEqual([]);
			const emitted = emittedJson(trigger);
			expect(emitted.map((r) => String(r[c.id]))).toEqual([made]);
			expect((timeOf(emitted[0][c.time]) as number) - began).toBe(3_000);
			await trigger.poll();
			expect(trigger.emitted).toHaveLength(1);
		},
	);

	test.each(skewed)(
		"$event, n8n's clock $shift: in the activation's own second, a record made after its read is emitted once, one made before it is not",
		async (c) => {
			setSkew(c.skew);
			// a record of this second before activation, the activation, another record of the same second
			const meanwhile = await c.prepare();
			const trigger = await activate(c.type, c.parameters());
			expect(trigger.emitted).toEqual([]);
			const made = await meanwhile();
			later(5 * 60_000);
			await trigger.poll();
			expect(trigger.errors).toEqual([]);
			expect(emittedJson(trigger).map((r) => String(r[c.id]))).toEqual([made]);
			await trigger.poll();
			expect(trigger.emitted).toHaveLength(1);
		},
	);

	test('Invoice Payment Recorded: a payment list entry carries only its date, so one recorded while the baseline could not be read is part of the baseline (not emitted); nothing from before is, and the next payment is', async () => {
		const invoice = await newInvoice();
		const pay = async () =>
			await create(
				'invoice',
				'/customerpayments',
				{
					customer_id: customer(),
					payment_mode: 'cash',
					amount: 1,
					date: '2026-03-02',
					invoices: [{ invoice_id: invoice, amount_applied: 1 }],
				},
				'payment',
			);
		const { trigger } = await activateDuring503({
			event: 'Payment Recorded',
			type: VendorInvoiceTrigger,
			parameters: () => ({ ...org(), event: 'paymentRecorded' }),
			id: 'payment_id',
			time: 'date',
			prepare: twice(pay),
		});
		later(60_000);
		await trigger.poll();
		expect(trigger.emitted).toEqual([]);
		const next = await pay();
		await trigger.poll();
		expect(emittedJson(trigger).map((r) => String(r.payment_id))).toEqual([next]);
	});
});

describe('the daily budget spends where it is useful', () => {
	const budgetOf = (trigger: ActiveTrigger) =>
		(trigger.staticData()['node:Trigger'] as IDataObject).vendorBudget as IDataObject;
	const invoiceCreated = () => ({
		organizationId: env.org,
		event: 'invoiceCreated',
		maxCallsPerDay: 30,
	});
	const newInvoice = async () =>
		await create(
			'books',
			'/invoices',
			{ customer_id: customer(), line_items: [{ name: 'Work', rate: 100, quantity: 1 }] },
			'invoice',
		);

	test("Max API Calls per Day = 30: n8n's first scheduled poll 2.7 s after a successful activation poll makes no call and spends nothing; the next one, a minute later, emits the invoice made meanwhile", async () => {
		const trigger = await activate(VendorBooksTrigger, invoiceCreated());
		expect(env.apiRequests()).toHaveLength(1);
		const afterActivation = budgetOf(trigger);
		expect(afterActivation.spent).toBe(1);

		later(2_700);
		env.em.clearRequests();
		await trigger.poll();
		expect(env.apiRequests()).toEqual([]);
		expect(budgetOf(trigger)).toMatchObject({ spent: 1 });
		expect(budgetOf(trigger).credit as number).toBeGreaterThanOrEqual(
			afterActivation.credit as number,
		);

		later(30_000);
		const x = await newInvoice();
		later(30_000);
		env.em.clearRequests();
		await trigger.poll();
		expect(env.apiRequests()).toHaveLength(1);
		expect(emittedIds(trigger, 'invoice_id')).toEqual([x]);
		expect(budgetOf(trigger).spent).toBe(2);
	});

	test('a poll at activation that failed does not make the next scheduled poll skip: it catches up at once', async () => {
		env.em.faults.next(1, { kind: 'status', status: 503 }, 'books');
		const trigger = await activate(VendorBooksTrigger, invoiceCreated());
		later(2_700);
		const x = await newInvoice();
		env.em.clearRequests();
		await trigger.poll();
		expect(env.apiRequests()).toHaveLength(1);
		expect(emittedIds(trigger, 'invoice_id')).toEqual([x]);
	});

	test('every call the service sees is counted: a read answered 401 and the same read sent again after the refresh are two calls', async () => {
		const trigger = await activate(VendorBooksTrigger, invoiceCreated());
		// past the spacing 30 calls a day allow (48 minutes)
		later(60 * 60_000);
		proxy.reset();
		const refused = proxy.add({
			method: 'GET',
			path: /\/invoices$/,
			nth: 1,
			action: {
				answer: jsonAnswer(
					{ code: 57, message: 'You are not authorized to perform this operation' },
					401,
				),
			},
		});
		const before = budgetOf(trigger).spent as number;
		await trigger.poll();
		expect(trigger.errors).toEqual([]);
		expect(refused.seen).toBe(2);
		expect(
			proxy.records
				.filter((r) => r.method === 'GET' && r.path.endsWith('/invoices'))
				.map((r) => r.status),
		).toEqual([401, 200]);
		expect(budgetOf(trigger).spent).toBe(before + 2);
	});
});

describe('a permanent failure still fails the activation with its error', () => {
	const books = (parameters: IDataObject) =>
		activateTrigger({
			nodeType: VendorBooksTrigger,
			node: vendorNode(VendorBooksTrigger, parameters, 'Trigger'),
			credentials: env.credentials,
			credentialTypes: [VendorOAuth2Api],
		});

	test('an unknown organization', async () => {
		await expect(books({ organizationId: '999999999', event: 'estimateCreated' })).rejects.toThrow(
			/^There was a problem activating the workflow: ".*The organization id 999999999 .* is not an organization of this account/,
		);
		expect(warnings()).toEqual([]);
	});

	test('bad input: refused before anything is sent', async () => {
		await expect(
			books({
				organizationId: env.org,
				event: 'estimateCreated',
				filters: { date_start: '02/03/2026' },
			}),
		).rejects.toThrow(/Date Start must be a date/);
		expect(env.apiRequests()).toEqual([]);
	});

	test('a revoked refresh token, for the Projects and the Books trigger', async () => {
		env.em.accounts.revokeRefreshToken(String(env.storedToken.refresh_token));
		env.em.accounts.expireAllAccessTokens();
		await expect(books({ organizationId: env.org, event: 'estimateCreated' })).rejects.toThrow(
			'There was a problem activating the workflow: "The access token could not be refreshed (invalid_code)"',
		);
		const projects = activateTrigger({
			nodeType: VendorProjectsTrigger,
			node: vendorNode(
				VendorProjectsTrigger,
				{ event: 'projectCreated', portal_id: byId(env.portal) },
				'Trigger',
			),
			credentials: env.credentials,
			credentialTypes: [VendorOAuth2Api],
		});
		await expect(projects).rejects.toThrow(
			'The access token could not be refreshed (invalid_code)',
		);
		expect(warnings()).toEqual([]);
		// the stored access token was refused, and nothing was read with another
		expect(env.apiRequests().map((r) => r.status)).toEqual([401, 401]);
	});
});
