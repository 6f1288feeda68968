/**
 * Options, Custom API Call, Simplify and AI-tool use, written from the README's promises
 * ("Options", "Custom API Call", "Simplify", "Use with AI agents and MCP", "Outcomes: only what
 * the API showed") and docs/BEHAVIOUR.md by a tester who did not write the package. The
 * workflows run on n8n's engine against the emulator, behind the answer proxy; the emulator's
 * request log (and its in-flight count) is the witness of what was sent. n8n's clock is a
 * virtual one: the package's waits of a second or more pass at once and move it on, so a block
 * waited out costs no real time. Parameter names come from the node's description as the form
 * shows it; the expected fields of Simplify are the README's table.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import type { FaultTarget } from '../../emulator/faults';
import type { RecordedRequest } from '../../emulator/server';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { binaryItem, readBinary } from '../../harness';
import type { RunResult } from '../../harness';
import { jsonAnswer } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import { useVirtualClock } from '../tools/virtual-clock';
import { byId, json } from '../../harness/workflows';
import { PROJECTS_ROOT } from './support';
import { type NodeClass, runToolCall, toolVariant } from './tool-variant';
import type { Step, steps } from '../../harness/workflows';
import type { OrgPlace } from './support';

const px = useProxiedEnv({ demo: true, seedItems: 450 });
const env = px.env;
const clock = useVirtualClock();

const CONTINUE = { onError: 'continueRegularOutput' as const };

// ---------------------------------------------------------------- helpers

const books = (resource: string) => env.areaSteps('vendorBooks', { resource });
const payments = env.areaSteps('vendorInvoice', { resource: 'payment' });
const billing = env.areaSteps('vendorBilling', { resource: 'project' });
const bills = env.areaSteps('vendorInventory', { resource: 'bill' });
const projects = env.areaSteps('vendorProjects', { resource: 'project' });
const custom = (type: string) =>
	env.areaSteps(type, { resource: 'customApiCall', operation: 'customApiCall' });

/** The run's error as one text (message and description). */
function errorText(result: RunResult): string {
	const error = result.error() as (Error & { description?: string }) | undefined;
	return error ? `${error.message}\n${error.description ?? ''}` : '';
}

/** API requests (accounts server left out) of `method` whose path matches. */
const sent = (method: string, path: RegExp): RecordedRequest[] =>
	env.apiRequests().filter((r) => r.method === method && path.test(r.path));

/** The input item an output item is paired with. */
function pairedTo(item: INodeExecutionData): number | undefined {
	const p = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof p === 'number' ? p : p?.item;
}

/** A fault scope: requests of `method` whose path ends with `tail`. */
const endsWith =
	(method: string, tail: string) =>
	(t: FaultTarget): boolean =>
		t.method === method && t.path.endsWith(tail);

/** Only the members of `record` named in `fields`. */
function pick(record: IDataObject, fields: string[]): IDataObject {
	return Object.fromEntries(Object.entries(record).filter(([k]) => fields.includes(k)));
}

const ITEM_IDS = [
	DEMO.items.consulting,
	DEMO.items.design,
	DEMO.items.hosting,
	DEMO.items.legacySupport,
];

afterEach(() => {
	env.em.faults.clear();
	env.em.setLatency(0);
});

// ---------------------------------------------------------------- 1. Options

