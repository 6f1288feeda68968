/**
 * The organizations of the account: the list behind every accounting node's Organization ID
 * picker ("From List"). No call that lists organizations is documented; the accounting
 * areas name their lists `GET /<records>` with the records under the plural key, so
 * `GET /organizations` answering `organizations` (`organization_id`, `name`) is inferred
 * and listed in docs/ASSUMPTIONS.md; the picker's description says to enter the ID (By ID)
 * if the list fails, which always works without it.
 */
import { GET_MANY } from './spec';
import type { Operation, Resource } from './spec';

const ORGANIZATIONS_INFERRED =
	"the organization list is not in the vendor's API reference; it is read with GET /organizations, the way the accounting lists are named. If it fails, enter the ID (By ID).";

export const ORGANIZATIONS_LIST: Operation = {
	value: GET_MANY,
	name: 'Get Many',
	action: 'Get many organizations',
	description: 'List the organizations of the account',
	kind: 'list',
	method: 'GET',
	path: '/organizations',
	fields: [],
	responseKey: 'organizations',
	pagination: 'none',
	inferred: true,
	inferredNote: ORGANIZATIONS_INFERRED,
};

export const ORGANIZATION: Resource = {
	value: 'organization',
	name: 'Organization',
	idField: 'organization_id',
	nameField: 'name',
	listOperation: GET_MANY,
	operations: [ORGANIZATIONS_LIST],
};
