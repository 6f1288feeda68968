import type { Field, Operation } from '../../nodes/shared/tables/spec';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { customFieldTypes } from '../../nodes/VendorProjects/tables/customFieldTypes';
import type { IDataObject } from 'n8n-workflow';
import { customFieldValues } from '../../nodes/VendorProjects/customFields';

/** Document 000, "Endpoints": the 14 documented calls, literally. */
const DOCUMENTED: Array<[string, string, string | string[] | undefined]> = [
	['GET', '/api/v3/portals', 'VendorProjects.portals.READ'],
	['GET', '/api/v3/portal/{portal_id}', 'VendorProjects.portals.READ'],
	['GET', '/api/v3/portal/{portal_id}/bin', 'VendorProjects.portals.READ'],
	['POST', '/api/v3/portal/{portal_id}/trash', 'VendorProjects.portals.CREATE'],
	['DELETE', '/api/v3/portal/{portal_id}/bin', 'VendorProjects.portals.CREATE'],
	['POST', '/api/v3/portal/{portal_id}/bin/restore', 'VendorProjects.portals.CREATE'],
	['DELETE', '/api/v3/portal/{portal_id}/empty-bin', 'VendorProjects.portals.CREATE'],
	[
		'GET',
		'/api/v3/portal/{portal_id}/search',
		['VendorProjects.portals.READ', 'VendorSearch.securesearch.READ'],
	],
	[
		'GET',
		'/api/v3/portal/{portal_id}/projects/{project_id}/search',
		['VendorProjects.portals.READ', 'VendorSearch.securesearch.READ'],
	],
	['GET', '/api/v3/portal/{portal_id}/projects', 'VendorProjects.projects.READ'],
	['GET', '/api/v3/portal/{portal_id}/projects/{project_id}', 'VendorProjects.projects.READ'],
	['POST', '/api/v3/portal/{portal_id}/projects', 'VendorProjects.projects.CREATE'],
	['PATCH', '/api/v3/portal/{portal_id}/projects/{project_id}', 'VendorProjects.projects.UPDATE'],
	['GET', '/api/v3/portal/{portal_id}/mytasks', undefined],
];

const DOCUMENTED_SCOPES = new Set([
	'VendorProjects.portals.READ',
	'VendorProjects.portals.CREATE',
	'VendorProjects.projects.READ',
	'VendorProjects.projects.CREATE',
	'VendorProjects.projects.UPDATE',
	'VendorSearch.securesearch.READ',
]);

const all: Array<{ resource: string; op: Operation }> = projectsArea.resources.flatMap((r) =>
	r.operations.map((op) => ({ resource: r.value, op })),
);
const find = (resource: string, value: string): Operation => {
	const hit = all.find((x) => x.resource === resource && x.op.value === value);
	if (!hit) throw new Error(`no ${resource}.${value}`);
	return hit.op;
};
const field = (fields: Field[], name: string): Field => {
	const f = fields.find((x) => x.name === name);
	if (!f) throw new Error(`no field ${name}`);
	return f;
};
const scopes = (s: string | string[] | undefined): string[] =>
	s === undefined ? [] : Array.isArray(s) ? s : [s];

