// Table types & naming (tables/): owns the field tables' types, the names derived from them, the shared inferred texts and the validation built from them; imports nothing of the engine.
/**
 * The field tables' types. Every node, the validation, the request builder and the
 * emulator are derived from data of these shapes (see README "Design").
 *
 * Tables are plain data: no functions. Irregular behaviour is named with `special`
 * and implemented next to the node that needs it.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type FieldLocation = 'path' | 'query' | 'body' | 'header';

export type FieldType =
	| 'string'
	| 'id' // an identifier: any text but blanks, control characters, "." and ".." (numbers are accepted and sent as given); with `numeric`, digits only
	| 'number'
	| 'integer'
	| 'boolean'
	| 'date' // yyyy-mm-dd
	| 'dateTime' // ISO 8601 with Z or a numeric offset
	| 'time' // HH:MM
	| 'email'
	| 'url'
	| 'phone'
	| 'enum' // one of `values`
	| 'object' // members in `fields`
	| 'array' // entries: objects with `fields`, or scalars of shape `of`
	| 'json'; // free JSON (object or array) taken as is

export interface Field {
	/** API name, exactly as the documents write it. */
	name: string;
	type: FieldType;
	/**
	 * Where the value travels. Default: `path` when the operation's path has `{name}`,
	 * else `body` for POST/PUT/PATCH and `query` for GET/DELETE. Members of objects and
	 * array entries have no location.
	 */
	in?: FieldLocation;
	required?: boolean;
	/** Display name; default derived from `name` (`customer_id` -> "Customer ID"). */
	label?: string;
	/** Short description taken from the documents. */
	description?: string;
	/** Strings: maximum number of characters. */
	maxLength?: number;
	/** Strings: minimum number of characters. */
	minLength?: number;
	/** Integers / decimals: maximum number of digits. */
	maxDigits?: number;
	/** Numbers: inclusive bounds. */
	min?: number;
	max?: number;
	/** Arrays: size bounds. */
	minItems?: number;
	maxItems?: number;
	/** Enums: the allowed values, as the API spells them. */
	values?: readonly string[];
	/** Enums: display names per value, where the raw value is unreadable. */
	valueLabels?: Readonly<Record<string, string>>;
	/** Objects: their members. Arrays of objects: the members of each entry. */
	fields?: Field[];
	/** Arrays of scalars: the shape of one entry. */
	of?: Field;
	/** Query arrays: joined with this separator (default ','). */
	separator?: string;
	/** A default value shown in the UI (never sent unless the user leaves it set). */
	default?: unknown;
	/** The ID of a listable resource: shown as a resource locator fed by that resource's list. Value: the resource's `value`. */
	locator?: string;
	/** Show at the top level even though optional (common, important fields). */
	top?: boolean;
	/**
	 * Group name for fields that apply only to some regions or cases, e.g. 'India', 'Mexico'.
	 * The form shows a group's collection only when the user picks the group under "Regional
	 * Fields" (node version 1.1; version 1 shows every group, as it always did).
	 */
	group?: string;
	/**
	 * Entry members (a line's `line_item_id`): only offered in the entries of an update, where
	 * they name an existing line; a create's entries leave them out.
	 */
	updateOnly?: boolean;
	/**
	 * The field's API name is not shown in the documents; it follows the same convention
	 * elsewhere. Listed in the README's "Not covered / assumptions"; the form says only what the
	 * user notices if the guess is wrong ("If the service ignores this filter, all records are
	 * returned").
	 */
	inferred?: boolean;
	/**
	 * A rule of this field the documents do not state (a required marker, a limit, a batch
	 * size), in words, for the README's "Not covered / assumptions". The form shows the rule
	 * itself (a required marker, a description), never where it came from.
	 */
	inferredRule?: string;
	/**
	 * Strings that hold a decimal number (e.g. a rate "string on input"): a number given is
	 * sent as its decimal text, and text that is not a number is refused. With `min`, the
	 * number must be at least `min` (e.g. 0: "the amount must not be negative"). IDs (`id`):
	 * the documents give the ID as a number ("long", "number", "a string of digits"), so only
	 * digits are accepted; without it an ID is any text.
	 */
	numeric?: boolean;
	/**
	 * Strings: letters (A-Z, a-z) and digits only, e.g. a tax registration number, whose real
	 * values mix the two.
	 */
	alphanumeric?: boolean;
	/** This field's value is the whole request body (for bodies that are a JSON array). */
	bodyRoot?: boolean;
	/** Multi-line text input in the UI. */
	multiline?: boolean;
	/** Only valid in responses; never offered as input. */
	readOnly?: boolean;
	/**
	 * Strings sent as `direction(field)`, e.g. `asc(name)`: the sortable fields. Entered as a
	 * field picker plus an ascending / descending picker; an expression may give the string.
	 */
	sortFields?: readonly string[];
	/**
	 * Objects / arrays: besides the fields, a raw-JSON alternative in a second property
	 * `<name>Json` beside it (e.g. a whole list from an expression); at most one of the two is
	 * given. The JSON value is read like the fields (same checks, numbers as decimal text for
	 * string members, response-only members left out) but explicit 0s are kept.
	 */
	jsonAlternative?: boolean;
	/**
	 * Objects / arrays of objects: the entry form shows nested members (lists, objects) as
	 * fields too, not as JSON (by default members deeper than one level are JSON).
	 */
	membersAsFields?: boolean;
	/**
	 * Objects whose members are all optional: entered as a collection (Add Field), so only
	 * the members the user adds are sent (an untouched number is not sent as 0).
	 */
	pickMembers?: boolean;
	/**
	 * Required only when a sibling field (same level) holds one of `values`, e.g. `rate`
	 * when `billing_type` is `fixed_cost_for_project`. Checked before sending; the message
	 * names the field and the rule.
	 */
	requiredWhen?: { field: string; values: readonly string[] };
	/**
	 * Enums: `values` are the usual values, not a closed list (the documents give a length
	 * limit but no allowed values). Shown as options; any string within the limits passes.
	 */
	openValues?: boolean;
	/**
	 * Where each of this field's own rules comes from (its members carry their own): one
	 * source for all of them, or one per rule. A path parameter's `required` is the
	 * operation's `sources.path`.
	 */
	sources?: Sources<FieldRule>;
}

