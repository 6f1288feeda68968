/**
 * What a user meets in the editor, over every node and the credential:
 * - the node panel finds each node by the records it holds and the common words for them
 *   (n8n searches a node's display name and its codex `alias` list);
 * - every text speaks to a user: no "the documents" and no names of the project's insides;
 * - articles read right ("an item", "a project");
 * - every docs link (codex, credential) lands on a heading of the README.
 */
import { readFileSync } from '../../host/fs';
import { join } from '../../host/path';
import type { INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import type { Area } from '../../nodes/shared/tables/spec';
import type { TriggerEvent } from '../../nodes/shared/poll/event';
import { NODE_TYPES } from '../../harness/workflows';
import { TRIGGER_TABLES as TRIGGERS } from '../tools/trigger-tables';

const ROOT = join(module.path, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	homepage: string;
};

interface Codex {
	node: string;
	alias?: unknown;
	resources: {
		primaryDocumentation: Array<{ url: string }>;
		credentialDocumentation: Array<{ url: string }>;
	};
}

interface Node {
	className: string;
	description: INodeTypeDescription;
	codex: Codex;
}

/** Every node with its codex file (`nodes/<Class>/<Class>.node.json`, where n8n's loader reads it). */
const NODES: Node[] = NODE_TYPES.map((Type) => {
	const className = Type.name;
	const codex = JSON.parse(
		readFileSync(join(ROOT, 'nodes', className, `${className}.node.json`), 'utf8'),
	) as Codex;
	return { className, description: (new Type() as INodeType).description, codex };
});

const aliasesOf = (node: Node): string[] =>
	Array.isArray(node.codex.alias) ? (node.codex.alias as string[]) : [];

/**
 * The nodes the panel lists for a query. n8n lower-cases the query, drops "trigger" from it
 * and fuzzy-matches it against the display name and each alias; a query that is part of
 * one of them is always matched, so this (stricter) test never claims a match n8n misses.
 */
function search(query: string): string[] {
	const q = query.toLowerCase().replace('trigger', '').trim();
	return NODES.filter((n) =>
		[n.description.displayName, ...aliasesOf(n)].some((text) => text.toLowerCase().includes(q)),
	).map((n) => n.description.displayName);
}

const options = (description: INodeTypeDescription, name: string) =>
	description.properties
		.filter((p) => p.name === name)
		.flatMap((p) => (p.options ?? []) as INodePropertyOptions[]);

/** The areas and event tables behind each trigger, to name the resource each event watches. */
const TRIGGER_TABLES: Record<string, [Area, TriggerEvent[]]> = Object.fromEntries(
	TRIGGERS.map((t) => [t.name, [t.area, t.events]]),
);

/** What each node must be found by: its resources (each part of a name such as "A / B"), and for a trigger its events and the resources they watch. */
function ownWords(node: Node): string[] {
	const { description } = node;
	const resources = options(description, 'resource')
		.filter((o) => o.value !== 'customApiCall')
		.map((o) => o.name);
	const tables = TRIGGER_TABLES[description.name];
	if (tables) {
		const [area, events] = tables;
		resources.push(
			...events.map((e) => e.name),
			...events.map(
				(e) =>
					area.resources.find((r) => r.value === e.resource)?.name ?? `(no resource ${e.resource})`,
			),
		);
	}
	return [...new Set(resources.flatMap((name) => name.split(' / ')))];
}

describe('search keywords (codex alias)', () => {
	test('every node has its codex with a list of distinct, non-empty keywords, loaded by n8n as `alias`', () => {
		expect(NODES).toHaveLength(10);
		for (const node of NODES) {
			expect(node.codex.node).toBe(`${pkg.name}.${node.description.name}`);
			const alias = aliasesOf(node);
			expect({
				node: node.className,
				isList: Array.isArray(node.codex.alias),
				size: alias.length > 0,
			}).toEqual({ node: node.className, isList: true, size: true });
			for (const word of alias)
				expect({
					node: node.className,
					word,
					ok:
						typeof word === 'string' &&
						word.trim() === word &&
						word.length > 1 &&
						word.length <= 40,
				}).toEqual({ node: node.className, word, ok: true });
			const lower = alias.map((a) => a.toLowerCase());
			expect({
				node: node.className,
				duplicates: lower.filter((a, i) => lower.indexOf(a) !== i),
			}).toEqual({ node: node.className, duplicates: [] });
		}
	});

	test('each resource of a node (and each event of a trigger, with the resource it watches) finds that node', () => {
		let checked = 0;
		for (const node of NODES) {
			const words = ownWords(node);
			expect(words.length).toBeGreaterThan(0);
			for (const word of words) {
				expect({
					node: node.description.displayName,
					word,
					found: search(word).includes(node.description.displayName),
				}).toEqual({ node: node.description.displayName, word, found: true });
				checked++;
			}
		}
		expect(checked).toBeGreaterThan(30);
	});

	test.each([
		['estimate', ['Vendor Books', 'Vendor Books Trigger']],
		['quote', ['Vendor Books']],
		['invoice', ['Vendor Books', 'Vendor Books Trigger']],
		['create an invoice', ['Vendor Books']],
		['vendor invoice', ['Vendor Books']],
		['item', ['Vendor Books']],
		['product', ['Vendor Books']],
		['estimate accepted', ['Vendor Books Trigger']],
		['new invoice', ['Vendor Books Trigger']],
		['invoice paid', ['Vendor Books Trigger']],
		['payment', ['Vendor Invoice', 'Vendor Invoice Trigger']],
		['customer payment', ['Vendor Invoice', 'Vendor Invoice Trigger']],
		['refund', ['Vendor Invoice']],
		['payment received', ['Vendor Invoice Trigger']],
		['bill', ['Vendor Inventory', 'Vendor Inventory Trigger']],
		['purchase', ['Vendor Inventory', 'Vendor Inventory Trigger']],
		['new bill', ['Vendor Inventory Trigger']],
		['payments', ['Vendor Invoice', 'Vendor Invoice Trigger']],
		['refunds', ['Vendor Invoice']],
		['purchase bills', ['Vendor Inventory', 'Vendor Inventory Trigger']],
		['bills', ['Vendor Inventory', 'Vendor Inventory Trigger']],
		[
			'project',
			['Vendor Projects', 'Vendor Billing', 'Vendor Projects Trigger', 'Vendor Billing Trigger'],
		],
		['billing project', ['Vendor Billing', 'Vendor Billing Trigger']],
		['comment', ['Vendor Billing']],
		['task', ['Vendor Projects']],
		['portal', ['Vendor Projects']],
		['trash', ['Vendor Projects', 'Vendor Projects Trigger']],
		['bin', ['Vendor Projects', 'Vendor Projects Trigger']],
		['search', ['Vendor Projects']],
	])('"%s" finds %j', (query, expected) => {
		expect(search(query)).toEqual(expect.arrayContaining(expected));
	});
});

// ---------------------------------------------------------------- texts

/** Every text a user reads in a node or the credential: names, descriptions, hints, notices, option names, placeholders, actions, error messages. */
function userTexts(
	where: string,
	value: unknown,
	out: Array<[string, string]> = [],
): Array<[string, string]> {
	if (Array.isArray(value)) {
		for (const v of value) userTexts(where, v, out);
	} else if (value && typeof value === 'object') {
		const object = value as Record<string, unknown>;
		// `name` is shown for an option (it has a `value`) and for a node's defaults; a property's `name` is its internal key
		const shown = [
			'displayName',
			'description',
			'hint',
			'placeholder',
			'action',
			'subtitle',
			'errorMessage',
			...('value' in object && !('type' in object) ? ['name'] : []),
		];
		for (const [key, v] of Object.entries(object)) {
			if (typeof v === 'string' && shown.includes(key))
				out.push([`${where} ${String(object.name ?? '')}.${key}`, v]);
			else if (key === 'defaults' && v && typeof v === 'object')
				out.push([`${where} defaults.name`, String((v as { name?: string }).name)]);
			else if (typeof v === 'object') userTexts(where, v, out);
		}
	}
	return out;
}

const TEXTS: Array<[string, string]> = [
	...NODES.flatMap((n) => userTexts(n.description.name, n.description)),
	...userTexts('vendorOAuth2Api', {
		displayName: new VendorOAuth2Api().displayName,
		properties: new VendorOAuth2Api().properties,
	}),
	...NODES.flatMap((n) => aliasesOf(n).map((a): [string, string] => [`${n.className} alias`, a])),
];

test('the texts are many and include the inferred marks, the placeholders and the credential', () => {
	expect(TEXTS.length).toBeGreaterThan(1500);
	expect(TEXTS.some(([, t]) => t.startsWith("If 'Return All' stops early"))).toBe(true);
	expect(TEXTS.some(([, t]) => t.startsWith('Select an item'))).toBe(true);
	expect(TEXTS.some(([where]) => where.startsWith('vendorOAuth2Api '))).toBe(true);
});

test('no text a user reads says "the documents" or names the project\'s insides (field tables, source files, internal document numbers)', () => {
	const internal =
		/\bthe documents?\b|\bdocument \d|\bfield tables?\b|\bspec\/|\.ts\b|nodes\/|\bREADME\b|\bemulator\b/i;
	const found = TEXTS.filter(([, text]) => internal.test(text));
	expect(found).toEqual([]);
});

/**
 * Whether a word is said starting with a vowel sound: by its letters, with the usual
 * exceptions ("a user", "a one-off", "an hour"); an acronym by the name of its first letter
 * ("an ID", "an HTML page", "a URL", "a PDF").
 */
function vowelSound(word: string): boolean {
	if (/^[A-Z][A-Z0-9]+\b/.test(word)) return /^[AEFHILMNORSX]/.test(word) && !/^(U|EU)/.test(word);
	const w = word.toLowerCase();
	if (/^(hour|honest|honou?r|heir)/.test(w)) return true;
	if (/^(one|once|uni|use|usu|uti|eu)/.test(w)) return false;
	return /^[aeiou]/.test(w);
}

test('"an" before a vowel sound and "a" before a consonant sound, in every text ("Select an item...")', () => {
	const wrong: string[] = [];
	let articles = 0;
	for (const [where, text] of TEXTS) {
		for (const m of text.matchAll(/(?:^|[^\w'])(a|an|A|An) ([A-Za-z][\w-]*)/g)) {
			articles++;
			const [, article, word] = m;
			if ((article.toLowerCase() === 'an') !== vowelSound(word))
				wrong.push(`${where}: "${article} ${word}" in "${text}"`);
		}
	}
	expect(articles).toBeGreaterThan(200);
	expect(wrong).toEqual([]);
});

// ---------------------------------------------------------------- docs links

/** GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to "-"; repeats get -1, -2, ... */
function readmeAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = !fenced && /^#{1,6} (.+?)\s*#*$/.exec(line);
		if (!heading) continue;
		const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
		const slug = text
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/ /g, '-');
		const n = seen.get(slug) ?? 0;
		seen.set(slug, n + 1);
		anchors.add(n === 0 ? slug : `${slug}-${n}`);
	}
	return anchors;
}

test("the anchor rule is GitHub's", () => {
	expect([
		...readmeAnchors(
			"# A b\n## Not covered / assumptions\n### Vendor Projects: sort, filters\n## Lint and n8n's package checks\n```\n# not a heading\n```\n## A b",
		),
	]).toEqual([
		'a-b',
		'not-covered--assumptions',
		'vendor-projects-sort-filters',
		'lint-and-n8ns-package-checks',
		'a-b-1',
	]);
});

test('every docs link of the nodes (codex) and the credential lands on a heading of the README', () => {
	const anchors = readmeAnchors(README);
	const links = [
		...NODES.flatMap((n) =>
			[...n.codex.resources.primaryDocumentation, ...n.codex.resources.credentialDocumentation].map(
				(d): [string, string] => [n.className, d.url],
			),
		),
		['VendorOAuth2Api', new VendorOAuth2Api().documentationUrl] as [string, string],
	];
	expect(links.length).toBe(21);
	for (const [owner, url] of links) {
		const [page, anchor] = url.split('#');
		expect({ owner, url, page, anchor: anchors.has(anchor ?? '') }).toEqual({
			owner,
			url,
			page: pkg.homepage,
			anchor: true,
		});
	}
});