describe('Vendor Projects field tables', () => {
	it('is the projects area', () => {
		expect(projectsArea).toMatchObject({
			value: 'projects',
			name: 'Vendor Projects',
			basePath: '/api/v3',
			family: 'projects',
		});
		expect(projectsArea.org).toBeUndefined();
		expect(projectsArea.resources.map((r) => [r.value, r.name])).toEqual([
			['portal', 'Portal'],
			['trash', 'Trash'],
			['search', 'Search'],
			['project', 'Project'],
			['myTasks', 'My Task'],
		]);
	});

	it('covers exactly the 14 documented method + path pairs, with their scopes', () => {
		const actual = all.map(({ op }) => `${op.method} ${projectsArea.basePath}${op.path}`).sort();
		const expected = DOCUMENTED.map(([m, p]) => `${m} ${p}`).sort();
		expect(actual).toEqual(expected);
		expect(new Set(actual).size).toBe(14);
		for (const [method, path, scope] of DOCUMENTED) {
			const hit = all.find(
				({ op }) => op.method === method && projectsArea.basePath + op.path === path,
			)!;
			expect({ call: `${method} ${path}`, scope: scopes(hit.op.scope).sort() }).toEqual({
				call: `${method} ${path}`,
				scope: scopes(scope).sort(),
			});
		}
	});

	it('uses only documented scopes, and the area lists every one used', () => {
		const used = new Set(all.flatMap(({ op }) => scopes(op.scope)));
		for (const s of used) expect(DOCUMENTED_SCOPES.has(s)).toBe(true);
		expect(new Set(projectsArea.scopes)).toEqual(used);
		expect(projectsArea.scopes).toContain('VendorSearch.securesearch.READ');
	});

	it('has a required id field for every {param}, and no stray path field', () => {
		for (const { resource, op } of all) {
			const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
			for (const p of params) {
				const f = field(op.fields, p);
				expect({ at: `${resource}.${op.value}.${p}`, type: f.type, required: f.required }).toEqual({
					at: `${resource}.${op.value}.${p}`,
					type: 'id',
					required: true,
				});
				if (p === 'portal_id') expect(f.locator).toBe('portal');
				if (p === 'project_id') expect(f.locator).toBe('project');
			}
			for (const f of op.fields) if (f.in === 'path') expect(params).toContain(f.name);
		}
	});

	it('has unique resource values, unique operation values per resource and well-formed names', () => {
		const resources = projectsArea.resources.map((r) => r.value);
		expect(new Set(resources).size).toBe(resources.length);
		for (const r of projectsArea.resources) {
			const values = r.operations.map((o) => o.value);
			expect(new Set(values).size).toBe(values.length);
			for (const o of r.operations) {
				expect(o.value).toMatch(/^[a-z][A-Za-z]*$/);
				// a sentence: capital first letter, the rest lower case
				expect(o.action[0]).toBe(o.action[0].toUpperCase());
				expect(o.action.slice(1)).toBe(o.action.slice(1).toLowerCase());
				expect(o.description.length).toBeGreaterThan(0);
				if (o.value === 'getAll') expect(o.name).toBe('Get Many');
				const names = o.fields.map((f) => f.name);
				expect(new Set(names).size).toBe(names.length);
				// page / per_page are added by the engine
				expect(names).not.toContain('page');
				expect(names).not.toContain('per_page');
			}
		}
		// pickers
		for (const v of ['portal', 'project']) {
			const r = projectsArea.resources.find((x) => x.value === v)!;
			expect(r.listOperation).toBe('getAll');
			expect(r.operations.some((o) => o.value === 'getAll')).toBe(true);
		}
	});

	it('lists paginate as documented', () => {
		expect(find('portal', 'getAll').pagination).toBe('none');
		// my tasks answers a list, without documented paging
		expect(find('myTasks', 'get')).toMatchObject({ kind: 'list', pagination: 'none' });
		expect(find('project', 'getAll').pagination).toBe('pageSize');
		expect(find('trash', 'getBin').pagination).toBe('pageSize');
		expect(find('search', 'search').pagination).toBe('pageSize');
		expect(find('search', 'searchInProject').pagination).toBe('pageSize');
	});

	it('carries the documented project limits', () => {
		const create = find('project', 'create');
		expect(field(create.fields, 'name')).toMatchObject({
			type: 'string',
			required: true,
			maxLength: 200,
		});
		expect(field(create.fields, 'description')).toMatchObject({ maxLength: 80000 });
		expect(field(create.fields, 'project_type').values).toEqual(['active', 'template']);
		expect(field(create.fields, 'added_via').values).toEqual(['web', 'api']);
		expect(field(create.fields, 'start_date').type).toBe('date');
		expect(field(create.fields, 'end_date').type).toBe('date');
		expect(field(create.fields, 'owner').fields!.map((f) => f.name)).toEqual(['zpuid']);
		const budget = field(create.fields, 'budget_info').fields!;
		expect(budget.map((f) => f.name)).toEqual([
			'billing_method',
			'budget_type',
			'tracking_method',
			'currency',
			'hourly_budget',
			'hourly_budget_threshold',
			'cost_budget',
			'rate_per_hour',
			'budget_threshold',
			'fixed_cost',
			'cost_per_hour',
			'revenue_budget',
		]);
		expect(field(budget, 'cost_budget').fields!.map((f) => f.name)).toEqual(['amount']);
		expect(field(create.fields, 'tags').fields!.map((f) => f.name)).toEqual([
			'add',
			'remove',
			'id',
		]);
		expect(create.fields.filter((f) => f.required).map((f) => f.name)).toEqual([
			'portal_id',
			'name',
		]);
		expect(create.fields.map((f) => f.name)).not.toContain('custom_fields');

		const update = find('project', 'update');
		expect(update.method).toBe('PATCH');
		expect(update.fields.map((f) => f.name)).toEqual([
			'portal_id',
			'project_id',
			'name',
			'description',
			'project_type',
			'is_public_project',
			'start_date',
			'end_date',
			'added_via',
			'is_rollup_project',
		]);
		expect(field(update.fields, 'name')).toMatchObject({ maxLength: 200 });
		expect(field(update.fields, 'name').required).toBeFalsy();
		expect(field(update.fields, 'project_type').values).toEqual(['active', 'template', 'archived']);
		expect(update.notes).toMatch(/completed-time/);
		expect(update.notes).toMatch(/customFieldTypes/);
		expect(create.notes).toMatch(/customFieldTypes/);
		expect(create.special).toBe('customFields');
		expect(update.special).toBe('customFields');
		expect(field(create.fields, 'budget_info').pickMembers).toBe(true);
	});

	it('carries the documented trash limits and body shapes', () => {
		const modules = ['projects', 'phases', 'tasklists', 'tasks', 'issues'];
		const move = find('trash', 'moveToTrash');
		expect(move.batch).toEqual({ field: 'items', size: 100 });
		expect(field(move.fields, 'module')).toMatchObject({
			type: 'enum',
			required: true,
			values: modules,
		});
		// any number of ids: the batch splits them into calls of 100 (the emulator refuses more per call)
		expect(field(move.fields, 'items')).toMatchObject({
			type: 'array',
			required: true,
			of: { type: 'id' },
		});
		expect(field(move.fields, 'items').maxItems).toBeUndefined();
		for (const v of ['restore', 'deletePermanently']) {
			const op = find('trash', v);
			const roots = op.fields.filter((f) => f.bodyRoot);
			expect(roots).toHaveLength(1);
			expect(roots[0]).toMatchObject({ type: 'array', in: 'body', jsonAlternative: true });
			expect(field(roots[0].fields!, 'module')).toMatchObject({
				type: 'enum',
				required: true,
				values: modules,
			});
			expect(field(roots[0].fields!, 'items')).toMatchObject({ type: 'array', maxItems: 100 });
		}
		const bin = find('trash', 'getBin');
		// sort and filter are generic table features: no special
		expect(bin.special).toBeUndefined();
		expect(field(bin.fields, 'sort_by')).toMatchObject({
			type: 'string',
			sortFields: ['trashed_time', 'name'],
		});
		const filter = field(bin.fields, 'filter');
		expect(filter).toMatchObject({ type: 'object', jsonAlternative: true });
		expect(filter.fields!.map((f) => f.name)).toEqual(['criteria', 'pattern']);
		expect(field(filter.fields!, 'criteria').fields!.map((f) => f.name)).toEqual([
			'cfid',
			'criteria_condition',
			'value',
		]);
		expect(field(field(filter.fields!, 'criteria').fields!, 'value')).toMatchObject({
			type: 'array',
			of: { type: 'string' },
		});
		expect(find('trash', 'emptyBin').fields.map((f) => f.name)).toEqual(['portal_id']);
	});

	it('carries the documented search parameters', () => {
		const extras = ['index', 'range', 'category_id', 'path', 'sortbyfield', 'is_zia'];
		const portalWide = find('search', 'search');
		expect(field(portalWide.fields, 'search_term')).toMatchObject({
			type: 'string',
			required: true,
		});
		expect(field(portalWide.fields, 'module').values).toEqual([
			'all',
			'projects',
			'milestones',
			'tasklists',
			'tasks',
			'bugs',
			'forums',
			'events',
			'status',
		]);
		expect(field(portalWide.fields, 'status')).toMatchObject({
			required: true,
			values: ['all', 'active', 'archived', 'template'],
		});
		const inProject = find('search', 'searchInProject');
		expect(field(inProject.fields, 'module').values).toEqual([
			'all',
			'milestones',
			'tasklists',
			'tasks',
			'bugs',
			'forums',
			'events',
			'status',
		]);
		expect(inProject.fields.map((f) => f.name)).not.toContain('status');
		for (const op of [portalWide, inProject])
			for (const x of extras)
				expect(field(op.fields, x)).toMatchObject({
					type: 'string',
					description:
						'Sent as the text you enter; if the service does not accept it, the search fails with its message',
				});
	});

	it('has the custom-field value table with every documented limit', () => {
		const by = Object.fromEntries(customFieldTypes.map((t) => [t.value, t]));
		expect(customFieldTypes).toHaveLength(17);
		expect(new Set(customFieldTypes.map((t) => t.value)).size).toBe(17);
		expect(by.singleLine).toMatchObject({ shape: 'string', maxLength: 200 });
		expect(by.multiLine).toMatchObject({ shape: 'multiline', maxLength: 1000 });
		expect(by.singleSelect).toMatchObject({ shape: 'select', maxOptions: 50 });
		expect(by.multiSelect).toMatchObject({
			shape: 'multiSelect',
			maxOptions: 100,
			addRemoveOnUpdate: true,
		});
		expect(by.singleUser.shape).toBe('user');
		expect(by.multiUser).toMatchObject({
			shape: 'multiUser',
			maxItems: 500,
			addRemoveOnUpdate: true,
		});
		expect(by.date.shape).toBe('date');
		expect(by.time.shape).toBe('time');
		expect(by.dateTime.shape).toBe('dateTime');
		expect(by.checkbox.shape).toBe('boolean');
		expect(by.currency).toMatchObject({ shape: 'currency', maxLength: 100 });
		expect(by.percentage).toMatchObject({ shape: 'percentage', maxLength: 20 });
		expect(by.integer).toMatchObject({ shape: 'integer', maxDigits: 19 });
		expect(by.decimal).toMatchObject({ shape: 'decimal', maxDigits: 17 });
		expect(by.email).toMatchObject({ shape: 'email', maxLength: 200 });
		expect(by.phone).toMatchObject({ shape: 'phone', maxLength: 15 });
		expect(by.url).toMatchObject({ shape: 'url', maxLength: 200, defaultProtocol: 'https://' });
	});
});

