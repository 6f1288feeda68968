/** Unit tests of the engine: validation from the tables, UI -> API values, request building. */
import { fromUi, buildRequest } from '../../nodes/shared/api/request';
import { explainFailure, redactTokens } from '../../nodes/shared/api/nodeErrors';
import type { Field, Operation } from '../../nodes/shared/tables/spec';
import { describeProblems } from '../../nodes/shared/tables/problemText';
import { fieldSchema } from '../../nodes/shared/tables/schemas';
import { validateValues } from '../../nodes/shared/tables/validate';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { findOperation, ItemReader } from '../../nodes/shared/run/reader';

const ok = (field: Field, value: unknown) => fieldSchema(field).safeParse(value).success;

describe('validation built from the field tables', () => {
	test('strings: max length', () => {
		const f: Field = { name: 'name', type: 'string', maxLength: 5 };
		expect(ok(f, 'abcde')).toBe(true);
		expect(ok(f, 'abcdef')).toBe(false);
	});

	test('enums accept only the listed values', () => {
		const f: Field = { name: 'product_type', type: 'enum', values: ['goods', 'service'] };
		expect(ok(f, 'goods')).toBe(true);
		const r = fieldSchema(f).safeParse('digital');
		expect(r.success).toBe(false);
		expect(JSON.stringify(r)).toContain('must be one of: goods, service');
	});

	test('dates yyyy-mm-dd, real calendar days only', () => {
		const f: Field = { name: 'date', type: 'date' };
		expect(ok(f, '2026-02-28')).toBe(true);
		expect(ok(f, '2026-02-30')).toBe(false);
		expect(ok(f, '28/02/2026')).toBe(false);
	});

	test('times HH:MM and ISO date-times', () => {
		expect(ok({ name: 't', type: 'time' }, '23:59')).toBe(true);
		expect(ok({ name: 't', type: 'time' }, '24:00')).toBe(false);
		const dt: Field = { name: 'dt', type: 'dateTime' };
		expect(ok(dt, '2026-01-31T09:30:00Z')).toBe(true);
		expect(ok(dt, '2026-01-31T09:30:00+05:30')).toBe(true);
		expect(ok(dt, '2026-01-31 09:30')).toBe(false);
	});

	test('emails, URLs, phones, ids', () => {
		expect(ok({ name: 'e', type: 'email' }, 'a@b.co')).toBe(true);
		expect(ok({ name: 'e', type: 'email' }, 'a@')).toBe(false);
		expect(ok({ name: 'u', type: 'url' }, 'https://x.io/a')).toBe(true);
		expect(ok({ name: 'u', type: 'url' }, 'not a url')).toBe(false);
		expect(ok({ name: 'p', type: 'phone', maxLength: 15 }, '+1 (555) 010-99')).toBe(true);
		expect(ok({ name: 'p', type: 'phone', maxLength: 15 }, '+1 (555) 010-9999')).toBe(false);
		expect(ok({ name: 'i', type: 'id' }, '460000000026049')).toBe(true);
		// an ID documented as a string is any text but a blank, a control character or . / ..; one documented as a number is digits
		expect(ok({ name: 'i', type: 'id' }, '46abc')).toBe(true);
		for (const bad of [' \u00a0', 'a\nb', '..'])
			expect(ok({ name: 'i', type: 'id' }, bad)).toBe(false);
		expect(ok({ name: 'i', type: 'id', numeric: true }, '46abc')).toBe(false);
		expect(ok({ name: 'i', type: 'id', numeric: true }, '460000000026049')).toBe(true);
	});

	test('integer digits and array sizes', () => {
		const int: Field = { name: 'n', type: 'integer', maxDigits: 3 };
		expect(ok(int, 999)).toBe(true);
		expect(ok(int, 1000)).toBe(false);
		expect(ok(int, 1.5)).toBe(false);
		const arr: Field = { name: 'ids', type: 'array', of: { name: 'id', type: 'id' }, maxItems: 2 };
		expect(ok(arr, ['1', '2'])).toBe(true);
		expect(ok(arr, ['1', '2', '3'])).toBe(false);
	});

	test('problems name the field path and the rule', () => {
		const { op } = findOperation(booksArea, 'item', 'getAll');
		const values = { name_contains: 'x'.repeat(101) };
		const problems = validateValues(op, values);
		expect(problems).toEqual([
			{
				field: 'name_contains',
				message:
					'must be at most 100 characters as the API counts them, where an emoji counts as 2',
			},
		]);
		expect(describeProblems(problems, values, op.fields)).toBe(
			'Name Contains must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 101)',
		);
	});

	test('nested members are checked with their path', () => {
		const { op } = findOperation(billingArea, 'project', 'create');
		const tasks = [{ task_name: 'ok' }, { task_name: 'y'.repeat(101) }];
		const problems = validateValues(op, {
			project_name: 'P',
			customer_id: '1',
			billing_type: 'based_on_task_hours',
			tasks,
		});
		expect(problems.map((p) => p.field)).toContain('tasks[1].task_name');
	});

	test('server side coerces query strings before checking', () => {
		const { op } = findOperation(booksArea, 'item', 'getAll');
		expect(validateValues(op, { rate_less_than: '12.5' }, 'server')).toEqual([]);
		expect(validateValues(op, { rate_less_than: 'cheap' }, 'server').map((p) => p.field)).toEqual([
			'rate_less_than',
		]);
	});
});

