// Running an item (run/): an update that must send fields the user left out reads them from the record first.
/**
 * Some updates replace fields on every call (a billing project's name, customer and billing
 * type; a payment's customer and amount): the API needs them each time. A field the user
 * left out is then read from the record (the resource's Get) and sent with its current
 * value, so an update never changes what the user did not touch and never sends a default.
 * Nothing is read when the user gave every such field.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildRequest, normaliseScalar } from '../api/request';
import { unwrap } from '../api/pages';
import { vendorRequest } from '../api/transport';
import type { Area, Field, Operation, Resource } from '../tables/spec';
import { checkValues, isBlank as blank, locationOf, missingConditional } from '../tables/validate';

/** The `keepCurrent` fields still missing: required ones, and conditional ones whose condition holds on `values`. */
function missing(op: Operation, values: IDataObject): Field[] {
	return op.fields.filter(
		(f) => op.keepCurrent?.includes(f.name) && blank(values[f.name]) && (f.required || missingConditional(f, values) !== undefined),
	);
}

const givenOnlyOps = new WeakMap<Operation, Operation>();

/** The operation with its `keepCurrent` fields optional: the check of what the user gave, before the read. */
function givenOnly(op: Operation): Operation {
	let loose = givenOnlyOps.get(op);
	if (!loose) {
		loose = { ...op, fields: op.fields.map((f) => (op.keepCurrent?.includes(f.name) ? { ...f, required: false, requiredWhen: undefined } : f)) };
		givenOnlyOps.set(op, loose);
	}
	return loose;
}

/**
 * `values` with the `keepCurrent` fields the user left out taken from the record, when any
 * is missing (one Get per item). A field the record does not hold stays missing, for
 * validation to name.
 */
export async function withCurrentValues(
	ctx: IExecuteFunctions,
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
	const answer = await vendorRequest(ctx, area, buildRequest(area, get, ids, organizationId), { itemIndex });
	const record = unwrap(get, answer.body)[0] ?? {};
	const out: IDataObject = { ...values };
	// required fields first, then the conditional ones (their condition may name a field just read);
	// a conditional value belongs to the record's case: it is kept only while that case is unchanged
	// (a new billing type needs its own rate from the user)
	for (const pass of [true, false]) {
		for (const f of missing(op, out)) {
			if (Boolean(f.required) !== pass || blank(record[f.name])) continue;
			if (f.requiredWhen && String(out[f.requiredWhen.field]) !== String(record[f.requiredWhen.field])) continue;
			out[f.name] = normaliseScalar(f, record[f.name]) as IDataObject;
		}
	}
	return out;
}
