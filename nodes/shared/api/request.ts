/**
 * From node parameters to an HTTP request, driven by the field tables:
 * read each field where `placement` put it, turn the UI value into the API shape,
 * validate, then place it in the path, query, headers or body.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { InputError, inputFailure } from './errors';

import { ENTRY_MORE, jsonAlternativeLabel, jsonAlternativeName, placement, wrapperMember } from '../tables/naming';
import type { Area, Field, HttpMethod, Operation } from '../tables/spec';
import { decimalText, formName, locationOf } from '../tables/validate';

export interface ApiRequest {
	method: HttpMethod;
	/** Path relative to the area root, params encoded. */
	path: string;
	qs: IDataObject;
	headers: IDataObject;
	body?: unknown;
}

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === '' ||
		(typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0)
	);
}

/** Empty, or an empty list: what an untouched entry form or an empty JSON list holds. */
function isBlank(value: unknown): boolean {
	return isEmpty(value) || (Array.isArray(value) && value.length === 0);
}

/** `a, b\nc` -> ['a', 'b', 'c']: the comma- or line-separated lists users type and APIs answer. */
export function splitList(value: string): string[] {
	return value
		.split(/[,\n]/)
		.map((s) => s.trim())
		.filter((s) => s !== '');
}

/**
 * A date entered through a picker (`2026-01-31T00:00:00`) is sent as `2026-01-31`; numbers typed
 * as text become numbers; a number given to a string field is sent as its decimal text.
 */
