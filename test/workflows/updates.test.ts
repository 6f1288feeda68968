/**
 * An update changes only what the user set, table-wide: every update operation of every
 * action node (kind `update`, and every other PUT / PATCH call), run through n8n's engine as
 * the editor leaves it (n8n's defaults, plus the record's ID and the fields the form marks
 * required), against the emulator. The request carries no member nobody set, and the call is
 * not refused for a value nobody chose. Where the API needs a field on every update
 * (`keepCurrent`: Billing Project → Update, documented), the node reads the record and sends
 * the record's own value; Payment → Update reads nothing and sends only what the user set.
 */
import type { IDataObject } from 'n8n-workflow';

import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import type { Area } from '../../nodes/shared/tables/spec';
import { locationOf } from '../../nodes/shared/tables/location';
import { DEMO } from '../../emulator/demo-data';
import { ACTION_AREAS, NODE_OF } from '../tools/table-inputs';
import type { RecordedRequest } from '../../emulator/server';
import { byId, expectNoError, json, type Step } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });

const AREAS: Array<{ area: Area; type: string }> = ACTION_AREAS.map((area) => ({
	area,
	type: NODE_OF[area.value],
}));

const customFields = { values: [{ customfield_id: '501', value: 'Blue' }] };

/**
 * What a user enters for each update: the record's ID and the fields the form marks required,
 * nothing else. Set-up that needs a record of its own (a comment) returns the ids.
 */
const GIVEN: Record<string, () => Promise<IDataObject>> = {
	'vendorBooks item.update': async () => ({ item_id: byId(DEMO.items.hosting) }),
	'vendorBooks item.updateCustomFields': async () => ({
		item_id: byId(DEMO.items.hosting),
		custom_fields: customFields,
	}),
	'vendorBooks estimate.update': async () => ({ estimate_id: byId(DEMO.estimates.draft) }),
	'vendorBooks estimate.updateBillingAddress': async () => ({
		estimate_id: byId(DEMO.estimates.draft),
		city: 'Austin',
	}),
	'vendorBooks estimate.updateShippingAddress': async () => ({
		estimate_id: byId(DEMO.estimates.draft),
		city: 'Austin',
	}),
	'vendorBooks estimate.applyTemplate': async () => ({
		estimate_id: byId(DEMO.estimates.draft),
		template_id: byId(DEMO.templates.spreadsheet),
	}),
	'vendorBooks estimate.updateComment': async () => {
		await env.call('POST', 'books', `/estimates/${DEMO.estimates.draft}/comments`, {
			json: { description: 'First' },
		});
		const comments = (await env.call('GET', 'books', `/estimates/${DEMO.estimates.draft}/comments`))
			.body.comments as IDataObject[];
		return {
			estimate_id: byId(DEMO.estimates.draft),
			comment_id: byId(String(comments[0].comment_id)),
			description: 'Edited',
		};
	},
	'vendorBooks invoice.update': async () => ({ invoice_id: byId(DEMO.invoices.draft) }),
	'vendorBooks invoice.updateAttachment': async () => {
		env.orgTenant().files.set(DEMO.invoices.sent, {
			fileName: 'terms.pdf',
			mimeType: 'application/pdf',
			data: Buffer.from('%PDF-1.4'),
			canSendInMail: false,
		});
		return { invoice_id: byId(DEMO.invoices.sent), can_send_in_mail: true };
	},
	'vendorBooks invoice.updateCustomFields': async () => ({
		invoice_id: byId(DEMO.invoices.draft),
		custom_fields: customFields,
	}),
	'vendorBooks invoice.updateComment': async () => {
		await env.call('POST', 'books', `/invoices/${DEMO.invoices.draft}/comments`, {
			json: { description: 'First' },
		});
		const comments = (await env.call('GET', 'books', `/invoices/${DEMO.invoices.draft}/comments`))
			.body.comments as IDataObject[];
		return {
			invoice_id: byId(DEMO.invoices.draft),
			comment_id: byId(String(comments[0].comment_id)),
			description: 'Edited',
		};
	},
	'vendorProjects project.update': async () => ({ project_id: byId(DEMO.projects.website) }),
	'vendorInvoice payment.update': async () => ({ payment_id: byId(DEMO.payments.paid1) }),
	'vendorBilling project.update': async () => ({ project_id: byId(DEMO.billingProjects.website) }),
	'vendorInventory bill.update': async () => ({
		bill_id: byId(DEMO.bills.paper),
		vendor_id: DEMO.vendors.paperCo,
		bill_number: 'BILL-001',
		date: '2026-03-01',
		due_date: '2026-03-31',
		line_items: { values: [{ name: 'Paper', rate: 5, quantity: 10 }] },
	}),
};

