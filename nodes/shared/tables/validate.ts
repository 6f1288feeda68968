/**
 * Validation built from the field tables. The same schemas check what a node is about to
 * send (client side, values already in API shape) and what the emulator receives
 * (server side, where query values arrive as strings and are coerced first).
 */
import { z } from 'zod/v3';
import { idTextProblem, isRecordId, unsafeId, UNSAFE_ID } from './ids';
import { InputError } from './inputError';
import { locationOf } from './location';
import { jsonAlternativeLabel } from './naming';
import { blankMessage, describeProblems, formName, missingConditional } from './problemText';
import type { Problem } from './problemText';
import type { Field, Operation } from './spec';
import { decimalNumber, decimalText, isBlank, isDecimalText, lengthRule, NUMBER_TEXT_RULE } from './textRules';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;
const DIGITS = /^\d+$/;
const PHONE = /^[0-9+()\-.\s]*$/;
const LETTERS_AND_DIGITS = /^[A-Za-z0-9]*$/;

export type Side = 'client' | 'server';

function isRealDate(value: string): boolean {
	const [y, m, d] = value.split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function digitCount(n: number | string): number {
	return String(n).replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+(?=\d)/, '').length;
}

/** An ID or number's length limit, on its text (an ID may come as a number, a number has no string length of its own). */
function maxChars(schema: z.ZodTypeAny, field: Field): z.ZodTypeAny {
	const limit = field.maxLength;
	if (limit === undefined) return schema;
	return schema.refine((v) => String(v).length <= limit, { message: lengthRule('most', limit) });
}

function maxLen(schema: z.ZodString, field: Field): z.ZodString {
	let s = schema;
	if (field.minLength !== undefined) s = s.min(field.minLength, { message: lengthRule('least', field.minLength) });
	if (field.maxLength !== undefined) s = s.max(field.maxLength, { message: lengthRule('most', field.maxLength) });
	return s;
}

function minMessage(min: number): string {
	return min === 0 ? 'must not be negative' : `must be at least ${min}`;
}

/** A string holding a decimal number (`numeric`), at least `min` when given. */
function numericText(schema: z.ZodTypeAny, field: Field): z.ZodTypeAny {
	let s = schema.refine((v) => isDecimalText(String(v)), { message: 'must be a number written as digits, e.g. 150 or 99.50' });
	if (field.min !== undefined) {
		const min = field.min;
		s = s.refine((v) => !isDecimalText(String(v)) || (decimalNumber(String(v)) as number) >= min, { message: minMessage(min) });
	}
	return s;
}

/** Coerces a query-string value (server side) into the field's type before checking it. */
function coerceFromQuery(field: Field, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	switch (field.type) {
		case 'number':
		case 'integer':
			return decimalNumber(value) ?? value;
		case 'boolean':
			return value === 'true' ? true : value === 'false' ? false : value;
		case 'array':
			return value === '' ? [] : value.split(field.separator ?? ',');
		case 'json':
		case 'object':
			try {
				return JSON.parse(value);
			} catch {
				return value;
			}
		default:
			return value;
	}
}

/** On the client, a record ID given as a number past 2^53 is refused before its own rules (`unsafeId`). */
function exactId(schema: z.ZodTypeAny, field: Field, side: Side): z.ZodTypeAny {
	if (side !== 'client' || !isRecordId(field)) return schema;
	return z
		.unknown()
		.superRefine((v, ctx) => {
			if (unsafeId(field, v)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: UNSAFE_ID, fatal: true });
		})
		.pipe(schema);
}

/** What a text-typed field takes, in words: the message for a value of another type (a number, a list, an object). */
function textMessage(field: Field): string {
	switch (field.type) {
		case 'enum':
			return field.values?.length && !field.openValues ? `must be one of: ${field.values.join(', ')}` : 'must be text';
		case 'date':
			return 'must be a date written yyyy-mm-dd';
		case 'time':
			return 'must be a time written HH:MM (24 hours)';
		case 'dateTime':
			return 'must be an ISO 8601 date-time such as 2026-01-31T09:30:00Z or 2026-01-31T09:30:00+05:30';
		case 'email':
			return 'must be an email address';
		case 'url':
			return 'must be a URL';
		case 'phone':
			return 'must be a phone number written as text';
		default:
			return field.numeric ? 'must be a number written as digits, e.g. 150 or 99.50' : 'must be text';
	}
}