describe('Options: Requests in Flight', () => {
	const get = (options: IDataObject) =>
		books('item')('Get', { operation: 'get', item_id: byId('={{ $json.id }}'), options });
	const input = () => [...ITEM_IDS, ...ITEM_IDS].map((id) => ({ id }));

	test('default (10): the 8 items are sent in parallel, and the output keeps the input order, each paired with its input', async () => {
		// answers take 150 ms ± 120 ms: they come back out of order
		env.em.setLatency(150, 120);
		const result = await env.run([get({})], input());
		expect(errorText(result)).toBe('');
		expect(env.em.inFlight.max).toBeGreaterThan(1);
		const out = result.output('Get');
		expect(out.map((i) => String(i.json.item_id))).toEqual(input().map((i) => i.id));
		expect(out.map(pairedTo)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
	});

	test.each([1, 3])(
		'set to %i: never more requests at once than that, same output in order',
		async (limit) => {
			env.em.setLatency(100, 80);
			const result = await env.run([get({ requestsInFlight: limit })], input());
			expect(errorText(result)).toBe('');
			expect(env.em.inFlight.max).toBeLessThanOrEqual(limit);
			expect(sent('GET', /\/items\/\d+$/)).toHaveLength(8);
			const out = result.output('Get');
			expect(out.map((i) => String(i.json.item_id))).toEqual(input().map((i) => i.id));
			expect(out.map(pairedTo)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		},
	);
});

describe('Options: Timeout (Seconds)', () => {
	const isItemGet = (t: FaultTarget) => t.method === 'GET' && /\/items\/\d+$/.test(t.path);

	test('Timeout 1 s: a read whose answer takes 3 s is given up and retried; the retry gives the record', async () => {
		env.em.faults.next(1, { kind: 'hang', ms: 3000 }, isItemGet);
		const result = await env.run([
			books('item')('Get', {
				operation: 'get',
				item_id: byId(DEMO.items.hosting),
				options: { timeout: 1 },
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Get').map((i) => String(i.item_id))).toEqual([DEMO.items.hosting]);
		expect(sent('GET', /\/items\/\d+$/).length).toBe(2);
	});

	test('default Timeout (60 s): the same slow answer (1.5 s) is waited for, one request', async () => {
		env.em.faults.next(1, { kind: 'hang', ms: 1500 }, isItemGet);
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId(DEMO.items.hosting) }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Get').map((i) => String(i.item_id))).toEqual([DEMO.items.hosting]);
		expect(sent('GET', /\/items\/\d+$/)).toHaveLength(1);
	});

	test('Timeout 1 s: a write whose answer takes 3 s is "Outcome unknown" and never sent again', async () => {
		env.em.faults.next(
			1,
			{ kind: 'hang', ms: 3000 },
			(t) => t.method === 'POST' && /\/books\/v3\/items$/.test(t.path),
		);
		const result = await env.run([
			books('item')('Create', {
				operation: 'create',
				name: 'Timed out item',
				options: { timeout: 1 },
			}),
		]);
		expect(errorText(result)).toMatch(/Outcome unknown/);
		expect(errorText(result)).toContain('[item 0');
		expect(sent('POST', /\/books\/v3\/items$/)).toHaveLength(1);
		expect(json(result, 'Create')).toEqual([]);
	});
});

describe('Options: On Rate-Limit Block', () => {
	// the third item's read is answered 429 with a wait of 2 minutes (a block, not a short hold)
	const BLOCK_S = 120;
	const block = () =>
		env.em.faults.next(
			1,
			{ kind: 'status', status: 429, retryAfter: BLOCK_S },
			endsWith('GET', `/items/${ITEM_IDS[2]}`),
		);
	const get = (options: IDataObject, settings: Step['settings'] = {}) =>
		books('item')(
			'Get',
			{
				operation: 'get',
				item_id: byId('={{ $json.id }}'),
				options: { requestsInFlight: 1, ...options },
			},
			settings,
		);
	const input = () => ITEM_IDS.map((id) => ({ id }));
	// the block is remembered: the next tests start after it lifted
	afterEach(() => clock.advance((BLOCK_S + 5) * 1000));

	test('default (Stop With an Error): one error saying when it lifts, items 0-1 done and 2-3 not sent; nothing sent after the block', async () => {
		block();
		const result = await env.run([get({})], input());
		const text = errorText(result);
		expect(text).not.toBe('');
		expect(text).toMatch(/lift|until/i);
		expect(text).toMatch(/\d{1,2}:\d{2}/);
		expect(text).toMatch(/0-1|0, 1/);
		expect(text).toMatch(/2-3|2, 3/);
		expect(sent('GET', /\/items\/\d+$/).map((r) => r.path.split('/').pop())).toEqual(
			ITEM_IDS.slice(0, 3),
		);
	});

	test('Stop With an Error with Continue On Fail: the done items, then an error item per unsent item (notSent: true), paired', async () => {
		block();
		const result = await env.run([get({}, CONTINUE)], input());
		expect(errorText(result)).toBe('');
		const out = result.output('Get');
		expect(out.map(pairedTo)).toEqual([0, 1, 2, 3]);
		expect(out.slice(0, 2).map((i) => String(i.json.item_id))).toEqual(ITEM_IDS.slice(0, 2));
		for (const unsent of out.slice(2)) {
			expect(unsent.json.error).toBeDefined();
			expect(JSON.stringify(unsent.json)).toContain('"notSent":true');
			expect(JSON.stringify(unsent.json)).toContain('"blockedUntil"');
		}
		expect(sent('GET', /\/items\/\d+$/)).toHaveLength(3);
	});

	test('Wait Until It Lifts: the block is waited out, the blocked item sent again after it, every record output', async () => {
		block();
		const result = await env.run([get({ onRateLimitBlock: 'wait' })], input());
		expect(errorText(result)).toBe('');
		expect(json(result, 'Get').map((i) => String(i.item_id))).toEqual(ITEM_IDS);
		const blocked = px.proxy.records.filter(
			(r) => r.method === 'GET' && r.path.endsWith(`/items/${ITEM_IDS[2]}`),
		);
		expect(blocked.map((r) => r.status)).toEqual([429, 200]);
		expect(blocked[1].arrivedAt - blocked[0].arrivedAt).toBeGreaterThanOrEqual(
			BLOCK_S * 1000 - 1000,
		);
	});
});

describe('Options: On Error (Continue On Fail) and the error that ends a run', () => {
	test('Continue On Fail: the failing item becomes an error item in its place, ending with [item 1]; the others are output', async () => {
		const ids = [DEMO.items.design, '1299999999999', DEMO.items.hosting];
		const result = await env.run(
			[books('item')('Get', { operation: 'get', item_id: byId('={{ $json.id }}') }, CONTINUE)],
			ids.map((id) => ({ id })),
		);
		expect(errorText(result)).toBe('');
		const out = result.output('Get');
		expect(out.map(pairedTo)).toEqual([0, 1, 2]);
		expect([out[0].json.item_id, out[2].json.item_id].map(String)).toEqual([ids[0], ids[2]]);
		expect(out[1].json.error).toBeDefined();
		expect(String(out[1].json.error)).toMatch(/\[item 1\]$/);
	});

	// Found a defect when written: with Requests in Flight 1, item 2's payment was still created after item 1 was
	// refused ("[item 1; 2 of 3 items done, 0 not sent]"). Fixed (the run's halt, api/run.ts); the class is in run-halt.test.ts.
	test("without it: the run ends with the first failing item's error, counting done and not sent, naming the done write's id; no item after it is started", async () => {
		const customers = [DEMO.customers.acme, '1199999999999', DEMO.customers.globex];
		const before = new Set(
			env
				.orgTenant()
				.all('customerpayments')
				.map((p) => String(p.payment_id)),
		);
		const result = await env.run(
			[
				payments('Pay', {
					operation: 'create',
					customer_id: '={{ $json.customer }}',
					amount: 21,
					date: '2026-01-15',
					options: { requestsInFlight: 1 },
				}),
			],
			customers.map((customer) => ({ customer })),
		);
		const text = errorText(result);
		expect(text).toContain('[item 1; 1 of 3 items done, 1 not sent]');
		const posts = sent('POST', /\/customerpayments$/);
		expect(posts.map((r) => (r.body as IDataObject).customer_id)).toEqual(customers.slice(0, 2));
		const created = env
			.orgTenant()
			.all('customerpayments')
			.filter((p) => !before.has(String(p.payment_id)));
		expect(created).toHaveLength(1);
		expect(text).toContain(String(created[0].payment_id));
	});
});

describe('Vendor Projects keeps to its limit whatever Requests in Flight says; Custom API Call counts with the operations', () => {
	const data = () => env.credentials[0].data as IDataObject;
	let before: IDataObject[string];
	beforeEach(() => {
		before = data().projectsRequestsPerWindow;
		data().projectsRequestsPerWindow = 2;
	});
	afterEach(() => {
		data().projectsRequestsPerWindow = before;
		clock.advance(125_000);
	});

	test('share of 2 per 2 minutes, Requests in Flight 50: Project → Get x2 then Custom API Call x2, never more than 2 requests in any 2 minutes', async () => {
		const ids = [DEMO.projects.website, DEMO.projects.mobile];
		const result = await env.run(
			[
				projects('Get', {
					operation: 'get',
					project_id: byId('={{ $json.id }}'),
					options: { requestsInFlight: 50 },
				}),
				custom('vendorProjects')('Call', {
					customMethod: 'GET',
					customPath: '=/portal/{portal_id}/projects/{{ $json.id }}',
					options: { requestsInFlight: 50 },
				}),
			],
			ids.map((id) => ({ id })),
		);
		expect(errorText(result)).toBe('');
		const calls = px.proxy.records.filter((r) => r.path.startsWith(PROJECTS_ROOT));
		expect(calls.map((r) => r.status)).toEqual([200, 200, 200, 200]);
		const at = calls.map((r) => r.arrivedAt).sort((a, b) => a - b);
		for (let i = 0; i + 2 < at.length; i++)
			expect(at[i + 2] - at[i]).toBeGreaterThanOrEqual(120_000 - 1000);
	});
});

// ---------------------------------------------------------------- 2. Custom API Call

describe('Custom API Call', () => {
	test("Books GET with Query Parameters: sent as given, the organization added; the API's answer is output", async () => {
		const result = await env.run([
			custom('vendorBooks')('Call', {
				customMethod: 'GET',
				customPath: '/items',
				customQuery: { parameters: [{ name: 'name_contains', value: 'Hosting' }] },
			}),
		]);
		expect(errorText(result)).toBe('');
		const [get] = sent('GET', /\/books\/v3\/items$/);
		expect(get.query).toEqual({ name_contains: 'Hosting', organization_id: env.org });
		const text = JSON.stringify(json(result, 'Call'));
		expect(text).toContain(DEMO.items.hosting);
		expect(text).not.toContain(DEMO.items.design);
		env.expectSigned({ org: 'query', ok: true });
	});

	test('Books POST with a JSON body: that body exactly, as JSON; the created record is output', async () => {
		const result = await env.run([
			custom('vendorBooks')('Call', {
				customMethod: 'POST',
				customPath: '/items',
				customBodyType: 'json',
				customBody: '{"name":"Made by a custom call","rate":7,"unit":"box"}',
			}),
		]);
		expect(errorText(result)).toBe('');
		const posts = sent('POST', /\/books\/v3\/items$/);
		expect(posts.map((r) => r.body)).toEqual([
			{ name: 'Made by a custom call', rate: 7, unit: 'box' },
		]);
		expect(posts[0].headers['content-type']).toMatch(/^application\/json/);
		const created = env
			.orgTenant()
			.all('items')
			.filter((i) => i.name === 'Made by a custom call');
		expect(created).toHaveLength(1);
		expect(JSON.stringify(json(result, 'Call'))).toContain(String(created[0].item_id));
		env.expectSigned({ org: 'query', ok: true });
	});

	test.each<[string, string, string, OrgPlace, RegExp]>([
		[
			'Vendor Invoice',
			'vendorInvoice',
			`/customerpayments/${DEMO.payments.paid1}`,
			'invoiceHeader',
			/^\/us\/api\/invoice\/v3\/customerpayments\/\d+$/,
		],
		[
			'Vendor Billing',
			'vendorBilling',
			`/projects/${DEMO.billingProjects.website}`,
			'subscriptionsHeader',
			/^\/us\/api\/billing\/v1\/projects\/\d+$/,
		],
		['Vendor Inventory', 'vendorInventory', '/bills', 'query', /^\/us\/api\/inventory\/v1\/bills$/],
	])(
		"%s GET: below the area's root, the organization where the area takes it (and nowhere else)",
		async (_label, type, path, org, wanted) => {
			const result = await env.run([
				custom(type)('Call', { customMethod: 'GET', customPath: path }),
			]);
			expect(errorText(result)).toBe('');
			expect(env.apiRequests().map((r) => r.path)).toEqual([expect.stringMatching(wanted)]);
			env.expectSigned({ org, ok: true });
			expect(json(result, 'Call').length).toBeGreaterThan(0);
		},
	);

	test('Vendor Projects: {portal_id} filled from Portal, below the projects root; no organization', async () => {
		const result = await env.run([
			custom('vendorProjects')('Call', {
				customMethod: 'GET',
				customPath: `/portal/{portal_id}/projects/${DEMO.projects.website}`,
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(env.apiRequests().map((r) => r.path)).toEqual([
			`${PROJECTS_ROOT}/portal/${env.portal}/projects/${DEMO.projects.website}`,
		]);
		env.expectSigned({ ok: true });
		expect(JSON.stringify(json(result, 'Call'))).toContain(DEMO.projects.website);
	});

	test('a URL, ".." segments and a leftover placeholder are refused before sending; a plain path goes', async () => {
		const paths = [
			'https://evil.example/books/v3/items',
			'/items/../invoices',
			'/invoices/{invoice_id}',
			`http://127.0.0.1:1/items/${DEMO.items.design}`,
			`/items/${DEMO.items.design}`,
		];
		const result = await env.run(
			[
				custom('vendorBooks')(
					'Call',
					{ customMethod: 'GET', customPath: '={{ $json.path }}' },
					CONTINUE,
				),
			],
			paths.map((path) => ({ path })),
		);
		const out = result.output('Call');
		expect(out.map(pairedTo)).toEqual([0, 1, 2, 3, 4]);
		expect(out.map((i) => i.json.error !== undefined)).toEqual([true, true, true, true, false]);
		for (const [i, item] of out.slice(0, 4).entries())
			expect(String(item.json.error)).toContain(`[item ${i}]`);
		expect(px.proxy.records.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /us/api/books/v3/items/${DEMO.items.design}`,
		]);
	});

	test("an API refusal is an error with the API's code and message", async () => {
		const direct = await env.call('GET', 'books', '/items/1299999999999');
		expect(direct.body.code).not.toBe(0);
		const result = await env.run([
			custom('vendorBooks')('Call', { customMethod: 'GET', customPath: '/items/1299999999999' }),
		]);
		const text = errorText(result);
		expect(text).toContain(String(direct.body.message));
		expect(text).toContain(String(direct.body.code));
		expect(json(result, 'Call')).toEqual([]);
	});

	test('a code 0 answer whose message says a value is invalid is an error, not an output', async () => {
		px.proxy.add({
			method: 'GET',
			path: /\/books\/v3\/items\/\d+$/,
			action: {
				answer: jsonAnswer({ code: 0, message: 'The value passed for item_id is invalid.' }),
			},
		});
		const result = await env.run([
			custom('vendorBooks')(
				'Call',
				{ customMethod: 'GET', customPath: `/items/${DEMO.items.design}` },
				CONTINUE,
			),
		]);
		const out = json(result, 'Call');
		expect(out).toHaveLength(1);
		expect(out[0].error).toBeDefined();
		expect(String(out[0].error)).toMatch(/invalid/);
	});

	test('a POST answered 500 is "Outcome unknown" and not sent again', async () => {
		env.em.faults.next(
			1,
			{ kind: 'status', status: 500 },
			(t) => t.method === 'POST' && /\/books\/v3\/items$/.test(t.path),
		);
		const result = await env.run([
			custom('vendorBooks')('Call', {
				customMethod: 'POST',
				customPath: '/items',
				customBodyType: 'json',
				customBody: '{"name":"Maybe made"}',
			}),
		]);
		expect(errorText(result)).toMatch(/Outcome unknown/);
		expect(sent('POST', /\/books\/v3\/items$/)).toHaveLength(1);
	});

	test('Return All reads every page of a list: each active item once', async () => {
		const result = await env.run([
			custom('vendorBooks')('Call', {
				customMethod: 'GET',
				customPath: '/items',
				customReturnAll: true,
			}),
		]);
		expect(errorText(result)).toBe('');
		const active = env
			.orgTenant()
			.all('items')
			.filter((i) => i.status === 'active')
			.map((i) => String(i.item_id));
		expect(active.length).toBeGreaterThan(400);
		const text = JSON.stringify(json(result, 'Call'));
		const ids = [...text.matchAll(/"item_id":"?(\d+)/g)].map((m) => m[1]);
		expect(new Set(ids).size).toBe(ids.length);
		expect(new Set(ids)).toEqual(new Set(active));
		expect(sent('GET', /\/books\/v3\/items$/).length).toBeGreaterThanOrEqual(3);
	});

	test('paced like every operation: a 429 with a short Retry-After is held and sent again, not a failed item', async () => {
		env.em.faults.next(
			1,
			{ kind: 'status', status: 429, retryAfter: 3 },
			endsWith('GET', `/items/${DEMO.items.design}`),
		);
		const result = await env.run([
			custom('vendorBooks')('Call', {
				customMethod: 'GET',
				customPath: `/items/${DEMO.items.design}`,
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(JSON.stringify(json(result, 'Call'))).toContain(DEMO.items.design);
		expect(sent('GET', /\/items\/\d+$/).map((r) => r.status)).toEqual([429, 200]);
	});

	test('Body as a file (multipart) goes under the File Form Field; a PDF answer comes out as binary in the chosen field', async () => {
		const bytes = Buffer.from('%PDF-1.4 custom upload test');
		const id = DEMO.invoices.viewed;
		const result = await env.run(
			[
				custom('vendorBooks')('Upload', {
					customMethod: 'POST',
					customPath: `/invoices/${id}/attachment`,
					customBodyType: 'binary',
					customInputBinaryField: 'scan',
					customFileField: 'attachment',
				}),
				custom('vendorBooks')('Download', {
					customMethod: 'GET',
					customPath: '/invoices/pdf',
					customQuery: { parameters: [{ name: 'invoice_ids', value: id }] },
					customOutputBinaryField: 'doc',
				}),
			],
			[binaryItem(bytes, 'scan-7.pdf', 'application/pdf', {}, 'scan')],
		);
		expect(errorText(result)).toBe('');
		const [upload] = sent('POST', /\/invoices\/\d+\/attachment$/);
		const parts = (upload.body ?? []) as Array<{ name?: string; fileName?: string; data: Buffer }>;
		const files = parts.filter((p) => p.fileName !== undefined);
		expect(files.map((f) => [f.name, f.fileName, Buffer.from(f.data).equals(bytes)])).toEqual([
			['attachment', 'scan-7.pdf', true],
		]);
		const [pdf] = result.output('Download');
		expect(pdf.binary?.doc?.mimeType).toMatch(/^application\/pdf/);
		expect((await readBinary(pdf, 'doc')).subarray(0, 5).toString()).toBe('%PDF-');
	});
});

// ---------------------------------------------------------------- 3. Simplify

interface SimplifyCase {
	step: () => ReturnType<typeof steps>;
	params: IDataObject;
	/** The README's fields for the resource. */
	fields: string[];
	id: string;
}

const SIMPLIFY: Array<[string, SimplifyCase]> = [
	[
		'Item → Get Many',
		{
			step: () => books('item'),
			params: { operation: 'getAll', returnAll: false, limit: 5 },
			fields: ['item_id', 'name', 'sku', 'status', 'product_type', 'rate', 'unit', 'description'],
			id: 'item_id',
		},
	],
	[
		'Estimate → Get',
		{
			step: () => books('estimate'),
			params: { operation: 'get', estimate_id: byId(DEMO.estimates.sent) },
			fields: [
				'estimate_id',
				'estimate_number',
				'reference_number',
				'customer_id',
				'customer_name',
				'status',
				'date',
				'expiry_date',
				'currency_code',
				'total',
			],
			id: 'estimate_id',
		},
	],
	[
		'Invoice → Get Many',
		{
			step: () => books('invoice'),
			params: { operation: 'getAll', returnAll: false, limit: 4 },
			fields: [
				'invoice_id',
				'invoice_number',
				'customer_id',
				'customer_name',
				'status',
				'date',
				'due_date',
				'currency_code',
				'total',
				'balance',
			],
			id: 'invoice_id',
		},
	],
	[
		'Customer payment → Get',
		{
			step: () => payments,
			params: { operation: 'get', payment_id: byId(DEMO.payments.paid1) },
			fields: [
				'payment_id',
				'payment_number',
				'invoice_number',
				'customer_id',
				'customer_name',
				'payment_mode',
				'date',
				'reference_number',
				'amount',
				'currency_code',
			],
			id: 'payment_id',
		},
	],
	[
		'Billing project → Get Many',
		{
			step: () => billing,
			params: { operation: 'getAll', returnAll: true },
			fields: [
				'project_id',
				'project_name',
				'customer_id',
				'customer_name',
				'status',
				'billing_type',
				'rate',
				'currency_code',
				'total_hours',
				'billable_hours',
			],
			id: 'project_id',
		},
	],
	[
		'Bill → Get Many',
		{
			step: () => bills,
			params: { operation: 'getAll', returnAll: true },
			fields: [
				'bill_id',
				'bill_number',
				'vendor_id',
				'vendor_name',
				'status',
				'date',
				'due_date',
				'currency_code',
				'sub_total',
				'balance',
			],
			id: 'bill_id',
		},
	],
	[
		'Project (Vendor Projects) → Get',
		{
			step: () => projects,
			params: { operation: 'get', project_id: byId(DEMO.projects.website) },
			fields: ['id', 'name', 'project_type', 'status', 'start_date', 'end_date', 'owner'],
			id: 'id',
		},
	],
];

describe("Simplify: at most 10 fields, the README's, instead of the whole record", () => {
	test.each(SIMPLIFY)(
		'%s: Simplify on gives the listed fields of the whole record (off by default)',
		async (_label, c) => {
			const result = await env.run([
				c.step()('Full', { ...c.params }),
				c.step()('Simple', { ...c.params, simplify: true }, { executeOnce: true }),
			]);
			expect(errorText(result)).toBe('');
			const full = json(result, 'Full');
			const simple = json(result, 'Simple');
			expect(full.length).toBeGreaterThan(0);
			expect(simple.map((r) => String(r[c.id]))).toEqual(full.map((r) => String(r[c.id])));
			// off by default: the whole record, more than the listed fields
			expect(full.some((r) => Object.keys(r).some((k) => !c.fields.includes(k)))).toBe(true);
			for (const [i, record] of simple.entries()) {
				expect(Object.keys(record).length).toBeLessThanOrEqual(10);
				expect(record).toEqual(pick(full[i], c.fields));
			}
		},
	);
});

// ---------------------------------------------------------------- 4. AI agents

const TOOL_TYPES = [toolVariant(VendorBooks), toolVariant(VendorInvoice)];

/** Start → Input → Agent stand-in, with the tool node on its ai_tool input; what the agent saw and got. */
async function callTool(
	type: string,
	parameters: IDataObject,
	args: IDataObject[] = [{}],
	settings: Partial<INode> = {},
): Promise<IDataObject[]> {
	const result = await runToolCall(
		env,
		TOOL_TYPES,
		type,
		{ organizationId: env.org, ...parameters },
		args,
		settings,
	);
	expect(errorText(result)).toBe('');
	return json(result, 'Agent');
}

const INVOICE_FIELDS = SIMPLIFY.find(([label]) => label.startsWith('Invoice'))![1].fields;
const PAYMENT_FIELDS = SIMPLIFY.find(([label]) => label.startsWith('Customer payment'))![1].fields;

describe('Use with AI agents', () => {
	test.each([
		['Vendor Books', VendorBooks],
		['Vendor Projects', VendorProjects],
		['Vendor Invoice', VendorInvoice],
		['Vendor Billing', VendorBilling],
		['Vendor Inventory', VendorInventory],
	] as Array<[string, NodeClass]>)('%s is usable as an AI tool', (displayName, Node) => {
		const description = new Node().description;
		expect(description.displayName).toBe(displayName);
		expect(description.usableAsTool).toBe(true);
	});

	test('the model sees the action ("Get many invoices in Vendor Books") and one parameter per $fromAI, which fills the field; output Simplified by default', async () => {
		const [seen] = await callTool(
			'vendorBooksTool',
			{
				resource: 'invoice',
				operation: 'getAll',
				returnAll: false,
				limit: 50,
				filters: {
					status:
						"={{ $fromAI('status', 'Invoice status: draft, sent, overdue, paid, partially_paid, unpaid, viewed or void', 'string') }}",
				},
			},
			[{ status: 'overdue' }],
		);
		expect(seen.description).toBe('Get many invoices in Vendor Books');
		expect(seen.parameters).toEqual(['status']);
		expect(sent('GET', /\/books\/v3\/invoices$/).map((r) => r.query.status)).toEqual(['overdue']);
		const records = seen.response as IDataObject[];
		expect(records.length).toBeGreaterThanOrEqual(3);
		for (const record of records) {
			expect(record.status).toBe('overdue');
			expect(Object.keys(record).filter((k) => !INVOICE_FIELDS.includes(k))).toEqual([]);
		}
	});

	test('as a tool, Output Raw gives the whole record and Selected Fields the ID and the fields picked', async () => {
		const get = { resource: 'payment', operation: 'get', payment_id: byId(DEMO.payments.partial) };
		const [raw] = await callTool('vendorInvoiceTool', { ...get, output: 'raw' });
		const [rawRecord] = raw.response as IDataObject[];
		expect(String(rawRecord.payment_id)).toBe(DEMO.payments.partial);
		expect(Object.keys(rawRecord).some((k) => !PAYMENT_FIELDS.includes(k))).toBe(true);
		const [chosen] = await callTool('vendorInvoiceTool', {
			...get,
			output: 'selectedFields',
			outputFields: ['amount', 'date'],
		});
		expect(chosen.response).toEqual([
			{ payment_id: rawRecord.payment_id, amount: rawRecord.amount, date: rawRecord.date },
		]);
	});

	test("Line Items (JSON) filled by $fromAI(..., 'json'): the lines the model gave are sent", async () => {
		const lines = [
			{
				name: 'Agent work',
				description: 'Set up',
				rate: 100,
				quantity: 2,
				unit: 'hrs',
				discount: '10%',
			},
			{ item_id: DEMO.items.hosting, rate: 49, quantity: 1 },
		];
		const [seen] = await callTool(
			'vendorBooksTool',
			{
				resource: 'invoice',
				operation: 'create',
				customer_id: DEMO.customers.initech,
				line_itemsJson: "={{ $fromAI('lines', 'The invoice lines', 'json') }}",
			},
			[{ lines }],
		);
		expect(seen.description).toBe('Create invoice in Vendor Books');
		expect(seen.parameters).toEqual(['lines']);
		const posts = sent('POST', /\/books\/v3\/invoices$/);
		expect(posts.map((r) => (r.body as IDataObject).line_items)).toEqual([lines]);
		expect(JSON.stringify(seen.response)).toContain('invoice_id');
	});

	test("a failing tool with On Error: Continue gives the model the error text (the API's message)", async () => {
		const direct = await env.call('GET', 'books', '/items/1299999999999');
		const [seen] = await callTool(
			'vendorBooksTool',
			{ resource: 'item', operation: 'get', item_id: byId('1299999999999') },
			[{}],
			{ onError: 'continueRegularOutput' },
		);
		expect(JSON.stringify(seen.response)).not.toContain('"thrown"');
		expect(JSON.stringify(seen.response)).toContain(String(direct.body.message));
	});
});
