/**
 * Every refusal of the emulator names its source, the table-driven ones too: the
 * server's own refusals (token, scope, URL, method, organisation, portal, rate limits, a body
 * that is not JSON, keys no table names) and the field tables' validation, which cites the
 * source of the table rule it applies (the `sources` of the rule's field or operation). Each source passes the
 * checker of test/tools/doc-sources.ts. The table-wide part breaks every rule of every field of
 * every operation and asks for each problem's source; the canaries show that a rule without a
 * source fails, and that over HTTP such a refusal is a 500.
 * Run: npx jest test/emulator/table-sources --maxWorkers=1
 */
import { DEMO } from '../../emulator/demo-data';
import { AREAS } from '../../emulator/routes';
import {
	citing,
	PIPELINE,
	problemField,
	problemSource,
	requireSource,
	ruleSource,
} from '../../emulator/rules/table-sources';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';
import { SOURCE_HEADER } from '../../emulator/source';
import type { Field, Operation } from '../../nodes/shared/tables/spec';
import { validateValues } from '../../nodes/shared/tables/validate';
import { sourceProblems } from '../tools/doc-sources';

const HEADER = SOURCE_HEADER.toLowerCase();

/** Values that break each rule `field` carries (the field's own value). */
function breaking(field: Field): unknown[] {
	const out: unknown[] = [];
	if (field.maxLength !== undefined) out.push('x'.repeat(field.maxLength + 1));
	if (field.minLength !== undefined && field.minLength > 1) out.push('1');
	if (field.type === 'enum' && field.values?.length && !field.openValues)
		out.push('not-a-listed-value');
	if (field.numeric) out.push('abc');
	if (field.min !== undefined) out.push(field.numeric ? String(field.min - 1) : field.min - 1);
	if (field.max !== undefined) out.push(field.max + 1);
	if (field.maxDigits !== undefined) out.push(Number('9'.repeat(field.maxDigits + 1)));
	if (field.minItems !== undefined && field.minItems > 0) out.push([]);
	if (field.maxItems !== undefined)
		out.push(Array.from({ length: field.maxItems + 1 }, () => (field.fields ? {} : '1')));
	const formats: Partial<Record<Field['type'], unknown>> = {
		date: '2026/01/31',
		dateTime: '2026-01-31',
		time: '9h',
		email: 'nobody',
		url: 'not a url',
		phone: 'abc',
		integer: 1.5,
		number: 'ten',
		boolean: 'maybe',
		object: 'text',
		array: 'text',
	};
	if (field.type in formats) out.push(formats[field.type]);
	if (field.type === 'id') out.push('..');
	return out;
}

/** Values of `field` holding a member (or an entry) that breaks a rule, and each member left out. */
function nested(field: Field): unknown[] {
	const members = field.fields ?? [];
	const wrap = (entry: unknown): unknown => (field.type === 'array' ? [entry] : entry);
	const out: unknown[] = [wrap({})];
	for (const m of members)
		for (const v of [...breaking(m), ...nested(m)]) out.push(wrap({ [m.name]: v }));
	if (field.of) for (const v of breaking(field.of)) out.push([v]);
	return out;
}

/** Every problem the server's validation finds when each rule of `op` is broken in turn. */
function problemsOf(op: Operation): ReturnType<typeof validateValues> {
	const cases: Array<Record<string, unknown>> = [{}];
	for (const f of op.fields)
		for (const v of [...breaking(f), ...nested(f)]) cases.push({ [f.name]: v });
	return cases.flatMap((values) => validateValues(op, values, 'server'));
}

const OPERATIONS = AREAS.flatMap((area) =>
	area.resources.flatMap((resource) => resource.operations.map((op) => ({ area, resource, op }))),
);

