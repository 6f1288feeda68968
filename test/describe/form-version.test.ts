/**
 * Version 1.1 of the action nodes (FORM_VERSION): the form as n8n's UX guidelines lay it out, with
 * version 1 kept for stored workflows (n8n drops a stored value its form no longer shows).
 * - A list's sorting sits in its own Sort collection below Filters (version 1: under Filters),
 *   and the request reads it where the node's version puts it.
 * - The regional field groups (GCC, India, Mexico, UK) show only when picked under Regional
 *   Fields (version 1: all shown); a picked group's values are sent.
 * - A line's ID (`updateOnly`) is offered in update entries only.
 * - A required list with a JSON alternative (Bill Create's line items): neither property is
 *   marked required, both say one of them is needed, and the run refuses an item with neither.
 * - A JSON alternative carries its shape, and the `$fromAI` call that gives it to a model: the
 *   tool schema n8n builds from that call describes an entry.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';

import { FORM_VERSION } from '../../nodes/shared/tables/naming';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { DEMO } from '../../emulator/demo-data';
import { expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from '../workflows/support';

const books = new VendorBooks().description;
const inventory = new VendorInventory().description;

/** The top-level properties a resource / operation shows in a node version. */
function shown(
	description: INodeTypeDescription,
	resource: string,
	operation: string,
	version: number,
	extra: Record<string, unknown> = {},
): INodeProperties[] {
	return description.properties.filter((p) => {
		const show = p.displayOptions?.show;
		if (!show) return true;
		return (
			(show.resource?.includes(resource) ?? true) &&
			(show.operation?.includes(operation) ?? true) &&
			(show['@version']?.includes(version) ?? true) &&
			!show['@tool'] &&
			Object.entries(show).every(
				([key, values]) =>
					['resource', 'operation', '@version', '@tool'].includes(key) ||
					(key in extra ? values?.includes(extra[key] as never) : false),
			)
		);
	});
}

const names = (props: INodeProperties[]): string[] => props.map((p) => p.name);
const options = (prop: INodeProperties | undefined): string[] =>
	((prop?.options ?? []) as INodeProperties[]).map((o) => o.name);

test('the action nodes are version 1 and 1.1, 1.1 for new nodes', () => {
	expect({ version: books.version, defaultVersion: books.defaultVersion }).toEqual({
		version: [1, FORM_VERSION],
		defaultVersion: FORM_VERSION,
	});
});

test('sorting: its own Sort collection below Filters in 1.1; under Filters in version 1', () => {
	const now = shown(books, 'invoice', 'getAll', FORM_VERSION);
	expect(names(now).indexOf('sort')).toBe(names(now).indexOf('filters') + 1);
	const filters = now.find((p) => p.name === 'filters');
	const sort = now.find((p) => p.name === 'sort');
	expect(options(filters)).not.toContain('sort_column');
	expect(options(sort).sort()).toEqual(['sort_column', 'sort_order']);
	expect(sort).toMatchObject({ displayName: 'Sort', type: 'collection' });
	const before = shown(books, 'invoice', 'getAll', 1);
	expect(names(before)).not.toContain('sort');
	expect(options(before.find((p) => p.name === 'filters'))).toEqual(
		expect.arrayContaining(['sort_column', 'sort_order']),
	);
});

test('regional groups: behind Regional Fields in 1.1, all shown in version 1', () => {
	const groups = ['gccFields', 'indiaFields', 'mexicoFields', 'ukFields'];
	const now = names(shown(books, 'invoice', 'create', FORM_VERSION));
	expect(now).toContain('regionalFields');
	expect(now.filter((n) => groups.includes(n))).toEqual([]);
	const choice = books.properties.find(
		(p) => p.name === 'regionalFields' && p.displayOptions?.show?.resource?.includes('invoice'),
	);
	expect(choice).toMatchObject({
		default: '',
		options: [
			{ name: 'GCC' },
			{ name: 'India' },
			{ name: 'Mexico' },
			{ name: 'None', value: '' },
			{ name: 'UK' },
		],
	});
	expect(
		names(
			shown(books, 'invoice', 'create', FORM_VERSION, { regionalFields: 'indiaFields' }),
		).filter((n) => groups.includes(n)),
	).toEqual(['indiaFields']);
	const before = names(shown(books, 'invoice', 'create', 1));
	expect(before).not.toContain('regionalFields');
	expect(before.filter((n) => groups.includes(n)).sort()).toEqual(groups);
});

/** The members of a fixed collection's entry, at every depth of its Additional Fields. */
function entryMembers(
	description: INodeTypeDescription,
	resource: string,
	operation: string,
	name: string,
): string[] {
	const all = shown(description, resource, operation, FORM_VERSION).flatMap((p) => [
		p,
		...((p.type === 'collection' ? p.options : []) as INodeProperties[]),
	]);
	const list = all.find((p) => p.name === name && p.type === 'fixedCollection');
	const values = ((list?.options ?? []) as Array<{ values: INodeProperties[] }>)[0]?.values ?? [];
	return values.flatMap((v) =>
		v.type === 'collection'
			? ((v.options ?? []) as INodeProperties[]).map((o) => o.name)
			: [v.name],
	);
}

test("a line's ID is offered in update entries only", () => {
	for (const [description, resource] of [
		[books, 'invoice'],
		[books, 'estimate'],
		[inventory, 'bill'],
	] as const) {
		expect({
			resource,
			create: entryMembers(description, resource, 'create', 'line_items').includes('line_item_id'),
		}).toEqual({ resource, create: false });
		expect({
			resource,
			update: entryMembers(description, resource, 'update', 'line_items').includes('line_item_id'),
		}).toEqual({ resource, update: true });
	}
});

