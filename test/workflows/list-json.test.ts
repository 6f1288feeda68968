/**
 * Lists given as one JSON value ("<Label> (JSON)"), end to end on n8n's engine against the
 * emulator: n8n drops a string given to a fixed collection, so a whole list mapped from a
 * previous node (`={{ $json.line_items }}`) or an entry with an explicit 0 needs the JSON
 * alternative. The JSON goes through the same checks as the entries; nothing bad is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { RESPONSE_ONLY_LINE_MEMBERS } from '../../nodes/VendorInventory/tables/bill';
import { DEMO } from '../../emulator/demo-data';
import type { Rec } from '../../emulator/store';
import { expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const bills = env.orgSteps('vendorInventory', { resource: 'bill' });
const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
const billing = env.orgSteps('vendorBilling', { resource: 'project' });
const soft = { onError: 'continueRegularOutput' as const };

const bodies = (): IDataObject[] => env.apiRequests().map((r) => r.body as IDataObject);

/** Line members the service computes (totals, base-currency rate, the tax's name and rate): answered, never sent. */
const COMPUTED_LINE_MEMBERS = [
	'item_total',
	'bcy_rate',
	'discount_amount',
	'tax_name',
	'tax_type',
	'tax_percentage',
];

test('an invoice from the line items of an estimate (Get output) by expression: the emulator receives those lines without the computed members', async () => {
	const estimate = (await env.call('GET', 'books', `/estimates/${DEMO.estimates.accepted1}`)).body
		.estimate as Rec;
	const lines = estimate.line_items as Rec[];
	expect(lines.length).toBeGreaterThan(0);
	env.em.clearRequests();

	const result = await env.run(
		[
			invoices('Create', {
				operation: 'create',
				customer_id: '={{ $json.customer_id }}',
				line_itemsJson: '={{ $json.line_items }}',
			}),
		],
		[estimate],
	);
	expectNoError(result);
	expect(env.apiRequests().map((r) => [r.method, r.path])).toEqual([
		['POST', '/us/api/books/v3/invoices'],
	]);
	const input = lines.map((line) =>
		Object.fromEntries(Object.entries(line).filter(([k]) => !COMPUTED_LINE_MEMBERS.includes(k))),
	);
	expect(lines.some((line) => 'item_total' in line)).toBe(true);
	expect(bodies()[0]).toEqual({ customer_id: estimate.customer_id, line_items: input });
	const created = json(result, 'Create')[0];
	expect((created.line_items as Rec[]).map((l) => [l.item_id, l.quantity])).toEqual(
		lines.map((l) => [l.item_id, l.quantity]),
	);
});

test('explicit 0s are sent, from JSON and from the entry form (a free line); a number for a text member is sent as its decimal text', async () => {
	const result = await env.run([
		invoices('JSON', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_itemsJson: JSON.stringify([
				{
					name: 'Free setup',
					rate: 0,
					quantity: 1,
					discount_amount: 0,
					discount: 0,
					item_order: 0,
				},
			]),
		}),
		invoices('Fields', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: {
				values: [{ name: 'Free setup', rate: 0, quantity: 1, additionalFields: { item_order: 0 } }],
			},
		}),
	]);
	expectNoError(result);
	const [fromJson, fromFields] = bodies().map((b) => (b.line_items as IDataObject[])[0]);
	// discount_amount is computed by the service: left out of the JSON as the form never offers it
	expect(fromJson).toEqual({
		name: 'Free setup',
		rate: 0,
		quantity: 1,
		discount: '0',
		item_order: 0,
	});
	// the entry form's numbers start empty, so an entered 0 is sent and an untouched member is not
	// (nor an empty JSON member such as a line's tags, `[]` by default)
	expect(fromFields).toEqual({ name: 'Free setup', rate: 0, quantity: 1, item_order: 0 });
});

