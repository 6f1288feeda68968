/**
 * Custom field values (document 000, "Custom field values").
 *
 * Custom fields are referenced by their API names and sent as top-level keys of the
 * create / update body (`application/json`). API names are supported for tasks and
 * projects only. The operation that retrieves custom field details exists, but its
 * path is not shown, so the node cannot list a portal's custom fields: the user gives
 * each value's API name and type, and the node validates the value against this table.
 */
import type { Sources } from '../../shared/tables/spec';

export type CustomFieldShape =
	| 'string'
	| 'multiline'
	| 'select'
	| 'multiSelect'
	| 'user'
	| 'multiUser'
	| 'date'
	| 'time'
	| 'dateTime'
	| 'boolean'
	| 'currency'
	| 'percentage'
	| 'integer'
	| 'decimal'
	| 'email'
	| 'phone'
	| 'url';

export interface CustomFieldType {
	/** camelCase key of the type. */
	value: string;
	/** Field type as the documents name it. */
	name: string;
	/** JSON shape of the value. */
	shape: CustomFieldShape;
	/** Maximum characters of the value (for numbers: of its written form). */
	maxLength?: number;
	/** Maximum digits of a number. */
	maxDigits?: number;
	/** Maximum entries of an array value. */
	maxItems?: number;
	/** Maximum options the field can define (select types). */
	maxOptions?: number;
	/** Update also accepts `[ { add: [...], remove: [...] } ]` (change without reading the current values). */
	addRemoveOnUpdate?: boolean;
	/** The protocol assumed when a URL has none. */
	defaultProtocol?: string;
	/** What the value is and its limit, in a user's words (the description of the Type option). */
	description: string;
	/** Where each of the type's rules comes from (see `Sources`): its limits, the format its shape checks, its update form and default protocol. */
	sources?: Sources<
		| 'maxLength'
		| 'maxDigits'
		| 'maxItems'
		| 'maxOptions'
		| 'addRemoveOnUpdate'
		| 'defaultProtocol'
		| 'date'
		| 'time'
		| 'dateTime'
		| 'integer'
		| 'email'
		| 'phone'
		| 'url'
	>;
}

/** The records whose custom fields can be addressed by API name. */
export const customFieldModules = ['projects', 'tasks'] as const;
/** Where `customFieldModules` comes from. */
export const CUSTOM_FIELD_MODULES_SOURCE =
	'Conventions, Custom field values: "API names for custom fields are supported for tasks and projects only"';