/** Every update of every action node: kind update, or a PUT / PATCH. */
const UPDATES = AREAS.flatMap(({ area, type }) =>
	area.resources.flatMap((resource) =>
		resource.operations
			.filter((op) => op.kind === 'update' || op.method === 'PUT' || op.method === 'PATCH')
			.map((op) => ({ type, resource, op, key: `${type} ${resource.value}.${op.value}` })),
	),
);

/** The members a request carries: body keys (or the entry keys of a list body) and query keys, less the organisation. */
function sentMembers(r: RecordedRequest): string[] {
	const body = r.body;
	const bodyKeys = Array.isArray(body)
		? []
		: body && typeof body === 'object'
			? Object.keys(body)
			: [];
	return [...bodyKeys, ...Object.keys(r.query).filter((k) => k !== 'organization_id')].sort();
}

/** The API names of the parameters given: a collection's members by their own names. */
function givenNames(given: IDataObject): string[] {
	return Object.entries(given).flatMap(([name, value]) =>
		['updateFields', 'additionalFields'].includes(name)
			? Object.keys(value as IDataObject)
			: [name.replace(/Json$/, '')],
	);
}

test('every update operation of every action node is covered here', () => {
	expect(UPDATES.length).toBeGreaterThanOrEqual(15);
	expect(UPDATES.map((u) => u.key).filter((key) => !GIVEN[key])).toEqual([]);
});

test.each(UPDATES.map((u) => [u.key, u]))(
	'%s, as the editor leaves it, sends only what the user set and is not refused',
	async (key, { type, resource, op }) => {
		const given = await GIVEN[key]();
		env.em.clearRequests();
		const base = { resource: resource.value, operation: op.value };
		const step: Step =
			type === 'vendorProjects'
				? env.portalSteps(base)('Update', given)
				: env.orgSteps(type, base)('Update', given);
		const result = await env.run([step]);
		expectNoError(result);
		const writes = env.apiRequests().filter((r) => r.method === 'PUT' || r.method === 'PATCH');
		expect(writes).toHaveLength(1);
		const pathFields = op.fields.filter((f) => locationOf(f, op) === 'path').map((f) => f.name);
		const allowed = new Set([
			...givenNames(given).filter((n) => !pathFields.includes(n)),
			...(op.keepCurrent ?? []),
		]);
		expect({ key, extra: sentMembers(writes[0]).filter((m) => !allowed.has(m)) }).toEqual({
			key,
			extra: [],
		});
		// a field the API needs each time goes with the record's own value, read first
		if (op.keepCurrent) {
			const reads = env.apiRequests().filter((r) => r.method === 'GET');
			expect(reads).toHaveLength(1);
			const sent = writes[0].body as IDataObject;
			const record = env.orgTenant().get('projects', DEMO.billingProjects.website) as IDataObject;
			for (const name of op.keepCurrent.filter((n) => n in sent))
				expect([name, String(sent[name])]).toEqual([name, String(record[name])]);
			expect(
				Object.keys(sent).filter((n) => op.keepCurrent?.includes(n)).length,
			).toBeGreaterThanOrEqual(2);
		}
	},
);

