/**
 * Vendor Inventory (purchase bills), end to end: workflows run by n8n's engine against the
 * emulator. Every request is asserted (method, path, the `organization_id` query, body)
 * with the outputs.
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { DEMO } from '../../emulator/demo-data';
import type { MultipartPart } from '../../emulator/server';
import { binaryItem } from '../../harness';
import { byId, expectNoError, json } from '../../harness/workflows';
import { apiCall, fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const bills = env.orgSteps('vendorInventory', { resource: 'bill' });
let org: string;
beforeAll(() => (org = env.org));

const lines = {
	values: [
		{
			name: 'Printer paper',
			description: 'A4, 80 g',
			rate: 4.5,
			quantity: 10,
			unit: 'box',
			account_id: '2300000000001',
		},
		{ name: 'Toner', rate: 60, quantity: 2 },
	],
};
const sentLines = [
	{
		name: 'Printer paper',
		description: 'A4, 80 g',
		rate: 4.5,
		quantity: 10,
		unit: 'box',
		account_id: '2300000000001',
	},
	{ name: 'Toner', rate: 60, quantity: 2 },
];

/** Every request carried the stored token and the organisation in the query (no organisation header). */
const expectSigned = (): void => env.expectSigned({ org: 'query' });

const base = (name: string, number: string, extra: IDataObject = {}) =>
	bills(name, {
		operation: 'create',
		vendor_id: DEMO.vendors.paperCo,
		bill_number: number,
		date: '2026-04-01',
		due_date: '2026-05-01',
		line_items: lines,
		...extra,
	});

test('a bill with two line items and a PDF attachment: multipart with JSONString and the file', async () => {
	const pdf = Buffer.from('%PDF-1.4 supplier invoice');
	const result = await env.run(
		[
			base('Create', 'SUP-1001', {
				binaryPropertyName: 'data',
				additionalFields: {
					reference_number: 'PO-77',
					notes: 'Deliver to office',
					terms: 'Net 30',
					is_inclusive_tax: false,
				},
			}),
		],
		[binaryItem(pdf, 'supplier-1001.pdf', 'application/pdf')],
	);
	expectNoError(result);
	const bill = json(result, 'Create')[0];
	expect(bill).toMatchObject({
		vendor_id: DEMO.vendors.paperCo,
		vendor_name: 'PaperCo Supplies',
		bill_number: 'SUP-1001',
		date: '2026-04-01',
		due_date: '2026-05-01',
		reference_number: 'PO-77',
		attachment_name: 'supplier-1001.pdf',
		sub_total: 165,
		total: 165,
		balance: 165,
		status: 'open',
	});
	expect(
		(bill.line_items as IDataObject[]).map((l) => [
			l.name,
			l.rate,
			l.quantity,
			l.item_total,
			l.item_order,
		]),
	).toEqual([
		['Printer paper', 4.5, 10, 45, 0],
		['Toner', 60, 2, 120, 1],
	]);
	expect(result.output('Create').map((i) => i.pairedItem)).toEqual([{ item: 0 }]);

	const [req] = env.apiRequests();
	expect([req.method, req.path, req.query, req.headers['content-type']]).toEqual([
		'POST',
		'/us/api/inventory/v1/bills',
		{ organization_id: org },
		expect.stringMatching(/^multipart\/form-data; boundary=/),
	]);
	const parts = req.body as MultipartPart[];
	expect(parts.map((p) => [p.name, p.fileName, p.contentType])).toEqual([
		['JSONString', undefined, undefined],
		['attachment', 'supplier-1001.pdf', 'application/pdf'],
	]);
	expect(JSON.parse(String(parts[0].value))).toEqual({
		vendor_id: DEMO.vendors.paperCo,
		bill_number: 'SUP-1001',
		date: '2026-04-01',
		due_date: '2026-05-01',
		line_items: sentLines,
		reference_number: 'PO-77',
		is_inclusive_tax: false,
		notes: 'Deliver to office',
		terms: 'Net 30',
	});
	expect(Buffer.from(parts[1].data).toString()).toBe(pdf.toString());
	expect(env.orgTenant().files.get(`bill:${bill.bill_id}`)?.data.toString()).toBe(pdf.toString());
	expect(env.apiRequests()).toHaveLength(1);
	expectSigned();
});