describe('UI values become API values', () => {
	test('fixed collections, wrappers, comma lists, JSON and dates', () => {
		const lines: Field = {
			name: 'line_items',
			type: 'array',
			fields: [
				{ name: 'item_id', type: 'id' },
				{ name: 'quantity', type: 'number' },
			],
		};
		expect(
			fromUi(lines, {
				values: [
					{ item_id: '1', quantity: 2 },
					{ item_id: '2', quantity: '' },
				],
			}),
		).toEqual([{ item_id: '1', quantity: 2 }, { item_id: '2' }]);
		const owner: Field = { name: 'owner', type: 'object', fields: [{ name: 'zpuid', type: 'id' }] };
		expect(fromUi(owner, '42')).toEqual({ zpuid: '42' });
		const ids: Field = { name: 'invoice_ids', type: 'array', of: { name: 'id', type: 'id' } };
		expect(fromUi(ids, '1, 2 ,3')).toEqual(['1', '2', '3']);
		expect(fromUi({ name: 'sub_module_settings', type: 'json' }, '{"a":1}')).toEqual({ a: 1 });
		expect(fromUi({ name: 'date', type: 'date' }, '2026-03-04T00:00:00')).toBe('2026-03-04');
		expect(fromUi({ name: 'x', type: 'string' }, '')).toBeUndefined();
		expect(fromUi({ name: 'item_id', type: 'id' }, { __rl: true, mode: 'list', value: '77' })).toBe(
			'77',
		);
	});

	test("fixed-collection entries: an optional number left empty (null, the form's start) is not sent; an entered 0 is, and so are required ones and JSON", () => {
		const lines: Field = {
			name: 'line_items',
			type: 'array',
			fields: [
				{ name: 'name', type: 'string', required: true },
				{ name: 'rate', type: 'number', required: true },
				{ name: 'discount', type: 'number' },
				{ name: 'quantity', type: 'integer' },
			],
		};
		expect(
			fromUi(lines, {
				values: [
					{ name: 'Free', rate: 0, discount: null, quantity: 0 },
					{ name: 'Work', rate: 5, discount: 2, quantity: 3 },
				],
			}),
		).toEqual([
			{ name: 'Free', rate: 0, quantity: 0 },
			{ name: 'Work', rate: 5, discount: 2, quantity: 3 },
		]);
		// from an expression the JSON is taken as written, zeros included
		expect(fromUi(lines, '[{"name":"Free","rate":0,"discount":0}]')).toEqual([
			{ name: 'Free', rate: 0, discount: 0 },
		]);
		const budget: Field = {
			name: 'budget',
			type: 'object',
			fields: [
				{ name: 'amount', type: 'number' },
				{ name: 'hours', type: 'number' },
			],
		};
		expect(fromUi(budget, { values: { amount: null, hours: 8 } })).toEqual({ hours: 8 });
		expect(fromUi(budget, { values: { amount: 0, hours: 8 } })).toEqual({ amount: 0, hours: 8 });
	});
});

