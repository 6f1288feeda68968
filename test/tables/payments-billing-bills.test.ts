/**
 * Self-check of the field tables of the Payments document: customer payments and refunds (Vendor
 * Invoice), billing projects (Vendor Billing) and purchase bills (Vendor Inventory).
 */
import { explainFailure } from '../../nodes/shared/api/nodeErrors';
import type { Area, Field, Operation, Resource } from '../../nodes/shared/tables/spec';
import { validateValues } from '../../nodes/shared/tables/validate';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';

interface Documented {
	/** The method and path exactly as the document's endpoint tables write them. */
	method: string;
	path: string;
	/** Scope suffix from the table; undefined for "not stated". */
	scope?: string;
	/** Success body key; undefined for "envelope only" / not shown. */
	responseKey?: string;
}

/** Endpoint tables of the Payments document, copied literally. */
const DOCUMENTED: Record<string, { prefix: string; endpoints: Documented[] }> = {
	invoice: {
		prefix: 'VendorInvoice.customerpayments.',
		endpoints: [
			{ method: 'POST', path: '/customerpayments', scope: 'CREATE', responseKey: 'payment' },
			{ method: 'GET', path: '/customerpayments', scope: 'READ', responseKey: 'customerpayments' },
			{
				method: 'PUT',
				path: '/customerpayments/{payment_id}',
				scope: 'UPDATE',
				responseKey: 'payment',
			},
			{
				method: 'GET',
				path: '/customerpayments/{payment_id}',
				scope: 'READ',
				responseKey: 'payment',
			},
			{ method: 'DELETE', path: '/customerpayments/{payment_id}', scope: 'DELETE' },
			{
				method: 'POST',
				path: '/customerpayments/{payment_id}/refunds',
				scope: 'CREATE',
				responseKey: 'payment_refunds',
			},
		],
	},
	billing: {
		prefix: 'VendorSubscriptions.projects.',
		endpoints: [
			{ method: 'POST', path: '/projects', scope: 'CREATE', responseKey: 'project' },
			{ method: 'GET', path: '/projects', scope: 'READ', responseKey: 'projects' },
			{ method: 'PUT', path: '/projects/{project_id}', scope: 'UPDATE', responseKey: 'project' },
			{ method: 'GET', path: '/projects/{project_id}', scope: 'READ', responseKey: 'project' },
			{ method: 'DELETE', path: '/projects/{project_id}/users/{user_id}' },
			{
				method: 'POST',
				path: '/projects/{project_id}/comments',
				scope: 'CREATE',
				responseKey: 'comments',
			},
			{
				method: 'GET',
				path: '/projects/{project_id}/comments',
				scope: 'READ',
				responseKey: 'comments',
			},
			{ method: 'DELETE', path: '/projects/{project_id}/comments/{comment_id}', scope: 'DELETE' },
			{
				method: 'GET',
				path: '/projects/{project_id}/invoices',
				scope: 'READ',
				responseKey: 'invoices',
			},
		],
	},
	inventory: {
		prefix: 'VendorInventory.bills.',
		endpoints: [
			{ method: 'POST', path: '/bills?organization_id=...', scope: 'CREATE', responseKey: 'bill' },
			{ method: 'GET', path: '/bills?organization_id=...', scope: 'READ', responseKey: 'bills' },
		],
	},
};

/** Operations whose path is not shown but implied; they must be marked inferred. */
const INFERRED: Record<string, Documented[]> = {
	invoice: [
		{
			method: 'GET',
			path: '/customerpayments/{payment_id}/refunds',
			scope: 'READ',
			responseKey: 'payment_refunds',
		},
	],
	billing: [],
	// Response not shown: `bill`, as the create answer (inferred, said in the notes).
	inventory: [{ method: 'PUT', path: '/bills/{bill_id}', scope: 'UPDATE', responseKey: 'bill' }],
};

const AREAS: Area[] = [invoiceArea, billingArea, inventoryArea];

/** The organisation id travels in the query (bills) and is added by the engine. */
const stripQuery = (path: string) => path.replace(/\?.*$/, '');
const key = (method: string, path: string) => `${method} ${stripQuery(path)}`;

