/**
 * From node parameters to an HTTP request, driven by the field tables:
 * read each field where `placement` put it, turn the UI value into the API shape,
 * validate, then place it in the path, query, headers or body.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { inputFailure } from './nodeErrors';

import {
	ENTRY_MORE,
	FORM_VERSION,
	jsonAlternativeLabel,
	jsonAlternativeName,
	placement,
	wrapperMember,
} from '../tables/naming';
import { InputError } from '../tables/inputError';
import type { Area, Field, HttpMethod, Operation } from '../tables/spec';
import { decimalNumber, decimalText, isBlank, trimBlank } from '../tables/textRules';
import { idTextProblem, unsafeId } from '../tables/ids';
import { locationOf } from '../tables/location';
import { formName } from '../tables/problemText';

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
		// a JS Date has no keys of its own, yet it is a value (a date field reads it)
		(typeof value === 'object' &&
			!Array.isArray(value) &&
			!(value instanceof Date) &&
			Object.keys(value as object).length === 0)
	);
}

/** Empty, or an empty list: what an untouched entry form or an empty JSON list holds. */
function noEntries(value: unknown): boolean {
	return isEmpty(value) || (Array.isArray(value) && value.length === 0);
}

/** `a, b\nc` -> ['a', 'b', 'c']: the comma- or line-separated lists users type and APIs answer. */
export function splitList(value: string): string[] {
	return value
		.split(/[,\n]/)
		.map(trimBlank)
		.filter((s) => !isBlank(s));
}

/** ISO 8601 text of a moment (`2026-03-05T23:30:00-08:00`, `2026-03-05T23:30Z`): its date as written, and the rest. */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/** A luxon DateTime, as n8n's expressions give one (`$now`, `DateTime.fromISO(...)`), told by its methods (n8n's luxon is not ours). */
interface DateTimeLike {
	setZone(zone: string): DateTimeLike;
	toISODate(): string | null;
	isValid: boolean;
}

function isDateTimeLike(value: unknown): value is DateTimeLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as DateTimeLike).toISODate === 'function' &&
		typeof (value as DateTimeLike).setZone === 'function'
	);
}

/** The day (yyyy-mm-dd) of a JS Date in `zone` (an IANA name; UTC when none is known). */
function dayOf(date: Date, zone = 'UTC'): string {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone: zone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(date);
	const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * A day-only date field's value as sent (yyyy-mm-dd). ISO text is the date it is written in
 * (`2026-03-05T23:30:00-08:00` is `2026-03-05`: its offset does not move it to another day, as
 * a picker's `2026-01-31T00:00:00` is `2026-01-31`). A moment given as a value (a luxon DateTime
 * from an expression, a JS Date) is the day it falls on in `zone`, the workflow's time zone (a
 * DateTime without `zone` keeps its own, a Date without it is read in UTC). Anything else is left
 * as it is, for the date rule to refuse naming the field.
 */
function dateFromUi(value: unknown, zone?: string): unknown {
	if (typeof value === 'string') {
		const iso = ISO_DATE_TIME.exec(value);
		return iso ? iso[1] : value;
	}
	if (isDateTimeLike(value)) {
		if (!value.isValid) return value;
		return (zone ? value.setZone(zone) : value).toISODate() ?? value;
	}
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : dayOf(value, zone);
	return value;
}

/**
 * A field's scalar as sent: a date as `dateFromUi` reads it (`zone`: the workflow's time zone);
 * decimal text given to a number field becomes its number (`decimalNumber`: `12.50`, `-3`,
 * `1e3`; other text, `0x10` or `1_000`, is left for validation to refuse); a number given to a
 * string field is sent as its decimal text, and decimal text given to a numeric text field as
 * written, trimmed (with an exponent: as its plain decimal text, `1e3` is `1000`).
 */
