/**
 * Vendor Books -> Estimates, end to end: every documented estimate call run as a real
 * workflow by n8n-core's engine with the package's node and credential, over loopback HTTP
 * to the emulator; each request (method, path, query, body, Authorization) and each output.
 */
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { DEMO } from '../../emulator/demo-data';
import type { Rec } from '../../emulator/store';
import { readBinary } from '../../harness';
import { byId, expectNoError, json } from '../../harness/workflows';
import { apiCall, fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const books = env.orgSteps('vendorBooks', { resource: 'estimate' });
let org: string;
beforeAll(() => (org = env.org));

const stored = (id: string): Rec => env.orgTenant().get('estimates', id)!;

/** Every request carried the stored token and the organisation (in the query), and succeeded. */
const expectSignedAndOk = (): void => env.expectSigned({ org: 'query', ok: true });

test('create with line items, addresses, custom fields and regional pickers -> get -> update omitting a line deletes it', async () => {
	/** Additional fields that are sent as entered (the addresses and custom fields are reshaped). */
	const plainFields = {
		reference_number: 'PO-77',
		date: '2026-11-02',
		expiry_date: '2026-12-02',
		shipping_charge: 15,
		discount_type: 'entity_level',
		tax_treatment: 'vat_registered',
		template_id: DEMO.templates.spreadsheet,
		notes: 'Thank you',
	};
	const created = "={{ $('Create').item.json.estimate_id }}";
	const result = await env.run([
		books('Create', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			line_items: {
				values: [
					{
						item_id: DEMO.items.consulting,
						description: 'Discovery workshop',
						quantity: 3,
						rate: 120,
						unit: 'h',
						additionalFields: { tax_treatment_code: 'uae_others' },
					},
					{ name: 'Travel', quantity: 1, rate: 80, additionalFields: { product_type: 'service' } },
				],
			},
			additionalFields: {
				...plainFields,
				billing_address: {
					values: { address: '1 Main St', city: 'Springfield', zip: '12345', country: 'USA' },
				},
				shipping_address: { values: { address: 'Dock 4', city: 'Shelbyville', country: 'USA' } },
				custom_fields: {
					values: [
						{ index: 1, value: 'Blue' },
						{ index: 2, value: 'Large' },
					],
				},
			},
			gccFields: { place_of_supply: 'DU' },
		}),
		books('Get', { operation: 'get', estimate_id: byId('={{ $json.estimate_id }}') }),
		books('Update', {
			operation: 'update',
			estimate_id: byId(created),
			updateFields: {
				// keeps the first line with a new quantity; the "Travel" line is omitted, so deleted
				line_items: {
					values: [
						{
							line_item_id: "={{ $('Create').item.json.line_items[0].line_item_id }}",
							quantity: 5,
							rate: 120,
						},
					],
				},
				reference_number: 'PO-78',
			},
		}),
		books('Get again', { operation: 'get', estimate_id: byId(created) }),
	]);
	expectNoError(result);

	const estimate = json(result, 'Create')[0];
	const id = String(estimate.estimate_id);
	const lines = estimate.line_items as Rec[];
	expect(estimate).toMatchObject({
		customer_id: DEMO.customers.acme,
		customer_name: 'Acme Corp',
		status: 'draft',
		reference_number: 'PO-77',
		date: '2026-11-02',
		template_id: DEMO.templates.spreadsheet,
		place_of_supply: 'DU',
		billing_address: { address: '1 Main St', city: 'Springfield', zip: '12345', country: 'USA' },
		custom_fields: [
			{ index: 1, value: 'Blue' },
			{ index: 2, value: 'Large' },
		],
		sub_total: 440,
		total: 455,
	});
	expect(lines.map((l) => [l.name, l.quantity, l.rate, l.item_total])).toEqual([
		['Consulting hour', 3, 120, 360],
		['Travel', 1, 80, 80],
	]);
	expect(json(result, 'Get')[0]).toMatchObject({ estimate_id: estimate.estimate_id, total: 455 });
	const updated = json(result, 'Update')[0];
	expect(updated).toMatchObject({ reference_number: 'PO-78', total: 615 });
	expect(
		(updated.line_items as Rec[]).map((l) => [l.line_item_id, l.name, l.quantity, l.item_total]),
	).toEqual([[lines[0].line_item_id, 'Consulting hour', 5, 600]]);
	expect((json(result, 'Get again')[0].line_items as Rec[]).map((l) => l.name)).toEqual([
		'Consulting hour',
	]);
	expect(stored(id).line_items).toHaveLength(1);

	const requests = env.apiRequests();
	expect(requests.map((r) => [r.method, r.path])).toEqual([
		['POST', '/us/api/books/v3/estimates'],
		['GET', `/us/api/books/v3/estimates/${id}`],
		['PUT', `/us/api/books/v3/estimates/${id}`],
		['GET', `/us/api/books/v3/estimates/${id}`],
	]);
	const { line_items: sentLines, ...sentHeader } = requests[0].body as Rec;
	expect(sentHeader).toEqual({
		customer_id: DEMO.customers.acme,
		...plainFields,
		billing_address: { address: '1 Main St', city: 'Springfield', zip: '12345', country: 'USA' },
		shipping_address: { address: 'Dock 4', city: 'Shelbyville', country: 'USA' },
		custom_fields: [
			{ index: 1, value: 'Blue' },
			{ index: 2, value: 'Large' },
		],
		place_of_supply: 'DU',
	});
	expect(sentLines).toEqual([
		expect.objectContaining({
			item_id: DEMO.items.consulting,
			description: 'Discovery workshop',
			quantity: 3,
			rate: 120,
			unit: 'h',
			tax_treatment_code: 'uae_others',
		}),
		expect.objectContaining({ name: 'Travel', quantity: 1, rate: 80, product_type: 'service' }),
	]);
	// line members left unset are not sent as the first value of their list
	expect(sentLines[1]).not.toHaveProperty('tax_treatment_code');
	expect(sentLines[0]).not.toHaveProperty('product_type');
	expect(requests[0].headers['content-type']).toBe('application/json');
	expect(requests[2].body).toEqual({
		line_items: [
			expect.objectContaining({
				line_item_id: String(lines[0].line_item_id),
				quantity: 5,
				rate: 120,
			}),
		],
		reference_number: 'PO-78',
	});
	expect(requests[1].body).toBeUndefined();
	expectSignedAndOk();
	for (const node of ['Create', 'Get', 'Update', 'Get again'])
		expect(result.output(node).map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
});

test('update naming a line item the estimate does not have: the API refusal names the line', async () => {
	const result = await env.run([
		books('Update', {
			operation: 'update',
			estimate_id: byId(DEMO.estimates.expired),
			updateFields: { line_items: { values: [{ line_item_id: '1', quantity: 2, rate: 10 }] } },
		}),
	]);
	expect(result.error('Update')?.message).toBe(
		'Invalid value passed for line_items[0].line_item_id: no line item 1 in this estimate (code 2) [item 0]',
	);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
		['PUT', `/us/api/books/v3/estimates/${DEMO.estimates.expired}`, 400],
	]);
	expect(stored(DEMO.estimates.expired).line_items).toHaveLength(1);
});

