// Table types & naming (tables/): an operation's values checked against its fields: every problem, and the one InputError naming them; imports tables/.
/**
 * The check of values built from the field tables, on both sides: what a node is about to send
 * (client side, values already in API shape) and what the emulator receives (server side,
 * where query values arrive as strings and are coerced first).
 */
import type { z } from 'zod/v3';
import { InputError } from './inputError';
import { locationOf } from './location';
import { jsonAlternativeLabel } from './naming';
import { blankMessage, describeProblems, formName, missingConditional } from './problemText';
import type { Problem } from './problemText';
import { cachedFieldSchema } from './schemas';
import type { Side } from './schemas';
import type { Field, Operation } from './spec';
import { decimalNumber, isBlank } from './textRules';

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

/** Checks values in API shape (top-level field name -> value) against an operation's fields. */
export function validateValues(
	op: Operation,
	values: Record<string, unknown>,
	side: Side = 'client',
): Problem[] {
	const problems: Problem[] = [];
	for (const field of op.fields) {
		if (field.readOnly) continue;
		let value = values[field.name];
		if (side === 'server' && locationOf(field, op) !== 'body')
			value = coerceFromQuery(field, value);
		// a value given blank is refused on the client (the reading keeps a blank value only where the user gave it)
		if (side === 'client' && value !== undefined && isBlank(value)) {
			// a field the update reads when left out (`keepCurrent`) was given: blank, it is not left out
			problems.push({
				field: field.name,
				message: blankMessage(value, field.required && !op.keepCurrent?.includes(field.name)),
			});
			continue;
		}
		if (isBlank(value)) {
			// a field with a JSON alternative is given either way: the message names both
			if (field.required)
				problems.push({
					field: field.name,
					message:
						field.jsonAlternative && side === 'client'
							? `is required (as fields, or as ${jsonAlternativeLabel(field)})`
							: 'is required',
				});
			const conditional = field.required
				? undefined
				: missingConditional(
						field,
						{ ...values, [field.name]: value },
						side === 'client' ? op.fields : undefined,
					);
			if (conditional) problems.push({ field: field.name, message: conditional });
			continue;
		}
		// the ids of a split operation given as an empty list: no call would be made, so nothing would be said of the item
		if (
			side === 'client' &&
			op.batch?.field === field.name &&
			Array.isArray(value) &&
			!value.length
		) {
			problems.push({ field: field.name, message: 'must hold at least 1 entry' });
			continue;
		}
		// blank members and lines that say nothing of what they are first: they name the cause where the type check would not
		if (side === 'client' && typeof value === 'object')
			problems.push(...memberProblems(field, value, field.name));
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
const LINE_IDENTITY = {
	field: 'line_items',
	primary: ['item_id', 'name'],
	also: [
		'line_item_id',
		'expense_id',
		'time_entry_ids',
		'purchaseorder_item_id',
		'receive_item_id',
		'account_id',
	],
};

/** "Item ID or Name (or Line Item ID or Expense ID)": the members of `entry` named `names`, in the form's words. */
function orList(entry: readonly Field[], names: readonly string[]): string {
	const labels = names.flatMap((name) => entry.filter((m) => m.name === name).map(formName));
	return labels.length > 1
		? `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`
		: labels.join('');
}

/** Why a line (an entry of `line_items`) says nothing of what it is, if it does not (a member given blank has its own problem). */
function lineIdentityProblem(
	entry: readonly Field[],
	line: Record<string, unknown>,
): string | undefined {
	const given = (name: string): boolean =>
		line[name] !== undefined && !(Array.isArray(line[name]) && !(line[name] as unknown[]).length);
	if (
		!entry.some((m) => LINE_IDENTITY.primary.includes(m.name)) ||
		[...LINE_IDENTITY.primary, ...LINE_IDENTITY.also].some(given)
	)
		return undefined;
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
	const entries = Array.isArray(value)
		? value.map((v, i) => [v, `${path}[${i}]`] as const)
		: [[value, path] as const];
	for (const [entry, at] of entries) {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			if (field.type === 'array' && field.of && isBlank(entry))
				problems.push({ field: at, message: blankMessage(entry, false) });
			continue;
		}
		if (!field.fields) continue;
		const members = entry as Record<string, unknown>;
		for (const [name, member] of Object.entries(members)) {
			const f = field.fields.find((m) => m.name === name);
			if (member !== undefined && isBlank(member))
				problems.push({ field: `${at}.${name}`, message: blankMessage(member, f?.required) });
			else if (f && (f.type === 'object' || f.type === 'array'))
				problems.push(...memberProblems(f, member, `${at}.${name}`));
		}
		const identity =
			field.name === LINE_IDENTITY.field && field.type === 'array'
				? lineIdentityProblem(field.fields, members)
				: undefined;
		if (identity) problems.push({ field: at, message: identity });
	}
	return problems;
}

function joinPath(root: string, path: Array<string | number>): string {
	return path.reduce<string>(
		(acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : `${acc}.${p}`),
		root,
	);
}

function issueMessage(issue: z.ZodIssue): string {
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return 'is required';
	if (issue.code === 'unrecognized_keys')
		return `holds ${issue.keys.length > 1 ? 'keys' : 'a key'} no field table names: ${issue.keys.join(', ')}`;
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
export function checkValues(
	op: Operation,
	values: Record<string, unknown>,
	more: Problem[] = [],
): void {
	const problems = [...validateValues(op, values), ...more];
	if (problems.length)
		throw new InputError(`Invalid input: ${describeProblems(problems, values, op.fields)}`);
}
