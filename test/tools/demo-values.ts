/**
 * Realistic values for every operation of the tables, naming records of the emulator's demo
 * data: shared by the generated suites (answer variants, the property tests).
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import type { Field } from '../../nodes/shared/tables/spec';
import { requiredValues } from './table-inputs';
import type { TableOperation } from './table-inputs';

/** The record of the demo data an ID field names. */
function demoId(env: { portal: string }): (field: Field, t: TableOperation) => string {
	return (field, t) => {
		const name = field.name.replace(/s$/, '');
		if (name === 'portal_id') return env.portal;
		if (name === 'project_id')
			return t.area.value === 'projects' ? DEMO.projects.website : DEMO.billingProjects.website;
		const byName: Record<string, string> = {
			item_id: DEMO.items.hosting,
			estimate_id: DEMO.estimates.sent,
			invoice_id: DEMO.invoices.overdue1,
			payment_id: DEMO.payments.paid1,
			customer_id: DEMO.customers.acme,
			vendor_id: DEMO.vendors.paperCo,
			bill_id: DEMO.bills.paper,
			template_id: DEMO.templates.standard,
			expense_id: DEMO.expenseId,
			credit_id: DEMO.creditId,
			user_id: DEMO.billingUsers.alice,
			comment_id: '1610000000001',
		};
		return byName[name] ?? '1000000000001';
	};
}

/** Values beyond the required ones that make a realistic request (lines of a document, what an update changes). */
const EXTRA: Record<string, IDataObject> = {
	'books.item.create': { name: 'Proxy widget', rate: 10 },
	'books.item.update': { rate: 12 },
	'books.estimate.create': { line_items: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 49 }] },
	'books.estimate.update': { reference_number: 'REF-PROXY' },
	'books.invoice.create': { line_items: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 49 }] },
	'books.invoice.update': { reference_number: 'REF-PROXY' },
	'books.estimate.addComment': { description: 'Checked' },
	'books.invoice.addComment': { description: 'Checked' },
	'books.estimate.updateComment': { description: 'Checked again' },
	'books.invoice.updateComment': { description: 'Checked again' },
	'invoice.payment.update': { description: 'Proxy note' },
	'billing.project.update': { description: 'Proxy note' },
	'inventory.bill.create': { line_items: [{ name: 'Paper', quantity: 1, rate: 10 }] },
	'inventory.bill.update': { line_items: [{ name: 'Paper', quantity: 1, rate: 10 }] },
};

/**
 * API-shaped values of an operation: its required fields, then the realistic extras. An
 * update's fields that it reads first (`keepCurrent`) are left out, so the read is made.
 */
export function valuesOf(env: { portal: string }, t: TableOperation): IDataObject {
	const values: IDataObject = { ...requiredValues(t, demoId(env)), ...(EXTRA[t.id] ?? {}) };
	for (const name of t.op.keepCurrent ?? []) delete values[name];
	return values;
}
