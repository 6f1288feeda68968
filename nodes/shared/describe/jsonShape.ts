// Describing (describe/): the shape of a list or object given as JSON, in one line, for people and for AI agents; imports tables/.
/**
 * What a JSON value (a "(JSON)" alternative, a nested list) holds, in one line: an array or an
 * object, and each member's key and kind ("A JSON array of objects, one per line item, with the
 * keys 'item_id' (text, required), 'quantity' (number), ...").
 *
 * An AI agent sees a parameter only through the `$fromAI(key, description, type)` placed in it:
 * n8n's tool schema is built from those calls alone (n8n-core's getSchema), and the editor's
 * "let the model define this" button writes `$fromAI('<Label>', '', 'json')`, whose schema is
 * `{}`: no type, no description. So every JSON alternative also carries, as its builderHint (read
 * by n8n's AI workflow builder), the `$fromAI` call with this line as its description; a person
 * placing it by hand copies it from there or from the parameter's description.
 */
import type { IParameterBuilderHint } from 'n8n-workflow';

import { entryLayout, jsonAlternativeLabel, label } from '../tables/naming';
import type { Field } from '../tables/spec';

const TEXT_TYPES = new Set(['string', 'id', 'email', 'url', 'phone']);

/** What a member holds, in words: "text", "number", "yyyy-mm-dd", "one of A, B". */
function kind(member: Field): string {
	if (TEXT_TYPES.has(member.type)) return 'text';
	switch (member.type) {
		case 'number':
		case 'integer':
			return 'number';
		case 'boolean':
			return 'true or false';
		case 'date':
			return 'date yyyy-mm-dd';
		case 'time':
			return 'time HH:MM';
		case 'dateTime':
			return 'ISO 8601 date-time';
		case 'enum':
			return member.values && member.values.length <= 5 && !member.openValues
				? `one of ${member.values.join(', ')}`
				: 'text';
		case 'array':
			return member.fields ? 'array of objects' : 'array';
		case 'object':
			return 'object';
		default:
			return 'JSON';
	}
}

function singularWords(text: string): string {
	return text.replace(/ies$/, 'y').replace(/s$/, '');
}

/**
 * "A JSON array of objects, one per line item, with the keys 'item_id' (text), 'name' (text),
 * 'rate' (number), 'quantity' (number), ...; also 'unit', 'discount', ...": the members a plain
 * entry needs with their kind, the less common ones by name (as the form's entry shows them).
 */
export function jsonShape(field: Field): string {
	const { shown, more } = entryLayout(field.fields ?? []);
	const members = [...shown, ...more];
	const keys = `${shown.map((m) => `'${m.name}' (${kind(m)}${m.required ? ', required' : ''})`).join(', ')}${more.length ? `; also ${more.map((m) => `'${m.name}'`).join(', ')}` : ''}`;
	const what = (field.label ?? label(field.name)).toLowerCase();
	if (field.type === 'array') {
		return members.length
			? `A JSON array of objects, one per ${singularWords(what)}, with the keys ${keys}`
			: `A JSON array of ${field.of ? kind(field.of) : 'values'}`;
	}
	return members.length ? `A JSON object with the keys ${keys}` : 'A JSON object';
}

/** The key n8n's editor gives a model-filled parameter: its label, non-alphanumerics as "_" ("Line_Items__JSON_"). */
function fromAiKey(field: Field): string {
	return jsonAlternativeLabel(field)
		.replace(/[^a-zA-Z0-9-]/g, '_')
		.slice(0, 63);
}

/**
 * The `$fromAI` call that lets a model fill the JSON alternative with the right shape (as a
 * parameter value: with a leading "="). Typed 'string': the model sends the JSON as text, which
 * is parsed and checked before sending like any JSON given here; n8n's 'json' type would offer
 * the model a schema with no type at all.
 */
function fromAiExpression(field: Field): string {
	return `{{ $fromAI('${fromAiKey(field)}', \`${jsonShape(field)}\`, 'string') }}`;
}

/** For n8n's AI workflow builder: the shape, and the `$fromAI` call to use when a model fills it. */
export function jsonShapeHint(field: Field): IParameterBuilderHint {
	return {
		message: `${jsonShape(field)}. Give either this or the fields of '${field.label ?? label(field.name)}', not both. When an AI agent fills it, use the expression ${fromAiExpression(field)} so the model gets the shape.`,
		placeholderSupported: true,
	};
}
