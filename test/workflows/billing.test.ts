/**
 * Vendor Billing (billing projects, users, comments, project invoices), end to end:
 * workflows run by n8n's engine against the emulator. Every request is asserted (method,
 * path, query, the organisation header `X-com-vendor-subscriptions-organizationid`, body)
 * with the outputs.
 */
import type { IDataObject } from 'n8n-workflow';

import { explainFailure } from '../../nodes/shared/api/nodeErrors';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { apiCall, fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const projects = env.orgSteps('vendorBilling', { resource: 'project' });
const comments = env.orgSteps('vendorBilling', { resource: 'comment' });
let org: string;
beforeAll(() => (org = env.org));

/** Every request carried the stored token and the organisation in the subscriptions header (not in the query). */
const expectSigned = (): void => env.expectSigned({ org: 'subscriptionsHeader' });

const tasks = {
	values: [
		{ task_name: 'Design', description: 'Mock-ups', rate: 80, budget_hours: '10' },
		{ task_name: 'Build', description: 'Code', rate: 100, budget_hours: '30' },
	],
};
const users = {
	values: [
		{
			user_id: DEMO.billingUsers.alice,
			user_role: 'admin',
			user_name: 'Alice Admin',
			email: 'alice@zylker.example',
			rate: 150,
			budget_hours: '20',
		},
		{
			user_id: DEMO.billingUsers.bob,
			user_role: 'timesheetstaff',
			user_name: 'Bob Staff',
			email: 'bob@zylker.example',
			rate: 90,
			budget_hours: '20',
		},
	],
};

test('project create -> get -> update -> remove a user; comments add, list, delete: each request as documented', async () => {
	const project = "={{ $('Create').item.json.project_id }}";
	const result = await env.run([
		projects('Create', {
			operation: 'create',
			project_name: 'Intranet',
			customer_id: DEMO.customers.globex,
			billing_type: 'fixed_cost_for_project',
			rate: '5000',
			additionalFields: {
				description: 'New intranet',
				budget_type: 'total_project_cost',
				budget_amount: '5000',
				budget_hours: '40',
				tasks,
				users,
			},
		}),
		projects('Get', { operation: 'get', project_id: byId('={{ $json.project_id }}') }),
		projects('Update', {
			operation: 'update',
			project_id: byId(project),
			updateFields: {
				project_name: 'Intranet v2',
				customer_id: DEMO.customers.globex,
				billing_type: 'based_on_project_hours',
				rate: '95',
				budget_type: 'total_project_hours',
				budget_hours: '60',
			},
		}),
		projects('Remove user', {
			operation: 'removeUser',
			project_id: byId(project),
			user_id: DEMO.billingUsers.bob,
		}),
		comments('Comment', {
			operation: 'create',
			project_id: byId(project),
			description: 'Scope agreed.',
		}),
		comments('Comments', { operation: 'getAll', project_id: byId(project), returnAll: true }),
		comments('Delete comment', {
			operation: 'delete',
			project_id: byId(project),
			comment_id: byId("={{ $('Comment').item.json.comment_id }}"),
		}),
	]);
	expectNoError(result);

	const created = json(result, 'Create')[0];
	const id = String(created.project_id);
	expect(id).toMatch(/^\d+$/);
	expect(created).toMatchObject({
		project_name: 'Intranet',
		customer_id: DEMO.customers.globex,
		customer_name: 'Globex Inc',
		billing_type: 'fixed_cost_for_project',
		rate: 5000,
		status: 'active',
		budget_amount: '5000',
	});
	expect(
		(created.tasks as IDataObject[]).map((t) => [t.task_name, t.rate, t.budget_hours]),
	).toEqual([
		['Design', 80, '10'],
		['Build', 100, '30'],
	]);
	expect((created.users as IDataObject[]).map((u) => [u.user_id, u.user_role])).toEqual([
		[DEMO.billingUsers.alice, 'admin'],
		[DEMO.billingUsers.bob, 'timesheetstaff'],
	]);
	expect(json(result, 'Get')[0]).toMatchObject({
		project_id: id,
		project_name: 'Intranet',
		tasks: created.tasks,
	});
	expect(json(result, 'Update')[0]).toMatchObject({
		project_id: id,
		project_name: 'Intranet v2',
		billing_type: 'based_on_project_hours',
		rate: 95,
		budget_type: 'total_project_hours',
		budget_hours: '60',
	});
	expect(json(result, 'Remove user')).toEqual([
		{ deleted: true, code: 0, message: 'The staff has been removed.' },
	]);
	expect(
		(env.orgTenant().get('projects', id)!.users as IDataObject[]).map((u) => u.user_id),
	).toEqual([DEMO.billingUsers.alice]);
	const comment = json(result, 'Comment')[0];
	expect(comment).toMatchObject({ project_id: id, description: 'Scope agreed.' });
	expect(json(result, 'Comments')).toEqual([comment]);
	expect(json(result, 'Delete comment')).toEqual([
		{ deleted: true, code: 0, message: 'The comment has been deleted.' },
	]);
	for (const node of [
		'Create',
		'Get',
		'Update',
		'Remove user',
		'Comment',
		'Comments',
		'Delete comment',
	])
		expect(result.output(node).map((i) => i.pairedItem)).toEqual([{ item: 0 }]);

	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: '/billing/v1/projects',
			query: {},
			org,
			body: {
				project_name: 'Intranet',
				customer_id: DEMO.customers.globex,
				billing_type: 'fixed_cost_for_project',
				rate: '5000',
				description: 'New intranet',
				budget_type: 'total_project_cost',
				budget_hours: '40',
				budget_amount: '5000',
				tasks: tasks.values,
				users: users.values,
			},
		},
		{ method: 'GET', path: `/billing/v1/projects/${id}`, query: {}, org, body: undefined },
		{
			method: 'PUT',
			path: `/billing/v1/projects/${id}`,
			query: {},
			org,
			body: {
				project_name: 'Intranet v2',
				customer_id: DEMO.customers.globex,
				billing_type: 'based_on_project_hours',
				rate: '95',
				budget_type: 'total_project_hours',
				budget_hours: '60',
			},
		},
		{
			method: 'DELETE',
			path: `/billing/v1/projects/${id}/users/${DEMO.billingUsers.bob}`,
			query: {},
			org,
			body: undefined,
		},
		{
			method: 'POST',
			path: `/billing/v1/projects/${id}/comments`,
			query: {},
			org,
			body: { description: 'Scope agreed.' },
		},
		{ method: 'GET', path: `/billing/v1/projects/${id}/comments`, query: {}, org, body: undefined },
		{
			method: 'DELETE',
			path: `/billing/v1/projects/${id}/comments/${comment.comment_id}`,
			query: {},
			org,
			body: undefined,
		},
	]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([201, 200, 200, 200, 201, 200, 200]);
	expectSigned();
});

