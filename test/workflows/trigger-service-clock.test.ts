/**
 * The triggers on the service's clock, written from the README's "Triggers" section and
 * docs/BEHAVIOUR.md ("Triggers: an outage at activation") by a tester who did not write the package
 * (no record missed or emitted twice, whatever the service's clock): a service whose clock is 5
 * minutes behind or ahead of n8n's (its answers' `Date` and its records' times), activations that
 * meet an outage, and records deleted while a scanning trigger pages. The emulator's clock runs in
 * real time, offset from n8n's; an answer proxy dates every answer by it and answers for the API
 * during an outage.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { Clock } from '../../emulator/clock';
import { timestamp, timestampMs } from '../../emulator/rules/formats';
import type { Tenant } from '../../emulator/store';
import type { AnswerProxy, ProxiedRequest, ProxyRecord } from '../tools/answer-proxy';
import { setTimeout } from '../../host/globals';
import { useDatedTriggerEnv } from './trigger-service';
import { PolledTrigger, WorkflowEnv } from './support';

const MINUTE = 60_000;
const env = new WorkflowEnv();
/** The service's clock: real time, offset from n8n's by what a test sets (`skew`). */
const clock = new Clock({ start: Date.now() - 5 * MINUTE, realTime: true });
const skew = (ms: number) => clock.set(Date.now() + ms);
let proxy: AnswerProxy;
let org: string;
let portal: string;
let tenant: Tenant;
let portalTenant: Tenant;
let customer: string;

useDatedTriggerEnv(env, clock, (a) => ({ proxy, org, portal, tenant, portalTenant, customer } = a));
beforeEach(() => proxy.reset());

/** Secrets of the credential: no emitted item may hold one. */
function secrets(): string[] {
	const data = env.credentials[0].data as IDataObject;
	const token = data.oauthTokenData as IDataObject;
	return [String(token.access_token), String(token.refresh_token), String(data.clientSecret)];
}

interface Poll {
	items: IDataObject[];
	/** What reached the proxy during the poll (the outage's answers included). */
	calls: ProxyRecord[];
}

/** A trigger of this file's emulator; every poll as n8n runs it (static data carried), no budget in the way. */
class Trigger extends PolledTrigger {
	constructor(type: new () => INodeType, parameters: IDataObject) {
		super(env, type, { maxCallsPerDay: 100000, ...parameters });
	}

	async poll(): Promise<Poll> {
		const from = proxy.records.length;
		const { items } = await this.pollTrigger('trigger');
		const text = JSON.stringify(items);
		for (const secret of secrets()) expect(text.includes(secret)).toBe(false);
		return { items, calls: proxy.records.slice(from) };
	}

	/** Polls until a poll calls the API (n8n's first scheduled poll right after a successful activation may be skipped without a call). */
	async pollCalling(): Promise<Poll> {
		for (let i = 0; i < 3; i++) {
			const poll = await this.poll();
			if (poll.calls.length > 0 || poll.items.length > 0) return poll;
		}
		throw new Error('three polls in a row made no call');
	}
}

const books = (event: string, extra: IDataObject = {}) =>
	new Trigger(VendorBooksTrigger, { organizationId: org, event, ...extra });
const projects = (event: string) =>
	new Trigger(VendorProjectsTrigger, {
		portal_id: { __rl: true, mode: 'id', value: portal },
		event,
	});
const billing = () =>
	new Trigger(VendorBillingTrigger, { organizationId: org, event: 'projectCreated' });
const bills = () =>
	new Trigger(VendorInventoryTrigger, { organizationId: org, event: 'billCreated' });
const paymentsTrigger = () =>
	new Trigger(VendorInvoiceTrigger, { organizationId: org, event: 'paymentRecorded' });
const itemsTrigger = () => books('itemCreated');

/**
 * The created-record events' cases: title, trigger, collection, ID key, list path, and a record
 * of an id and an index (its name, or its number after the word's first letter, begins with `word`).
 */