test('create refuses a bad date and an unknown enum value before sending, naming the field and the rule', async () => {
	const result = await env.run(
		[
			books(
				'Create',
				{
					operation: 'create',
					customer_id: DEMO.customers.acme,
					additionalFields: {
						expiry_date: '={{ $json.expiry }}',
						discount_type: '={{ $json.discount }}',
					},
				},
				{ onError: 'continueRegularOutput' },
			),
		],
		[
			{ expiry: '2026-02-30', discount: 'item_level' },
			{ expiry: '2026-03-01', discount: 'per_line' },
		],
	);
	expectNoError(result);
	const out = json(result, 'Create');
	expect(out[0].error).toContain('Expiry Date must be a real calendar date (yyyy-mm-dd)');
	expect(out[1].error).toContain('Discount Type must be one of: entity_level, item_level');
	expect(env.apiRequests()).toHaveLength(0);
});

test('get many: every filter reaches the query, sort column and order apply, Return All walks the pages', async () => {
	for (let i = 0; i < 205; i++) {
		const res = await env.call('POST', 'books', '/estimates', {
			json: {
				customer_id: DEMO.customers.globex,
				reference_number: `BULK-${String(i).padStart(3, '0')}`,
				date: '2026-10-15',
				line_items: [{ name: 'Unit', rate: i + 1, quantity: 1 }],
			},
		});
		expect(res.status).toBe(201);
	}
	env.em.clearRequests();
	const filters = {
		reference_number_startswith: 'BULK-',
		customer_name_contains: 'globex',
		item_name_startswith: 'Unit',
		total_greater_equals: 1,
		date_start: '2026-10-01',
		date_end: '2026-10-31',
		filter_by: 'Status.Draft',
		sort_column: 'total',
		sort_order: 'D',
	};
	const result = await env.run([books('List', { operation: 'getAll', returnAll: true, filters })]);
	expectNoError(result);
	const out = json(result, 'List');
	expect(out).toHaveLength(205);
	expect(out.map((e) => e.total)).toEqual(Array.from({ length: 205 }, (_, i) => 205 - i));
	// list entries are the documented list form: no lines
	expect(out[0]).toMatchObject({
		customer_name: 'Globex Inc',
		status: 'draft',
		reference_number: 'BULK-204',
	});
	expect(out[0]).not.toHaveProperty('line_items');
	const query = {
		...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)])),
		organization_id: org,
		per_page: '200',
	};
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
		['GET', '/us/api/books/v3/estimates', { ...query, page: '1' }],
		['GET', '/us/api/books/v3/estimates', { ...query, page: '2' }],
	]);
	expectSignedAndOk();

	env.em.clearRequests();
	const few = await env.run([
		books('List', {
			operation: 'getAll',
			returnAll: false,
			limit: 3,
			filters: {
				status: 'accepted',
				sort_column: 'estimate_number',
				estimate_number_contains: 'EST-',
			},
		}),
	]);
	expect(json(few, 'List').map((e) => e.estimate_id)).toEqual([
		DEMO.estimates.accepted1,
		DEMO.estimates.accepted2,
	]);
	expect(env.apiRequests().map((r) => r.query)).toEqual([
		{
			status: 'accepted',
			sort_column: 'estimate_number',
			estimate_number_contains: 'EST-',
			page: '1',
			per_page: '3',
			organization_id: org,
		},
	]);
});

