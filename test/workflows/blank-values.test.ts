/**
 * One blank rule: a value that is blank after trimming spaces, tabs, line breaks,
 * no-break and zero-width spaces is no value. Through n8n's engine against the emulator, from
 * the field tables: a field the user gave blank (added under Update Fields, Additional Fields
 * or Filters, an entry member set by an expression) is refused naming it, with nothing sent,
 * and a kept field given blank is never swapped for the record's value; a line that says
 * nothing of what it is is refused naming the line, from the entries and from the JSON alike.
 * A field left as the form starts it (an added field untouched, an optional top-level field)
 * is simply not given.
 */
import type { IDataObject } from 'n8n-workflow';

import { jsonAlternativeName, placement } from '../../nodes/shared/tables/naming';
import type { Area, Field, FieldType, Operation, Resource } from '../../nodes/shared/tables/spec';
import { isBlank, trimBlank } from '../../nodes/shared/tables/textRules';
import { formName } from '../../nodes/shared/tables/problemText';
import { DEMO } from '../../emulator/demo-data';
import { ACTION_AREAS, NODE_OF, sampleEntry, topSamples } from '../tools/table-inputs';
import { byId, expectNoError, json, type Step } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const soft = { onError: 'continueRegularOutput' as const };

/** The characters the rule names, one by one. */
const BLANK_CHARACTERS = [
	' ',
	'\t',
	'\n',
	'\r',
	'\u00a0',
	'\u202f',
	'\u2007',
	'\u200b',
	'\u200c',
	'\u200d',
	'\u2060',
	'\ufeff',
];