/**
 * Where a rule of the tables comes from: the words of a document section, the document named by
 * its title's first word (`Payments, Customer payment: "reference_number | string, max 100"`), or
 * a guess, the words of a docs/ASSUMPTIONS.md bullet (`guess: <words>`). Never shown in the form;
 * the emulator's refusals carry it (`X-Emulator-Source`).
 */
export type Source = `${'Conventions' | 'Accounting' | 'Payments'}, ${string}` | `guess: ${string}`;

/** The sources of an entry's rules: one for all of them, or one per rule name. */
export type Sources<Rule extends string> = Source | Partial<Record<Rule, Source>>;

/**
 * The rules of a field that need a source: its markers and limits, the format its type
 * checks, and `keepCurrent` where an update lists it.
 */
export type FieldRule =
	| 'required'
	| 'requiredWhen'
	| 'maxLength'
	| 'minLength'
	| 'maxDigits'
	| 'min'
	| 'max'
	| 'minItems'
	| 'maxItems'
	| 'values' // an enum without `openValues`
	| 'sortFields'
	| 'default'
	| 'numeric'
	| 'alphanumeric'
	| 'separator'
	| 'readOnly'
	| 'keepCurrent'
	| 'date'
	| 'dateTime'
	| 'time'
	| 'email'
	| 'url'
	| 'phone'
	| 'integer';

/**
 * The rules of an operation that need a source; `path` is its endpoint (method and path), the
 * source of its path parameters' `required`.
 */
export type OperationRule =
	| 'path'
	| 'batch'
	| 'perPage'
	| 'pagination'
	| 'binaryInput.extensions'
	| 'binaryInput.required';

type OperationKind = 'create' | 'get' | 'list' | 'update' | 'delete' | 'action';

type Pagination =
	/** `page` / `per_page` query; the answer's `page_context.has_more_page` (object, or array of one object) says whether to go on. */
	| 'pageContext'
	/** `page` / `per_page` query; the answer does not say: stop at a page shorter than `per_page`. */
	| 'pageSize'
	/** One call answers everything. */
	| 'none';