test('PDF: one estimate -> its own file; 30 ids -> two files of at most 25 estimates, each a binary item', async () => {
	const one = await env.run([
		books('PDF', { operation: 'getPdf', estimate_ids: DEMO.estimates.sent }),
	]);
	expectNoError(one);
	const [file] = one.output('PDF');
	expect([file.binary?.data.fileName, file.binary?.data.mimeType]).toEqual([
		'EST-00005.pdf',
		'application/pdf',
	]);
	expect((await readBinary(file, 'data')).subarray(0, 5).toString()).toBe('%PDF-');
	expect(file.json).toMatchObject({
		fileName: 'EST-00005.pdf',
		mimeType: 'application/pdf',
		estimate_ids: [DEMO.estimates.sent],
	});
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/estimates/pdf',
			query: { estimate_ids: DEMO.estimates.sent, organization_id: org },
			body: undefined,
		},
	]);
	expectSignedAndOk();

	const thirty: string[] = [...Object.values(DEMO.estimates)];
	while (thirty.length < 30) {
		const made = await env.call('POST', 'books', '/estimates', {
			json: {
				customer_id: DEMO.customers.acme,
				line_items: [{ name: 'Work', rate: 10, quantity: 1 }],
			},
		});
		thirty.push(String(made.body.estimate.estimate_id));
	}
	env.em.clearRequests();
	const many = await env.run([
		books('PDF', {
			operation: 'getPdf',
			estimate_ids: thirty.join(', '),
			binaryPropertyName: 'pdf',
		}),
	]);
	expectNoError(many);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query.estimate_ids])).toEqual([
		['GET', '/us/api/books/v3/estimates/pdf', thirty.slice(0, 25).join(',')],
		['GET', '/us/api/books/v3/estimates/pdf', thirty.slice(25).join(',')],
	]);
	const files = many.output('PDF');
	expect(
		files.map((f) => [
			f.binary?.pdf.fileName,
			f.binary?.pdf.mimeType,
			(f.json.estimate_ids as string[]).length,
		]),
	).toEqual([
		['estimates-1.pdf', 'application/pdf', 25],
		['estimates-2.pdf', 'application/pdf', 5],
	]);
	expect(files.map((f) => f.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
});

