/**
 * The package's own Custom API Call, end to end on n8n's engine against the emulator:
 * signed `Vendor-oauthtoken`, the organisation where the area wants it (query, header, the
 * portal in the path), JSON and file bodies, a file answer, Return All over page_context,
 * and bad input refused before anything is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import { binaryItem, readBinary } from '../../harness';
import { byId, expectNoError, json, steps } from '../../harness/workflows';
import { apiCall, PROJECTS_ROOT, sentRequest, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const custom = (type: string) =>
	env.orgSteps(type, { resource: 'customApiCall', operation: 'customApiCall' });
const books = custom('vendorBooks');

test('GET chosen from the resource list: signed, organization_id in the query, the answer as is', async () => {
	const result = await env.run([
		books('Get', { customMethod: 'GET', customPath: `/items/${DEMO.items.hosting}` }),
	]);
	expectNoError(result);
	expect(json(result, 'Get')).toEqual([
		expect.objectContaining({
			code: 0,
			item: expect.objectContaining({ item_id: DEMO.items.hosting, name: expect.any(String) }),
		}),
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: `/books/v3/items/${DEMO.items.hosting}`,
			query: { organization_id: env.org },
			org: undefined,
			body: undefined,
		},
	]);
	env.expectSigned({ org: 'query', ok: true });
});

test('chosen from an operation list, with query parameters and Return All over page_context; a written base path is dropped', async () => {
	const fromItem = env.orgSteps('vendorBooks', { resource: 'item', operation: 'customApiCall' });
	const result = await env.run([
		fromItem('All', {
			customMethod: 'GET',
			customPath: '/books/v3/items',
			customQuery: {
				parameters: [
					{ name: 'per_page', value: '2' },
					{ name: 'filter_by', value: 'Status.All' },
				],
			},
			customReturnAll: true,
		}),
	]);
	expectNoError(result);
	const listed = json(result, 'All');
	const stored = env.orgTenant().all('items').length;
	expect(stored).toBeGreaterThan(4);
	expect(listed).toHaveLength(stored);
	expect(new Set(listed.map((i) => i.item_id)).size).toBe(stored);
	const requests = env.apiRequests();
	expect(requests.length).toBe(Math.ceil(stored / 2));
	expect(requests.map((r) => r.query)).toEqual(
		requests.map((_, i) => ({
			per_page: '2',
			filter_by: 'Status.All',
			page: String(i + 1),
			organization_id: env.org,
		})),
	);
	expect(requests.every((r) => r.path === '/us/api/books/v3/items')).toBe(true);
	env.expectSigned({ org: 'query', ok: true });
});

test('POST with a JSON body: the organisation header of the billing area, the body sent as written', async () => {
	const billing = custom('vendorBilling');
	const project = DEMO.billingProjects.website;
	const result = await env.run([
		billing('Comment', {
			customMethod: 'POST',
			customPath: `/projects/${project}/comments`,
			customBodyType: 'json',
			customBody: '{ "description": "Kick-off done" }',
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Comment')[0]).toMatchObject({ code: 0 });
	const [request] = env.apiRequests();
	expect(apiCall(request)).toEqual({
		method: 'POST',
		path: `/billing/v1/projects/${project}/comments`,
		query: {},
		org: env.org,
		body: { description: 'Kick-off done' },
	});
	expect(request.headers['content-type']).toBe('application/json');
	env.expectSigned({ org: 'subscriptionsHeader', ok: true });
});

test('the estimate and invoice query flags and the estimate get selector, whose names the documents do not show, reach the API and are accepted; elsewhere an unknown name is refused', async () => {
	const body = JSON.stringify({
		customer_id: DEMO.customers.acme,
		line_items: [{ item_id: DEMO.items.consulting, quantity: 2 }],
	});
	const flags = {
		parameters: [
			{ name: 'ignore_auto_number_generation', value: 'false' },
			{ name: 'send', value: 'true' },
		],
	};
	const result = await env.run([
		books('Estimate', {
			customMethod: 'POST',
			customPath: '/estimates',
			customQuery: flags,
			customBodyType: 'json',
			customBody: body,
		}),
		books('Invoice', {
			customMethod: 'POST',
			customPath: '/invoices',
			customQuery: flags,
			customBodyType: 'json',
			customBody: body,
		}),
		books('Read', {
			customMethod: 'GET',
			customPath: `/estimates/${DEMO.estimates.sent}`,
			customQuery: { parameters: [{ name: 'accept', value: 'json' }] },
		}),
		books(
			'List',
			{
				customMethod: 'GET',
				customPath: '/estimates',
				customQuery: { parameters: [{ name: 'send', value: 'true' }] },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(result);
	expect(json(result, 'Estimate')[0]).toMatchObject({
		code: 0,
		estimate: { customer_id: DEMO.customers.acme },
	});
	expect(json(result, 'Invoice')[0]).toMatchObject({
		code: 0,
		invoice: { customer_id: DEMO.customers.acme },
	});
	expect(json(result, 'Read')[0]).toMatchObject({
		code: 0,
		estimate: { estimate_id: DEMO.estimates.sent },
	});
	expect(String(json(result, 'List')[0].error)).toContain(
		'send: is not a query parameter of this operation',
	);
	expect(
		env.apiRequests().map((r) => [r.method, r.path.replace('/us/api', ''), r.query, r.status]),
	).toEqual([
		[
			'POST',
			'/books/v3/estimates',
			{ ignore_auto_number_generation: 'false', send: 'true', organization_id: env.org },
			201,
		],
		[
			'POST',
			'/books/v3/invoices',
			{ ignore_auto_number_generation: 'false', send: 'true', organization_id: env.org },
			201,
		],
		[
			'GET',
			`/books/v3/estimates/${DEMO.estimates.sent}`,
			{ accept: 'json', organization_id: env.org },
			200,
		],
		['GET', '/books/v3/estimates', { send: 'true', organization_id: env.org }, 400],
	]);
});

test('a file answer becomes binary data; a file body is sent as multipart', async () => {
	const invoice = DEMO.invoices.sent;
	const result = await env.run(
		[
			books('Upload', {
				customMethod: 'POST',
				customPath: `/invoices/${invoice}/attachment`,
				customBodyType: 'binary',
				customInputBinaryField: 'scan',
			}),
			books('Download', {
				customMethod: 'GET',
				customPath: `/invoices/${invoice}/attachment`,
				customOutputBinaryField: 'file',
			}),
			books('PDF', {
				customMethod: 'GET',
				customPath: '/estimates/pdf',
				customQuery: { parameters: [{ name: 'estimate_ids', value: DEMO.estimates.sent }] },
			}),
		],
		[
			binaryItem(
				Buffer.from('%PDF-1.4 signed order'),
				'signed-order.pdf',
				'application/pdf',
				{},
				'scan',
			),
		],
	);
	expectNoError(result);
	expect(json(result, 'Upload')[0]).toMatchObject({ code: 0 });
	const [file] = result.output('Download');
	expect(file.json).toEqual({
		fileName: 'signed-order.pdf',
		mimeType: 'application/pdf',
		fileSize: 21,
	});
	expect((await readBinary(file, 'file')).toString()).toBe('%PDF-1.4 signed order');
	const [pdf] = result.output('PDF');
	expect(pdf.json).toMatchObject({ mimeType: 'application/pdf' });
	expect((await readBinary(pdf, 'data')).subarray(0, 5).toString()).toBe('%PDF-');

	const requests = env.apiRequests();
	expect(requests.map((r) => [r.method, r.path, r.query])).toEqual([
		['POST', `/us/api/books/v3/invoices/${invoice}/attachment`, { organization_id: env.org }],
		['GET', `/us/api/books/v3/invoices/${invoice}/attachment`, { organization_id: env.org }],
		[
			'GET',
			'/us/api/books/v3/estimates/pdf',
			{ estimate_ids: DEMO.estimates.sent, organization_id: env.org },
		],
	]);
	expect(requests[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
	expect(JSON.stringify(requests[0].body)).toContain('signed-order.pdf');
	env.expectSigned({ org: 'query', ok: true });
});

test('Vendor Projects: the portal replaces {portal_id} in the path; paced and signed, no organisation', async () => {
	const projects = steps('vendorProjects', { resource: 'project', operation: 'customApiCall' });
	const result = await env.run([
		projects('Projects', {
			customMethod: 'GET',
			customPath: '/portal/{portal_id}/projects',
			portal_id: byId(env.portal),
		}),
		projects('Portals', { customMethod: 'GET', customPath: 'portals' }),
	]);
	expectNoError(result);
	const names = JSON.stringify(json(result, 'Projects'));
	expect(names).toContain(DEMO.projects.website);
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{
			method: 'GET',
			path: `${PROJECTS_ROOT}/portal/${env.portal}/projects`,
			query: {},
			body: undefined,
		},
		{ method: 'GET', path: `${PROJECTS_ROOT}/portals`, query: {}, body: undefined },
	]);
	env.expectSigned({ ok: true });
});

test('bad input is refused before sending, naming the field', async () => {
	const cases: IDataObject[] = [
		{ method: 'GET', path: 'https://attacker.example/books/v3/items' },
		{ method: 'GET', path: '//attacker.example/items' },
		{ method: 'GET', path: '/items/../../invoice/v3/customerpayments' },
		{ method: 'GET', path: '/items/%2e%2e/x' },
		{ method: 'GET', path: '/items\\..\\x' },
		{ method: 'GET', path: '/items/%2F%2Fattacker.example' },
		{ method: 'POST', path: '/items', body: '{ "name": "Widget", }' },
		{ method: 'POST', path: '/items', body: '"just text"' },
		{ method: 'FETCH', path: '/items' },
		{ method: 'GET', path: '/items?organization_id=1' },
		{ method: 'GET', path: '/items/{item_id}' },
	];
	const result = await env.run(
		[
			books(
				'Bad',
				{
					customMethod: '={{ $json.method }}',
					customPath: '={{ $json.path }}',
					customBodyType: 'json',
					customBody: '={{ $json.body }}',
				},
				{ onError: 'continueRegularOutput' },
			),
		],
		cases,
	);
	// each error ends with its item, [item n]
	expect(json(result, 'Bad').map((i) => /\[item (\d+)\]$/.exec(String(i.error))?.[1])).toEqual(
		cases.map((_, n) => String(n)),
	);
	expect(json(result, 'Bad').map((i) => String(i.error).replace(/ \[item \d+\]$/, ''))).toEqual([
		expect.stringMatching(
			/^Invalid input: Path must be a path relative to \{api_url\}\/books\/v3 .*not a URL/,
		),
		expect.stringMatching(/^Invalid input: Path must be a path relative to .*not a URL/),
		'Invalid input: Path must not contain "." or ".." segments',
		'Invalid input: Path must not contain "." or ".." segments',
		'Invalid input: Path must not contain spaces or backslashes',
		'Invalid input: Path must not hide a "/" in an escaped segment ("%2F%2Fattacker.example")',
		expect.stringMatching(/^Invalid input: JSON Body is not valid JSON/),
		'Invalid input: JSON Body must be a JSON object or array',
		'Invalid input: Method must be one of GET, POST, PUT, PATCH, DELETE (got "FETCH")',
		'Invalid input: Path must not contain "?" or "#": put query parameters in "Query Parameters"',
		'Invalid input: Path has the placeholder {item_id}: replace it with a value',
	]);
	expect(json(result, 'Bad').map((i) => i.description)).toEqual(
		cases.map(() => 'Nothing was sent to the API. Correct the value and run again.'),
	);

	const more = await env.run([
		books(
			'Org',
			{
				customMethod: 'GET',
				customPath: '/items',
				customQuery: { parameters: [{ name: 'organization_id', value: '1' }] },
			},
			{ onError: 'continueRegularOutput' },
		),
		env.orgSteps('vendorBooks', { resource: 'customApiCall' })(
			'No org',
			{ organizationId: '={{ "" }}', customMethod: 'GET', customPath: '/items' },
			{ onError: 'continueRegularOutput' },
		),
		steps('vendorProjects', { resource: 'customApiCall' })(
			'No portal',
			{ customMethod: 'GET', customPath: '/portal/{portal_id}/projects' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect([
		json(more, 'Org')[0].error,
		json(more, 'No org')[0].error,
		json(more, 'No portal')[0].error,
	]).toEqual([
		'Invalid input: Query Parameters must not set "organization_id": it is added from "Organization ID" [item 0]',
		'Invalid input: Organization ID is required [item 0]',
		'Invalid input: Portal is required when the path contains {portal_id} [item 0]',
	]);
	expect(env.apiRequests()).toHaveLength(0);
});

test('an undocumented path reaches the API signed and fails with a clean 404 error', async () => {
	const result = await env.run([
		books(
			'Unknown',
			{ customMethod: 'GET', customPath: '/contacts' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	const [out] = json(result, 'Unknown');
	expect(out).toMatchObject({ httpCode: '404' });
	expect(String(out.error)).not.toMatch(/Vendor-oauthtoken|access_token/);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
		['GET', '/us/api/books/v3/contacts', 404],
	]);
	env.expectSigned({ org: 'query' });
});

test('an expired token is refreshed once and the custom call retried with the new one', async () => {
	const before = String(env.storedToken.access_token);
	env.em.clock.advance(3601_000);
	const result = await env.run([
		books('Get', { customMethod: 'GET', customPath: `/items/${DEMO.items.design}` }),
	]);
	expectNoError(result);
	expect(json(result, 'Get')[0]).toMatchObject({ item: { item_id: DEMO.items.design } });
	const after = String(env.storedToken.access_token);
	expect(after).not.toBe(before);
	expect(env.tokenRequests().map((r) => (r.body as IDataObject).grant_type)).toEqual([
		'refresh_token',
	]);
	expect(env.apiRequests().map((r) => [r.status, r.headers.authorization])).toEqual([
		[401, `Vendor-oauthtoken ${before}`],
		[200, `Vendor-oauthtoken ${after}`],
	]);
});

test('a custom write whose answer never came is sent once and says "Outcome unknown" in its headline; a read is retried', async () => {
	env.em.faults.next(1, { kind: 'dropAfterCommit' });
	const post = await env.run([
		books(
			'Create',
			{
				customMethod: 'POST',
				customPath: '/items',
				customBodyType: 'json',
				customBody: '{ "name": "Widget", "rate": 5 }',
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(String(json(post, 'Create')[0].error)).toMatch(
		/^Outcome unknown: the write may have been processed/,
	);
	expect(env.apiRequests().map((r) => [r.method, r.path])).toEqual([
		['POST', '/us/api/books/v3/items'],
	]);
	env.em.clearRequests();

	env.em.faults.next(1, { kind: 'status', status: 500 });
	const del = await env.run([
		books(
			'Delete',
			{ customMethod: 'DELETE', customPath: `/items/${DEMO.items.design}` },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(String(json(del, 'Delete')[0].error)).toMatch(
		/^Outcome unknown: the write may have been processed/,
	);
	expect(env.apiRequests().map((r) => [r.method, r.status])).toEqual([['DELETE', 500]]);
	env.em.clearRequests();

	env.em.faults.next(1, { kind: 'status', status: 500 });
	const get = await env.run([
		books('Get', { customMethod: 'GET', customPath: `/items/${DEMO.items.design}` }),
	]);
	expectNoError(get);
	expect(env.apiRequests().map((r) => [r.method, r.status])).toEqual([
		['GET', 500],
		['GET', 200],
	]);
});

test('items stay paired and in order; with continue-on-fail a failing item (bad input or an API error) becomes its error item', async () => {
	const result = await env.run(
		[
			books(
				'Call',
				{ customMethod: 'GET', customPath: '={{ $json.path }}' },
				{ onError: 'continueRegularOutput' },
			),
		],
		[
			{ path: `/items/${DEMO.items.hosting}` },
			{ path: '/items/../x' },
			{ path: '/items/999999' },
			{ path: `/items/${DEMO.items.design}` },
		],
	);
	const out = result.output('Call');
	expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	expect((out[0].json.item as IDataObject).item_id).toBe(DEMO.items.hosting);
	expect(out[1].json.error).toBe(
		'Invalid input: Path must not contain "." or ".." segments [item 1]',
	);
	expect(out[2].json).toMatchObject({ httpCode: '404' });
	expect((out[3].json.item as IDataObject).item_id).toBe(DEMO.items.design);
	expect(env.apiRequests().map((r) => r.path)).toEqual([
		`/us/api/books/v3/items/${DEMO.items.hosting}`,
		'/us/api/books/v3/items/999999',
		`/us/api/books/v3/items/${DEMO.items.design}`,
	]);
});

test('an API refusal in the envelope becomes an error with the documented code and meaning (accounting code, project-management errorCode)', async () => {
	const billing = custom('vendorBilling');
	const result = await env.run([
		billing(
			'Get',
			{ customMethod: 'GET', customPath: '/projects/999999' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	const [out] = json(result, 'Get');
	expect(String(out.error)).toMatch(/^The billing project does not exist \(code 1002\)/);
	expect(out.httpCode).toBe('404');
	const projects = steps('vendorProjects', { resource: 'customApiCall' });
	const pm = await env.run([
		projects(
			'Unknown',
			{
				customMethod: 'GET',
				customPath: '/portal/{portal_id}/nothing-here',
				portal_id: byId(env.portal),
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(json(pm, 'Unknown')).toEqual([
		{
			error: expect.stringMatching(/^URL_RULE_NOT_CONFIGURED: /),
			description: 'The request URL is wrong. Use a valid URL.',
			httpCode: '404',
		},
	]);
	expect(env.apiRequests().map((r) => [r.method, r.path])).toEqual([
		['GET', '/us/api/billing/v1/projects/999999'],
		['GET', `${PROJECTS_ROOT}/portal/${env.portal}/nothing-here`],
	]);
});

test('Vendor Invoice sends the organisation in its header, Vendor Inventory in the query', async () => {
	const invoice = await env.run([
		custom('vendorInvoice')('Payments', { customMethod: 'GET', customPath: '/customerpayments' }),
	]);
	expectNoError(invoice);
	expect(json(invoice, 'Payments')[0]).toMatchObject({
		code: 0,
		customerpayments: expect.any(Array),
	});
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/invoice/v3/customerpayments',
			query: {},
			org: env.org,
			body: undefined,
		},
	]);
	env.expectSigned({ org: 'invoiceHeader', ok: true });
	env.em.clearRequests();

	const inventory = await env.run([
		custom('vendorInventory')('Bills', { customMethod: 'GET', customPath: '/bills' }),
	]);
	expectNoError(inventory);
	expect(json(inventory, 'Bills')[0]).toMatchObject({ code: 0, bills: expect.any(Array) });
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/inventory/v1/bills',
			query: { organization_id: env.org },
			org: undefined,
			body: undefined,
		},
	]);
	env.expectSigned({ org: 'query', ok: true });
});

test('Vendor Projects Return All pages until the answer says no more (page_info), one item per record', async () => {
	const projects = steps('vendorProjects', { resource: 'customApiCall' });
	const result = await env.run([
		projects('All', {
			customMethod: 'GET',
			customPath: '/portal/{portal_id}/projects',
			portal_id: byId(env.portal),
			customQuery: { parameters: [{ name: 'per_page', value: '1' }] },
			customReturnAll: true,
		}),
	]);
	expectNoError(result);
	const stored = env.portalTenant().all('projects').length;
	expect(stored).toBeGreaterThan(1);
	expect(json(result, 'All')).toHaveLength(stored);
	expect(env.apiRequests().map((r) => [r.path, r.query.page, r.query.per_page])).toEqual(
		// the last full page says has_next_page: false, so no empty page is asked for
		Array.from({ length: stored }, (_, i) => [
			`${PROJECTS_ROOT}/portal/${env.portal}/projects`,
			String(i + 1),
			'1',
		]),
	);
	env.expectSigned({ ok: true });
});

test('an empty answer is output as its status only: no success the API did not state', async () => {
	env.em.faults.next(1, { kind: 'html', status: 204, contentType: 'text/plain', body: '' });
	const result = await env.run([
		books('Empty', { customMethod: 'DELETE', customPath: `/items/${DEMO.items.hosting}` }),
	]);
	expectNoError(result);
	expect(json(result, 'Empty')).toEqual([{ statusCode: 204 }]);
});
