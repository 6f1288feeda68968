/**
 * Answers a real service and network may give, written from the README's promises ("Outcomes: only
 * what the API showed", "Custom API Call") and docs/BEHAVIOUR.md by a tester who did not write the
 * package: ids past 2^53, redirects, a byte-order mark, Retry-After as an HTTP date,
 * 204 / 206 / 207 / HTML answers, pages that shift under Return All, expressions of any type, and
 * no secret in any output or error. Every answer here is made by the answer proxy in front of the
 * emulator (raw JSON text written by hand where numbers matter); the workflows run on n8n's engine.
 */
import * as http from '../../host/http';
import type { AddressInfo } from '../../host/net';
import type { IDataObject } from 'n8n-workflow';

import type { MadeAnswer, ProxiedRequest, ProxyRecord, ProxyRule } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import { useVirtualClock } from '../tools/virtual-clock';
import type { RunResult } from '../../harness';
import { byId, json } from '../../harness/workflows';
import { allText, credentialSecrets, expectNoSecrets as expectNoSecretsOf } from './no-secrets';
import type { steps } from '../../harness/workflows';

const px = useProxiedEnv({ demo: true });
const env = px.env;

const BIG = '1752587000000097005';
const BIG2 = '9007199254740993';
const JSON_TYPE = 'application/json;charset=UTF-8';

// ---------------------------------------------------------------- helpers

/** A made answer whose body is JSON text written by hand (numbers past 2^53 stay as written). */
const raw = (body: string, status = 200, headers?: Record<string, string>): MadeAnswer => ({
	status,
	contentType: JSON_TYPE,
	body,
	headers,
});

/** A rule that answers the requests `fn` gives an answer for (computed when the request arrives), others pass on. */
function answering(
	match: Pick<ProxyRule, 'method' | 'path'>,
	fn: (req: ProxiedRequest) => MadeAnswer | undefined,
): ProxyRule {
	const made: MadeAnswer = { status: 200, body: '' };
	return px.proxy.add({
		...match,
		test: (req) => {
			const answer = fn(req);
			if (!answer) return false;
			delete made.headers;
			delete made.contentType;
			Object.assign(made, answer);
			return true;
		},
		action: { answer: made },
	});
}

/** The proxy's records of one method and path pattern. */
const recs = (method: string, path: RegExp): ProxyRecord[] =>
	px.proxy.records.filter((r) => r.method === method && path.test(r.path));

const CONTINUE = { onError: 'continueRegularOutput' as const };

const expectNoSecrets = (result: RunResult): void => expectNoSecretsOf(env, result);

/** The run's error as one text (message and description). */
function errorText(result: RunResult, nodeName?: string): string {
	const error = result.error(nodeName) as (Error & { description?: string }) | undefined;
	return error ? `${error.message}\n${error.description ?? ''}` : '';
}

/** The text of an error item (Continue On Fail) or of a node's error. */
const itemError = (item: IDataObject): string => JSON.stringify(item.error ?? item);

const books = (resource: string) => env.areaSteps('vendorBooks', { resource });
const payments = env.areaSteps('vendorInvoice', { resource: 'payment' });
const billing = env.areaSteps('vendorBilling', { resource: 'project' });
const inventory = env.areaSteps('vendorInventory', { resource: 'bill' });
const projects = (resource: string) => env.areaSteps('vendorProjects', { resource });
const custom = (type: string) =>
	env.areaSteps(type, { resource: 'customApiCall', operation: 'customApiCall' });

/** The last path segment of every recorded request matching, as sent. */
const lastSegments = (method: string, path: RegExp): string[] =>
	recs(method, path).map((r) => r.path.split('/').pop() ?? '');

// ---------------------------------------------------------------- 1. ids past 2^53

