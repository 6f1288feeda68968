/**
 * Typed custom-field values of projects (document 000, "Custom field values"), entered by
 * API name in the node's "Custom Fields" list, turned into the documented JSON shapes and
 * checked against the limits of tables/customFieldTypes.ts before anything is sent.
 *
 * The call that lists a portal's custom fields has no documented path, so the user names
 * each field's API name and type; select options are not known to the node (the server
 * checks them).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { normaliseScalar, splitList } from '../shared/api/request';
import { InputError } from '../shared/tables/inputError';
import type { Field, Operation } from '../shared/tables/spec';
import { isBlank } from '../shared/tables/textRules';
import { validateValues } from '../shared/tables/validate';
import { customFieldTypes } from './tables/customFieldTypes';
import type { CustomFieldType } from './tables/customFieldTypes';

const PROTOCOL = /^[a-z][a-z0-9+.-]*:\/\//i;

const zpuid: Field[] = [{ name: 'zpuid', type: 'id', required: true, description: 'User ID' }];

/**
 * The table rule of one value of a custom-field type, as a field named `name`: `field`
 * for the create form (and the replace form of updates), `entry` for one entry of the
 * add / remove update form of multi-value types. Shared with the emulator.
 */
export function customFieldRule(
	type: CustomFieldType,
	name: string,
	options?: readonly string[],
): { field: Field; entry?: Field } {
	switch (type.shape) {
		case 'select':
			return {
				field: options ? { name, type: 'enum', values: options } : { name, type: 'string' },
			};
		case 'multiSelect': {
			const entry: Field = options
				? { name, type: 'enum', values: options }
				: { name, type: 'string' };
			return { field: { name, type: 'array', of: entry, maxItems: type.maxItems }, entry };
		}
		case 'user':
			return { field: { name, type: 'object', fields: zpuid } };
		case 'multiUser':
			return {
				field: { name, type: 'array', fields: zpuid, maxItems: type.maxItems },
				entry: { name, type: 'object', fields: zpuid },
			};
		case 'currency':
			return {
				field: {
					name,
					type: 'object',
					fields: [{ name: 'amount', type: 'number', required: true, maxLength: type.maxLength }],
				},
			};
		case 'percentage':
			return { field: { name, type: 'number', maxLength: type.maxLength } };
		case 'integer':
			return { field: { name, type: 'integer', maxDigits: type.maxDigits } };
		case 'decimal':
			return { field: { name, type: 'number', maxDigits: type.maxDigits } };
		case 'multiline':
			return { field: { name, type: 'string', maxLength: type.maxLength } };
		default:
			return { field: { name, type: type.shape, maxLength: type.maxLength } };
	}
}

/** `https://` is assumed for a URL without protocol (documented): checked with it, sent as entered. */
function withAssumedProtocol(type: CustomFieldType, value: string): string {
	return type.defaultProtocol && !PROTOCOL.test(value) ? `${type.defaultProtocol}${value}` : value;
}

/** The problems of a value against a field rule, each naming the field and the rule. */
function problemsOf(field: Field, value: unknown): string[] {
	const op: Operation = {
		value: 'check',
		name: 'Check',
		action: 'Check a custom field value',
		description: 'Custom field value',
		kind: 'action',
		method: 'POST',
		path: '/check',
		fields: [field],
	};
	return validateValues(op, { [field.name]: value }).map((p) => `"${p.field}" ${p.message}`);
}

// ---------------------------------------------------------------- UI

const MULTI = customFieldTypes.filter((t) => t.addRemoveOnUpdate).map((t) => t.value);
const NOT_TEXT = ['checkbox'];