test('without a file the bill is plain JSON; the India and Mexico groups are sent only when filled', async () => {
	const result = await env.run([
		base('India', 'SUP-IN-1', {
			binaryPropertyName: '',
			additionalFields: {
				currency_id: '3000000000001',
				exchange_rate: 1,
				is_item_level_tax_calc: true,
				custom_fields: { values: [{ customfield_id: '501', value: 'North' }] },
			},
			indiaFields: {
				gst_treatment: 'business_gst',
				gst_no: '221234567890123',
				source_of_supply: 'TN',
				destination_of_supply: 'KA',
			},
		}),
		base('Mexico', 'SUP-MX-1', { mexicoFields: { tax_treatment: 'border_region_mexico' } }),
	]);
	expectNoError(result);
	expect(json(result, 'India')[0]).toMatchObject({
		bill_number: 'SUP-IN-1',
		gst_treatment: 'business_gst',
		gst_no: '221234567890123',
	});
	expect(json(result, 'Mexico')[0]).toMatchObject({
		bill_number: 'SUP-MX-1',
		tax_treatment: 'border_region_mexico',
	});
	const common = {
		vendor_id: DEMO.vendors.paperCo,
		date: '2026-04-01',
		due_date: '2026-05-01',
		line_items: sentLines,
	};
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: '/inventory/v1/bills',
			query: { organization_id: org },
			org: undefined,
			body: {
				...common,
				bill_number: 'SUP-IN-1',
				currency_id: '3000000000001',
				exchange_rate: 1,
				is_item_level_tax_calc: true,
				custom_fields: [{ customfield_id: '501', value: 'North' }],
				gst_treatment: 'business_gst',
				gst_no: '221234567890123',
				source_of_supply: 'TN',
				destination_of_supply: 'KA',
			},
		},
		{
			method: 'POST',
			path: '/inventory/v1/bills',
			query: { organization_id: org },
			org: undefined,
			body: { ...common, bill_number: 'SUP-MX-1', tax_treatment: 'border_region_mexico' },
		},
	]);
	for (const r of env.apiRequests()) expect(r.headers['content-type']).toBe('application/json');
	expectSigned();

	const node = new VendorInventory();
	// version 1 (the test's nodes); from 1.1 the same groups behind Regional Fields
	const groups = node.description.properties.filter(
		(p) =>
			['indiaFields', 'mexicoFields'].includes(p.name) &&
			p.displayOptions?.show?.operation?.includes('create') &&
			p.displayOptions.show['@version']?.includes(1),
	);
	expect(
		groups.map((g) => [
			g.displayName,
			g.type,
			(g.options ?? []).map((o) => (o as { name: string }).name).sort(),
		]),
	).toEqual([
		[
			'India Fields',
			'collection',
			['destination_of_supply', 'gst_no', 'gst_treatment', 'source_of_supply'],
		],
		['Mexico Fields', 'collection', ['tax_treatment']],
	]);
});

