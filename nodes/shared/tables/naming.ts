/**
 * The names derived from the field tables, shared by the description, the requests and the
 * pickers: labels ("Customer ID"), where a field is entered (top or a collection), the
 * name of a raw-JSON alternative, the pickers' method names.
 */
import type { Field, Operation } from './spec';

const WORDS: Record<string, string> = {
	id: 'ID',
	ids: 'IDs',
	url: 'URL',
	gst: 'GST',
	vat: 'VAT',
	pdf: 'PDF',
	hsn: 'HSN',
	sac: 'SAC',
	sku: 'SKU',
	tds: 'TDS',
	cfdi: 'CFDI',
	sat: 'SAT',
	bcy: 'Base Currency',
	cc: 'CC',
	bcc: 'BCC',
	avatax: 'AvaTax',
	cfid: 'Custom Field ID',
	zpuid: 'User ID',
	startswith: 'Starts With',
	gcc: 'GCC',
	uk: 'UK',
	uae: 'UAE',
	is: 'Is',
};

/** `customer_id` -> "Customer ID"; `name_startswith` -> "Name Starts With". */
export function label(name: string): string {
	return name
		.replace(/([a-z])([A-Z])/g, '$1_$2')
		.split(/[_\s.]+/)
		.filter(Boolean)
		.map((w) => WORDS[w.toLowerCase()] ?? w.charAt(0).toUpperCase() + w.slice(1))
		.join(' ');
}

function camel(text: string): string {
	const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
	return words
		.map((w, i) =>
			i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase(),
		)
		.join('');
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An object of one scalar member (`{ id }`, `{ zpuid }`, `{ amount }`) is entered as that member. */
export function wrapperMember(field: Field): Field | undefined {
	if (field.type !== 'object' || field.fields?.length !== 1) return undefined;
	const member = field.fields[0];
	return ['object', 'array', 'json'].includes(member.type) ? undefined : member;
}

/**
 * The action nodes' current version, 1.1: the form as n8n's UX guidelines lay it out, a list's
 * sorting in its own Sort collection below Filters, the regional field groups behind one choice.
 * Version 1 (stored workflows) keeps the form it had (sorting under Filters, every regional
 * group shown): n8n drops a stored value the form no longer shows when it loads a workflow, so
 * a stored workflow keeps its version and its values. The request reads each field where the
 * node's version puts it.
 */
export const FORM_VERSION = 1.1;

/** The collection that holds a list's sorting from version 1.1. */
export const SORT = 'sort';

/** A list's sorting parameter (`sort_column`, `sort_order`, `sortbyfield`, a `sort_by` with `sortFields`). */
export function isSortField(field: Field): boolean {
	return Boolean(field.sortFields) || /^sort(_|by)/.test(field.name);
}

/**
 * Where a field is entered: at the top level or in a named collection. An update shows at
 * the top only what the user must give (the record's ID, fields the API needs that cannot
 * be read first): every other field sits under Update Fields and is sent only when added. A
 * list's optional sorting sits under Sort from version 1.1 (`FORM_VERSION`), under Filters before.
 */
export function placement(field: Field, op: Operation, version: number = FORM_VERSION): string {
	if (op.kind === 'update' && !field.bodyRoot) {
		if (field.required && !op.keepCurrent?.includes(field.name)) return 'top';
		return field.group ? `${camel(field.group)}Fields` : 'updateFields';
	}
	if (field.required || field.top || field.bodyRoot) return 'top';
	if (field.group) return `${camel(field.group)}Fields`;
	if (op.kind === 'list') return isSortField(field) && version >= FORM_VERSION ? SORT : 'filters';
	if (op.kind === 'update') return 'updateFields';
	return 'additionalFields';
}

/** An entry (a line, a task) shows at most this many members; past it, the rest sit in the entry's Additional Fields. */
export const ENTRY_SHOWN_MAX = 10;

/** The collection inside an entry that holds its less common members. */
export const ENTRY_MORE = 'additionalFields';

/**
 * How an entry's input members are laid out: all shown when they are few; else the required
 * and `top` ones (what a plain line needs) shown and the rest under the entry's Additional Fields.
 */
export function entryLayout(members: Field[]): { shown: Field[]; more: Field[] } {
	const input = members.filter((m) => !m.readOnly);
	if (input.length <= ENTRY_SHOWN_MAX) return { shown: input, more: [] };
	const main = (m: Field): boolean => Boolean(m.required || m.top);
	return { shown: input.filter(main), more: input.filter((m) => !main(m)) };
}

/** The raw-JSON alternative of a field with `jsonAlternative`: property `<name>Json`. */
export function jsonAlternativeName(field: Field): string {
	return `${field.name}Json`;
}

/** The raw-JSON alternative's label: "Line Items (JSON)". */
export function jsonAlternativeLabel(field: Field): string {
	return `${field.label ?? label(field.name)} (JSON)`;
}

/** Words that start with a vowel letter but not a vowel sound ("a user", "a one-off"). */
const CONSONANT_SOUND = /^(one|once|uni|use|usu|uti|eu)/i;

/** "item" -> "an item", "estimate" -> "an estimate", "project" -> "a project". */
export function withArticle(noun: string): string {
	return `${/^[aeiou]/i.test(noun) && !CONSONANT_SOUND.test(noun) ? 'an' : 'a'} ${noun}`;
}

export function searchMethodName(resourceValue: string): string {
	return `search${capitalize(resourceValue)}s`;
}
