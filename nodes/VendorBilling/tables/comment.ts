import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';

/**
 * Comments on billing projects (the Payments document, "Billing projects"). Paths are relative to
 * `{api_url}/billing/v1`.
 */

const SCOPE = 'VendorSubscriptions.projects.';

const projectIdPath: Field = {
	name: 'project_id',
	type: 'id',
	required: true,
	locator: 'project',
	description: 'ID of the billing project',
};

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Add comment to billing project',
		description: 'Add a comment to a billing project',
		kind: 'create',
		method: 'POST',
		path: '/projects/{project_id}/comments',
		scope: `${SCOPE}CREATE`,
		fields: [
			projectIdPath,
			{
				name: 'description',
				type: 'string',
				required: true,
				maxLength: 500,
				multiline: true,
				description: 'Text of the comment',
				sources: 'Payments, Billing project: "description (required on input, max 500)"',
			},
		],
		responseKey: 'comments',
		sources: { path: 'Payments, Billing projects: "POST | /projects/{project_id}/comments"' },
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many billing project comments',
		description: 'List the comments of a billing project',
		kind: 'list',
		method: 'GET',
		path: '/projects/{project_id}/comments',
		scope: `${SCOPE}READ`,
		fields: [projectIdPath],
		responseKey: 'comments',
		pagination: 'none',
		notes: 'Pagination is not shown; the comments of one project are taken in one call.',
		sources: {
			pagination: "guess: a refund list and a billing project's comments are one call",
			path: 'Payments, Billing projects: "GET | /projects/{project_id}/comments"',
		},
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete billing project comment',
		description: 'Delete a comment from a billing project',
		kind: 'delete',
		method: 'DELETE',
		path: '/projects/{project_id}/comments/{comment_id}',
		scope: `${SCOPE}DELETE`,
		fields: [
			projectIdPath,
			{
				name: 'comment_id',
				type: 'id',
				required: true,
				locator: 'comment',
				description: 'ID of the comment',
			},
		],
		sources: {
			path: 'Payments, Billing projects: "DELETE | /projects/{project_id}/comments/{comment_id}"',
		},
	},
];

export const comment: Resource = {
	value: 'comment',
	name: 'Comment',
	idField: 'comment_id',
	nameField: 'description',
	listOperation: GET_MANY,
	operations,
};
