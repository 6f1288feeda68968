import { GUESSED_PAGING, PAGING_NOTICE, sortOrder } from '../../shared/tables/inferred';
import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';

/**
 * Billing projects (the Payments document, "Billing projects"): tasks, staff, hours and billing for
 * a customer. Paths are relative to `{api_url}/billing/v1`; the organisation id travels in
 * the header `X-com-vendor-subscriptions-organizationid` (added by the engine).
 */

const SCOPE = 'VendorSubscriptions.projects.';

const BILLING_TYPES = [
	'fixed_cost_for_project',
	'based_on_project_hours',
	'based_on_staff_hours',
	'based_on_task_hours',
] as const;

const BUDGET_TYPES = [
	'total_project_cost',
	'total_project_hours',
	'hours_per_task',
	'hours_per_staff',
] as const;

const projectIdPath: Field = {
	name: 'project_id',
	type: 'id',
	required: true,
	locator: 'project',
	description: 'ID of the billing project',
};

/** The project create body; update takes the same fields. */
const projectInput: Field[] = [
	{
		name: 'project_name',
		type: 'string',
		required: true,
		maxLength: 100,
		description: 'Name of the project',
		sources:
			'Payments, Billing project: "project_name | string, required on create and update, max 100"',
	},
	{
		name: 'customer_id',
		type: 'id',
		required: true,
		description: 'ID of the customer the project is for',
		sources: 'Payments, Billing project: "customer_id | string, required"',
	},
	{
		name: 'billing_type',
		type: 'enum',
		required: true,
		values: BILLING_TYPES,
		valueLabels: {
			fixed_cost_for_project: 'Fixed Cost for Project',
			based_on_project_hours: 'Based on Project Hours',
			based_on_staff_hours: 'Based on Staff Hours',
			based_on_task_hours: 'Based on Task Hours',
		},
		description: 'How the project is billed',
		sources: {
			required: 'Payments, Billing project: "billing_type | string, required"',
			values:
				'Payments, Billing project: "billing_type | string, required; allowed fixed_cost_for_project, based_on_project_hours, based_on_staff_hours, based_on_task_hours"',
			keepCurrent: 'Payments, Billing project: "billing_type | string, required"',
		},
	},
	{
		name: 'rate',
		type: 'string',
		numeric: true,
		min: 0,
		top: true,
		requiredWhen: {
			field: 'billing_type',
			values: ['fixed_cost_for_project', 'based_on_project_hours'],
		},
		description:
			"Rate of the project (a number, sent as text; not negative). Required when 'Billing Type' is Fixed Cost for Project (the fixed price) or Based on Project Hours (the hourly rate).",
		sources: {
			requiredWhen:
				'Payments, Billing project: "rate | string on input (number in responses); mandatory when billing_type is fixed_cost_for_project or based_on_project_hours"',
			min: 'guess: Billing project amounts are not negative',
			numeric: 'Payments, Billing project: "rate | string on input (number in responses)"',
			keepCurrent:
				'Payments, Billing project: "rate | string on input (number in responses); mandatory when billing_type is fixed_cost_for_project or based_on_project_hours"',
		},
	},
	{
		name: 'description',
		type: 'string',
		maxLength: 500,
		multiline: true,
		description: 'Description of the project',
		sources: 'Payments, Billing project: "description | string, max 500"',
	},
	{
		name: 'budget_type',
		type: 'enum',
		values: BUDGET_TYPES,
		valueLabels: {
			total_project_cost: 'Total Project Cost',
			total_project_hours: 'Total Project Hours',
			hours_per_task: 'Hours per Task',
			hours_per_staff: 'Hours per Staff',
		},
		description: 'How the project budget is set',
		sources:
			'Payments, Billing project: "budget_type | string; allowed total_project_cost, total_project_hours, hours_per_task, hours_per_staff"',
	},
	{ name: 'budget_hours', type: 'string', description: 'Budgeted hours' },
	{
		name: 'budget_amount',
		type: 'string',
		numeric: true,
		min: 0,
		description:
			'Budgeted amount (a number, sent as text; not negative); given when estimating the total project cost',
		sources: 'guess: Billing project amounts are not negative',
	},
	{
		name: 'tasks',
		type: 'array',
		jsonAlternative: true,
		description: 'Tasks of the project',
		fields: [
			{ name: 'task_id', type: 'id', description: 'ID of an existing task (when updating)' },
			{
				name: 'task_name',
				type: 'string',
				required: true,
				maxLength: 100,
				description: 'Name of the task',
				sources: 'Payments, Billing project: "task_name (required on input, max 100)"',
			},
			{
				name: 'description',
				type: 'string',
				maxLength: 500,
				multiline: true,
				description: 'Description of the task',
				sources:
					'Payments, Billing project: "task_name (required on input, max 100), description (max 500)"',
			},
			{
				name: 'rate',
				type: 'number',
				min: 0,
				description: 'Rate of the task (not negative)',
				sources: 'guess: Billing project amounts are not negative',
			},
			{ name: 'budget_hours', type: 'string', description: 'Budgeted hours of the task' },
			{
				name: 'is_billable',
				type: 'boolean',
				label: 'Billable',
				description: 'Whether the task is billable (left empty: not sent)',
			},
		],
	},
	{
		name: 'users',
		type: 'array',
		jsonAlternative: true,
		description: 'Staff users of the project',
		fields: [
			{
				name: 'user_id',
				type: 'id',
				required: true,
				description: 'ID of the user',
				sources: 'Payments, Billing project: "user_id (required on input)"',
			},
			{
				name: 'user_role',
				type: 'enum',
				values: ['staff', 'admin', 'timesheetstaff'],
				valueLabels: { staff: 'Staff', admin: 'Admin', timesheetstaff: 'Timesheet Staff' },
				description: 'Role of the user in the project (left empty: not sent, the server decides)',
				sources: 'Payments, Billing project: "user_role (allowed staff, admin, timesheetstaff)"',
			},
			{
				name: 'user_name',
				type: 'string',
				maxLength: 200,
				description: 'Name of the user',
				sources: 'Payments, Billing project: "user_name (max 200)"',
			},
			{
				name: 'email',
				type: 'email',
				maxLength: 100,
				description: 'Email address of the user',
				sources: 'Payments, Billing project: "email (max 100)"',
			},
			{
				name: 'rate',
				type: 'number',
				min: 0,
				description: 'Rate of the user (not negative)',
				sources: 'guess: Billing project amounts are not negative',
			},
			{ name: 'budget_hours', type: 'string', description: 'Budgeted hours of the user' },
		],
	},
];

