/**
 * Self-check of the Vendor Books field tables against document 001 ("Endpoints").
 * Run: npx jest test/tables/books
 */
import type { Field, Operation, Resource } from '../../nodes/shared/tables/spec';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { booksSpecials } from '../../nodes/VendorBooks/specials';

/** The documented calls, copied literally from document 001. */
const DOCUMENTED: Record<string, string[]> = {
	item: [
		'POST /items',
		'GET /items',
		'PUT /items/{item_id}',
		'GET /items/{item_id}',
		'DELETE /items/{item_id}',
		'PUT /item/{item_id}/customfields',
		'POST /items/{item_id}/active',
		'POST /items/{item_id}/inactive',
	],
	estimate: [
		'POST /estimates',
		'GET /estimates',
		'PUT /estimates/{estimate_id}',
		'GET /estimates/{estimate_id}',
		'GET /estimates/pdf',
		'GET /estimates/print',
		'PUT /estimates/{estimate_id}/address/billing',
		'PUT /estimates/{estimate_id}/address/shipping',
		'PUT /estimates/{estimate_id}/templates/{template_id}',
		'POST /estimates/{estimate_id}/comments',
		'GET /estimates/{estimate_id}/comments',
		'PUT /estimates/{estimate_id}/comments/{comment_id}',
	],
	estimateTemplate: ['GET /estimates/templates'],
	invoice: [
		'POST /invoices',
		'GET /invoices',
		'PUT /invoices/{invoice_id}',
		'POST /invoices/{invoice_id}/email',
		'GET /invoices/{invoice_id}/email',
		'POST /invoices/{invoice_id}/paymentreminder',
		'GET /invoices/{invoice_id}/paymentreminder',
		'POST /invoices/paymentreminder',
		'POST /invoices/{invoice_id}/paymentreminder/disable',
		'GET /invoices/pdf',
		'GET /invoices/print',
		'POST /invoices/{invoice_id}/attachment',
		'PUT /invoices/{invoice_id}/attachment',
		'GET /invoices/{invoice_id}/attachment',
		'DELETE /invoices/{invoice_id}/attachment',
		'DELETE /invoices/expenses/{expense_id}/receipt',
		'PUT /invoice/{invoice_id}/customfields',
		'POST /invoices/{invoice_id}/comments',
		'GET /invoices/{invoice_id}/comments',
		'PUT /invoices/{invoice_id}/comments/{comment_id}',
		'DELETE /invoices/{invoice_id}/creditsapplied/{credit_id}',
	],
};

const DOCUMENTED_SCOPES = new Set(
	(['settings', 'estimates', 'invoices'] as const).flatMap((m) =>
		['READ', 'CREATE', 'UPDATE', 'DELETE'].map((a) => `VendorBooks.${m}.${a}`),
	),
);

const resource = (value: string): Resource => {
	const r = booksArea.resources.find((x) => x.value === value);
	if (!r) throw new Error(`no resource ${value}`);
	return r;
};
const op = (res: string, value: string): Operation => {
	const o = resource(res).operations.find((x) => x.value === value);
	if (!o) throw new Error(`no operation ${res}.${value}`);
	return o;
};
const field = (o: Operation, name: string): Field => {
	const f = o.fields.find((x) => x.name === name);
	if (!f) throw new Error(`no field ${name} in ${o.value}`);
	return f;
};
const allOps = booksArea.resources.flatMap((r) => r.operations.map((o) => ({ r, o })));
const scopesOf = (o: Operation): string[] =>
	o.scope === undefined ? [] : Array.isArray(o.scope) ? o.scope : [o.scope as string];
const walk = (fields: Field[], visit: (f: Field) => void): void => {
	for (const f of fields) {
		visit(f);
		if (f.fields) walk(f.fields, visit);
		if (f.of) walk([f.of], visit);
	}
};

