/**
 * Every event of the five triggers with the parameters it polls with, and one change per event
 * (what a "poll after one change" finds), made straight in the emulator's store: for the
 * trigger tests and bench/trigger-costs.ts, on the large accounts of emulator/seed.ts.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';
import { getGlobalState } from 'n8n-workflow';

import { VendorBillingTrigger } from '../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { timestamp, timestampMs } from '../emulator/rules/formats';
import type { Account } from '../emulator/seed';

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
	return new Intl.DateTimeFormat('en-CA', {
		timeZone: getGlobalState().defaultTimezone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).format(ms);
}

/** A record of `collection` changed now: its status (and modification time) set. */
function setStatus(
	account: Account,
	collection: string,
	idField: string,
	from: string,
	to: string,
): string {
	const record = account.org.all(collection).find((r) => r.status === from) as IDataObject;
	record.status = to;
	record.last_modified_time = timestamp(account.clock.now());
	return String(record[idField]);
}

/** Every event of the five trigger nodes; `org` / `portal` are the ids the nodes are set to. */
export function eventCases(org: string, portal: string): EventCase[] {
	const books = (event: string, extra: IDataObject = {}) => ({
		nodeType: VendorBooksTrigger,
		parameters: { organizationId: org, event, ...extra },
	});
	const projects = (event: string) => ({
		nodeType: VendorProjectsTrigger,
		parameters: { portal_id: { __rl: true, mode: 'id', value: portal }, event },
	});
	return [
		{
			label: 'Books: Estimate Created',
			...books('estimateCreated'),
			idField: 'estimate_id',
			change: (a) => {
				const id = newId(a);
				const created = timestamp(a.clock.now());
				a.org.put('estimates', id, {
					estimate_id: id,
					estimate_number: `EST-new-${id}`,
					status: 'draft',
					date: created.slice(0, 10),
					created_time: created,
					last_modified_time: created,
				});
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
				a.org.put('invoices', id, {
					invoice_id: id,
					invoice_number: `INV-new-${id}`,
					status: 'draft',
					date: created.slice(0, 10),
					created_time: created,
					last_modified_time: created,
				});
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
				label: windowDays
					? 'Payments: Payment Recorded, dated within the last 1 day'
					: 'Payments: Payment Recorded',
				nodeType: VendorInvoiceTrigger,
				parameters: {
					organizationId: org,
					event: 'paymentRecorded',
					...(windowDays ? { windowDays } : {}),
				},
				idField: 'payment_id',
				change: (a) => {
					const id = newId(a);
					a.org.put('customerpayments', id, {
						payment_id: id,
						payment_number: `P-new-${id}`,
						date: localDay(a.clock.now()),
						payment_mode: 'cash',
						amount: 1,
					});
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
				a.org.put('projects', id, {
					project_id: id,
					project_name: `New billing ${id}`,
					status: 'active',
					billing_type: 'based_on_task_hours',
					created_time: timestampMs(a.clock.now()),
				});
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
				a.org.put('bills', id, {
					bill_id: id,
					bill_number: `B-new-${id}`,
					status: 'open',
					created_time: created,
					last_modified_time: created,
				});
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
				a.portal.put('projects', id, {
					id,
					name: `New project ${id}`,
					status: 'active',
					created_time: created,
					last_modified_time: created,
				});
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
				a.portal.bin.set(`tasks:${id}`, {
					module: 'tasks',
					id,
					trashedAt: at,
					record: { id, name: `Task ${id}` },
					entry: { id, name: `Task ${id}`, module: 'tasks', trashed_time: timestampMs(at) },
				});
				return id;
			},
		},
	];
}
