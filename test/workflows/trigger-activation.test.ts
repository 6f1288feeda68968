/**
 * A polling trigger activated during an outage, through n8n-core's own ActiveWorkflows
 * (test/harness/activation.ts) against the emulator. n8n runs the first poll at activation
 * and fails the activation if it throws; n8n then gives up after a few retries and the
 * workflow reads active but never polls. So a transient failure there (a rate-limit block,
 * a 503, a token endpoint that did not answer) must leave the workflow active, with the
 * poll scheduled, and the first poll after the outage must emit what was created meanwhile,
 * each record once, and not the records that existed before activation. A permanent failure
 * (a revoked refresh token, an unknown organization, bad input) still fails the activation.
 *
 * Time: n8n's clock (Date, faked here; timers stay real) and the emulator's clock move
 * together, only when the test says so (`later`). The tests run the poll n8n handed the
 * cron instead of waiting for the cron. The tests of the "since" time fake n8n's timers too,
 * so that the transport's waits before a retry (1 s, 2 s, 4 s) pass on that clock (`pass`).
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { RateLimitBlockedError } from '../../nodes/shared/api/failures';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import * as wait from '../../nodes/shared/api/wait';
import { timeOf } from '../../nodes/shared/poll/read';
import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { Clock } from '../../emulator/clock';
import { until } from '../tools/fake-timers';
import { timestamp } from '../../emulator/rules/common';
import { Container } from '../harness/setup';
import { activateTrigger, type ActiveTrigger } from '../harness/activation';
import { byId, vendorNode, WorkflowEnv } from './support';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const env = new WorkflowEnv();
const clock = new Clock({ start: T0 });

/** Moves n8n's clock and the emulator's together. */
function later(ms: number): void {
	clock.advance(ms);
	jest.setSystemTime(clock.now());
}

const warn = jest.spyOn(Container.get(Logger), 'warn');
const active: ActiveTrigger[] = [];

/** What is never faked: the network and the emulator run as usual. */
const REAL = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'] as const;