const opsOf = (area: Area): Array<{ resource: Resource; op: Operation }> =>
	area.resources.flatMap((resource) => resource.operations.map((op) => ({ resource, op })));

const findOp = (area: Area, resource: string, op: string): Operation => {
	const found = area.resources
		.find((r) => r.value === resource)
		?.operations.find((o) => o.value === op);
	if (!found) throw new Error(`${area.value}.${resource}.${op} missing`);
	return found;
};

const findField = (fields: Field[], path: string): Field => {
	const [head, ...rest] = path.split('.');
	const field = fields.find((f) => f.name === head);
	if (!field) throw new Error(`field ${path} missing`);
	return rest.length ? findField(field.fields ?? [], rest.join('.')) : field;
};

/** Every field (with nested members), for whole-table rules. */
const allFields = (fields: Field[]): Field[] =>
	fields.flatMap((f) => [f, ...allFields(f.fields ?? []), ...(f.of ? allFields([f.of]) : [])]);

describe.each(AREAS.map((a) => [a.value, a] as const))('area %s', (areaValue, area) => {
	const documented = DOCUMENTED[areaValue];
	const inferred = INFERRED[areaValue];
	const ops = opsOf(area);

	it('is plain data (survives a JSON round trip unchanged)', () => {
		expect(JSON.parse(JSON.stringify(area))).toEqual(area);
	});

	it('covers exactly the documented method + path pairs, plus the inferred ones', () => {
		const actual = ops.map(({ op }) => key(op.method, op.path)).sort();
		const expected = [...documented.endpoints, ...inferred]
			.map((e) => key(e.method, e.path))
			.sort();
		expect(actual).toEqual(expected);
	});

	it('marks exactly the inferred operations as inferred: the guessed paths and the lists whose paging is guessed (the Payments document shows no paging)', () => {
		const inferredKeys = new Set(inferred.map((e) => key(e.method, e.path)));
		for (const { op } of ops) {
			const k = key(op.method, op.path);
			expect([k, op.inferred === true]).toEqual([
				k,
				inferredKeys.has(k) || op.pagination === 'pageContext',
			]);
			if (op.inferred) expect(op.notes).toMatch(/not shown/);
			if (op.inferred)
				expect([k, op.inferredNote]).toEqual([
					k,
					expect.stringContaining("not in the vendor's API reference"),
				]);
			if (op.pagination === 'pageContext')
				expect(op.inferredNote).toMatch(/^this list's paging is not in the vendor's API reference/);
		}
	});

	it('uses the documented scopes and response keys', () => {
		const byKey = new Map(
			[...documented.endpoints, ...inferred].map((e) => [key(e.method, e.path), e]),
		);
		for (const { op } of ops) {
			const doc = byKey.get(key(op.method, op.path))!;
			const k = key(op.method, op.path);
			expect([k, op.scope]).toEqual([k, doc.scope ? documented.prefix + doc.scope : undefined]);
			expect([k, op.responseKey]).toEqual([k, doc.responseKey]);
		}
	});

	it('lists in area.scopes exactly the scopes its operations use', () => {
		const used = new Set(
			ops.flatMap(({ op }) => (op.scope === undefined ? [] : [op.scope].flat())),
		);
		expect([...area.scopes].sort()).toEqual([...used].sort());
		for (const scope of area.scopes) expect(scope.startsWith(documented.prefix)).toBe(true);
	});

	it('has unique resource values and unique operation values per resource', () => {
		const resources = area.resources.map((r) => r.value);
		expect(new Set(resources).size).toBe(resources.length);
		for (const resource of area.resources) {
			const values = resource.operations.map((o) => o.value);
			expect(new Set(values).size).toBe(values.length);
		}
	});

	it('names operations in n8n style', () => {
		for (const { resource, op } of ops) {
			expect(op.value).toMatch(/^[a-z][a-zA-Z]*$/);
			expect(op.name).toMatch(/^[A-Z][a-z]*( [A-Z][a-z]*)*$/);
			expect(op.action).toMatch(/^[A-Z][a-z]*( [a-z]+)+$/);
			expect(op.description.length).toBeGreaterThan(0);
			if (op.value === 'getAll') {
				expect(op.name).toBe('Get Many');
				expect(op.action.startsWith('Get many ')).toBe(true);
			}
			const expectedKind: Record<string, string> = {
				create: 'create',
				get: 'get',
				getAll: 'list',
				update: 'update',
				delete: 'delete',
			};
			if (expectedKind[op.value])
				expect([resource.value, op.value, op.kind]).toEqual([
					resource.value,
					op.value,
					expectedKind[op.value],
				]);
		}
	});

	it('has a required id field for every {param}, and no path field without a {param}', () => {
		for (const { op } of ops) {
			const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
			for (const param of params) {
				const field = op.fields.find((f) => f.name === param);
				expect([op.path, param, field?.type, field?.required]).toEqual([
					op.path,
					param,
					'id',
					true,
				]);
				expect(field?.in === undefined || field?.in === 'path').toBe(true);
			}
			for (const field of op.fields.filter((f) => f.in === 'path'))
				expect(params).toContain(field.name);
		}
	});

	it('points locators at resources of the area that can be listed', () => {
		for (const { op } of ops) {
			for (const field of allFields(op.fields).filter((f) => f.locator)) {
				const target = area.resources.find((r) => r.value === field.locator);
				expect([field.name, target?.listOperation]).toEqual([field.name, 'getAll']);
				expect(target?.idField).toBe(field.name);
			}
		}
	});

	it('names existing list operations and id fields on resources', () => {
		for (const resource of area.resources) {
			if (resource.listOperation) {
				const list = resource.operations.find((o) => o.value === resource.listOperation);
				expect(list?.kind).toBe('list');
			}
			expect(resource.idField).toMatch(/_id$/);
		}
	});

	it('never lists the organisation id as a field', () => {
		for (const { op } of ops) {
			for (const field of allFields(op.fields)) {
				expect(field.name).not.toBe('organization_id');
				expect(field.name.toLowerCase()).not.toBe(area.org!.name.toLowerCase());
			}
		}
	});

	it('gives lists a pagination style and leaves page / per_page to the engine', () => {
		for (const { op } of ops) {
			if (op.kind === 'list') expect(op.pagination).toBeDefined();
			else expect(op.pagination).toBeUndefined();
			for (const field of op.fields) expect(['page', 'per_page']).not.toContain(field.name);
		}
	});

	it('keeps field tables well formed', () => {
		for (const { op } of ops) {
			const check = (fields: Field[]) => {
				const names = fields.map((f) => f.name);
				expect(new Set(names).size).toBe(names.length);
				for (const f of fields) {
					if (f.type === 'enum') expect(f.values?.length).toBeGreaterThan(0);
					if (f.type === 'array') expect(Boolean(f.fields) !== Boolean(f.of)).toBe(true);
					if (f.type === 'object') expect(f.fields?.length).toBeGreaterThan(0);
					if (f.fields) check(f.fields);
				}
			};
			check(op.fields);
			if (op.special) expect(op.notes).toContain(op.special);
		}
	});
});