/** A string schema whose message for a value of another type says what the field takes. */
function text(field: Field): z.ZodString {
	return z.string({ invalid_type_error: textMessage(field) });
}

/**
 * An ID: text (digits only with `numeric`: the documents give the ID as a number, "long",
 * "a string of digits") or a whole number, not negative; text documented as a string may be
 * anything an ID can be (`idTextProblem`).
 */
function idSchema(field: Field): z.ZodTypeAny {
	const wrong = field.numeric ? 'must be an ID made of digits' : 'must be an ID: text, or a whole number';
	return z.unknown().superRefine((v, ctx) => {
		let problem: string | undefined;
		if (typeof v === 'number') problem = Number.isInteger(v) && v >= 0 ? undefined : wrong;
		else if (typeof v !== 'string') problem = wrong;
		else problem = field.numeric ? (DIGITS.test(v) ? undefined : wrong) : idTextProblem(v);
		if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
	});
}

/** A number or integer, within its bounds and digits. */
function numberSchema(field: Field): z.ZodTypeAny {
	// text reaches here only when it is not decimal text (request.ts reads decimal text as its number)
	let n = z.number({ errorMap: (issue, ctx) => ({ message: issue.code === 'invalid_type' ? (issue.received === 'string' ? NUMBER_TEXT_RULE : 'must be a number') : ctx.defaultError }) }).finite({ message: 'must be a finite number' });
	if (field.type === 'integer') n = n.int({ message: 'must be a whole number' });
	if (field.min !== undefined) n = n.min(field.min, { message: minMessage(field.min) });
	if (field.max !== undefined) n = n.max(field.max, { message: `must be at most ${field.max}` });
	if (field.maxDigits === undefined) return n;
	const limit = field.maxDigits;
	return n.refine((v) => digitCount(v) <= limit, { message: `must have at most ${limit} digits` });
}

/** Text, or one of an enum's values (a closed list), within the length limits. */
function textSchema(field: Field, side: Side): z.ZodTypeAny {
	let schema: z.ZodTypeAny;
	if (field.type === 'enum' && field.values?.length && !field.openValues) {
		const allowed = field.values;
		schema = text(field).refine((v) => allowed.includes(v), { message: `must be one of: ${allowed.join(', ')}` });
		if (field.maxLength !== undefined) schema = maxLen(text(field), field).and(schema);
	} else {
		schema = maxLen(text(field), field);
		if (field.numeric) schema = numericText(schema, field);
		if (field.alphanumeric) schema = schema.refine((v) => LETTERS_AND_DIGITS.test(String(v)), { message: 'may hold only letters (A-Z) and digits' });
	}
	// A number given to a text field (or an enum) is its decimal text (request.ts sends it so).
	if (side === 'client') schema = z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? decimalText(v) : v), schema);
	return schema;
}

/** A list: entries of objects with `fields` or scalars of shape `of`, within its size bounds. */
function arraySchema(field: Field, side: Side): z.ZodTypeAny {
	const entry = field.fields ? objectSchema(field.fields, side) : field.of ? fieldSchema(field.of, side) : z.unknown();
	let a = z.array(entry, { invalid_type_error: 'must be a list' });
	const entries = (n: number): string => `${n} ${n === 1 ? 'entry' : 'entries'}`;
	if (field.minItems !== undefined) a = a.min(field.minItems, { message: `must hold at least ${entries(field.minItems)}` });
	if (field.maxItems !== undefined) a = a.max(field.maxItems, { message: `must hold at most ${entries(field.maxItems)}` });
	return a;
}

