/**
 * The rules of n8n's lint that the package deliberately departs from, each with its reason: the
 * one place that names them (scripts/literal-lint.mjs excuses a finding only when an entry here
 * matches it; docs/CONTRIBUTING.md "Lint and n8n's package checks" lists them for readers).
 *
 * An entry: `rule` (the finding's rule id), `why`, and optionally `applies(finding)`, which
 * narrows the departure to the findings it is meant for. A finding is
 * `{ file, line, rule, message, text, lines }`, `lines` being the generated class's lines.
 */

/** The option names of the `options: [` list that starts at the finding's line (the generated class's layout). */
function optionNames(finding) {
	const start = finding.line - 1;
	const indent = finding.lines[start].match(/^\t*/)[0];
	const names = [];
	for (let i = start + 1; i < finding.lines.length; i++) {
		const line = finding.lines[i];
		if (line.startsWith(`${indent}]`)) break;
		const name = line.match(new RegExp(`^${indent}\\t\\tname: '((?:[^'\\\\]|\\\\.)*)',$`));
		if (name) names.push(name[1].replace(/\\(.)/g, '$1'));
	}
	return names;
}

const sorted = (names) => names.every((name, i) => i === 0 || names[i - 1].localeCompare(name) <= 0);

/**
 * A list whose order departs from the alphabet only where the package means it to: "Not Set"
 * (nothing sent) and the API's every-value ("All") first, Custom API Call last.
 */
function deliberateOrder(finding) {
	let names = optionNames(finding);
	if (!names.length) return false;
	while (names.length && (names[0] === 'Not Set' || names[0] === 'None' || /^All\b/.test(names[0]))) names = names.slice(1);
	if (names[names.length - 1] === 'Custom API Call') names = names.slice(0, -1);
	return sorted(names);
}

export const EXCEPTIONS = [
	{
		rule: 'n8n-nodes-base/node-class-description-inputs-wrong-regular-node',
		why: "Wants the connection literal ['main'], which @n8n/community-nodes/node-connection-type-literal forbids (NodeConnectionTypes.Main); n8n's own config (@n8n/node-cli) turns it off.",
	},
	{
		rule: 'n8n-nodes-base/node-class-description-outputs-wrong',
		why: 'As inputs-wrong-regular-node: superseded by node-connection-type-literal, off in n8n\'s own config.',
	},
	{
		rule: 'n8n-nodes-base/node-param-options-type-unsorted-items',
		why: 'Choices are alphabetical, except "Not Set" / "None" (sends nothing, shows nothing) and the API\'s own every-value ("All") first, where a user looks for the neutral choice, and Custom API Call last, as in n8n\'s own nodes.',
		applies: deliberateOrder,
	},
	{
		rule: 'n8n-nodes-base/node-param-fixed-collection-type-unsorted-items',
		why: "The members of a list entry (a line item, a task, a user) follow the API's order, the entry's identifying members first (Item ID, Name, Description, Rate, Quantity), as the API documents and returns them; the entry's Additional Fields last. Alphabetical order would scatter one line's fields.",
	},
	{
		rule: 'n8n-nodes-base/node-param-description-miscased-id',
		why: "A JSON shape names the API's keys verbatim ('id', 'ids'): the user types them as written; 'ID' would be a wrong key.",
		applies: (finding) => /\\'ids?\\'/.test(finding.text),
	},
];