describe('Vendor Invoice', () => {
	it('has the area settings', () => {
		expect(invoiceArea).toMatchObject({
			value: 'invoice',
			name: 'Vendor Invoice',
			family: 'accounting',
			basePath: '/invoice/v3',
			org: { in: 'header', name: 'X-com-vendor-invoice-organizationid' },
		});
		expect(invoiceArea.resources.map((r) => r.value)).toEqual(['payment', 'refund']);
	});

	it('checks payment limits and enums', () => {
		for (const op of ['create', 'update']) {
			const fields = findOp(invoiceArea, 'payment', op).fields;
			const mode = findField(fields, 'payment_mode');
			expect(mode.maxLength).toBe(100);
			expect(mode.values).toEqual([
				'check',
				'cash',
				'creditcard',
				'banktransfer',
				'bankremittance',
				'autotransaction',
				'others',
			]);
			expect(findField(fields, 'reference_number').maxLength).toBe(100);
			expect(findField(fields, 'date').type).toBe('date');
			// required on create (error 3004); on update no field is marked required (the Payments document: "the same set"), so it is optional there
			expect(findField(fields, 'customer_id').required).toBe(op === 'create' ? true : undefined);
			expect(findField(fields, 'amount').required).toBe(op === 'create' ? true : undefined);
			expect(findField(fields, 'invoices.invoice_id').required).toBe(true);
			expect(findField(fields, 'invoices.amount_applied').required).toBe(true);
			expect(findField(fields, 'custom_fields').fields!.map((f) => f.name)).toEqual([
				'label',
				'value',
			]);
		}
		const update = findOp(invoiceArea, 'payment', 'update').fields;
		expect(findField(update, 'invoices.invoice_payment_id').type).toBe('id');
		const create = findOp(invoiceArea, 'payment', 'create').fields;
		expect(() => findField(create, 'invoices.invoice_payment_id')).toThrow();
	});

	it('has the payment list filters', () => {
		const fields = findOp(invoiceArea, 'payment', 'getAll').fields;
		expect(fields.map((f) => f.name).sort()).toEqual(
			[
				'customer_name_startswith',
				'customer_name_contains',
				'reference_number_startswith',
				'reference_number_contains',
				'date',
				'amount_less_than',
				'amount_less_equals',
				'amount_greater_than',
				'amount_greater_equals',
				'notes_startswith',
				'notes_contains',
				'payment_mode_startswith',
				'payment_mode_contains',
				'filter_by',
			].sort(),
		);
		for (const name of [
			'customer_name_startswith',
			'customer_name_contains',
			'reference_number_startswith',
			'reference_number_contains',
		]) {
			expect(findField(fields, name).maxLength).toBe(100);
		}
		const filter = findField(fields, 'filter_by');
		expect(filter.inferred).toBe(true);
		expect(filter.maxLength).toBe(100);
		expect(filter.values).toHaveLength(15);
		expect(filter.values![0]).toBe('PaymentMode.All');
		expect(filter.values).toContain('PaymentMode.TwoCheckout');
		expect(findOp(invoiceArea, 'payment', 'getAll').pagination).toBe('pageContext');
	});

	it('checks refund limits', () => {
		const fields = findOp(invoiceArea, 'refund', 'create').fields;
		// no values and no default in the reference: free text, sent only when given
		expect(findField(fields, 'refund_mode')).toMatchObject({ type: 'string', maxLength: 50 });
		expect(findField(fields, 'refund_mode').default).toBeUndefined();
		expect(findField(fields, 'reference_number').maxLength).toBe(100);
		expect(findField(fields, 'date').type).toBe('date');
		expect(findField(fields, 'payment_id').locator).toBe('payment');
	});
});