describe('requests built from the tables', () => {
	test('path params are encoded; org id in the query for Books', () => {
		const op: Operation = { ...findOperation(booksArea, 'item', 'get').op };
		const req = buildRequest(booksArea, op, { item_id: '12/3' }, '600');
		expect(req).toMatchObject({
			method: 'GET',
			path: '/items/12%2F3',
			qs: { organization_id: '600' },
			body: undefined,
		});
	});

	test('org id in the header for payments; body fields in the body; query arrays joined', () => {
		const { op } = findOperation(invoiceArea, 'payment', 'create');
		const req = buildRequest(invoiceArea, op, { customer_id: '9', amount: 10 }, '600');
		expect(req.headers).toEqual({ 'X-com-vendor-invoice-organizationid': '600' });
		expect(req.body).toEqual({ customer_id: '9', amount: 10 });
		const bulk = findOperation(booksArea, 'invoice', 'bulkReminder').op;
		expect(buildRequest(booksArea, bulk, { invoice_ids: ['1', '2'] }, '600').qs).toEqual({
			invoice_ids: '1,2',
			organization_id: '600',
		});
	});

	test('a body that is an array is sent as the array', () => {
		const { op } = findOperation(booksArea, 'item', 'updateCustomFields');
		const root = op.fields.find((f) => f.bodyRoot);
		expect(root).toBeDefined();
		const body = [{ customfield_id: '5', value: 'x' }];
		expect(buildRequest(booksArea, op, { item_id: '1', [root!.name]: body }, '600').body).toEqual(
			body,
		);
	});
});

describe('values the documents type as strings, and server texts', () => {
	test('numbers become decimal text without exponent notation; numeric strings are checked', () => {
		const text: Field = { name: 'rate', type: 'string', numeric: true, min: 0 };
		expect(fromUi(text, 5)).toBe('5');
		expect(fromUi(text, 0.1)).toBe('0.1');
		expect(fromUi(text, 1e21)).toBe('1000000000000000000000');
		expect(fromUi({ name: 'note', type: 'string' }, 12.5)).toBe('12.5');
		expect(fieldSchema(text).safeParse('99.50').success).toBe(true);
		expect(fieldSchema(text).safeParse(7).success).toBe(true);
		expect(fieldSchema(text).safeParse('-1').success).toBe(false);
		// decimal text with an exponent is a number; other notations JavaScript reads as numbers are not
		expect(fieldSchema(text).safeParse('1e3').success).toBe(true);
		expect(fromUi(text, '1e3')).toBe('1000');
		expect(fieldSchema(text).safeParse('0x10').success).toBe(false);
		// The server (emulator) takes only text, as documented ("string on input").
		expect(fieldSchema(text, 'server').safeParse(7).success).toBe(false);
	});

	test('token-shaped values are redacted from server messages; IDs and words stay', () => {
		const token = `1000.${'0123456789abcdef'.repeat(3)}`;
		expect(redactTokens(`Invalid Vendor-oauthtoken ${token}`)).toBe(
			'Invalid Vendor-oauthtoken <redacted>',
		);
		expect(redactTokens(`refresh ${token} refused`)).toBe('refresh <redacted> refused');
		expect(redactTokens('Bearer abc.def-ghi')).toBe('Bearer <redacted>');
		expect(redactTokens(`secret ${'a1'.repeat(20)} leaked`)).toBe('secret <redacted> leaked');
		expect(redactTokens('Invoice 460000000026049 does not exist; use estimate_ids')).toBe(
			'Invoice 460000000026049 does not exist; use estimate_ids',
		);
		expect(
			explainFailure({ status: 400, body: { code: 9, message: `bad ${token}` } }).message,
		).toBe('bad <redacted> (code 9)');
	});
});

