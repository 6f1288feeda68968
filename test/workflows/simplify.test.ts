/**
 * Simplify on Get and Get Many: the fields listed in the resource's table instead of the
 * whole record; off by default for the node, on by default for its AI-tool variant.
 */
import { readFileSync } from '../../host/fs';
import { join } from '../../host/path';
import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { Area, Resource } from '../../nodes/shared/tables/spec';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json, steps } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
/** Each step runs once, not once per item of the step before. */
const once = { executeOnce: true };

function fieldsOf(area: Area, resource: string): readonly string[] {
	const found = area.resources.find((r: Resource) => r.value === resource);
	if (!found?.simplify) throw new Error(`${area.name} ${resource} has no simplify list`);
	return found.simplify;
}

/** Every key is a listed field, and the ids / numbers / status are there. */
function expectSimplified(records: object[], fields: readonly string[], required: string[]): void {
	expect(records.length).toBeGreaterThan(0);
	for (const record of records) {
		expect(Object.keys(record).filter((k) => !fields.includes(k))).toEqual([]);
		for (const key of required) expect(record).toHaveProperty(key);
	}
}

test('Get and Get Many of items, estimates, invoices, payments, billing projects, bills and projects give the listed fields', async () => {
	const org = { organizationId: env.org };
	const result = await env.run([
		steps('vendorBooks', {})(
			'Item',
			{
				...org,
				resource: 'item',
				operation: 'get',
				item_id: byId(DEMO.items.hosting),
				simplify: true,
			},
			once,
		),
		steps('vendorBooks', {})(
			'Items',
			{ ...org, resource: 'item', operation: 'getAll', returnAll: true, simplify: true },
			once,
		),
		steps('vendorBooks', {})(
			'Estimate',
			{
				...org,
				resource: 'estimate',
				operation: 'get',
				estimate_id: byId(DEMO.estimates.sent),
				simplify: true,
			},
			once,
		),
		steps('vendorBooks', {})(
			'Estimates',
			{ ...org, resource: 'estimate', operation: 'getAll', simplify: true },
			once,
		),
		steps('vendorBooks', {})(
			'Invoices',
			{ ...org, resource: 'invoice', operation: 'getAll', simplify: true },
			once,
		),
		steps('vendorInvoice', {})(
			'Payment',
			{
				...org,
				resource: 'payment',
				operation: 'get',
				payment_id: byId(DEMO.payments.paid1),
				simplify: true,
			},
			once,
		),
		steps('vendorInvoice', {})(
			'Payments',
			{ ...org, resource: 'payment', operation: 'getAll', simplify: true },
			once,
		),
		steps('vendorBilling', {})(
			'Billing project',
			{
				...org,
				resource: 'project',
				operation: 'get',
				project_id: byId(DEMO.billingProjects.website),
				simplify: true,
			},
			once,
		),
		steps('vendorBilling', {})(
			'Billing projects',
			{ ...org, resource: 'project', operation: 'getAll', simplify: true },
			once,
		),
		steps('vendorInventory', {})(
			'Bills',
			{ ...org, resource: 'bill', operation: 'getAll', simplify: true },
			once,
		),
		steps('vendorProjects', {})(
			'Project',
			{
				resource: 'project',
				operation: 'get',
				portal_id: byId(env.portal),
				project_id: byId(DEMO.projects.website),
				simplify: true,
			},
			once,
		),
		steps('vendorProjects', {})(
			'Projects',
			{ resource: 'project', operation: 'getAll', portal_id: byId(env.portal), simplify: true },
			once,
		),
		steps('vendorBooks', {})(
			'Whole item',
			{ ...org, resource: 'item', operation: 'get', item_id: byId(DEMO.items.hosting) },
			once,
		),
	]);
	expectNoError(result);
	expectSimplified(json(result, 'Item'), fieldsOf(booksArea, 'item'), [
		'item_id',
		'name',
		'status',
		'rate',
	]);
	expectSimplified(json(result, 'Items'), fieldsOf(booksArea, 'item'), ['item_id', 'name']);
	expect(json(result, 'Items')).toHaveLength(
		env
			.orgTenant()
			.all('items')
			.filter((i) => i.status === 'active').length,
	);
	expectSimplified(json(result, 'Estimate'), fieldsOf(booksArea, 'estimate'), [
		'estimate_id',
		'estimate_number',
		'customer_id',
		'status',
		'date',
		'total',
	]);
	expectSimplified(json(result, 'Estimates'), fieldsOf(booksArea, 'estimate'), [
		'estimate_id',
		'estimate_number',
		'customer_name',
		'status',
		'total',
	]);
	expectSimplified(json(result, 'Invoices'), fieldsOf(booksArea, 'invoice'), [
		'invoice_id',
		'invoice_number',
		'customer_name',
		'status',
		'due_date',
		'total',
		'balance',
	]);
	expectSimplified(json(result, 'Payment'), fieldsOf(invoiceArea, 'payment'), [
		'payment_id',
		'payment_number',
		'customer_id',
		'amount',
		'date',
	]);
	expectSimplified(json(result, 'Payments'), fieldsOf(invoiceArea, 'payment'), [
		'payment_id',
		'payment_number',
		'amount',
		'date',
	]);
	expectSimplified(json(result, 'Billing project'), fieldsOf(billingArea, 'project'), [
		'project_id',
		'project_name',
		'customer_id',
		'billing_type',
	]);
	expectSimplified(json(result, 'Billing projects'), fieldsOf(billingArea, 'project'), [
		'project_id',
		'project_name',
		'status',
	]);
	expectSimplified(json(result, 'Bills'), fieldsOf(inventoryArea, 'bill'), [
		'bill_id',
		'bill_number',
		'vendor_id',
		'date',
		'due_date',
		'balance',
	]);
	expectSimplified(json(result, 'Project'), fieldsOf(projectsArea, 'project'), ['id', 'name']);
	expectSimplified(json(result, 'Projects'), fieldsOf(projectsArea, 'project'), ['id', 'name']);
	// off: the whole record, with fields that Simplify leaves out
	const whole = json(result, 'Whole item')[0];
	expect(
		Object.keys(whole).filter((k) => !fieldsOf(booksArea, 'item').includes(k)).length,
	).toBeGreaterThan(0);
	expect(whole).toMatchObject(json(result, 'Item')[0]);
});

