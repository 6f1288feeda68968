// Table types & naming (tables/): the zod schema of each field's value, built from the field tables and kept; imports tables/.
/**
 * The schemas built from the field tables. The same schemas check what a node is about to
 * send (client side, values already in API shape) and what the emulator receives
 * (server side, where query values arrive as strings and are coerced first).
 */
import { z } from 'zod/v3';
import { idTextProblem, isRecordId, unsafeId, UNSAFE_ID } from './ids';
import { missingConditional } from './problemText';
import type { Field } from './spec';
import {
	decimalNumber,
	decimalText,
	isDecimalText,
	lengthRule,
	NUMBER_TEXT_RULE,
} from './textRules';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;
const DIGITS = /^\d+$/;
const PHONE = /^[0-9+()\-.\s]*$/;
const LETTERS_AND_DIGITS = /^[A-Za-z0-9]*$/;

/** Which side checks: a node before it sends (`client`), or the emulator as it receives (`server`). */
export type Side = 'client' | 'server';

function isRealDate(value: string): boolean {
	const [y, m, d] = value.split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function digitCount(n: number | string): number {
	return String(n)
		.replace(/^-/, '')
		.replace(/e.*$/i, '')
		.replace('.', '')
		.replace(/^0+(?=\d)/, '').length;
}

/** An ID or number's length limit, on its text (an ID may come as a number, a number has no string length of its own). */
function maxChars(schema: z.ZodTypeAny, field: Field): z.ZodTypeAny {
	const limit = field.maxLength;
	if (limit === undefined) return schema;
	return schema.refine((v) => String(v).length <= limit, { message: lengthRule('most', limit) });
}

function maxLen(schema: z.ZodString, field: Field): z.ZodString {
	let s = schema;
	if (field.minLength !== undefined)
		s = s.min(field.minLength, { message: lengthRule('least', field.minLength) });
	if (field.maxLength !== undefined)
		s = s.max(field.maxLength, { message: lengthRule('most', field.maxLength) });
	return s;
}

function minMessage(min: number): string {
	return min === 0 ? 'must not be negative' : `must be at least ${min}`;
}

/** A string holding a decimal number (`numeric`), at least `min` when given. */
function numericText(schema: z.ZodTypeAny, field: Field): z.ZodTypeAny {
	let s = schema.refine((v) => isDecimalText(String(v)), {
		message: 'must be a number written as digits, e.g. 150 or 99.50',
	});
	if (field.min !== undefined) {
		const min = field.min;
		s = s.refine((v) => !isDecimalText(String(v)) || (decimalNumber(String(v)) as number) >= min, {
			message: minMessage(min),
		});
	}
	return s;
}

/** On the client, a record ID given as a number past 2^53 is refused before its own rules (`unsafeId`). */
function exactId(schema: z.ZodTypeAny, field: Field, side: Side): z.ZodTypeAny {
	if (side !== 'client' || !isRecordId(field)) return schema;
	return z
		.unknown()
		.superRefine((v, ctx) => {
			if (unsafeId(field, v))
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: UNSAFE_ID, fatal: true });
		})
		.pipe(schema);
}

/** What a text-typed field takes, in words: the message for a value of another type (a number, a list, an object). */
function textMessage(field: Field): string {
	switch (field.type) {
		case 'enum':
			return field.values?.length && !field.openValues
				? `must be one of: ${field.values.join(', ')}`
				: 'must be text';
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
			return field.numeric
				? 'must be a number written as digits, e.g. 150 or 99.50'
				: 'must be text';
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
	const wrong = field.numeric
		? 'must be an ID made of digits'
		: 'must be an ID: text, or a whole number';
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
	let n = z
		.number({
			errorMap: (issue, ctx) => ({
				message:
					issue.code === 'invalid_type'
						? issue.received === 'string'
							? NUMBER_TEXT_RULE
							: 'must be a number'
						: ctx.defaultError,
			}),
		})
		.finite({ message: 'must be a finite number' });
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
		schema = text(field).refine((v) => allowed.includes(v), {
			message: `must be one of: ${allowed.join(', ')}`,
		});
		if (field.maxLength !== undefined) schema = maxLen(text(field), field).and(schema);
	} else {
		schema = maxLen(text(field), field);
		if (field.numeric) schema = numericText(schema, field);
		if (field.alphanumeric)
			schema = schema.refine((v) => LETTERS_AND_DIGITS.test(String(v)), {
				message: 'may hold only letters (A-Z) and digits',
			});
	}
	// A number given to a text field (or an enum) is its decimal text (request.ts sends it so).
	if (side === 'client')
		schema = z.preprocess(
			(v) => (typeof v === 'number' && Number.isFinite(v) ? decimalText(v) : v),
			schema,
		);
	return schema;
}

/** A list: entries of objects with `fields` or scalars of shape `of`, within its size bounds. */
function arraySchema(field: Field, side: Side): z.ZodTypeAny {
	const entry = field.fields
		? objectSchema(field.fields, side)
		: field.of
			? fieldSchema(field.of, side)
			: z.unknown();
	let a = z.array(entry, { invalid_type_error: 'must be a list' });
	const entries = (n: number): string => `${n} ${n === 1 ? 'entry' : 'entries'}`;
	if (field.minItems !== undefined)
		a = a.min(field.minItems, { message: `must hold at least ${entries(field.minItems)}` });
	if (field.maxItems !== undefined)
		a = a.max(field.maxItems, { message: `must hold at most ${entries(field.maxItems)}` });
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
			return text(field)
				.regex(DATE, { message: textMessage(field) })
				.refine(isRealDate, { message: 'must be a real calendar date (yyyy-mm-dd)' });
		case 'time':
		case 'dateTime':
			return text(field).regex(field.type === 'time' ? TIME : DATE_TIME, {
				message: textMessage(field),
			});
		case 'email':
			return maxLen(text(field), field).pipe(z.string().email({ message: textMessage(field) }));
		case 'url':
			return maxLen(text(field), field).pipe(z.string().url({ message: textMessage(field) }));
		case 'phone':
			return maxLen(text(field), field).pipe(
				z
					.string()
					.regex(PHONE, { message: 'may hold only digits, spaces, +, -, . and parentheses' }),
			);
		case 'object':
			return objectSchema(field.fields ?? [], side);
		case 'array':
			return arraySchema(field, side);
		case 'json':
			return z.unknown().refine((v) => v !== null && typeof v === 'object', {
				message: 'must be a JSON object or array',
			});
		default:
			return z.unknown();
	}
}

/** Built schemas per table entry and side: a field's schema is built once, not per item. */
const schemas: Record<Side, WeakMap<Field, z.ZodTypeAny>> = {
	client: new WeakMap(),
	server: new WeakMap(),
};

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
function objectSchema(fields: Field[], side: Side = 'client'): z.ZodTypeAny {
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
			const rule = missingConditional(
				f,
				value as Record<string, unknown>,
				side === 'client' ? fields : undefined,
			);
			if (rule) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [f.name], message: rule });
		}
	});
}
