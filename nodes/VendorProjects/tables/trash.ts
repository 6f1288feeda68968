import type { Field, Resource } from '../../shared/tables/spec';
import { PAGING_NOTICE } from '../../shared/tables/inferred';
import { GUESSED_PAGE_END } from './portal';

/** Modules whose records can be trashed, restored and deleted (document 000, "Trash request item"). */
const trashModules = ['projects', 'phases', 'tasklists', 'tasks', 'issues'] as const;

const portalId: Field = {
	name: 'portal_id',
	type: 'id',
	required: true,
	locator: 'portal',
	label: 'Portal',
	numeric: true, // the Conventions document, Endpoints: `{portal_id}` is a digit string
	description: 'ID of the portal (a string of digits)',
	sources: 'Conventions, Endpoints: "`{portal_id}` and `{project_id}` are digit strings"',
};

const moduleField: Field = {
	name: 'module',
	type: 'enum',
	required: true,
	values: trashModules,
	description: 'Module the records belong to',
	sources: {
		required: 'Conventions, Trash request item: "module: string (required)"',
		values:
			'Conventions, Trash request item: "The allowed `module` values are projects, phases, tasklists, tasks, issues"',
	},
};

const itemsField: Field = {
	name: 'items',
	type: 'array',
	label: 'Record IDs',
	minItems: 0,
	maxItems: 100,
	of: { name: 'item', type: 'id', description: 'Record ID' },
	description: 'IDs of the records (0 to 100 per request item)',
	sources: 'Conventions, Limits: "Trash request `items` | 0 to 100 ids"',
};

/** A JSON-array body of trash request items: `[ { module, items }, ... ]`. */
const trashRequestItems: Field = {
	name: 'trash_request_items',
	type: 'array',
	in: 'body',
	bodyRoot: true,
	required: true,
	jsonAlternative: true,
	membersAsFields: true,
	label: 'Records',
	description: 'The records, one entry per module: the module and up to 100 record IDs',
	fields: [moduleField, itemsField],
	sources: 'Conventions, Endpoints: "body: array of trash request items"',
};

export const trash: Resource = {
	value: 'trash',
	name: 'Trash',
	operations: [
		{
			value: 'moveToTrash',
			name: 'Move to Trash',
			action: 'Move records to trash',
			description: 'Move records of one module to the trash',
			kind: 'action',
			method: 'POST',
			path: '/portal/{portal_id}/trash',
			scope: 'VendorProjects.portals.CREATE',
			fields: [
				portalId,
				moduleField,
				{
					...itemsField,
					top: true,
					required: true,
					maxItems: undefined,
					description:
						'IDs of the records; more than 100 are sent in the fewest calls of at most 100',
					sources: {
						required: 'guess: The record IDs (`items`) of a move to the trash are required',
						minItems: 'Conventions, Limits: "Trash request `items` | 0 to 100 ids"',
					},
				},
			],
			batch: { field: 'items', size: 100 },
			notes:
				'The body is a single trash request item { module, items } of at most 100 IDs; more IDs are split into the fewest calls (one output item per call). Response body not shown.',
			sources: {
				batch: 'Conventions, Limits: "Trash request `items` | 0 to 100 ids"',
				path: 'Conventions, Endpoints: "4 | POST | /api/v3/portal/{portal_id}/trash"',
			},
		},
		{
			value: 'getBin',
			name: 'Get Many',
			action: 'Get many trashed records',
			description: 'List the records in the trash',
			kind: 'list',
			method: 'GET',
			path: '/portal/{portal_id}/bin',
			scope: 'VendorProjects.portals.READ',
			fields: [
				portalId,
				{
					name: 'sort_by',
					type: 'string',
					sortFields: ['trashed_time', 'name'],
					inferredRule:
						"desc(field) offered besides asc(field), the only form the vendor's API reference shows",
					description:
						'Field and direction to sort the records by. If the service refuses Descending or the records come in the wrong order, choose Ascending.',
					sources:
						"guess: desc(field) offered besides asc(field), the only form the vendor's API reference shows",
				},
				{
					name: 'filter',
					type: 'object',
					jsonAlternative: true,
					membersAsFields: true,
					description: 'Conditions the records must meet, and how the conditions combine',
					fields: [
						{
							name: 'criteria',
							type: 'array',
							description: 'Conditions on the records',
							fields: [
								{
									name: 'cfid',
									type: 'string',
									label: 'Field ID',
									description: 'ID of the field to compare, as the service names it',
								},
								{
									name: 'criteria_condition',
									type: 'string',
									label: 'Condition',
									description:
										'How to compare, as the service names it; a condition it does not know fails the call with its message',
								},
								{
									name: 'value',
									type: 'array',
									label: 'Values',
									of: { name: 'value', type: 'string' },
									description: 'Values to compare with',
								},
							],
						},
						{
							name: 'pattern',
							type: 'string',
							description: 'How the criteria combine, as the service names it',
						},
					],
				},
			],
			pagination: 'pageSize',
			inferred: true,
			inferredNote: GUESSED_PAGE_END,
			notice: PAGING_NOTICE,
			notes:
				'sort_by: a sort field (trashed_time, name) and a direction, sent as "asc(field)" (the Conventions document) or "desc(field)" (a listed guess: the documents show only asc(field); the Record Moved to Trash trigger reads with desc(trashed_time)). filter: built from fields or given as raw JSON, sent as a JSON string in the query. The values allowed for cfid, criteria_condition and pattern are not shown. Response body not shown.',
			sources: {
				pagination: `guess: ${GUESSED_PAGE_END}`,
				path: 'Conventions, Endpoints: "3 | GET | /api/v3/portal/{portal_id}/bin"',
			},
		},
		{
			value: 'restore',
			name: 'Restore',
			action: 'Restore records from trash',
			description: 'Restore trashed records (within 30 days of trashing)',
			kind: 'action',
			method: 'POST',
			path: '/portal/{portal_id}/bin/restore',
			scope: 'VendorProjects.portals.CREATE',
			fields: [portalId, trashRequestItems],
			notes:
				'The body is a JSON array of { module, items }, each items list at most 100 IDs. Records can be restored within 30 days of trashing. Response body not shown.',
			sources: {
				path: 'Conventions, Endpoints: "6 | POST | /api/v3/portal/{portal_id}/bin/restore"',
			},
		},
		{
			value: 'deletePermanently',
			name: 'Delete Permanently',
			action: 'Permanently delete trashed records',
			description: 'Permanently delete trashed records, which cannot be restored',
			kind: 'delete',
			method: 'DELETE',
			path: '/portal/{portal_id}/bin',
			scope: 'VendorProjects.portals.CREATE',
			fields: [portalId, trashRequestItems],
			notes:
				'DELETE with a JSON-array body of { module, items }, each items list at most 100 IDs. Response body not shown.',
			sources: { path: 'Conventions, Endpoints: "5 | DELETE | /api/v3/portal/{portal_id}/bin"' },
		},
		{
			value: 'emptyBin',
			name: 'Empty Trash',
			action: 'Empty trash',
			description: 'Permanently delete every record in the trash',
			kind: 'delete',
			method: 'DELETE',
			path: '/portal/{portal_id}/empty-bin',
			scope: 'VendorProjects.portals.CREATE',
			fields: [portalId],
			notes: 'Response body not shown.',
			sources: {
				path: 'Conventions, Endpoints: "7 | DELETE | /api/v3/portal/{portal_id}/empty-bin"',
			},
		},
	],
};