describe('custom-field values (nodes/VendorProjects/customFields.ts)', () => {
	test("a date custom field given as a Date is the day it is in the workflow's time zone, not in UTC", () => {
		const late = new Date('2026-03-06T02:30:00Z'); // 5 March, 18:30 in Los Angeles
		expect(
			customFieldValues(
				[{ apiName: 'cf_d', type: 'date', value: late as unknown as IDataObject }],
				false,
				[],
				'America/Los_Angeles',
			).cf_d,
		).toBe('2026-03-05');
		expect(
			customFieldValues(
				[{ apiName: 'cf_d', type: 'date', value: late as unknown as IDataObject }],
				false,
				[],
				'Asia/Kolkata',
			).cf_d,
		).toBe('2026-03-06');
	});

	const one = (
		type: string,
		value: unknown,
		extra: Record<string, unknown> = {},
		isUpdate = false,
	) =>
		customFieldValues(
			[{ apiName: 'cf_x', type, value: value as IDataObject, ...extra }],
			isUpdate,
			['name'],
		).cf_x;
	const refused = (type: string, value: unknown, extra: Record<string, unknown> = {}) => {
		try {
			one(type, value, extra);
		} catch (error) {
			return (error as Error).message;
		}
		return 'accepted';
	};

	it('shapes every type as documented', () => {
		expect(one('singleLine', 'a')).toBe('a');
		expect(one('multiLine', 'a\nb')).toBe('a\nb');
		expect(one('singleSelect', 'High')).toBe('High');
		expect(one('multiSelect', 'Red, Blue')).toEqual(['Red', 'Blue']);
		expect(one('multiSelect', ['Red'])).toEqual(['Red']);
		expect(one('singleUser', '8000000000001')).toEqual({ zpuid: '8000000000001' });
		expect(one('multiUser', '1,2')).toEqual([{ zpuid: '1' }, { zpuid: '2' }]);
		expect(one('date', '2026-01-31T00:00:00.000Z')).toBe('2026-01-31');
		expect(one('time', '23:59')).toBe('23:59');
		expect(one('dateTime', '2026-01-31T09:30:00Z')).toBe('2026-01-31T09:30:00Z');
		expect(one('checkbox', '', { booleanValue: true })).toBe(true);
		expect(one('checkbox', 'false', { booleanValue: true })).toBe(false);
		expect(one('currency', '99.5')).toEqual({ amount: 99.5 });
		expect(one('percentage', '12.5')).toBe(12.5);
		expect(one('integer', '1234567890')).toBe(1234567890);
		expect(one('decimal', '3.25')).toBe(3.25);
		expect(one('email', 'a@b.co')).toBe('a@b.co');
		expect(one('phone', '+1 (555) 0100')).toBe('+1 (555) 0100');
		expect(one('url', 'example.com/a')).toBe('example.com/a'); // https:// is assumed by the API
		expect(one('url', `https://${'a'.repeat(188)}.com`)).toHaveLength(200);
	});

	it('uses the add / remove form for multi-value types on update only', () => {
		expect(
			one('multiSelect', '', { updateMode: 'addRemove', add: 'A,B', remove: 'C' }, true),
		).toEqual([{ add: ['A', 'B'], remove: ['C'] }]);
		expect(one('multiUser', '', { updateMode: 'addRemove', remove: '7' }, true)).toEqual([
			{ remove: [{ zpuid: '7' }] },
		]);
		expect(one('multiSelect', 'A', { updateMode: 'replace' }, true)).toEqual(['A']);
		// on create the mode does not apply: the create form is sent
		expect(one('multiSelect', 'A', { updateMode: 'addRemove', add: 'B' }, false)).toEqual(['A']);
	});

	it('refuses values that break a limit, naming the field and the rule', () => {
		expect(refused('singleLine', 'x'.repeat(201))).toBe(
			'Invalid custom field value: "cf_x" must be at most 200 characters as the API counts them, where an emoji counts as 2',
		);
		expect(refused('url', 'x'.repeat(201))).toBe(
			'Invalid custom field value: "cf_x" must be at most 200 characters as the API counts them, where an emoji counts as 2',
		);
		expect(refused('url', 'not a url')).toBe('Invalid custom field value: "cf_x" must be a URL');
		expect(refused('multiSelect', Array.from({ length: 101 }, (_, i) => `o${i}`).join(','))).toBe(
			'Invalid custom field value: "cf_x" must hold at most 100 entries',
		);
		expect(
			refused(
				'multiUser',
				Array.from({ length: 501 }, (_, i) => String(i)),
			),
		).toBe('Invalid custom field value: "cf_x" must hold at most 500 entries');
		// a user ID is a string (the Conventions document: `{ zpuid: <user_id string> }`): any text but control characters
		expect(refused('singleUser', 'abc')).toBe('accepted');
		expect(refused('singleUser', 'a\nb')).toBe(
			'Invalid custom field value: "cf_x.zpuid" must not hold control characters (line breaks, tabs)',
		);
		expect(refused('time', '24:00')).toBe(
			'Invalid custom field value: "cf_x" must be a time written HH:MM (24 hours)',
		);
		expect(refused('dateTime', '2026-01-31 09:30')).toMatch(/"cf_x" must be an ISO 8601 date-time/);
		expect(refused('checkbox', 'yes')).toBe(
			'Invalid custom field value: "cf_x" must be true or false',
		);
		expect(refused('currency', `1${'0'.repeat(100)}`)).toBe(
			'Invalid custom field value: "cf_x" must be at most 100 characters',
		);
		expect(refused('currency', 'abc')).toBe(
			'Invalid custom field value: "cf_x.amount" must be a number written in decimal digits, e.g. 12.50, -3 or 1e3',
		);
		expect(refused('percentage', '12.123456789012345678')).toBe(
			'Invalid custom field value: "cf_x" must be at most 20 characters',
		);
		expect(refused('integer', '12345678901234567890')).toBe(
			'Invalid custom field value: "cf_x" must have at most 19 digits',
		);
		expect(refused('integer', '1234567890123456789')).toMatch(
			/"cf_x" is too large to be sent exactly/,
		);
		expect(refused('decimal', '1.23456789012345678')).toMatch(/"cf_x" must have at most 17 digits/);
		expect(refused('email', `${'a'.repeat(195)}@b.com`)).toBe(
			'Invalid custom field value: "cf_x" must be at most 200 characters as the API counts them, where an emoji counts as 2',
		);
		expect(refused('phone', '555-CALL')).toBe(
			'Invalid custom field value: "cf_x" may hold only digits, spaces, +, -, . and parentheses',
		);
		expect(refused('singleLine', '')).toBe(
			'Invalid custom field value: "cf_x" needs a value (Single Line Text)',
		);
		expect(refused('nope', 'x')).toBe(
			'Invalid custom field value: "cf_x": unknown custom-field type "nope"',
		);
		expect(() =>
			customFieldValues(
				[
					{ apiName: 'cf_a', type: 'singleLine', value: 'a' },
					{ apiName: 'cf_a', type: 'singleLine', value: 'b' },
				],
				false,
				[],
			),
		).toThrow('"cf_a" is given twice');
	});
});
