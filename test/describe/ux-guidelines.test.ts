/**
 * n8n's UX guidelines for community nodes, checked over the whole description of every node
 * (the action nodes, the triggers; collections, fixed-collection entries and resource-locator
 * modes included) as a new node shows it (its current version; the forms of older versions stay
 * for stored workflows), so a text that breaks one fails here with where it sits:
 * - actions name what they do without articles ("Create item", not "Create an item");
 * - a parameter named in a description is quoted ("needs 'Item ID'");
 * - a placeholder is an example ("e.g. ..."), except n8n's own "Add ..." of a collection and
 *   "Select ..." of a list picker;
 * - sorting is not a filter: no sort parameter inside Filters;
 * - Simplify keeps at most 10 fields;
 * - labels in users' words: no glued API words ("Customfield", "Sortbyfield"), no API name in
 *   parentheses ("Field (cfid)"), no "Is ..." flag names, no "Mail" for email;
 * - one word per thing: "email" (never "e-mail"), "trash" (never "bin");
 * - descriptions: one that says only its label is left out, one of several sentences ends
 *   with a period, and none shows wire-format JSON ("sent as { id }").
 */
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import type { Area } from '../../nodes/shared/tables/spec';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { NODE_TYPES } from '../../harness/workflows';

const NODES: INodeTypeDescription[] = NODE_TYPES.map(
	(Type) => (new Type() as INodeType).description,
);

const AREAS: Area[] = [booksArea, projectsArea, invoiceArea, billingArea, inventoryArea];

// ---------------------------------------------------------------- walking a description

/** One place of a description a user reads: a property, an entry group of a fixed collection, an option of a choice, a resource-locator mode. */
interface Place {
	where: string;
	kind: 'property' | 'group' | 'option' | 'mode';
	/** The property (for a property), or the property the option, group or mode belongs to. */
	prop: INodeProperties;
	displayName?: string;
	description?: string;
	hint?: string;
	placeholder?: string;
	/** An option's name and action. */
	name?: string;
	action?: string;
	value?: unknown;
}

type Child = INodeProperties | INodePropertyCollection | INodePropertyOptions;

/** The version a new node gets: its `defaultVersion`, else its highest `version`. */
function currentVersion(description: INodeTypeDescription): number {
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	return description.defaultVersion ?? Math.max(...versions);
}

/** Whether an `@version` condition of displayOptions holds for a version: a list of versions or of `{ _cnd: { gte: 1.1 } }`-style conditions. */
function versionMatches(condition: unknown[], version: number): boolean {
	return condition.some((c) => {
		if (typeof c === 'number') return c === version;
		const cnd = (c as { _cnd?: Record<string, number> })?._cnd;
		if (!cnd) return false;
		const [[op, v]] = Object.entries(cnd);
		return (
			(
				{
					eq: version === v,
					not: version !== v,
					gte: version >= v,
					lte: version <= v,
					gt: version > v,
					lt: version < v,
				} as Record<string, boolean>
			)[op] ?? false
		);
	});
}

/** Whether a property shows at the node's current version (older versions' forms are kept for stored workflows only). */
function shownAt(prop: INodeProperties, version: number): boolean {
	const show = prop.displayOptions?.show?.['@version'];
	const hide = prop.displayOptions?.hide?.['@version'];
	return (
		(!show || versionMatches(show as unknown[], version)) &&
		(!hide || !versionMatches(hide as unknown[], version))
	);
}

function places(
	props: INodeProperties[],
	where: string,
	version: number,
	out: Place[] = [],
): Place[] {
	for (const prop of props.filter((p) => shownAt(p, version))) {
		const here = `${where} > ${prop.displayName}`;
		out.push({
			where: here,
			kind: 'property',
			prop,
			displayName: prop.displayName,
			description: prop.description,
			hint: prop.hint,
			placeholder: prop.placeholder,
		});
		for (const mode of prop.modes ?? [])
			out.push({
				where: `${here} (${mode.displayName})`,
				kind: 'mode',
				prop,
				displayName: mode.displayName,
				placeholder: mode.placeholder,
			});
		for (const child of (prop.options ?? []) as Child[]) {
			if ('values' in child && Array.isArray(child.values)) {
				out.push({
					where: `${here} > ${child.displayName}`,
					kind: 'group',
					prop,
					displayName: child.displayName,
				});
				places(child.values, `${here} > ${child.displayName}`, version, out);
			} else if ('type' in child && 'displayName' in child) {
				places([child], here, version, out);
			} else if ('value' in child) {
				const option = child as INodePropertyOptions;
				const show = prop.displayOptions?.show?.resource;
				out.push({
					where: `${here}${show ? ` [${show.join(', ')}]` : ''} = ${option.name}`,
					kind: 'option',
					prop,
					name: option.name,
					action: option.action,
					description: option.description,
					value: option.value,
				});
			}
		}
	}
	return out;
}