/** The problems found with every rule of every operation broken in turn (how many), and those without a good source. */
function unsourced(): { count: number; missing: string[] } {
	let count = 0;
	const missing: string[] = [];
	for (const { area, resource, op } of OPERATIONS) {
		for (const p of problemsOf(op)) {
			count++;
			const source = problemSource(op, p);
			const where = `${area.value}.${resource.value}.${op.value} ${p.field} ${p.message}`;
			if (!source) missing.push(`${where}: no source`);
			else missing.push(...sourceProblems(source).map((problem) => `${where}: ${problem}`));
		}
	}
	return { count, missing: [...new Set(missing)] };
}

describe("the field tables' refusals cite the source of the rule they apply", () => {
	test('every problem of every operation, each rule broken in turn, has a source that passes the checker', () => {
		const { count, missing } = unsourced();
		expect(count).toBeGreaterThan(500);
		expect(missing).toEqual([]);
	});

	test("the pipeline's own sources pass the checker", () => {
		expect(Object.values(PIPELINE).flatMap((s) => sourceProblems(s))).toEqual([]);
	});

	test('a problem is told to its rule: the field path through entries and scalar lists, the rule by its words', () => {
		const books = AREAS.find((a) => a.value === 'books');
		const invoice = books?.resources.find((r) => r.value === 'invoice');
		const email = invoice?.operations.find((o) => o.value === 'sendEmail') as Operation;
		const toMailIds = email.fields.find((f) => f.name === 'to_mail_ids') as Field;
		expect(problemField(email.fields, 'to_mail_ids[1]')).toEqual({
			field: toMailIds.of,
			top: false,
		});
		expect(problemField(email.fields, 'to_mail_ids')).toEqual({ field: toMailIds, top: true });
		const create = invoice?.operations.find((o) => o.value === 'create') as Operation;
		const lineItems = create.fields.find((f) => f.name === 'line_items') as Field;
		expect(problemField(create.fields, 'line_items[0].item_id')).toEqual({
			field: lineItems.fields?.find((f) => f.name === 'item_id'),
			top: false,
		});
		expect(problemField(create.fields, 'purple')).toBeUndefined();
		const item = books?.resources.find((r) => r.value === 'item');
		const list = item?.operations.find((o) => o.value === 'getAll') as Operation;
		expect(
			problemSource(list, { field: 'name_contains', message: 'must be at most 100 characters' }),
		).toMatch(/^guess: The 100-character limit/);
		expect(problemSource(list, { field: 'name_contains', message: 'must be a number' })).toBe(
			PIPELINE.tableShape,
		);
		// a path parameter's `required` is its operation's endpoint; its other rules, the field's
		const get = item?.operations.find((o) => o.value === 'get') as Operation;
		expect(problemSource(get, { field: 'item_id', message: 'is required' })).toBe(
			'Accounting, Items: "GET | /items/{item_id}"',
		);
		expect(problemSource(get, { field: 'item_id', message: 'must be an ID made of digits' })).toBe(
			'Accounting, Item: "item_id | number"',
		);
	});
});

describe('canaries: a refusal without a source is caught', () => {
	test("a source taken off a table's field fails the table-wide check, naming the refusal", () => {
		const list = AREAS.find((a) => a.value === 'books')
			?.resources.find((r) => r.value === 'item')
			?.operations.find((o) => o.value === 'getAll') as Operation;
		const field = list.fields.find((f) => f.name === 'name_contains') as Field;
		const kept = field.sources;
		delete field.sources;
		try {
			expect(unsourced().missing).toEqual([
				expect.stringMatching(
					/^books\.item\.getAll name_contains must be at most 100 characters.*: no source$/,
				),
			]);
		} finally {
			field.sources = kept;
		}
	});

	test("a rule the sources do not give has no source, and the server's check throws on an untagged refusal", () => {
		const books = AREAS.find((a) => a.value === 'books');
		const item = books?.resources.find((r) => r.value === 'item');
		const create = item?.operations.find((o) => o.value === 'create') as Operation;
		// `sku` carries no length rule, so no source gives one
		expect(
			problemSource(create, { field: 'sku', message: 'must be at most 3 characters' }),
		).toBeUndefined();
		expect(() => requireSource('canary', { status: 400, json: { code: 2 } })).toThrow(
			'canary: a refusal (HTTP 400) names no source',
		);
		expect(requireSource('canary', citing(PIPELINE.url, { status: 404, json: {} })).source).toBe(
			PIPELINE.url,
		);
		expect(requireSource('canary', { status: 200, json: { code: 0 } }).status).toBe(200);
	});
});