describe('Vendor Billing', () => {
	it('has the area settings', () => {
		expect(billingArea).toMatchObject({
			value: 'billing',
			name: 'Vendor Billing',
			family: 'accounting',
			basePath: '/billing/v1',
			org: { in: 'header', name: 'X-com-vendor-subscriptions-organizationid' },
		});
	});

	it('checks project limits, enums and the rate rule', () => {
		for (const op of ['create', 'update']) {
			const operation = findOp(billingArea, 'project', op);
			const fields = operation.fields;
			expect(operation.special).toBeUndefined();
			expect(findField(fields, 'rate').requiredWhen).toEqual({
				field: 'billing_type',
				values: ['fixed_cost_for_project', 'based_on_project_hours'],
			});
			expect(findField(fields, 'project_name')).toMatchObject({ required: true, maxLength: 100 });
			expect(findField(fields, 'customer_id')).toMatchObject({ required: true, type: 'id' });
			expect(findField(fields, 'description').maxLength).toBe(500);
			expect(findField(fields, 'billing_type')).toMatchObject({
				required: true,
				values: [
					'fixed_cost_for_project',
					'based_on_project_hours',
					'based_on_staff_hours',
					'based_on_task_hours',
				],
			});
			expect(findField(fields, 'rate').type).toBe('string');
			expect(findField(fields, 'rate').description).toMatch(
				/Required when 'Billing Type' is Fixed Cost for Project .* or Based on Project Hours/,
			);
			expect(findField(fields, 'budget_type').values).toEqual([
				'total_project_cost',
				'total_project_hours',
				'hours_per_task',
				'hours_per_staff',
			]);
			expect(findField(fields, 'tasks.task_name')).toMatchObject({
				required: true,
				maxLength: 100,
			});
			expect(findField(fields, 'tasks.description').maxLength).toBe(500);
			expect(findField(fields, 'users.user_id').required).toBe(true);
			expect(findField(fields, 'users.user_role').values).toEqual([
				'staff',
				'admin',
				'timesheetstaff',
			]);
			expect(findField(fields, 'users.user_name').maxLength).toBe(200);
			expect(findField(fields, 'users.email')).toMatchObject({ type: 'email', maxLength: 100 });
		}
	});

	it('checks comments and list queries', () => {
		expect(findField(findOp(billingArea, 'comment', 'create').fields, 'description')).toMatchObject(
			{
				required: true,
				maxLength: 500,
			},
		);
		const list = findOp(billingArea, 'project', 'getAll').fields;
		expect(findField(list, 'filter_by').values).toEqual([
			'Status.All',
			'Status.Active',
			'Status.Inactive',
		]);
		expect(findField(list, 'sort_column').values).toEqual([
			'project_name',
			'customer_name',
			'rate',
			'created_time',
		]);
		const invoices = findOp(billingArea, 'project', 'getInvoices').fields;
		expect(findField(invoices, 'sort_column').values).toEqual([
			'invoice_number',
			'date',
			'total',
			'balance',
			'created_time',
		]);
		expect(findOp(billingArea, 'project', 'removeUser').scope).toBeUndefined();
	});
});

