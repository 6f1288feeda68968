/**
 * Vendor Books -> Items, end to end: real workflows run by n8n-core's WorkflowExecute
 * with the package's node and credential classes, over loopback HTTP to the emulator.
 */
import { NodeApiError } from 'n8n-workflow';

import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { byId, expectNoError, json } from '../../harness/workflows';
import { apiCall, fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv();
const books = env.orgSteps('vendorBooks', { resource: 'item' });
let org: string;
beforeAll(() => (org = env.org));

test('create -> get -> update -> mark inactive -> mark active -> delete: each request as documented', async () => {
	const created = "={{ $('Create').item.json.item_id }}";
	const result = await env.run([
		books('Create', {
			operation: 'create',
			name: 'Widget',
			additionalFields: {
				rate: 12.5,
				description: 'A small widget',
				sku: 'W-1',
				product_type: 'goods',
			},
		}),
		books('Get', { operation: 'get', item_id: byId('={{ $json.item_id }}') }),
		books('Update', {
			operation: 'update',
			item_id: byId(created),
			updateFields: { name: 'Widget XL', rate: 15 },
		}),
		books('Inactive', { operation: 'markInactive', item_id: byId(created) }),
		books('Active', { operation: 'markActive', item_id: byId(created) }),
		books('Delete', { operation: 'delete', item_id: byId(created) }),
	]);
	expectNoError(result);

	const item = json(result, 'Create')[0];
	const id = String(item.item_id);
	expect(id).toMatch(/^\d+$/);
	expect(item).toMatchObject({ name: 'Widget', rate: 12.5, sku: 'W-1' });
	expect(json(result, 'Get')[0]).toMatchObject({
		item_id: item.item_id,
		name: 'Widget',
		description: 'A small widget',
	});
	expect(json(result, 'Update')[0]).toMatchObject({ name: 'Widget XL', rate: 15 });
	expect(json(result, 'Inactive')).toEqual([
		{ code: 0, message: 'The item has been marked as inactive.' },
	]);
	expect(json(result, 'Delete')).toEqual([
		{ deleted: true, code: 0, message: 'The item has been deleted.' },
	]);
	// paired items: every output points back at the one input item
	for (const node of ['Create', 'Get', 'Update', 'Inactive', 'Active', 'Delete']) {
		expect(result.output(node).map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
	}

	const requests = env.apiRequests();
	expect(requests.map(apiCall)).toEqual([
		{
			method: 'POST',
			path: '/books/v3/items',
			query: { organization_id: org },
			body: {
				name: 'Widget',
				rate: 12.5,
				description: 'A small widget',
				sku: 'W-1',
				product_type: 'goods',
			},
		},
		{
			method: 'GET',
			path: `/books/v3/items/${id}`,
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'PUT',
			path: `/books/v3/items/${id}`,
			query: { organization_id: org },
			body: { name: 'Widget XL', rate: 15 },
		},
		{
			method: 'POST',
			path: `/books/v3/items/${id}/inactive`,
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'POST',
			path: `/books/v3/items/${id}/active`,
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'DELETE',
			path: `/books/v3/items/${id}`,
			query: { organization_id: org },
			body: undefined,
		},
	]);
	env.expectSigned({ org: 'query', ok: true });
	expect(requests[0].headers['content-type']).toBe('application/json');
	expect(
		env.em.requests.filter((r) => r.operation === 'books.item.get' && r.status === 200),
	).toHaveLength(1);
});

test('get many with Return All reads three pages and every filter reaches the query', async () => {
	for (let i = 0; i < 450; i++) {
		const res = await env.call('POST', 'books', '/items', {
			json: { name: `Bulk ${String(i).padStart(3, '0')}`, rate: i },
		});
		expect(res.status).toBe(201 === res.status ? 201 : 200);
	}
	env.em.clearRequests();
	const result = await env.run([
		books('List', {
			operation: 'getAll',
			returnAll: true,
			filters: { name_startswith: 'Bulk', filter_by: 'Status.Active', sort_column: 'rate' },
		}),
	]);
	expectNoError(result);
	const out = json(result, 'List');
	expect(out).toHaveLength(450);
	expect(out.map((i) => i.rate)).toEqual([...Array(450).keys()]);
	expect(new Set(out.map((i) => i.item_id)).size).toBe(450);
	const pages = env.apiRequests();
	expect(pages.map((r) => [r.method, r.path, r.query])).toEqual(
		[1, 2, 3].map((page) => [
			'GET',
			'/us/api/books/v3/items',
			{
				name_startswith: 'Bulk',
				filter_by: 'Status.Active',
				sort_column: 'rate',
				page: String(page),
				per_page: '200',
				organization_id: org,
			},
		]),
	);
	expect(result.output('List').every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(
		true,
	);

	env.em.clearRequests();
	const limited = await env.run([
		books('List', {
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { name_contains: 'Bulk 1' },
		}),
	]);
	expect(json(limited, 'List')).toHaveLength(5);
	expect(env.apiRequests().map((r) => r.query.per_page)).toEqual(['5']);
});

test('an access token that expires mid-run is refreshed once, stored, and the call retried', async () => {
	const before = String(env.storedToken.access_token);
	const refreshToken = String(env.storedToken.refresh_token);
	// The clock passes the token's hour while the workflow runs: right before the Get arrives.
	let moved = false;
	env.em.faults.next(1, { kind: 'hang', ms: 0 }, (t) => {
		if (!moved && t.operation === 'books.item.get') {
			moved = true;
			env.em.clock.advance(3601_000);
		}
		return false;
	});
	const result = await env.run([
		books('Create', { operation: 'create', name: 'Expiring' }),
		books('Get', { operation: 'get', item_id: byId('={{ $json.item_id }}') }),
		books('Get again', { operation: 'get', item_id: byId("={{ $('Create').item.json.item_id }}") }),
	]);
	env.em.faults.clear();
	expectNoError(result);
	expect(json(result, 'Get')[0]).toMatchObject({ name: 'Expiring' });
	expect(json(result, 'Get again')[0]).toMatchObject({ name: 'Expiring' });

	const after = String(env.storedToken.access_token);
	expect(after).not.toBe(before);
	expect(env.storedToken.refresh_token).toBe(refreshToken); // kept: a refresh answer carries none
	const refreshes = env.tokenRequests();
	expect(refreshes).toHaveLength(1);
	expect(refreshes[0].body).toMatchObject({
		grant_type: 'refresh_token',
		refresh_token: refreshToken,
		client_id: env.em.defaultClient.clientId,
	});
	expect(JSON.stringify(refreshes[0].body)).toContain(env.em.defaultClient.clientSecret); // in the body, as configured

	const gets = env.apiRequests().filter((r) => r.operation === 'books.item.get');
	expect(gets.map((r) => [r.status, r.headers.authorization])).toEqual([
		[401, `Vendor-oauthtoken ${before}`],
		[200, `Vendor-oauthtoken ${after}`],
		[200, `Vendor-oauthtoken ${after}`],
	]);
});

test('the item name has no limit of its own (the documents show none): a 250-character name is sent; a documented filter limit is refused naming it, nothing sent', async () => {
	const long = await env.run([books('Create', { operation: 'create', name: 'x'.repeat(250) })]);
	expectNoError(long);
	expect(env.apiRequests().map((r) => (r.body as { name: string }).name.length)).toEqual([250]);
	env.em.clearRequests();
	const result = await env.run([
		books('List', { operation: 'getAll', filters: { name_contains: 'x'.repeat(101) } }),
	]);
	expect(result.error('List')?.message).toContain(
		'Name Contains must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 101)',
	);
	expect(env.em.requests).toHaveLength(0);
});

test('a non-zero code envelope becomes a NodeApiError carrying the server message', async () => {
	// An item used in a transaction cannot be deleted (documented rule).
	const item = (await env.call('POST', 'books', '/items', { json: { name: 'In use', rate: 3 } }))
		.body.item;
	const invoice = await env.call('POST', 'books', '/invoices', {
		json: {
			customer_id: '1100000000001',
			line_items: [{ item_id: item.item_id, quantity: 1, rate: 3 }],
		},
	});
	expect(invoice.body.code).toBe(0);
	const direct = await env.call('DELETE', 'books', `/items/${item.item_id}`);
	expect(direct.body.code).not.toBe(0);
	env.em.clearRequests();

	const result = await env.run([
		books('Delete', { operation: 'delete', item_id: byId(String(item.item_id)) }),
	]);
	const error = result.error('Delete');
	// n8n keeps a plain copy of the error in the run data
	expect(error).toMatchObject({ name: NodeApiError.name, httpCode: '400' });
	const serverAnswer = env.apiRequests()[0];
	expect(serverAnswer.status).toBeGreaterThanOrEqual(400);
	expect(error?.message).toContain(direct.body.message);
	expect(error?.message).toMatch(/part of a transaction and cannot be deleted/);
	expect(error?.message).not.toContain(String(env.storedToken.access_token));
});

test('continueOnFail: one bad item becomes an error item while the others succeed', async () => {
	const result = await env.run(
		[
			books(
				'Create',
				{
					operation: 'create',
					name: '={{ $json.name }}',
					additionalFields: { rate: '={{ $json.rate }}' },
				},
				{ onError: 'continueRegularOutput' },
			),
		],
		[
			{ name: 'First', rate: 1 },
			{ name: 'Second', rate: 'ten' },
			{ name: 'Third', rate: 3 },
		],
	);
	expectNoError(result);
	const out = result.output('Create');
	expect(out).toHaveLength(3);
	expect(out[0].json).toMatchObject({ name: 'First', rate: 1 });
	expect(out[1].json.error).toContain('Rate must be a number');
	expect(out[2].json).toMatchObject({ name: 'Third', rate: 3 });
	expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(env.apiRequests().map((r) => r.body)).toEqual([
		{ name: 'First', rate: 1 },
		{ name: 'Third', rate: 3 },
	]);
});

test('update custom fields sends the documented array body to the singular /item/ path', async () => {
	const created = await env.run([books('Create', { operation: 'create', name: 'With fields' })]);
	const id = String(json(created, 'Create')[0].item_id);
	env.em.clearRequests();
	const result = await env.run([
		books('Fields', {
			operation: 'updateCustomFields',
			item_id: byId(id),
			custom_fields: {
				values: [
					{ customfield_id: '501', value: 'blue' },
					{ customfield_id: '502', value: 'large' },
				],
			},
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Fields')).toEqual([
		{ code: 0, message: 'Custom fields have been updated.' },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'PUT',
			path: `/books/v3/item/${id}/customfields`,
			query: { organization_id: org },
			body: [
				{ customfield_id: '501', value: 'blue' },
				{ customfield_id: '502', value: 'large' },
			],
		},
	]);
});

test('the item picker lists items by name, searches with name_contains, and pages', async () => {
	for (let i = 0; i < 205; i++)
		await env.call('POST', 'books', '/items', {
			json: { name: `Pick ${String(i).padStart(3, '0')}` },
		});
	env.em.clearRequests();
	const items = env.picker(VendorBooks, 'searchItems', {
		organizationId: org,
		resource: 'item',
		operation: 'get',
		item_id: fromList(''),
	});
	const found = await items({ filter: 'Pick 20' });
	expect(found.results.map((r) => r.name).sort()).toEqual([
		'Pick 200',
		'Pick 201',
		'Pick 202',
		'Pick 203',
		'Pick 204',
	]);
	for (const r of found.results) expect(String(r.value)).toMatch(/^\d+$/);
	expect(env.apiRequests()[0].query).toMatchObject({
		name_contains: 'Pick 20',
		organization_id: org,
		page: '1',
	});

	const first = await items();
	expect(first.results).toHaveLength(200);
	expect(first.paginationToken).toBe('2');
	const second = await items({ paginationToken: String(first.paginationToken) });
	expect(second.results.length).toBeGreaterThan(0);
	expect(second.results[0].value).not.toBe(first.results[0].value);
});