/** The zod schema of one field's value (API shape). */
export function fieldSchema(field: Field, side: Side = 'client'): z.ZodTypeAny {
	switch (field.type) {
		case 'string':
		case 'enum':
			return exactId(textSchema(field, side), field, side);
		case 'id':
			return exactId(maxChars(idSchema(field), field), field, side);
		case 'number':
		case 'integer':
			return exactId(maxChars(numberSchema(field), field), field, side);
		case 'boolean':
			return z.boolean({ invalid_type_error: 'must be true or false' });
		case 'date':
			return text(field).regex(DATE, { message: textMessage(field) }).refine(isRealDate, { message: 'must be a real calendar date (yyyy-mm-dd)' });
		case 'time':
		case 'dateTime':
			return text(field).regex(field.type === 'time' ? TIME : DATE_TIME, { message: textMessage(field) });
		case 'email':
			return maxLen(text(field), field).pipe(z.string().email({ message: textMessage(field) }));
		case 'url':
			return maxLen(text(field), field).pipe(z.string().url({ message: textMessage(field) }));
		case 'phone':
			return maxLen(text(field), field).pipe(z.string().regex(PHONE, { message: 'may hold only digits, spaces, +, -, . and parentheses' }));
		case 'object':
			return objectSchema(field.fields ?? [], side);
		case 'array':
			return arraySchema(field, side);
		case 'json':
			return z.unknown().refine((v) => v !== null && typeof v === 'object', { message: 'must be a JSON object or array' });
		default:
			return z.unknown();
	}
}

/** Built schemas per table entry and side: a field's schema is built once, not per item. */
const schemas: Record<Side, WeakMap<Field, z.ZodTypeAny>> = { client: new WeakMap(), server: new WeakMap() };

/** `fieldSchema`, built on first use for this field table entry and side and kept. */
export function cachedFieldSchema(field: Field, side: Side = 'client'): z.ZodTypeAny {
	let schema = schemas[side].get(field);
	if (!schema) {
		schema = fieldSchema(field, side);
		schemas[side].set(field, schema);
	}
	return schema;
}

/**
 * Members of an object (or of each array entry): required ones must be present. Unknown keys
 * pass through on the client (a JSON value from an expression is sent as written); the server
 * (the emulator) refuses keys no table names.
 */
export function objectSchema(fields: Field[], side: Side = 'client'): z.ZodTypeAny {
	const shape: Record<string, z.ZodTypeAny> = {};
	for (const f of fields) {
		const s = fieldSchema(f, side);
		shape[f.name] = f.required ? s : s.optional().nullable();
	}
	const base = z.object(shape, { invalid_type_error: 'must be an object' });
	const object = side === 'server' && fields.length ? base.strict() : base.passthrough();
	const conditional = fields.filter((f) => f.requiredWhen);
	if (!conditional.length) return object;
	return object.superRefine((value, ctx) => {
		for (const f of conditional) {
			const rule = missingConditional(f, value as Record<string, unknown>, side === 'client' ? fields : undefined);
			if (rule) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [f.name], message: rule });
		}
	});
}

/** Checks values in API shape (top-level field name -> value) against an operation's fields. */
export function validateValues(op: Operation, values: Record<string, unknown>, side: Side = 'client'): Problem[] {
	const problems: Problem[] = [];
	for (const field of op.fields) {
		if (field.readOnly) continue;
		let value = values[field.name];
		if (side === 'server' && locationOf(field, op) !== 'body') value = coerceFromQuery(field, value);
		// a value given blank is refused on the client (the reading keeps a blank value only where the user gave it)
		if (side === 'client' && value !== undefined && isBlank(value)) {
			// a field the update reads when left out (`keepCurrent`) was given: blank, it is not left out
			problems.push({ field: field.name, message: blankMessage(value, field.required && !op.keepCurrent?.includes(field.name)) });
			continue;
		}
		if (isBlank(value)) {
			// a field with a JSON alternative is given either way: the message names both
			if (field.required) problems.push({ field: field.name, message: field.jsonAlternative && side === 'client' ? `is required (as fields, or as ${jsonAlternativeLabel(field)})` : 'is required' });
			const conditional = field.required ? undefined : missingConditional(field, { ...values, [field.name]: value }, side === 'client' ? op.fields : undefined);
			if (conditional) problems.push({ field: field.name, message: conditional });
			continue;
		}
		// the ids of a split operation given as an empty list: no call would be made, so nothing would be said of the item
		if (side === 'client' && op.batch?.field === field.name && Array.isArray(value) && !value.length) {
			problems.push({ field: field.name, message: 'must hold at least 1 entry' });
			continue;
		}
		// blank members and lines that say nothing of what they are first: they name the cause where the type check would not
		if (side === 'client' && typeof value === 'object') problems.push(...memberProblems(field, value, field.name));
		const result = cachedFieldSchema(field, side).safeParse(value);
		if (!result.success) {
			for (const issue of result.error.issues) {
				problems.push({ field: joinPath(field.name, issue.path), message: issueMessage(issue) });
			}
		}
	}
	return problems;
}