describe('Vendor Inventory', () => {
	it('has the area settings', () => {
		expect(inventoryArea).toMatchObject({
			value: 'inventory',
			name: 'Vendor Inventory',
			family: 'accounting',
			basePath: '/inventory/v1',
			org: { in: 'query', name: 'organization_id' },
		});
	});

	it('checks the bill create and update input', () => {
		for (const op of ['create', 'update']) {
			const fields = findOp(inventoryArea, 'bill', op).fields;
			for (const name of ['vendor_id', 'bill_number', 'date', 'due_date', 'line_items']) {
				expect([name, findField(fields, name).required]).toEqual([name, true]);
			}
			expect(findField(fields, 'date').type).toBe('date');
			expect(findField(fields, 'due_date').type).toBe('date');
			expect(findField(fields, 'gst_no')).toMatchObject({ maxLength: 15, group: 'India' });
			expect(findField(fields, 'gst_treatment').values).toEqual([
				'business_gst',
				'business_none',
				'overseas',
				'consumer',
			]);
			expect(findField(fields, 'tax_treatment')).toMatchObject({
				group: 'Mexico',
				values: ['home_country_mexico', 'border_region_mexico', 'non_mexico'],
			});
			for (const name of ['source_of_supply', 'destination_of_supply'])
				expect(findField(fields, name).group).toBe('India');
			expect(findField(fields, 'line_items.tds_tax_id').group).toBe('Mexico');
			expect(findField(fields, 'line_items.hsn_or_sac').group).toBe('India');
			expect(findField(fields, 'line_items.reverse_charge_tax_id').group).toBe('India');
			expect(findField(fields, 'custom_fields').fields!.map((f) => f.name)).toEqual([
				'customfield_id',
				'value',
			]);
		}
		expect(findOp(inventoryArea, 'bill', 'create').binaryInput).toEqual({
			field: 'attachment',
			extensions: ['gif', 'png', 'jpeg', 'jpg', 'bmp', 'pdf'],
			required: false,
		});
		expect(findOp(inventoryArea, 'bill', 'getAll').fields).toEqual([]);
	});
});