export function normaliseScalar(field: Field, value: unknown, zone?: string): unknown {
	// a record ID given as a number past 2^53 stays a number, for validation to refuse (its digits are lost)
	if (
		(field.type === 'string' || field.type === 'enum') &&
		typeof value === 'number' &&
		Number.isFinite(value) &&
		!unsafeId(field, value)
	)
		return decimalText(value);
	if (field.type === 'string' && field.numeric && typeof value === 'string')
		return numericText(value);
	if (field.type === 'date') return dateFromUi(value, zone);
	if (field.type === 'id' && typeof value === 'string') return trimBlank(value);
	if (
		(field.type === 'number' || field.type === 'integer') &&
		typeof value === 'string' &&
		!isBlank(value)
	)
		return decimalNumber(value) ?? value;
	if (field.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
	return value;
}

/** Decimal text for a text field holding a number: trimmed, an exponent written out (`1e3` -> `1000`); other text as given, for validation to refuse. */
function numericText(value: string): string {
	const n = decimalNumber(value);
	if (n === undefined) return value;
	const text = trimBlank(value);
	return /e/i.test(text) ? decimalText(n) : text;
}

/** A resource locator's value (`{ __rl, mode, value }`), or the value itself. */
function located(value: unknown): unknown {
	return value && typeof value === 'object' && '__rl' in (value as IDataObject)
		? (value as IDataObject).value
		: value;
}

/** Whether a parameter as the workflow stores it is an expression: n8n marks one with a leading `=`. */
export function isExpression(raw: unknown): boolean {
	const text = located(raw);
	return typeof text === 'string' && text.startsWith('=');
}

/** `raw[key]` of a parameter as stored (an entry, a member), if it has one. */
function rawPart(raw: unknown, key: string | number): unknown {
	return raw !== null && typeof raw === 'object'
		? (raw as Record<string, unknown>)[key]
		: undefined;
}

/**
 * A value the user gave blank (`isBlank`): an expression that resolved to blank text or to no
 * value, or blank text typed in (`raw`: the parameter as stored; undefined when the field is
 * not there at all). It is kept as given ('' or the text, null for no value), for validation
 * to refuse naming the field; undefined when it is not given blank. A field left at the
 * form's empty start (no text, "Not Set", an empty number) is not given.
 */
function givenBlank(value: unknown, raw: unknown): string | null | undefined {
	value = located(value);
	if (raw === undefined || !isBlank(value)) return undefined;
	if (!isExpression(raw) && !(typeof value === 'string' && value !== '')) return undefined;
	return typeof value === 'string' ? value : null;
}

/**
 * How a field is read beyond its value: `zone`, the workflow's time zone, is the one a date given
 * as a moment is read in; `read` reads a part of the field's parameter by its path below the
 * field (`values[0].date`), as n8n resolves it on its own: a DateTime an expression gives an
 * entry member comes in the entry as text in the DateTime's own zone, read alone it is itself.
 */
interface Reading {
	zone?: string;
	read?: (path: string, fallback: unknown) => unknown;
}

/** `how` for the part of a field at `path` below it. */
function below(how: Reading | undefined, path: string): Reading | undefined {
	const read = how?.read;
	return (
		how && { zone: how.zone, read: read && ((sub, fallback) => read(`${path}.${sub}`, fallback)) }
	);
}

/**
 * Turns what n8n gives for a field (UI shape) into the API's shape. Empty values become
 * undefined; blank text (`isBlank`) stays as given, for the reader to drop where it means "not
 * given" and for validation to refuse where it was given. `raw`, the parameter as the workflow
 * stores it, tells entry members set by an expression that gave nothing (`givenBlank`).
 * `how` says how to read its dates (`Reading`).
 */
export function fromUi(field: Field, value: unknown, raw?: unknown, how?: Reading): unknown {
	const zone = how?.zone;
	value = located(value);
	if (isEmpty(value)) return undefined;
	if (typeof value === 'string' && isBlank(value)) return value;
	if (field.sortFields) return sortFromUi(field, value);
	const wrapped = wrapperMember(field);
	if (wrapped) {
		if (
			typeof value === 'object' &&
			!Array.isArray(value) &&
			value !== null &&
			wrapped.name in (value as object)
		) {
			return value; // already in API shape (from an expression)
		}
		return { [wrapped.name]: normaliseScalar(wrapped, value, zone) };
	}
	switch (field.type) {
		case 'json':
			return typeof value === 'string' ? parseJson(field, value) : value;
		case 'object': {
			if (typeof value === 'string') return parseJson(field, value);
			// anything but an object (a number, a list) is left as it is, for validation to refuse naming the field
			if (!isPlainObject(value)) return value;
			const entry = value.values;
			return membersFromUi(
				field.fields ?? [],
				(entry ?? value) as IDataObject,
				entry !== undefined,
				entry !== undefined ? rawPart(raw, 'values') : undefined,
				entry !== undefined ? below(how, 'values') : { zone },
			);
		}
		case 'array': {
			if (typeof value === 'string') {
				if (field.fields || trimBlank(value).startsWith('[')) return parseJson(field, value);
				return splitList(value).map((v) => (field.of ? normaliseScalar(field.of, v, zone) : v));
			}
			if (Array.isArray(value)) {
				return field.fields
					? value.map((v) =>
							membersFromUi(field.fields ?? [], v as IDataObject, false, undefined, { zone }),
						)
					: value.map((v) => (field.of ? normaliseScalar(field.of, v, zone) : v));
			}
			// one number from an expression is a list of one (an ID); anything else but the entry form's value is refused as not a list
			if (typeof value === 'number' && !field.fields)
				return [field.of ? normaliseScalar(field.of, value, zone) : value];
			if (!isPlainObject(value) || !('values' in value)) return value;
			const entries = value.values;
			const list = Array.isArray(entries) ? entries : entries ? [entries] : [];
			const stored = rawPart(raw, 'values');
			const rawList = Array.isArray(stored) ? stored : stored ? [stored] : [];
			return list.map((v, i) =>
				membersFromUi(
					field.fields ?? [],
					v as IDataObject,
					true,
					rawList[i],
					below(how, Array.isArray(entries) ? `values[${i}]` : 'values'),
				),
			);
		}
		default:
			return normaliseScalar(field, value, zone);
	}
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The members of an object or array entry. From a fixed collection (`fixedCollection`)
 * n8n gives every member a value: an optional number starts empty (null, not sent), so an
 * entered 0 is sent; an empty nested list or object is taken as not entered; a member given
 * blank (`givenBlank`, from `raw`: the entry as stored) is kept, for validation to refuse. A
 * JSON value from an expression is taken as written (an empty text or null member: not
 * given). Response-only members (`readOnly`) are never sent, as the entry form never offers
 * them. An entry that is not an object is left as it is, for validation to refuse.
 */
function membersFromUi(
	fields: Field[],
	obj: IDataObject,
	fixedCollection = false,
	raw?: unknown,
	how?: Reading,
): IDataObject {
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
		const inMore =
			rawPart(raw, f.name) === undefined && rawPart(rawPart(raw, ENTRY_MORE), f.name) !== undefined;
		const stored = inMore ? rawPart(rawPart(raw, ENTRY_MORE), f.name) : rawPart(raw, f.name);
		// a date member an expression gives, read by its own path: a DateTime as itself (see `Reading`)
		const given =
			f.type === 'date' && isExpression(stored) && how?.read
				? how.read(inMore ? `${ENTRY_MORE}.${f.name}` : f.name, obj?.[f.name])
				: obj?.[f.name];
		const blank = givenBlank(given, stored);
		const v = blank !== undefined ? blank : fromUi(f, given, stored, how && { zone: how.zone });
		// an entry form fills every member with its default: an optional `[]` or `{}` there is "not entered"
		if (fixedCollection && !f.required && blank === undefined && noEntries(v)) continue;
		if (v !== undefined) out[f.name] = v as IDataObject;
	}
	for (const [k, v] of Object.entries(obj ?? {})) if (!known.has(k) && !isEmpty(v)) out[k] = v;
	return out;
}

/** buildRequest for a node: refused input becomes the node's error, and nothing is sent. */
export function nodeRequest(
	node: INode,
	area: Area,
	op: Operation,
	values: IDataObject,
	organizationId?: string,
	description?: string,
): ApiRequest {
	try {
		return buildRequest(area, op, values, organizationId);
	} catch (error) {
		throw inputFailure(node, error, { description });
	}
}

/** `{ field, direction }` (or a `direction(field)` string from an expression) -> `direction(field)`, checked. */
function sortFromUi(field: Field, value: unknown): string | undefined {
	const picked = isPlainObject(value) && isPlainObject(value.values) ? value.values : value;
	const text = isPlainObject(picked)
		? `${String(picked.direction ?? 'asc')}(${String(picked.field ?? '')})`
		: Array.isArray(picked)
			? ''
			: trimBlank(String(picked));
	const fields = field.sortFields ?? [];
	const match = /^(asc|desc)\((\w+)\)$/.exec(text);
	if (!match || !fields.includes(match[2])) {
		const got = Array.isArray(picked)
			? `a list of ${picked.length} ${picked.length === 1 ? 'entry' : 'entries'}`
			: `"${text}"`;
		throw new InputError(
			`${formName(field)} must be written asc(field) or desc(field) with field one of: ${fields.join(', ')} (got ${got})`,
		);
	}
	return text;
}

/**
 * The raw-JSON alternative of a field (`<name>Json`), parsed and read like the fields' entries
 * (numbers as decimal text for string members, response-only members left out, explicit 0s
 * kept); empty JSON counts as not given. A value of the wrong shape is left as it is, so the
 * field's checks refuse it naming the field.
 */
function jsonAlternative(field: Field, raw: unknown, zone?: string): unknown {
	if (isEmpty(raw)) return undefined;
	const value =
		typeof raw === 'string'
			? parseJson(
					{ ...field, name: jsonAlternativeName(field), label: jsonAlternativeLabel(field) },
					raw,
				)
			: raw;
	if (noEntries(value)) return undefined;
	const members = field.fields;
	if (!members) return value;
	if (field.type === 'array' && Array.isArray(value))
		return value.map((entry) =>
			membersFromUi(members, entry as IDataObject, false, undefined, { zone }),
		);
	if (field.type === 'object' && isPlainObject(value))
		return membersFromUi(members, value, false, undefined, { zone });
	return value;
}

/** `text` parsed as JSON, or why it is not JSON. */
export function tryParseJson(
	text: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
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

/**
 * Reads every field of an operation from the node parameters of item `i`, in API shape. A
 * value present is a value given; blank ones (`isBlank`) are present only where the user gave
 * the field, so validation refuses them naming it: a required field, and a field added to a
 * collection (Update Fields, Additional Fields, Filters) or an entry member that an
 * expression gave blank or nothing, or that holds blank text typed in (`givenBlank`). A field
 * left as the form starts it is not given, and so is an optional field the form shows at the
 * top level: it is there whether or not the user meant it.
 */
export function readValues(ctx: IExecuteFunctions, i: number, op: Operation): IDataObject {
	const values: IDataObject = {};
	const collections = new Map<string, IDataObject>();
	// the parameters as the workflow stores them: what tells an expression from a value left as the form starts it
	const stored = ctx.getNode().parameters;
	// version 1 keeps a list's sorting under Filters (see FORM_VERSION)
	const version = ctx.getNode().typeVersion ?? FORM_VERSION;
	// a date given as a moment (a DateTime, a Date) is the day it falls on in the workflow's time zone
	const zone = typeof ctx.getTimezone === 'function' ? ctx.getTimezone() : undefined;
	for (const field of op.fields) {
		if (field.readOnly) continue;
		const where = placement(field, op, version);
		let raw: unknown;
		let rawJson: unknown;
		const asStored = where === 'top' ? stored[field.name] : rawPart(stored[where], field.name);
		if (where === 'top') {
			raw = ctx.getNodeParameter(field.name, i, undefined, { extractValue: true });
			if (field.jsonAlternative)
				rawJson = ctx.getNodeParameter(jsonAlternativeName(field), i, undefined);
		} else {
			if (!collections.has(where))
				collections.set(where, ctx.getNodeParameter(where, i, {}) as IDataObject);
			const collection = collections.get(where) ?? {};
			raw = collection[field.name];
			rawJson = collection[jsonAlternativeName(field)];
			// n8n hands a collection's DateTime over as text in the DateTime's own zone; read by its own path it is the DateTime itself
			if (field.type === 'date' && isExpression(asStored))
				raw = ctx.getNodeParameter(`${where}.${field.name}`, i, raw);
		}
		// added to a collection and given blank: kept for validation to refuse, not taken as left out
		const blank = where === 'top' ? undefined : givenBlank(raw, asStored);
		// a part of the field read by its own path (a date member's DateTime, see `Reading`)
		const base = where === 'top' ? field.name : `${where}.${field.name}`;
		const how: Reading = {
			zone,
			read: (path, fallback) => ctx.getNodeParameter(`${base}.${path}`, i, fallback),
		};
		let value = blank !== undefined ? blank : fromUi(field, raw, asStored, how);
		if (where === 'top' && !field.required && isBlank(value)) value = undefined;
		if (field.jsonAlternative) {
			if (blank === undefined && isEmpty(value)) value = undefined;
			const json = jsonAlternative(field, rawJson, zone);
			if (json !== undefined) {
				// A fixed collection whose entries were all removed is empty, not given.
				if (!noEntries(value)) {
					throw new InputError(
						`Give ${formName(field)} either as fields or as ${jsonAlternativeLabel(field)}, not both`,
					);
				}
				value = json;
			}
		}
		if (value !== undefined) values[field.name] = value as IDataObject;
	}
	return values;
}

/**
 * The organization ID (its format never given in the documents) follows the rule of IDs
 * documented as strings: any text but blanks and control characters, checked before it goes
 * into a query or header (nodes, pickers and triggers all build their requests here).
 */
function checkOrganizationId(organizationId: string): void {
	const problem = idTextProblem(organizationId);
	if (problem)
		throw new InputError(
			`Organization ID ${problem} (got ${JSON.stringify(organizationId.slice(0, 40))})`,
		);
}

function encodeQuery(field: Field, value: unknown): unknown {
	if (Array.isArray(value) && !field.fields) return value.join(field.separator ?? ',');
	if (typeof value === 'object' && value !== null) return JSON.stringify(value);
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	return value;
}

/** Places validated API-shaped values into a request for the operation. */
export function buildRequest(
	area: Area,
	op: Operation,
	values: IDataObject,
	organizationId?: string,
): ApiRequest {
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