test('bad JSON, a negative rate, a missing required member, a wrong value or shape in JSON: refused naming the field and the rule, nothing sent', async () => {
	const payment = { customer_id: DEMO.customers.acme, amount: 100, payment_mode: 'cash' };
	const task = (extra: IDataObject) => JSON.stringify([{ task_name: 'Design', ...extra }]);
	const project = {
		project_name: 'JSON lists',
		customer_id: DEMO.customers.globex,
		billing_type: 'based_on_project_hours',
		rate: '80',
	};
	const result = await env.run(
		[
			invoices(
				'Bad JSON',
				{
					operation: 'create',
					customer_id: DEMO.customers.acme,
					line_itemsJson: '[{"name": "Work", ',
				},
				soft,
			),
			billing(
				'Negative rate',
				{ operation: 'create', ...project, additionalFields: { tasksJson: task({ rate: -2 }) } },
				soft,
			),
			payments(
				'Missing member',
				{
					operation: 'create',
					...payment,
					invoicesJson: JSON.stringify([{ invoice_id: DEMO.invoices.sent }]),
				},
				soft,
			),
			billing(
				'Long name',
				{
					operation: 'create',
					...project,
					additionalFields: { tasksJson: task({ task_name: 't'.repeat(101) }) },
				},
				soft,
			),
			billing(
				'Role',
				{
					operation: 'create',
					...project,
					additionalFields: {
						usersJson: JSON.stringify([{ user_id: DEMO.billingUsers.alice, user_role: 'boss' }]),
					},
				},
				soft,
			),
			billing(
				'Text rate',
				{ operation: 'create', ...project, additionalFields: { tasksJson: task({ rate: 'ten' }) } },
				soft,
			),
			invoices(
				'Not a list',
				{
					operation: 'create',
					customer_id: DEMO.customers.acme,
					line_itemsJson: '{"name": "Work", "rate": 5}',
				},
				soft,
			),
			invoices(
				'Not an entry',
				{ operation: 'create', customer_id: DEMO.customers.acme, line_itemsJson: '[5]' },
				soft,
			),
		],
		[{}],
	);
	expectNoError(result);
	const errors = [
		'Bad JSON',
		'Negative rate',
		'Missing member',
		'Long name',
		'Role',
		'Text rate',
		'Not a list',
		'Not an entry',
	].map((n) => json(result, n)[0].error);
	expect(errors).toEqual([
		'Line Items (JSON) must be valid JSON [item 0]',
		'Invalid input: Tasks, entry 1: Rate must not be negative (got -2) [item 0]',
		'Invalid input: Invoices, entry 1: Amount Applied is required [item 0]',
		'Invalid input: Tasks, entry 1: Task Name must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 101) [item 0]',
		'Invalid input: Users, entry 1: User Role must be one of: staff, admin, timesheetstaff (got "boss") [item 0]',
		'Invalid input: Tasks, entry 1: Rate must be a number written in decimal digits, e.g. 12.50, -3 or 1e3 (got "ten") [item 0]',
		'Invalid input: Line Items must be a list (got an object) [item 0]',
		'Invalid input: Line Items, line 1 must be an object (got 5) [item 0]',
	]);
	expect(env.apiRequests()).toHaveLength(0);
});

test('both the fields and the JSON of a list: refused naming both, nothing sent', async () => {
	const result = await env.run([
		invoices(
			'Both',
			{
				operation: 'create',
				customer_id: DEMO.customers.acme,
				line_items: { values: [{ name: 'Work', rate: 5, quantity: 1 }] },
				line_itemsJson: '[{"name": "Other", "rate": 6, "quantity": 1}]',
			},
			soft,
		),
		payments(
			'Both payments',
			{
				operation: 'create',
				customer_id: DEMO.customers.acme,
				amount: 10,
				invoices: { values: [{ invoice_id: DEMO.invoices.sent, amount_applied: 10 }] },
				invoicesJson: `[{"invoice_id": "${DEMO.invoices.sent}", "amount_applied": 10}]`,
			},
			soft,
		),
	]);
	expectNoError(result);
	expect([json(result, 'Both')[0].error, json(result, 'Both payments')[0].error]).toEqual([
		'Give Line Items either as fields or as Line Items (JSON), not both [item 0]',
		'Give Invoices either as fields or as Invoices (JSON), not both [item 0]',
	]);
	expect(env.apiRequests()).toHaveLength(0);
});

test('an entry form whose entries were all removed counts as not given: the JSON is sent', async () => {
	const result = await env.run([
		invoices('Emptied', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: { values: [] },
			line_itemsJson: '[{"name": "Work", "rate": 5, "quantity": 1}]',
		}),
	]);
	expectNoError(result);
	expect(bodies().map((b) => b.line_items)).toEqual([[{ name: 'Work', rate: 5, quantity: 1 }]]);
});