beforeAll(async () => {
	// only Date is faked: the transport's timers run as usual
	jest.useFakeTimers({ now: T0, doNotFake: [...REAL, 'setTimeout', 'clearTimeout'] });
	await env.start({ demo: true, clock });
});
afterAll(async () => {
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

async function activate(type: new () => INodeType, parameters: IDataObject, staticData?: IDataObject): Promise<ActiveTrigger> {
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
const emittedIds = (trigger: ActiveTrigger, field: string) => trigger.emitted.flatMap((run) => run[0].map((item) => String(item.json[field])));

async function create(area: string, path: string, json: IDataObject, key: string): Promise<string> {
	const res = await env.call('POST', area, path, { json });
	if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
	const rec = (res.body[key] ?? res.body) as IDataObject;
	return String(rec[`${key}_id`] ?? rec.id);
}

const customer = () => String(env.orgTenant().all('customers')[0].customer_id);
const newEstimate = async () => await create('books', '/estimates', { customer_id: customer(), line_items: [{ name: 'Work', rate: 100, quantity: 1 }] }, 'estimate');
const newProject = async (name: string) => await create('projects', `/portal/${env.portal}/projects`, { name }, 'project');

/** The warnings logged, with nothing secret in them. */
function warnings(): string[] {
	const text = warn.mock.calls.map((call) => JSON.stringify(call));
	const secrets = [env.em.defaultClient.clientSecret, String(env.storedToken.access_token), String(env.storedToken.refresh_token)];
	for (const line of text) for (const secret of secrets) expect(line).not.toContain(secret);
	return warn.mock.calls.map((call) => String(call[0]));
}

test('Vendor Projects Trigger activated during a rate-limit block: stays active, later polls report the block, the first poll after it emits the projects created meanwhile, once', async () => {
	const before = await newProject('Existed before activation');
	later(1_000);
	env.em.clearRequests();
	// The project-management area answers 429 without Retry-After: its 30-minute block.
	env.em.faults.next(1, { kind: 'status', status: 429 }, 'projects');
	const trigger = await activate(VendorProjectsTrigger, { event: 'projectCreated', portal_id: byId(env.portal) });

	expect(trigger.isActive()).toBe(true);
	expect(trigger.scheduled).toBe(1);
	expect(trigger.emitted).toEqual([]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	expect(warnings()).toEqual([expect.stringMatching(/^The first poll of "Trigger" at the activation of workflow ".*" did not succeed: The Vendor API blocks further requests until .*\. The workflow stays active/)]);

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
	// every attempt of the read (first try and 3 retries) answered 503, at once
	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	const trigger = await activate(VendorBooksTrigger, { organizationId: org, event: 'estimateCreated' });
	expect(trigger.isActive()).toBe(true);
	expect(env.apiRequests().map((r) => r.status)).toEqual([503, 503, 503, 503]);
	expect(warnings()).toEqual([expect.stringContaining('did not succeed: Service unavailable. Try again later. (code 503)')]);

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
	const trigger = await activate(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' });
	expect(trigger.emitted).toEqual([]);
	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	await trigger.poll();
	expect(trigger.errors.map((e) => e.message)).toEqual(['Service unavailable. Try again later. (code 503)']);
	expect(warnings()).toEqual([]);
	later(1_000);
	const x = await newEstimate();
	await trigger.poll();
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x]);
});

test('n8n restarts during an outage: the kept state is kept, and the next poll emits what was created since the last poll before the restart', async () => {
	const first = await activate(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' });
	later(1_000);
	const missed = await newEstimate();
	const state = first.staticData();
	await first.deactivate();

	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	const restarted = await activateTrigger({
		nodeType: VendorBooksTrigger,
		node: vendorNode(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' }, 'Trigger'),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		staticData: state,
		activation: 'init',
	});
	active.push(restarted);
	expect(restarted.isActive()).toBe(true);
	// the poll state is kept as it was (the day's call count may grow: the failed call was spent)
	expect(restarted.staticData()['node:Trigger']).toMatchObject({ vendorPoll: (state['node:Trigger'] as IDataObject).vendorPoll });
	later(1_000);
	const meanwhile = await newEstimate();
	await restarted.poll();
	expect(emittedIds(restarted, 'estimate_id')).toEqual([missed, meanwhile]);
});

test('a token endpoint that does not answer at activation: stays active; the next poll refreshes and emits what was created meanwhile', async () => {
	env.em.accounts.expireAllAccessTokens();
	env.em.faults.next(1, { kind: 'status', status: 503 }, (r) => r.area === 'accounts' && r.path.includes('/oauth/v2/token'));
	const trigger = await activate(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' });
	expect(trigger.isActive()).toBe(true);
	// the expired token answered 401, the refresh got a 503
	expect(env.apiRequests().map((r) => r.status)).toEqual([401]);
	expect(warnings()).toEqual([expect.stringContaining('did not succeed: The access token could not be refreshed (the token endpoint answered HTTP 503)')]);
	// an estimate made in the Vendor UI meanwhile (the stored token is expired, so not through the API)
	later(1_000);
	const x = env.em.store.nextId();
	const stamp = timestamp(clock.now());
	env.orgTenant().put('estimates', x, { estimate_id: x, estimate_number: 'EST-OUTAGE', customer_id: customer(), status: 'draft', created_time: stamp, last_modified_time: stamp });
	await trigger.poll();
	expect(trigger.errors).toEqual([]);
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x]);
	expect(env.tokenRequests().map((r) => r.status)).toEqual([503, 200]);
});

describe('the "since" time is when activation began, before its first request', () => {
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
	const newInvoice = async () => await create('books', '/invoices', { customer_id: customer(), line_items: [{ name: 'Work', rate: 100, quantity: 1 }] }, 'invoice');
	let bills = 0;
	const newBill = async () => {
		bills += 1;
		const vendor = String(env.orgTenant().all('vendors')[0]?.vendor_id ?? '1');
		return await create('inventory', '/bills', { vendor_id: vendor, bill_number: `B-SINCE-${bills}`, date: '2026-03-02', due_date: '2026-04-01', line_items: [{ name: 'Paper', rate: 3, quantity: 2 }] }, 'bill');
	};
	/** A status set in the Vendor UI (no documented operation sets it). */
	const markSent = (id: string) => {
		Object.assign(env.orgTenant().get('estimates', id) as IDataObject, { status: 'sent', last_modified_time: timestamp(clock.now()) });
		return id;
	};
	const trash = async (id: string) => {
		await env.call('POST', 'projects', `/portal/${env.portal}/trash`, { json: { module: 'projects', items: [id] } });
		return id;
	};

	/** Every strategy, every trigger node: newest first, id sets, status, fingerprints, the bin. */
	const cases: Case[] = [
		{ event: 'Books Invoice Created', type: VendorBooksTrigger, parameters: () => ({ ...org(), event: 'invoiceCreated' }), id: 'invoice_id', time: 'created_time', prepare: twice(newInvoice) },
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
			prepare: twice(async () => await create('billing', '/projects', { project_name: 'Retainer', customer_id: customer(), billing_type: 'based_on_task_hours' }, 'project')),
		},
		{ event: 'Inventory Bill Created', type: VendorInventoryTrigger, parameters: () => ({ ...org(), event: 'billCreated' }), id: 'bill_id', time: 'created_time', prepare: twice(newBill) },
		{ event: 'Projects Project Created', type: VendorProjectsTrigger, parameters: () => ({ ...portal(), event: 'projectCreated' }), id: 'id', time: 'created_time', prepare: twice(async () => await newProject('New')) },
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
					await env.call('PATCH', 'projects', `/portal/${env.portal}/projects/${project}`, { json: { description: 'Changed' } });
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

	const pauses = jest.spyOn(wait, 'pause');
	/** The transport's waits before a retry begun so far (the Timeout watcher's ticks are shorter). */
	const retryWaits = () => pauses.mock.calls.filter(([ms]) => ms >= 1_000).length;

	beforeAll(() => jest.useFakeTimers({ now: clock.now(), doNotFake: [...REAL] }));
	afterAll(async () => {
		// the Timeout watcher's wait ends, so that it sees it has nothing left to do
		await jest.runOnlyPendingTimersAsync();
		jest.useFakeTimers({ now: clock.now(), doNotFake: [...REAL, 'setTimeout', 'clearTimeout'] });
		pauses.mockRestore();
	});

	/** Moves n8n's clock (its timers with it) and the emulator's together. */
	async function pass(ms: number): Promise<void> {
		clock.advance(ms);
		await jest.advanceTimersByTimeAsync(ms);
	}

	/**
	 * Activates while the list answers 503 (no Retry-After) to the first `failing` attempts of the read: the
	 * transport retries after 1 s, 2 s and 4 s. `meanwhile` runs 3 s after activation began, once the third
	 * attempt has failed. With 4 failing the poll at activation gives up 7 s after it began; with 3 its last
	 * retry reads the list, with the record made meanwhile in it.
	 */
	async function activateDuring503(c: Case, failing: 3 | 4): Promise<{ trigger: ActiveTrigger; made: string; began: number }> {
		const meanwhile = await c.prepare();
		later(1_000);
		const began = clock.now();
		env.em.clearRequests();
		pauses.mockClear();
		env.em.faults.next(failing, { kind: 'status', status: 503 }, (r) => r.kind === 'list');
		let settled = false;
		const activating = activate(c.type, c.parameters()).finally(() => (settled = true));
		for (const [i, ms] of [1_000, 2_000].entries()) {
			await until(() => settled || retryWaits() > i);
			await pass(ms);
		}
		await until(() => settled || retryWaits() > 2);
		const made = await meanwhile();
		await pass(4_000);
		const trigger = await activating;
		expect(env.apiRequests().filter((r) => r.method === 'GET').map((r) => r.status)).toEqual(failing === 4 ? [503, 503, 503, 503] : [503, 503, 503, 200]);
		return { trigger, made, began };
	}

	const emittedJson = (trigger: ActiveTrigger) => trigger.emitted.flatMap((run) => run[0].map((item) => item.json));

	test.each(cases)('$event: activated during a 503 that lasts through the retries, the next poll emits the record made 3 s after activation began, once', async (c) => {
		const { trigger, made, began } = await activateDuring503(c, 4);
		expect(trigger.isActive()).toBe(true);
		expect(trigger.emitted).toEqual([]);
		expect(warnings()).toEqual([expect.stringMatching(/^The first poll of "Trigger" at the activation of workflow ".*" did not succeed: .*Service unavailable/)]);

		later(60_000);
		await trigger.poll();
		expect(trigger.errors).toEqual([]);
		const emitted = emittedJson(trigger);
		expect(emitted.map((r) => String(r[c.id]))).toEqual([made]);
		expect((timeOf(emitted[0][c.time]) as number) - began).toBe(3_000);
		await trigger.poll();
		expect(trigger.emitted).toHaveLength(1);
	});

	test.each(cases)('$event: activated during a 503 that ends at the last retry, the poll at activation emits the record made 3 s after activation began, once', async (c) => {
		const { trigger, made } = await activateDuring503(c, 3);
		expect(warnings()).toEqual([]);
		expect(emittedJson(trigger).map((r) => String(r[c.id]))).toEqual([made]);
		later(60_000);
		await trigger.poll();
		expect(trigger.errors).toEqual([]);
		expect(trigger.emitted).toHaveLength(1);
	});

	test('Invoice Payment Recorded: a payment list entry carries only its date, so one recorded while the baseline could not be read is part of the baseline (not emitted); nothing from before is, and the next payment is', async () => {
		const invoice = await newInvoice();
		const pay = async () => await create('invoice', '/customerpayments', { customer_id: customer(), payment_mode: 'cash', amount: 1, date: '2026-03-02', invoices: [{ invoice_id: invoice, amount_applied: 1 }] }, 'payment');
		const { trigger } = await activateDuring503(
			{ event: 'Payment Recorded', type: VendorInvoiceTrigger, parameters: () => ({ ...org(), event: 'paymentRecorded' }), id: 'payment_id', time: 'date', prepare: twice(pay) },
			4,
		);
		later(60_000);
		await trigger.poll();
		expect(trigger.emitted).toEqual([]);
		const next = await pay();
		await trigger.poll();
		expect(emittedJson(trigger).map((r) => String(r.payment_id))).toEqual([next]);
	});
});

describe('a permanent failure still fails the activation with its error', () => {
	const books = (parameters: IDataObject) =>
		activateTrigger({ nodeType: VendorBooksTrigger, node: vendorNode(VendorBooksTrigger, parameters, 'Trigger'), credentials: env.credentials, credentialTypes: [VendorOAuth2Api] });

	test('an unknown organization', async () => {
		await expect(books({ organizationId: '999999999', event: 'estimateCreated' })).rejects.toThrow(
			/^There was a problem activating the workflow: ".*The organization id 999999999 .* is not an organization of this account/,
		);
		expect(warnings()).toEqual([]);
	});

	test('bad input: refused before anything is sent', async () => {
		await expect(books({ organizationId: env.org, event: 'estimateCreated', filters: { date_start: '02/03/2026' } })).rejects.toThrow(/Date Start must be a date/);
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
			node: vendorNode(VendorProjectsTrigger, { event: 'projectCreated', portal_id: byId(env.portal) }, 'Trigger'),
			credentials: env.credentials,
			credentialTypes: [VendorOAuth2Api],
		});
		await expect(projects).rejects.toThrow('The access token could not be refreshed (invalid_code)');
		expect(warnings()).toEqual([]);
		// the stored access token was refused, and nothing was read with another
		expect(env.apiRequests().map((r) => r.status)).toEqual([401, 401]);
	});
});