export interface Operation {
	/** camelCase operation value, e.g. `getAll`, `sendReminder`. */
	value: string;
	/** Display name, e.g. "Get Many". */
	name: string;
	/** n8n action text, e.g. "Get many items". */
	action: string;
	description: string;
	kind: OperationKind;
	method: HttpMethod;
	/** Path relative to the area's base path, with `{param}` placeholders. */
	path: string;
	/** Required OAuth scope(s); undefined where the documents do not state one. */
	scope?: string | string[];
	fields: Field[];
	/** Key of the answer that holds the record or list (`item`, `items`); undefined = envelope only / not shown. */
	responseKey?: string;
	/** For lists. */
	pagination?: Pagination;
	/** Default and maximum page size where known. */
	perPage?: number;
	/** An array field whose ids are split into calls of at most `size`. */
	batch?: { field: string; size: number };
	/** The answer is a file. */
	binaryOutput?: { mimeType: string; fileName: string };
	/** A file is uploaded (multipart) from an n8n binary property. */
	binaryInput?: { field: string; extensions: readonly string[]; required?: boolean };
	/** The path or the whole operation is not shown in the documents but implied by them. */
	inferred?: boolean;
	/** With `inferred`: what is inferred, in words, for the README's "Not covered / assumptions". */
	inferredNote?: string;
	/** With `inferred`: the form's notice on the operation, in the user's words: what they notice if the guess is wrong. */
	notice?: string;
	/**
	 * Update operations that replace these fields on every call (the API needs them each
	 * time): a field the user leaves out is read from the record first (the resource's Get)
	 * and sent with its current value, never a default. Listed fields are entered under
	 * Update Fields like every optional field of an update.
	 */
	keepCurrent?: readonly string[];
	/** Name of irregular behaviour implemented beside the node (e.g. 'pdf', 'bulkReminder', 'fromEstimate'). */
	special?: string;
	/** Notes for readers (and the README's "Not covered"). */
	notes?: string;
	/** Where each of the operation's own rules comes from, by rule (see `Sources`). */
	sources?: Partial<Record<OperationRule, Source>>;
}

/**
 * The value of a resource's Get Many operation (workflows store it). A resource names it
 * as its `listOperation` through this constant: the table entry is not an option itself.
 */
export const GET_MANY = 'getAll';

export interface Resource {
	/** camelCase resource value, e.g. `item`. */
	value: string;
	/** Display name, e.g. "Item". */
	name: string;
	/** Record ID field name, e.g. `item_id`. */
	idField?: string;
	/** Field that names a record (for pickers), e.g. `name`. */
	nameField?: string;
	/** The list operation that feeds pickers of this resource's IDs. */
	listOperation?: string;
	operations: Operation[];
	/**
	 * The fields Get and Get Many keep when "Simplify" is on (ids, number, customer/vendor,
	 * status, dates, totals, balance); fields a record lacks are left out.
	 */
	simplify?: readonly string[];
}

/** Accounting (Books, Invoice, Billing, Inventory) or Project management (Projects). */
export type Family = 'accounting' | 'projects';

export interface Area {
	/** Node key, e.g. `books`. */
	value: string;
	/** Node display name, e.g. "Vendor Books". */
	name: string;
	/**
	 * The area's family: `accounting` (host `{api_url}`, accounting envelope `code` / `message`,
	 * paced by the credential's accounting ceiling) or `projects` (host `{base_url}`, Projects
	 * error envelope, the static Projects share).
	 */
	family: Family;
	/** Version path under the root, e.g. `/books/v3`. */
	basePath: string;
	/** How the organisation id travels. */
	org?: { in: 'query' | 'header'; name: string };
	/**
	 * The accounting `code` values this area's document gives, with what to do about each. A
	 * code has its meaning only in the area that documents it (1002 is a billing project that
	 * does not exist, not a Books record); other codes, and every code of an area without
	 * this table, keep the API's own message.
	 */
	errorCodes?: Readonly<Record<number, { meaning: string; resolution: string }>>;
	/** Every scope the area's operations need (for the credential's default scope string). */
	scopes: readonly string[];
	resources: Resource[];
}
