/**
 * Custom field values (document 000, "Custom field values").
 *
 * Custom fields are referenced by their API names and sent as top-level keys of the
 * create / update body (`application/json`). API names are supported for tasks and
 * projects only. The operation that retrieves custom field details exists, but its
 * path is not shown, so the node cannot list a portal's custom fields: the user gives
 * each value's API name and type, and the node validates the value against this table.
 */

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
	/** The value's JSON shape and limit, from the documents. */
	description: string;
}

/** The records whose custom fields can be addressed by API name. */
export const customFieldModules = ['projects', 'tasks'] as const;

export const customFieldTypes: CustomFieldType[] = [
	{
		value: 'singleLine',
		name: 'Single Line Text',
		shape: 'string',
		maxLength: 200,
		description: 'String, max 200 characters',
	},
	{
		value: 'multiLine',
		name: 'Multi-Line Text',
		shape: 'multiline',
		maxLength: 1000,
		description: 'String, lines separated by a newline character, max 1000 characters',
	},
	{
		value: 'singleSelect',
		name: 'Single Select',
		shape: 'select',
		maxOptions: 50,
		description: 'String from a predefined list (max 50 options)',
	},
	{
		value: 'multiSelect',
		name: 'Multi Select',
		shape: 'multiSelect',
		maxOptions: 100,
		maxItems: 100,
		addRemoveOnUpdate: true,
		description:
			'Create: array of strings; update: array holding one object { add: [strings], remove: [strings] }, or the create form to replace all values (max 100 selectable options)',
	},
	{
		value: 'singleUser',
		name: 'Single User',
		shape: 'user',
		description: 'Object { zpuid: &lt;user_id&gt; } (one user)',
	},
	{
		value: 'multiUser',
		name: 'Multi User',
		shape: 'multiUser',
		maxItems: 500,
		addRemoveOnUpdate: true,
		description:
			'Create: array of { zpuid }; update: array holding one object { add: [ {zpuid} ], remove: [ {zpuid} ] }, or the create form to replace (max 500 users)',
	},
	{
		value: 'date',
		name: 'Date',
		shape: 'date',
		description: 'String yyyy-MM-dd (ISO 8601)',
	},
	{
		value: 'time',
		name: 'Time',
		shape: 'time',
		description: 'String HH:MM',
	},
	{
		value: 'dateTime',
		name: 'Date-Time',
		shape: 'dateTime',
		description:
			"ISO 8601 string: yyyy-MM-dd'T'HH:mm:ss'Z' for UTC, yyyy-MM-dd'T'HH:mm:ss+HH:mm or -HH:mm for other zones",
	},
	{
		value: 'checkbox',
		name: 'Checkbox',
		shape: 'boolean',
		description: 'Boolean',
	},
	{
		value: 'currency',
		name: 'Currency',
		shape: 'currency',
		maxLength: 100,
		description: 'Object with amount (number), max 100 characters',
	},
	{
		value: 'percentage',
		name: 'Percentage',
		shape: 'percentage',
		maxLength: 20,
		description: 'Number, max 20 characters',
	},
	{
		value: 'integer',
		name: 'Integer',
		shape: 'integer',
		maxDigits: 19,
		description: 'Whole number, max 19 digits',
	},
	{
		value: 'decimal',
		name: 'Decimal',
		shape: 'decimal',
		maxDigits: 17,
		description: 'Number, max 17 digits',
	},
	{
		value: 'email',
		name: 'Email',
		shape: 'email',
		maxLength: 200,
		description: 'String, max 200 characters',
	},
	{
		value: 'phone',
		name: 'Phone',
		shape: 'phone',
		maxLength: 15,
		description: 'String, max 15 characters including + and parentheses',
	},
	{
		value: 'url',
		name: 'URL',
		shape: 'url',
		maxLength: 200,
		defaultProtocol: 'https://',
		description: 'String, max 200 characters; https:// is assumed when no protocol is given',
	},
];