test('Payment → Update with only a description sends only the description, reads nothing, and the payment keeps its mode, customer and amount', async () => {
	const before = { ...env.orgTenant().get('customerpayments', DEMO.payments.paid2) } as IDataObject;
	env
		.orgTenant()
		.put('customerpayments', DEMO.payments.paid2, { ...before, payment_mode: 'banktransfer' });
	const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
	const result = await env.run([
		payments('Update', {
			operation: 'update',
			payment_id: byId(DEMO.payments.paid2),
			updateFields: { description: 'typo fix' },
		}),
	]);
	expectNoError(result);
	expect(env.apiRequests().map((r) => [r.method, r.body])).toEqual([
		['PUT', { description: 'typo fix' }],
	]);
	expect(json(result, 'Update')[0]).toMatchObject({
		payment_mode: 'banktransfer',
		description: 'typo fix',
		customer_id: before.customer_id,
		amount: before.amount,
	});
	expect(json(result, 'Update')[0].readFirstWarning).toBeUndefined();
});

test('Payment → Update: the operation says it sends only what is set and what to do on 3004; Customer ID and Amount are optional there, required on create', () => {
	const payment = invoiceArea.resources.find((r) => r.value === 'payment')!;
	const op = (value: string) => payment.operations.find((o) => o.value === value)!;
	const field = (value: string, name: string) => op(value).fields.find((f) => f.name === name)!;
	expect(op('update').keepCurrent).toBeUndefined();
	expect(op('update').description).not.toMatch(/\bread\b/);
	expect(op('update').description).toMatch(/sending only the fields you set/);
	expect(op('update').description).toMatch(/'Customer ID' and 'Amount'/);
	expect(op('update').description).toMatch(/3004/);
	expect([field('update', 'customer_id').required, field('update', 'amount').required]).toEqual([
		undefined,
		undefined,
	]);
	expect([field('create', 'customer_id').required, field('create', 'amount').required]).toEqual([
		true,
		true,
	]);
});

test('Payment → Update with a customer that is sent: an unknown one is answered 3004 saying to set Customer ID; the emulator keeps what is not sent', async () => {
	const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
	const soft = { onError: 'continueRegularOutput' as const };
	const result = await env.run([
		payments(
			'Unknown',
			{
				operation: 'update',
				payment_id: byId(DEMO.payments.paid2),
				updateFields: { customer_id: '1199999999999', description: 'x' },
			},
			soft,
		),
	]);
	expect(json(result, 'Unknown')[0].error).toBe(
		'The customer field is blank or incorrect (code 3004). Set Customer ID to the ID of an existing customer. [item 0]',
	);
	expect(env.apiRequests().map((r) => [r.method, r.status])).toEqual([['PUT', 400]]);
	// the emulator's partial update: a PUT without customer_id and amount keeps them (a listed guess)
	const stored = { ...env.orgTenant().get('customerpayments', DEMO.payments.paid2) } as IDataObject;
	const direct = await env.call('PUT', 'invoice', `/customerpayments/${DEMO.payments.paid2}`, {
		json: { reference_number: 'R-9' },
	});
	expect(direct.body.code).toBe(0);
	expect(direct.body.payment).toMatchObject({
		customer_id: stored.customer_id,
		amount: stored.amount,
		reference_number: 'R-9',
	});
	const blank = await env.call('PUT', 'invoice', `/customerpayments/${DEMO.payments.paid2}`, {
		json: { customer_id: '' },
	});
	expect([blank.status, blank.body.code]).toEqual([400, 3004]);
});