/**
 * The members of a line that say what it is: the item it sells or the named product or
 * service (the rule's words), or the record it changes or bills. A line with none of them is
 * refused, naming the line. The documents mark no line member required; this is a guess
 * (docs/ASSUMPTIONS.md).
 */
const LINE_IDENTITY = { field: 'line_items', primary: ['item_id', 'name'], also: ['line_item_id', 'expense_id', 'time_entry_ids', 'purchaseorder_item_id', 'receive_item_id', 'account_id'] };

/** "Item ID or Name (or Line Item ID or Expense ID)": the members of `entry` named `names`, in the form's words. */
function orList(entry: readonly Field[], names: readonly string[]): string {
	const labels = names.flatMap((name) => entry.filter((m) => m.name === name).map(formName));
	return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}` : labels.join('');
}

/** Why a line (an entry of `line_items`) says nothing of what it is, if it does not (a member given blank has its own problem). */
function lineIdentityProblem(entry: readonly Field[], line: Record<string, unknown>): string | undefined {
	const given = (name: string): boolean => line[name] !== undefined && !(Array.isArray(line[name]) && !(line[name] as unknown[]).length);
	if (!entry.some((m) => LINE_IDENTITY.primary.includes(m.name)) || [...LINE_IDENTITY.primary, ...LINE_IDENTITY.also].some(given)) return undefined;
	const primary = orList(entry, LINE_IDENTITY.primary);
	const also = orList(entry, LINE_IDENTITY.also);
	return `needs ${primary || also}${primary && also ? ` (or ${also})` : ''}`;
}

/**
 * The problems inside an object or list value (client side): a member given blank (an entry
 * member set by an expression, a JSON key written blank; members left empty are not given
 * and not here), and a line that says nothing of what it is. Free JSON (`json`) is as written.
 */
function memberProblems(field: Field, value: unknown, path: string): Problem[] {
	const problems: Problem[] = [];
	const entries = Array.isArray(value) ? value.map((v, i) => [v, `${path}[${i}]`] as const) : [[value, path] as const];
	for (const [entry, at] of entries) {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			if (field.type === 'array' && field.of && isBlank(entry)) problems.push({ field: at, message: blankMessage(entry, false) });
			continue;
		}
		if (!field.fields) continue;
		const members = entry as Record<string, unknown>;
		for (const [name, member] of Object.entries(members)) {
			const f = field.fields.find((m) => m.name === name);
			if (member !== undefined && isBlank(member)) problems.push({ field: `${at}.${name}`, message: blankMessage(member, f?.required) });
			else if (f && (f.type === 'object' || f.type === 'array')) problems.push(...memberProblems(f, member, `${at}.${name}`));
		}
		const identity = field.name === LINE_IDENTITY.field && field.type === 'array' ? lineIdentityProblem(field.fields, members) : undefined;
		if (identity) problems.push({ field: at, message: identity });
	}
	return problems;
}

function joinPath(root: string, path: Array<string | number>): string {
	return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : `${acc}.${p}`), root);
}

function issueMessage(issue: z.ZodIssue): string {
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return 'is required';
	if (issue.code === 'unrecognized_keys') return `holds ${issue.keys.length > 1 ? 'keys' : 'a key'} no field table names: ${issue.keys.join(', ')}`;
	if (issue.code === 'invalid_union' && issue.unionErrors.length) {
		return issueMessage(issue.unionErrors[0].issues[0]);
	}
	return issue.message;
}

/**
 * The one check of values before sending, for the action nodes and the triggers alike: the
 * table's rules (and any `more` problems found beside them) as one InputError naming every
 * field and rule.
 */
export function checkValues(op: Operation, values: Record<string, unknown>, more: Problem[] = []): void {
	const problems = [...validateValues(op, values), ...more];
	if (problems.length) throw new InputError(`Invalid input: ${describeProblems(problems, values, op.fields)}`);
}