test('Bill Create: Line Items and Line Items (JSON) are not marked required; both say one of them is needed', () => {
	const props = shown(inventory, 'bill', 'create', FORM_VERSION);
	for (const name of ['line_items', 'line_itemsJson']) {
		const prop = props.find((p) => p.name === name);
		expect({ name, required: prop?.required, says: prop?.description }).toEqual({
			name,
			required: undefined,
			says: expect.stringContaining("Give either 'Line Items' or 'Line Items (JSON)'"),
		});
	}
});

test('a JSON alternative says the shape of an entry; its $fromAI call gives the shape to a model in the tool schema', () => {
	const json = books.properties.find(
		(p) =>
			p.name === 'line_itemsJson' &&
			p.displayOptions?.show?.resource?.includes('invoice') &&
			p.displayOptions.show.operation?.includes('create'),
	);
	expect(json?.description).toContain(
		"A JSON array of objects, one per line item, with the keys 'item_id' (text), 'name' (text)",
	);
	const call = json?.builderHint?.message.match(/\{\{ \$fromAI\(.*\) \}\}/)?.[0];
	expect(call).toMatch(
		/^\{\{ \$fromAI\('Line_Items__JSON_', `A JSON array of objects, one per line item, with the keys .*`, 'string'\) \}\}$/,
	);
	const node = {
		id: 'n',
		name: 'n',
		type: 'n8n-nodes-vendor.vendorBooksTool',
		typeVersion: FORM_VERSION,
		position: [0, 0] as [number, number],
		parameters: {
			customer_id: "={{ $fromAI('Customer_ID', '', 'string') }}",
			line_itemsJson: `=${call}`,
		},
	};
	// the tool's zod schema (n8n turns it into the JSON schema the model reads: a zod description becomes `description`)
	const { shape } = getSchema(node);
	expect(shape.Customer_ID._def.typeName).toBe('ZodString');
	// typed: the model sends the JSON as text, parsed and checked before sending (n8n's 'json' type has no JSON-schema type)
	expect(shape.Line_Items__JSON_._def.typeName).toBe('ZodString');
	expect(shape.Line_Items__JSON_.description).toMatch(
		/^A JSON array of objects, one per line item, with the keys 'item_id' \(text\), 'name' \(text\), 'description' \(text\), 'rate' \(number\), 'quantity' \(number\)/,
	);
	// every JSON alternative of every node carries one
	const alternatives = [books, inventory]
		.flatMap((d) =>
			d.properties.flatMap((p) => [
				p,
				...((p.type === 'collection' ? p.options : []) as INodeProperties[]),
			]),
		)
		.filter((p) => p.name.endsWith('Json'));
	expect(alternatives.length).toBeGreaterThan(5);
	for (const p of alternatives)
		expect({ name: p.name, hint: p.builderHint?.message }).toEqual({
			name: p.name,
			hint: expect.stringMatching(/\$fromAI\('[A-Za-z0-9_-]+', `A JSON (array|object)/),
		});
});

describe('end to end in version 1.1', () => {
	const env = useWorkflowEnv();
	const v11 = { typeVersion: FORM_VERSION };

	test('a list sorted from the Sort collection sends its sort', async () => {
		const books11 = env.orgSteps('vendorBooks', { resource: 'invoice' });
		const result = await env.run([
			books11(
				'List',
				{
					operation: 'getAll',
					limit: 5,
					filters: { filter_by: 'Status.All' },
					sort: { sort_column: 'invoice_number', sort_order: 'D' },
				},
				v11,
			),
		]);
		expectNoError(result);
		expect(env.apiRequests()[0].query).toMatchObject({
			filter_by: 'Status.All',
			sort_column: 'invoice_number',
			sort_order: 'D',
		});
	});

	test('a regional group picked under Regional Fields is sent (version 1, all groups shown: books-invoices.test.ts)', async () => {
		const books11 = env.orgSteps('vendorBooks', { resource: 'invoice' });
		const line = { values: [{ name: 'Work', rate: 10, quantity: 1 }] };
		const result = await env.run([
			books11(
				'Create',
				{
					operation: 'create',
					customer_id: DEMO.customers.initech,
					line_items: line,
					regionalFields: 'ukFields',
					ukFields: { vat_treatment: 'uk' },
				},
				v11,
			),
		]);
		expectNoError(result);
		expect(env.apiRequests()[0].body).toMatchObject({ vat_treatment: 'uk' });
		expect(json(result, 'Create')).toHaveLength(1);
	});

	test('Bill Create with neither Line Items nor Line Items (JSON) is refused before sending', async () => {
		const bills = env.orgSteps('vendorInventory', { resource: 'bill' });
		const result = await env.run([
			{
				...bills(
					'No lines',
					{
						operation: 'create',
						vendor_id: DEMO.vendors.paperCo,
						bill_number: 'SUP-0',
						date: '2026-04-01',
						due_date: '2026-05-01',
					},
					v11,
				),
				settings: { ...v11, onError: 'continueRegularOutput' as const },
			},
		]);
		expectNoError(result);
		expect(json(result, 'No lines')[0].error).toMatch(
			/Line Items is required \(as fields, or as Line Items \(JSON\)\)/,
		);
		expect(env.apiRequests()).toHaveLength(0);
	});
});
