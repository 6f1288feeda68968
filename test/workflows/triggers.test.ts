/**
 * The polling triggers on n8n's engine (a real PollContext per poll, static data carried
 * from poll to poll as n8n does) against the emulator: sequences of creates, status
 * changes and deletions between polls -> exactly the expected emissions, and the calls
 * each poll made.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { Clock } from '../../emulator/clock';
import { RULES } from '../../emulator/rules';
import { timestamp } from '../../emulator/rules/formats';
import type { RecordedRequest } from '../../emulator/server';
import type { Tenant } from '../../emulator/store';
import { PolledTrigger, WorkflowEnv } from './support';

const env = new WorkflowEnv();
const clock = new Clock({ start: Date.parse('2026-03-02T09:00:00Z') });
let org: string;
let portal: string;
let tenant: Tenant;
let customer: string;

// the emulator dates its answers by its clock: the service's time, months before this machine's
beforeAll(async () => {
	await env.start({ demo: true, clock });
	({ org, portal } = { org: env.em.organizationId, portal: env.em.portalId });
	tenant = env.orgTenant();
	customer = String(tenant.all('customers')[0].customer_id);
});
afterAll(async () => {
	await env.stop();
});

interface Poll {
	items: IDataObject[];
	calls: RecordedRequest[];
}

/** A trigger node of this file's emulator; each poll runs with the static data the previous one left. */
class Trigger extends PolledTrigger {
	constructor(type: new () => INodeType, parameters: IDataObject) {
		super(env, type, parameters);
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<Poll> {
		return await this.pollTrigger(mode);
	}
}

const tick = (seconds = 1) => clock.advance(seconds * 1000);

function lineItems(): IDataObject[] {
	return [{ name: 'Work', rate: 100, quantity: 1 }];
}

async function create(area: string, path: string, json: IDataObject, key: string): Promise<string> {
	const res = await env.call('POST', area, path, { json });
	if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
	const rec = (res.body[key] ?? res.body) as IDataObject;
	return String(rec[`${key}_id`] ?? rec.id);
}

const newEstimate = () =>
	create('books', '/estimates', { customer_id: customer, line_items: lineItems() }, 'estimate');
const newInvoice = () =>
	create('books', '/invoices', { customer_id: customer, line_items: lineItems() }, 'invoice');
const ids = (poll: Poll, field: string) => poll.items.map((i) => String(i[field]));

function setStatus(collection: string, id: string, status: string): void {
	const rec = tenant.get(collection, id) as IDataObject;
	rec.status = status;
	rec.last_modified_time = timestamp(clock.now());
}

describe('Vendor Books Trigger', () => {
	test('estimate created: baseline, nothing new in one call, records sharing a timestamp, deletions, manual test run', async () => {
		const trigger = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'estimateCreated',
		});

		// First activation: the existing estimates are the baseline, nothing is emitted.
		const first = await trigger.poll();
		expect(first.items).toEqual([]);
		expect(first.calls).toHaveLength(1);
		const [list] = first.calls;
		expect([list.method, list.path]).toEqual(['GET', '/us/api/books/v3/estimates']);
		expect(list.query).toEqual({
			organization_id: org,
			sort_column: 'created_time',
			sort_order: 'D',
			page: '1',
			per_page: '200',
		});
		expect(list.headers.authorization).toBe(
			`Vendor-oauthtoken ${String(env.storedToken.access_token)}`,
		);

		const idle = await trigger.poll();
		expect(idle.items).toEqual([]);
		expect(idle.calls).toHaveLength(1);

		// Two estimates in the same second, one a second later: all three, oldest first, one call.
		tick();
		const a = await newEstimate();
		const b = await newEstimate();
		tick();
		const c = await newEstimate();
		const next = await trigger.poll();
		expect(ids(next, 'estimate_id')).toEqual([a, b, c]);
		expect(next.calls).toHaveLength(1);

		// A new estimate with the same timestamp as the cursor: only it is emitted.
		const d = await newEstimate();
		expect(tenant.get('estimates', d)?.created_time).toBe(tenant.get('estimates', c)?.created_time);
		expect(ids(await trigger.poll(), 'estimate_id')).toEqual([d]);

		// The newest estimate disappears, another is created: only the new one.
		tenant.remove('estimates', d);
		tick();
		const e = await newEstimate();
		const afterDelete = await trigger.poll();
		expect(ids(afterDelete, 'estimate_id')).toEqual([e]);
		expect(afterDelete.calls).toHaveLength(1);

		// Manual "Fetch Test Event": the most recent estimate, and the state is left alone.
		tick();
		const f = await newEstimate();
		const manual = await trigger.poll('manual');
		expect(ids(manual, 'estimate_id')).toEqual([f]);
		expect(manual.calls).toHaveLength(1);
		expect(ids(await trigger.poll(), 'estimate_id')).toEqual([f]);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('estimate status changed to accepted: entries into the status only, re-entries again, deletions ignored', async () => {
		const trigger = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'estimateStatusChanged',
			status: 'accepted',
		});
		const x = await newEstimate();
		const y = await newEstimate();
		const first = await trigger.poll();
		expect(first.items).toEqual([]);
		expect(first.calls.map((r) => [r.method, r.path, r.query])).toEqual([
			[
				'GET',
				'/us/api/books/v3/estimates',
				{
					organization_id: org,
					sort_column: 'created_time',
					sort_order: 'D',
					status: 'accepted',
					page: '1',
					per_page: '200',
				},
			],
		]);

		tick();
		setStatus('estimates', x, 'accepted');
		const accepted = await trigger.poll();
		expect(ids(accepted, 'estimate_id')).toEqual([x]);
		expect(accepted.items[0].status).toBe('accepted');
		expect(accepted.calls).toHaveLength(1);
		expect((await trigger.poll()).items).toEqual([]);

		// x moves on, y is accepted, z is created (draft), y2 declined: only y.
		tick();
		setStatus('estimates', x, 'invoiced');
		setStatus('estimates', y, 'accepted');
		const z = await newEstimate();
		const declined = await newEstimate();
		setStatus('estimates', declined, 'declined');
		expect(ids(await trigger.poll(), 'estimate_id')).toEqual([y]);

		// x is accepted again: a new change, emitted again. y is deleted: nothing.
		tick();
		setStatus('estimates', x, 'accepted');
		tenant.remove('estimates', y);
		expect(ids(await trigger.poll(), 'estimate_id')).toEqual([x]);
		expect((await trigger.poll()).items).toEqual([]);
		expect(z).toBeDefined();

		// Only what is in the status is remembered.
		const state = trigger.staticData['node:Trigger'] as IDataObject;
		const remembered = (state.vendorPoll as IDataObject).keys as string[];
		expect(remembered.sort()).toEqual(
			tenant
				.all('estimates')
				.filter((r) => r.status === 'accepted')
				.map((r) => String(r.estimate_id))
				.sort(),
		);
	});

