import type { Field, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';
import { PAGING_NOTICE } from '../../shared/tables/inferred';
import { GUESSED_PAGE_END } from './portal';

/** The source of the required member of `owner`, `status`, `layout`, `project_group` and the tags' `add` / `remove` entries. */
const REFERENCE_MEMBER =
	"guess: The one member of a project's reference objects is required when the object is given";

const portalId: Field = {
	name: 'portal_id',
	type: 'id',
	numeric: true, // the Conventions document, Endpoints: `{portal_id}` and `{project_id}` are digit strings
	required: true,
	locator: 'portal',
	label: 'Portal',
	description: 'ID of the portal (a string of digits)',
	sources: 'Conventions, Endpoints: "`{portal_id}` and `{project_id}` are digit strings"',
};

const projectId: Field = {
	name: 'project_id',
	type: 'id',
	numeric: true,
	required: true,
	locator: 'project',
	label: 'Project',
	description: 'ID of the project (a string of digits)',
	sources: 'Conventions, Endpoints: "`{portal_id}` and `{project_id}` are digit strings"',
};

/** Members of the `{ id }` reference objects. */
const statusIdObject: Field[] = [
	{
		name: 'id',
		type: 'id',
		required: true,
		description: 'Status ID',
		sources: REFERENCE_MEMBER,
	},
];
const layoutIdObject: Field[] = [
	{
		name: 'id',
		type: 'id',
		required: true,
		description: 'Layout ID',
		sources: REFERENCE_MEMBER,
	},
];
const groupIdObject: Field[] = [
	{
		name: 'id',
		type: 'id',
		required: true,
		description: 'Group ID',
		sources: REFERENCE_MEMBER,
	},
];
const tagIdObject: Field[] = [
	{
		name: 'id',
		type: 'id',
		required: true,
		description: 'Tag ID',
		sources: REFERENCE_MEMBER,
	},
];

const amountObject: Field[] = [{ name: 'amount', type: 'number', description: 'Amount' }];

/** Fields shared by create and update (update differs only in `project_type` and in nothing being required). */
const description: Field = {
	name: 'description',
	type: 'string',
	maxLength: 80000,
	multiline: true,
	description: 'Project description',
	sources: 'Conventions, Project: "description | string | max 80000 characters"',
};
const isPublicProject: Field = {
	name: 'is_public_project',
	type: 'boolean',
	label: 'Public Project',
	description: 'Whether the project is public',
};
const startDate: Field = {
	name: 'start_date',
	type: 'date',
	description: 'Start date of the project (yyyy-mm-dd)',
	sources: 'Conventions, Project: "start_date | string | YYYY-MM-DD"',
};
const endDate: Field = {
	name: 'end_date',
	type: 'date',
	description: 'End date of the project (yyyy-mm-dd)',
	sources: 'Conventions, Project: "end_date | string | YYYY-MM-DD"',
};
const addedVia: Field = {
	name: 'added_via',
	type: 'enum',
	values: ['web', 'api'],
	description: 'Where the project was added from',
	sources: 'Conventions, Project: "added_via | string | allowed: web, api"',
};
const isRollupProject: Field = {
	name: 'is_rollup_project',
	type: 'boolean',
	label: 'Rollup Project',
	description: 'Whether the project is a rollup project',
};

const scalarNotShown =
	'Sent as the text or number you enter; if the service does not accept it, the call fails with its message';

const createFields: Field[] = [
	portalId,
	{
		name: 'name',
		type: 'string',
		required: true,
		maxLength: 200,
		description: 'Project name',
		sources: 'Conventions, Project: "name | string | required, max 200 characters"',
	},
	description,
	{
		name: 'project_type',
		type: 'enum',
		values: ['active', 'template'],
		description: 'Create an active project or a template',
		sources: 'Conventions, Project: "project_type | string | allowed: active, template"',
	},
	{
		name: 'owner',
		type: 'object',
		description: 'Project owner',
		fields: [
			{
				name: 'zpuid',
				type: 'id',
				required: true,
				description: 'User ID of the owner',
				sources: REFERENCE_MEMBER,
			},
		],
	},
	isPublicProject,
	startDate,
	endDate,
	{ name: 'status', type: 'object', description: 'Project status', fields: statusIdObject },
	{ name: 'layout', type: 'object', description: 'Project layout', fields: layoutIdObject },
	addedVia,
	isRollupProject,
	{
		name: 'budget_info',
		type: 'object',
		pickMembers: true,
		description: 'Budget settings',
		fields: [
			{ name: 'billing_method', type: 'string', description: scalarNotShown },
			{ name: 'budget_type', type: 'string', description: scalarNotShown },
			{ name: 'tracking_method', type: 'string', description: scalarNotShown },
			{ name: 'currency', type: 'string', description: scalarNotShown },
			{ name: 'hourly_budget', type: 'string', description: scalarNotShown },
			{ name: 'hourly_budget_threshold', type: 'string', description: scalarNotShown },
			{
				name: 'cost_budget',
				type: 'object',
				description: 'Cost budget, as an amount',
				fields: amountObject,
			},
			{
				name: 'rate_per_hour',
				type: 'object',
				description: 'Rate per hour, as an amount',
				fields: amountObject,
			},
			{
				name: 'budget_threshold',
				type: 'object',
				description: 'Budget threshold, as an amount',
				fields: amountObject,
			},
			{
				name: 'fixed_cost',
				type: 'object',
				description: 'Fixed cost, as an amount',
				fields: amountObject,
			},
			{
				name: 'cost_per_hour',
				type: 'object',
				description: 'Cost per hour, as an amount',
				fields: amountObject,
			},
			{
				name: 'revenue_budget',
				type: 'object',
				description: 'Revenue budget, as an amount',
				fields: amountObject,
			},
		],
	},
	{
		name: 'project_group',
		type: 'object',
		description: 'ID of the group the project belongs to',
		fields: groupIdObject,
	},
	{ name: 'sub_module_settings', type: 'json', description: 'Sub-module settings (JSON object)' },
	{
		name: 'tags',
		type: 'array',
		jsonAlternative: true,
		membersAsFields: true,
		description:
			'Tags of the project: in each entry, the IDs of the tags to add and to remove, or one tag ID',
		fields: [
			{
				name: 'add',
				type: 'array',
				label: 'Tags to Add',
				description: 'IDs of the tags to add',
				fields: tagIdObject,
			},
			{
				name: 'remove',
				type: 'array',
				label: 'Tags to Remove',
				description: 'IDs of the tags to remove',
				fields: tagIdObject,
			},
			{ name: 'id', type: 'id', description: 'Tag ID' },
		],
	},
	{
		name: 'copy_from',
		type: 'id',
		numeric: true, // the Conventions document: copy_from | long
		locator: 'project',
		description: 'ID of a template or an existing project to copy from',
		sources: 'Conventions, Project: "copy_from | long"',
	},
];

const updateFields: Field[] = [
	portalId,
	projectId,
	{
		name: 'name',
		type: 'string',
		maxLength: 200,
		description: 'Project name',
		sources: 'Conventions, Project: "Update body (PATCH): name (max 200), description (max 80000)"',
	},
	description,
	{
		name: 'project_type',
		type: 'enum',
		values: ['active', 'template', 'archived'],
		description: 'Type of the project; Archived archives it',
		sources: 'Conventions, Project: "project_type (allowed: active, template, archived)"',
	},
	isPublicProject,
	startDate,
	endDate,
	addedVia,
	isRollupProject,
];

const CUSTOM_FIELDS_NOTE =
	'Custom field values by API name and type, see customFieldTypes: entered in "Custom Fields" (node property), validated, and added as top-level body keys (special customFields).';

export const project: Resource = {
	value: 'project',
	name: 'Project',
	// The record's fields are not shown; `id` / `name` follow the area's convention
	// (create body `name`, `{ id }` references). The picker relies on them.
	idField: 'id',
	nameField: 'name',
	listOperation: GET_MANY,
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create project',
			description: 'Create a project in a portal',
			kind: 'create',
			method: 'POST',
			path: '/portal/{portal_id}/projects',
			scope: 'VendorProjects.projects.CREATE',
			fields: createFields,
			special: 'customFields',
			notes: `${CUSTOM_FIELDS_NOTE} The types of the budget_info scalar members are not shown (offered as strings). Response body not shown.`,
			sources: {
				path: 'Conventions, Endpoints: "12 | POST | /api/v3/portal/{portal_id}/projects"',
			},
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get project',
			description: 'Get one project by its ID',
			kind: 'get',
			method: 'GET',
			path: '/portal/{portal_id}/projects/{project_id}',
			scope: 'VendorProjects.projects.READ',
			fields: [portalId, projectId],
			notes: 'Response body not shown.',
			sources: {
				path: 'Conventions, Endpoints: "11 | GET | /api/v3/portal/{portal_id}/projects/{project_id}"',
			},
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get many projects',
			description: 'List the projects of a portal',
			kind: 'list',
			method: 'GET',
			path: '/portal/{portal_id}/projects',
			scope: 'VendorProjects.projects.READ',
			fields: [portalId],
			pagination: 'pageSize',
			inferred: true,
			inferredNote: GUESSED_PAGE_END,
			notice: PAGING_NOTICE,
			notes:
				'Response body not shown; the record fields used by the project picker (id, name) are inferred.',
			sources: {
				pagination: `guess: ${GUESSED_PAGE_END}`,
				path: 'Conventions, Endpoints: "10 | GET | /api/v3/portal/{portal_id}/projects"',
			},
		},
		{
			value: 'update',
			name: 'Update',
			action: 'Update project',
			description: 'Update a project',
			kind: 'update',
			method: 'PATCH',
			path: '/portal/{portal_id}/projects/{project_id}',
			scope: 'VendorProjects.projects.UPDATE',
			fields: updateFields,
			special: 'customFields',
			notes: `The update body also accepts a completed-time string whose field name is not shown; it is left out. ${CUSTOM_FIELDS_NOTE} Response body not shown.`,
			sources: {
				path: 'Conventions, Endpoints: "13 | PATCH | /api/v3/portal/{portal_id}/projects/{project_id}"',
			},
		},
	],
	/**
	 * Simplify: the fields kept. The record is not shown in the documents: `id` / `name` as the
	 * picker assumes, the others named as in the create body; fields the record lacks are left out.
	 */
	simplify: ['id', 'name', 'project_type', 'status', 'start_date', 'end_date', 'owner'],
};
