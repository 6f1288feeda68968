import type { Field, Resource } from '../../shared/tables/spec';
import { PAGING_NOTICE } from '../../shared/tables/inferred';
import { GUESSED_PAGE_END } from './portal';

const SCOPES = ['VendorProjects.portals.READ', 'VendorSearch.securesearch.READ'];

const portalId: Field = {
	name: 'portal_id',
	type: 'id',
	required: true,
	locator: 'portal',
	label: 'Portal',
	numeric: true, // the Conventions document, Endpoints: `{portal_id}` and `{project_id}` are digit strings
	description: 'ID of the portal (a string of digits)',
	sources: 'Conventions, Endpoints: "`{portal_id}` and `{project_id}` are digit strings"',
};

const searchTerm: Field = {
	name: 'search_term',
	type: 'string',
	required: true,
	description: 'Text to search for',
	sources:
		'Conventions, Endpoints: "`search_term` (string, required), `module` (string, required)"',
};

/*
 * Module and Status: required, with no default in the Conventions document ("Search query parameters"): they
 * start unset and the user picks them.
 */

/** The form's words for the extra search parameters (their types are not shown: sent as the text entered). */
const EXTRA =
	'Sent as the text you enter; if the service does not accept it, the search fails with its message';

/** The extra search parameters whose types are not shown: optional strings. */
const extraParameters: Field[] = [
	{ name: 'index', type: 'string', description: EXTRA },
	{ name: 'range', type: 'string', description: EXTRA },
	{ name: 'category_id', type: 'string', description: EXTRA },
	{ name: 'path', type: 'string', description: EXTRA },
	{ name: 'sortbyfield', type: 'string', label: 'Sort By Field', description: EXTRA },
	{ name: 'is_zia', type: 'string', label: 'Zia Search', description: EXTRA },
];

export const search: Resource = {
	value: 'search',
	name: 'Search',
	operations: [
		{
			value: 'search',
			name: 'Search',
			action: 'Search portal',
			description: 'Search records across the whole portal',
			kind: 'list',
			method: 'GET',
			path: '/portal/{portal_id}/search',
			scope: SCOPES,
			fields: [
				portalId,
				searchTerm,
				{
					name: 'module',
					type: 'enum',
					required: true,
					values: [
						'all',
						'projects',
						'milestones',
						'tasklists',
						'tasks',
						'bugs',
						'forums',
						'events',
						'status',
					],
					description: 'Module to search in',
					sources: {
						required:
							'Conventions, Endpoints: "`search_term` (string, required), `module` (string, required)"',
						values:
							'Conventions, Endpoints: "Allowed `module` values for the portal-wide search: all, projects, milestones, tasklists, tasks, bugs, forums, events, status"',
					},
				},
				{
					name: 'status',
					type: 'enum',
					required: true,
					values: ['all', 'active', 'archived', 'template'],
					description: 'Status of the projects to search in',
					sources: {
						required:
							'Conventions, Endpoints: "`status` (string, required for the portal-wide search only"',
						values:
							'Conventions, Endpoints: "`status` (string, required for the portal-wide search only; allowed all, active, archived, template)"',
					},
				},
				...extraParameters,
			],
			pagination: 'pageSize',
			inferred: true,
			inferredNote: GUESSED_PAGE_END,
			notice: PAGING_NOTICE,
			notes:
				'index, range, category_id, path, sortbyfield and is_zia are accepted but their types are not shown: offered as optional strings. Response body not shown.',
			sources: {
				pagination: `guess: ${GUESSED_PAGE_END}`,
				path: 'Conventions, Endpoints: "8 | GET | /api/v3/portal/{portal_id}/search"',
			},
		},
		{
			value: 'searchInProject',
			name: 'Search in Project',
			action: 'Search in project',
			description: 'Search records within one project',
			kind: 'list',
			method: 'GET',
			path: '/portal/{portal_id}/projects/{project_id}/search',
			scope: SCOPES,
			fields: [
				portalId,
				{
					name: 'project_id',
					type: 'id',
					required: true,
					locator: 'project',
					label: 'Project',
					numeric: true,
					description: 'ID of the project (a string of digits)',
					sources: 'Conventions, Endpoints: "`{portal_id}` and `{project_id}` are digit strings"',
				},
				searchTerm,
				{
					name: 'module',
					type: 'enum',
					required: true,
					values: ['all', 'milestones', 'tasklists', 'tasks', 'bugs', 'forums', 'events', 'status'],
					description: 'Module to search in',
					sources: {
						required:
							'Conventions, Endpoints: "`search_term` (string, required), `module` (string, required)"',
						values:
							'Conventions, Endpoints: "Allowed `module` values for the portal-wide search: all, projects, milestones, tasklists, tasks, bugs, forums, events, status. For the project-scoped search: all, milestones, tasklists, tasks, bugs, forums, events, status"',
					},
				},
				...extraParameters,
			],
			pagination: 'pageSize',
			inferred: true,
			inferredNote: GUESSED_PAGE_END,
			notice: PAGING_NOTICE,
			notes:
				'No status parameter. index, range, category_id, path, sortbyfield and is_zia are accepted but their types are not shown: offered as optional strings. Response body not shown.',
			sources: {
				pagination: `guess: ${GUESSED_PAGE_END}`,
				path: 'Conventions, Endpoints: "9 | GET | /api/v3/portal/{portal_id}/projects/{project_id}/search"',
			},
		},
	],
};
