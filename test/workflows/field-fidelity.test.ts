/**
 * Field fidelity and safe defaults (what is sent is what was set), each point through a real
 * workflow on n8n's engine against the emulator: string fields take numbers and send decimal text,
 * optional choices of fixed-collection entries are not sent unless set, negative and non-numeric
 * amounts and a malformed organization ID are refused before anything is sent, the fields the
 * documents show are offered, inferred rules and operations say so in the UI, guessed paging does
 * not trust a missing page_context, and server texts never show a token.
 */
import { readFileSync } from '../../host/fs';
import { join } from '../../host/path';

import type { IDataObject, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { billingEvents } from '../../nodes/VendorBillingTrigger/events';
import { booksEvents } from '../../nodes/VendorBooksTrigger/events';
import { inventoryEvents } from '../../nodes/VendorInventoryTrigger/events';
import { invoiceEvents } from '../../nodes/VendorInvoiceTrigger/events';
import { projectsEvents } from '../../nodes/VendorProjectsTrigger/events';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import type { Field } from '../../nodes/shared/tables/spec';
import { fieldSchema } from '../../nodes/shared/tables/schemas';
import { normaliseScalar } from '../../nodes/shared/api/request';
import { DEMO } from '../../emulator/demo-data';
import { pollOnce } from '../../harness';
import { byId, expectNoError, json, vendorNode } from '../../harness/workflows';
import { fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const projects = env.orgSteps('vendorBilling', { resource: 'project' });
const bills = env.orgSteps('vendorInventory', { resource: 'bill' });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const estimates = env.orgSteps('vendorBooks', { resource: 'estimate' });
const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
const refunds = env.orgSteps('vendorInvoice', { resource: 'refund' });

const bodies = (): IDataObject[] => env.apiRequests().map((r) => r.body as IDataObject);
const create = (name: string, extra: IDataObject = {}) =>
	projects(
		name,
		{
			operation: 'create',
			project_name: name,
			customer_id: DEMO.customers.globex,
			billing_type: 'based_on_task_hours',
			...extra,
		},
		{ onError: 'continueRegularOutput' },
	);

/** Every property of a node description, fixed-collection members included. */
function allProperties(props: INodeProperties[]): INodeProperties[] {
	return props.flatMap((p) => [
		p,
		...allProperties(
			((p.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>).flatMap((o) =>
				'values' in o && o.values ? o.values : 'type' in o ? [o] : [],
			),
		),
	]);
}

test('1. numbers given to string fields are sent as decimal text; a project read and written back through expressions works', async () => {
	const result = await env.run([
		create('Numbers', {
			billing_type: 'fixed_cost_for_project',
			rate: '={{ 5000 }}',
			additionalFields: {
				budget_type: 'total_project_cost',
				budget_amount: '={{ 4999.5 }}',
				budget_hours: '={{ 40 }}',
				tasks: { values: [{ task_name: 'Design', budget_hours: '={{ 12 }}' }] },
			},
		}),
		projects('Write back', {
			operation: 'update',
			project_id: byId('={{ $json.project_id }}'),
			updateFields: {
				project_name: '={{ $json.project_name }}',
				customer_id: '={{ $json.customer_id }}',
				billing_type: '={{ $json.billing_type }}',
				rate: '={{ $json.rate }}',
			},
		}),
	]);
	expectNoError(result);
	const [created, updated] = bodies();
	expect(created).toMatchObject({
		rate: '5000',
		budget_amount: '4999.5',
		budget_hours: '40',
		tasks: [{ task_name: 'Design', budget_hours: '12' }],
	});
	// The answer holds rate as a number (the Payments document); written back it is text again.
	expect(json(result, 'Numbers')[0].rate).toBe(5000);
	expect(updated).toMatchObject({ rate: '5000', billing_type: 'fixed_cost_for_project' });

	env.em.clearRequests();
	const lines = await env.run([
		invoices('Invoice', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: {
				values: [
					{
						item_id: DEMO.items.hosting,
						quantity: 1,
						rate: 10,
						discount: '={{ 10 }}',
						unit: '={{ 7.5 }}',
					},
				],
			},
			additionalFields: {
				custom_fields: { values: [{ customfield_id: '501', value: '={{ 42 }}' }] },
			},
		}),
	]);
	expectNoError(lines);
	expect(bodies()[0]).toMatchObject({
		line_items: [{ discount: '10', unit: '7.5' }],
		custom_fields: [{ customfield_id: '501', value: '42' }],
	});
});

test('1. a number given to a text custom field of a project is sent as its decimal text', async () => {
	const project = env.portalSteps({ resource: 'project' });
	const result = await env.run([
		project('Create', {
			operation: 'create',
			name: 'CF numbers',
			customFields: {
				values: [
					{ apiName: 'cf_single_line', type: 'singleLine', value: '={{ 3 }}' },
					{ apiName: 'cf_integer', type: 'integer', value: '={{ 42 }}' },
				],
			},
		}),
	]);
	expectNoError(result);
	expect(bodies()[0]).toMatchObject({ cf_single_line: '3', cf_integer: 42 });
});

test('1. in every table of every area, every text field (members of objects and list entries too) takes a number and sends its decimal text', () => {
	const walk = (fields: Field[]): Field[] =>
		fields.flatMap((f) => [f, ...walk(f.fields ?? []), ...(f.of ? walk([f.of]) : [])]);
	const strings = [booksArea, invoiceArea, billingArea, inventoryArea, projectsArea]
		.flatMap((area) => walk(area.resources.flatMap((r) => r.operations.flatMap((o) => o.fields))))
		.filter((f) => f.type === 'string' && !f.readOnly && (f.minLength ?? 0) <= 2);
	expect(strings.length).toBeGreaterThan(100);
	for (const f of strings) {
		expect([f.name, fieldSchema(f).safeParse(42).success, normaliseScalar(f, 42)]).toEqual([
			f.name,
			true,
			'42',
		]);
		expect([f.name, normaliseScalar(f, 4999.5)]).toEqual([f.name, '4999.5']);
	}
});

test('2. a user added without a role is sent without user_role (nothing grants admin); a chosen role is sent', async () => {
	const result = await env.run([
		create('Roles', {
			additionalFields: {
				users: {
					values: [
						{ user_id: DEMO.billingUsers.alice },
						{ user_id: DEMO.billingUsers.bob, user_role: 'timesheetstaff' },
					],
				},
			},
		}),
	]);
	expectNoError(result);
	const users = bodies()[0].users as IDataObject[];
	expect(users[0]).not.toHaveProperty('user_role');
	expect(users[0].user_id).toBe(DEMO.billingUsers.alice);
	expect(users[1]).toMatchObject({ user_id: DEMO.billingUsers.bob, user_role: 'timesheetstaff' });
	// A required enum still starts at a value: billing_type is sent as chosen.
	expect(bodies()[0].billing_type).toBe('based_on_task_hours');
});

test('2. in every node, every optional choice (enum or yes / no) of a fixed-collection entry starts empty, so nothing is sent unless the user sets it', () => {
	const nodes: Array<[typeof billingArea, INodeTypeDescription]> = [
		[booksArea, new VendorBooks().description],
		[invoiceArea, new VendorInvoice().description],
		[billingArea, new VendorBilling().description],
		[inventoryArea, new VendorInventory().description],
		[projectsArea, new VendorProjects().description],
	];
	const walk = (fields: Field[]): Field[] => fields.flatMap((f) => [f, ...walk(f.fields ?? [])]);
	let checked = 0;
	for (const [area, description] of nodes) {
		const entries = allProperties(description.properties).filter(
			(p) => p.type === 'fixedCollection',
		);
		const tableFields = walk(area.resources.flatMap((r) => r.operations.flatMap((o) => o.fields)));
		for (const parent of tableFields.filter((f) => f.fields && !f.sortFields)) {
			for (const member of parent.fields!.filter(
				(m) =>
					!m.required &&
					!m.readOnly &&
					(m.type === 'boolean' || (m.type === 'enum' && m.default === undefined)),
			)) {
				const shown = entries
					.filter((p) => p.name === parent.name)
					.flatMap((p) =>
						((p.options ?? []) as Array<{ values?: INodeProperties[] }>).flatMap(
							(o) => o.values ?? [],
						),
					)
					.filter((m) => m.name === member.name);
				for (const m of shown) {
					checked++;
					expect([area.value, parent.name, member.name, m.type, m.default]).toEqual([
						area.value,
						parent.name,
						member.name,
						'options',
						'',
					]);
				}
			}
		}
	}
	expect(checked).toBeGreaterThanOrEqual(6);
});

test('3. negative amounts (code 20004) and non-numeric rates are refused naming the field and the rule; nothing is sent', async () => {
	const result = await env.run([
		create('Negative rate', { billing_type: 'fixed_cost_for_project', rate: '-5' }),
		create('Text rate', { billing_type: 'fixed_cost_for_project', rate: 'abc' }),
		create('Negative budget', { additionalFields: { budget_amount: '={{ -1 }}' } }),
		create('Negative task rate', {
			additionalFields: { tasks: { values: [{ task_name: 'T', rate: -2 }] } },
		}),
		create('Negative user rate', {
			additionalFields: { users: { values: [{ user_id: DEMO.billingUsers.alice, rate: -3 }] } },
		}),
	]);
	expectNoError(result);
	const errors = [
		'Negative rate',
		'Text rate',
		'Negative budget',
		'Negative task rate',
		'Negative user rate',
	].map((n) => json(result, n)[0].error);
	expect(errors).toEqual([
		'Invalid input: Rate must not be negative (got "-5") [item 0]',
		'Invalid input: Rate must be a number written as digits, e.g. 150 or 99.50 (got "abc") [item 0]',
		'Invalid input: Budget Amount must not be negative (got "-1") [item 0]',
		'Invalid input: Tasks, entry 1: Rate must not be negative (got -2) [item 0]',
		'Invalid input: Users, entry 1: Rate must not be negative (got -3) [item 0]',
	]);
	expect(env.apiRequests()).toHaveLength(0);
});

test('4. an organization ID (its format never given) is any text but blanks and control characters: one with a line break is refused before anything is sent, in node, picker, trigger and custom call; other text is sent', async () => {
	const bad = '600\r\nX-Injected: 1';
	const said =
		'Organization ID must not hold control characters (line breaks, tabs) (got "600\\r\\nX-Injected: 1")';
	const result = await env.run([
		projects(
			'Get',
			{ operation: 'get', organizationId: bad, project_id: byId(DEMO.billingProjects.website) },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(json(result, 'Get')[0].error).toBe(`${said} [item 0]`);
	// Every area with an organization, whether it travels in the query (Books, Inventory) or a header (Invoice, Billing).
	const others = await env.run([
		env.orgSteps('vendorBooks', { resource: 'item' })(
			'Books',
			{ operation: 'getAll', organizationId: bad, returnAll: true },
			{ onError: 'continueRegularOutput' },
		),
		env.orgSteps('vendorInventory', { resource: 'bill' })(
			'Inventory',
			{ operation: 'getAll', organizationId: ` ${env.em.organizationId} `, returnAll: true },
			{ onError: 'continueRegularOutput' },
		),
		env.orgSteps('vendorInvoice', { resource: 'payment' })(
			'Invoice',
			{ operation: 'getAll', organizationId: 'org\t6', returnAll: true },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(['Books', 'Inventory', 'Invoice'].map((n) => json(others, n)[0].error)).toEqual([
		`${said} [item 0]`,
		undefined,
		'Organization ID must not hold control characters (line breaks, tabs) (got "org\\t6") [item 0]',
	]);
	expect(env.apiRequests().map((r) => [r.path, r.query.organization_id])).toEqual([
		['/us/api/inventory/v1/bills', env.em.organizationId],
	]);
	env.em.clearRequests();
	const picker = env.picker(VendorBilling, 'searchProjects', {
		organizationId: bad,
		resource: 'project',
		operation: 'get',
		project_id: fromList(''),
	});
	await expect(picker()).rejects.toThrow(said);
	const poll = pollOnce({
		nodeType: VendorBillingTrigger,
		node: vendorNode(
			VendorBillingTrigger,
			{ organizationId: bad, event: 'projectCreated' },
			'Trigger',
		),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		staticData: {},
	});
	await expect(poll).rejects.toThrow(said);
	const custom = await env.run([
		env.orgSteps('vendorBooks', { resource: 'customApiCall' })(
			'Custom',
			{ organizationId: bad, customMethod: 'GET', customPath: '/items' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(json(custom, 'Custom')[0].error).toBe(`Invalid input: ${said} [item 0]`);
	expect(env.em.requests).toHaveLength(0);
	// text that is not digits is sent: the service says whether it is an organization of the account
	const sent = await env.run([
		projects(
			'Get',
			{
				operation: 'get',
				organizationId: 'org-600',
				project_id: byId(DEMO.billingProjects.website),
			},
			{ onError: 'continueRegularOutput' },
		),
		env.orgSteps('vendorBooks', { resource: 'customApiCall' })(
			'Custom',
			{ organizationId: 'org-600', customMethod: 'GET', customPath: '/items' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	for (const name of ['Get', 'Custom'])
		expect([name, json(sent, name)[0].error]).toEqual([
			name,
			expect.stringMatching(/org-600.*\(code 6041\)/),
		]);
});

test('5. a project update addresses existing tasks by task_id with is_billable; is_billable left empty is not sent', async () => {
	const website = env.orgTenant().get('projects', DEMO.billingProjects.website) as IDataObject;
	const taskId = String(
		(website.tasks as IDataObject[] | undefined)?.[0]?.task_id ?? '1700000000001',
	);
	const result = await env.run([
		projects('Update', {
			operation: 'update',
			project_id: byId(DEMO.billingProjects.website),
			updateFields: {
				project_name: 'Website relaunch',
				customer_id: String(website.customer_id),
				billing_type: 'based_on_task_hours',
				tasks: {
					values: [
						{ task_id: taskId, task_name: 'Design', is_billable: false },
						{ task_name: 'New task' },
					],
				},
			},
		}),
	]);
	expectNoError(result);
	const tasks = bodies()[0].tasks as IDataObject[];
	expect(tasks[0]).toEqual({ task_id: taskId, task_name: 'Design', is_billable: false });
	expect(tasks[1]).toEqual({ task_name: 'New task' });
});

test('6. bills: item_order as a decimal; response-only line members are not offered. Estimates and invoices send salesperson_id, invoices payment_expected_date and payment_reminder_enabled', async () => {
	const result = await env.run([
		bills('Bill', {
			operation: 'create',
			vendor_id: DEMO.vendors.paperCo,
			bill_number: 'FF-1',
			date: '2026-04-01',
			due_date: '2026-05-01',
			line_items: {
				values: [{ name: 'Paper', rate: 4, quantity: 10, additionalFields: { item_order: 1.5 } }],
			},
		}),
		invoices('Invoice', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: { values: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 10 }] },
			additionalFields: {
				salesperson_id: '4100000000001',
				payment_expected_date: '2026-06-30',
				payment_reminder_enabled: true,
			},
		}),
		estimates('Estimate', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: { values: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 10 }] },
			additionalFields: { salesperson_id: '4100000000001' },
		}),
	]);
	expectNoError(result);
	const [bill, invoice, estimate] = bodies();
	expect((bill.line_items as IDataObject[])[0]).toMatchObject({ item_order: 1.5 });
	expect(invoice).toMatchObject({
		salesperson_id: '4100000000001',
		payment_expected_date: '2026-06-30',
		payment_reminder_enabled: true,
	});
	expect(estimate).toMatchObject({ salesperson_id: '4100000000001' });

	const lineMembers = allProperties(new VendorInventory().description.properties)
		.filter((p) => p.name === 'line_items')
		.flatMap((p) =>
			((p.options ?? []) as Array<{ values?: INodeProperties[] }>).flatMap((o) => o.values ?? []),
		)
		// the less common members sit in the line's Additional Fields
		.flatMap((m) =>
			m.name === 'additionalFields' ? ((m.options ?? []) as INodeProperties[]) : [m],
		)
		.map((m) => m.name);
	expect(lineMembers).toEqual(
		expect.arrayContaining(['account_id', 'tax_id', 'item_order', 'reverse_charge_tax_id']),
	);
	for (const readOnly of [
		'account_name',
		'tax_name',
		'tax_percentage',
		'bcy_rate',
		'item_total',
		'image_name',
		'reverse_charge_tax_amount',
	])
		expect(lineMembers).not.toContain(readOnly);
});

test('7. rules the documents do not state are kept and shown as rules (required, split), never as where they came from: amounts of payments and refunds, payment invoice entries, custom-field entries, can_send_in_mail; the item name has no invented limit', async () => {
	const result = await env.run([
		payments(
			'No amount',
			{ operation: 'create', customer_id: DEMO.customers.acme, amount: '={{ "" }}' },
			{ onError: 'continueRegularOutput' },
		),
		refunds(
			'No refund amount',
			{ operation: 'create', payment_id: byId(DEMO.payments.paid2), amount: '={{ "" }}' },
			{ onError: 'continueRegularOutput' },
		),
		payments(
			'No amount applied',
			{
				operation: 'create',
				customer_id: DEMO.customers.acme,
				amount: 5,
				invoices: { values: [{ invoice_id: '1', amount_applied: '={{ "" }}' }] },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(result);
	expect(json(result, 'No amount')[0].error).toBe('Invalid input: Amount is required [item 0]');
	expect(json(result, 'No refund amount')[0].error).toBe(
		'Invalid input: Amount is required [item 0]',
	);
	expect(json(result, 'No amount applied')[0].error).toBe(
		'Invalid input: Invoices, entry 1: Amount Applied is required [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(0);
	// the form marks them required (an update reads the payment's amount when it is left out: optional there)
	const amounts = allProperties(new VendorInvoice().description.properties).filter(
		(p) => p.name === 'amount' && p.displayOptions?.show?.operation?.includes('create'),
	);
	expect(amounts.flatMap((p) => p.displayOptions?.show?.resource ?? []).sort()).toEqual(
		expect.arrayContaining(['payment', 'refund']),
	);
	for (const p of amounts)
		expect([p.displayOptions?.show, p.required]).toEqual([p.displayOptions?.show, true]);
	const invoiceProps = allProperties(new VendorInvoice().description.properties);
	for (const name of ['invoice_id', 'amount_applied'])
		expect(invoiceProps.filter((p) => p.name === name && p.required).length).toBeGreaterThan(0);
	const booksRequired = allProperties(new VendorBooks().description.properties).filter(
		(x) => (x.name === 'customfield_id' || x.name === 'can_send_in_mail') && x.required,
	);
	expect(new Set(booksRequired.map((p) => p.name))).toEqual(
		new Set(['customfield_id', 'can_send_in_mail']),
	);
	const pdfIds = allProperties(new VendorBooks().description.properties).find(
		(p) => p.name === 'estimate_ids' && p.displayOptions?.show?.operation?.includes('getPdf'),
	);
	expect(pdfIds?.description).toContain('in calls of 25 IDs, one PDF each');
	const names = allProperties(new VendorBooks().description.properties).filter(
		(p) => p.name === 'name' && p.displayOptions?.show?.resource?.includes('item'),
	);
	for (const p of names) expect(p.description).not.toMatch(/200/);
});

test("8. inferred operations carry a notice in the user's words (what they notice if the guess is wrong): the refund list, the bill update, create from estimate, guessed paging; and run", async () => {
	const notice = (props: INodeProperties[], resource: string, operation: string) =>
		props.find(
			(p) =>
				p.type === 'notice' &&
				p.displayOptions?.show?.resource?.includes(resource) &&
				p.displayOptions?.show?.operation?.includes(operation),
		)?.displayName;
	expect(notice(new VendorInvoice().description.properties, 'refund', 'getAll')).toMatch(
		/^If this fails with "not found", the account does not list refunds here/,
	);
	expect(notice(new VendorInventory().description.properties, 'bill', 'update')).toMatch(
		/^If this fails with "not found", bills cannot be updated in this account/,
	);
	expect(notice(new VendorInvoice().description.properties, 'payment', 'create')).toBeUndefined();
	expect(notice(new VendorBooks().description.properties, 'invoice', 'createFromEstimate')).toMatch(
		/^Two calls: the estimate is read, then the invoice is created/,
	);
	// Lists whose paging is guessed say so too.
	const paging = /^If 'Return All' stops early or repeats records, set a 'Limit' instead$/;
	expect(notice(new VendorInvoice().description.properties, 'payment', 'getAll')).toMatch(paging);
	expect(notice(new VendorBilling().description.properties, 'project', 'getAll')).toMatch(paging);
	expect(notice(new VendorBilling().description.properties, 'project', 'getInvoices')).toMatch(
		paging,
	);
	expect(notice(new VendorInventory().description.properties, 'bill', 'getAll')).toMatch(paging);
	expect(notice(new VendorBooks().description.properties, 'item', 'getAll')).toBeUndefined();
	const pageEnd = paging;
	for (const [resource, operation] of [
		['project', 'getAll'],
		['search', 'search'],
		['search', 'searchInProject'],
		['trash', 'getBin'],
	]) {
		expect([
			resource,
			operation,
			notice(new VendorProjects().description.properties, resource, operation),
		]).toEqual([resource, operation, expect.stringMatching(pageEnd)]);
	}
	const result = await env.run([
		refunds('Refunds', {
			operation: 'getAll',
			payment_id: byId(DEMO.payments.paid2),
			returnAll: true,
		}),
	]);
	expectNoError(result);
	expect(env.apiRequests().map((r) => r.path)).toEqual([
		`/us/api/invoice/v3/customerpayments/${DEMO.payments.paid2}/refunds`,
	]);
});

test('10. guessed paging: an answer without page_context is not trusted as the end; Return All goes on after a full page and stops after a short one', async () => {
	const tenant = env.orgTenant();
	for (let i = 0; i < 230; i++) {
		const id = env.em.store.nextId();
		tenant.put('customerpayments', id, {
			payment_id: id,
			payment_number: `FF-${i}`,
			customer_id: DEMO.customers.initech,
			amount: 1,
			date: '2026-04-01',
			payment_mode: 'cash',
			reference_number: `FF-${i}`,
		});
	}
	env.em.faults.next(5, { kind: 'noPageContext' }, 'invoice.payment.getAll');
	const result = await env.run([
		payments('List', {
			operation: 'getAll',
			returnAll: true,
			filters: { reference_number_startswith: 'FF-' },
		}),
	]);
	expectNoError(result);
	expect(json(result, 'List')).toHaveLength(230);
	expect(env.apiRequests().map((r) => [r.query.page, r.status])).toEqual([
		['1', 200],
		['2', 200],
	]);
	expect(env.apiRequests().every((r) => !JSON.stringify(r).includes('page_context'))).toBe(true);

	// A server that ignores `page` answers the first page again: Return All stops instead of looping
	// (a repeated page is passed over once, since records created meanwhile push whole pages on; a
	// second repeat in a row, more than the pages read, ends the list).
	env.em.clearRequests();
	env.em.faults.clear();
	env.em.faults.next(5, { kind: 'noPageContext', ignorePage: true }, 'invoice.payment.getAll');
	const ignored = await env.run([
		payments('List', {
			operation: 'getAll',
			returnAll: true,
			filters: { reference_number_startswith: 'FF-' },
		}),
	]);
	expectNoError(ignored);
	expect(json(ignored, 'List')).toHaveLength(200);
	expect(env.apiRequests().map((r) => r.query.page)).toEqual(['1', '2', '3']);

	env.em.clearRequests();
	env.em.faults.clear();
	env.em.faults.next(5, { kind: 'noPageContext' }, 'inventory.bill.getAll');
	const short = await env.run([bills('Bills', { operation: 'getAll', returnAll: true })]);
	expectNoError(short);
	expect(env.apiRequests()).toHaveLength(1);
	env.em.faults.clear();

	// Billing projects and a project's invoices page the same way.
	env.em.clearRequests();
	env.em.faults.next(5, { kind: 'noPageContext' }, 'billing.project.getAll');
	env.em.faults.next(5, { kind: 'noPageContext' }, 'billing.project.getInvoices');
	const billing = await env.run([projects('Projects', { operation: 'getAll', returnAll: true })]);
	expectNoError(billing);
	expect(json(billing, 'Projects').length).toBeGreaterThan(0);
	expectNoError(
		await env.run([
			projects('Invoices', {
				operation: 'getInvoices',
				project_id: byId(DEMO.billingProjects.website),
				returnAll: true,
			}),
		]),
	);
	expect(env.apiRequests().map((r) => [r.operation, r.query.page, r.query.per_page])).toEqual([
		['billing.project.getAll', '1', '200'],
		['billing.project.getInvoices', '1', '200'],
	]);
	expect(env.apiRequests().every((r) => !JSON.stringify(r).includes('page_context'))).toBe(true);
	env.em.faults.clear();
});

test('11. keys no table names are refused by the server naming the key; a token echoed by a server never reaches the error', async () => {
	const result = await env.run([
		invoices(
			'Typo',
			{
				operation: 'create',
				customer_id: DEMO.customers.acme,
				line_items: {
					values: [
						{
							item_id: DEMO.items.hosting,
							quantity: 1,
							rate: 10,
							additionalFields: { tags: '[{"tag_id":"7001","tag_optoin_id":"7002"}]' },
						},
					],
				},
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(result);
	expect(json(result, 'Typo')[0].error).toBe(
		'Invalid value passed for line_items[0].tags[0]: holds a key no field table names: tag_optoin_id (code 2) [item 0]',
	);
	expect(env.apiRequests().map((r) => r.status)).toEqual([400]);
	expect(
		env
			.orgTenant()
			.all('invoices')
			.some((i) => JSON.stringify(i).includes('tag_optoin_id')),
	).toBe(false);

	// Top-level keys too, in the body and in the query (sent through Custom API Call, which sends what it is given).
	env.em.clearRequests();
	const custom = env.orgSteps('vendorBooks', { resource: 'customApiCall' });
	const raw = await env.run([
		custom(
			'Body',
			{
				customMethod: 'POST',
				customPath: '/items',
				customBodyType: 'json',
				customBody: '{"nmae":"Typo","rate":5}',
			},
			{ onError: 'continueRegularOutput' },
		),
		custom(
			'Query',
			{
				customMethod: 'GET',
				customPath: '/items',
				customQuery: { parameters: [{ name: 'colour', value: 'red' }] },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(String(json(raw, 'Body')[0].error)).toContain('nmae: is not a body key of this operation');
	expect(String(json(raw, 'Query')[0].error)).toContain(
		'colour: is not a query parameter of this operation',
	);
	expect(env.apiRequests().map((r) => r.status)).toEqual([400, 400]);
	expect(
		env
			.orgTenant()
			.all('items')
			.some((i) => i.name === 'Typo' || 'nmae' in i),
	).toBe(false);

	const token = String(env.storedToken.access_token);
	env.em.faults.next(
		1,
		{
			kind: 'status',
			status: 500,
			body: {
				code: 1,
				message: `Token Vendor-oauthtoken ${token} and ${token} refused; refresh ${token.replace('1000.', '')}`,
			},
		},
		'billing.project.create',
	);
	const echoed = await env.run([create('Echo')]);
	const error = json(echoed, 'Echo')[0];
	expect(JSON.stringify(error)).not.toContain(token.slice(5, 25));
	expect(String(error.error)).toContain('Vendor-oauthtoken <redacted>');

	// Stopping the workflow, the whole error n8n keeps (message, description, context, cause) holds no token either.
	env.em.faults.next(
		1,
		{ kind: 'status', status: 500, body: { code: 1, message: `bad token ${token}`, token } },
		'billing.project.create',
	);
	const stopped = await env.run([
		projects('Stop', {
			operation: 'create',
			project_name: 'Stop',
			customer_id: DEMO.customers.globex,
			billing_type: 'based_on_task_hours',
		}),
	]);
	const thrown = stopped.error('Stop');
	expect(thrown?.message).toContain('bad token <redacted>');
	const everything = JSON.stringify({
		...thrown,
		message: thrown?.message,
		stack: thrown?.stack,
		description: (thrown as { description?: string })?.description,
	});
	expect(everything).not.toContain(token.slice(5, 25));
	env.em.faults.clear();
});

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
/** The "Not covered / assumptions" list (docs/ASSUMPTIONS.md, linked from the README). */
const NOT_COVERED = flat(
	readFileSync(join(module.path, '..', '..', 'docs', 'ASSUMPTIONS.md'), 'utf8'),
);

test('12. the "Not covered / assumptions" list (docs/ASSUMPTIONS.md) names every inferred name, rule, operation and trigger event of the tables, in the tables\' words (the form says only what the user notices)', () => {
	const walk = (fields: Field[]): Field[] => fields.flatMap((f) => [f, ...walk(f.fields ?? [])]);
	const areas = [booksArea, invoiceArea, billingArea, inventoryArea, projectsArea];
	const ops = areas.flatMap((area) => area.resources.flatMap((r) => r.operations));
	const fields = ops.flatMap((o) => walk(o.fields)).filter((f) => !f.readOnly);
	// Inferred parameter names: each in the README's list, in backticks.
	const names = new Set(fields.filter((f) => f.inferred).map((f) => f.name));
	expect(names.size).toBeGreaterThanOrEqual(6);
	const namesBullet = NOT_COVERED.slice(
		NOT_COVERED.indexOf('- Inferred names'),
		NOT_COVERED.indexOf('- Types the API reference does not show'),
	);
	for (const name of names)
		expect([name, namesBullet.includes(`\`${name}\``)]).toEqual([name, true]);
	// Inferred rules, operations and trigger events: their texts quoted.
	const quoted = [
		...fields.flatMap((f) => (f.inferredRule ? [f.inferredRule] : [])),
		...ops.flatMap((o) => (o.inferredNote ? [o.inferredNote] : [])),
		...[
			...booksEvents,
			...invoiceEvents,
			...projectsEvents,
			...billingEvents,
			...inventoryEvents,
		].flatMap((e) => (e.inferred ? [e.inferred] : [])),
	];
	expect(quoted.length).toBeGreaterThanOrEqual(20);
	for (const text of new Set(quoted))
		expect([text, NOT_COVERED.includes(`"${flat(text).replace(/\.$/, '')}`)]).toEqual([text, true]);
	// Types not shown: each such field named in the README.
	const typesBullet = NOT_COVERED.slice(
		NOT_COVERED.indexOf('- Types the API reference does not show'),
		NOT_COVERED.indexOf('- Inferred operations'),
	);
	const untyped = fields.filter((f) =>
		/^Sent as the text (or number )?you enter/.test(f.description ?? ''),
	);
	expect(untyped.length).toBeGreaterThanOrEqual(12);
	for (const f of untyped)
		expect([f.name, typesBullet.includes(`\`${f.name}\``)]).toEqual([f.name, true]);

	// Response-only members of every table (bill, estimate and invoice lines, items, invoices): marked readOnly, none offered, each listed.
	const everyField = ops.flatMap((o) => walk(o.fields));
	const readOnly = [...new Set(everyField.filter((f) => f.readOnly).map((f) => f.name))];
	expect(readOnly.length).toBeGreaterThanOrEqual(15);
	const computedBullet = NOT_COVERED.slice(NOT_COVERED.indexOf('- Members the service computes'));
	for (const name of readOnly)
		expect([name, computedBullet.includes(`\`${name}\``)]).toEqual([name, true]);
});