describe('Vendor Books area', () => {
	it('has the area header', () => {
		expect(booksArea).toMatchObject({
			value: 'books',
			name: 'Vendor Books',
			basePath: '/books/v3',
			org: { in: 'query', name: 'organization_id' },
			family: 'accounting',
		});
		expect(booksArea.resources.map((r) => r.value)).toEqual([
			'item',
			'estimate',
			'estimateTemplate',
			'invoice',
		]);
	});

	it.each(Object.keys(DOCUMENTED))(
		'covers every documented %s call, and nothing undocumented',
		(res) => {
			const documented = resource(res)
				.operations.filter((o) => !o.inferred)
				.map((o) => `${o.method} ${o.path}`);
			expect(new Set(documented)).toEqual(new Set(DOCUMENTED[res]));
			expect(documented).toHaveLength(DOCUMENTED[res].length);
		},
	);

	it('has exactly one inferred extra: invoice.createFromEstimate', () => {
		expect(allOps.filter(({ o }) => o.inferred).map(({ r, o }) => `${r.value}.${o.value}`)).toEqual(
			['invoice.createFromEstimate'],
		);
		const o = op('invoice', 'createFromEstimate');
		expect(o).toMatchObject({
			method: 'POST',
			path: '/invoices',
			kind: 'action',
			special: 'fromEstimate',
		});
		expect(scopesOf(o).sort()).toEqual([
			'VendorBooks.estimates.READ',
			'VendorBooks.invoices.CREATE',
		]);
		expect(field(o, 'estimate_id')).toMatchObject({
			required: true,
			locator: 'estimate',
			in: 'body',
		});
	});

	it('every special named in a table has its handler beside the node', () => {
		const named = allOps.filter(({ o }) => o.special).map(({ o }) => o.special as string);
		expect(new Set(named)).toEqual(new Set(Object.keys(booksSpecials)));
	});

	it('pickers: estimate, invoice and template ids are resource locators fed by a list', () => {
		const locators: Record<string, string | undefined> = {};
		for (const { r, o } of allOps)
			for (const f of o.fields)
				if (f.required && f.type === 'id') locators[`${r.value}.${o.value}.${f.name}`] = f.locator;
		expect(locators).toMatchObject({
			'estimate.get.estimate_id': 'estimate',
			'estimate.applyTemplate.template_id': 'estimateTemplate',
			'invoice.sendEmail.invoice_id': 'invoice',
			'invoice.createFromEstimate.estimate_id': 'estimate',
			'item.get.item_id': 'item',
		});
		expect(resource('estimateTemplate')).toMatchObject({
			idField: 'template_id',
			nameField: 'template_name',
			listOperation: 'getAll',
		});
		const lineItem = field(op('invoice', 'create'), 'line_items').fields?.find(
			(f) => f.name === 'item_id',
		);
		expect(lineItem?.locator).toBe('item');
	});

	it('operation values are unique per resource', () => {
		for (const r of booksArea.resources) {
			const values = r.operations.map((o) => o.value);
			expect(new Set(values).size).toBe(values.length);
			expect(r.operations.find((o) => o.value === r.listOperation)?.kind).toBe('list');
		}
	});

	it('every {param} has a required field, and no field is organization_id', () => {
		for (const { o } of allOps) {
			for (const [, p] of o.path.matchAll(/\{(\w+)\}/g)) {
				const f = field(o, p);
				expect(f.required).toBe(true);
				expect(f.in === undefined || f.in === 'path').toBe(true);
			}
			walk(o.fields, (f) => expect(f.name).not.toBe('organization_id'));
			expect(o.fields.filter((f) => f.bodyRoot).length).toBeLessThanOrEqual(1);
			const names = o.fields.map((f) => f.name);
			expect(new Set(names).size).toBe(names.length);
		}
	});

	it('scopes are documented and the area lists exactly the scopes used', () => {
		const used = new Set(allOps.flatMap(({ o }) => scopesOf(o)));
		for (const s of used) expect(DOCUMENTED_SCOPES.has(s)).toBe(true);
		expect(new Set(booksArea.scopes)).toEqual(used);
		expect(op('invoice', 'deleteAppliedCredit').scope).toBeUndefined();
		expect(op('item', 'markActive').scope).toBe('VendorBooks.settings.CREATE');
	});

	it('enums have values, arrays have a shape, actions are sentence-cased', () => {
		for (const { o } of allOps) {
			walk(o.fields, (f) => {
				if (f.type === 'enum') expect(f.values?.length).toBeGreaterThan(0);
				if (f.type === 'array') expect(Boolean(f.fields) !== Boolean(f.of)).toBe(true);
				if (f.type === 'object') expect(f.fields?.length).toBeGreaterThan(0);
			});
			// n8n lint: sentence case (all-uppercase words such as PDF allowed), Get many for lists.
			const [first, ...rest] = o.action.split(' ');
			expect(first).toMatch(/^[A-Z][a-z]+$/);
			for (const w of rest) expect(w === w.toLowerCase() || w === w.toUpperCase()).toBe(true);
			if (o.kind === 'list') {
				expect(o.name).toBe('Get Many');
				expect(o.action).toMatch(/^Get many /);
			}
		}
	});

	it('lists page with page_context at 200', () => {
		for (const r of ['item', 'estimate', 'invoice']) {
			expect(op(r, 'getAll')).toMatchObject({
				pagination: 'pageContext',
				perPage: 200,
				responseKey: `${r}s`,
			});
		}
	});

	describe('documented limits (spot checks)', () => {
		it('filter max length 100', () => {
			const items = op('item', 'getAll');
			expect(field(items, 'name_startswith').maxLength).toBe(100);
			expect(field(items, 'name_contains').maxLength).toBe(100);
			const inv = op('invoice', 'getAll');
			for (const n of ['invoice_number', 'item_name', 'item_description'])
				for (const s of ['_startswith', '_contains']) expect(field(inv, n + s).maxLength).toBe(100);
		});

		it('item name input: no limit of its own (none is shown; the 100 of the name filters stays)', () => {
			for (const v of ['create', 'update']) {
				expect(field(op('item', v), 'name').maxLength).toBeUndefined();
			}
			expect(field(op('item', 'getAll'), 'name_contains')).toMatchObject({ maxLength: 100 });
		});

		it('batch sizes: reminders 10, PDF / print 25', () => {
			expect(op('invoice', 'bulkReminder')).toMatchObject({
				batch: { field: 'invoice_ids', size: 10 },
				responseKey: 'info',
				special: 'bulkReminder',
			});
			expect(field(op('invoice', 'bulkReminder'), 'invoice_ids').in).toBe('query');
			for (const [r, ids] of [
				['invoice', 'invoice_ids'],
				['estimate', 'estimate_ids'],
			]) {
				expect(op(r, 'getPdf')).toMatchObject({ batch: { field: ids, size: 25 } });
				expect(op(r, 'getPdf').binaryOutput?.mimeType).toBe('application/pdf');
				expect(op(r, 'print').batch).toEqual({ field: ids, size: 25 });
			}
		});

		it('attachments', () => {
			expect(op('invoice', 'uploadAttachment').binaryInput?.extensions).toEqual([
				'gif',
				'png',
				'jpeg',
				'jpg',
				'bmp',
				'pdf',
			]);
			expect(field(op('invoice', 'updateAttachment'), 'can_send_in_mail')).toMatchObject({
				type: 'boolean',
				in: 'query',
			});
			expect(op('invoice', 'downloadAttachment').binaryOutput).toBeDefined();
			expect(op('invoice', 'uploadAttachment').binaryInput?.field).toBe('attachment');
		});

		it('custom fields bodies are arrays', () => {
			for (const [r, path] of [
				['item', '/item/{item_id}/customfields'],
				['invoice', '/invoice/{invoice_id}/customfields'],
			]) {
				const o = op(r, 'updateCustomFields');
				expect(o.path).toBe(path);
				const root = o.fields.find((f) => f.bodyRoot);
				expect(root?.type).toBe('array');
				expect(root?.fields?.map((f) => f.name)).toEqual(['customfield_id', 'value']);
			}
		});

		it('reference values', () => {
			const est = op('estimate', 'create');
			expect(field(est, 'tax_treatment').values).toHaveLength(10);
			expect(field(est, 'vat_treatment').values).toEqual([
				'uk',
				'eu_vat_registered',
				'overseas',
				'eu_vat_not_registered',
				'non_eu',
			]);
			expect(field(est, 'gst_treatment').group).toBe('India');
			expect(field(est, 'place_of_supply').values).toHaveLength(13);
			expect(field(op('invoice', 'create'), 'cfdi_usage').values).toHaveLength(23);
			expect(field(op('invoice', 'getAll'), 'filter_by').values).toContain(
				'Date.PaymentExpectedDate',
			);
			expect(field(op('item', 'getAll'), 'filter_by')).toMatchObject({
				inferred: true,
				values: ['Status.All', 'Status.Active', 'Status.Inactive'],
			});
			for (const r of ['item', 'estimate', 'invoice']) {
				expect(field(op(r, 'getAll'), 'sort_order')).toMatchObject({
					inferred: true,
					values: ['A', 'D'],
				});
			}
			expect(field(op('estimate', 'getAll'), 'filter_by').values).toHaveLength(7);
			expect(field(op('estimate', 'getAll'), 'status').values).toEqual([
				'draft',
				'sent',
				'invoiced',
				'accepted',
				'declined',
				'expired',
			]);
			expect(field(op('invoice', 'getAll'), 'status').values).toEqual([
				'sent',
				'draft',
				'overdue',
				'paid',
				'void',
				'unpaid',
				'partially_paid',
				'viewed',
			]);
			expect(field(op('estimate', 'create'), 'custom_fields').fields?.map((f) => f.name)).toEqual([
				'index',
				'value',
			]);
			expect(field(op('invoice', 'create'), 'custom_fields').fields?.map((f) => f.name)).toEqual([
				'customfield_id',
				'value',
			]);
			const estimateLines = field(op('estimate', 'create'), 'line_items').fields?.map(
				(f) => f.name,
			);
			expect(estimateLines).toEqual([
				'item_id',
				'line_item_id',
				'name',
				'description',
				'item_order',
				'product_type',
				'hsn_or_sac',
				'sat_item_key_code',
				'unitkey_code',
				'bcy_rate',
				'rate',
				'quantity',
				'unit',
				'discount_amount',
				'discount',
				'tax_id',
				'tds_tax_id',
				'tax_name',
				'tax_type',
				'tax_percentage',
				'tax_treatment_code',
				'item_total',
			]);
			const tags = field(op('invoice', 'create'), 'line_items').fields?.find(
				(f) => f.name === 'tags',
			);
			expect(tags?.fields?.map((f) => f.name)).toEqual(['tag_id', 'tag_option_id']);
		});
	});
});