export function normaliseScalar(field: Field, value: unknown): unknown {
	if (field.type === 'string' && typeof value === 'number' && Number.isFinite(value)) return decimalText(value);
	if (field.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
	if (field.type === 'date' && typeof value === 'object' && value !== null && 'toISODate' in value) {
		return (value as { toISODate(): string }).toISODate();
	}
	if (field.type === 'id' && typeof value === 'string') return value.trim();
	if ((field.type === 'number' || field.type === 'integer') && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
		return Number(value);
	}
	if (field.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
	return value;
}

/** Turns what n8n gives for a field (UI shape) into the API's shape. Empty values become undefined. */
export function fromUi(field: Field, value: unknown): unknown {
	if (value && typeof value === 'object' && '__rl' in (value as IDataObject)) value = (value as IDataObject).value;
	if (isEmpty(value)) return undefined;
	if (field.sortFields) return sortFromUi(field, value);
	const wrapped = wrapperMember(field);
	if (wrapped) {
		if (typeof value === 'object' && !Array.isArray(value) && value !== null && wrapped.name in (value as object)) {
			return value; // already in API shape (from an expression)
		}
		return { [wrapped.name]: normaliseScalar(wrapped, value) };
	}
	switch (field.type) {
		case 'json':
			return typeof value === 'string' ? parseJson(field, value) : value;
		case 'object': {
			if (typeof value === 'string') return parseJson(field, value);
			const entry = (value as IDataObject).values;
			return membersFromUi(field.fields ?? [], (entry ?? value) as IDataObject, entry !== undefined);
		}
		case 'array': {
			if (typeof value === 'string') {
				if (field.fields || value.trim().startsWith('[')) return parseJson(field, value);
				return splitList(value).map((v) => (field.of ? normaliseScalar(field.of, v) : v));
			}
			if (Array.isArray(value)) {
				return field.fields ? value.map((v) => membersFromUi(field.fields ?? [], v as IDataObject)) : value.map((v) => (field.of ? normaliseScalar(field.of, v) : v));
			}
			const entries = (value as IDataObject).values;
			const list = Array.isArray(entries) ? entries : entries ? [entries] : [];
			return list.map((v) => membersFromUi(field.fields ?? [], v as IDataObject, true));
		}
		default:
			return normaliseScalar(field, value);
	}
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The members of an object or array entry. From a fixed collection (`fixedCollection`)
 * n8n gives every member a value: an optional number starts empty (null, not sent), so an
 * entered 0 is sent; an empty nested list or object is taken as not entered. A JSON value
 * from an expression is taken as written. Response-only members (`readOnly`) are never
 * sent, as the entry form never offers them. An entry that is not an object is left as it
 * is, for validation to refuse.
 */
function membersFromUi(fields: Field[], obj: IDataObject, fixedCollection = false): IDataObject {
	if (obj !== undefined && obj !== null && !isPlainObject(obj)) return obj;
	// the entry's less common members come in its Additional Fields
	if (fixedCollection && isPlainObject(obj?.[ENTRY_MORE])) {
		const { [ENTRY_MORE]: more, ...shown } = obj;
		obj = { ...shown, ...(more as IDataObject) };
	}
	const out: IDataObject = {};
	const known = new Set(fields.map((f) => f.name));
	for (const f of fields) {
		if (f.readOnly) continue;
		const v = fromUi(f, obj?.[f.name]);
		// an entry form fills every member with its default: an optional `[]` or `{}` there is "not entered"
		if (fixedCollection && !f.required && isBlank(v)) continue;
		if (v !== undefined) out[f.name] = v as IDataObject;
	}
	for (const [k, v] of Object.entries(obj ?? {})) if (!known.has(k) && !isEmpty(v)) out[k] = v;
	return out;
}

export { InputError, inputFailure } from './errors';

/** buildRequest for a node: refused input becomes the node's error, and nothing is sent. */
export function nodeRequest(node: INode, area: Area, op: Operation, values: IDataObject, organizationId?: string, description?: string): ApiRequest {
	try {
		return buildRequest(area, op, values, organizationId);
	} catch (error) {
		throw inputFailure(node, error, { description });
	}
}

/** `{ field, direction }` (or a `direction(field)` string from an expression) -> `direction(field)`, checked. */
function sortFromUi(field: Field, value: unknown): string | undefined {
	const picked = (value as IDataObject).values ?? value;
	const text =
		typeof picked === 'object' && picked !== null
			? `${String((picked as IDataObject).direction ?? 'asc')}(${String((picked as IDataObject).field ?? '')})`
			: String(picked).trim();
	const fields = field.sortFields ?? [];
	const match = /^(asc|desc)\((\w+)\)$/.exec(text);
	if (!match || !fields.includes(match[2])) {
		throw new InputError(`${formName(field)} must be written asc(field) or desc(field) with field one of: ${fields.join(', ')} (got "${text}")`);
	}
	return text;
}

/**
 * The raw-JSON alternative of a field (`<name>Json`), parsed and read like the fields' entries
 * (numbers as decimal text for string members, response-only members left out, explicit 0s
 * kept); empty JSON counts as not given. A value of the wrong shape is left as it is, so the
 * field's checks refuse it naming the field.
 */
function jsonAlternative(field: Field, raw: unknown): unknown {
	if (isEmpty(raw)) return undefined;
	const value = typeof raw === 'string' ? parseJson({ ...field, name: jsonAlternativeName(field), label: jsonAlternativeLabel(field) }, raw) : raw;
	if (isBlank(value)) return undefined;
	const members = field.fields;
	if (!members) return value;
	if (field.type === 'array' && Array.isArray(value)) return value.map((entry) => membersFromUi(members, entry as IDataObject));
	if (field.type === 'object' && isPlainObject(value)) return membersFromUi(members, value);
	return value;
}

/** `text` parsed as JSON, or why it is not JSON. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
}

function parseJson(field: Field, text: string): unknown {
	const parsed = tryParseJson(text);
	if (!parsed.ok) throw new InputError(`${formName(field)} must be valid JSON`);
	return parsed.value;
}

/** Reads every field of an operation from the node parameters of item `i`, in API shape. */
export function readValues(ctx: IExecuteFunctions, i: number, op: Operation): IDataObject {
	const values: IDataObject = {};
	const collections = new Map<string, IDataObject>();
	for (const field of op.fields) {
		if (field.readOnly) continue;
		const where = placement(field, op);
		let raw: unknown;
		let rawJson: unknown;
		if (where === 'top') {
			raw = ctx.getNodeParameter(field.name, i, undefined, { extractValue: true });
			if (field.jsonAlternative) rawJson = ctx.getNodeParameter(jsonAlternativeName(field), i, undefined);
		} else {
			if (!collections.has(where)) collections.set(where, ctx.getNodeParameter(where, i, {}) as IDataObject);
			raw = collections.get(where)?.[field.name];
			rawJson = collections.get(where)?.[jsonAlternativeName(field)];
		}
		let value = fromUi(field, raw);
		if (field.jsonAlternative) {
			if (isEmpty(value)) value = undefined;
			const json = jsonAlternative(field, rawJson);
			if (json !== undefined) {
				// A fixed collection whose entries were all removed is empty, not given.
				if (!isBlank(value)) {
					throw new InputError(`Give ${formName(field)} either as fields or as ${jsonAlternativeLabel(field)}, not both`);
				}
				value = json;
			}
		}
		if (value !== undefined) values[field.name] = value as IDataObject;
	}
	return values;
}

/**
 * The organization ID is a digit string like every other ID: checked before it goes into a
 * query or header (nodes, pickers and triggers all build their requests here).
 */
export function checkOrganizationId(organizationId: string): void {
	if (!/^\d+$/.test(organizationId)) {
		throw new InputError(`Organization ID must be an ID made of digits (got "${organizationId.slice(0, 40)}")`);
	}
}

function encodeQuery(field: Field, value: unknown): unknown {
	if (Array.isArray(value) && !field.fields) return value.join(field.separator ?? ',');
	if (typeof value === 'object' && value !== null) return JSON.stringify(value);
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	return value;
}

/** Places validated API-shaped values into a request for the operation. */
export function buildRequest(area: Area, op: Operation, values: IDataObject, organizationId?: string): ApiRequest {
	const qs: IDataObject = {};
	const headers: IDataObject = {};
	let body: IDataObject | unknown[] | undefined;
	let path = op.path;
	for (const field of op.fields) {
		const value = values[field.name];
		if (value === undefined) continue;
		const where = locationOf(field, op);
		if (where === 'path') {
			path = path.replace(`{${field.name}}`, encodeURIComponent(String(value)));
		} else if (where === 'query') {
			qs[field.name] = encodeQuery(field, value) as IDataObject;
		} else if (where === 'header') {
			headers[field.name] = String(value);
		} else if (field.bodyRoot) {
			body = value as unknown[];
		} else {
			body = { ...((body as IDataObject) ?? {}), [field.name]: value as IDataObject };
		}
	}
	const missing = path.match(/\{([^}]+)\}/);
	if (missing) {
		const field = op.fields.find((f) => f.name === missing[1]);
		throw new InputError(`${field ? formName(field) : missing[1]} is required`);
	}
	if (area.org && organizationId !== undefined) {
		checkOrganizationId(organizationId);
		if (area.org.in === 'query') qs[area.org.name] = organizationId;
		else headers[area.org.name] = organizationId;
	}
	return { method: op.method, path, qs, headers, body };
}
