// Table types & naming (tables/): how a value's problem reads: the field in the form's words, the rule, what was given; imports tables/.
import { label } from './naming';
import type { Field } from './spec';
import { isBlank, isLengthRule } from './textRules';

/** A value's problem: where it is (the field's path) and the rule it breaks. */
export interface Problem {
	/** e.g. `line_items[0].name` */
	field: string;
	message: string;
}

/**
 * A field as the form names it: its label, with the API name in parentheses where the label
 * does not spell it ("Payment Mode Filter (filter_by)", but "Customer ID").
 */
export function formName(field: Field): string {
	const shown = field.label ?? label(field.name);
	const plain = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
	return plain(shown) === plain(field.name) ? shown : `${shown} (${field.name})`;
}

/**
 * A problem's place in the form's words: `line_items[0].item_id` -> "Line Items, line 1: Item
 * ID"; `billing_address.city` -> "Billing Address: City". A key no table names stays as written.
 */
function formPath(fields: readonly Field[], path: string): string {
	const parts: string[] = [];
	let members: readonly Field[] = fields;
	let field: Field | undefined;
	for (const token of path.match(/[^.[\]]+/g) ?? []) {
		if (/^\d+$/.test(token) && field) {
			parts[parts.length - 1] +=
				`, ${field.name === 'line_items' ? 'line' : 'entry'} ${Number(token) + 1}`;
			continue;
		}
		field = members.find((f) => f.name === token);
		parts.push(field ? formName(field) : token);
		members = field?.fields ?? (field?.of ? [field.of] : []);
	}
	return parts.join(': ');
}

/**
 * One line per problem, each naming the field in the form's words (`fields`: the operation's)
 * and the rule, one problem per value (the first rule it breaks).
 */
export function describeProblems(
	problems: Problem[],
	values: Record<string, unknown>,
	fields: readonly Field[],
): string {
	const seen = new Set<string>();
	return problems
		.filter((p) => !seen.has(p.field) && seen.add(p.field))
		.map((p) => {
			return `${formPath(fields, p.field)} ${p.message}${describeGot(values, p.field, p.message)}`;
		})
		.join('; ');
}

/**
 * What was given, for a problem's message: the length as the API counts it (for a length
 * rule), short text quoted, long text by its length, a number or yes/no as written, the
 * size of a list, or that an object was given.
 */
function describeGot(values: Record<string, unknown>, path: string, message: string): string {
	const keys = path.match(/[^.[\]]+/g) ?? [];
	let v: unknown = values;
	for (const k of keys) {
		if (v === null || typeof v !== 'object') return '';
		v = (v as Record<string, unknown>)[k];
	}
	if (isLengthRule(message)) return ` (got ${String(v).length})`;
	if (typeof v === 'string' && isBlank(v)) return ''; // blank text shows nothing: the message says what is there
	if (typeof v === 'string')
		return /characters/.test(message) || v.length > 40
			? ` (got ${v.length} characters)`
			: ` (got "${v}")`;
	if (Array.isArray(v))
		return / entr(y|ies)$/.test(message)
			? ` (got ${v.length} entries)`
			: ` (got a list of ${v.length} ${v.length === 1 ? 'entry' : 'entries'})`;
	if (typeof v === 'number' || typeof v === 'boolean') return ` (got ${String(v)})`;
	// an object where one value was expected (a type rule), not the problems inside an object given rightly
	if (v !== null && typeof v === 'object' && /^must be /.test(message)) return ' (got an object)';
	return '';
}

/**
 * The problem of a value given blank: refused, never sent, and never replaced by another
 * value. A required one is simply required (blank is no value); an optional one was given,
 * so the text says it is blank and what is there, as blank text does not show.
 */
export function blankMessage(value: unknown, required: boolean | undefined): string {
	if (required) return 'is required';
	const what =
		typeof value === 'string' && value !== '' ? ' (only spaces or invisible characters)' : '';
	return `is blank${what}: give it a value or leave it out`;
}

/**
 * The broken rule when `field` has a `requiredWhen` that the sibling values trigger and
 * the field is blank, e.g. `is required when billing_type is fixed_cost_for_project or
 * based_on_project_hours (billing_type is fixed_cost_for_project)`.
 */
export function missingConditional(
	field: Field,
	siblings: Record<string, unknown>,
	siblingFields?: readonly Field[],
): string | undefined {
	const rule = field.requiredWhen;
	if (!rule || !isBlank(siblings[field.name])) return undefined;
	const actual = siblings[rule.field];
	if (isBlank(actual) || !rule.values.includes(String(actual))) return undefined;
	// with the sibling fields, in the form's words: "Billing Type is Fixed Cost for Project"
	const other = siblingFields?.find((f) => f.name === rule.field);
	const name = other ? formName(other) : rule.field;
	const value = (v: string): string => other?.valueLabels?.[v] ?? v;
	return `is required when ${name} is ${rule.values.map(value).join(' or ')} (${name} is ${value(String(actual))})`;
}