/** The "Custom Fields" list of project create and update. */
export const customFieldProperties: INodeProperties[] = [
	{
		displayName: 'Custom Fields',
		name: 'customFields',
		type: 'fixedCollection',
		placeholder: 'Add Custom Field',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			"Values of the portal's custom fields, by API name (custom fields of projects and tasks have API names)",
		displayOptions: { show: { resource: ['project'], operation: ['create', 'update'] } },
		options: [
			{
				name: 'values',
				displayName: 'Custom Field',
				values: [
					{
						displayName: 'API Name',
						name: 'apiName',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. cf_priority',
						description: 'The API name of the custom field',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: customFieldTypes
							.map((t) => ({ name: t.name, value: t.value, description: t.description }))
							.sort((a, b) => a.name.localeCompare(b.name)),
						default: 'singleLine',
						description: 'The type of the custom field; the value is checked against its limits',
					},
					{
						displayName: 'Update Mode',
						name: 'updateMode',
						type: 'options',
						options: [
							{
								name: 'Replace All Values',
								value: 'replace',
								description: 'Send the complete list of values',
							},
							{
								name: 'Add / Remove Values',
								value: 'addRemove',
								description: 'Change the values without reading the current ones first',
							},
						],
						default: 'replace',
						displayOptions: { show: { type: MULTI, '/operation': ['update'] } },
					},
					{
						displayName: 'Value',
						name: 'booleanValue',
						type: 'boolean',
						default: false,
						description: 'Whether the checkbox is ticked',
						displayOptions: { show: { type: NOT_TEXT } },
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'The value. Multi select / multi user: comma-separated options or user IDs. User: the user ID. Currency: the amount. Date yyyy-mm-dd, time HH:MM, date-time 2026-01-31T09:30:00Z or 2026-01-31T09:30:00+05:30.',
						displayOptions: { hide: { type: NOT_TEXT, updateMode: ['addRemove'] } },
					},
					{
						displayName: 'Values to Add',
						name: 'add',
						type: 'string',
						default: '',
						description: 'Comma-separated options or user IDs to add',
						displayOptions: {
							show: { type: MULTI, updateMode: ['addRemove'], '/operation': ['update'] },
						},
					},
					{
						displayName: 'Values to Remove',
						name: 'remove',
						type: 'string',
						default: '',
						description: 'Comma-separated options or user IDs to remove',
						displayOptions: {
							show: { type: MULTI, updateMode: ['addRemove'], '/operation': ['update'] },
						},
					},
				],
			},
		],
	},
];

// ---------------------------------------------------------------- UI -> API

function list(value: unknown): unknown[] {
	if (Array.isArray(value)) return value;
	return splitList(String(value ?? ''));
}

const toNumber = (value: unknown): unknown =>
	normaliseScalar({ name: 'value', type: 'number' }, value);

function asUser(value: unknown): unknown {
	return typeof value === 'object' && value !== null ? value : { zpuid: String(value).trim() };
}

/** One value in the API shape of its type (create form); a date given as a Date or DateTime is read in `zone` (the workflow's time zone). */
function shapeValue(type: CustomFieldType, value: unknown, zone?: string): unknown {
	switch (type.shape) {
		case 'boolean':
			return value === 'true' ? true : value === 'false' ? false : value;
		case 'currency':
			return typeof value === 'object' && value !== null ? value : { amount: toNumber(value) };
		case 'percentage':
		case 'integer':
		case 'decimal':
			return toNumber(value);
		case 'user':
			return asUser(value);
		case 'multiSelect':
			return list(value).map(String);
		case 'multiUser':
			return list(value).map(asUser);
		case 'date':
			return normaliseScalar({ name: 'value', type: 'date' }, value, zone);
		default:
			// Text types: a number given (e.g. from an expression) is sent as its decimal text.
			return normaliseScalar({ name: 'value', type: 'string' }, value);
	}
}

/** No value: blank by the shared rule (spaces, no-break and zero-width spaces too), or an empty list. */
function noValue(value: unknown): boolean {
	return isBlank(value) || (Array.isArray(value) && value.length === 0);
}

/** Limits of a number as written (characters, digits): checked on what the user typed, before any rounding. */
function writtenProblems(type: CustomFieldType, name: string, raw: unknown): string[] {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (
		!text ||
		Number.isNaN(Number(text)) ||
		!['currency', 'percentage', 'integer', 'decimal'].includes(type.shape)
	)
		return [];
	if (type.maxLength && text.length > type.maxLength)
		return [`"${name}" must be at most ${type.maxLength} characters`];
	const digits = text
		.replace(/^[-+]/, '')
		.replace(/e.*$/i, '')
		.replace('.', '')
		.replace(/^0+(?=\d)/, '').length;
	if (type.maxDigits && digits > type.maxDigits)
		return [`"${name}" must have at most ${type.maxDigits} digits`];
	return [];
}