const BILLING_RATE_NOTE =
	"rate is required when billing_type is fixed_cost_for_project or based_on_project_hours: the field's requiredWhen rule, checked before sending.";

const INPUT_NOTE =
	'The create body is not listed field by field; its fields are the writable fields of the project record. currency_code and show_in_dashboard appear only in the record and are not offered as input.';

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create billing project',
		description: 'Create a billing project',
		kind: 'create',
		method: 'POST',
		path: '/projects',
		scope: `${SCOPE}CREATE`,
		fields: projectInput,
		responseKey: 'project',
		notes: `${BILLING_RATE_NOTE} ${INPUT_NOTE} Error 20004: the amount must not be negative, so rate, budget_amount and the task and user rates are checked before sending (min 0).`,
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get billing project',
		description: 'Retrieve a billing project',
		kind: 'get',
		method: 'GET',
		path: '/projects/{project_id}',
		scope: `${SCOPE}READ`,
		fields: [projectIdPath],
		responseKey: 'project',
		notes: 'Error 1002: the project does not exist.',
		sources: { path: 'Payments, Billing projects: "GET | /projects/{project_id}"' },
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many billing projects',
		description: 'List billing projects',
		kind: 'list',
		method: 'GET',
		path: '/projects',
		scope: `${SCOPE}READ`,
		fields: [
			{
				name: 'filter_by',
				type: 'enum',
				label: 'Status',
				values: ['Status.All', 'Status.Active', 'Status.Inactive'],
				valueLabels: {
					'Status.All': 'All',
					'Status.Active': 'Active',
					'Status.Inactive': 'Inactive',
				},
				description: 'Only projects of this status',
				sources:
					'Payments, Billing projects: "GET | /projects | READ | query filter_by (Status.All, Status.Active, Status.Inactive), customer_id, sort_column (project_name, customer_name, rate, created_time)"',
			},
			{ name: 'customer_id', type: 'id', description: 'Only projects of this customer' },
			{
				name: 'sort_column',
				type: 'enum',
				values: ['project_name', 'customer_name', 'rate', 'created_time'],
				valueLabels: {
					project_name: 'Project Name',
					customer_name: 'Customer Name',
					rate: 'Rate',
					created_time: 'Created Time',
				},
				description: 'Column to sort by',
				sources:
					'Payments, Billing projects: "GET | /projects | READ | query filter_by (Status.All, Status.Active, Status.Inactive), customer_id, sort_column (project_name, customer_name, rate, created_time)"',
			},
			{
				...sortOrder,
				description: 'Ascending or descending order',
			},
		],
		responseKey: 'projects',
		pagination: 'pageContext',
		inferred: true,
		inferredNote: GUESSED_PAGING,
		notice: PAGING_NOTICE,
		notes:
			"Inferred pagination: not shown for billing projects; accounting lists in the Accounting document page with page / per_page and answer page_context, so the same is assumed here. Inferred parameter: sort_order (A / D), as the accounting lists' page_context names it (the Billing Trigger reads newest first with it).",
		sources: { pagination: `guess: ${GUESSED_PAGING}` },
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update billing project',
		description:
			'Update a billing project; a name, customer, billing type or rate you leave out is read from the project just before the write and sent again, overwriting any change someone else makes to it between the read and the write (the API offers no conditional update)',
		kind: 'update',
		method: 'PUT',
		path: '/projects/{project_id}',
		scope: `${SCOPE}UPDATE`,
		fields: [projectIdPath, ...projectInput],
		responseKey: 'project',
		keepCurrent: ['project_name', 'customer_id', 'billing_type', 'rate'],
		notes: `Same fields as create (project_name, customer_id and billing_type required on every update: the current values, read just before the write, where the user leaves them out; the API offers no conditional update, so a change made to them by someone else between the read and the write is overwritten, and a given-but-blank value is refused, never replaced by the read one). ${BILLING_RATE_NOTE}`,
		sources: { path: 'Payments, Billing projects: "PUT | /projects/{project_id}"' },
	},
	{
		value: 'removeUser',
		name: 'Remove User',
		action: 'Remove user from billing project',
		description: 'Remove a staff user from a billing project',
		kind: 'delete',
		method: 'DELETE',
		path: '/projects/{project_id}/users/{user_id}',
		fields: [
			projectIdPath,
			{
				name: 'user_id',
				type: 'id',
				required: true,
				description: 'ID of the staff user to remove',
			},
		],
		notes: 'Scope: not stated in the documents. The answer is the envelope only.',
		sources: {
			path: 'Payments, Billing projects: "DELETE | /projects/{project_id}/users/{user_id}"',
		},
	},
	{
		value: 'getInvoices',
		name: 'Get Invoices',
		action: 'Get billing project invoices',
		description: 'List the invoices raised for a billing project',
		kind: 'list',
		method: 'GET',
		path: '/projects/{project_id}/invoices',
		scope: `${SCOPE}READ`,
		fields: [
			projectIdPath,
			{
				name: 'sort_column',
				type: 'enum',
				values: ['invoice_number', 'date', 'total', 'balance', 'created_time'],
				valueLabels: {
					invoice_number: 'Invoice Number',
					date: 'Date',
					total: 'Total',
					balance: 'Balance',
					created_time: 'Created Time',
				},
				description: 'Column to sort by',
				sources:
					'Payments, Billing projects: "GET | /projects/{project_id}/invoices | READ | query sort_column (invoice_number, date, total, balance, created_time)"',
			},
		],
		responseKey: 'invoices',
		pagination: 'pageContext',
		inferred: true,
		inferredNote: GUESSED_PAGING,
		notice: PAGING_NOTICE,
		notes:
			'Inferred pagination: not shown; assumed to follow the accounting lists of the Accounting document (page / per_page, page_context).',
		sources: {
			pagination: `guess: ${GUESSED_PAGING}`,
			path: 'Payments, Billing projects: "GET | /projects/{project_id}/invoices"',
		},
	},
];

export const project: Resource = {
	value: 'project',
	name: 'Project',
	idField: 'project_id',
	nameField: 'project_name',
	listOperation: GET_MANY,
	operations,
	/** Simplify: the fields kept (billing project list entry fields of the documents). */
	simplify: [
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
};