describe('ids past 2^53 keep their exact digits (answers with JSON numbers)', () => {
	const listBody = (key: string, idKey: string, extra: string, page: string) =>
		`{"code":0,"message":"success","${key}":[{"${idKey}":${BIG},"name":"A"},{"${idKey}":${BIG2},"name":"B"}]${extra}${page}}`;
	const noMore = ',"page_context":{"page":1,"per_page":200,"has_more_page":false}';

	/**
	 * Get Many (Return All), Get by `{{ $json.<idField> }}`, Create (once), and Get of the created
	 * record by the same expression: no error; the ids each step output, and the created record.
	 */
	async function listGetCreateGet(
		step: ReturnType<typeof steps>,
		idField: string,
		getField: string,
		create: IDataObject,
	) {
		const byExpression = { [getField]: byId(`={{ $json.${idField} }}`) };
		const result = await env.run([
			step('List', { operation: 'getAll', returnAll: true }),
			step('Get', { operation: 'get', ...byExpression }),
			step('Create', { operation: 'create', ...create }, { executeOnce: true }),
			step('Get created', { operation: 'get', ...byExpression }),
		]);
		expect(errorText(result)).toBe('');
		const ids = (name: string) => json(result, name).map((i) => i[idField]);
		return { result, list: ids('List'), get: ids('Get'), created: json(result, 'Create')[0] };
	}

	/** Answers one record's GET with the id of its path written as a JSON number. */
	const recordById = (path: RegExp, key: string, idKey: string) =>
		answering({ method: 'GET', path }, (req) => {
			const id = req.path.split('/').pop() as string;
			return /^\d+$/.test(id)
				? raw(`{"code":0,"message":"success","${key}":{"${idKey}":${id},"name":"one"}}`)
				: undefined;
		});

	interface ChainCase {
		/** Answers the list, the create and the single reads with number ids. */
		answer: () => void;
		step: ReturnType<typeof steps>;
		idField: string;
		getField: string;
		create: IDataObject;
		created: IDataObject;
		/** The single reads' paths, and the ids they end with: the two listed, then the created one. */
		reads: RegExp;
		readIds: string[];
	}
	test.each<[string, ChainCase]>([
		[
			'Books item',
			{
				answer: () => {
					answering({ method: 'GET', path: /\/books\/v3\/items$/ }, () =>
						raw(listBody('items', 'item_id', '', noMore)),
					);
					answering({ method: 'POST', path: /\/books\/v3\/items$/ }, () =>
						raw(
							`{"code":0,"message":"The item has been added.","item":{"item_id":${BIG},"name":"New","tax_id":${BIG2}}}`,
							201,
						),
					);
					recordById(/\/books\/v3\/items\/\d+$/, 'item', 'item_id');
				},
				step: books('item'),
				idField: 'item_id',
				getField: 'item_id',
				create: { name: 'New' },
				created: { item_id: BIG, tax_id: BIG2 },
				reads: /\/items\/\d+$/,
				readIds: [BIG, BIG2, BIG],
			},
		],
		[
			'Invoice payment (payment_id documented as a string, answered as a number)',
			{
				answer: () => {
					answering({ method: 'GET', path: /\/invoice\/v3\/customerpayments$/ }, () =>
						raw(listBody('customerpayments', 'payment_id', '', '')),
					);
					answering({ method: 'POST', path: /\/invoice\/v3\/customerpayments$/ }, () =>
						raw(
							`{"code":0,"message":"recorded","payment":{"payment_id":${BIG},"amount":10,"customer_id":${BIG2}}}`,
							201,
						),
					);
					recordById(/\/invoice\/v3\/customerpayments\/\d+$/, 'payment', 'payment_id');
				},
				step: payments,
				idField: 'payment_id',
				getField: 'payment_id',
				create: { customer_id: '1100000000001', amount: 10, date: '2026-01-15' },
				created: { payment_id: BIG, customer_id: BIG2 },
				reads: /\/customerpayments\/\d+$/,
				readIds: [BIG, BIG2, BIG],
			},
		],
		[
			'Billing project (project_id documented as a string, answered as a number)',
			{
				answer: () => {
					answering({ method: 'GET', path: /\/billing\/v1\/projects$/ }, () =>
						raw(
							listBody(
								'projects',
								'project_id',
								'',
								',"page_context":{"page":1,"per_page":200,"has_more_page":false}',
							),
						),
					);
					answering({ method: 'POST', path: /\/billing\/v1\/projects$/ }, () =>
						raw(
							`{"code":0,"message":"created","project":{"project_id":${BIG2},"project_name":"P","customer_id":${BIG}}}`,
							201,
						),
					);
					recordById(/\/billing\/v1\/projects\/\d+$/, 'project', 'project_id');
				},
				step: billing,
				idField: 'project_id',
				getField: 'project_id',
				create: {
					project_name: 'P',
					customer_id: '1100000000001',
					billing_type: 'based_on_task_hours',
				},
				created: { project_id: BIG2, customer_id: BIG },
				reads: /\/billing\/v1\/projects\/\d+$/,
				readIds: [BIG, BIG2, BIG2],
			},
		],
		[
			'Projects project (ids documented as digit strings, answered as numbers)',
			{
				answer: () => {
					answering({ method: 'GET', path: /\/portal\/\d+\/projects$/ }, () =>
						raw(
							`{"projects":[{"id":${BIG},"name":"A"},{"id":${BIG2},"name":"B"}],"page_info":{"page":1,"per_page":200,"has_next_page":false}}`,
						),
					);
					answering({ method: 'POST', path: /\/portal\/\d+\/projects$/ }, () =>
						raw(`{"id":${BIG2},"name":"New","owner":{"zpuid":${BIG}}}`, 201),
					);
					answering({ method: 'GET', path: /\/portal\/\d+\/projects\/\d+$/ }, (req) =>
						raw(`{"id":${req.path.split('/').pop()},"name":"one"}`),
					);
				},
				step: projects('project'),
				idField: 'id',
				getField: 'project_id',
				create: { name: 'New' },
				created: { id: BIG2, owner: { zpuid: BIG } },
				reads: /\/projects\/\d+$/,
				readIds: [BIG, BIG2, BIG2],
			},
		],
	])(
		'%s: Get Many (Return All), Get, Create answered with number ids; the next Get by expression sends the same digits',
		async (_label, c) => {
			c.answer();
			const { result, list, get, created } = await listGetCreateGet(
				c.step,
				c.idField,
				c.getField,
				c.create,
			);
			expect([list, get]).toEqual([
				[BIG, BIG2],
				[BIG, BIG2],
			]);
			expect(created).toMatchObject(c.created);
			expect(lastSegments('GET', c.reads)).toEqual(c.readIds);
			expectNoSecrets(result);
		},
	);

	test('Books invoice: Get Many and Create with number ids; Update and Custom API Call by {{ $json.invoice_id }} send the digits, Custom API Call outputs them', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/invoices$/ }, () =>
			raw(
				listBody(
					'invoices',
					'invoice_id',
					'',
					',"page_context":[{"page":1,"per_page":200,"has_more_page":false}]',
				),
			),
		);
		answering({ method: 'POST', path: /\/books\/v3\/invoices$/ }, () =>
			raw(
				`{"code":0,"message":"created","invoice":{"invoice_id":${BIG},"customer_id":${BIG2},"total":5}}`,
				201,
			),
		);
		answering({ method: 'PUT', path: /\/books\/v3\/invoices\/\d+$/ }, (req) =>
			raw(
				`{"code":0,"message":"updated","invoice":{"invoice_id":${req.path.split('/').pop()},"notes":"n"}}`,
			),
		);
		recordById(/\/books\/v3\/invoices\/\d+$/, 'invoice', 'invoice_id');
		const invoice = books('invoice');
		const result = await env.run([
			invoice('List', { operation: 'getAll', returnAll: true }),
			invoice('Update', {
				operation: 'update',
				invoice_id: byId('={{ $json.invoice_id }}'),
				updateFields: { notes: 'n' },
			}),
			custom('vendorBooks')('Read', {
				customMethod: 'GET',
				customPath: '=/invoices/{{ $json.invoice_id }}',
			}),
			invoice(
				'Create',
				{
					operation: 'create',
					customer_id: '1100000000001',
					line_items: { values: [{ name: 'Work', rate: 5, quantity: 1 }] },
				},
				{ executeOnce: true },
			),
			custom('vendorBooks')('Read created', {
				customMethod: 'GET',
				customPath: '=/invoices/{{ $json.invoice_id }}',
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.invoice_id)).toEqual([BIG, BIG2]);
		expect(json(result, 'Update').map((i) => i.invoice_id)).toEqual([BIG, BIG2]);
		expect(
			json(result, 'Read').map((i) =>
				String((i.invoice as IDataObject | undefined)?.invoice_id ?? i.invoice_id),
			),
		).toEqual([BIG, BIG2]);
		expect(JSON.stringify(json(result, 'Read'))).not.toMatch(
			/175258700000009700[0-4,6-9]|9007199254740992/,
		);
		expect(json(result, 'Create')[0]).toMatchObject({ invoice_id: BIG, customer_id: BIG2 });
		expect(lastSegments('PUT', /\/invoices\/\d+$/)).toEqual([BIG, BIG2]);
		expect(lastSegments('GET', /\/invoices\/\d+$/)).toEqual([BIG, BIG2, BIG]);
		expectNoSecrets(result);
	});

	test('Inventory bill: Get Many and Create with number ids; Update by {{ $json.bill_id }} sends the digits in its path', async () => {
		answering({ method: 'GET', path: /\/inventory\/v1\/bills$/ }, () =>
			raw(
				listBody('bills', 'bill_id', `,"vendor_id":${BIG2}`, noMore).replace(
					/"name":"(A|B)"\}/g,
					`"name":"$1","vendor_id":${BIG2}}`,
				),
			),
		);
		answering({ method: 'POST', path: /\/inventory\/v1\/bills$/ }, () =>
			raw(
				`{"code":0,"message":"created","bill":{"bill_id":${BIG},"vendor_id":${BIG2},"line_items":[{"line_item_id":${BIG2},"name":"x"}]}}`,
				201,
			),
		);
		answering({ method: 'PUT', path: /\/inventory\/v1\/bills\/\d+$/ }, (req) =>
			raw(`{"code":0,"message":"updated","bill":{"bill_id":${req.path.split('/').pop()}}}`),
		);
		const bill = {
			vendor_id: '1800000000001',
			bill_number: 'B-1',
			date: '2026-01-15',
			due_date: '2026-02-15',
		};
		const line = { line_items: { values: [{ name: 'Paper', rate: 1, quantity: 1 }] } };
		const result = await env.run([
			inventory('List', { operation: 'getAll', returnAll: true }),
			inventory('Update', {
				operation: 'update',
				bill_id: byId('={{ $json.bill_id }}'),
				...bill,
				...line,
			}),
			inventory('Create', { operation: 'create', ...bill, ...line }, { executeOnce: true }),
			inventory('Update created', {
				operation: 'update',
				bill_id: byId('={{ $json.bill_id }}'),
				...bill,
				...line,
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => [i.bill_id, i.vendor_id])).toEqual([
			[BIG, BIG2],
			[BIG2, BIG2],
		]);
		expect(json(result, 'Create')[0]).toMatchObject({
			bill_id: BIG,
			vendor_id: BIG2,
			line_items: [{ line_item_id: BIG2 }],
		});
		expect(lastSegments('PUT', /\/bills\/\d+$/)).toEqual([BIG, BIG2, BIG]);
		expectNoSecrets(result);
	});

	test('Custom API Call (Return All and a single read) outputs the exact digits of number ids', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/items$/ }, () =>
			raw(listBody('items', 'item_id', '', noMore)),
		);
		answering({ method: 'GET', path: /\/portal\/\d+\/projects\/\d+$/ }, () =>
			raw(`{"id":${BIG},"owner":{"zpuid":${BIG2}}}`),
		);
		const result = await env.run([
			custom('vendorBooks')('Books', {
				customMethod: 'GET',
				customPath: '/items',
				customReturnAll: true,
			}),
			custom('vendorProjects')(
				'Projects',
				{ customMethod: 'GET', customPath: '=/portal/{portal_id}/projects/3000000000001' },
				{ executeOnce: true },
			),
		]);
		expect(errorText(result)).toBe('');
		const out = JSON.stringify(json(result, 'Books'));
		expect(out).toContain(BIG);
		expect(out).toContain(BIG2);
		expect(out).not.toMatch(/1752587000000097000|9007199254740992/);
		const project = JSON.stringify(json(result, 'Projects'));
		expect(project).toContain(BIG);
		expect(project).toContain(BIG2);
		expectNoSecrets(result);
	});

	test('ids past 2^53 taken from the previous node by expression reach a write body with their exact digits', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/items$/ }, () =>
			raw(
				`{"code":0,"message":"success","items":[{"item_id":${BIG},"name":"A","tax_id":${BIG2}}]${noMore}}`,
			),
		);
		answering({ method: 'POST', path: /\/books\/v3\/invoices$/ }, () =>
			raw(`{"code":0,"message":"created","invoice":{"invoice_id":${BIG}}}`, 201),
		);
		answering({ method: 'POST', path: /\/inventory\/v1\/bills$/ }, () =>
			raw(`{"code":0,"message":"created","bill":{"bill_id":${BIG2}}}`, 201),
		);
		answering({ method: 'POST', path: /\/customerpayments$/ }, () =>
			raw(`{"code":0,"message":"created","payment":{"payment_id":${BIG}}}`, 201),
		);
		const result = await env.run([
			books('item')('List', { operation: 'getAll', returnAll: true }),
			books('invoice')('Invoice', {
				operation: 'create',
				customer_id: "={{ $('List').item.json.item_id }}",
				line_items: {
					values: [
						{
							item_id: "={{ $('List').item.json.item_id }}",
							name: 'Line',
							rate: 1,
							quantity: 1,
							tax_id: "={{ $('List').item.json.tax_id }}",
						},
					],
				},
			}),
			inventory('Bill', {
				operation: 'create',
				vendor_id: "={{ $('List').item.json.item_id }}",
				bill_number: 'B-9',
				date: '2026-01-15',
				due_date: '2026-02-15',
				line_items: {
					values: [
						{
							name: 'Paper',
							rate: 1,
							quantity: 1,
							account_id: "={{ $('List').item.json.tax_id }}",
						},
					],
				},
			}),
			payments('Pay', {
				operation: 'create',
				customer_id: '1100000000001',
				amount: 1,
				date: '2026-01-15',
				invoices: {
					values: [{ invoice_id: "={{ $('Invoice').item.json.invoice_id }}", amount_applied: 1 }],
				},
			}),
		]);
		expect(errorText(result)).toBe('');
		const body = (path: RegExp) =>
			recs('POST', path)
				.map((r) => r.text)
				.join('');
		// the digits as sent, whether written as a JSON string or a JSON number; never rounded
		const exact = (text: string, digits: string) =>
			new RegExp(`[":]\\s*"?${digits}"?\\s*[,}\\]]`).test(text);
		expect(exact(body(/\/invoices$/), BIG)).toBe(true);
		expect(exact(body(/\/invoices$/), BIG2)).toBe(true);
		expect(exact(body(/\/bills$/), BIG)).toBe(true);
		expect(exact(body(/\/bills$/), BIG2)).toBe(true);
		expect(exact(body(/\/customerpayments$/), BIG)).toBe(true);
		for (const text of [body(/\/invoices$/), body(/\/bills$/), body(/\/customerpayments$/)])
			expect(text).not.toMatch(/1752587000000097000|9007199254740992/);
		expectNoSecrets(result);
	});

	test('Return All keeps records whose number ids differ only past 2^53 (…005, …006, …007 are one double): each output once, exact', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/items$/ }, (req) =>
			req.query.page === '2'
				? raw(
						'{"code":0,"message":"success","items":[{"item_id":1752587000000097007,"name":"C"}],"page_context":{"page":2,"per_page":200,"has_more_page":false}}',
					)
				: raw(
						'{"code":0,"message":"success","items":[{"item_id":1752587000000097005,"name":"A"},{"item_id":1752587000000097006,"name":"B"}],"page_context":{"page":1,"per_page":2,"has_more_page":true}}',
					),
		);
		const result = await env.run([books('item')('List', { operation: 'getAll', returnAll: true })]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.item_id)).toEqual([
			'1752587000000097005',
			'1752587000000097006',
			'1752587000000097007',
		]);
		expectNoSecrets(result);
	});

	test('an id given as the number 1752587000000097005 by an expression is refused naming the field, nothing sent', async () => {
		const result = await env.run([
			books('item')('Item', { operation: 'get', item_id: byId(`={{ ${BIG} }}`) }, CONTINUE),
			payments('Payment', { operation: 'get', payment_id: byId(`={{ ${BIG} }}`) }, CONTINUE),
			projects('project')(
				'Project',
				{ operation: 'get', project_id: byId(`={{ ${BIG} }}`) },
				CONTINUE,
			),
			billing('Billing', { operation: 'get', project_id: byId(`={{ ${BIG2} }}`) }, CONTINUE),
		]);
		expect(px.proxy.records).toEqual([]);
		for (const [name, label] of [
			['Item', 'Item ID'],
			['Payment', 'Payment ID'],
			['Project', 'Project'],
			['Billing', 'Project'],
		]) {
			const out = json(result, name);
			expect(out).toHaveLength(1);
			expect(out[0].error).toBeDefined();
			expect(itemError(out[0])).toContain(label);
		}
		expectNoSecrets(result);
	});

	test('an id given as the safe number 12345 by an expression is sent as "12345"', async () => {
		recordById(/\/books\/v3\/items\/\d+$/, 'item', 'item_id');
		recordById(/\/invoice\/v3\/customerpayments\/\d+$/, 'payment', 'payment_id');
		answering({ method: 'GET', path: /\/portal\/\d+\/projects\/\d+$/ }, (req) =>
			raw(`{"id":"${req.path.split('/').pop()}","name":"one"}`),
		);
		const result = await env.run([
			books('item')('Item', { operation: 'get', item_id: byId('={{ 12345 }}') }),
			payments('Payment', { operation: 'get', payment_id: byId('={{ 12345 }}') }),
			projects('project')('Project', { operation: 'get', project_id: byId('={{ 12345 }}') }),
		]);
		expect(errorText(result)).toBe('');
		expect(px.proxy.records.map((r) => r.path.split('/').slice(-2).join('/'))).toEqual([
			'items/12345',
			'customerpayments/12345',
			'projects/12345',
		]);
		expect(json(result, 'Item')[0].item_id).toBe(12345);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 2. redirects

describe('no redirect is followed: the token and a write body stay home', () => {
	interface Seen {
		method: string;
		url: string;
		headers: http.IncomingMessage['headers'];
		body: string;
	}
	const foreign: Seen[] = [];
	let server: http.Server;
	let elsewhere: string;
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				foreign.push({
					method: req.method ?? '',
					url: req.url ?? '',
					headers: req.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				});
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end('{"code":0,"message":"success","item":{"item_id":"1","name":"stolen"}}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		elsewhere = `127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	beforeEach(() => (foreign.length = 0));

	const redirect = (status: number, location: string): MadeAnswer => ({
		status,
		contentType: 'text/plain',
		body: `Moved to ${location}`,
		headers: { Location: location },
	});

	test('a read answered 302 to another host: that host receives nothing; the error names its host and path, not its query, and no token', async () => {
		px.proxy.add({
			method: 'GET',
			path: /\/items\/\d+$/,
			action: { answer: redirect(302, `http://${elsewhere}/collect/items?grab=QSECRET42`) },
		});
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId('1200000000001') }),
		]);
		const stored = String((env.credentials[0].data.oauthTokenData as IDataObject).access_token);
		// nothing went to the other host, and no token it gave was stored or used
		expect({ sentElsewhere: foreign, storedTokenFromElsewhere: stored === '1000.stolen' }).toEqual({
			sentElsewhere: [],
			storedTokenFromElsewhere: false,
		});
		expect(
			px.proxy.records.filter((r) => r.headers.authorization === 'Vendor-oauthtoken 1000.stolen'),
		).toEqual([]);
		expect(recs('GET', /\/items\/\d+$/)).toHaveLength(1);
		const text = errorText(result);
		expect(text).toContain(elsewhere);
		expect(text).toContain('/collect/items');
		expect(text).not.toContain('QSECRET42');
		expect(text).toMatch(/Data Center Region|address/i);
		expect(json(result, 'Get')).toEqual([]);
		expectNoSecrets(result);
	});

	test('a create answered 307 to another host: that host receives no body and no Authorization; not "Outcome unknown", not repeated', async () => {
		px.proxy.add({
			method: 'POST',
			path: /\/books\/v3\/items$/,
			action: {
				answer: redirect(
					307,
					`http://${elsewhere}/us/api/books/v3/items?organization_id=${env.org}`,
				),
			},
		});
		const result = await env.run([
			books('item')('Create', {
				operation: 'create',
				name: 'Redirected widget',
				additionalFields: { rate: 3 },
			}),
		]);
		expect(foreign).toEqual([]);
		expect(recs('POST', /\/items$/)).toHaveLength(1);
		const text = errorText(result);
		expect(text).toContain(elsewhere);
		expect(text).not.toMatch(/outcome unknown/i);
		expect(
			env
				.orgTenant()
				.all('items')
				.some((i) => i.name === 'Redirected widget'),
		).toBe(false);
		expectNoSecrets(result);
	});

	test('a payment create answered 308 to the same host (absolute and relative Location) is not followed either', async () => {
		px.proxy.add({
			method: 'POST',
			path: /\/customerpayments$/,
			nth: 1,
			action: { answer: redirect(308, `${px.proxy.url}/us/api/invoice/v3/customerpayments/moved`) },
		});
		px.proxy.add({
			method: 'POST',
			path: /\/customerpayments$/,
			nth: 1,
			action: { answer: redirect(301, '/us/api/invoice/v3/customerpayments/elsewhere') },
		});
		const pay = payments(
			'Pay',
			{ operation: 'create', customer_id: '1100000000001', amount: 7, date: '2026-01-15' },
			CONTINUE,
		);
		const result = await env.run([pay], [{ n: 1 }, { n: 2 }]);
		expect(px.proxy.records.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /us/api/invoice/v3/customerpayments',
			'POST /us/api/invoice/v3/customerpayments',
		]);
		const out = json(result, 'Pay');
		expect(out).toHaveLength(2);
		expect(itemError(out[0])).toContain('/us/api/invoice/v3/customerpayments/moved');
		expect(itemError(out[1])).toContain('/us/api/invoice/v3/customerpayments/elsewhere');
		for (const item of out) expect(itemError(item)).not.toMatch(/outcome unknown/i);
		expectNoSecrets(result);
	});

	test('Custom API Call (Books GET, Vendor Projects POST with a body) answered 302 / 307 to another host: nothing sent there, errors name where', async () => {
		px.proxy.add({
			method: 'GET',
			path: /\/books\/v3\/invoices\/\d+$/,
			action: { answer: redirect(302, `http://${elsewhere}/books/v3/invoices/1?t=QSECRET43`) },
		});
		px.proxy.add({
			method: 'POST',
			path: /\/portal\/\d+\/projects$/,
			action: { answer: redirect(307, `http://${elsewhere}/portal/projects`) },
		});
		const result = await env.run([
			custom('vendorBooks')(
				'Books',
				{ customMethod: 'GET', customPath: '/invoices/1400000000001' },
				CONTINUE,
			),
			custom('vendorProjects')(
				'Projects',
				{
					customMethod: 'POST',
					customPath: '/portal/{portal_id}/projects',
					customBodyType: 'json',
					customBody: '{"name":"Redirected"}',
				},
				CONTINUE,
			),
		]);
		expect(foreign).toEqual([]);
		expect(px.proxy.records).toHaveLength(2);
		for (const name of ['Books', 'Projects']) {
			const out = json(result, name);
			expect(out).toHaveLength(1);
			expect(itemError(out[0])).toContain(elsewhere);
			expect(itemError(out[0])).not.toMatch(/outcome unknown|QSECRET43/i);
		}
		expectNoSecrets(result);
	});

	test('Vendor Projects: a Delete Permanently (DELETE with a body) answered 303 to another host sends nothing there', async () => {
		px.proxy.add({
			method: 'DELETE',
			path: /\/bin$/,
			action: { answer: redirect(303, `http://${elsewhere}/bin?x=1`) },
		});
		const result = await env.run([
			projects('trash')('Delete', {
				operation: 'deletePermanently',
				trash_request_items: { values: [{ module: 'tasks', items: '3100000000009' }] },
			}),
		]);
		expect(foreign).toEqual([]);
		expect(recs('DELETE', /\/bin$/)).toHaveLength(1);
		expect(errorText(result)).toContain(elsewhere);
		expect(json(result, 'Delete')).toEqual([]);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 3. byte-order mark, leading whitespace

describe('a byte-order mark or whitespace before JSON is JSON', () => {
	const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
	const prefixed =
		(prefix: Buffer | string) =>
		(upstream: { status: number; body: Buffer }): MadeAnswer => ({
			status: upstream.status,
			contentType: JSON_TYPE,
			body: Buffer.concat([
				Buffer.isBuffer(prefix) ? prefix : Buffer.from(prefix, 'utf8'),
				upstream.body,
			]),
		});

	test('a Get answered with a BOM, CR LF and tabs before the JSON gives its record', async () => {
		px.proxy.add({
			method: 'GET',
			path: /\/items\/\d+$/,
			action: { replace: prefixed(Buffer.concat([BOM, Buffer.from('\r\n \t\n')])) },
		});
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId('1200000000001') }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Get')).toEqual([
			expect.objectContaining({ item_id: '1200000000001', name: 'Consulting hour' }),
		]);
		expect(recs('GET', /\/items\/\d+$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test('a create answered with a BOM and newlines before the JSON is a success, not "Outcome unknown", sent once', async () => {
		px.proxy.add({
			method: 'POST',
			path: /\/books\/v3\/items$/,
			action: { replace: prefixed(Buffer.concat([BOM, Buffer.from('\n\n   ')])) },
		});
		const result = await env.run([
			books('item')('Create', { operation: 'create', name: 'BOM widget' }),
		]);
		expect(errorText(result)).toBe('');
		const [item] = json(result, 'Create');
		expect(item).toMatchObject({ name: 'BOM widget' });
		expect(String(item.item_id)).toMatch(/^\d+$/);
		expect(recs('POST', /\/items$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test('Vendor Projects create and an Invoice payment list answered with leading whitespace give their records', async () => {
		px.proxy.add({
			method: 'POST',
			path: /\/portal\/\d+\/projects$/,
			action: { replace: prefixed('\n\r\n    ') },
		});
		px.proxy.add({
			method: 'GET',
			path: /\/customerpayments$/,
			action: { replace: prefixed(Buffer.concat([BOM, Buffer.from(' ')])) },
		});
		const result = await env.run([
			projects('project')('Create', { operation: 'create', name: 'Whitespace project' }),
			payments('List', { operation: 'getAll', returnAll: true }, { executeOnce: true }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Create')).toEqual([
			expect.objectContaining({ name: 'Whitespace project' }),
		]);
		expect(json(result, 'List').length).toBeGreaterThan(0);
		expect(json(result, 'List')[0]).toHaveProperty('payment_id');
		expect(recs('POST', /\/projects$/)).toHaveLength(1);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 4. Retry-After as an HTTP date

describe("Retry-After as an HTTP date, read against the answer's own Date", () => {
	// n8n's clock is one the test controls: the package's holds pass at once and move it on, so
	// "not sent before the date" is read on it (arrival times), not on this machine's speed
	useVirtualClock();
	afterEach(() => (px.proxy.serviceClock = undefined));

	interface Hold {
		/** n8n's time (Date.now()) when the 429 was answered. */
		at: number;
		/** When the hold lifts on n8n's clock: the answer's Date is whole seconds, so `at` less the part of a second cut off, plus the hold. */
		lifts: number;
	}

	/**
	 * Answers the first matching request 429 with `Date` = the service's time (n8n's + `skewMs`, whole
	 * seconds) and `Retry-After` = that Date + `holdMs` as an HTTP date; the service clock dates the other answers.
	 */
	function holdOnce(
		match: Pick<ProxyRule, 'method' | 'path'>,
		skewMs: number,
		holdMs: number,
		body: string,
	): Hold {
		px.proxy.serviceClock = () => Date.now() + skewMs;
		const hold: Hold = { at: 0, lifts: 0 };
		answering(match, () => {
			if (hold.at) return undefined;
			hold.at = Date.now();
			const service = hold.at + skewMs;
			const date = Math.floor(service / 1000) * 1000;
			hold.lifts = hold.at - (service - date) + holdMs;
			// lower-case `date`: it replaces the proxy's own Date header instead of adding a second one
			return raw(body, 429, {
				date: new Date(date).toUTCString(),
				'retry-after': new Date(date + holdMs).toUTCString(),
			});
		});
		return hold;
	}
	/** Rounding: a wait computed from whole milliseconds may end a millisecond or so before the date. */
	const ROUNDING = 5;

	test('Books read, service clock 5 minutes behind: the next request waits for the Retry-After date, then the records', async () => {
		const hold = holdOnce(
			{ method: 'GET', path: /\/books\/v3\/items$/ },
			-5 * 60_000,
			2000,
			'{"code":429,"message":"Too many requests"}',
		);
		const result = await env.run([
			books('item')('List', { operation: 'getAll', returnAll: false, limit: 3 }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List')).toHaveLength(3);
		const list = recs('GET', /\/books\/v3\/items$/);
		expect(list.map((r) => r.status)).toEqual([429, 200]);
		expect(list[1].arrivedAt).toBeGreaterThanOrEqual(hold.lifts - ROUNDING);
		expectNoSecrets(result);
	});

	test('Invoice payment create, service clock 5 minutes ahead: held until the Retry-After date, sent again once, one payment', async () => {
		const hold = holdOnce(
			{ method: 'POST', path: /\/customerpayments$/ },
			5 * 60_000,
			2000,
			'{"code":429,"message":"Too many requests"}',
		);
		const before = env.orgTenant().all('customerpayments').length;
		const result = await env.run([
			payments('Pay', {
				operation: 'create',
				customer_id: '1100000000001',
				amount: 11,
				date: '2026-01-15',
			}),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Pay')).toEqual([expect.objectContaining({ amount: 11 })]);
		const posts = recs('POST', /\/customerpayments$/);
		expect(posts.map((r) => r.status)).toEqual([429, 201]);
		expect(posts[1].arrivedAt).toBeGreaterThanOrEqual(hold.lifts - ROUNDING);
		expect(env.orgTenant().all('customerpayments').length).toBe(before + 1);
		expectNoSecrets(result);
	});

	test.each([
		['ahead', 5 * 60_000],
		['behind', -5 * 60_000],
	])(
		'Vendor Projects Get, service clock 5 minutes %s: a 429 with a Retry-After date 2 s on is waited out, not sent before',
		async (_label, skewMs) => {
			const hold = holdOnce(
				{ method: 'GET', path: /\/portal\/\d+\/projects\/\d+$/ },
				skewMs as number,
				2000,
				'{"errorCode":"TOO_MANY_REQUESTS","message":"Too many requests"}',
			);
			const result = await env.run([
				projects('project')('Get', { operation: 'get', project_id: byId('3000000000001') }),
			]);
			const gets = recs('GET', /\/projects\/\d+$/);
			expect(gets[0].status).toBe(429);
			for (const later of gets.slice(1))
				expect(later.arrivedAt).toBeGreaterThanOrEqual(hold.lifts - ROUNDING);
			expect(errorText(result)).toBe('');
			expect(json(result, 'Get')).toEqual([expect.objectContaining({ id: '3000000000001' })]);
			expectNoSecrets(result);
		},
	);

	test("Billing Get, service clock 5 minutes behind, Retry-After date 5 minutes on: an error saying when it lifts (n8n's time), nothing sent again", async () => {
		// another organization: the block this test causes must not hold the other tests' requests
		const org = '600000077';
		const hold = holdOnce(
			{ method: 'GET', path: /\/billing\/v1\/projects\/\d+$/ },
			-5 * 60_000,
			5 * 60_000,
			'{"code":429,"message":"Too many requests"}',
		);
		const result = await env.run([
			billing('Get', { organizationId: org, operation: 'get', project_id: byId('1600000000001') }),
		]);
		expect(recs('GET', /\/projects\/\d+$/)).toHaveLength(1);
		const text = errorText(result);
		const said = /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z/.exec(text);
		expect(said).not.toBeNull();
		// the lift on n8n's clock, to the second (the answer's Date has whole seconds)
		expect(Math.abs(Date.parse(`${said![1]}Z`) - hold.lifts)).toBeLessThanOrEqual(1000);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 5. status codes

describe('deletions and writes are done only when the answer proves it', () => {
	const trash = projects('trash');
	const deleteTwo = (name: string, settings = {}) =>
		trash(
			name,
			{
				operation: 'deletePermanently',
				trash_request_items: {
					values: [{ module: 'tasks', items: '3100000000009,3100000000010' }],
				},
			},
			settings,
		);

	test('Vendor Projects Delete Permanently answered 204 with no body and Empty Trash answered 204: deleted: true', async () => {
		px.proxy.add({
			method: 'DELETE',
			path: /\/bin$/,
			action: { answer: { status: 204, body: '' } },
		});
		px.proxy.add({
			method: 'DELETE',
			path: /\/empty-bin$/,
			action: { answer: { status: 204, body: '' } },
		});
		const result = await env.run([deleteTwo('Delete'), trash('Empty', { operation: 'emptyBin' })]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Delete')).toEqual([expect.objectContaining({ deleted: true })]);
		expect(json(result, 'Empty')).toEqual([expect.objectContaining({ deleted: true })]);
		expect(recs('DELETE', /\/bin$/)).toHaveLength(1);
		expect(recs('DELETE', /\/empty-bin$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test.each([206, 207])(
		'Vendor Projects deletions answered %i are never a plain success: Outcome unknown, not repeated',
		async (status) => {
			const body =
				status === 207
					? '{"results":[{"id":"3100000000009","status":200},{"id":"3100000000010","status":404}]}'
					: '{"count":1}';
			px.proxy.add({
				method: 'DELETE',
				path: /\/(bin|empty-bin)$/,
				action: { answer: raw(body, status) },
			});
			const result = await env.run([
				deleteTwo('Delete', CONTINUE),
				trash('Empty', { operation: 'emptyBin' }, CONTINUE),
			]);
			for (const name of ['Delete', 'Empty']) {
				const out = json(result, name);
				expect(out).toHaveLength(1);
				expect(out[0].deleted).toBeUndefined();
				expect(itemError(out[0])).toMatch(/outcome unknown/i);
			}
			expect(recs('DELETE', /\/bin$/)).toHaveLength(1);
			expect(recs('DELETE', /\/empty-bin$/)).toHaveLength(1);
			expectNoSecrets(result);
		},
	);

	test('Vendor Projects Delete Permanently of 2 records answered 200 with count 1: Outcome unknown', async () => {
		px.proxy.add({ method: 'DELETE', path: /\/bin$/, action: { answer: raw('{"count":1}') } });
		const result = await env.run([deleteTwo('Delete')]);
		expect(errorText(result)).toMatch(/outcome unknown/i);
		expect(json(result, 'Delete')).toEqual([]);
		expect(recs('DELETE', /\/bin$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test('a read answered 206 with a record in it is an error, not the record', async () => {
		px.proxy.add({
			method: 'GET',
			path: /\/items\/\d+$/,
			action: { replace: (u) => ({ status: 206, contentType: JSON_TYPE, body: u.body }) },
		});
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId('1200000000001') }, CONTINUE),
		]);
		const out = json(result, 'Get');
		expect(out).toHaveLength(1);
		expect(out[0].error).toBeDefined();
		expect(out[0].item_id).toBeUndefined();
		expectNoSecrets(result);
	});

	test('accounting writes answered 206 / 207 with the record, and a deletion answered 204, are Outcome unknown; a list answered 207 is an error', async () => {
		px.proxy.add({
			method: 'POST',
			path: /\/books\/v3\/items$/,
			action: { replace: (u) => ({ status: 206, contentType: JSON_TYPE, body: u.body }) },
		});
		px.proxy.add({
			method: 'POST',
			path: /\/customerpayments$/,
			action: { replace: (u) => ({ status: 207, contentType: JSON_TYPE, body: u.body }) },
		});
		px.proxy.add({
			method: 'DELETE',
			path: /\/items\/\d+$/,
			action: { answer: { status: 204, body: '' } },
		});
		px.proxy.add({
			method: 'GET',
			path: /\/billing\/v1\/projects$/,
			action: { replace: (u) => ({ status: 207, contentType: JSON_TYPE, body: u.body }) },
		});
		const result = await env.run([
			books('item')('Create', { operation: 'create', name: 'Partly made' }, CONTINUE),
			payments(
				'Pay',
				{ operation: 'create', customer_id: '1100000000001', amount: 3, date: '2026-01-15' },
				CONTINUE,
			),
			books('item')('Delete', { operation: 'delete', item_id: byId('1200000000003') }, CONTINUE),
			billing('List', { operation: 'getAll', returnAll: true }, CONTINUE),
		]);
		for (const name of ['Create', 'Pay', 'Delete']) {
			const out = json(result, name);
			expect([name, out.length]).toEqual([name, 1]);
			expect([name, itemError(out[0])]).toEqual([name, expect.stringMatching(/outcome unknown/i)]);
			expect(out[0].deleted).toBeUndefined();
		}
		const list = json(result, 'List');
		expect(list.some((i) => i.error !== undefined)).toBe(true);
		expect(list.some((i) => i.project_id !== undefined)).toBe(false);
		expect(recs('POST', /\/items$/)).toHaveLength(1);
		expect(recs('POST', /\/customerpayments$/)).toHaveLength(1);
		expect(recs('DELETE', /\/items\/\d+$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test("a create answered 200 with a proxy's HTML page is Outcome unknown and not repeated (Books, Vendor Projects, Custom API Call)", async () => {
		const page = {
			status: 200,
			contentType: 'text/html; charset=utf-8',
			body: '<!DOCTYPE html><html><body><h1>Gateway</h1>Please wait...</body></html>',
		};
		px.proxy.add({ method: 'POST', path: /\/books\/v3\/items$/, action: { answer: page } });
		px.proxy.add({ method: 'POST', path: /\/portal\/\d+\/projects$/, action: { answer: page } });
		const result = await env.run([
			books('item')('Create', { operation: 'create', name: 'Behind a proxy' }, CONTINUE),
			projects('project')('Project', { operation: 'create', name: 'Behind a proxy' }, CONTINUE),
			custom('vendorBooks')(
				'Custom',
				{
					customMethod: 'POST',
					customPath: '/items',
					customBodyType: 'json',
					customBody: '{"name":"Behind a proxy"}',
				},
				CONTINUE,
			),
		]);
		for (const name of ['Create', 'Project', 'Custom']) {
			const out = json(result, name);
			expect(out).toHaveLength(1);
			expect(itemError(out[0])).toMatch(/outcome unknown/i);
			expect(itemError(out[0])).toMatch(/html/i);
		}
		expect(recs('POST', /\/items$/)).toHaveLength(2);
		expect(recs('POST', /\/projects$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test('Custom API Call: a DELETE answered 206 and a read answered code 0 with an "invalid" message are errors, not done', async () => {
		px.proxy.add({
			method: 'DELETE',
			path: /\/items\/\d+$/,
			action: { answer: raw('{"code":0,"message":"The item has been deleted."}', 206) },
		});
		px.proxy.add({
			method: 'GET',
			path: /\/estimates\/print$/,
			action: { answer: raw('{"code":0,"message":"Invalid value passed for estimate_ids"}') },
		});
		const result = await env.run([
			custom('vendorBooks')(
				'Delete',
				{ customMethod: 'DELETE', customPath: '/items/1200000000004' },
				CONTINUE,
			),
			custom('vendorBooks')(
				'Print',
				{
					customMethod: 'GET',
					customPath: '/estimates/print',
					customQuery: { parameters: [{ name: 'estimate_ids', value: 'x' }] },
				},
				CONTINUE,
			),
		]);
		for (const name of ['Delete', 'Print']) {
			const out = json(result, name);
			expect(out).toHaveLength(1);
			expect([name, out[0].error]).toEqual([name, expect.anything()]);
		}
		expect(itemError(json(result, 'Delete')[0])).toMatch(/outcome unknown/i);
		expect(itemError(json(result, 'Print')[0])).toMatch(/invalid/i);
		expect(recs('DELETE', /\/items\/\d+$/)).toHaveLength(1);
		expectNoSecrets(result);
	});

	test("a read answered once with a proxy's HTML page is read again and gives its record", async () => {
		px.proxy.add({
			method: 'GET',
			path: /\/items\/\d+$/,
			nth: 1,
			action: {
				answer: {
					status: 200,
					contentType: 'text/html',
					body: '<html><body>Service temporarily unavailable</body></html>',
				},
			},
		});
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId('1200000000001') }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'Get')).toEqual([expect.objectContaining({ item_id: '1200000000001' })]);
		expect(recs('GET', /\/items\/\d+$/)).toHaveLength(2);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 6. pages that shift under Return All

describe('Return All outputs each record once when pages shift', () => {
	/** `n` records of a list, numbered from `from`, as JSON text members `{"<idKey>":"<prefix><n>","name":"R<n>"}`. */
	const records = (idKey: string, prefix: string, from: number, to: number) =>
		Array.from(
			{ length: to - from + 1 },
			(_, i) => `{"${idKey}":"${prefix}${from + i}","name":"R${from + i}"}`,
		).join(',');
	const ids = (prefix: string, from: number, to: number) =>
		Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
	const pageOf = (req: ProxiedRequest) => Number(req.query.page ?? '1');

	test('Books items: a record inserted at the top between page 1 and page 2: none twice, none missing', async () => {
		// page 1 read: R1..R200; then N is inserted at the top, so page 2 holds R200..R350
		answering({ method: 'GET', path: /\/books\/v3\/items$/ }, (req) => {
			const ctx = (page: number, more: boolean) =>
				`"page_context":{"page":${page},"per_page":200,"has_more_page":${more},"report_name":"Items","sort_column":"created_time","sort_order":"D"}`;
			if (pageOf(req) === 1)
				return raw(
					`{"code":0,"message":"success","items":[${records('item_id', '51000', 1, 200)}],${ctx(1, true)}}`,
				);
			if (pageOf(req) === 2)
				return raw(
					`{"code":0,"message":"success","items":[${records('item_id', '51000', 200, 350)}],${ctx(2, false)}}`,
				);
			return raw(`{"code":0,"message":"success","items":[],${ctx(pageOf(req), false)}}`);
		});
		const result = await env.run([books('item')('List', { operation: 'getAll', returnAll: true })]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.item_id)).toEqual(ids('51000', 1, 350));
		expect(recs('GET', /\/items$/).map((r) => r.query.page)).toEqual(['1', '2']);
		expectNoSecrets(result);
	});

	test('Books invoices: pages shorter than asked while page_context says more follow are read on', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/invoices$/ }, (req) => {
			const page = pageOf(req);
			const [from, to, more] =
				page === 1 ? [1, 120, true] : page === 2 ? [121, 240, true] : [241, 250, false];
			return raw(
				`{"code":0,"message":"success","invoices":[${records('invoice_id', '52000', from, to)}],"page_context":[{"page":${page},"per_page":200,"has_more_page":${more},"applied_filter":"Status.All"}]}`,
			);
		});
		const result = await env.run([
			books('invoice')('List', { operation: 'getAll', returnAll: true }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.invoice_id)).toEqual(ids('52000', 1, 250));
		expect(recs('GET', /\/invoices$/).map((r) => r.query.page)).toEqual(['1', '2', '3']);
		expectNoSecrets(result);
	});

	test('Vendor Projects projects: pages of 100 saying has_next_page, a project created at the top after page 1: each once, none missing', async () => {
		answering({ method: 'GET', path: /\/portal\/\d+\/projects$/ }, (req) => {
			const page = pageOf(req);
			const [from, to, more] =
				page === 1 ? [1, 100, true] : page === 2 ? [100, 199, true] : [200, 230, false];
			return raw(
				`{"projects":[${records('id', '53000', from, to)}],"page_info":{"page":${page},"per_page":100,"has_next_page":${more}}}`,
			);
		});
		const result = await env.run([
			projects('project')('List', { operation: 'getAll', returnAll: true }),
		]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.id)).toEqual(ids('53000', 1, 230));
		expect(recs('GET', /\/projects$/)).toHaveLength(3);
		expectNoSecrets(result);
	});

	test('Billing projects: two created at the top between pages: each once, none missing', async () => {
		answering({ method: 'GET', path: /\/billing\/v1\/projects$/ }, (req) => {
			const page = pageOf(req);
			const [from, to, more] = page === 1 ? [1, 200, true] : [199, 300, false];
			return raw(
				`{"code":0,"message":"success","projects":[${records('project_id', '54000', from, to)}],"page_context":{"page":${page},"per_page":200,"has_more_page":${more}}}`,
			);
		});
		const result = await env.run([billing('List', { operation: 'getAll', returnAll: true })]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.project_id)).toEqual(ids('54000', 1, 300));
		expectNoSecrets(result);
	});

	test('Custom API Call Return All over Books items shifting between pages: each record once, none missing', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/items$/ }, (req) => {
			const page = pageOf(req);
			const [from, to, more] = page === 1 ? [1, 200, true] : [199, 260, false];
			return raw(
				`{"code":0,"message":"success","items":[${records('item_id', '57000', from, to)}],"page_context":{"page":${page},"per_page":200,"has_more_page":${more}}}`,
			);
		});
		const result = await env.run([
			custom('vendorBooks')('Call', {
				customMethod: 'GET',
				customPath: '/items',
				customReturnAll: true,
			}),
		]);
		expect(errorText(result)).toBe('');
		const out = json(result, 'Call');
		const listed = out
			.flatMap((i) => (Array.isArray(i.items) ? (i.items as IDataObject[]) : [i]))
			.map((i) => i.item_id);
		expect(listed).toEqual(ids('57000', 1, 260));
		expectNoSecrets(result);
	});

	test('a payments server ignoring `page` (always page 1, no page_context): the read ends, nothing repeated', async () => {
		answering({ method: 'GET', path: /\/invoice\/v3\/customerpayments$/ }, () =>
			raw(
				`{"code":0,"message":"success","customerpayments":[${records('payment_id', '55000', 1, 200)}]}`,
			),
		);
		const result = await env.run([payments('List', { operation: 'getAll', returnAll: true })]);
		expect(errorText(result)).toBe('');
		expect(json(result, 'List').map((i) => i.payment_id)).toEqual(ids('55000', 1, 200));
		expect(recs('GET', /\/customerpayments$/).length).toBeLessThanOrEqual(3);
		expectNoSecrets(result);
	});

	test('a Books server ignoring `page` while saying more follow: the read ends (with an error), no record output twice', async () => {
		answering({ method: 'GET', path: /\/books\/v3\/items$/ }, () =>
			raw(
				`{"code":0,"message":"success","items":[${records('item_id', '56000', 1, 200)}],"page_context":{"page":1,"per_page":200,"has_more_page":true}}`,
			),
		);
		const result = await env.run([
			books('item')('List', { operation: 'getAll', returnAll: true }, CONTINUE),
		]);
		const out = json(result, 'List');
		const listed = out.filter((i) => i.item_id !== undefined).map((i) => i.item_id);
		expect(new Set(listed).size).toBe(listed.length);
		expect(out.some((i) => i.error !== undefined)).toBe(true);
		expect(recs('GET', /\/items$/).length).toBeLessThanOrEqual(4);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 8. every input item an output or an error

describe('every input item gives an output or an error, whatever type an expression yields', () => {
	// the last: a list holding a number past 2^53 (its digits already lost): refused, never sent as other digits
	const inputs = [
		{ ids: 1400000000001 },
		{ ids: ['1400000000001', '1400000000002'] },
		{ ids: { invoice_id: '1400000000001' } },
		{ ids: null },
		{ ids: true },
		{ ids: [1400000000003, Number(BIG)] },
	];
	const recordById_ = (path: RegExp) =>
		answering({ method: 'GET', path }, (req) =>
			raw(
				`{"code":0,"message":"success","item":{"item_id":"${req.path.split('/').pop()}","name":"one"}}`,
			),
		);
	const pairedTo = (result: RunResult, name: string) =>
		result
			.output(name)
			.map(
				(i) =>
					(Array.isArray(i.pairedItem) ? i.pairedItem[0] : i.pairedItem) as
						| { item: number }
						| undefined,
			)
			.map((p) => p?.item);

	test.each([
		['print', /\/invoices\/print$/, 'GET'],
		['bulkReminder', /\/invoices\/paymentreminder$/, 'POST'],
	])(
		'Invoice %s with Invoice IDs from a number, an array, an object, null, true, a list with a number past 2^53 (Continue On Fail)',
		async (operation, path, method) => {
			const result = await env.run(
				[books('invoice')('Op', { operation, invoice_ids: '={{ $json.ids }}' }, CONTINUE)],
				inputs,
			);
			expect(errorText(result)).toBe('');
			const paired = pairedTo(result, 'Op');
			for (const i of inputs.keys()) expect([i, paired.includes(i)]).toEqual([i, true]);
			const out = json(result, 'Op');
			const ofItem = (i: number) => out.filter((_, k) => paired[k] === i);
			// the number is sent as its digits, the array as a list
			const sent = recs(method, path).map((r) => r.query.invoice_ids);
			expect(sent).toContain('1400000000001');
			expect(sent).toContain('1400000000001,1400000000002');
			for (const i of [0, 1]) expect(ofItem(i).some((o) => o.error === undefined)).toBe(true);
			// the object is refused naming the field and what it got
			expect(ofItem(2).map(itemError).join(' ')).toMatch(/Invoice IDs/);
			expect(ofItem(2).map(itemError).join(' ')).toMatch(/object/);
			for (const i of [3, 4, 5])
				expect([i, ofItem(i).every((o) => o.error !== undefined)]).toEqual([i, true]);
			expect(ofItem(5).map(itemError).join(' ')).toMatch(/Invoice IDs/);
			expect(sent).toHaveLength(2);
			expectNoSecrets(result);
		},
	);

	test('a single ID from an expression giving an array, an object, null, a fraction, true: each item an output or an error naming the field', async () => {
		recordById_(/\/books\/v3\/items\/\d+$/);
		const values = [['1200000000001'], { id: '1200000000001' }, null, 12.5, true, 1200000000002];
		const result = await env.run(
			[books('item')('Get', { operation: 'get', item_id: byId('={{ $json.v }}') }, CONTINUE)],
			values.map((v) => ({ v })),
		);
		const out = json(result, 'Get');
		const paired = pairedTo(result, 'Get');
		for (const i of values.keys()) expect([i, paired.includes(i)]).toEqual([i, true]);
		for (const i of [1, 2, 3, 4])
			expect([
				i,
				out
					.filter((_, k) => paired[k] === i)
					.map(itemError)
					.join(' '),
			]).toEqual([i, expect.stringContaining('Item ID')]);
		expect(out[paired.indexOf(5)].item_id).toBeDefined();
		// an array of one id is that id or refused; never a path of "a,b" or "[object Object]"
		for (const r of recs('GET', /\/items\//)) expect(r.path).toMatch(/\/items\/\d+$/);
		expectNoSecrets(result);
	});

	test('Vendor Projects project name of 101 emoji (202 as the API counts) is refused saying how it counts; 100 emoji (200) is sent', async () => {
		const result = await env.run(
			[projects('project')('Create', { operation: 'create', name: '={{ $json.name }}' }, CONTINUE)],
			[{ name: '😀'.repeat(101) }, { name: '😀'.repeat(100) }],
		);
		const out = json(result, 'Create');
		expect(out).toHaveLength(2);
		const refused = itemError(out[0]);
		expect(refused).toMatch(/Name|name/);
		expect(refused).toMatch(/202/);
		expect(refused).toMatch(/200/);
		expect(refused).toMatch(/emoji|count/i);
		const posts = recs('POST', /\/projects$/);
		expect(posts).toHaveLength(1);
		expect((posts[0].json as IDataObject).name).toBe('😀'.repeat(100));
		expectNoSecrets(result);
	});

	test('Billing project name of 51 emoji (102 as the API counts, max 100) is refused before sending, saying how it counts', async () => {
		const result = await env.run([
			billing(
				'Create',
				{
					operation: 'create',
					project_name: '😀'.repeat(51),
					customer_id: '1100000000001',
					billing_type: 'based_on_task_hours',
				},
				CONTINUE,
			),
		]);
		const out = json(result, 'Create');
		expect(out).toHaveLength(1);
		expect(itemError(out[0])).toMatch(/102/);
		expect(itemError(out[0])).toMatch(/emoji|count/i);
		expect(px.proxy.records).toEqual([]);
		expectNoSecrets(result);
	});
});

// ---------------------------------------------------------------- 9. secrets through a token refresh (last: a refused refresh is remembered)

describe('the refresh token and the client secret stay home when a refresh goes wrong', () => {
	const foreign: string[] = [];
	let server: http.Server;
	let elsewhere: string;
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				foreign.push(
					`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${Buffer.concat(chunks).toString('utf8')}`,
				);
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end('{"access_token":"1000.stolen","expires_in":3600,"token_type":"Bearer"}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		elsewhere = `127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	/** A reconnect: new tokens stored in the credential (a refused refresh is not held against them). */
	function reconnect(): void {
		const data = env.credentials[0].data as IDataObject;
		const tokens = env.em.issueToken({ region: 'us' }) as unknown as IDataObject;
		const apiDomain =
			typeof tokens.api_domain === 'string'
				? tokens.api_domain.replace(env.em.url, px.proxy.url)
				: undefined;
		data.oauthTokenData = { ...tokens, ...(apiDomain ? { api_domain: apiDomain } : {}) };
	}
	const expired = raw(
		'{"code":57,"message":"You are not authorized to perform this operation","errorCode":"INVALID_OAUTHTOKEN"}',
		401,
	);

	test('a 401, then the token endpoint answers 307 to another host: that host gets no refresh token or secret; the error says to reconnect', async () => {
		reconnect();
		const before = credentialSecrets(env);
		px.proxy.add({ method: 'GET', path: /\/items\/\d+$/, nth: 1, action: { answer: expired } });
		px.proxy.add({
			method: 'POST',
			path: /\/oauth\/v2\/token$/,
			action: {
				answer: {
					status: 307,
					contentType: 'text/plain',
					body: 'moved',
					headers: { Location: `http://${elsewhere}/oauth/v2/token` },
				},
			},
		});
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId('1200000000001') }),
		]);
		const stored = String((env.credentials[0].data.oauthTokenData as IDataObject).access_token);
		// nothing went to the other host, and no token it gave was stored or used
		expect({ sentElsewhere: foreign, storedTokenFromElsewhere: stored === '1000.stolen' }).toEqual({
			sentElsewhere: [],
			storedTokenFromElsewhere: false,
		});
		expect(
			px.proxy.records.filter((r) => r.headers.authorization === 'Vendor-oauthtoken 1000.stolen'),
		).toEqual([]);
		expect(json(result, 'Get')).toEqual([]);
		expect(errorText(result)).toMatch(/reconnect/i);
		const text = allText(result.run.data.resultData) + allText(result.error());
		for (const secret of before)
			expect(text.includes(secret) ? 'leaks' : 'no secret').toBe('no secret');
		expect(recs('POST', /\/oauth\/v2\/token$/).length).toBeGreaterThanOrEqual(1);
	});

	test('a 401, then the token endpoint refuses (400 invalid_code): the error names the cause and holds no token or secret', async () => {
		reconnect();
		const before = credentialSecrets(env);
		px.proxy.add({ method: 'GET', path: /\/items\/\d+$/, nth: 1, action: { answer: expired } });
		px.proxy.add({
			method: 'POST',
			path: /\/oauth\/v2\/token$/,
			action: { answer: raw('{"error":"invalid_code"}', 400) },
		});
		const result = await env.run([
			books('item')('Get', { operation: 'get', item_id: byId('1200000000001') }),
		]);
		expect(json(result, 'Get')).toEqual([]);
		expect(errorText(result)).toMatch(/reconnect/i);
		expect(errorText(result)).toContain('invalid_code');
		const text = allText(result.run.data.resultData) + allText(result.error());
		for (const secret of before)
			expect(text.includes(secret) ? 'leaks' : 'no secret').toBe('no secret');
		reconnect();
	});
});