test('PDF: the code-0 JSON answer for invalid ids is an error naming the ids, not an empty file', async () => {
	const bad = `${DEMO.estimates.sent},1399999999999`;
	const direct = await env.call('GET', 'books', '/estimates/pdf', { query: { estimate_ids: bad } });
	expect([direct.status, direct.body]).toEqual([
		200,
		{ code: 0, message: 'Invalid value passed for estimate_ids' },
	]);
	env.em.clearRequests();

	const strict = await env.run([books('PDF', { operation: 'getPdf', estimate_ids: bad })]);
	expect(strict.error('PDF')?.message).toBe(
		'The Vendor API refused the estimate_ids sent: Invalid value passed for estimate_ids (code 0) [item 0]',
	);
	expect((strict.error('PDF') as { description?: string }).description).toContain(
		`Sent estimate_ids: ${bad}.`,
	);
	expect(strict.output('PDF')).toHaveLength(0);

	env.em.clearRequests();
	const lenient = await env.run(
		[
			books(
				'PDF',
				{ operation: 'getPdf', estimate_ids: '={{ $json.ids }}' },
				{ onError: 'continueRegularOutput' },
			),
		],
		[{ ids: bad }, { ids: DEMO.estimates.draft }],
	);
	expectNoError(lenient);
	const out = lenient.output('PDF');
	expect(out[0].json.error).toBe(
		'The Vendor API refused the estimate_ids sent: Invalid value passed for estimate_ids (code 0) [item 0]',
	);
	expect(out[0].json.description).toContain(`Sent estimate_ids: ${bad}.`);
	expect(out[0].binary).toBeUndefined();
	expect(out[1].binary?.data.fileName).toBe('EST-00004.pdf');
	expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	expect(env.apiRequests().map((r) => r.query.estimate_ids)).toEqual([bad, DEMO.estimates.draft]);
});

test('print sends the ids joined by commas and answers the envelope', async () => {
	const ids = [DEMO.estimates.accepted1, DEMO.estimates.declined];
	const result = await env.run([
		books('Print', { operation: 'print', estimate_ids: ids.join(',') }),
	]);
	expectNoError(result);
	expect(json(result, 'Print')).toEqual([{ code: 0, message: 'success', estimate_ids: ids }]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/estimates/print',
			query: { estimate_ids: ids.join(','), organization_id: org },
			body: undefined,
		},
	]);
	expectSignedAndOk();
});

