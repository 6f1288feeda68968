import type { Resource } from '../../shared/tables/spec';

/** My Tasks: the tasks of the signed-in user in a portal (document 000, endpoint 14). */
export const myTasks: Resource = {
	value: 'myTasks',
	name: 'My Task',
	operations: [
		{
			value: 'get',
			name: 'Get',
			action: 'Get my tasks',
			description: 'Get the tasks of the signed-in user in a portal',
			kind: 'list',
			method: 'GET',
			path: '/portal/{portal_id}/mytasks',
			// Scope: not stated in the documents.
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
			pagination: 'none',
			notes:
				'Scope not stated; no input besides the portal; the answer is a list of tasks, but no pagination is documented (one call answers everything). Response body not shown.',
			sources: {
				pagination: 'guess: My Tasks answers a list with no documented paging: one call.',
				path: 'Conventions, Endpoints: "14 | GET | /api/v3/portal/{portal_id}/mytasks"',
			},
		},
	],
};
