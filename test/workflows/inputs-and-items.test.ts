/**
 * Inputs and items, written from the README's promises ("Updates change only what you set",
 * "Outcomes: only what the API showed", "Options", Troubleshooting) and docs/BEHAVIOUR.md /
 * docs/ASSUMPTIONS.md by a tester who did not write the package: bad input is refused naming
 * the field by its label in the form and the rule, before anything is sent; an update sends
 * only what was set; every input item gives an output or an error, in order and paired;
 * Return All and Limit; binary files; no secret in any output or error. The workflows run on
 * n8n's engine against the emulator, whose request log is the witness of what was sent.
 * Labels are read from the node's description at run time (what the form shows).
 */
import type { IDataObject, INodeExecutionData, INodeProperties, INodeType } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import type { RecordedRequest } from '../../emulator/server';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { binaryItem, readBinary } from '../../harness';
import type { RunResult } from '../../harness';
import { byId, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';
import { credentialSecrets, expectNoSecrets as expectNoSecretsOf } from './no-secrets';
import type { Step } from '../../harness/workflows';

// 450 extra items: Books item lists span three pages of 200
const SEEDED_ITEMS = 450;
const env = useWorkflowEnv({ demo: true, seedItems: SEEDED_ITEMS });

const CONTINUE = { onError: 'continueRegularOutput' as const };

// ---------------------------------------------------------------- helpers

type NodeClass = new () => INodeType;

/**
 * The label the form shows for a field of `resource` → `operation`: `path` is the parameter's
 * name, then (inside a collection or fixed collection) the option's name, and so on.
 */
function labelOf(nodeType: NodeClass, resource: string, operation: string, path: string[]): string {
	const fits = (p: INodeProperties) => {
		const show = p.displayOptions?.show ?? {};
		return (
			(!show.resource || show.resource.includes(resource)) &&
			(!show.operation || show.operation.includes(operation))
		);
	};
	let level: INodeProperties[] = new nodeType().description.properties.filter(fits);
	let found: INodeProperties | undefined;
	for (const name of path) {
		found = level.find((p) => p.name === name);
		if (!found)
			throw new Error(`the form of ${resource} → ${operation} has no field ${path.join(' → ')}`);
		const options = (found.options ?? []) as Array<
			INodeProperties | { values?: INodeProperties[] }
		>;
		level =
			found.type === 'fixedCollection'
				? options.flatMap((o) => ('values' in o && o.values ? o.values : []))
				: (options as INodeProperties[]);
	}
	return found!.displayName;
}

const expectNoSecrets = (result: RunResult): void => expectNoSecretsOf(env, result);

/** Runs the steps and checks that nothing of the run shows a secret. */
async function run(
	steps: Step[],
	input?: Array<IDataObject | INodeExecutionData>,
): Promise<RunResult> {
	const result = await env.run(steps, input);
	expectNoSecrets(result);
	return result;
}

/** The run's error as one text (message and description). */
function errorText(result: RunResult): string {
	const error = result.error() as (Error & { description?: string }) | undefined;
	return error ? `${error.message}\n${error.description ?? ''}` : '';
}

/** The text of an output item as a whole (an error item holds its message there). */
const itemText = (item: IDataObject): string => JSON.stringify(item);

/** The input item an output item is paired with. */
function pairedTo(item: INodeExecutionData): number | undefined {
	const p = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof p === 'number' ? p : p?.item;
}

/** API requests (accounts server left out) of `method` whose path matches. */
const sent = (method: string, path: RegExp): RecordedRequest[] =>
	env.apiRequests().filter((r) => r.method === method && path.test(r.path));

const books = (resource: string) => env.orgSteps('vendorBooks', { resource });
const payments = (resource = 'payment') => env.orgSteps('vendorInvoice', { resource });
const billing = (resource = 'project') => env.orgSteps('vendorBilling', { resource });
const bills = () => env.orgSteps('vendorInventory', { resource: 'bill' });
const projects = (resource: string) => env.portalSteps({ resource });

// ---------------------------------------------------------------- 1. bad input: named by its label, the rule, nothing sent

interface BadInput {
	/** The step; its field under test reads `{{ $json.v }}`. */
	step: () => Step;
	good: IDataObject['v'];
	bad: IDataObject['v'];
	/** The label of the field in the form (looked up in the node's description). */
	label: () => string[];
	/** The rule, as the error should state it. */
	rule: RegExp;
	/** The request the good item makes (and the bad one must not). */
	method: string;
	path: RegExp;
}

const BILL = {
	vendor_id: DEMO.vendors.paperCo,
	bill_number: '={{ "IN-" + $itemIndex + "-" + $runIndex }}',
	date: '2026-01-15',
	due_date: '2026-02-15',
};
const PAPER_LINE = { line_items: { values: [{ name: 'Paper', rate: 1, quantity: 1 }] } };

const BAD_INPUTS: Array<[string, BadInput]> = [
	[
		'Vendor Projects Project → Create: Name of 201 characters (max 200)',
		{
			step: () =>
				projects('project')('Op', { operation: 'create', name: '={{ $json.v }}' }, CONTINUE),
			good: 'Inputs test project',
			bad: 'N'.repeat(201),
			label: () => [labelOf(VendorProjects, 'project', 'create', ['name'])],
			rule: /200/,
			method: 'POST',
			path: /\/portal\/\d+\/projects$/,
		},
	],
	[
		'Vendor Projects Project → Create: Start Date written 01/03/2026 (YYYY-MM-DD)',
		{
			step: () =>
				projects('project')(
					'Op',
					{
						operation: 'create',
						name: 'Dated project',
						additionalFields: { start_date: '={{ $json.v }}' },
					},
					CONTINUE,
				),
			good: '2026-03-01',
			bad: '01/03/2026',
			label: () => [
				labelOf(VendorProjects, 'project', 'create', ['additionalFields', 'start_date']),
			],
			rule: /yyyy-mm-dd/i,
			method: 'POST',
			path: /\/portal\/\d+\/projects$/,
		},
	],
	[
		'Vendor Projects Project → Update: Description added but blank (spaces, no-break and zero-width spaces)',
		{
			step: () =>
				projects('project')(
					'Op',
					{
						operation: 'update',
						project_id: byId(DEMO.projects.mobile),
						updateFields: { description: '={{ $json.v }}' },
					},
					CONTINUE,
				),
			good: 'Changed by the inputs test',
			bad: ' \u00a0\u200b\t ',
			label: () => [labelOf(VendorProjects, 'project', 'update', ['updateFields', 'description'])],
			rule: /blank|empty/i,
			method: 'PATCH',
			path: /\/portal\/\d+\/projects\/\d+$/,
		},
	],
	[
		'Vendor Billing Project → Create: a negative Rate',
		{
			step: () =>
				billing()(
					'Op',
					{
						operation: 'create',
						project_name: '={{ "Fixed " + $itemIndex }}',
						customer_id: DEMO.customers.acme,
						billing_type: 'fixed_cost_for_project',
						rate: '={{ $json.v }}',
					},
					CONTINUE,
				),
			good: '150',
			bad: '-5',
			label: () => [labelOf(VendorBilling, 'project', 'create', ['rate'])],
			rule: /negative/i,
			method: 'POST',
			path: /\/billing\/v1\/projects$/,
		},
	],
	[
		'Vendor Billing Project → Create: Billing Type fixed_cost_for_project without a Rate (documented mandatory)',
		{
			step: () =>
				billing()(
					'Op',
					{
						operation: 'create',
						project_name: '={{ "Typed " + $itemIndex }}',
						customer_id: DEMO.customers.acme,
						billing_type: '={{ $json.v }}',
					},
					CONTINUE,
				),
			good: 'based_on_task_hours',
			bad: 'fixed_cost_for_project',
			label: () => [labelOf(VendorBilling, 'project', 'create', ['rate'])],
			rule: /required|mandatory|needs|must/i,
			method: 'POST',
			path: /\/billing\/v1\/projects$/,
		},
	],
	[
		'Vendor Invoice Payment → Create: Amount (required) resolving to nothing',
		{
			step: () =>
				payments()(
					'Op',
					{
						operation: 'create',
						customer_id: DEMO.customers.acme,
						amount: '={{ $json.v }}',
						date: '2026-01-15',
					},
					CONTINUE,
				),
			good: 13,
			bad: '',
			label: () => [labelOf(VendorInvoice, 'payment', 'create', ['amount'])],
			rule: /required|blank|empty|missing/i,
			method: 'POST',
			path: /\/customerpayments$/,
		},
	],
	[
		'Vendor Invoice Payment → Create: Payment Mode "bitcoin" (not an allowed value)',
		{
			step: () =>
				payments()(
					'Op',
					{
						operation: 'create',
						customer_id: DEMO.customers.acme,
						amount: 14,
						date: '2026-01-15',
						additionalFields: { payment_mode: '={{ $json.v }}' },
					},
					CONTINUE,
				),
			good: 'cash',
			bad: 'bitcoin',
			label: () => [
				labelOf(VendorInvoice, 'payment', 'create', ['additionalFields', 'payment_mode']),
			],
			rule: /banktransfer|allowed|one of/i,
			method: 'POST',
			path: /\/customerpayments$/,
		},
	],
	[
		'Vendor Inventory Bill → Create: Due Date written 31.01.2026 (yyyy-mm-dd)',
		{
			step: () =>
				bills()(
					'Op',
					{ operation: 'create', ...BILL, due_date: '={{ $json.v }}', ...PAPER_LINE },
					CONTINUE,
				),
			good: '2026-02-28',
			bad: '31.01.2026',
			label: () => [labelOf(VendorInventory, 'bill', 'create', ['due_date'])],
			rule: /yyyy-mm-dd/i,
			method: 'POST',
			path: /\/inventory\/v1\/bills$/,
		},
	],
	[
		'Vendor Books Item → Get Many: Name Contains filter of 101 characters (max 100)',
		{
			step: () =>
				books('item')(
					'Op',
					{
						operation: 'getAll',
						returnAll: false,
						limit: 5,
						filters: { name_contains: '={{ $json.v }}' },
					},
					CONTINUE,
				),
			good: 'Consulting',
			bad: 'c'.repeat(101),
			label: () => [labelOf(VendorBooks, 'item', 'getAll', ['filters', 'name_contains'])],
			rule: /100/,
			method: 'GET',
			path: /\/books\/v3\/items$/,
		},
	],
	[
		'Vendor Books Item → Update: Item ID "abc" (documented as a number)',
		{
			step: () =>
				books('item')(
					'Op',
					{
						operation: 'update',
						item_id: byId('={{ $json.v }}'),
						updateFields: { description: 'Design, per page' },
					},
					CONTINUE,
				),
			good: DEMO.items.design,
			bad: 'abc',
			label: () => [labelOf(VendorBooks, 'item', 'update', ['item_id'])],
			rule: /digit|number/i,
			method: 'PUT',
			path: /\/books\/v3\/items\/[^/]+$/,
		},
	],
	[
		'Vendor Books Invoice → Create: line 2 of Line Items (JSON) with neither Item ID nor Name',
		{
			step: () =>
				books('invoice')(
					'Op',
					{
						operation: 'create',
						customer_id: DEMO.customers.acme,
						line_itemsJson: '={{ $json.v }}',
					},
					CONTINUE,
				),
			good: [
				{ name: 'Work', rate: 10, quantity: 1 },
				{ name: 'Extra work', rate: 5, quantity: 1 },
			],
			bad: [
				{ name: 'Work', rate: 10, quantity: 1 },
				{ description: 'second line, unnamed', rate: 5, quantity: 1 },
			],
			label: () => [
				labelOf(VendorBooks, 'invoice', 'create', ['line_items']),
				labelOf(VendorBooks, 'invoice', 'create', ['line_items', 'item_id']),
				labelOf(VendorBooks, 'invoice', 'create', ['line_items', 'name']),
			],
			rule: /line 2/,
			method: 'POST',
			path: /\/books\/v3\/invoices$/,
		},
	],
	[
		'Vendor Books Invoice → Create: Item Order 1.5 on a line (a whole number)',
		{
			step: () =>
				books('invoice')(
					'Op',
					{
						operation: 'create',
						customer_id: DEMO.customers.globex,
						line_items: {
							values: [
								{
									name: 'Ordered work',
									rate: 10,
									quantity: 1,
									additionalFields: { item_order: '={{ $json.v }}' },
								},
							],
						},
					},
					CONTINUE,
				),
			good: 1,
			bad: 1.5,
			label: () => [
				labelOf(VendorBooks, 'invoice', 'create', ['line_items', 'additionalFields', 'item_order']),
			],
			rule: /whole|integer/i,
			method: 'POST',
			path: /\/books\/v3\/invoices$/,
		},
	],
];

describe('bad input is refused naming the field by its label and the rule; nothing is sent for it', () => {
	test.each(BAD_INPUTS)('%s', async (_title, c) => {
		const result = await run([c.step()], [{ v: c.good }, { v: c.bad }]);
		const out = result.output('Op');
		// one output or error per input item, paired with it
		expect(out.map(pairedTo)).toEqual([0, 1]);
		const [good, bad] = out.map((i) => i.json);
		// the good item was sent (and only it: the bad one sent nothing)
		expect(good.error).toBeUndefined();
		const requests = sent(c.method, c.path);
		expect(requests).toHaveLength(1);
		// the bad item: an error naming the field by its label and the rule
		expect(bad.error).toBeDefined();
		const text = itemText(bad);
		for (const label of c.label()) expect(text).toContain(label);
		expect(text).toMatch(c.rule);
		expect(text).toContain('[item 1]');
	});
});

// ---------------------------------------------------------------- 2. an update sends only what was set

describe('an update sends only the fields the user set', () => {
	test('Books Item → Update with Description only: the PUT body is that one field', async () => {
		const result = await run([
			books('item')('Update', {
				operation: 'update',
				item_id: byId(DEMO.items.hosting),
				updateFields: { description: 'Hosting, billed monthly' },
			}),
		]);
		expect(errorText(result)).toBe('');
		const puts = sent('PUT', /\/items\/\d+$/);
		expect(puts.map((r) => r.body)).toEqual([{ description: 'Hosting, billed monthly' }]);
		// the rest of the record is unchanged
		const item = env.orgTenant().get('items', DEMO.items.hosting)!;
		expect([item.name, item.rate, item.description]).toEqual([
			'Hosting (monthly)',
			49,
			'Hosting, billed monthly',
		]);
	});

	test('Books Item → Update: an entered Rate of 0 is sent; a number field added but left empty is not', async () => {
		const result = await run([
			books('item')('Update', {
				operation: 'update',
				item_id: byId('1200000000004'),
				updateFields: { rate: 0, purchase_rate: null },
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(sent('PUT', /\/items\/\d+$/).map((r) => r.body)).toEqual([{ rate: 0 }]);
	});

	test('Books Invoice → Update with Notes only: the PUT body is that one field, the lines are kept', async () => {
		const before = env.orgTenant().get('invoices', DEMO.invoices.draft)!;
		const lines = JSON.stringify(before.line_items);
		const result = await run([
			books('invoice')('Update', {
				operation: 'update',
				invoice_id: byId(DEMO.invoices.draft),
				updateFields: { notes: 'Thank you' },
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(sent('PUT', /\/invoices\/\d+$/).map((r) => r.body)).toEqual([{ notes: 'Thank you' }]);
		expect(JSON.stringify(env.orgTenant().get('invoices', DEMO.invoices.draft)!.line_items)).toBe(
			lines,
		);
	});

	test('Vendor Projects Project → Update with Public Project set to false only: the PATCH body is that one field', async () => {
		const result = await run([
			projects('project')('Update', {
				operation: 'update',
				project_id: byId(DEMO.projects.website),
				updateFields: { is_public_project: false },
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(sent('PATCH', /\/projects\/\d+$/).map((r) => r.body)).toEqual([
			{ is_public_project: false },
		]);
	});

	test('Vendor Invoice Payment → Update with Reference Number only: nothing read first, the PUT body is that one field', async () => {
		const result = await run([
			payments()('Update', {
				operation: 'update',
				payment_id: byId(DEMO.payments.partial),
				updateFields: { reference_number: 'REF-INPUTS-1' },
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(env.apiRequests().map((r) => r.method)).toEqual(['PUT']);
		expect(sent('PUT', /\/customerpayments\/\d+$/).map((r) => r.body)).toEqual([
			{ reference_number: 'REF-INPUTS-1' },
		]);
	});

	test('Vendor Billing Project → Update with Description only: the required fields are read first and resent with their current values, nothing else', async () => {
		const current = { ...env.orgTenant().get('projects', DEMO.billingProjects.support)! };
		const result = await run([
			billing()('Update', {
				operation: 'update',
				project_id: byId(DEMO.billingProjects.support),
				updateFields: { description: 'Support, renewed' },
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(env.apiRequests().map((r) => r.method)).toEqual(['GET', 'PUT']);
		const body = sent('PUT', /\/billing\/v1\/projects\/\d+$/)[0].body as IDataObject;
		expect(
			Object.keys(body).filter(
				(k) => !['description', 'project_name', 'customer_id', 'billing_type', 'rate'].includes(k),
			),
		).toEqual([]);
		expect(body).toMatchObject({
			description: 'Support, renewed',
			project_name: current.project_name,
			customer_id: current.customer_id,
			billing_type: current.billing_type,
		});
		if (body.rate !== undefined) expect(Number(body.rate)).toBe(Number(current.rate));
	});
});

// ---------------------------------------------------------------- 3. every input item: an output or an error, in order, paired

describe('every input item gives an output or an error, in order, paired with its input', () => {
	test('Books Item → Get of 6 ids (unknown, blank, a path segment among them) with Continue On Fail: 6 items in input order', async () => {
		const ids = [
			DEMO.items.consulting,
			'1299999999999',
			DEMO.items.design,
			'   ',
			DEMO.items.hosting,
			'..',
		];
		const result = await run(
			[books('item')('Get', { operation: 'get', item_id: byId('={{ $json.id }}') }, CONTINUE)],
			ids.map((id) => ({ id })),
		);
		const out = result.output('Get');
		expect(out.map(pairedTo)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(out.map((i) => (i.json.error === undefined ? String(i.json.item_id) : 'error'))).toEqual(
			[DEMO.items.consulting, 'error', DEMO.items.design, 'error', DEMO.items.hosting, 'error'],
		);
		for (const i of [1, 3, 5]) expect(itemText(out[i].json)).toContain(`[item ${i}]`);
		// the blank id and ".." were never sent
		expect(sent('GET', /\/items\/[^/]*$/).map((r) => r.path.split('/').pop())).toEqual(
			expect.arrayContaining([
				DEMO.items.consulting,
				'1299999999999',
				DEMO.items.design,
				DEMO.items.hosting,
			]),
		);
		expect(sent('GET', /\/items/)).toHaveLength(4);
	});

	test('Vendor Invoice Payment → Create of 5 items, 2 in flight, bad amounts among them: each output is the payment of its own input', async () => {
		const amounts: Array<IDataObject['amount']> = [21, 'twenty', 22, null, 23];
		const result = await run(
			[
				payments()(
					'Pay',
					{
						operation: 'create',
						customer_id: DEMO.customers.initech,
						amount: '={{ $json.amount }}',
						date: '2026-01-20',
						additionalFields: { reference_number: '={{ "PAIR-" + $json.n }}' },
						options: { requestsInFlight: 2 },
					},
					CONTINUE,
				),
			],
			amounts.map((amount, n) => ({ amount, n })),
		);
		const out = result.output('Pay');
		expect(out.map(pairedTo)).toEqual([0, 1, 2, 3, 4]);
		expect(
			out.map((i) =>
				i.json.error === undefined ? [i.json.amount, i.json.reference_number] : 'error',
			),
		).toEqual([[21, 'PAIR-0'], 'error', [22, 'PAIR-2'], 'error', [23, 'PAIR-4']]);
		expect(itemText(out[1].json)).toContain(
			labelOf(VendorInvoice, 'payment', 'create', ['amount']),
		);
		expect(
			sent('POST', /\/customerpayments$/).map((r) => (r.body as IDataObject).reference_number),
		).toEqual(expect.arrayContaining(['PAIR-0', 'PAIR-2', 'PAIR-4']));
		expect(sent('POST', /\/customerpayments$/)).toHaveLength(3);
	});

	test("without Continue On Fail the run ends with the failing item's error, saying which item and how many were done", async () => {
		const result = await run(
			[
				books('item')('Get', {
					operation: 'get',
					item_id: byId('={{ $json.id }}'),
					options: { requestsInFlight: 1 },
				}),
			],
			[{ id: DEMO.items.consulting }, { id: '' }, { id: DEMO.items.design }],
		);
		const text = errorText(result);
		expect(text).toContain(labelOf(VendorBooks, 'item', 'get', ['item_id']));
		expect(text).toMatch(/\[item 1; 1 of 3 items done, \d+ not sent\]/);
		expect(json(result, 'Get')).toEqual([]);
		// one at a time: the item after the failing one is not started
		expect(sent('GET', /\/items\//).map((r) => r.path.split('/').pop())).toEqual([
			DEMO.items.consulting,
		]);
	});
});

// ---------------------------------------------------------------- 4. Return All and Limit

describe('Return All reads every page; Limit is kept exactly', () => {
	const activeItems = () =>
		env
			.orgTenant()
			.all('items')
			.filter((i) => i.status === 'active')
			.map((i) => String(i.item_id));

	test('Books Item → Get Many, Return All: every active item of three pages, each once', async () => {
		const result = await run([books('item')('List', { operation: 'getAll', returnAll: true })]);
		expect(errorText(result)).toBe('');
		const ids = json(result, 'List').map((i) => String(i.item_id));
		expect(activeItems().length).toBeGreaterThan(400);
		expect(new Set(ids).size).toBe(ids.length);
		expect([...ids].sort()).toEqual(activeItems().sort());
		expect(sent('GET', /\/books\/v3\/items$/).map((r) => r.query.page ?? '1')).toEqual([
			'1',
			'2',
			'3',
		]);
	});

	test('Books Item → Get Many, Limit 250 (more than one page): exactly 250 items, each once', async () => {
		const result = await run([
			books('item')('List', { operation: 'getAll', returnAll: false, limit: 250 }),
		]);
		expect(errorText(result)).toBe('');
		const ids = json(result, 'List').map((i) => String(i.item_id));
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		expect(sent('GET', /\/books\/v3\/items$/).length).toBeLessThanOrEqual(2);
	});

	test.each([
		['Vendor Books Invoice', 3, () => books('invoice'), 'invoice_id', /\/books\/v3\/invoices$/],
		['Vendor Invoice Payment', 2, () => payments(), 'payment_id', /\/customerpayments$/],
	] as const)(
		'%s → Get Many, Limit %i: exactly that many, distinct, one call',
		async (_label, limit, make, idKey, path) => {
			const result = await run([make()('List', { operation: 'getAll', returnAll: false, limit })]);
			expect(errorText(result)).toBe('');
			const ids = json(result, 'List').map((i) => String(i[idKey]));
			expect(ids).toHaveLength(limit);
			expect(new Set(ids).size).toBe(limit);
			expect(sent('GET', path)).toHaveLength(1);
		},
	);
});

// ---------------------------------------------------------------- 5. binary data

describe('files come and go as binary data with a name and a type', () => {
	test('Invoice → Get PDF of two invoices into "pdf": one PDF file with a file name and application/pdf', async () => {
		const ids = [DEMO.invoices.overdue1, DEMO.invoices.overdue2];
		const result = await run([
			books('invoice')('PDF', {
				operation: 'getPdf',
				invoice_ids: ids.join(', '),
				binaryPropertyName: 'pdf',
			}),
		]);
		expect(errorText(result)).toBe('');
		const out = result.output('PDF');
		expect(out).toHaveLength(1);
		const file = out[0].binary?.pdf;
		expect(file).toBeDefined();
		expect(file!.mimeType).toMatch(/^application\/pdf/);
		expect(file!.fileName ?? '').toMatch(/\S+\.pdf$/i);
		expect((await readBinary(out[0], 'pdf')).subarray(0, 5).toString()).toBe('%PDF-');
		expect(sent('GET', /\/invoices\/pdf$/).map((r) => r.query.invoice_ids)).toEqual([
			ids.join(','),
		]);
	});

	test('Invoice → Upload Attachment from "scan", then Download Attachment into "file": the same bytes, name and type', async () => {
		const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);
		const id = DEMO.invoices.viewed;
		const result = await run(
			[
				books('invoice')('Upload', {
					operation: 'uploadAttachment',
					invoice_id: byId(id),
					binaryPropertyName: 'scan',
				}),
				books('invoice')('Download', {
					operation: 'downloadAttachment',
					invoice_id: byId(id),
					binaryPropertyName: 'file',
				}),
			],
			[binaryItem(bytes, 'receipt-42.png', 'image/png', {}, 'scan')],
		);
		expect(errorText(result)).toBe('');
		const [upload] = sent('POST', /\/invoices\/\d+\/attachment$/);
		// the request log holds a multipart request's parts
		const files = ((upload.body ?? []) as Array<{ fileName?: string; data: Buffer }>).filter(
			(p) => p.fileName !== undefined,
		);
		expect(files.map((f) => [f.fileName, Buffer.from(f.data).equals(bytes)])).toEqual([
			['receipt-42.png', true],
		]);
		const [item] = result.output('Download');
		expect(item.binary?.file?.mimeType).toMatch(/^image\/png/);
		expect(item.binary?.file?.fileName).toBe('receipt-42.png');
		expect((await readBinary(item, 'file')).equals(bytes)).toBe(true);
	});

	test.each([
		[
			'a file of a type invoices do not take (setup.exe)',
			() => binaryItem(Buffer.from('MZ'), 'setup.exe', 'application/octet-stream', {}, 'data'),
			/gif|png|pdf|allowed|extension|type/i,
		],
		[
			'an item without the named binary field',
			() => ({ json: { note: 'no file' } }) as INodeExecutionData,
			/"data"|'data'|\bdata\b/,
		],
	])('Invoice → Upload Attachment of %s is refused before sending', async (_label, input, rule) => {
		const result = await run(
			[
				books('invoice')(
					'Upload',
					{
						operation: 'uploadAttachment',
						invoice_id: byId(DEMO.invoices.sent),
						binaryPropertyName: 'data',
					},
					CONTINUE,
				),
			],
			[input()],
		);
		const out = result.output('Upload');
		expect(out.map(pairedTo)).toEqual([0]);
		expect(out[0].json.error).toBeDefined();
		expect(itemText(out[0].json)).toMatch(rule);
		expect(sent('POST', /\/attachment$/)).toEqual([]);
	});
});

// ---------------------------------------------------------------- 6. no secret in outputs or errors

describe('no secret in any output or error', () => {
	test('a run of refused input, an API refusal and a run-ending error shows no token or client secret', async () => {
		const result = await env.run(
			[
				payments()(
					'Pay',
					{
						operation: 'create',
						customer_id: '={{ $json.customer }}',
						amount: 5,
						date: '2026-01-15',
					},
					CONTINUE,
				),
				billing()(
					'Get',
					{ operation: 'get', project_id: byId('1699999999999') },
					{ executeOnce: true },
				),
			],
			[{ customer: '1199999999999' }, { customer: ' ' }],
		);
		// the API refused the unknown customer, the node refused the blank one, and the run ended on the unknown project
		const out = json(result, 'Pay');
		expect(out.map((i) => i.error !== undefined)).toEqual([true, true]);
		expect(result.error()).toBeDefined();
		expect(sent('POST', /\/customerpayments$/)).toHaveLength(1);
		expect(credentialSecrets(env)).toHaveLength(3);
		expectNoSecrets(result);
	});
});
