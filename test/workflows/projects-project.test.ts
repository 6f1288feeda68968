/**
 * Vendor Projects -> Project, end to end on n8n's engine against the emulator: create with
 * every documented create field (budget_info amounts, owner, status, layout, group, tags,
 * copy_from, sub-module settings) and typed custom fields, get, get many with Return All,
 * update with the multi-select add / remove form, and refusals before sending.
 */
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { PROJECTS_ROOT as ROOT, sentRequest, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const project = env.portalSteps({ resource: 'project' });
let portal: string;
beforeAll(() => (portal = env.portal));
const cf = (
	apiName: string,
	type: string,
	value: unknown,
	extra: Record<string, unknown> = {},
) => ({ apiName, type, value, ...extra });

let createdId = '';

/** The budget_info members sent as entered (the amounts are sent as `{ amount }`). */
const budgetTerms = {
	billing_method: 'fixed_cost',
	budget_type: 'amount',
	currency: 'USD',
	hourly_budget: '120',
};

test('create sends every documented create field and typed custom fields in their JSON shapes; get reads it back', async () => {
	const result = await env.run([
		project('Create', {
			operation: 'create',
			name: 'Data Migration',
			additionalFields: {
				description: 'Move the old data',
				project_type: 'active',
				owner: '8000000000001',
				is_public_project: true,
				start_date: '2026-03-01',
				end_date: '2026-06-30',
				status: '1',
				layout: '2',
				added_via: 'api',
				is_rollup_project: false,
				budget_info: {
					...budgetTerms,
					cost_budget: 25000,
					rate_per_hour: 150,
					revenue_budget: 40000,
				},
				project_group: '4',
				sub_module_settings: '{"tasks":{"enabled":true}}',
				tags: { values: [{ add: { values: [{ id: '11' }, { id: '12' }] } }] },
				copy_from: byId(DEMO.projects.template),
			},
			customFields: {
				values: [
					cf('cf_single_line', 'singleLine', 'Phase 3'),
					cf('cf_multi_select', 'multiSelect', 'Red, Green'),
					cf('cf_currency', 'currency', '2500.5'),
					cf('cf_url', 'url', 'zylker.example/migration'),
					cf('cf_checkbox', 'checkbox', '', { booleanValue: true }),
					cf('cf_integer', 'integer', '42'),
					cf('cf_single_user', 'singleUser', '8000000000001'),
					cf('cf_multi_user', 'multiUser', '8000000000001,8000000000009'),
					cf('cf_date_time', 'dateTime', '2026-03-01T10:00:00+05:30'),
					cf('cf_date', 'date', '2026-03-01'),
					cf('cf_time', 'time', '09:30'),
					cf('cf_percentage', 'percentage', '12.5'),
					cf('cf_phone', 'phone', '+1 (555) 0100'),
				],
			},
		}),
		project('Get', { operation: 'get', project_id: byId('={{ $json.id }}') }),
	]);
	expectNoError(result);
	const created = json(result, 'Create')[0];
	createdId = String(created.id);
	expect(createdId).toMatch(/^\d+$/);
	const body = {
		name: 'Data Migration',
		description: 'Move the old data',
		project_type: 'active',
		owner: { zpuid: '8000000000001' },
		is_public_project: true,
		start_date: '2026-03-01',
		end_date: '2026-06-30',
		status: { id: '1' },
		layout: { id: '2' },
		added_via: 'api',
		is_rollup_project: false,
		budget_info: {
			...budgetTerms,
			cost_budget: { amount: 25000 },
			rate_per_hour: { amount: 150 },
			revenue_budget: { amount: 40000 },
		},
		project_group: { id: '4' },
		sub_module_settings: { tasks: { enabled: true } },
		tags: [{ add: [{ id: '11' }, { id: '12' }] }],
		copy_from: DEMO.projects.template,
		cf_single_line: 'Phase 3',
		cf_multi_select: ['Red', 'Green'],
		cf_currency: { amount: 2500.5 },
		cf_url: 'zylker.example/migration',
		cf_checkbox: true,
		cf_integer: 42,
		cf_single_user: { zpuid: '8000000000001' },
		cf_multi_user: [{ zpuid: '8000000000001' }, { zpuid: '8000000000009' }],
		cf_date_time: '2026-03-01T10:00:00+05:30',
		cf_date: '2026-03-01',
		cf_time: '09:30',
		cf_percentage: 12.5,
		cf_phone: '+1 (555) 0100',
	};
	const requests = env.apiRequests();
	expect(requests.map(sentRequest)).toEqual([
		{ method: 'POST', path: `${ROOT}/portal/${portal}/projects`, query: {}, body },
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/projects/${createdId}`,
			query: {},
			body: undefined,
		},
	]);
	env.expectSigned();
	expect(requests[0].headers['content-type']).toBe('application/json');
	expect(requests.map((r) => r.status)).toEqual([201, 200]);
	// the server assumed https:// for the URL; the record reads back as stored
	expect(json(result, 'Get')[0]).toMatchObject({
		id: created.id,
		name: 'Data Migration',
		cf_url: 'https://zylker.example/migration',
		cf_multi_select: ['Red', 'Green'],
	});
	expect(result.output('Get').map((o) => o.pairedItem)).toEqual([{ item: 0 }]);
});

test('update sends the update fields, archived allowed, and a multi-select change as [{ add, remove }]', async () => {
	const result = await env.run([
		project('Update', {
			operation: 'update',
			project_id: byId(DEMO.projects.website),
			updateFields: {
				name: 'Website Relaunch 2',
				project_type: 'archived',
				end_date: '2026-12-31',
			},
			customFields: {
				values: [
					cf('cf_multi_select', 'multiSelect', '', {
						updateMode: 'addRemove',
						add: 'Green',
						remove: 'Red',
					}),
					cf('cf_multi_user', 'multiUser', '', { updateMode: 'addRemove', add: '8000000000009' }),
					cf('cf_single_select', 'singleSelect', 'Low'),
				],
			},
		}),
	]);
	expectNoError(result);
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{
			method: 'PATCH',
			path: `${ROOT}/portal/${portal}/projects/${DEMO.projects.website}`,
			query: {},
			body: {
				name: 'Website Relaunch 2',
				project_type: 'archived',
				end_date: '2026-12-31',
				cf_multi_select: [{ add: ['Green'], remove: ['Red'] }],
				cf_multi_user: [{ add: [{ zpuid: '8000000000009' }] }],
				cf_single_select: 'Low',
			},
		},
	]);
	env.expectSigned();
	expect(json(result, 'Update')[0]).toMatchObject({
		name: 'Website Relaunch 2',
		project_type: 'archived',
		cf_multi_select: ['Blue', 'Green'],
		cf_multi_user: [{ zpuid: '8000000000009' }],
		cf_single_select: 'Low',
	});
});

test('a 201-character name, a 201-character URL custom field and other broken limits are refused before sending', async () => {
	const long = 'x'.repeat(201);
	const result = await env.run(
		[
			project(
				'Create',
				{
					operation: 'create',
					name: '={{ $json.name }}',
					additionalFields: { project_type: '={{ $json.type }}' },
					customFields: {
						values: [cf('={{ $json.cf }}', '={{ $json.cfType }}', '={{ $json.value }}')],
					},
				},
				{ onError: 'continueRegularOutput' },
			),
		],
		[
			{ name: long, type: 'active', cf: 'cf_single_line', cfType: 'singleLine', value: 'ok' },
			{
				name: 'Fine',
				type: 'active',
				cf: 'cf_url',
				cfType: 'url',
				value: `example.com/${'p'.repeat(201 - 'example.com/'.length)}`,
			},
			{ name: 'Fine', type: 'archived', cf: 'cf_single_line', cfType: 'singleLine', value: 'ok' },
			{ name: 'Fine', type: 'active', cf: 'cf_integer', cfType: 'integer', value: '1.5' },
			{ name: 'Fine', type: 'active', cf: 'cf_email', cfType: 'email', value: 'not-an-email' },
			{ name: 'Fine', type: 'active', cf: 'cf_phone', cfType: 'phone', value: '+1 (555) 0100 200' },
			{ name: 'Fine', type: 'active', cf: 'cf_date', cfType: 'date', value: '2026-02-30' },
			{
				name: 'Fine',
				type: 'active',
				cf: 'cf_multi_line',
				cfType: 'multiLine',
				value: 'a\n'.repeat(501),
			},
			{ name: 'Fine', type: 'active', cf: 'name', cfType: 'singleLine', value: 'x' },
		],
	);
	const errors = json(result, 'Create').map((o) => o.error);
	expect(errors).toEqual([
		'Invalid input: Name must be at most 200 characters as the API counts them, where an emoji counts as 2 (got 201) [item 0]',
		'Invalid custom field value: "cf_url" must be at most 200 characters as the API counts them, where an emoji counts as 2 [item 1]',
		'Invalid input: Project Type must be one of: active, template (got "archived") [item 2]',
		'Invalid custom field value: "cf_integer" must be a whole number [item 3]',
		'Invalid custom field value: "cf_email" must be an email address [item 4]',
		'Invalid custom field value: "cf_phone" must be at most 15 characters as the API counts them, where an emoji counts as 2 [item 5]',
		'Invalid custom field value: "cf_date" must be a real calendar date (yyyy-mm-dd) [item 6]',
		'Invalid custom field value: "cf_multi_line" must be at most 1000 characters as the API counts them, where an emoji counts as 2 [item 7]',
		'Invalid custom field value: "name" is a project field, not a custom field: set it in the operation\'s fields [item 8]',
	]);
	expect(json(result, 'Create')[1].description).toBe(
		'Nothing was sent to the API. Correct the value and run again.',
	);
	expect(result.output('Create').map((o) => o.pairedItem)).toEqual(
		errors.map((_, item) => ({ item })),
	);
	expect(env.apiRequests()).toHaveLength(0);
});

test('get many with Return All pages until a short page; Limit asks for that many', async () => {
	const t = env.portalTenant();
	for (let i = 0; i < 230; i++) {
		const id = String(5300000000000 + i);
		t.put('projects', id, { id, name: `Bulk ${i}`, project_type: 'active' });
	}
	const total = t.all('projects').length;
	const all = await env.run([project('List', { operation: 'getAll', returnAll: true })]);
	expectNoError(all);
	expect(json(all, 'List')).toHaveLength(total);
	expect(env.apiRequests().map(sentRequest)).toEqual(
		[1, 2].map((page) => ({
			method: 'GET',
			path: `${ROOT}/portal/${portal}/projects`,
			query: { page: String(page), per_page: '200' },
			body: undefined,
		})),
	);
	env.expectSigned();
	env.em.clearRequests();
	const some = await env.run([
		project('List', { operation: 'getAll', returnAll: false, limit: 3 }),
	]);
	expect(json(some, 'List')).toHaveLength(3);
	expect(env.apiRequests().map((r) => r.query)).toEqual([{ page: '1', per_page: '3' }]);
});