describe('the item reader of a node run', () => {
	/** A context whose parameters are `parameters` (item-independent) with `perItem` overriding by item; counts reads. */
	function fakeContext(
		parameters: Record<string, unknown>,
		perItem: Record<string, (i: number) => unknown> = {},
	) {
		const reads: string[] = [];
		const ctx = {
			getNode: () => ({
				name: 'Books',
				type: 'n8n-nodes-vendor.vendorBooks',
				typeVersion: 1,
				parameters,
			}),
			getNodeParameter: (
				name: string,
				i: number,
				fallback?: unknown,
				options?: { extractValue?: boolean },
			) => {
				reads.push(name);
				const value = perItem[name]
					? perItem[name](i)
					: name in parameters
						? parameters[name]
						: fallback;
				return options?.extractValue && value && typeof value === 'object' && '__rl' in value
					? (value as unknown as { value: unknown }).value
					: value;
			},
		};
		return { ctx: ctx as unknown as import('n8n-workflow').IExecuteFunctions, reads };
	}
	const base = {
		resource: 'item',
		operation: 'get',
		organizationId: '600000001',
		item_id: { __rl: true, mode: 'id', value: '460000000000001' },
	};

	test('with no expression, the operation and its values are read once for all items', () => {
		const { ctx, reads } = fakeContext(base);
		const reader = new ItemReader(ctx, booksArea, []);
		const plans = [0, 1, 2, 3].map((i) => reader.planOf(i));
		expect(
			plans.every(
				(p) => p.values.item_id === '460000000000001' && p.organizationId === '600000001',
			),
		).toBe(true);
		expect(reads.filter((r) => r === 'item_id')).toHaveLength(1);
	});

	test('with an expression anywhere, every item reads its own values', () => {
		const ids = ['460000000000001', '460000000000002', '460000000000003'];
		const { ctx, reads } = fakeContext(
			{ ...base, item_id: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			{ item_id: (i) => ids[i] },
		);
		const reader = new ItemReader(ctx, booksArea, []);
		expect([0, 1, 2].map((i) => reader.planOf(i).values.item_id)).toEqual(ids);
		expect(reads.filter((r) => r === 'item_id')).toHaveLength(3);
	});

	test('a plain setting (Simplify) is read once with no expression, per item with one', () => {
		const fixed = fakeContext({ ...base, simplify: true });
		const once = new ItemReader(fixed.ctx, booksArea, []);
		expect([0, 1, 2].map((i) => once.setting('simplify', i, false))).toEqual([true, true, true]);
		expect(fixed.reads.filter((r) => r === 'simplify')).toHaveLength(1);
		const dynamic = fakeContext(
			{ ...base, simplify: '={{ $json.short }}' },
			{ simplify: (i) => i === 1 },
		);
		const each = new ItemReader(dynamic.ctx, booksArea, []);
		expect([0, 1, 2].map((i) => each.setting('simplify', i, false))).toEqual([false, true, false]);
		expect(dynamic.reads.filter((r) => r === 'simplify')).toHaveLength(3);
	});

	test('a failed read is not kept: the next item reads again and fails with its own error', () => {
		const { ctx, reads } = fakeContext({ ...base, organizationId: '' });
		const reader = new ItemReader(ctx, booksArea, []);
		const errors = [0, 1].map((i) => {
			try {
				reader.planOf(i);
				return undefined;
			} catch (error) {
				return error;
			}
		});
		expect(errors[0]).toBeInstanceOf(Error);
		expect(errors[1]).toBeInstanceOf(Error);
		expect(errors[0]).not.toBe(errors[1]);
		expect(reads.filter((r) => r === 'organizationId')).toHaveLength(2);
	});
});