export const customFieldTypes: CustomFieldType[] = [
	{
		value: 'singleLine',
		name: 'Single Line Text',
		shape: 'string',
		maxLength: 200,
		description: 'Text, at most 200 characters',
		sources: 'Conventions, Custom field values: "Single line text | string | max 200 characters"',
	},
	{
		value: 'multiLine',
		name: 'Multi-Line Text',
		shape: 'multiline',
		maxLength: 1000,
		description: 'Text of several lines, at most 1000 characters',
		sources:
			'Conventions, Custom field values: "Multi-line text | string, lines separated by a newline character | max 1000 characters"',
	},
	{
		value: 'singleSelect',
		name: 'Single Select',
		shape: 'select',
		maxOptions: 50,
		description: 'One option from a predefined list (at most 50 options)',
		sources:
			'Conventions, Custom field values: "Single select | string from a predefined list | max 50 options"',
	},
	{
		value: 'multiSelect',
		name: 'Multi Select',
		shape: 'multiSelect',
		maxOptions: 100,
		maxItems: 100,
		addRemoveOnUpdate: true,
		description:
			'Several options from a predefined list (at most 100 options); an update replaces all values or adds and removes some',
		sources: {
			maxItems:
				'Conventions, Custom field values: "Multi select | create: array of strings; update: array holding one object `{ add: [strings], remove: [strings] }`, or the create form to replace all values | max 100 selectable options"',
			maxOptions:
				'Conventions, Custom field values: "Multi select | create: array of strings; update: array holding one object `{ add: [strings], remove: [strings] }`, or the create form to replace all values | max 100 selectable options"',
			addRemoveOnUpdate:
				'Conventions, Custom field values: "Multi select | create: array of strings; update: array holding one object `{ add: [strings], remove: [strings] }`, or the create form to replace all values"',
		},
	},
	{
		value: 'singleUser',
		name: 'Single User',
		shape: 'user',
		description: 'One user, by user ID',
	},
	{
		value: 'multiUser',
		name: 'Multi User',
		shape: 'multiUser',
		maxItems: 500,
		addRemoveOnUpdate: true,
		description:
			'Several users, by user ID (at most 500); an update replaces all users or adds and removes some',
		sources: {
			maxItems:
				'Conventions, Custom field values: "Multi user | create: array of `{ zpuid }`; update: array holding one object `{ add: [ {zpuid} ], remove: [ {zpuid} ] }`, or the create form to replace | max 500 users"',
			addRemoveOnUpdate:
				'Conventions, Custom field values: "Multi user | create: array of `{ zpuid }`; update: array holding one object `{ add: [ {zpuid} ], remove: [ {zpuid} ] }`, or the create form to replace"',
		},
	},
	{
		value: 'date',
		name: 'Date',
		shape: 'date',
		description: 'Date (yyyy-mm-dd)',
		sources: 'Conventions, Custom field values: "Date | string `yyyy-MM-dd` (ISO 8601)"',
	},
	{
		value: 'time',
		name: 'Time',
		shape: 'time',
		description: 'Time of day (HH:MM)',
		sources: 'Conventions, Custom field values: "Time | string `HH:MM`"',
	},
	{
		value: 'dateTime',
		name: 'Date-Time',
		shape: 'dateTime',
		description:
			'Date and time with seconds, 2026-01-31T09:30:00Z (UTC) or 2026-01-31T09:30:00+05:30',
		sources:
			"Conventions, Custom field values: \"Date-time | string, ISO 8601: `yyyy-MM-dd'T'HH:mm:ss'Z'` for UTC\"",
	},
	{
		value: 'checkbox',
		name: 'Checkbox',
		shape: 'boolean',
		description: 'Ticked or not',
	},
	{
		value: 'currency',
		name: 'Currency',
		shape: 'currency',
		maxLength: 100,
		description: 'Amount of money, at most 100 characters',
		sources:
			'Conventions, Custom field values: "Currency | object with `amount` (number) | max 100 characters"',
	},
	{
		value: 'percentage',
		name: 'Percentage',
		shape: 'percentage',
		maxLength: 20,
		description: 'Number, at most 20 characters',
		sources: 'Conventions, Custom field values: "Percentage | number | max 20 characters"',
	},
	{
		value: 'integer',
		name: 'Integer',
		shape: 'integer',
		maxDigits: 19,
		description: 'Whole number, at most 19 digits',
		sources: 'Conventions, Custom field values: "Integer | number, whole | max 19 digits"',
	},
	{
		value: 'decimal',
		name: 'Decimal',
		shape: 'decimal',
		maxDigits: 17,
		description: 'Decimal number, at most 17 digits',
		sources: 'Conventions, Custom field values: "Decimal | number | max 17 digits"',
	},
	{
		value: 'email',
		name: 'Email',
		shape: 'email',
		maxLength: 200,
		description: 'Email address, at most 200 characters',
		sources: 'Conventions, Custom field values: "Email | string | max 200 characters"',
	},
	{
		value: 'phone',
		name: 'Phone',
		shape: 'phone',
		maxLength: 15,
		description: 'Phone number, at most 15 characters including + and parentheses',
		sources:
			'Conventions, Custom field values: "Phone | string | max 15 characters including + and parentheses"',
	},
	{
		value: 'url',
		name: 'URL',
		shape: 'url',
		maxLength: 200,
		defaultProtocol: 'https://',
		description: 'Web address, at most 200 characters; https:// is assumed when none is given',
		sources: {
			maxLength:
				'Conventions, Custom field values: "URL | string; `https://` is assumed when no protocol is given | max 200 characters"',
			url: 'Conventions, Custom field values: "URL | string; `https://` is assumed when no protocol is given | max 200 characters"',
			defaultProtocol:
				'Conventions, Custom field values: "URL | string; `https://` is assumed when no protocol is given"',
		},
	},
];