/**
 * The date-time forms of the custom-field table (the Conventions document): `yyyy-MM-dd'T'HH:mm:ss'Z'` for UTC,
 * `yyyy-MM-dd'T'HH:mm:ss[+|-]HH:mm` for other zones; seconds required, no fraction, the offset
 * with its colon.
 */
const DOCUMENTED_DATE_TIME =
	/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** Why `value` is not a date-time in one of the documented forms, if it is not (shared with the emulator). */
export function dateTimeFormProblem(value: unknown): string | undefined {
	if (typeof value === 'string' && DOCUMENTED_DATE_TIME.test(value)) return undefined;
	return 'must be a date-time with seconds, written 2026-01-31T09:30:00Z (UTC) or 2026-01-31T09:30:00+05:30';
}

/** What the table rule of the sent value cannot see: a URL's syntax with the assumed protocol, a date-time's documented form, whole numbers JavaScript cannot hold exactly. */
function extraProblems(type: CustomFieldType, name: string, value: unknown): string[] {
	if (type.shape === 'dateTime') {
		const problem = dateTimeFormProblem(value);
		return problem ? [`"${name}" ${problem}`] : [];
	}
	if (type.shape === 'url' && typeof value === 'string') {
		return [
			...problemsOf({ name, type: 'string', maxLength: type.maxLength }, value),
			...problemsOf({ name, type: 'url' }, withAssumedProtocol(type, value)),
		];
	}
	if (
		type.shape === 'integer' &&
		typeof value === 'number' &&
		Number.isInteger(value) &&
		!Number.isSafeInteger(value)
	) {
		return [`"${name}" is too large to be sent exactly (at most ${Number.MAX_SAFE_INTEGER})`];
	}
	return [];
}

/**
 * The custom-field values of the "Custom Fields" list, in API shape, keyed by API name.
 * Throws an InputError naming every field and broken rule; nothing is sent then.
 */
export function customFieldValues(
	entries: IDataObject[],
	isUpdate: boolean,
	reserved: readonly string[],
	zone?: string,
): IDataObject {
	const out: IDataObject = {};
	const problems: string[] = [];
	for (const [index, entry] of entries.entries()) {
		const name = String(entry.apiName ?? '').trim();
		const type = customFieldTypes.find((t) => t.value === entry.type);
		if (!name) {
			problems.push(`custom field ${index + 1}: "API Name" is required`);
			continue;
		}
		if (!type) {
			problems.push(`"${name}": unknown custom-field type "${String(entry.type)}"`);
			continue;
		}
		if (reserved.includes(name))
			problems.push(
				`"${name}" is a project field, not a custom field: set it in the operation's fields`,
			);
		if (name in out) problems.push(`"${name}" is given twice`);
		const rule = customFieldRule(type, name);
		if (isUpdate && type.addRemoveOnUpdate && entry.updateMode === 'addRemove') {
			const change: IDataObject = {};
			for (const part of ['add', 'remove'] as const) {
				const values = shapeValue(type, list(entry[part]), zone) as unknown[];
				if (!values.length) continue;
				change[part] = values as IDataObject[];
				const partRule: Field = { ...(rule.field as Field), name: `${name}[0].${part}` };
				problems.push(...problemsOf(partRule, values));
			}
			if (!Object.keys(change).length) problems.push(`"${name}": give values to add or to remove`);
			out[name] = [change];
			continue;
		}
		const raw =
			type.shape === 'boolean'
				? entry.value !== undefined && entry.value !== ''
					? entry.value
					: entry.booleanValue
				: entry.value;
		if (noValue(raw)) {
			problems.push(`"${name}" needs a value (${type.name})`);
			continue;
		}
		const value = shapeValue(type, raw, zone);
		const written = writtenProblems(type, name, raw);
		const own = written.length || type.shape === 'url' ? [] : problemsOf(rule.field, value);
		problems.push(
			...written,
			...own,
			...(written.length || own.length ? [] : extraProblems(type, name, value)),
		);
		out[name] = value as IDataObject;
	}
	if (problems.length) throw new InputError(`Invalid custom field value: ${problems.join('; ')}`);
	return out;
}