type CreatedCase = [
	title: string,
	make: () => Trigger,
	collection: string,
	idKey: string,
	listPath: RegExp,
	record: (id: string, i: number) => IDataObject,
];
const createdCases = (word: string): CreatedCase[] => [
	[
		'Books: Item Created',
		itemsTrigger,
		'items',
		'item_id',
		/\/books\/v3\/items$/,
		(id: string, i: number) => ({
			item_id: id,
			name: `${word} item ${i}`,
			rate: 1,
			status: 'active',
		}),
	],
	[
		'Inventory: Bill Created',
		bills,
		'bills',
		'bill_id',
		/\/inventory\/v1\/bills$/,
		(id: string, i: number) => ({
			bill_id: id,
			bill_number: `${word[0]}B-${i}`,
			status: 'open',
			vendor_id: '1800000000001',
			created_time: timestampMs(clock.now() - 3_600_000 + i),
			last_modified_time: timestampMs(clock.now() - 3_600_000 + i),
		}),
	],
	[
		'Payments: Payment Recorded',
		paymentsTrigger,
		'customerpayments',
		'payment_id',
		/\/invoice\/v3\/customerpayments$/,
		(id: string, i: number) => ({
			payment_id: id,
			payment_number: `${word[0]}P-${i}`,
			date: timestamp(clock.now()).slice(0, 10),
			payment_mode: 'cash',
			amount: 1,
			customer_id: customer,
		}),
	],
];

async function created(
	area: string,
	path: string,
	body: IDataObject,
	key: string,
): Promise<string> {
	const res = await env.call('POST', area, path, { json: body });
	if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
	const rec = (res.body[key] ?? res.body) as IDataObject;
	return String(rec[`${key}_id`] ?? rec.id);
}
const lines = [{ name: 'Work', rate: 100, quantity: 1 }];
const newEstimate = () =>
	created('books', '/estimates', { customer_id: customer, line_items: lines }, 'estimate');
const newInvoice = () =>
	created('books', '/invoices', { customer_id: customer, line_items: lines }, 'invoice');
const newBillingProject = () =>
	created(
		'billing',
		'/projects',
		{
			project_name: `Billing ${Date.now()}`,
			customer_id: customer,
			billing_type: 'based_on_task_hours',
		},
		'project',
	);
const newProject = () =>
	created('projects', `/portal/${portal}/projects`, { name: `Project ${Date.now()}` }, 'project');
function newBill(): string {
	const id = env.em.store.nextId();
	const at = timestampMs(clock.now());
	tenant.put('bills', id, {
		bill_id: id,
		bill_number: `B-${id}`,
		status: 'open',
		vendor_id: '1800000000001',
		created_time: at,
		last_modified_time: at,
	});
	return id;
}
/** An invoice that enters the overdue status now (its modification time the service's now). */
async function invoiceTurnsOverdue(): Promise<string> {
	const id = await newInvoice();
	const rec = tenant.get('invoices', id) as IDataObject;
	rec.status = 'overdue';
	rec.last_modified_time = timestamp(clock.now());
	return id;
}
/** The first demo project, changed now through the API. */
async function projectChanged(): Promise<string> {
	const id = String(portalTenant.all('projects')[0].id);
	const res = await env.call('PATCH', 'projects', `/portal/${portal}/projects/${id}`, {
		json: { description: `Changed ${Date.now()}` },
	});
	if (res.status >= 300) throw new Error(JSON.stringify(res.body));
	return id;
}
/** A new project moved to the trash now. */
async function projectTrashed(): Promise<string> {
	const id = await newProject();
	const res = await env.call('POST', 'projects', `/portal/${portal}/trash`, {
		json: { module: 'projects', items: [id] },
	});
	if (res.status >= 300) throw new Error(JSON.stringify(res.body));
	return id;
}
const ids = (poll: Poll, field: string) => poll.items.map((i) => String(i[field]));

/** Every call during the outage is answered 503 (a gateway's page, dated by the service's clock like every answer). */
function outage(): () => void {
	const rule = proxy.add({
		test: () => true,
		action: {
			answer: {
				status: 503,
				contentType: 'text/html',
				body: '<html><body>503 Service Unavailable</body></html>',
			},
		},
	});
	return () => {
		rule.test = () => false;
	};
}

/** Lets the service's clock pass into the next whole second (records' times have whole seconds). */
const nextSecond = async () =>
	await new Promise((resolve) => setTimeout(resolve, 1100 - (clock.now() % 1000)));

// ---------------------------------------------------------------- cold start: the first answer n8n ever sees is the outage's