describe('rules these tables rely on in validate.ts and errors.ts', () => {
	const projectCreate = findOp(billingArea, 'project', 'create');
	const base = { project_name: 'P', customer_id: '1', billing_type: 'fixed_cost_for_project' };

	it('requiredWhen: rate is required for fixed cost and project hours only, client and server side', () => {
		// the node speaks the form's words; the emulator, like the API, its names
		const message = {
			client:
				'is required when Billing Type is Fixed Cost for Project or Based on Project Hours (Billing Type is Fixed Cost for Project)',
			server:
				'is required when billing_type is fixed_cost_for_project or based_on_project_hours (billing_type is fixed_cost_for_project)',
		};
		for (const side of ['client', 'server'] as const) {
			expect(validateValues(projectCreate, base, side)).toEqual([
				{ field: 'rate', message: message[side] },
			]);
			expect(
				validateValues(
					projectCreate,
					{ ...base, billing_type: 'based_on_project_hours', rate: '' },
					side,
				),
			).toHaveLength(1);
			expect(validateValues(projectCreate, { ...base, rate: '10' }, side)).toEqual([]);
			expect(
				validateValues(projectCreate, { ...base, billing_type: 'based_on_staff_hours' }, side),
			).toEqual([]);
		}
	});

	it('requiredWhen works inside objects and array entries too', () => {
		const entry: Field = {
			name: 'entries',
			type: 'array',
			fields: [
				{ name: 'kind', type: 'enum', values: ['fixed', 'hourly'] },
				{ name: 'rate', type: 'number', requiredWhen: { field: 'kind', values: ['fixed'] } },
			],
		};
		const op: Operation = {
			value: 'x',
			name: 'X',
			action: 'X x',
			description: 'x',
			kind: 'create',
			method: 'POST',
			path: '/x',
			fields: [entry],
		};
		expect(
			validateValues(op, {
				entries: [{ kind: 'hourly' }, { kind: 'fixed' }, { kind: 'fixed', rate: 0 }],
			}),
		).toEqual([
			{ field: 'entries[1].rate', message: 'is required when Kind is fixed (Kind is fixed)' },
		]);
	});

	it('openValues: refund_mode offers the payment modes but takes another mode within 50 characters', () => {
		const create = findOp(invoiceArea, 'refund', 'create');
		const values = { payment_id: '1', amount: 5 };
		expect(validateValues(create, { ...values, refund_mode: 'paypal' })).toEqual([]);
		expect(validateValues(create, { ...values, refund_mode: 'x'.repeat(51) })).toEqual([
			{
				field: 'refund_mode',
				message: 'must be at most 50 characters as the API counts them, where an emoji counts as 2',
			},
		]);
		// payment_mode is a closed list
		const payment = findOp(invoiceArea, 'payment', 'create');
		expect(
			validateValues(payment, { customer_id: '1', amount: 5, payment_mode: 'paypal' })[0],
		).toMatchObject({ field: 'payment_mode' });
	});

	it.each([
		['Payments', invoiceArea, 3004, 'The customer field is blank or incorrect', 'Set Customer ID'],
		[
			'Payments',
			invoiceArea,
			9521,
			'A retainer invoice cannot be paid partially',
			'Record the full payment',
		],
		[
			'Payments',
			invoiceArea,
			9523,
			'The amount paid to a retainer invoice cannot be changed',
			'Delete the payment and record it again',
		],
		[
			'Payments',
			invoiceArea,
			24016,
			'The amount entered exceeds the balance due on the invoice',
			'Lower Amount Applied',
		],
		['Billing', billingArea, 1002, 'The billing project does not exist', 'Check the Project ID'],
		[
			'Billing',
			billingArea,
			20004,
			'The amount must not be negative',
			'Enter zero or a positive value',
		],
		[
			'Billing',
			billingArea,
			20077,
			'An expense is recorded for the billing project, so it cannot be deleted',
			"Remove the project's expenses first",
		],
	])(
		'%s code %i: the message says what went wrong and what to do; the server text is the description',
		(_name, area, code, meaning, todo) => {
			const explained = explainFailure({
				status: 400,
				body: { code, message: 'server words' },
				area,
			});
			expect(explained.message).toBe(
				`${meaning} (code ${code}). ${area.errorCodes?.[code]?.resolution}.`,
			);
			expect(explained.message).toContain(todo);
			expect(explained).toMatchObject({
				code: String(code),
				description: 'The Vendor API answered: server words',
			});
		},
	);

	it('other codes keep the server message', () => {
		expect(
			explainFailure({ status: 400, body: { code: 2, message: 'Invalid value passed for rate' } }),
		).toEqual({ code: '2', message: 'Invalid value passed for rate (code 2)' });
	});
});