test('update billing and shipping address: the documented object as the body', async () => {
	const id = DEMO.estimates.draft;
	const result = await env.run([
		books('Billing', {
			operation: 'updateBillingAddress',
			estimate_id: byId(id),
			address: '5 High St',
			city: 'Leeds',
			state: 'West Yorkshire',
			zip: 'LS1 1AA',
			country: 'UK',
			fax: '+44 113 000',
		}),
		books('Shipping', {
			operation: 'updateShippingAddress',
			estimate_id: byId(id),
			address: 'Unit 9',
			city: 'York',
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Billing')).toEqual([{ code: 0, message: 'Billing address updated.' }]);
	expect(json(result, 'Shipping')).toEqual([{ code: 0, message: 'Shipping address updated.' }]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'PUT',
			path: `/books/v3/estimates/${id}/address/billing`,
			query: { organization_id: org },
			body: {
				address: '5 High St',
				city: 'Leeds',
				state: 'West Yorkshire',
				zip: 'LS1 1AA',
				country: 'UK',
				fax: '+44 113 000',
			},
		},
		{
			method: 'PUT',
			path: `/books/v3/estimates/${id}/address/shipping`,
			query: { organization_id: org },
			body: { address: 'Unit 9', city: 'York' },
		},
	]);
	expectSignedAndOk();
	expect(stored(id).billing_address).toMatchObject({
		address: '5 High St',
		city: 'Leeds',
		zip: 'LS1 1AA',
	});
	expect(stored(id).shipping_address).toMatchObject({ address: 'Unit 9', city: 'York' });
});

test('templates: list them, then apply one to an estimate', async () => {
	const id = DEMO.estimates.sent;
	const result = await env.run([
		books('Templates', { resource: 'estimateTemplate', operation: 'getAll', returnAll: true }),
		books(
			'Apply',
			{
				operation: 'applyTemplate',
				estimate_id: byId(id),
				template_id: byId(DEMO.templates.spreadsheet),
			},
			{ executeOnce: true },
		),
	]);
	expectNoError(result);
	expect(json(result, 'Templates')).toEqual([
		{ template_id: DEMO.templates.standard, template_name: 'Standard', template_type: 'standard' },
		{
			template_id: DEMO.templates.spreadsheet,
			template_name: 'Spreadsheet',
			template_type: 'spreadsheet',
		},
	]);
	expect(json(result, 'Apply')).toEqual([
		{ code: 0, message: 'Estimate template has been updated.' },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/estimates/templates',
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'PUT',
			path: `/books/v3/estimates/${id}/templates/${DEMO.templates.spreadsheet}`,
			query: { organization_id: org },
			body: undefined,
		},
	]);
	expectSignedAndOk();
	expect(stored(id)).toMatchObject({
		template_id: DEMO.templates.spreadsheet,
		template_name: 'Spreadsheet',
	});
});

test('comments: add, list, update', async () => {
	const id = DEMO.estimates.accepted2;
	const result = await env.run([
		books('Add', {
			operation: 'addComment',
			estimate_id: byId(id),
			description: 'Customer asked for a discount',
			additionalFields: { show_comment_to_clients: true },
		}),
		books('List', { operation: 'getComments', estimate_id: byId(id) }),
		books('Edit', {
			operation: 'updateComment',
			estimate_id: byId(id),
			comment_id: '={{ $json.comment_id }}',
			description: 'Discount granted',
			additionalFields: { show_comment_to_clients: false },
		}),
		books('List again', { operation: 'getComments', estimate_id: byId(id) }),
	]);
	expectNoError(result);
	expect(json(result, 'Add')).toEqual([{ code: 0, message: 'Comments added.' }]);
	const [comment] = json(result, 'List');
	expect(comment).toMatchObject({
		estimate_id: id,
		description: 'Customer asked for a discount',
		comment_type: 'external',
	});
	expect(String(comment.comment_id)).toMatch(/^\d+$/);
	expect(json(result, 'Edit')).toEqual([{ code: 0, message: 'Comment has been updated.' }]);
	expect(json(result, 'List again')).toEqual([
		expect.objectContaining({ comment_id: comment.comment_id, description: 'Discount granted' }),
	]);
	const base = `/books/v3/estimates/${id}/comments`;
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: base,
			query: { organization_id: org },
			body: { description: 'Customer asked for a discount', show_comment_to_clients: true },
		},
		{ method: 'GET', path: base, query: { organization_id: org }, body: undefined },
		{
			method: 'PUT',
			path: `${base}/${String(comment.comment_id)}`,
			query: { organization_id: org },
			body: { description: 'Discount granted', show_comment_to_clients: false },
		},
		{ method: 'GET', path: base, query: { organization_id: org }, body: undefined },
	]);
	expectSignedAndOk();
});

test('the template picker lists the estimate templates by name and filters them', async () => {
	const templates = env.picker(VendorBooks, 'searchEstimateTemplates', {
		organizationId: org,
		resource: 'estimate',
		operation: 'applyTemplate',
		template_id: fromList(''),
	});
	expect(await templates()).toEqual({
		results: [
			{ name: 'Standard', value: DEMO.templates.standard },
			{ name: 'Spreadsheet', value: DEMO.templates.spreadsheet },
		],
		paginationToken: undefined,
	});
	expect((await templates({ filter: 'sheet' })).results).toEqual([
		{ name: 'Spreadsheet', value: DEMO.templates.spreadsheet },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/estimates/templates',
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'GET',
			path: '/books/v3/estimates/templates',
			query: { organization_id: org },
			body: undefined,
		},
	]);
	expectSignedAndOk();
});

test('the estimate picker lists estimates by number and searches with estimate_number_contains', async () => {
	const estimates = env.picker(VendorBooks, 'searchEstimates', {
		organizationId: org,
		resource: 'estimate',
		operation: 'get',
		estimate_id: fromList(''),
	});
	const found = await estimates({ filter: 'EST-0000' });
	expect(found.results.slice(0, 6)).toEqual(
		Object.values(DEMO.estimates).map((value, i) => ({ name: `EST-0000${i + 1}`, value })),
	);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/estimates',
			query: {
				estimate_number_contains: 'EST-0000',
				page: '1',
				per_page: '200',
				organization_id: org,
			},
			body: undefined,
		},
	]);
	expectSignedAndOk();
});