test('billing project tasks and users as JSON: sent as given, with explicit 0s', async () => {
	const tasks = [
		{
			task_name: 'Design',
			description: 'Mock-ups',
			rate: 80,
			budget_hours: '10',
			is_billable: true,
		},
		{ task_name: 'Warranty', rate: 0, is_billable: false },
	];
	const users = [{ user_id: DEMO.billingUsers.alice, user_role: 'admin', rate: 0 }];
	const result = await env.run(
		[
			billing('Create', {
				operation: 'create',
				project_name: 'From JSON',
				customer_id: DEMO.customers.globex,
				billing_type: 'based_on_task_hours',
				additionalFields: { tasksJson: JSON.stringify(tasks), usersJson: '={{ $json.users }}' },
			}),
		],
		[{ users }],
	);
	expectNoError(result);
	expect(env.apiRequests().map((r) => [r.method, r.path])).toEqual([
		['POST', '/us/api/billing/v1/projects'],
	]);
	expect(bodies()[0]).toMatchObject({ project_name: 'From JSON', tasks, users });
	const created = json(result, 'Create')[0];
	expect((created.tasks as Rec[]).map((t) => [t.task_name, t.rate])).toEqual([
		['Design', 80],
		['Warranty', 0],
	]);
});

test('payment invoices as JSON from an expression: applied to each invoice as given', async () => {
	const open = async (rate: number): Promise<string> => {
		const res = await env.call('POST', 'books', '/invoices', {
			json: { customer_id: DEMO.customers.acme, line_items: [{ name: 'Work', rate, quantity: 1 }] },
		});
		return String(res.body.invoice.invoice_id);
	};
	const applied = [
		{ invoice_id: await open(300), amount_applied: 300 },
		{ invoice_id: await open(200), amount_applied: 150 },
	];
	env.em.clearRequests();
	const result = await env.run(
		[
			payments('Create', {
				operation: 'create',
				customer_id: DEMO.customers.acme,
				amount: 450,
				invoicesJson: '={{ $json.applied }}',
			}),
		],
		[{ applied }],
	);
	expectNoError(result);
	expect(bodies()).toEqual([{ customer_id: DEMO.customers.acme, amount: 450, invoices: applied }]);
	expect(
		(json(result, 'Create')[0].invoices as Rec[]).map((i) => [i.invoice_id, i.amount_applied]),
	).toEqual(applied.map((a) => [a.invoice_id, a.amount_applied]));
});

test('bill lines copied from a bill record: response-only members are left out; a required list given neither way is refused naming it', async () => {
	// A bill as the API answers it (list / create / update output): its lines carry response-only members.
	const source = structuredClone(env.orgTenant().get('bills', DEMO.bills.paper)) as Rec;
	const header = { vendor_id: DEMO.vendors.paperCo, date: '2026-04-01', due_date: '2026-05-01' };
	env.em.clearRequests();
	const result = await env.run(
		[
			bills('Copy', {
				operation: 'create',
				...header,
				bill_number: 'COPY-1',
				line_itemsJson: '={{ $json.line_items }}',
			}),
			bills('None', { operation: 'create', ...header, bill_number: 'NONE-1' }, soft),
		],
		[source],
	);
	expectNoError(result);
	expect(json(result, 'None')[0].error).toBe(
		'Invalid input: Line Items is required (as fields, or as Line Items (JSON)) [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(1);
	const sent = (
		bodies()[0].JSONString ? JSON.parse(String(bodies()[0].JSONString)) : bodies()[0]
	) as IDataObject;
	const lines = source.line_items as Rec[];
	expect(lines.some((l) => 'item_total' in l)).toBe(true);
	const responseOnly: readonly string[] = RESPONSE_ONLY_LINE_MEMBERS;
	expect((sent.line_items as IDataObject[]).some((l) => 'item_total' in l)).toBe(false);
	expect(sent.line_items).toEqual(
		lines.map((l) =>
			Object.fromEntries(
				Object.entries(l).filter(([k, v]) => !responseOnly.includes(k) && v !== '' && v !== null),
			),
		),
	);
});