test('a fixed_cost_for_project (or based_on_project_hours) project without rate is refused before sending', async () => {
	const make = (name: string, billingType: string) =>
		projects(
			name,
			{
				operation: 'create',
				project_name: name,
				customer_id: DEMO.customers.acme,
				billing_type: billingType,
			},
			{ onError: 'continueRegularOutput' },
		);
	const result = await env.run([
		make('Fixed', 'fixed_cost_for_project'),
		make('Project hours', 'based_on_project_hours'),
	]);
	expectNoError(result);
	expect(json(result, 'Fixed')[0].error).toBe(
		'Invalid input: Rate is required when Billing Type is Fixed Cost for Project or Based on Project Hours (Billing Type is Fixed Cost for Project) [item 0]',
	);
	expect(json(result, 'Project hours')[0].error).toBe(
		'Invalid input: Rate is required when Billing Type is Fixed Cost for Project or Based on Project Hours (Billing Type is Based on Project Hours) [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(0);

	// the same rule on update: a new billing type needs its own rate (the record's staff-hours rate is not
	// taken for a fixed price); the project is read for the fields left out, nothing is written.
	const update = await env.run([
		projects('Update', {
			operation: 'update',
			project_id: byId(DEMO.billingProjects.support),
			updateFields: { billing_type: 'fixed_cost_for_project' },
		}),
	]);
	expect(update.error('Update')?.message).toContain(
		'Rate is required when Billing Type is Fixed Cost for Project',
	);
	expect(env.apiRequests().map((r) => r.method)).toEqual(['GET']);
	env.em.clearRequests();
	// and staff-hour billing needs no rate
	const staff = await env.run([make('Staff hours', 'based_on_staff_hours')]);
	expectNoError(staff);
	expect(json(staff, 'Staff hours')[0]).toMatchObject({
		project_name: 'Staff hours',
		billing_type: 'based_on_staff_hours',
	});
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: '/billing/v1/projects',
			query: {},
			org,
			body: {
				project_name: 'Staff hours',
				customer_id: DEMO.customers.acme,
				billing_type: 'based_on_staff_hours',
			},
		},
	]);
});

