/**
 * Large accounts for the trigger cost tests and bench/trigger-costs.ts: `n` records of every
 * kind a trigger watches, put straight into the emulator's store (no API call, a few hundred
 * milliseconds for 10,000 of each), every event of the five triggers with the parameters it
 * polls with, and one change per event (what a "poll after one change" finds).
 */
import type { IDataObject, INodeType } from 'n8n-workflow';
import { getGlobalState } from 'n8n-workflow';

import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import type { Clock } from '../../emulator/clock';
import { day, timestamp, timestampMs } from '../../emulator/rules/formats';
import type { Store, Tenant } from '../../emulator/store';

/** Statuses the seeded estimates and invoices cycle through: a quarter of them in each. */
const ESTIMATE_STATUSES = ['accepted', 'sent', 'declined', 'invoiced'];
const INVOICE_STATUSES = ['overdue', 'paid', 'partially_paid', 'sent'];

/** What a case needs of the emulator: its store, clock and the US organisation and portal. */
export interface Account {
	store: Store;
	clock: Clock;
	org: Tenant;
	portal: Tenant;
}

/** A record made at `at` (one second apart going back from it), in the accounting or the project timestamp form. */
function stamps(at: number, i: number): { created: string; createdMs: string } {
	const t = at - (i + 1) * 1000;
	return { created: timestamp(t), createdMs: timestampMs(t) };
}

/**
 * `n` records of each kind, made before now (one a second going back); payments dated over
 * the last three years (about nine a day at 10,000), a quarter of the estimates accepted and
 * a quarter of the invoices overdue (and of paid, partially paid).
 */
export function seedAccount({ store, clock, org, portal }: Account, n: number): void {
	const now = clock.now();
	for (let i = 0; i < n; i++) {
		const { created, createdMs } = stamps(now, i);
		const id = () => store.nextId();
		const estimate = id();
		org.put('estimates', estimate, { estimate_id: estimate, estimate_number: `EST-${i}`, status: ESTIMATE_STATUSES[i % 4], date: created.slice(0, 10), total: 1, created_time: created, last_modified_time: created });
		const invoice = id();
		org.put('invoices', invoice, { invoice_id: invoice, invoice_number: `INV-${i}`, status: INVOICE_STATUSES[i % 4], date: created.slice(0, 10), total: 1, balance: 1, created_time: created, last_modified_time: created });
		const item = id();
		org.put('items', item, { item_id: item, name: `Item ${i}`, rate: 1, status: 'active' });
		const payment = id();
		org.put('customerpayments', payment, { payment_id: payment, payment_number: `P-${i}`, date: day(now, -(i % 1095)), payment_mode: 'cash', amount: 1 });
		const bill = id();
		org.put('bills', bill, { bill_id: bill, bill_number: `B-${i}`, status: 'open', created_time: createdMs, last_modified_time: createdMs });
		const billing = id();
		org.put('projects', billing, { project_id: billing, project_name: `Billing ${i}`, status: 'active', billing_type: 'based_on_task_hours', created_time: createdMs });
		const project = id();
		portal.put('projects', project, { id: project, name: `Project ${i}`, status: 'active', created_time: createdMs, last_modified_time: createdMs });
		const trashed = id();
		const trashedAt = now - (i + 1) * 1000;
		portal.bin.set(`tasks:${trashed}`, { module: 'tasks', id: trashed, trashedAt, record: { id: trashed, name: `Task ${i}` }, entry: { id: trashed, name: `Task ${i}`, module: 'tasks', trashed_time: timestampMs(trashedAt) } });
	}
}

/** One event of one trigger node, as a user sets it up, and one change that it must report. */
export interface EventCase {
	/** Label of the table row, e.g. `Books: Estimate Created`. */
	label: string;
	nodeType: new () => INodeType;
	parameters: IDataObject;
	/** Makes one record that the event reports (now, by the account's clock); returns its id. */
	change(account: Account): string;
	/** The field holding the id of an emitted record. */
	idField: string;
}

const newId = (account: Account) => account.store.nextId();

