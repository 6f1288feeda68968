// Running an item (run/): an update that must send fields the user left out reads them from the record first.
/**
 * Some updates replace fields on every call (a billing project's name, customer, billing
 * type and, for two billing types, rate: the Payments document marks them required on update): the API
 * needs them each time. A field the user
 * left out is then read from the record (the resource's Get) and sent with its current
 * value, so an update never changes what the user did not touch and never sends a default.
 * Nothing is read when the user gave every such field; a field the user gave blank is
 * refused, never replaced by the record's value.
 *
 * The read is made just before the write, but the API offers no conditional update: a change
 * made by someone else between the two is overwritten by the values sent as read. What the
 * write's answer can show of such a change is told in its output (`readFirstNote`).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildRequest, normaliseScalar } from '../api/request';
import { unwrap } from '../api/pages';
import { vendorRequest } from '../api/transport';
import type { RunState } from '../api/transport';
import type { Area, Field, FieldType, Operation, Resource } from '../tables/spec';
import { isBlank as blank } from '../tables/textRules';
import { locationOf } from '../tables/location';
import { missingConditional } from '../tables/problemText';
import { checkValues } from '../tables/validate';

/**
 * The `keepCurrent` fields the user left out (not given: a field given blank is not missing,
 * it is refused): required ones, and conditional ones whose condition holds on `values`.
 */
function missing(op: Operation, values: IDataObject): Field[] {
	return op.fields.filter(
		(f) =>
			op.keepCurrent?.includes(f.name) &&
			values[f.name] === undefined &&
			(f.required || missingConditional(f, values) !== undefined),
	);
}

const givenOnlyOps = new WeakMap<Operation, Operation>();

/** The operation with its `keepCurrent` fields optional: the check of what the user gave, before the read. */
function givenOnly(op: Operation): Operation {
	let loose = givenOnlyOps.get(op);
	if (!loose) {
		loose = {
			...op,
			fields: op.fields.map((f) =>
				op.keepCurrent?.includes(f.name) ? { ...f, required: false, requiredWhen: undefined } : f,
			),
		};
		givenOnlyOps.set(op, loose);
	}
	return loose;
}

/**
 * `values` with the `keepCurrent` fields the user left out taken from the record, when any
 * is missing (one Get per item). A field the record does not hold stays missing, for
 * validation to name. The values returned after a read are known to `readFirstNote`.
 */
export async function withCurrentValues(
	state: RunState<IExecuteFunctions>,
	area: Area,
	resource: Resource,
	op: Operation,
	values: IDataObject,
	organizationId: string | undefined,
	itemIndex: number,
): Promise<IDataObject> {
	if (!op.keepCurrent?.length || !missing(op, values).length) return values;
	// what the user gave is checked before anything is read
	checkValues(givenOnly(op), values);
	const get = resource.operations.find((o) => o.kind === 'get');
	if (!get) return values;
	const ids: IDataObject = {};
	for (const f of get.fields) if (locationOf(f, get) === 'path') ids[f.name] = values[f.name];
	const answer = await vendorRequest(state, area, buildRequest(area, get, ids, organizationId), {
		itemIndex,
	});
	return currentValues(op, values, unwrap(get, answer.body)[0] ?? {});
}

/**
 * `values` with the `keepCurrent` fields the user left out taken from `record` (what the read
 * answered), the rest as given; the values returned are known to `readFirstNote`.
 */
export function currentValues(
	op: Operation,
	values: IDataObject,
	record: IDataObject,
): IDataObject {
	const out: IDataObject = { ...values };
	// required fields first, then the conditional ones (their condition may name a field just read);
	// a conditional value belongs to the record's case: it is kept only while that case is unchanged
	// (a new billing type needs its own rate from the user)
	for (const pass of [true, false]) {
		for (const f of missing(op, out)) {
			if (Boolean(f.required) !== pass || blank(record[f.name])) continue;
			if (
				f.requiredWhen &&
				String(out[f.requiredWhen.field]) !== String(record[f.requiredWhen.field])
			)
				continue;
			out[f.name] = normaliseScalar(f, record[f.name]) as IDataObject;
		}
	}
	readFirst.set(out, {
		record,
		kept: Object.keys(out).filter((name) => values[name] === undefined),
		unsent: unsentFields(op, out),
	});
	return out;
}

/** What a read-first update read: the record as answered, the fields sent as read, the scalar input fields not sent. */
interface ReadFirst {
	record: IDataObject;
	kept: string[];
	unsent: string[];
}

/** The values `withCurrentValues` returned after a read, to what was read (the item's run holds the values object). */
const readFirst = new WeakMap<IDataObject, ReadFirst>();

const NOT_SCALAR: readonly FieldType[] = ['object', 'array', 'json'];

/** Input fields of the body that hold one value and are not in `values`: what the write leaves as it is. */
function unsentFields(op: Operation, values: IDataObject): string[] {
	return op.fields
		.filter(
			(f) =>
				!f.readOnly &&
				!NOT_SCALAR.includes(f.type) &&
				locationOf(f, op) === 'body' &&
				values[f.name] === undefined,
		)
		.map((f) => f.name);
}

/** A value as the note quotes it: text in quotes, cut at 40 characters. */
function shown(value: unknown): string {
	if (typeof value !== 'string') return String(value);
	return `"${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
}

/**
 * What the write's answer (`answer`: its record) shows of a change by someone else between the
 * read and the write of a read-first update, as fields for the output item; undefined when it
 * shows none, or when nothing was read for `values`.
 *
 * The evidence is a field this update did not send whose value in the answer differs from the
 * read's: someone wrote the record in between, so the fields sent as read may have undone part
 * of their change. It cannot show a change to a field the write sent (the answer holds the
 * value sent, as if nobody had changed it: the race of a description-only update against a new
 * amount looks like this), nor one made only to fields this update sent; `last_modified_time`
 * cannot tell either, as the write itself moves it. The note gives the read's and the answer's
 * `last_modified_time` where the records carry them, to place the change.
 */
export function readFirstNote(
	values: IDataObject,
	answer: IDataObject | undefined,
): IDataObject | undefined {
	const read = readFirst.get(values);
	if (!read || !answer) return undefined;
	const scalar = (v: unknown): boolean => v === null || typeof v !== 'object';
	const changed = read.unsent.filter(
		(name) =>
			name in read.record &&
			name in answer &&
			scalar(read.record[name]) &&
			scalar(answer[name]) &&
			String(read.record[name]) !== String(answer[name]),
	);
	if (!changed.length) return undefined;
	const note: IDataObject = {
		message:
			`Changed by someone else between this node's read and its write: ${changed.map((name) => `${name} (read ${shown(read.record[name])}, now ${shown(answer[name])})`).join(', ')}, not sent by this update. ` +
			`The fields sent as read (${read.kept.join(', ')}) may have overwritten part of that change: check them. The API offers no conditional update.`,
		changed: Object.fromEntries(
			changed.map((name) => [name, { read: read.record[name], now: answer[name] }]),
		),
		sentAsRead: Object.fromEntries(read.kept.map((name) => [name, values[name]])),
	};
	if (read.record.last_modified_time !== undefined)
		note.readLastModifiedTime = read.record.last_modified_time;
	if (answer.last_modified_time !== undefined)
		note.answerLastModifiedTime = answer.last_modified_time;
	return { readFirstWarning: note };
}