describe('over HTTP: each refusal carries its source', () => {
	let em: Emulator;
	let call: ReturnType<typeof apiClient>;
	const sourced = (r: { status: number; headers: Record<string, string> }): [number, string[]] => [
		r.status,
		sourceProblems(r.headers[HEADER]),
	];

	beforeAll(async () => {
		em = await startEmulator({ demo: true });
		call = apiClient(em, { token: em.issueToken().access_token });
	});
	afterAll(async () => {
		await em.close();
	});

	test('token, scope, URL, method, organisation and portal refusals cite the documents', async () => {
		const noToken = await call('GET', 'books', '/items', { token: null });
		expect([noToken.status, noToken.headers[HEADER]]).toEqual([401, PIPELINE.token]);
		const narrow = em.issueToken({ scopes: ['VendorBooks.settings.READ'] }).access_token;
		const scope = await call('GET', 'books', '/invoices', { token: narrow });
		expect([scope.status, scope.headers[HEADER]]).toEqual([403, PIPELINE.scope]);
		expect(sourced(await call('GET', 'books', '/nowhere'))).toEqual([404, []]);
		expect(sourced(await call('PATCH', 'books', '/items'))).toEqual([405, []]);
		const noOrg = await call('GET', 'books', '/items', { org: null });
		expect([noOrg.status, noOrg.headers[HEADER]]).toEqual([
			400,
			expect.stringMatching(
				/^Accounting, What the service does: "Query parameter `organization_id`/,
			),
		]);
		expect(sourced(await call('GET', 'invoice', '/customerpayments', { org: '999' }))).toEqual([
			400,
			[],
		]);
		expect(sourced(await call('GET', 'inventory', '/bills', { org: '999' }))).toEqual([400, []]);
		expect(sourced(await call('GET', 'billing', '/projects', { org: '999' }))).toEqual([400, []]);
		const portal = await call('GET', 'projects', '/portal/9999999/projects');
		expect([portal.status, portal.headers[HEADER]]).toEqual([404, PIPELINE.portal]);
	});

	test('keys no table names, a body that is not JSON and the table rules cite their sources', async () => {
		const key = await call('GET', 'books', '/items', { query: { purple: 'x' } });
		expect([key.status, key.headers[HEADER]]).toEqual([400, PIPELINE.tableShape]);
		const long = await call('GET', 'books', '/items', {
			query: { name_contains: 'x'.repeat(101) },
		});
		expect([long.status, long.headers[HEADER]]).toEqual([
			400,
			expect.stringMatching(/^guess: The 100-character limit/),
		]);
		const url = `${em.regionUrls().api}/books/v3/items?organization_id=${em.organizationId}`;
		const notJson = await fetch(url, {
			method: 'POST',
			headers: {
				Authorization: `Vendor-oauthtoken ${em.issueToken().access_token}`,
				'Content-Type': 'application/json',
			},
			body: '{"name": ',
		});
		expect([notJson.status, notJson.headers.get(HEADER)]).toEqual([400, PIPELINE.json]);
		const gst = await call('POST', 'inventory', '/bills', {
			json: {
				vendor_id: DEMO.vendors.paperCo,
				bill_number: 'B-1',
				date: '2026-01-31',
				due_date: '2026-02-28',
				line_items: [{ name: 'Paper', rate: 1 }],
				gst_no: '22AAAAA-000A1Z5',
			},
		});
		const billCreate = AREAS.find((a) => a.value === 'inventory')
			?.resources.find((r) => r.value === 'bill')
			?.operations.find((o) => o.value === 'create') as Operation;
		const gstNo = billCreate.fields.find((f) => f.name === 'gst_no') as Field;
		expect([gst.status, gst.headers[HEADER], gst.body.message]).toEqual([
			400,
			ruleSource(billCreate, gstNo, 'alphanumeric', true),
			expect.stringContaining('gst_no'),
		]);
		expect(gst.headers[HEADER]).toMatch(/^guess: A bill's `gst_no`/);
		// a real GST number carries letters: 15 letters and digits pass (the guess of docs/ASSUMPTIONS.md)
		const real = await call('POST', 'inventory', '/bills', {
			json: {
				vendor_id: DEMO.vendors.paperCo,
				bill_number: 'B-2',
				date: '2026-01-31',
				due_date: '2026-02-28',
				line_items: [{ name: 'Paper', rate: 1 }],
				gst_no: '22AAAAA0000A1Z5',
			},
		});
		expect([real.status, real.body.bill?.gst_no]).toEqual([201, '22AAAAA0000A1Z5']);
	});

	test('a custom-field date-time without seconds, with milliseconds or an offset without colon is refused, citing the documented forms', async () => {
		for (const value of [
			'2026-01-31T09:30Z',
			'2026-01-31T09:30:00.000Z',
			'2026-01-31T09:30:00+0530',
		]) {
			const r = await call('POST', 'projects', `/portal/${em.portalId}/projects`, {
				json: { name: `dt ${value}`, cf_date_time: value },
			});
			expect([value, r.status, r.headers[HEADER]]).toEqual([
				value,
				400,
				expect.stringMatching(/^Conventions, Custom field values: "Date-time \| string, ISO 8601/),
			]);
			expect(sourceProblems(r.headers[HEADER])).toEqual([]);
		}
		const ok = await call('POST', 'projects', `/portal/${em.portalId}/projects`, {
			json: { name: 'dt ok', cf_date_time: '2026-01-31T09:30:00+05:30' },
		});
		expect(ok.status).toBe(201);
	});

	test('rate limits cite the document (project management) and the listed guess (accounting)', async () => {
		const limited = await startEmulator({
			rateLimit: { limit: 2, windowMs: 60_000, blockMs: 60_000 },
			accountingRateLimit: { limit: 2, windowMs: 60_000 },
		});
		try {
			const send = apiClient(limited, { token: limited.issueToken().access_token });
			const answers = async (area: string, path: string) => [
				await send('GET', area, path),
				await send('GET', area, path),
				await send('GET', area, path),
			];
			const projects = await answers('projects', '/portals');
			expect(projects.map((r) => [r.status, r.headers[HEADER]])).toEqual([
				[200, undefined],
				[200, undefined],
				[429, PIPELINE.rateProjects],
			]);
			const books = await answers('books', '/items');
			expect(books.map((r) => [r.status, r.headers[HEADER]])).toEqual([
				[200, undefined],
				[200, undefined],
				[429, PIPELINE.rateAccounting],
			]);
		} finally {
			await limited.close();
		}
	});
});

describe('canary over HTTP: a table rule without a source is answered 500', () => {
	test('a length rule added to a field the sources do not cover makes its refusal fail loudly', async () => {
		const books = AREAS.find((a) => a.value === 'books');
		const create = books?.resources
			.find((r) => r.value === 'item')
			?.operations.find((o) => o.value === 'create') as Operation;
		const at = create.fields.findIndex((f) => f.name === 'sku');
		const sku = create.fields[at];
		const em = await startEmulator({ demo: true });
		// a new entry (each entry's schema is built once and kept): the table as if it said "at most 3"
		create.fields[at] = { ...sku, maxLength: 3 };
		try {
			const call = apiClient(em, { token: em.issueToken().access_token });
			const r = await call('POST', 'books', '/items', {
				json: { name: 'Canary', rate: 1, sku: 'ABCDE' },
			});
			expect(r.status).toBe(500);
			expect(JSON.stringify(r.body)).toContain('names no source');
		} finally {
			create.fields[at] = sku;
			await em.close();
		}
	});
});
