// Table types & naming (tables/): where a field's value travels in a request (path, query, body or header); imports tables/.
import type { Field, FieldLocation, Operation } from './spec';

/** Where a field goes: where its table entry says (`in`), the path when the path names it, else a GET's or DELETE's query or another method's body. */
export function locationOf(field: Field, op: Operation): FieldLocation {
	if (field.in) return field.in;
	if (op.path.includes(`{${field.name}}`)) return 'path';
	return op.method === 'GET' || op.method === 'DELETE' ? 'query' : 'body';
}