describe('Simplify is on by default as an AI tool and off otherwise', () => {
	const nodes = [
		new VendorBooks(),
		new VendorInvoice(),
		new VendorBilling(),
		new VendorInventory(),
		new VendorProjects(),
	];
	const cases = [
		[0, 'item', 'get'],
		[0, 'estimate', 'getAll'],
		[0, 'invoice', 'getAll'],
		[1, 'payment', 'get'],
		[2, 'project', 'getAll'],
		[3, 'bill', 'getAll'],
		[4, 'project', 'get'],
	] as const;
	/** The parameters n8n resolves for a node of this description (defaults filled in). */
	const resolve = (description: INodeTypeDescription, resource: string, operation: string) => {
		const node = {
			name: 'N',
			type: description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters: { resource, operation },
		} as unknown as INode;
		return NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		);
	};
	test.each(cases)('%s %s %s', (index, resource, operation) => {
		const description = nodes[index].description;
		// n8n's tool variant of a node: the same description named `<name>Tool`
		const tool = { ...description, name: `${description.name}Tool` };
		expect(resolve(description, resource, operation)?.simplify).toBe(false);
		expect(resolve(tool, resource, operation)?.simplify).toBe(true);
	});
	test('no Simplify where the table lists none (e.g. item update)', () => {
		expect(resolve(nodes[0].description, 'item', 'update')).not.toHaveProperty('simplify');
	});
	test("only Get and Get Many: other reads of the resource answer other records (a billing project's invoices)", () => {
		const billing = nodes[2].description;
		for (const description of [billing, { ...billing, name: `${billing.name}Tool` }]) {
			expect(resolve(description, 'project', 'getInvoices')).not.toHaveProperty('simplify');
		}
		const shown = billing.properties
			.filter((p) => p.name === 'simplify')
			.flatMap((p) => p.displayOptions?.show?.operation ?? []);
		expect([...new Set(shown)].sort()).toEqual(['get', 'getAll']);
	});
});

test("the README's Simplify table lists exactly the fields of each resource's table", () => {
	const readme = readFileSync(join(module.path, '..', '..', 'README.md'), 'utf8');
	const start = readme.indexOf('\n### Simplify\n');
	expect(start).toBeGreaterThan(0);
	const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
	const documented = section
		.split('\n')
		.filter((l) => l.startsWith('| ') && !l.startsWith('| Resource'))
		.map((l) =>
			l
				.slice(1, -1)
				.split('|')
				.map((c) => c.trim()),
		)
		.map(([resource, fields]) => [resource, fields.replace(/ \(.*$/, '').split(', ')]);
	const rows: Array<[string, Area, string]> = [
		['Item', booksArea, 'item'],
		['Estimate', booksArea, 'estimate'],
		['Invoice', booksArea, 'invoice'],
		['Customer payment', invoiceArea, 'payment'],
		['Billing project', billingArea, 'project'],
		['Bill', inventoryArea, 'bill'],
		['Project (Vendor Projects)', projectsArea, 'project'],
	];
	expect(documented).toEqual(
		rows.map(([name, area, resource]) => [name, [...fieldsOf(area, resource)]]),
	);
	const withSimplify = [booksArea, invoiceArea, billingArea, inventoryArea, projectsArea].flatMap(
		(area) => area.resources.filter((r) => r.simplify).map((r) => `${area.name} ${r.value}`),
	);
	expect(withSimplify.sort()).toEqual(
		rows.map(([, area, resource]) => `${area.name} ${resource}`).sort(),
	);
});