describe('isBlank, the one rule', () => {
	test.each(BLANK_CHARACTERS.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`, c]))(
		'%s alone, repeated and mixed with the others is blank',
		(_code, c) => {
			expect([
				isBlank(c),
				isBlank(c.repeat(3)),
				isBlank(`${c}${BLANK_CHARACTERS.join('')}${c}`),
			]).toEqual([true, true, true]);
			expect([isBlank(`${c}1${c}`), trimBlank(`${c}1 2${c}${c}`)]).toEqual([false, '1 2']);
		},
	);

	test('no value is blank; any other character, a number, false, a list or an object is not', () => {
		expect([undefined, null, ''].map(isBlank)).toEqual([true, true, true]);
		expect(['0', 'a', '\u200ba', '.', '-', 0, false, [], {}, ['  ']].map(isBlank)).toEqual(
			Array(10).fill(false),
		);
	});
});

const AREAS: Array<{ area: Area; type: string }> = ACTION_AREAS.map((area) => ({
	area,
	type: NODE_OF[area.value],
}));

/** Field types entered as text. */
const TEXT: readonly FieldType[] = [
	'string',
	'id',
	'email',
	'url',
	'phone',
	'date',
	'time',
	'dateTime',
];

const topParameters = (op: Operation): IDataObject => topSamples(op, byId);

interface Target {
	type: string;
	resource: Resource;
	op: Operation;
	key: string;
}

const TARGETS: Target[] = AREAS.flatMap(({ area, type }) =>
	area.resources.flatMap((resource) =>
		resource.operations.map((op) => ({
			type,
			resource,
			op,
			key: `${type} ${resource.value}.${op.value}`,
		})),
	),
);

function stepOf(target: Target, name: string, parameters: IDataObject): Step {
	const base = { resource: target.resource.value, operation: target.op.value };
	return target.type === 'vendorProjects'
		? env.portalSteps(base)(name, parameters, soft)
		: env.orgSteps(target.type, base)(name, parameters, soft);
}

/**
 * Runs one node per case in a chain (each turns its refusal into an error item and the next
 * runs), and checks each case's error and that nothing at all reached the API.
 */
async function expectRefused(
	target: Target,
	cases: Array<{ name: string; parameters: IDataObject; error: string }>,
): Promise<void> {
	const result = await env.run(
		cases.map((c) => stepOf(target, c.name, { ...topParameters(target.op), ...c.parameters })),
	);
	const seen = cases.map((c) => ({ case: c.name, error: json(result, c.name)[0]?.error }));
	expect({ key: target.key, seen }).toEqual({
		key: target.key,
		seen: cases.map((c) => ({ case: c.name, error: `Invalid input: ${c.error} [item 0]` })),
	});
	expect({
		key: target.key,
		requests: env.apiRequests().map((r) => `${r.method} ${r.path}`),
	}).toEqual({ key: target.key, requests: [] });
}

/** Field types holding one value: an expression can give any of them blank. */
const SCALAR: readonly FieldType[] = [...TEXT, 'number', 'integer', 'boolean', 'enum'];

/** How a value is given: typed into a text field, or from an expression into any field of one value. */
const VARIANTS = [
	{
		how: 'typed "  "',
		value: '  ',
		types: TEXT,
		shows: ' (only spaces or invisible characters)',
		updatesOnly: false,
	},
	{
		how: 'an expression giving no-break and zero-width spaces',
		value: '={{ "\\u00a0\\u200b" }}',
		types: SCALAR,
		shows: ' (only spaces or invisible characters)',
		updatesOnly: false,
	},
	{
		how: 'an expression giving nothing',
		value: '={{ $json.nothing }}',
		types: SCALAR,
		shows: '',
		updatesOnly: true,
	},
];

/** The optional fields of one value a user adds from a collection (Update Fields, Additional Fields, Filters, a group's fields). */
const added = (op: Operation, types: readonly FieldType[] = SCALAR): Field[] =>
	op.fields.filter(
		(f) => !f.readOnly && !f.sortFields && types.includes(f.type) && placement(f, op) !== 'top',
	);

const ADDED_CASES = TARGETS.flatMap((t) =>
	VARIANTS.filter(
		(v) => added(t.op, v.types).length && (!v.updatesOnly || t.op.kind === 'update'),
	).map((v) => [t.key, v.how, t, v] as const),
);

test('the generated cases cover every update of every action node, with the kept fields of the read-first updates', () => {
	const updates = ADDED_CASES.filter(([, , t]) => t.op.kind === 'update').map(([key]) => key);
	expect(new Set(updates).size).toBe(
		TARGETS.filter((t) => t.op.kind === 'update' && added(t.op).length).length,
	);
	expect(new Set(updates).size).toBeGreaterThanOrEqual(7);
	for (const key of ['vendorInvoice payment.update', 'vendorBilling project.update']) {
		const op = TARGETS.find((t) => t.key === key)?.op as Operation;
		expect(added(op).map((f) => f.name)).toEqual(
			expect.arrayContaining([...(op.keepCurrent ?? [])]),
		);
	}
});

test.each(ADDED_CASES)(
	'%s: each optional field added and given as %s is refused naming it, nothing sent',
	async (_key, _how, target, variant) => {
		const cases = added(target.op, variant.types).map((field) => {
			const value = field.locator ? byId(variant.value) : variant.value;
			return {
				name: field.name,
				// the test's nodes are version 1 (support.ts): sorting under Filters there
				parameters: { [placement(field, target.op, 1)]: { [field.name]: value } },
				error: `${formName(field)} is blank${variant.shows}: give it a value or leave it out`,
			};
		});
		await expectRefused(target, cases);
	},
);

/** Every operation with line items, and how its lines are named in the rule's words. */
const LINES: Record<string, { identity: string; needs: string }> = {
	'vendorBooks estimate.create': {
		identity: 'Item ID',
		needs: 'Item ID or Name (or Line Item ID)',
	},
	'vendorBooks estimate.update': {
		identity: 'Item ID',
		needs: 'Item ID or Name (or Line Item ID)',
	},
	'vendorBooks invoice.create': {
		identity: 'Item ID',
		needs: 'Item ID or Name (or Line Item ID, Expense ID or Time Entry IDs)',
	},
	'vendorBooks invoice.update': {
		identity: 'Item ID',
		needs: 'Item ID or Name (or Line Item ID, Expense ID or Time Entry IDs)',
	},
	'vendorInventory bill.create': {
		identity: 'Name',
		needs: 'Name (or Line Item ID, Purchase Order Item ID, Receive Item ID or Account ID)',
	},
	'vendorInventory bill.update': {
		identity: 'Name',
		needs: 'Name (or Line Item ID, Purchase Order Item ID, Receive Item ID or Account ID)',
	},
};

const lineItems = (op: Operation): Field | undefined =>
	op.fields.find((f) => f.name === 'line_items' && f.type === 'array' && f.fields);
const LINE_TARGETS = TARGETS.filter((t) => lineItems(t.op));

test('every operation with line items is covered', () => {
	expect(LINE_TARGETS.map((t) => t.key).sort()).toEqual(Object.keys(LINES).sort());
});

test.each(LINE_TARGETS.map((t) => [t.key, t]))(
	'%s: a line that says nothing of what it is, from the entries or the JSON, and a line member set blank are refused naming the line, nothing sent',
	async (key, target) => {
		const field = lineItems(target.op) as Field;
		const where = placement(field, target.op);
		const put = (parameters: IDataObject): IDataObject =>
			where === 'top' ? parameters : { [where]: parameters };
		// the lines given as JSON only: a required list's sampled entries removed
		const asJson = (lines: unknown[]): IDataObject =>
			put({
				...(where === 'top' ? { line_items: {} } : {}),
				[jsonAlternativeName(field)]: JSON.stringify(lines),
			});
		const { identity, needs } = LINES[key];
		const identityMember = field.fields?.find((m) => formName(m) === identity) as Field;
		const good = sampleEntry(field.fields ?? []);
		await expectRefused(target, [
			{
				name: 'Entries',
				parameters: put({ line_items: { values: [good, { rate: 5, quantity: 2 }] } }),
				error: `Line Items, line 2 needs ${needs}`,
			},
			{
				name: 'JSON',
				parameters: asJson([{ quantity: 1, description: 'no item' }]),
				error: `Line Items, line 1 needs ${needs}`,
			},
			{
				name: 'Blank member',
				parameters: put({
					line_items: { values: [{ ...good, [identityMember.name]: '={{ "  " }}', rate: 5 }] },
				}),
				error: `Line Items, line 1: ${identity} is blank (only spaces or invisible characters): give it a value or leave it out`,
			},
			{
				name: 'Blank in JSON',
				parameters: asJson([{ ...good, [identityMember.name]: '\u200b\u00a0' }]),
				error: `Line Items, line 1: ${identity} is blank (only spaces or invisible characters): give it a value or leave it out`,
			},
		]);
	},
);

describe('the named cases, end to end', () => {
	const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
	const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
	const items = env.orgSteps('vendorBooks', { resource: 'item' });

	test("Payment → Update with Customer ID from an expression giving spaces or nothing: refused, not swapped for the payment's customer; nothing read, nothing written", async () => {
		const payment = byId(DEMO.payments.paid1);
		const result = await env.run(
			[
				payments(
					'Spaces',
					{
						operation: 'update',
						payment_id: payment,
						updateFields: { customer_id: '={{ $json.customer }}', description: 'x' },
					},
					soft,
				),
				payments(
					'Spaces and amount',
					{
						operation: 'update',
						payment_id: payment,
						updateFields: { customer_id: "={{ $('Input').item.json.customer }}", amount: 5 },
					},
					soft,
				),
				payments(
					'Nothing',
					{
						operation: 'update',
						payment_id: payment,
						updateFields: { customer_id: '={{ $json.none }}' },
					},
					soft,
				),
			],
			[{ customer: '   ' }],
		);
		expect(
			['Spaces', 'Spaces and amount', 'Nothing'].map((name) => json(result, name)[0].error),
		).toEqual([
			'Invalid input: Customer ID is blank (only spaces or invisible characters): give it a value or leave it out [item 0]',
			'Invalid input: Customer ID is blank (only spaces or invisible characters): give it a value or leave it out [item 0]',
			'Invalid input: Customer ID is blank: give it a value or leave it out [item 0]',
		]);
		expect(env.apiRequests()).toEqual([]);
	});

	test('Invoice → Create with a line whose Item ID resolves to spaces: refused naming the line, no invoice created', async () => {
		const before = env.orgTenant().all('invoices').length;
		const result = await env.run(
			[
				invoices(
					'Create',
					{
						operation: 'create',
						customer_id: DEMO.customers.acme,
						line_items: {
							values: [{ item_id: byId('={{ $json.item }}'), name: 'Work', rate: 10, quantity: 1 }],
						},
					},
					soft,
				),
			],
			[{ item: '  ' }],
		);
		expect(json(result, 'Create')[0].error).toBe(
			'Invalid input: Line Items, line 1: Item ID is blank (only spaces or invisible characters): give it a value or leave it out [item 0]',
		);
		expect([env.apiRequests(), env.orgTenant().all('invoices').length]).toEqual([[], before]);
	});

	test('Item → Update with Name "  ": refused, nothing sent, the name unchanged', async () => {
		const stored = (env.orgTenant().get('items', DEMO.items.hosting) as IDataObject).name;
		const result = await env.run([
			items(
				'Update',
				{ operation: 'update', item_id: byId(DEMO.items.hosting), updateFields: { name: '  ' } },
				soft,
			),
		]);
		expect(json(result, 'Update')[0].error).toBe(
			'Invalid input: Name is blank (only spaces or invisible characters): give it a value or leave it out [item 0]',
		);
		expect(env.apiRequests()).toEqual([]);
		expect((env.orgTenant().get('items', DEMO.items.hosting) as IDataObject).name).toBe(stored);
	});
});

describe('what is left as the form starts it is not given', () => {
	const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });

	test('an added field left untouched (no text, an empty number) is not sent; Payment → Update reads nothing first', async () => {
		const result = await env.run([
			payments('Update', {
				operation: 'update',
				payment_id: byId(DEMO.payments.paid2),
				updateFields: { description: 'typo fix', reference_number: '', bank_charges: null },
			}),
		]);
		expectNoError(result);
		expect(env.apiRequests().map((r) => [r.method, r.body])).toEqual([
			['PUT', { description: 'typo fix' }],
		]);
	});

	test('an optional top-level field whose expression gives blank text is not sent; a line member left empty is not sent', async () => {
		const invoice = await env.newInvoice(DEMO.customers.globex, 40);
		env.em.clearRequests();
		const result = await env.run([
			payments('Create', {
				operation: 'create',
				customer_id: DEMO.customers.globex,
				amount: 40,
				date: '={{ "\\u00a0 " }}',
				invoices: { values: [{ invoice_id: invoice.id, amount_applied: 40, invoice_number: '' }] },
			}),
		]);
		expectNoError(result);
		expect(env.apiRequests().map((r) => r.body)).toEqual([
			{
				customer_id: DEMO.customers.globex,
				amount: 40,
				invoices: [{ invoice_id: invoice.id, amount_applied: 40 }],
			},
		]);
	});
});