	test('invoice became paid or partially paid through real payments; overdue; the status filter travels', async () => {
		const paid = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'invoiceStatusChanged',
			status: 'paid',
		});
		const partial = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'invoiceStatusChanged',
			status: 'partially_paid',
		});
		const overdue = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'invoiceStatusChanged',
			status: 'overdue',
		});
		const one = await newInvoice();
		const two = await newInvoice();
		const three = await newInvoice();
		for (const t of [paid, partial, overdue]) expect((await t.poll()).items).toEqual([]);

		tick();
		const pay = async (invoice: string, amount: number) =>
			create(
				'invoice',
				'/customerpayments',
				{
					customer_id: customer,
					payment_mode: 'cash',
					amount,
					date: '2026-03-02',
					invoices: [{ invoice_id: invoice, amount_applied: amount }],
				},
				'payment',
			);
		await pay(one, 100);
		await pay(two, 40);
		setStatus('invoices', three, 'overdue');
		const paidPoll = await paid.poll();
		expect(ids(paidPoll, 'invoice_id')).toEqual([one]);
		expect(paidPoll.calls[0].query).toMatchObject({
			status: 'paid',
			sort_column: 'created_time',
			sort_order: 'D',
		});
		expect(ids(await partial.poll(), 'invoice_id')).toEqual([two]);
		expect(ids(await overdue.poll(), 'invoice_id')).toEqual([three]);

		// The rest of the partly paid invoice: it leaves partially_paid and becomes paid.
		tick();
		await pay(two, 60);
		expect(ids(await paid.poll(), 'invoice_id')).toEqual([two]);
		expect((await partial.poll()).items).toEqual([]);
		expect((await overdue.poll()).items).toEqual([]);
	});

	test('1,000 new invoices since the last poll: every one once, in order, across pages', async () => {
		const trigger = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'invoiceCreated',
		});
		expect((await trigger.poll()).items).toEqual([]);

		// 1,000 invoices in four seconds (300, 300, 300, 100 per second): page boundaries fall inside ties.
		const created: string[] = [];
		for (let i = 0; i < 1000; i++) {
			if (i % 300 === 0) tick();
			const id = env.em.store.nextId();
			const stamp = timestamp(clock.now());
			tenant.put('invoices', id, {
				invoice_id: id,
				invoice_number: `BULK-${i}`,
				customer_id: customer,
				status: 'draft',
				total: 1,
				balance: 1,
				created_time: stamp,
				last_modified_time: stamp,
			});
			created.push(id);
		}
		const bulk = await trigger.poll();
		expect(bulk.items).toHaveLength(1000);
		expect(ids(bulk, 'invoice_id')).toEqual(created);
		// 200 per page: pages 1-5 hold the new invoices, page 6 reaches the older ones and stops.
		expect(bulk.calls.map((r) => r.query.page)).toEqual(['1', '2', '3', '4', '5', '6']);
		expect(bulk.calls.every((r) => r.query.per_page === '200' && r.query.sort_order === 'D')).toBe(
			true,
		);

		const idle = await trigger.poll();
		expect(idle.items).toEqual([]);
		expect(idle.calls).toHaveLength(1);
	});

	test('a server that ignores the newest-first order: the trigger notices and reads every page, missing nothing', async () => {
		const original = RULES['books.estimate.getAll'];
		RULES['books.estimate.getAll'] = {
			handle: (ctx) =>
				(original.handle as NonNullable<typeof original.handle>)({
					...ctx,
					query: { ...ctx.query, sort_order: 'A' },
				}),
		};
		try {
			tick();
			for (let i = 0; i < 450; i++) {
				const id = env.em.store.nextId();
				const stamp = timestamp(clock.now());
				tenant.put('estimates', id, {
					estimate_id: id,
					estimate_number: `OLD-${i}`,
					customer_id: customer,
					status: 'draft',
					created_time: stamp,
					last_modified_time: stamp,
				});
			}
			const trigger = new Trigger(VendorBooksTrigger, {
				organizationId: org,
				event: 'estimateCreated',
			});
			expect((await trigger.poll()).items).toEqual([]);
			tick();
			const a = await newEstimate();
			tick();
			const b = await newEstimate();
			const next = await trigger.poll();
			expect(ids(next, 'estimate_id')).toEqual([a, b]);
			const pagesNeeded = Math.ceil(tenant.all('estimates').length / 200);
			expect(pagesNeeded).toBeGreaterThan(2);
			expect(next.calls).toHaveLength(pagesNeeded);
			expect((await trigger.poll()).items).toEqual([]);
		} finally {
			RULES['books.estimate.getAll'] = original;
		}
	});

	test('item created: the whole list (all statuses) compared with the known ids; deletions and deactivations emit nothing', async () => {
		const trigger = new Trigger(VendorBooksTrigger, { organizationId: org, event: 'itemCreated' });
		const first = await trigger.poll();
		expect(first.items).toEqual([]);
		expect(first.calls.map((r) => [r.method, r.path, r.query])).toEqual([
			[
				'GET',
				'/us/api/books/v3/items',
				{ organization_id: org, filter_by: 'Status.All', page: '1', per_page: '200' },
			],
		]);
		const gone = await create('books', '/items', { name: 'Temporary', rate: 5 }, 'item');
		await trigger.poll();

		const made = await create('books', '/items', { name: 'Widget', rate: 10 }, 'item');
		await env.call('DELETE', 'books', `/items/${gone}`);
		const existing = tenant
			.all('items')
			.find((i) => i.status === 'active' && String(i.item_id) !== made) as IDataObject;
		await env.call('POST', 'books', `/items/${existing.item_id}/inactive`);
		const next = await trigger.poll();
		expect(ids(next, 'item_id')).toEqual([made]);
		expect(next.items[0]).toMatchObject({ name: 'Widget', rate: 10 });
		expect(next.calls).toHaveLength(1);

		// Re-activating an item is not a creation.
		await env.call('POST', 'books', `/items/${existing.item_id}/active`);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('bad filter values are refused naming the field, before anything is sent; a changed filter starts a new baseline', async () => {
		const bad = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'estimateCreated',
			filters: { date_start: '02/03/2026' },
		});
		await expect(bad.poll()).rejects.toThrow(/Date Start must be a date/);
		expect(env.apiRequests()).toHaveLength(0);
		const noOrg = new Trigger(VendorBooksTrigger, { organizationId: '', event: 'estimateCreated' });
		await expect(noOrg.poll()).rejects.toThrow('Organization ID is required');

		const trigger = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'estimateCreated',
			filters: { customer_name_contains: 'zzz' },
		});
		await trigger.poll();
		tick();
		await newEstimate();
		const filtered = await trigger.poll();
		expect(filtered.items).toEqual([]);
		expect(filtered.calls[0].query.customer_name_contains).toBe('zzz');
		// Same node, filter removed: a new baseline (nothing emitted), then only what is new.
		const widened = new Trigger(VendorBooksTrigger, {
			organizationId: org,
			event: 'estimateCreated',
		});
		widened.staticData = trigger.staticData;
		expect((await widened.poll()).items).toEqual([]);
		tick();
		const later = await newEstimate();
		expect(ids(await widened.poll(), 'estimate_id')).toEqual([later]);
	});
});