/** Each node's form as a new node shows it (its current version). */
const DESCRIBED: Array<[string, Place[]]> = NODES.map((d) => [
	d.displayName,
	places(d.properties, d.displayName, currentVersion(d)),
]);

/** Every text a user reads at a place, with its key. */
function texts(place: Place): Array<[string, string]> {
	const keys = ['displayName', 'description', 'hint', 'placeholder', 'name', 'action'] as const;
	return keys.flatMap((key) =>
		typeof place[key] === 'string' && place[key] !== ''
			? [[key, place[key] as string] as [string, string]]
			: [],
	);
}

/** The texts that describe (not name) something: descriptions, hints, notices, operation descriptions. */
function descriptions(place: Place): string[] {
	const out = [place.description, place.hint].filter(
		(t): t is string => typeof t === 'string' && t !== '',
	);
	if (place.kind === 'property' && place.prop.type === 'notice' && place.displayName)
		out.push(place.displayName);
	return out;
}

const isOperationOption = (place: Place): boolean =>
	place.kind === 'option' && place.prop.name === 'operation';

// ---------------------------------------------------------------- the rules

/** "a", "an", "the" as a word. */
const ARTICLE = /\b(a|an|the)\b/i;

/**
 * The parameter names of a node: the display names of its properties at any depth (collection
 * members and fixed-collection entry members included). Left out: notices (their "name" is a
 * sentence), one-word acronyms ("SKU", "URL": prose says them too) and names under 3 letters.
 */