test('an attachment of another type, a GST number of the wrong length, or no line item: refused before sending', async () => {
	const result = await env.run(
		[
			base('Exe', 'SUP-X', { binaryPropertyName: 'data' }),
			base('GST', 'SUP-G', { indiaFields: { gst_no: '12345' } }),
			bills('No lines', {
				operation: 'create',
				vendor_id: DEMO.vendors.paperCo,
				bill_number: 'SUP-N',
				date: '2026-04-01',
				due_date: '2026-04-31',
				line_items: { values: [] },
			}),
		].map((s) => ({ ...s, settings: { onError: 'continueRegularOutput' as const } })),
		[binaryItem(Buffer.from('MZ'), 'setup.exe', 'application/octet-stream')],
	);
	expectNoError(result);
	expect(json(result, 'Exe')[0].error).toBe(
		'The file "setup.exe" has the extension ".exe", which the API does not accept for "attachment": allowed are .gif, .png, .jpeg, .jpg, .bmp, .pdf [item 0]',
	);
	expect(json(result, 'GST')[0].error).toBe(
		'Invalid input: GST No must be at least 15 characters as the API counts them, where an emoji counts as 2 (got 5) [item 0]',
	);
	expect(json(result, 'No lines')[0].error).toBe(
		'Invalid input: Due Date must be a real calendar date (yyyy-mm-dd) (got "2026-04-31"); Line Items must hold at least 1 entry (got 0 entries) [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(0);
});

test('update a bill (inferred PUT /bills/{bill_id}): the same fields, the bill answered', async () => {
	const result = await env.run([
		bills('Update', {
			operation: 'update',
			bill_id: byId(DEMO.bills.paper),
			vendor_id: DEMO.vendors.paperCo,
			bill_number: 'BILL-001',
			date: '2026-04-02',
			due_date: '2026-05-02',
			line_items: { values: [{ name: 'Monthly supplies', rate: 99, quantity: 5 }] },
			updateFields: { notes: 'Quantity corrected' },
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Update')).toEqual([
		expect.objectContaining({
			bill_id: DEMO.bills.paper,
			notes: 'Quantity corrected',
			total: 495,
			balance: 495,
			date: '2026-04-02',
		}),
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'PUT',
			path: `/inventory/v1/bills/${DEMO.bills.paper}`,
			query: { organization_id: org },
			org: undefined,
			body: {
				vendor_id: DEMO.vendors.paperCo,
				bill_number: 'BILL-001',
				date: '2026-04-02',
				due_date: '2026-05-02',
				line_items: [{ name: 'Monthly supplies', rate: 99, quantity: 5 }],
				notes: 'Quantity corrected',
			},
		},
	]);
	expect(env.apiRequests()[0].headers['content-type']).toBe('application/json');
	expectSigned();
});

test('get many with Return All reads every page; the bill picker lists bills by number', async () => {
	for (let i = 0; i < 203; i++) {
		const res = await env.call('POST', 'inventory', '/bills', {
			json: {
				vendor_id: DEMO.vendors.cloudHost,
				bill_number: `B-${i}`,
				date: '2026-04-01',
				due_date: '2026-05-01',
				line_items: [{ name: 'Hosting', rate: 10, quantity: 1 }],
			},
		});
		expect(res.status).toBe(201);
	}
	env.em.clearRequests();
	const result = await env.run([bills('List', { operation: 'getAll', returnAll: true })]);
	expectNoError(result);
	const out = json(result, 'List');
	const stored = env.orgTenant().all('bills');
	expect(out).toHaveLength(stored.length);
	expect(stored.length).toBeGreaterThan(205);
	expect(out.map((b) => b.bill_id)).toEqual(stored.map((b) => b.bill_id));
	expect(env.apiRequests().map(apiCall)).toEqual(
		[1, 2].map((page) => ({
			method: 'GET',
			path: '/inventory/v1/bills',
			query: { page: String(page), per_page: '200', organization_id: org },
			org: undefined,
			body: undefined,
		})),
	);

	env.em.clearRequests();
	const limited = await env.run([
		bills('List', { operation: 'getAll', returnAll: false, limit: 2 }),
	]);
	expect(json(limited, 'List').map((b) => b.bill_number)).toEqual(['BILL-001', 'BILL-002']);
	expect(env.apiRequests().map((r) => r.query)).toEqual([
		{ page: '1', per_page: '2', organization_id: org },
	]);

	env.em.clearRequests();
	const billPicker = env.picker(VendorInventory, 'searchBills', {
		organizationId: org,
		resource: 'bill',
		operation: 'update',
		bill_id: fromList(''),
	});
	const found = await billPicker({ filter: 'bill-00' });
	expect(found.results).toEqual([
		{ name: 'BILL-001', value: DEMO.bills.paper },
		{ name: 'BILL-002', value: DEMO.bills.hosting },
	]);
	expect(found.paginationToken).toBe('2');
	const next = await billPicker({ paginationToken: '2' });
	expect(next.results).toHaveLength(stored.length - 200);
	expect(next.paginationToken).toBeUndefined();
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
		['GET', '/us/api/inventory/v1/bills', { organization_id: org, page: '1', per_page: '200' }],
		['GET', '/us/api/inventory/v1/bills', { organization_id: org, page: '2', per_page: '200' }],
	]);
	expectSigned();
});
