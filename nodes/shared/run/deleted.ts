// Running an item (run/): what a deletion outputs, `{ deleted: true }` beside the API's answer, only when the answer proves it.
/**
 * n8n's UX guidelines ask a deletion to output one object `{ "deleted": true }`. Here it says so
 * only when the answer proves it, and keeps what the API said beside it (`{ deleted: true, code:
 * 0, message: "The item has been deleted." }`, `{ deleted: true, message, count: 248 }`):
 * - the accounting areas: `code` 0 ("Success responses carry `code` 0", the Accounting and Payments documents; a
 *   code-0 message that says "invalid" is a refusal, refused before this);
 * - the project area, whose answer bodies the documents do not show: the HTTP status, 200 or 204
 *   ("the action has been enacted", RFC 9110 9.3.5; a 202 only accepted it; a 204's empty body
 *   comes from the transport as an empty object), and a `count`, when the answer states one,
 *   that matches the records sent;
 * - never a 206 (Partial data) or 207 (Multi-status), the Conventions document's codes: not every record.
 * An answer that proves neither is "Outcome unknown" (the deletion may have been processed; it
 * is not repeated). Which operations delete is read from the tables: kind `delete`, or a DELETE
 * request (an invoice's Delete Attachment, Delete Expense Receipt, Delete Applied Credit). Move
 * to Trash is not one: its records stay in the trash, restorable.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { redactTokens } from '../api/nodeErrors';
import { OUTCOME_UNKNOWN, outcomeUnknown } from '../api/failureKinds';
import { apiWords } from '../api/pages';
import type { Area, Field, Operation } from '../tables/spec';

/** Whether an operation deletes something: kind `delete`, or a DELETE request. */
export function isDeletion(op: Operation): boolean {
	return op.kind === 'delete' || op.method === 'DELETE';
}

function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The ids a field's value holds: a list of ids, or lists of ids inside a list of entries (a trash request's `items` per module). */
function idsIn(field: Field, value: unknown): number | undefined {
	if (field.type !== 'array' || !Array.isArray(value)) return undefined;
	if (field.of?.type === 'id') return value.length;
	if (!field.fields) return undefined;
	let count: number | undefined;
	for (const entry of value) {
		if (!isRecord(entry)) continue;
		for (const member of field.fields) {
			const inner = idsIn(member, entry[member.name]);
			if (inner !== undefined) count = (count ?? 0) + inner;
		}
	}
	return count;
}

/**
 * How many records a deletion names: the ids of its lists, else one for a path that ends with a
 * record's id (`/items/{item_id}`), else undefined (Empty Trash names none).
 */
export function recordsNamed(op: Operation, values: IDataObject): number | undefined {
	let count: number | undefined;
	for (const field of op.fields) {
		const inner = idsIn(field, values[field.name]);
		if (inner !== undefined) count = (count ?? 0) + inner;
	}
	if (count !== undefined) return count;
	return /\/\{[^}/]+\}$/.test(op.path) ? 1 : undefined;
}

/** Why an answer does not prove the deletion, or undefined when it does. */
function deletionUnproven(
	area: Area,
	op: Operation,
	body: unknown,
	status: number | undefined,
	values: IDataObject,
): string | undefined {
	// 206 Partial data / 207 Multi-status (the Conventions document): some of it, not all, may be done
	if (status === 206 || status === 207)
		return `the Vendor API answered the deletion with HTTP ${status} (${status === 206 ? 'Partial data' : 'Multi-status'}), which does not say every record was deleted (${apiWords(body)})`;
	if (status === 202)
		return `the Vendor API accepted the deletion (HTTP 202) without saying it was done (${apiWords(body)})`;
	if (!isRecord(body))
		return `the Vendor API answered the deletion with ${Array.isArray(body) ? 'a list' : 'no object'}`;
	if ('deleted' in body && body.deleted !== true)
		return `the Vendor API answered deleted ${redactTokens(JSON.stringify(body.deleted) ?? 'undefined')} (${apiWords(body)})`;
	const code = body.code;
	if (area.family === 'accounting' || code !== undefined) {
		if (code !== 0 && code !== '0')
			return `the Vendor API answered the deletion without its success code (code 0) (${apiWords(body)})`;
	}
	if (body.count !== undefined) {
		const count = Number(body.count);
		if (!Number.isInteger(count) || count < 0)
			return `the Vendor API answered a count that is not a number of records (count ${redactTokens(JSON.stringify(body.count) ?? 'undefined')})`;
		const named = recordsNamed(op, values);
		if (named !== undefined && count !== named)
			return `the Vendor API answered that ${count} of the ${named} record(s) sent were deleted (count ${count}), so which were cannot be told`;
	}
	return undefined;
}

/**
 * The output of a deletion: `{ deleted: true, ...what the API answered }` when the answer proves
 * it; otherwise an "Outcome unknown" error saying what the answer lacks (not repeated).
 */
export function deletedOutput(
	node: INode,
	area: Area,
	op: Operation,
	body: unknown,
	status: number | undefined,
	values: IDataObject,
	itemIndex?: number,
): IDataObject {
	const unproven = deletionUnproven(area, op, body, status, values);
	if (unproven !== undefined) {
		const message = `${OUTCOME_UNKNOWN}: ${unproven}`;
		const description =
			'Nothing in the answer shows the deletion was done, nor that it was refused. It was not repeated: check the record before running again.';
		const code =
			isRecord(body) && body.code !== undefined ? redactTokens(String(body.code)) : undefined;
		throw outcomeUnknown(
			new NodeApiError(
				node,
				{ message, ...(code === undefined ? {} : { code }) },
				{ message, description, httpCode: String(status ?? 200), itemIndex },
			),
		);
	}
	// the answer's own `deleted`, if any, is true (checked above)
	return { deleted: true, ...(body as IDataObject) };
}