function parameterNames(seen: Place[]): string[] {
	const names = seen
		.filter((p) => p.kind === 'property' && p.prop.type !== 'notice' && p.displayName)
		.map((p) => p.displayName as string)
		.filter((n) => n.length >= 3 && !/^[A-Z0-9]+$/.test(n));
	return [...new Set(names)].sort((a, b) => b.length - a.length);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text with its quoted parts ('Item ID') blanked; an apostrophe inside a word ("invoice's") opens nothing. */
const unquoted = (text: string): string =>
	text.replace(/(?<![\w'])'[^']+'(?![\w])/g, (m) => ' '.repeat(m.length));

/**
 * The parameter names a text mentions without single quotes. A mention is the display name as
 * written (case-sensitive), as whole words, outside quotes and not inside a longer name (one
 * in title case next to it: "Fetch Test Event" is a button, not the 'Event' parameter); a
 * name that opens the text is its subject, not a reference ("Custom Fields as raw JSON"); a
 * one-word name counts only inside a sentence (at a sentence's start a capital is grammar, not
 * a name: "Description of the item").
 */
function unquotedNames(text: string, names: string[]): string[] {
	let rest = unquoted(text);
	const found: string[] = [];
	for (const name of names) {
		const pattern = new RegExp(`(?<![\\w'-])${escape(name)}(?![\\w'-])`, 'g');
		rest = rest.replace(pattern, (match, offset: number) => {
			const before = rest.slice(0, offset);
			const after = rest.slice(offset + match.length);
			const textStart = before.trim() === '';
			const sentenceStart = /(^|[.!?:;]\s+|\(\s*)$/.test(before);
			const longerName = /[A-Z][\w-]* $/.test(before) || /^ [A-Z][a-z]/.test(after);
			if (!longerName && !textStart && (name.includes(' ') || !sentenceStart)) found.push(name);
			return ' '.repeat(match.length);
		});
	}
	return found;
}

/** n8n's own placeholders of a collection ("Add Field", "Add Filter") and of a list picker ("Select ..."). */
function ownPlaceholder(place: Place, text: string): boolean {
	if (place.kind === 'property' && ['collection', 'fixedCollection'].includes(place.prop.type))
		return /^Add\b/.test(text);
	if (place.kind === 'mode') return /^Select\b/.test(text);
	return false;
}

/** A sort parameter: its name or its label says so. */
const isSort = (prop: INodeProperties): boolean =>
	/(^|_)sort/i.test(prop.name) || /\bSort\b/.test(prop.displayName);

/** Labels in the API's words rather than a user's. */
const LABEL_DEFECTS: Array<[RegExp, string]> = [
	[/[a-z](field|fields|by)\b/, 'glued API words ("Customfield", "Sortbyfield")'],
	[
		/equipmentdye|mortage|pormium|startswith|unitkey/i,
		'an API spelling ("Equipmentdye", "Mortage")',
	],
	[/\(\s*[a-z][a-z0-9_]*\s*\)/, 'an API name in parentheses ("Field (cfid)")'],
	[/^Is [A-Z]/, 'an API flag name ("Is Zia")'],
	[/\bMail\b/, '"Mail" for email ("To Mail IDs")'],
];

/** Sentences of a description: split after ". " (not after "e.g." / "i.e."). */
const sentences = (text: string): string[] =>
	text.replace(/\b(e\.g|i\.e|etc)\./g, '$1').split(/(?<=[.!?])\s+(?=[A-Z0-9'"(])/);

/**
 * Wire-format JSON in a text: "{ id }", "{ add: [...] }", "{ "criteria": ... }"; not an n8n
 * expression ("{{ $json.x }}") nor a placeholder of a path or URL ("{portal_id}", "{api_url}/books/v3").
 */
const WIRE_JSON = /(?<!\{)\{\s+"?[a-z_]+"?\s*[,:}[]/;

// ---------------------------------------------------------------- the tests

test('every node is walked', () => {
	expect(DESCRIBED).toHaveLength(10);
	for (const [node, seen] of DESCRIBED)
		expect({ node, places: seen.length > 5 }).toEqual({ node, places: true });
	expect(DESCRIBED.flatMap(([, seen]) => seen.filter(isOperationOption)).length).toBeGreaterThan(
		70,
	);
});

test.each(DESCRIBED)(
	'%s: actions name what they do without articles ("Create item")',
	(_node, seen) => {
		const bad = seen
			.filter((p) => isOperationOption(p) && typeof p.action === 'string' && ARTICLE.test(p.action))
			.map((p) => `${p.where}: "${p.action}"`);
		expect(bad).toEqual([]);
	},
);

test.each(DESCRIBED)(
	"%s: a parameter named in a description is quoted ('Item ID')",
	(_node, seen) => {
		const names = parameterNames(seen);
		const bad = seen
			.filter((p) => p.kind !== 'option' || isOperationOption(p))
			.flatMap((p) =>
				descriptions(p).flatMap((text) =>
					unquotedNames(text, names).map((name) => `${p.where}: ${name} in "${text}"`),
				),
			);
		expect(bad).toEqual([]);
	},
);

test.each(DESCRIBED)(
	'%s: a placeholder is an example ("e.g. ..."), but for n8n\'s own "Add ..." and "Select ..."',
	(_node, seen) => {
		const bad = seen
			.filter(
				(p) =>
					typeof p.placeholder === 'string' &&
					p.placeholder !== '' &&
					!p.placeholder.startsWith('e.g. ') &&
					!ownPlaceholder(p, p.placeholder),
			)
			.map((p) => `${p.where}: "${p.placeholder}"`);
		expect(bad).toEqual([]);
	},
);

test.each(DESCRIBED)(
	'%s: no sort parameter inside Filters (sorting has its own collection)',
	(_node, seen) => {
		const bad = seen
			.filter((p) => p.kind === 'property' && p.prop.name === 'filters')
			.flatMap((p) =>
				((p.prop.options ?? []) as INodeProperties[])
					.filter((o) => 'name' in o && 'displayName' in o && isSort(o))
					.map((o) => `${p.where} > ${o.displayName}`),
			);
		expect(bad).toEqual([]);
	},
);

test.each(AREAS.map((a): [string, Area] => [a.name, a]))(
	'%s: Simplify keeps at most 10 fields',
	(_node, area) => {
		const bad = area.resources
			.filter((r) => (r.simplify?.length ?? 0) > 10)
			.map((r) => `${r.name}: ${r.simplify?.length} fields (${r.simplify?.join(', ')})`);
		expect(bad).toEqual([]);
	},
);

test.each(DESCRIBED)("%s: labels in users' words, not the API's", (_node, seen) => {
	const bad: string[] = [];
	for (const p of seen) {
		const label =
			p.kind === 'option'
				? p.name
				: p.kind === 'property' && p.prop.type === 'notice'
					? undefined
					: p.displayName;
		if (!label) continue;
		for (const [pattern, why] of LABEL_DEFECTS)
			if (pattern.test(label)) bad.push(`${p.where}: "${label}" has ${why}`);
	}
	expect(bad).toEqual([]);
});

test.each(DESCRIBED)(
	'%s: one word per thing: "email" (not "e-mail"), "trash" (not "bin")',
	(_node, seen) => {
		const bad = seen.flatMap((p) =>
			texts(p)
				.filter(([, text]) => /\be-mail/i.test(text) || /\bbin\b/i.test(text))
				.map(([key, text]) => `${p.where} ${key}: "${text}"`),
		);
		expect(bad).toEqual([]);
	},
);

test.each(DESCRIBED)('%s: a description says more than its label', (_node, seen) => {
	const bad = seen
		.filter((p) => p.kind === 'property' && p.description && p.displayName)
		.filter(
			(p) =>
				(p.description as string).replace(/\.$/, '').trim().toLowerCase() ===
				(p.displayName as string).toLowerCase(),
		)
		.map((p) => `${p.where}: "${p.description}"`);
	expect(bad).toEqual([]);
});

test.each(DESCRIBED)('%s: a description of several sentences ends with a period', (_node, seen) => {
	const bad = seen.flatMap((p) =>
		descriptions(p)
			.filter((text) => sentences(text).length > 1 && !/[.!?]$/.test(text.trim()))
			.map((text) => `${p.where}: "${text}"`),
	);
	expect(bad).toEqual([]);
});

test.each(DESCRIBED)('%s: no wire-format JSON in a text ("sent as { id }")', (_node, seen) => {
	const bad = seen.flatMap((p) =>
		descriptions(p)
			.filter((text) => WIRE_JSON.test(text))
			.map((text) => `${p.where}: "${text}"`),
	);
	expect(bad).toEqual([]);
});

// ---------------------------------------------------------------- the rules themselves

test('the rules catch what they are for and leave prose alone', () => {
	expect(ARTICLE.test('Create an item')).toBe(true);
	expect(ARTICLE.test('Get many estimate templates')).toBe(false);
	expect(ARTICLE.test('Mark item as inactive')).toBe(false);
	const names = ['Comment ID', 'Estimate ID', 'Description', 'Limit', 'Name'];
	expect(
		unquotedNames(
			'Update comment of estimate; needs Estimate ID and Comment ID, usually with Description',
			names,
		),
	).toEqual(['Comment ID', 'Estimate ID', 'Description']);
	expect(
		unquotedNames(
			"Update comment of estimate; needs 'Estimate ID' and 'Comment ID', usually with 'Description'",
			names,
		),
	).toEqual([]);
	expect(unquotedNames("Description of the item. Name of the invoice's customer", names)).toEqual(
		[],
	);
	expect(unquotedNames('If Return All stops early, set a Limit instead', names)).toEqual(['Limit']);
	expect(unquotedNames("the vendor's 'Name' field", names)).toEqual([]);
	expect(unquotedNames('Fetch Test Event shows what a poll costs', ['Event'])).toEqual([]);
	expect(LABEL_DEFECTS.some(([p]) => p.test('Customfield ID'))).toBe(true);
	expect(LABEL_DEFECTS.some(([p]) => p.test('Field (cfid)'))).toBe(true);
	expect(LABEL_DEFECTS.some(([p]) => p.test('Custom Field ID'))).toBe(false);
	expect(LABEL_DEFECTS.some(([p]) => p.test('Line Items (JSON)'))).toBe(false);
	expect(sentences('Due date (yyyy-mm-dd). At most 10 entries')).toHaveLength(2);
	expect(sentences('A date, e.g. 2026-01-31')).toHaveLength(1);
	expect(WIRE_JSON.test('Project owner, sent as { zpuid }')).toBe(true);
	expect(
		WIRE_JSON.test('Update: array holding one object { add: [strings], remove: [strings] }'),
	).toBe(true);
	expect(WIRE_JSON.test('A list from an expression, e.g. {{ $json.line_items }}')).toBe(false);
	expect(
		WIRE_JSON.test('The path below {api_url}/books/v3; {portal_id} is replaced by the Portal'),
	).toBe(false);
	expect(versionMatches([1.1], 1.1)).toBe(true);
	expect(versionMatches([1], 1.1)).toBe(false);
	expect(versionMatches([{ _cnd: { gte: 1.1 } }], 1.1)).toBe(true);
	expect(versionMatches([{ _cnd: { lt: 1.1 } }], 1.1)).toBe(false);
});
