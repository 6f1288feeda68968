// Table types & naming (tables/): what a record ID may be: its text, the fields that hold one, a number too large to be exact; imports tables/.
import type { Field } from './spec';
import { isBlank } from './textRules';

/** Control characters (C0, DEL, C1): never part of an ID, and a line break in a header or a query splits it. */
/** Whether `text` holds a control character (C0, DEL, C1), told by code point (a regular expression of them trips n8n's lint). */
function hasControl(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
	}
	return false;
}

/**
 * Why `text` cannot be an ID documented as a string (or whose type is not shown), if it
 * cannot: blank, holding a control character, or a path segment that addresses another
 * path (`.` and `..`, which URLs resolve even when encoded). Any other text is an ID; the
 * service says whether it exists. The organization ID (its format never given) follows the
 * same rule.
 */
export function idTextProblem(text: string): string | undefined {
	if (isBlank(text)) return 'is blank';
	if (hasControl(text)) return 'must not hold control characters (line breaks, tabs)';
	if (text === '.' || text === '..') return 'cannot be "." or ".."';
	return undefined;
}

/**
 * Whether a field holds a record's ID: typed `id`, or named `..._id` and typed as text or a
 * number (a tax or image ID the documents give as a string or a number). Such a value given as
 * a number must be exact: see `unsafeId`.
 */
export function isRecordId(field: Field): boolean {
	if (field.type === 'id') return true;
	const idType =
		(field.type === 'string' && !field.numeric) ||
		field.type === 'number' ||
		field.type === 'integer';
	return idType && /(^|_)id$/.test(field.name);
}

/**
 * Whether `value` is a number given for a record ID that is past JavaScript's exact integers
 * (2^53): its digits were rounded before the node saw it, so it names another record.
 */
export function unsafeId(field: Field, value: unknown): boolean {
	return (
		isRecordId(field) &&
		typeof value === 'number' &&
		Number.isFinite(value) &&
		Number.isInteger(value) &&
		!Number.isSafeInteger(value)
	);
}

/** The rule an ID given as a number too large to be exact breaks (the value itself follows as "got"). */
export const UNSAFE_ID =
	'is a number too large to be exact, so its last digits were already lost before this node: keep the ID as text, as the Vendor nodes output it (String() of the number cannot bring the digits back)';