/** The date (yyyy-mm-dd) at `ms` in the workflow's time zone (n8n's default: the harness sets none per workflow). */
export function localDay(ms: number): string {
	return new Intl.DateTimeFormat('en-CA', { timeZone: getGlobalState().defaultTimezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

/** A record of `collection` changed now: its status (and modification time) set. */
function setStatus(account: Account, collection: string, idField: string, from: string, to: string): string {
	const record = account.org.all(collection).find((r) => r.status === from) as IDataObject;
	record.status = to;
	record.last_modified_time = timestamp(account.clock.now());
	return String(record[idField]);
}

/** Every event of the five trigger nodes; `org` / `portal` are the ids the nodes are set to. */
export function eventCases(org: string, portal: string): EventCase[] {
	const books = (event: string, extra: IDataObject = {}) => ({ nodeType: VendorBooksTrigger, parameters: { organizationId: org, event, ...extra } });
	const projects = (event: string) => ({ nodeType: VendorProjectsTrigger, parameters: { portal_id: { __rl: true, mode: 'id', value: portal }, event } });
	return [
		{
			label: 'Books: Estimate Created',
			...books('estimateCreated'),
			idField: 'estimate_id',
			change: (a) => {
				const id = newId(a);
				const created = timestamp(a.clock.now());
				a.org.put('estimates', id, { estimate_id: id, estimate_number: `EST-new-${id}`, status: 'draft', date: created.slice(0, 10), created_time: created, last_modified_time: created });
				return id;
			},
		},
		{
			label: 'Books: Estimate Status Changed (accepted)',
			...books('estimateStatusChanged', { status: 'accepted' }),
			idField: 'estimate_id',
			change: (a) => setStatus(a, 'estimates', 'estimate_id', 'sent', 'accepted'),
		},
		{
			label: 'Books: Invoice Created',
			...books('invoiceCreated'),
			idField: 'invoice_id',
			change: (a) => {
				const id = newId(a);
				const created = timestamp(a.clock.now());
				a.org.put('invoices', id, { invoice_id: id, invoice_number: `INV-new-${id}`, status: 'draft', date: created.slice(0, 10), created_time: created, last_modified_time: created });
				return id;
			},
		},
		{
			label: 'Books: Invoice Status Changed (overdue)',
			...books('invoiceStatusChanged', { status: 'overdue' }),
			idField: 'invoice_id',
			change: (a) => setStatus(a, 'invoices', 'invoice_id', 'sent', 'overdue'),
		},
		{
			label: 'Books: Item Created',
			...books('itemCreated'),
			idField: 'item_id',
			change: (a) => {
				const id = newId(a);
				a.org.put('items', id, { item_id: id, name: `New item ${id}`, rate: 1, status: 'active' });
				return id;
			},
		},
		...[0, 1].map(
			(windowDays): EventCase => ({
				label: windowDays ? 'Payments: Payment Recorded, dated within the last 1 day' : 'Payments: Payment Recorded',
				nodeType: VendorInvoiceTrigger,
				parameters: { organizationId: org, event: 'paymentRecorded', ...(windowDays ? { windowDays } : {}) },
				idField: 'payment_id',
				change: (a) => {
					const id = newId(a);
					a.org.put('customerpayments', id, { payment_id: id, payment_number: `P-new-${id}`, date: localDay(a.clock.now()), payment_mode: 'cash', amount: 1 });
					return id;
				},
			}),
		),
		{
			label: 'Billing: Billing Project Created',
			nodeType: VendorBillingTrigger,
			parameters: { organizationId: org, event: 'projectCreated' },
			idField: 'project_id',
			change: (a) => {
				const id = newId(a);
				a.org.put('projects', id, { project_id: id, project_name: `New billing ${id}`, status: 'active', billing_type: 'based_on_task_hours', created_time: timestampMs(a.clock.now()) });
				return id;
			},
		},
		{
			label: 'Purchase Bills: Bill Created',
			nodeType: VendorInventoryTrigger,
			parameters: { organizationId: org, event: 'billCreated' },
			idField: 'bill_id',
			change: (a) => {
				const id = newId(a);
				const created = timestampMs(a.clock.now());
				a.org.put('bills', id, { bill_id: id, bill_number: `B-new-${id}`, status: 'open', created_time: created, last_modified_time: created });
				return id;
			},
		},
		{
			label: 'Projects: Project Created',
			...projects('projectCreated'),
			idField: 'id',
			change: (a) => {
				const id = newId(a);
				const created = timestampMs(a.clock.now());
				a.portal.put('projects', id, { id, name: `New project ${id}`, status: 'active', created_time: created, last_modified_time: created });
				return id;
			},
		},
		{
			label: 'Projects: Project Updated',
			...projects('projectUpdated'),
			idField: 'id',
			change: (a) => {
				const project = a.portal.all('projects')[0];
				project.description = `Changed at ${a.clock.now()}`;
				project.last_modified_time = timestampMs(a.clock.now());
				return String(project.id);
			},
		},
		{
			label: 'Projects: Record Moved to Trash',
			...projects('recordTrashed'),
			idField: 'id',
			change: (a) => {
				const id = newId(a);
				const at = a.clock.now();
				a.portal.bin.set(`tasks:${id}`, { module: 'tasks', id, trashedAt: at, record: { id, name: `Task ${id}` }, entry: { id, name: `Task ${id}`, module: 'tasks', trashed_time: timestampMs(at) } });
				return id;
			},
		},
	];
}

/** A case's parameters for the emulator `env` (its organisation and portal), with a budget that never skips a poll. */
export function withIds(parameters: IDataObject, env: { org: string; portal: string }): IDataObject {
	const out: IDataObject = { ...parameters, maxCallsPerDay: 1_000_000 };
	if (out.organizationId) out.organizationId = env.org;
	if (out.portal_id) out.portal_id = { __rl: true, mode: 'id', value: env.portal };
	return out;
}

/** A change of its own each time for Project Updated (the shared change edits the first project only), from the project after `skip`. */
export function changeOf(c: EventCase, skip = 0): (a: Account) => string {
	if (c.parameters.event !== 'projectUpdated') return c.change;
	let n = skip;
	return (a) => {
		const project = a.portal.all('projects')[++n];
		project.description = `Changed at ${a.clock.now()}`;
		project.last_modified_time = timestampMs(a.clock.now());
		return String(project.id);
	};
}