describe('the other triggers', () => {
	test('Vendor Invoice Trigger: payment recorded (scan of the payment list; deleted payments are forgotten)', async () => {
		const trigger = new Trigger(VendorInvoiceTrigger, {
			organizationId: org,
			event: 'paymentRecorded',
		});
		const first = await trigger.poll();
		expect(first.items).toEqual([]);
		expect(
			first.calls.map((r) => [
				r.method,
				r.path,
				r.query,
				r.headers['x-com-vendor-invoice-organizationid'],
			]),
		).toEqual([
			['GET', '/us/api/invoice/v3/customerpayments', { page: '1', per_page: '200' }, org],
		]);
		const invoice = await newInvoice();
		const p1 = await create(
			'invoice',
			'/customerpayments',
			{
				customer_id: customer,
				payment_mode: 'cash',
				amount: 10,
				date: '2026-03-02',
				invoices: [{ invoice_id: invoice, amount_applied: 10 }],
			},
			'payment',
		);
		const p2 = await create(
			'invoice',
			'/customerpayments',
			{
				customer_id: customer,
				payment_mode: 'check',
				amount: 20,
				date: '2026-03-01',
				invoices: [{ invoice_id: invoice, amount_applied: 20 }],
			},
			'payment',
		);
		const next = await trigger.poll();
		// ordered by payment date
		expect(ids(next, 'payment_id')).toEqual([p2, p1]);
		expect(next.calls).toHaveLength(1);
		await env.call('DELETE', 'invoice', `/customerpayments/${p1}`);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('Vendor Projects Trigger: project created, project updated, record moved to trash (newest first by trashed_time)', async () => {
		const created = new Trigger(VendorProjectsTrigger, {
			event: 'projectCreated',
			portal_id: { __rl: true, mode: 'id', value: portal },
		});
		const updated = new Trigger(VendorProjectsTrigger, {
			event: 'projectUpdated',
			portal_id: { __rl: true, mode: 'id', value: portal },
		});
		const trashed = new Trigger(VendorProjectsTrigger, {
			event: 'recordTrashed',
			portal_id: { __rl: true, mode: 'id', value: portal },
		});
		const base = await created.poll();
		expect(base.calls.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `/us/projects/api/v3/portal/${portal}/projects`, { page: '1', per_page: '200' }],
		]);
		await updated.poll();
		const bin = await trashed.poll();
		expect(bin.calls.map((r) => [r.method, r.path, r.query])).toEqual([
			[
				'GET',
				`/us/projects/api/v3/portal/${portal}/bin`,
				{ sort_by: 'desc(trashed_time)', page: '1', per_page: '200' },
			],
		]);

		tick();
		const p1 = await create('projects', `/portal/${portal}/projects`, { name: 'Alpha' }, 'project');
		const p2 = await create('projects', `/portal/${portal}/projects`, { name: 'Beta' }, 'project');
		expect(ids(await created.poll(), 'id')).toEqual([p1, p2]);
		expect((await updated.poll()).items).toEqual([]);

		tick();
		await env.call('PATCH', 'projects', `/portal/${portal}/projects/${p1}`, {
			json: { description: 'Changed' },
		});
		const upd = await updated.poll();
		expect(ids(upd, 'id')).toEqual([p1]);
		expect(upd.items[0].description).toBe('Changed');
		expect((await created.poll()).items).toEqual([]);

		// Two trashed in one second, one later; then restored and trashed again: emitted again.
		tick();
		await env.call('POST', 'projects', `/portal/${portal}/trash`, {
			json: { module: 'projects', items: [p1, p2] },
		});
		const t1 = await trashed.poll();
		expect(t1.items.map((i) => [i.module, i.id])).toEqual([
			['projects', p1],
			['projects', p2],
		]);
		expect(t1.calls).toHaveLength(1);
		expect((await trashed.poll()).items).toEqual([]);
		tick();
		await env.call('POST', 'projects', `/portal/${portal}/bin/restore`, {
			json: [{ module: 'projects', items: [p2] }],
		});
		expect((await trashed.poll()).items).toEqual([]);
		tick();
		await env.call('POST', 'projects', `/portal/${portal}/trash`, {
			json: { module: 'projects', items: [p2] },
		});
		expect(ids(await trashed.poll(), 'id')).toEqual([p2]);
		// Trashed projects left the project list: no "updated" for them.
		expect((await updated.poll()).items).toEqual([]);
	});

	test('Vendor Billing Trigger: billing project created (newest first by created_time, filters travel)', async () => {
		const trigger = new Trigger(VendorBillingTrigger, {
			organizationId: org,
			event: 'projectCreated',
			filters: { filter_by: 'Status.All' },
		});
		const first = await trigger.poll();
		expect(first.items).toEqual([]);
		expect(
			first.calls.map((r) => [
				r.method,
				r.path,
				r.query,
				r.headers['x-com-vendor-subscriptions-organizationid'],
			]),
		).toEqual([
			[
				'GET',
				'/us/api/billing/v1/projects',
				{
					filter_by: 'Status.All',
					sort_column: 'created_time',
					sort_order: 'D',
					page: '1',
					per_page: '200',
				},
				org,
			],
		]);
		tick();
		const made = await create(
			'billing',
			'/projects',
			{ project_name: 'Retainer', customer_id: customer, billing_type: 'based_on_task_hours' },
			'project',
		);
		const next = await trigger.poll();
		expect(ids(next, 'project_id')).toEqual([made]);
		expect(next.calls).toHaveLength(1);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('Vendor Inventory Trigger: bill created; "Start From Existing Records" emits the existing bills first', async () => {
		const trigger = new Trigger(VendorInventoryTrigger, {
			organizationId: org,
			event: 'billCreated',
			options: { startFromExisting: true },
		});
		const first = await trigger.poll();
		const existing = tenant.all('bills').map((b) => String(b.bill_id));
		expect(ids(first, 'bill_id').sort()).toEqual(existing.sort());
		expect(first.calls.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/us/api/inventory/v1/bills', { organization_id: org, page: '1', per_page: '200' }],
		]);
		tick();
		const vendor = String(tenant.all('vendors')[0]?.vendor_id ?? '1');
		const bill = await create(
			'inventory',
			'/bills',
			{
				vendor_id: vendor,
				bill_number: 'B-9',
				date: '2026-03-02',
				due_date: '2026-04-01',
				line_items: [{ name: 'Paper', rate: 3, quantity: 2 }],
			},
			'bill',
		);
		expect(ids(await trigger.poll(), 'bill_id')).toEqual([bill]);
		expect((await trigger.poll()).items).toEqual([]);
	});
});

describe('trigger descriptions', () => {
	test('polling trigger nodes: event picker, status picker, filters from the list tables (no sorting), options', () => {
		const books = new VendorBooksTrigger().description;
		expect(books).toMatchObject({
			name: 'vendorBooksTrigger',
			displayName: 'Vendor Books Trigger',
			group: ['trigger'],
			polling: true,
			inputs: [],
			outputs: ['main'],
		});
		expect(books.usableAsTool).toBeUndefined();
		const event = books.properties.find((p) => p.name === 'event');
		expect(event?.options?.map((o) => (o as unknown as IDataObject).value)).toEqual([
			'estimateCreated',
			'estimateStatusChanged',
			'invoiceCreated',
			'invoiceStatusChanged',
			'itemCreated',
		]);
		const statusFor = (e: string) =>
			books.properties.find(
				(p) => p.name === 'status' && p.displayOptions?.show?.event?.includes(e),
			);
		// the status must be chosen: it starts at Not Set ('') and n8n marks it required
		expect(
			statusFor('estimateStatusChanged')
				?.options?.map((o) => (o as unknown as IDataObject).value)
				.sort(),
		).toEqual(['', 'accepted', 'declined', 'expired', 'invoiced', 'sent']);
		expect(
			statusFor('invoiceStatusChanged')
				?.options?.map((o) => (o as unknown as IDataObject).value)
				.sort(),
		).toEqual(['', 'overdue', 'paid', 'partially_paid']);
		expect([
			statusFor('estimateStatusChanged')?.default,
			statusFor('estimateStatusChanged')?.required,
		]).toEqual(['', true]);
		const filtersFor = (e: string) =>
			(
				books.properties.find(
					(p) => p.name === 'filters' && p.displayOptions?.show?.event?.includes(e),
				)?.options ?? []
			).map((o) => (o as unknown as IDataObject).name);
		expect(filtersFor('estimateStatusChanged')).toEqual(
			expect.arrayContaining(['customer_name_contains', 'date_start', 'date_end']),
		);
		expect(filtersFor('estimateStatusChanged')).not.toEqual(expect.arrayContaining(['status']));
		expect(filtersFor('estimateCreated')).toEqual(expect.arrayContaining(['status']));
		for (const e of ['estimateCreated', 'invoiceCreated', 'itemCreated'])
			expect(filtersFor(e).filter((n) => String(n).startsWith('sort_'))).toEqual([]);
		const options = books.properties.find((p) => p.name === 'options');
		expect(options?.options?.map((o) => (o as unknown as IDataObject).name)).toEqual([
			'startFromExisting',
		]);
		// a daily budget on every trigger; the date window only where an event offers one (Payment Recorded)
		expect(books.properties.find((p) => p.name === 'maxCallsPerDay')).toMatchObject({
			displayName: 'Max API Calls per Day',
			type: 'number',
			default: 500,
		});
		expect(books.properties.find((p) => p.name === 'windowDays')).toBeUndefined();
		const payments = new VendorInvoiceTrigger().description.properties;
		expect(payments.find((p) => p.name === 'windowDays')).toMatchObject({
			displayName: 'Only Payments Dated Within the Last N Days',
			type: 'number',
			default: 0,
			displayOptions: { show: { event: ['paymentRecorded'] } },
		});
		expect(payments.find((p) => p.name === 'windowDays')?.description).toMatch(/never emitted/);

		const projects = new VendorProjectsTrigger();
		const portalProp = projects.description.properties.find((p) => p.name === 'portal_id');
		expect(portalProp).toMatchObject({ type: 'resourceLocator', required: true });
		expect(Object.keys(projects.methods?.listSearch ?? {})).toContain('searchPortals');
		for (const T of [VendorInvoiceTrigger, VendorBillingTrigger, VendorInventoryTrigger]) {
			const d = new T().description;
			expect(d.polling).toBe(true);
			expect(d.properties.find((p) => p.name === 'organizationId')).toMatchObject({
				required: true,
			});
		}
	});
});