test('task and user limits and roles are checked before sending', async () => {
	const result = await env.run([
		projects(
			'Create',
			{
				operation: 'create',
				project_name: 'Limits',
				customer_id: DEMO.customers.acme,
				billing_type: 'based_on_task_hours',
				additionalFields: {
					tasks: { values: [{ task_name: 't'.repeat(101), description: 'd'.repeat(501) }] },
					users: {
						values: [
							{
								user_id: DEMO.billingUsers.alice,
								user_role: '={{ "owner" }}',
								email: 'not-an-email',
							},
						],
					},
				},
			},
			{ onError: 'continueRegularOutput' },
		),
		projects(
			'Long name',
			{
				operation: 'create',
				project_name: 'p'.repeat(101),
				customer_id: DEMO.customers.acme,
				billing_type: 'based_on_task_hours',
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(result);
	const error = String(json(result, 'Create')[0].error);
	expect(error).toContain(
		'Tasks, entry 1: Task Name must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 101)',
	);
	expect(error).toContain(
		'Tasks, entry 1: Description must be at most 500 characters as the API counts them, where an emoji counts as 2 (got 501)',
	);
	expect(error).toContain('Users, entry 1: User Role must be one of: staff, admin, timesheetstaff');
	expect(error).toContain('Users, entry 1: Email must be an email address');
	expect(json(result, 'Long name')[0].error).toBe(
		'Invalid input: Project Name must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 101) [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(0);
});

test('get many: filter_by, customer_id and sort_column reach the query; Return All reads every page', async () => {
	for (let i = 0; i < 205; i++) {
		const res = await env.call('POST', 'billing', '/projects', {
			json: {
				project_name: `Bulk ${String(i).padStart(3, '0')}`,
				customer_id: DEMO.customers.initech,
				billing_type: 'based_on_project_hours',
				rate: String(300 - i),
			},
		});
		expect(res.status).toBe(201);
	}
	env.em.clearRequests();
	const filters = {
		filter_by: 'Status.Active',
		customer_id: DEMO.customers.initech,
		sort_column: 'rate',
	};
	const result = await env.run([
		projects('List', { operation: 'getAll', returnAll: true, filters }),
	]);
	expectNoError(result);
	const out = json(result, 'List');
	expect(out).toHaveLength(205);
	expect(out.map((p) => p.rate)).toEqual([...Array(205).keys()].map((i) => 96 + i));
	expect(out.every((p) => p.customer_id === DEMO.customers.initech && p.status === 'active')).toBe(
		true,
	);
	expect(env.apiRequests().map(apiCall)).toEqual(
		[1, 2].map((page) => ({
			method: 'GET',
			path: '/billing/v1/projects',
			query: { ...filters, page: String(page), per_page: '200' },
			org,
			body: undefined,
		})),
	);

	env.em.clearRequests();
	const inactive = await env.run([
		projects('List', {
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: { filter_by: 'Status.Inactive' },
		}),
	]);
	expect(json(inactive, 'List').map((p) => p.project_id)).toEqual([DEMO.billingProjects.inactive]);
	expect(env.apiRequests().map((r) => r.query)).toEqual([
		{ filter_by: 'Status.Inactive', page: '1', per_page: '10' },
	]);
	expectSigned();
});

test("a project's invoices, sorted by the chosen column", async () => {
	const result = await env.run([
		projects('Invoices', {
			operation: 'getInvoices',
			project_id: byId(DEMO.billingProjects.website),
			returnAll: true,
			filters: { sort_column: 'total' },
		}),
	]);
	expectNoError(result);
	const out = json(result, 'Invoices');
	expect(out.map((i) => i.invoice_id)).toEqual([DEMO.invoices.overdue1, DEMO.invoices.paid1]);
	expect(out.map((i) => i.total)).toEqual([960, 2500]);
	expect(Object.keys(out[0]).sort()).toEqual([
		'balance',
		'created_time',
		'customer_name',
		'date',
		'due_date',
		'invoice_id',
		'invoice_number',
		'reference_number',
		'status',
		'total',
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: `/billing/v1/projects/${DEMO.billingProjects.website}/invoices`,
			query: { sort_column: 'total', page: '1', per_page: '200' },
			org,
			body: undefined,
		},
	]);
	expectSigned();
});

test("1002 and 20004 become messages that say what went wrong and what to do; a code the Payments document does not give billing projects keeps the API's words", async () => {
	const result = await env.run([
		projects(
			'Missing',
			{ operation: 'get', project_id: byId('1699999999999') },
			{ onError: 'continueRegularOutput' },
		),
		projects(
			'Negative',
			{
				operation: 'create',
				project_name: 'Negative',
				customer_id: DEMO.customers.acme,
				billing_type: 'fixed_cost_for_project',
				rate: '-5',
			},
			{ onError: 'continueRegularOutput' },
		),
		projects(
			'Customer',
			{
				operation: 'create',
				project_name: 'Nobody',
				customer_id: '1199999999999',
				billing_type: 'based_on_staff_hours',
			},
			{ onError: 'continueRegularOutput' },
		),
		comments(
			'Comment on missing',
			{ operation: 'create', project_id: byId('1699999999999'), description: 'Hello' },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(result);
	expect(json(result, 'Missing')[0]).toEqual({
		error:
			'The billing project does not exist (code 1002). Check the Project ID (pick it from the list). [item 0]',
		description: 'The Vendor API answered: Project does not exist.',
		httpCode: '404',
	});
	// A negative rate is refused before sending (the Payments document, code 20004); the server's 20004 still reads as the documented meaning.
	expect(json(result, 'Negative')[0].error).toBe(
		'Invalid input: Rate must not be negative (got "-5") [item 0]',
	);
	expect(
		explainFailure({
			status: 400,
			body: { code: 20004, message: 'The amount must not be negative.' },
			area: billingArea,
		}).message,
	).toBe(
		'The amount must not be negative (code 20004). Enter zero or a positive value for the rate and budget of the project and of its tasks and users.',
	);
	// An unknown customer: the Payments document gives billing projects no code for it (3004 is a payment code); the emulator answers its own 1000 (a listed guess), which the node shows in the API's words.
	expect(json(result, 'Customer')[0].error).toBe(
		'Customer 1199999999999 does not exist. (code 1000) [item 0]',
	);
	expect(json(result, 'Comment on missing')[0].error).toMatch(
		/^The billing project does not exist \(code 1002\)/,
	);
	expect(
		env
			.apiRequests()
			.map((r) => [
				r.method,
				r.path.replace('/us/api', ''),
				r.status,
				(r.body as IDataObject | undefined)?.rate,
			]),
	).toEqual([
		['GET', '/billing/v1/projects/1699999999999', 404, undefined],
		['POST', '/billing/v1/projects', 400, undefined],
		['POST', '/billing/v1/projects/1699999999999/comments', 404, undefined],
	]);
	// 20077 (an expense is recorded, so the project cannot be deleted): no delete operation is
	// documented, so the emulator cannot produce it; the message it would give:
	expect(
		explainFailure({
			status: 400,
			body: { code: 20077, message: 'Expense recorded' },
			area: billingArea,
		}).message,
	).toBe(
		"An expense is recorded for the billing project, so it cannot be deleted (code 20077). Remove the project's expenses first.",
	);
});

test('the project and comment pickers list through the list calls with the organisation header', async () => {
	const projectPicker = env.picker(VendorBilling, 'searchProjects', {
		organizationId: org,
		resource: 'project',
		operation: 'get',
		project_id: fromList(''),
	});
	const found = await projectPicker({ filter: 'website' });
	expect(found.results).toEqual([
		{ name: 'Website relaunch', value: DEMO.billingProjects.website },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/billing/v1/projects',
			query: { page: '1', per_page: '200' },
			org,
			body: undefined,
		},
	]);

	env.em.clearRequests();
	const commentPicker = env.picker(VendorBilling, 'searchComments', {
		organizationId: org,
		resource: 'comment',
		operation: 'delete',
		project_id: byId(DEMO.billingProjects.website),
		comment_id: fromList(''),
	});
	const picked = await commentPicker();
	expect(picked.results).toEqual([{ name: 'Kick-off done.', value: '1610000000001' }]);
	expect(picked.paginationToken).toBeUndefined();
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: `/billing/v1/projects/${DEMO.billingProjects.website}/comments`,
			query: {},
			org,
			body: undefined,
		},
	]);
	expectSigned();
});