describe("service clock 5 minutes behind, the activation is this process's first contact and meets an outage", () => {
	test('Estimate Created: every call 503 at activation, then an estimate created, then the next poll: emitted once, nothing older', async () => {
		skew(-5 * MINUTE);
		await outageThenChange(books('estimateCreated'), newEstimate, 'estimate_id');
	});
});

// ---------------------------------------------------------------- a service 5 minutes behind, then 5 minutes ahead

describe.each([
	['5 minutes behind', -5 * MINUTE],
	['5 minutes ahead of', 5 * MINUTE],
])("service clock %s n8n's", (_label, offset) => {
	beforeAll(async () => {
		skew(offset);
		// n8n has talked to the API before (a test event), so it has seen the service's Date
		await books('estimateCreated').pollTrigger('manual');
	});

	test.each([
		['Books: Estimate Created', () => books('estimateCreated'), newEstimate, 'estimate_id'],
		['Inventory: Bill Created', bills, async () => newBill(), 'bill_id'],
		['Projects: Project Created', () => projects('projectCreated'), newProject, 'id'],
	])(
		'%s: the first activation emits nothing existing; a record created after it is emitted once by a following poll',
		async (_name, make, create, idField) => {
			const trigger = make();
			const first = await trigger.poll();
			expect(first.items).toEqual([]);
			expect(first.calls.length).toBeGreaterThan(0);
			await nextSecond();
			const id = await create();
			const next = await trigger.pollCalling();
			expect(ids(next, idField)).toEqual([id]);
			const after = await trigger.poll();
			expect(after.items).toEqual([]);
		},
	);

	test.each([
		['Books: Invoice Created', () => books('invoiceCreated'), newInvoice, 'invoice_id'],
		['Billing: Billing Project Created', billing, newBillingProject, 'project_id'],
		['Inventory: Bill Created', bills, async () => newBill(), 'bill_id'],
		['Projects: Project Created', () => projects('projectCreated'), newProject, 'id'],
		[
			'Books: Invoice Status Changed (overdue)',
			() => books('invoiceStatusChanged', { status: 'overdue' }),
			invoiceTurnsOverdue,
			'invoice_id',
		],
		['Projects: Project Updated', () => projects('projectUpdated'), projectChanged, 'id'],
		['Projects: Record Moved to Trash', () => projects('recordTrashed'), projectTrashed, 'id'],
	])(
		'%s: an activation that met an outage (every call 503), then a record created or changed, then the next poll: emitted once, nothing older',
		async (_name, make, create, idField) => {
			await outageThenChange(make(), create, idField);
		},
	);
});

/** Activated while every call answers 503, then a record created or changed (`change`): the next poll that calls emits it once, nothing older; the one after nothing. */
async function outageThenChange(
	trigger: Trigger,
	change: () => Promise<string>,
	idField: string,
): Promise<void> {
	const end = outage();
	const first = await trigger.poll();
	end();
	expect(first.items).toEqual([]);
	expect(first.calls.length).toBeGreaterThan(0);
	expect(first.calls.every((c) => c.status === 503)).toBe(true);
	await nextSecond();
	const id = await change();
	const next = await trigger.pollCalling();
	expect(ids(next, idField)).toEqual([id]);
	expect((await trigger.poll()).items).toEqual([]);
}

// ---------------------------------------------------------------- a record deleted while a scanning trigger pages

