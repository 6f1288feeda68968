/**
 * How the operations read to people and to AI agents. n8n names a node used as a tool
 * "<action> in <node>" (and describes it so unless the user writes a description), so every
 * action names its object unambiguously ("Get a billing project", not "Get a project");
 * the operation list's description says in one sentence what the operation does and what
 * it needs.
 */
import { jsonAlternativeLabel, label, placement } from '../tables/naming';
import type { Field, Operation } from '../tables/spec';

function joined(words: string[]): string {
	return words.length <= 1
		? words.join('')
		: `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** Parameter names as n8n's guidelines write them in a text: in single quotes ('Estimate ID'). */
const named = (fields: Field[]): string[] =>
	fields.map(
		(f) =>
			`'${f.label ?? label(f.name)}'${f.jsonAlternative ? ` or '${jsonAlternativeLabel(f)}'` : ''}`,
	);

/**
 * The table's sentence, what is required and the main optional fields shown at the top:
 * "Update a comment of an estimate; needs 'Estimate ID' and 'Comment ID', usually with 'Description'".
 */
export function operationDescription(op: Operation): string {
	const input = op.fields.filter((f) => !f.readOnly && placement(f, op) === 'top');
	const needs = named(input.filter((f) => f.required));
	if (op.binaryInput && op.binaryInput.required !== false)
		needs.push("a file (in the binary field named by 'Input Data Field Name')");
	const main = named(input.filter((f) => !f.required && f.top));
	const sentence = op.description.replace(/\.$/, '');
	return `${sentence}${needs.length ? `; needs ${joined(needs)}` : ''}${main.length ? `, usually with ${joined(main)}` : ''}`;
}