test('Billing Project → Update renaming a project keeps its billing type and rate; a new billing type needs its own rate', async () => {
	const projects = env.orgSteps('vendorBilling', { resource: 'project' });
	const stored = env.orgTenant().get('projects', DEMO.billingProjects.website) as IDataObject;
	expect(stored.billing_type).toBe('fixed_cost_for_project');
	const rename = await env.run([
		projects('Rename', {
			operation: 'update',
			project_id: byId(DEMO.billingProjects.website),
			updateFields: { project_name: 'Website 2.0' },
		}),
	]);
	expectNoError(rename);
	const put = env.apiRequests().find((r) => r.method === 'PUT');
	expect(put?.body).toEqual({
		project_name: 'Website 2.0',
		customer_id: stored.customer_id,
		billing_type: 'fixed_cost_for_project',
		rate: String(stored.rate),
	});
	expect(json(rename, 'Rename')[0]).toMatchObject({
		project_name: 'Website 2.0',
		billing_type: 'fixed_cost_for_project',
		rate: stored.rate,
	});

	env.em.clearRequests();
	const change = await env.run([
		projects(
			'Change',
			{
				operation: 'update',
				project_id: byId(DEMO.billingProjects.website),
				updateFields: { billing_type: 'based_on_project_hours' },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(json(change, 'Change')[0].error).toContain(
		'Rate is required when Billing Type is Fixed Cost for Project or Based on Project Hours (Billing Type is Based on Project Hours)',
	);
	expect(env.apiRequests().map((r) => r.method)).toEqual(['GET']);
});

test('bad input to an update that reads first is refused before the read', async () => {
	const projects = env.orgSteps('vendorBilling', { resource: 'project' });
	const result = await env.run([
		projects(
			'Update',
			{
				operation: 'update',
				project_id: byId(DEMO.billingProjects.website),
				updateFields: { project_name: 'x'.repeat(101) },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(json(result, 'Update')[0].error).toContain('Project Name must be at most 100 characters');
	expect(env.apiRequests()).toEqual([]);
});

test('Invoice and Estimate → Create need a customer: required in the form, and refused before sending when an expression or an agent gives nothing', async () => {
	const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
	const estimates = env.orgSteps('vendorBooks', { resource: 'estimate' });
	const line = { line_items: { values: [{ name: 'Work', rate: 10, quantity: 1 }] } };
	const soft = { onError: 'continueRegularOutput' as const };
	// left empty in the form, n8n itself refuses to run the workflow (the field is required)
	await expect(env.run([invoices('Invoice', { operation: 'create', ...line })])).rejects.toThrow(
		/workflow has issues/,
	);
	const result = await env.run([
		invoices(
			'Blank expression',
			{ operation: 'create', customer_id: '={{ "  " }}', ...line },
			soft,
		),
		estimates(
			'Missing value',
			{ operation: 'create', customer_id: '={{ $json.customer }}', ...line },
			soft,
		),
		invoices(
			'Agent gave nothing',
			{
				operation: 'create',
				customer_id: "={{ $fromAI('customer', 'ID of the customer', 'string') }}",
				...line,
			},
			soft,
		),
	]);
	for (const name of ['Blank expression', 'Missing value', 'Agent gave nothing'])
		expect([name, json(result, name)[0].error]).toEqual([
			name,
			expect.stringMatching(/^Invalid input: Customer ID is required( \(got ""\))? \[item 0\]$/),
		]);
	expect(env.apiRequests()).toEqual([]);
	// the emulator refuses it too, as the table says
	const direct = await env.call('POST', 'books', '/invoices', {
		json: { line_items: [{ name: 'Work', rate: 10, quantity: 1 }] },
	});
	expect(direct.body.code).not.toBe(0);
});

test('a free line (rate 0) entered in the form is sent with its 0', async () => {
	const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
	const result = await env.run([
		invoices('Create', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: {
				values: [
					{ name: 'Free setup', rate: 0, quantity: 1 },
					{ name: 'Hosting', rate: 20, quantity: 1 },
				],
			},
		}),
	]);
	expectNoError(result);
	expect((env.apiRequests()[0].body as IDataObject).line_items).toEqual([
		{ name: 'Free setup', rate: 0, quantity: 1 },
		{ name: 'Hosting', rate: 20, quantity: 1 },
	]);
	expect(json(result, 'Create')[0].total).toBe(20);
});