describe('a record deleted while a scanning trigger pages does not make an old record new', () => {
	beforeAll(() => skew(-5 * MINUTE));

	/** Enough records of `collection` for 2 pages of 200 (put straight into the store, made before activation). */
	function fill(collection: string, make: (id: string, i: number) => IDataObject, n = 260): void {
		for (let i = 0; i < n; i++) {
			const id = env.em.store.nextId();
			tenant.put(collection, id, make(id, i));
		}
	}

	/**
	 * Before page 2 of the next list read is answered, the first record of that read's page 1 is
	 * deleted: the first record of page 2 moves onto page 1, already read, and is missing from this read.
	 */
	function deleteDuringPaging(
		listPath: RegExp,
		collection: string,
		idKey: string,
		listKey: string,
	): { deleted?: string; shifted?: string } {
		const seen: { deleted?: string; shifted?: string } = {};
		let page1: IDataObject[] | undefined;
		proxy.add({
			method: 'GET',
			path: listPath,
			test: (req: ProxiedRequest) => {
				if (seen.deleted) return false;
				if ((req.query.page ?? '1') === '1') return false;
				const last = [...proxy.records]
					.reverse()
					.find((r) => listPath.test(r.path) && (r.query.page ?? '1') === '1');
				page1 = ((last?.upstreamJson as IDataObject | undefined)?.[listKey] ?? []) as IDataObject[];
				if (!page1.length) return false;
				seen.deleted = String(page1[0][idKey]);
				tenant.remove(collection, seen.deleted);
				return false;
			},
			action: { drop: true },
		});
		return seen;
	}

	test.each([...createdCases('Scan')])(
		'%s: deleted during paging, the shifted record is not emitted by this poll or the next; a new record is, once',
		async (_name, make, collection, idKey, listPath, record) => {
			fill(collection, record);
			const trigger = make();
			const first = await trigger.poll();
			expect(first.items).toEqual([]);
			expect(first.calls.filter((c) => listPath.test(c.path)).length).toBeGreaterThanOrEqual(2);

			const listed = (poll: Poll) =>
				poll.calls
					.filter((c) => listPath.test(c.path))
					.flatMap((c) =>
						(
							((c.upstreamJson as IDataObject | undefined)?.[collection] ?? []) as IDataObject[]
						).map((r) => String(r[idKey])),
					);
			const baseline = new Set(listed(first));
			const shift = deleteDuringPaging(listPath, collection, idKey, collection);
			const during = await trigger.pollCalling();
			expect(shift.deleted).toBeDefined();
			// the read really missed a record that was there before (the one pushed back onto page 1)
			const readDuring = new Set(listed(during));
			const missed = [...baseline].filter((id) => id !== shift.deleted && !readDuring.has(id));
			expect(missed).toHaveLength(1);
			expect(during.items).toEqual([]);

			proxy.reset();
			await nextSecond();
			const fresh = env.em.store.nextId();
			// made now: a record that carries a creation time carries this second's
			const made: IDataObject = record(fresh, 9999);
			if (made.created_time !== undefined)
				Object.assign(made, {
					created_time: timestampMs(clock.now()),
					last_modified_time: timestampMs(clock.now()),
				});
			tenant.put(collection, fresh, made);
			const after = await trigger.pollCalling();
			expect(listed(after)).toContain(missed[0]);
			expect(ids(after, idKey)).toEqual([fresh]);
			expect((await trigger.poll()).items).toEqual([]);
		},
	);

	test.each([
		...createdCases('Early'),
		// status events: a record in the status since before activation is no status change
		[
			'Books: Estimate Status Changed (accepted)',
			() => books('estimateStatusChanged', { status: 'accepted' }),
			'estimates',
			'estimate_id',
			/\/books\/v3\/estimates$/,
			(id: string, i: number) => ({
				estimate_id: id,
				estimate_number: `EE-${i}`,
				status: 'accepted',
				customer_id: customer,
				date: timestamp(clock.now()).slice(0, 10),
				created_time: timestamp(clock.now() - 3_600_000),
				last_modified_time: timestamp(clock.now() - 3_600_000),
			}),
		],
		[
			'Books: Invoice Status Changed (overdue)',
			() => books('invoiceStatusChanged', { status: 'overdue' }),
			'invoices',
			'invoice_id',
			/\/books\/v3\/invoices$/,
			(id: string, i: number) => ({
				invoice_id: id,
				invoice_number: `EI-${i}`,
				status: 'overdue',
				customer_id: customer,
				date: '2026-01-01',
				due_date: '2026-01-31',
				created_time: timestamp(clock.now() - 3_600_000),
				last_modified_time: timestamp(clock.now() - 3_600_000),
			}),
		],
	])(
		'%s: a record deleted while the activation pages: the record pushed back onto page 1 (made before activation) is not emitted by the next poll',
		async (_name, make, collection, idKey, listPath, record) => {
			fill(collection, record);
			const trigger = make();
			const before = new Set(tenant.all(collection).map((r) => String(r[idKey])));
			const shift = deleteDuringPaging(listPath, collection, idKey, collection);
			const first = await trigger.poll();
			expect(shift.deleted).toBeDefined();
			expect(first.items).toEqual([]);
			proxy.reset();
			await nextSecond();
			const next = await trigger.pollCalling();
			// every record there before activation is old: none of them is emitted
			expect(ids(next, idKey).filter((id) => before.has(id))).toEqual([]);
		},
	);
});
