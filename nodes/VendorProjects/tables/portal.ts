import type { Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';

/**
 * Portals: the top-level container of the project-management area (document 000,
 * "Portal", endpoints 1 and 2). Fields of the portal record are not shown.
 */
/**
 * The UI notice (`inferredNote`) of the project-management lists: the documents show their
 * page / per_page parameters but not their answers.
 */
export const GUESSED_PAGE_END =
	"this list's answer is not in the vendor's API reference; 200 records per page are asked for, and Return All stops at a shorter page unless the answer's page_info says more follow.";

export const portal: Resource = {
	value: 'portal',
	name: 'Portal',
	// The record's fields are not shown. `id` / `name` follow the area's convention
	// (`status: { id }`, `layout: { id }`, project `name`); the picker relies on them.
	idField: 'id',
	nameField: 'name',
	listOperation: GET_MANY,
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get many portals',
			description: 'List the portals the user can access',
			kind: 'list',
			method: 'GET',
			path: '/portals',
			scope: 'VendorProjects.portals.READ',
			fields: [],
			pagination: 'none',
			notes:
				'Response body not shown; the record fields used by the portal picker (id, name) are inferred.',
			sources: {
				pagination:
					'Conventions, Endpoints: "1 | GET | /api/v3/portals | VendorProjects.portals.READ | none"',
			},
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get portal',
			description: 'Get one portal by its ID',
			kind: 'get',
			method: 'GET',
			path: '/portal/{portal_id}',
			scope: 'VendorProjects.portals.READ',
			fields: [
				{
					name: 'portal_id',
					type: 'id',
					numeric: true, // the Conventions document, Endpoints: `{portal_id}` and `{project_id}` are digit strings
					required: true,
					locator: 'portal',
					label: 'Portal',
					description: 'ID of the portal (a string of digits)',
					sources: 'Conventions, Endpoints: "`{portal_id}` and `{project_id}` are digit strings"',
				},
			],
			notes: 'Response body not shown.',
			sources: { path: 'Conventions, Endpoints: "2 | GET | /api/v3/portal/{portal_id}"' },
		},
	],
};
