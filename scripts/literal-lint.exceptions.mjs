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

const sorted = (names) =>
	names.every((name, i) => i === 0 || names[i - 1].localeCompare(name) <= 0);

/**
 * A list whose order departs from the alphabet only where the package means it to: "Not Set"
 * (nothing sent) and the API's every-value ("All") first, Custom API Call last.
 */
function deliberateOrder(finding) {
	let names = optionNames(finding);
	if (!names.length) return false;
	while (names.length && (names[0] === 'Not Set' || names[0] === 'None' || /^All\b/.test(names[0])))
		names = names.slice(1);
	if (names[names.length - 1] === 'Custom API Call') names = names.slice(0, -1);
	return sorted(names);
}

/** The `name` of the parameter whose `options: [` list starts at the finding's line. */
function ownerName(finding) {
	const indent = finding.lines[finding.line - 1].match(/^\t*/)[0];
	for (let i = finding.line - 2; i >= 0 && finding.lines[i].startsWith(indent); i--) {
		const name = finding.lines[i].match(new RegExp(`^${indent}name: '([^']*)',$`));
		if (name) return name[1];
	}
	return undefined;
}

/** The `name` of the parameter whose object starts at the finding's line (the generated class's layout). */
function parameterName(finding) {
	const start = finding.line - 1;
	const indent = finding.lines[start].match(/^\t*/)[0];
	for (
		let i = start + 1;
		i < finding.lines.length && !finding.lines[i].startsWith(`${indent}}`);
		i++
	) {
		const name = finding.lines[i].match(new RegExp(`^${indent}\\tname: '((?:[^'\\\\]|\\\\.)*)',$`));
		if (name) return name[1];
	}
	return undefined;
}

/** The finding's object is an entry of a `modes: [` list (a resource locator's modes). */
function inLocatorModes(finding) {
	const indent = finding.lines[finding.line - 1].match(/^\t*/)[0].length;
	for (let i = finding.line - 2; i >= 0; i--) {
		const own = finding.lines[i].match(/^\t*/)[0].length;
		if (own < indent) return /^\t*modes: \[$/.test(finding.lines[i]);
	}
	return false;
}

/** The optional top-level parameters n8n's non-required-fields-in-collection finds, by why each stays at the top. */
const TOP_LEVEL_OPTIONAL = {
	// n8n's Get Many pattern (its UX guidelines and its own nodes; n8n-nodes-base's rules check returnAll and limit there)
	getMany: ['returnAll', 'limit', 'customReturnAll'],
	// the output shape, n8n's Simplify pattern (UX guidelines: a Simplify toggle on responses of many fields), beside Return All
	output: ['simplify', 'output', 'outputFields'],
	// the Custom API Call's request, laid out as n8n's HTTP Request node lays out its own (method, body, file)
	request: [
		'customMethod',
		'customBodyType',
		'customBody',
		'customFileField',
		'customOutputBinaryField',
		'portal_id',
	],
	// a selector: which region's fields the form shows, as resource and operation decide (the rule exempts those)
	selector: ['regionalFields'],
	// n8n's binary-data convention: the input or output binary field is named at the top (Input Data Field Name)
	binary: ['binaryPropertyName'],
	// a trigger's settings of its polling, shown with the event they apply to
	trigger: ['maxCallsPerDay', 'windowDays'],
	// the raw-JSON alternative of a required list: either form is enough, so neither is marked required (see topProperties)
	jsonAlternative: [
		'line_itemsJson',
		'invoicesJson',
		'custom_fieldsJson',
		'trash_request_itemsJson',
	],
	// fields the tables mark `top` (common, often required by the API in cases `required` cannot express, as Rate
	// is for some Billing Types): moving one into a collection moves its stored value, which a stored workflow
	// then loses, unless a new node version keeps the old form (n8n's versioning: a breaking change is a new version)
	tables: [
		'name',
		'description',
		'rate',
		'date',
		'refund_mode',
		'to_mail_ids',
		'address',
		'city',
		'state',
		'zip',
		'country',
		'fax',
	],
};
const TOP_LEVEL_NAMES = new Set(Object.values(TOP_LEVEL_OPTIONAL).flat());

export const EXCEPTIONS = [
	{
		rule: 'n8n-nodes-base/node-class-description-inputs-wrong-regular-node',
		why: "Wants the connection literal ['main'], which @n8n/community-nodes/node-connection-type-literal forbids (NodeConnectionTypes.Main); n8n's own config (@n8n/node-cli) turns it off.",
	},
	{
		rule: 'n8n-nodes-base/node-class-description-outputs-wrong',
		why: "As inputs-wrong-regular-node: superseded by node-connection-type-literal, off in n8n's own config.",
	},
	{
		rule: 'n8n-nodes-base/node-param-options-type-unsorted-items',
		why: 'Top-level choices are alphabetical (n8n\'s options-sorted-alphabetically, which reads the top level only), but for a trailing Custom API Call (see that rule\'s departure). The choices inside collections and list entries, which that rule leaves alone, are alphabetical except "Not Set" / "None" (sends nothing, shows nothing) and the API\'s own every-value ("All") first, where a user looks for the neutral choice.',
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
	{
		rule: '@n8n/community-nodes/options-sorted-alphabetically',
		why: "The resource and operation lists end with the package's own \"Custom API Call\": n8n appends its own Custom API Call (the HTTP Request node's, which signs Bearer and skips the organisation) to a node's resource and operation lists unless their last option has that name (test/features/custom-call.test.ts), so sorted into the list it would be offered twice. Every other option of these lists is sorted.",
		applies: (finding) => {
			const names = optionNames(finding);
			const rest = names.slice(0, -1);
			const asN8n = [...rest].sort((a, b) =>
				a.localeCompare(b, undefined, { sensitivity: 'base' }),
			);
			return (
				names[names.length - 1] === 'Custom API Call' &&
				rest.every((n, i) => n === asN8n[i]) &&
				['resource', 'operation'].includes(ownerName(finding))
			);
		},
	},
	{
		rule: '@n8n/community-nodes/require-param-default',
		why: "The modes of a resource locator (From List, By ID) have a parameter's shape but are n8n-workflow's INodePropertyMode, which has no `default` (tsc in npm run lint refuses one): the locator itself has the default, { mode: 'list', value: '' }.",
		applies: inLocatorModes,
	},
	{
		rule: '@n8n/community-nodes/non-required-fields-in-collection',
		why: "Each name in TOP_LEVEL_OPTIONAL is at the top for a reason of n8n's own written there (its Get Many and Simplify patterns, the HTTP Request layout of Custom API Call, a selector, the binary-field convention, a trigger's settings, the JSON alternative of a required list, and table fields whose move would lose stored values); any other optional top-level field fails.",
		applies: (finding) => TOP_LEVEL_NAMES.has(parameterName(finding)),
	},
	{
		rule: '@n8n/community-nodes/open-ended-node-fields',
		why: "Custom API Call's body is any request's body, open by nature (as in n8n's HTTP Request node); a `...Json` field is the raw-JSON alternative of a required typed list (either one is enough, so neither is marked required), the form an expression or $fromAI fills.",
		applies: (finding) =>
			[...TOP_LEVEL_OPTIONAL.request, ...TOP_LEVEL_OPTIONAL.jsonAlternative].includes(
				parameterName(finding),
			),
	},
];
