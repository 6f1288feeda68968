/**
 * n8n's lint on the descriptions as n8n sees them, run by `npm run lint` (through
 * scripts/cloud-check.mjs).
 *
 * Every node's `description` (and the credential's fields) is built by a function from the
 * field tables, so n8n's rules, which read a literal `description = { ... }` in a class, find
 * nothing to check in the sources. This script loads the TypeScript sources (transpiled in
 * memory: no build needed, nothing written into dist/ or build/), writes each node and the
 * credential as a literal class into a scratch folder outside the repository (the node's
 * icons beside it, so a missing icon is a missing file there too), and runs on it:
 *   - @n8n/eslint-plugin-community-nodes' `recommended` rules (what `n8n-node lint` and n8n's
 *     package scanner run),
 *   - eslint-plugin-n8n-nodes-base's `nodes` and `credentials` rule sets (all of them, as the
 *     project's eslint.legacy.config.mjs does).
 * The package's deliberate departures from these rules are named in
 * scripts/literal-lint.exceptions.mjs, each with its reason; any other finding fails.
 *
 * Usage: node scripts/literal-lint.mjs [--root <package folder>] [--keep] [--all]
 *   --root: lint another copy of the package (the canary test uses a copy with faults);
 *   --keep: leave the scratch folder and print its path;
 *   --all: also print the findings the exceptions cover, counted by rule.
 * Exit 1 with the findings, 0 when none is left.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { EXCEPTIONS } from './literal-lint.exceptions.mjs';
import { sourceOf, sourceRequire } from './ts-sources.mjs';

// eslint-plugin-n8n-nodes-base reads every file name as "Test.node.ts" when NODE_ENV is "test"
// (its own tests), which a run under jest would inherit: the plugins load after this.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
const { ESLint } = await import('eslint');
const { default: tsParser } = await import('@typescript-eslint/parser');
const { default: n8nNodesBase } = await import('eslint-plugin-n8n-nodes-base');
const { n8nCommunityNodesPlugin } = await import('@n8n/eslint-plugin-community-nodes');

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(option('--root') ?? path.join(here, '..'));

// --- loading the TypeScript sources -----------------------------------------------------
const ts = createRequire(path.join(here, '..', 'package.json'))('typescript');
const requireFromRoot = sourceRequire(root);

// --- writing a value as a TypeScript literal ----------------------------------------------
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function literal(value, indent, key) {
	const pad = '\t'.repeat(indent + 1);
	const end = '\t'.repeat(indent);
	if (value === undefined) return 'undefined';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		// The sources use n8n's constant for the main connection (the rule node-connection-type-literal); the value is the same.
		if (value === 'main' && (key === 'inputs' || key === 'outputs'))
			return 'NodeConnectionTypes.Main';
		return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
	}
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value === 'function') return 'undefined as never';
	if (Array.isArray(value)) {
		if (!value.length) return '[]';
		return `[\n${value.map((v) => `${pad}${literal(v, indent + 1, key)},`).join('\n')}\n${end}]`;
	}
	const entries = Object.entries(value).filter(
		([, v]) => v !== undefined && typeof v !== 'function',
	);
	if (!entries.length) return '{}';
	return `{\n${entries.map(([k, v]) => `${pad}${IDENTIFIER.test(k) ? k : `'${k}'`}: ${literal(v, indent + 1, k)},`).join('\n')}\n${end}}`;
}

// --- the package's nodes and credentials, as literal classes --------------------------------
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-vendor-literal-'));

function copyIcons(fromDir, toDir) {
	for (const file of fs.readdirSync(fromDir)) {
		if (/\.(svg|png)$/.test(file))
			fs.copyFileSync(path.join(fromDir, file), path.join(toDir, file));
	}
}

function writeClass(relative, text) {
	const target = path.join(scratch, relative);
	fs.mkdirSync(path.dirname(target), { recursive: true });
	fs.writeFileSync(target, text);
	copyIcons(path.join(root, path.dirname(relative)), path.dirname(target));
}

/** Each node's source file and description, for the checks of its codex file. */
const described = [];

const className = (file) => path.basename(file).replace(/\..*$/, '');

for (const distPath of pkg.n8n?.nodes ?? []) {
	const relative = sourceOf(distPath);
	const exported = requireFromRoot(path.join(root, relative));
	const name = className(relative);
	const node = new exported[name]();
	described.push({ relative, description: node.description });
	const methods = node.methods?.listSearch
		? `\n\n\tmethods = {\n\t\tlistSearch: {\n${Object.keys(node.methods.listSearch)
				.map(
					(m) =>
						`\t\t\tasync ${m}(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {\n\t\t\t\treturn { results: [{ name: this.getNode().name, value: '' }] };\n\t\t\t},`,
				)
				.join('\n')}\n\t\t},\n\t};`
		: '';
	const run = node.poll
		? `\n\n\tasync poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {\n\t\treturn [this.helpers.returnJsonArray([])];\n\t}`
		: `\n\n\tasync execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {\n\t\treturn [this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } }))];\n\t}`;
	writeClass(
		relative,
		`// Generated by scripts/literal-lint.mjs from ${relative}: the description as n8n reads it.\n` +
			`import { NodeConnectionTypes } from 'n8n-workflow';\n` +
			`import type { IExecuteFunctions, ILoadOptionsFunctions, INodeExecutionData, INodeListSearchResult, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';\n\n` +
			`export class ${name} implements INodeType {\n\tdescription: INodeTypeDescription = ${literal(node.description, 1)};${methods}${run}\n}\n`,
	);
}

for (const distPath of pkg.n8n?.credentials ?? []) {
	const relative = sourceOf(distPath);
	const exported = requireFromRoot(path.join(root, relative));
	const name = className(relative);
	const credential = new exported[name]();
	const fields = Object.entries(credential)
		.filter(([, v]) => typeof v !== 'function')
		.map(
			([k, v]) =>
				`\t${k}${k === 'icon' ? ': Icon' : k === 'properties' ? ': INodeProperties[]' : ''} = ${literal(v, 1, k)};`,
		)
		.join('\n\n');
	writeClass(
		relative,
		`// Generated by scripts/literal-lint.mjs from ${relative}: the credential as n8n reads it.\n` +
			`import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';\n\n` +
			`export class ${name} implements ICredentialType {\n${fields}\n}\n`,
	);
}
fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify(pkg, null, 2));

// --- n8n's newer review rules, written here until the registry has them ----------------------
// @n8n/eslint-plugin-community-nodes 0.32.0 (the newest the registry offers) lacks rules that n8n
// now documents (packages/@n8n/eslint-plugin-community-nodes/docs/rules/ in n8n's repository) and
// applies in its reviews. Each is written again below from its documentation, under n8n's own rule
// id, and registered only while the installed plugin lacks a rule of that name: a newer plugin's
// rule replaces ours with no change here, and the exceptions keep naming the same ids.
// Not here: require-continue-on-fail and node-operation-error-itemindex read the execute() of a
// literal class, which the generated classes only stand in for (test/repo/review-execute.test.ts
// checks the node's real item loop), and prefer-declarative-style, which exempts what every
// execute() of the package does (pages, files, more than one request per item).

/** A literal (the generated classes hold nothing else) as its value; `nodeOf` gives an object's or array's syntax node back. */
function evaluate(root) {
	const nodes = new WeakMap();
	const value = (node) => {
		switch (node?.type) {
			case 'Literal':
				return node.value;
			case 'TemplateLiteral':
				return node.quasis.map((q) => q.value.cooked).join('');
			case 'UnaryExpression':
				return node.operator === '-' ? -value(node.argument) : undefined;
			case 'MemberExpression':
				// NodeConnectionTypes.Main
				return node.object.name === 'NodeConnectionTypes' && node.property.name === 'Main'
					? 'main'
					: undefined;
			case 'ArrayExpression': {
				const array = node.elements.map(value);
				nodes.set(array, node);
				return array;
			}
			case 'ObjectExpression': {
				const object = {};
				for (const p of node.properties) {
					if (p.type !== 'Property' || p.computed) continue;
					object[p.key.type === 'Identifier' ? p.key.name : String(p.key.value)] = value(p.value);
				}
				nodes.set(object, node);
				return object;
			}
			default:
				return undefined;
		}
	};
	return {
		value: value(root),
		nodeOf: (v) => (v && typeof v === 'object' ? nodes.get(v) : undefined),
	};
}

const isObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Every object inside `value`, itself included. */
function* objectsIn(value) {
	if (Array.isArray(value)) for (const v of value) yield* objectsIn(v);
	else if (isObject(value)) {
		yield value;
		for (const v of Object.values(value)) yield* objectsIn(v);
	}
}

const implementsName = (cls, name) =>
	(cls.implements ?? []).some((i) => i.expression?.name === name);
const classField = (cls, name) =>
	cls.body.body.find((m) => m.type === 'PropertyDefinition' && !m.computed && m.key.name === name);

/** A rule over the description of each INodeType class of a `.node.ts` file: `check(description, report, { cls, filename })`. */
function descriptionRule(check) {
	return {
		meta: { type: 'problem', schema: [] },
		create(context) {
			if (!context.filename.endsWith('.node.ts')) return {};
			return {
				ClassDeclaration(cls) {
					if (!implementsName(cls, 'INodeType')) return;
					const field = classField(cls, 'description');
					if (field?.value?.type !== 'ObjectExpression') return;
					const { value, nodeOf } = evaluate(field.value);
					check(value, (at, message) => context.report({ node: nodeOf(at) ?? field, message }), {
						cls,
						filename: context.filename,
					});
				},
			};
		},
	};
}

/** A rule over each ICredentialType class of a `.credentials.ts` file: `check(cls, report, filename)`. */
function credentialRule(check) {
	return {
		meta: { type: 'problem', schema: [] },
		create(context) {
			if (!context.filename.endsWith('.credentials.ts')) return {};
			return {
				ClassDeclaration(cls) {
					if (implementsName(cls, 'ICredentialType'))
						check(cls, (node, message) => context.report({ node, message }), context.filename);
				},
			};
		},
	};
}

/** n8n's known codex categories and subcategories (its plugin's codex taxonomy, mirrored from the node panel). */
const CODEX_CATEGORIES = new Set([
	'AI',
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Developer Tools',
	'Development',
	'ECM',
	'Finance & Accounting',
	'HITL',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
]);
const CODEX_SUBCATEGORIES = new Set([
	'Data Transformation',
	'Files',
	'Flow',
	'Helpers',
	'Other Trigger Nodes',
	'Human in the Loop',
	'Agents',
	'Chains',
	'Document Loaders',
	'Embeddings',
	'Language Models',
	'Memory',
	'Miscellaneous',
	'Model Context Protocol',
	'Output Parsers',
	'Rerankers',
	'Retrievers',
	'Root Nodes',
	'Text Splitters',
	'Tools',
	'Vector Stores',
]);
/** The categories a community node may declare (docs.n8n.io, "Node categories"), and the AI subcategories. */
const COMMUNITY_CATEGORIES = new Set([
	'Data & Storage',
	'Finance & Accounting',
	'Marketing & Content',
	'Productivity',
	'Miscellaneous',
	'Sales',
	'Development',
	'Analytics',
	'Communication',
	'Utility',
	'AI',
]);
const AI_SUBCATEGORIES = new Set([
	'Agents',
	'Chains',
	'Language Models',
	'Memory',
	'Output Parsers',
	'Tools',
	'Vector Stores',
	'Retrievers',
	'Embeddings',
	'Document Loaders',
	'Text Splitters',
	'Other Tools',
	'Root Nodes',
	'Model Context Protocol',
	'Human in the Loop',
	'Miscellaneous',
	'Rerankers',
	'Evaluation',
]);

/**
 * What n8n's codex rules find in one codex (inline, or a .node.json file): `[rule, message, value]`.
 * `outputsMain`: the node outputs main data; `aiSdk`: its node file imports @n8n/ai-node-sdk.
 */
function codexProblems(codex, { outputsMain = false, aiSdk = false } = {}) {
	const problems = [];
	const add = (rule, message, value) => problems.push([rule, message, value]);
	const categories = codex.categories;
	const subcategories = codex.subcategories;
	const strings = (list) => (Array.isArray(list) ? list.filter((c) => typeof c === 'string') : []);
	// valid-codex-categories: every value from the known taxonomy, subcategories a map
	for (const c of strings(categories))
		if (!CODEX_CATEGORIES.has(c))
			add(
				'valid-codex-categories',
				`Codex category "${c}" is not part of n8n's known category taxonomy`,
				c,
			);
	if (Array.isArray(subcategories))
		add(
			'valid-codex-categories',
			'`subcategories` must map category names to arrays of subcategories, not be a plain array',
			subcategories,
		);
	else if (isObject(subcategories)) {
		for (const [key, list] of Object.entries(subcategories)) {
			if (!CODEX_CATEGORIES.has(key))
				add(
					'valid-codex-categories',
					`"${key}" is not a recognized category, so it cannot key \`subcategories\``,
					key,
				);
			for (const s of strings(list))
				if (!CODEX_SUBCATEGORIES.has(s))
					add(
						'valid-codex-categories',
						`Codex subcategory "${s}" is not part of n8n's known subcategory taxonomy`,
						s,
					);
		}
		if (
			strings(categories).includes('AI') &&
			outputsMain &&
			!strings(subcategories.AI).includes('Root Nodes')
		) {
			add(
				'valid-codex-categories',
				'A node with the "AI" category that outputs main data needs "Root Nodes" in subcategories.AI, or the node panel hides it from search',
				'AI',
			);
		}
	}
	// valid-node-categories: a non-empty list of community categories; AI only with its subcategories
	if (categories !== undefined) {
		if (!Array.isArray(categories) || !categories.length)
			add(
				'valid-node-categories',
				'"categories" must be a non-empty array of community node categories',
				categories,
			);
		else {
			for (const c of categories) {
				if (typeof c !== 'string')
					add(
						'valid-node-categories',
						'Each category must be a string from the community node category list',
						c,
					);
				else if (c === 'Marketing')
					add(
						'valid-node-categories',
						'"Marketing" is not a supported category. Use "Marketing & Content"',
						c,
					);
				else if (!COMMUNITY_CATEGORIES.has(c))
					add('valid-node-categories', `"${c}" is not a supported community node category`, c);
			}
		}
	}
	const hasAi = strings(categories).includes('AI');
	if (subcategories !== undefined) {
		const ai = isObject(subcategories) ? subcategories.AI : undefined;
		if (!isObject(subcategories) || (!hasAi && ai === undefined))
			add(
				'valid-node-categories',
				'subcategories must be an object with an AI category',
				subcategories,
			);
		else if (ai !== undefined && !hasAi)
			add('valid-node-categories', 'subcategories.AI requires "AI" in categories', ai);
		else if (ai !== undefined) {
			if (!Array.isArray(ai) || !ai.length)
				add(
					'valid-node-categories',
					'The "AI" category requires a non-empty subcategories.AI array',
					ai,
				);
			else
				for (const s of ai)
					if (typeof s !== 'string' || !AI_SUBCATEGORIES.has(s))
						add('valid-node-categories', `"${String(s)}" is not a supported AI subcategory`, s);
		}
	}
	if (hasAi && !isObject(subcategories))
		add(
			'valid-node-categories',
			'The "AI" category requires a non-empty subcategories.AI array',
			'AI',
		);
	// no-ai-codex-category / no-codex-subcategories: reserved for nodes built on the AI Node SDK
	if (!aiSdk && hasAi)
		add(
			'no-ai-codex-category',
			'The "AI" codex category is reserved for nodes that import @n8n/ai-node-sdk',
			'AI',
		);
	if (!aiSdk && subcategories !== undefined)
		add(
			'no-codex-subcategories',
			'`codex.subcategories` is for nodes that import @n8n/ai-node-sdk only',
			subcategories,
		);
	// no-logic-or-flow-nodes
	const subValues = isObject(subcategories)
		? Object.values(subcategories).flatMap(strings)
		: strings(subcategories);
	for (const v of [...strings(categories), ...subValues])
		if (v === 'Logic' || v === 'Flow')
			add('no-logic-or-flow-nodes', `Community nodes may not be "${v}" nodes`, v);
	return problems;
}

/** The non-input types, the containers and the selectors non-required-fields-in-collection leaves at the top. */
const CONTAINER_TYPES = new Set(['collection', 'fixedCollection']);
const NON_INPUT_TYPES = new Set(['notice', 'callout', 'hidden', 'curlImport']);
const SELECTORS = new Set(['resource', 'operation', 'authentication']);
/** The longest hint n8n's review accepts (the 95th percentile of first-party hints). */
const MAX_HINT_LENGTH = 120;
/** n8n's own node colour, reserved for built-in nodes. */
const CORE_COLOR = '#ff6d5a';
/** Names of partner and account identifiers that must come from a parameter or credential. */
const CONFIGURABLE_ID =
	/^(?:partner|affiliate|reseller|account|tenant|customer|client)(?:[_-]?id)$/i;

const isParameter = (o) =>
	typeof o.displayName === 'string' && typeof o.name === 'string' && typeof o.type === 'string';
const byLabel = (a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' });

/** The WCAG relative luminance of a #rgb / #rrggbb colour (or black / white), null for anything else. */
function luminance(color) {
	const named = { black: '#000000', white: '#ffffff', currentcolor: '#000000' };
	let hex = named[color.toLowerCase()] ?? color.toLowerCase();
	if (/^#[0-9a-f]{3}$/.test(hex)) hex = `#${[...hex.slice(1)].map((c) => c + c).join('')}`;
	if (!/^#[0-9a-f]{6}$/.test(hex)) return null;
	const [r, g, b] = [1, 3, 5]
		.map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
		.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** The best contrast of an SVG's fill, stroke and stop colours on a background (no paint declared: black), null when no colour is readable. */
function iconContrast(svg, background) {
	const paints = [
		...svg.matchAll(/(?:fill|stroke|stop-color)\s*[:=]\s*["']?\s*(#[0-9a-fA-F]{3,6}\b|[a-zA-Z]+)/g),
	]
		.map((m) => m[1])
		.filter((c) => !['none', 'transparent', 'url'].includes(c.toLowerCase()));
	const lums = (paints.length ? paints : ['black']).map(luminance).filter((l) => l !== null);
	if (!lums.length) return null;
	const bg = luminance(background);
	return Math.max(...lums.map((l) => contrast(l, bg)));
}
const ICON_BACKGROUNDS = { light: '#ffffff', dark: '#2b2b2b' };
const MIN_ICON_CONTRAST = 1.5;

/** icon-contrast on one class's icon (`file:` paths, beside the class file). */
function checkIconContrast(icon, filename, report) {
	const files = typeof icon === 'string' ? { light: icon, dark: icon } : isObject(icon) ? icon : {};
	for (const [theme, ref] of Object.entries(files)) {
		if (typeof ref !== 'string' || !ref.startsWith('file:') || !ref.endsWith('.svg')) continue;
		const file = path.join(path.dirname(filename), ref.slice(5));
		if (!fs.existsSync(file)) continue;
		const ratio = iconContrast(fs.readFileSync(file, 'utf8'), ICON_BACKGROUNDS[theme]);
		if (ratio !== null && ratio < MIN_ICON_CONTRAST)
			report(
				`Icon "${ref.slice(5)}" has a contrast of ${ratio.toFixed(2)}:1 on the ${theme} background, under ${MIN_ICON_CONTRAST}:1`,
			);
	}
}

/** no-hardcoded-ids, on any file: a string literal given to a partner or account ID name. */
const noHardcodedIds = {
	meta: { type: 'problem', schema: [] },
	create(context) {
		const check = (name, value) => {
			if (
				name &&
				value &&
				CONFIGURABLE_ID.test(name) &&
				value.type === 'Literal' &&
				typeof value.value === 'string'
			) {
				context.report({
					node: value,
					message: `Hardcoded \`${name}\`. Read this ID from a node parameter or credential so users can configure it.`,
				});
			}
		};
		const keyName = (key) =>
			key?.type === 'Identifier' ? key.name : key?.type === 'Literal' ? String(key.value) : null;
		return {
			VariableDeclarator: (n) => n.id.type === 'Identifier' && check(n.id.name, n.init),
			PropertyDefinition: (n) => !n.computed && check(keyName(n.key), n.value),
			Property: (n) => !n.computed && check(keyName(n.key), n.value),
			AssignmentExpression: (n) =>
				check(
					n.left.type === 'Identifier'
						? n.left.name
						: n.left.type === 'MemberExpression'
							? n.left.computed
								? n.left.property.type === 'Literal'
									? String(n.left.property.value)
									: null
								: n.left.property.name
							: null,
					n.right,
				),
		};
	},
};

const HAND_WRITTEN_RULES = {
	'options-sorted-alphabetically': descriptionRule((d, report) => {
		for (const p of d.properties ?? []) {
			if (!isObject(p) || p.type !== 'options' || !Array.isArray(p.options)) continue;
			const names = p.options.map((o) => o?.name);
			if (names.length <= 1 || names.some((n) => typeof n !== 'string')) continue;
			const sorted = [...names].sort(byLabel);
			if (names.some((n, i) => n !== sorted[i]))
				report(
					p.options,
					`Options in "${p.displayName}" are not sorted alphabetically. Expected order: ${sorted.join(', ')}.`,
				);
		}
	}),
	'open-ended-node-fields': descriptionRule((d, report) => {
		for (const p of d.properties ?? []) {
			if (isObject(p) && p.type === 'json' && p.required !== true)
				report(
					p,
					`Optional JSON field "${p.name}" can hide configuration. Use typed parameters under Additional Options or Additional Fields instead.`,
				);
		}
	}),
	'hint-max-length': descriptionRule((d, report) => {
		for (const o of objectsIn(d)) {
			if (typeof o.hint === 'string' && o.hint.length > MAX_HINT_LENGTH)
				report(
					o,
					`The "hint" of "${o.name ?? o.displayName}" is ${o.hint.length} characters long, over the limit of ${MAX_HINT_LENGTH}.`,
				);
		}
	}),
	'require-param-default': descriptionRule((d, report) => {
		for (const o of objectsIn(d.properties ?? [])) {
			if (isParameter(o) && !('default' in o))
				report(o, `Node parameter '${o.name}' is missing a \`default\` value.`);
		}
	}),
	'non-required-fields-in-collection': descriptionRule((d, report) => {
		for (const p of d.properties ?? []) {
			if (
				!isObject(p) ||
				typeof p.name !== 'string' ||
				SELECTORS.has(p.name) ||
				CONTAINER_TYPES.has(p.type) ||
				NON_INPUT_TYPES.has(p.type)
			)
				continue;
			if (p.required !== true)
				report(
					p,
					`"${p.name}" is not required. Move it into an "Additional Options" or "Additional Fields" collection.`,
				);
		}
	}),
	'no-duplicate-param-options': descriptionRule((d, report) => {
		for (const o of objectsIn(d.properties ?? [])) {
			if ((o.type !== 'options' && o.type !== 'multiOptions') || !Array.isArray(o.options))
				continue;
			for (const key of ['name', 'value']) {
				const seen = o.options
					.map((x) => (isObject(x) ? JSON.stringify(x[key]) : undefined))
					.filter((x) => x !== undefined);
				const twice = seen.filter((x, i) => seen.indexOf(x) !== i);
				if (twice.length)
					report(o.options, `"${o.displayName}" has the option ${key} ${twice[0]} more than once.`);
			}
		}
	}),
	'no-asterisk-in-option-names': descriptionRule((d, report) => {
		for (const o of objectsIn(d.properties ?? [])) {
			for (const x of Array.isArray(o.options) ? o.options : []) {
				if (isObject(x) && typeof x.name === 'string' && x.name.includes('*'))
					report(x, `Option name "${x.name}" contains "*": write it in words or as [All].`);
			}
		}
	}),
	'valid-codex-categories': descriptionRule((d, report) => {
		const outputsMain = Array.isArray(d.outputs) && d.outputs.includes('main');
		if (isObject(d.codex))
			for (const [rule, message] of codexProblems(d.codex, { outputsMain }))
				if (rule === 'valid-codex-categories') report(d.codex, message);
	}),
	'valid-node-categories': descriptionRule((d, report) => {
		if (isObject(d.codex))
			for (const [rule, message] of codexProblems(d.codex))
				if (rule === 'valid-node-categories') report(d.codex, message);
	}),
	'no-ai-codex-category': descriptionRule((d, report) => {
		if (isObject(d.codex))
			for (const [rule, message] of codexProblems(d.codex))
				if (rule === 'no-ai-codex-category') report(d.codex, message);
	}),
	'no-codex-subcategories': descriptionRule((d, report) => {
		if (isObject(d.codex))
			for (const [rule, message] of codexProblems(d.codex))
				if (rule === 'no-codex-subcategories') report(d.codex, message);
	}),
	'no-logic-or-flow-nodes': descriptionRule((d, report) => {
		if (isObject(d.codex))
			for (const [rule, message] of codexProblems(d.codex))
				if (rule === 'no-logic-or-flow-nodes') report(d.codex, message);
	}),
	'node-class-description-name-camelcase': descriptionRule((d, report) => {
		if (typeof d.name === 'string' && !/^[a-z][a-zA-Z0-9]*$/.test(d.name))
			report(d, `Node name "${d.name}" must be camelCase.`);
	}),
	'node-class-description-non-core-color': descriptionRule((d, report) => {
		for (const color of [d.color, d.defaults?.color])
			if (typeof color === 'string' && color.toLowerCase() === CORE_COLOR)
				report(d, `${color} is n8n's core node colour, reserved for built-in nodes.`);
	}),
	'node-filename-against-convention': descriptionRule((d, report, { filename }) => {
		if (typeof d.name !== 'string' || !d.name) return;
		const expected = d.name[0].toUpperCase() + d.name.slice(1);
		const base = path.basename(filename, '.node.ts');
		if (base !== expected && !new RegExp(`^${expected}V\\d+$`).test(base))
			report(
				d,
				`The file of node "${d.name}" must be named ${expected}.node.ts, not ${base}.node.ts.`,
			);
	}),
	'single-credential-per-node': descriptionRule((d, report) => {
		const credentials = Array.isArray(d.credentials) ? d.credentials.filter(isObject) : [];
		if (credentials.length <= 1) return;
		// one at a time: every credential shown for values of one property that no other credential shares
		const shows = credentials.map((c) =>
			isObject(c.displayOptions?.show) ? c.displayOptions.show : {},
		);
		const exclusive = Object.keys(shows[0]).some((key) => {
			const sets = shows.map((s) =>
				Array.isArray(s[key]) ? s[key].map((v) => JSON.stringify(v)) : null,
			);
			return (
				sets.every(Boolean) &&
				sets.every((set, i) =>
					sets.every((other, j) => i === j || !set.some((v) => other.includes(v))),
				)
			);
		});
		if (!exclusive)
			report(
				d.credentials,
				'The node can use several credentials at once: show each for values of one property that no other credential is shown for.',
			);
	}),
	'cred-class-name-suffix': credentialRule((cls, report) => {
		if (cls.id && !cls.id.name.endsWith('Api'))
			report(cls.id, `Credential class "${cls.id.name}" must end with "Api".`);
	}),
	'cred-class-name-field-conventions': credentialRule((cls, report) => {
		const field = classField(cls, 'name');
		const name = field?.value?.type === 'Literal' ? field.value.value : null;
		if (typeof name !== 'string') return;
		if (!name.endsWith('Api'))
			report(field.value, `Credential name "${name}" must end with "Api".`);
		if (!/^[a-z]/.test(name))
			report(field.value, `Credential name "${name}" must start with a lowercase letter.`);
	}),
	'cred-filename-against-convention': credentialRule((cls, report, filename) => {
		const base = path.basename(filename, '.credentials.ts');
		if (cls.id && cls.id.name !== base)
			report(
				cls.id,
				`The file of credential class "${cls.id.name}" must be named ${cls.id.name}.credentials.ts, not ${base}.credentials.ts.`,
			);
	}),
	'no-hardcoded-ids': noHardcodedIds,
	// the icons of node and credential classes, each on its theme's background
	'icon-contrast': {
		meta: { type: 'problem', schema: [] },
		create(context) {
			return {
				ClassDeclaration(cls) {
					const node = implementsName(cls, 'INodeType');
					if (!node && !implementsName(cls, 'ICredentialType')) return;
					const field = classField(cls, node ? 'description' : 'icon');
					if (!field?.value) return;
					const value = evaluate(field.value).value;
					checkIconContrast(node ? value?.icon : value, context.filename, (message) =>
						context.report({ node: field, message }),
					);
				},
			};
		},
	},
};

// --- n8n's rules ------------------------------------------------------------------------------
// The installed plugin's rules, and ours for the rules it lacks (see HAND_WRITTEN_RULES).
const handWritten = Object.keys(HAND_WRITTEN_RULES).filter(
	(name) => !(name in n8nCommunityNodesPlugin.rules),
);
const communityNodes = {
	...n8nCommunityNodesPlugin,
	rules: {
		...n8nCommunityNodesPlugin.rules,
		...Object.fromEntries(handWritten.map((name) => [name, HAND_WRITTEN_RULES[name]])),
	},
};

const config = [
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		plugins: { '@n8n/community-nodes': communityNodes },
		rules: {
			...n8nCommunityNodesPlugin.configs.recommended.rules,
			...Object.fromEntries(handWritten.map((name) => [`@n8n/community-nodes/${name}`, 'error'])),
		},
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.nodes.rules,
	},
];

const eslint = new ESLint({
	cwd: scratch,
	overrideConfigFile: true,
	overrideConfig: config,
	errorOnUnmatchedPattern: false,
});
const results = await eslint.lintFiles(['nodes/**/*.ts', 'credentials/**/*.ts']);

// --- the findings, less the named departures ------------------------------------------------
const findings = [];
const excused = new Map();
for (const result of results) {
	const lines = fs.readFileSync(result.filePath, 'utf8').split('\n');
	for (const message of result.messages) {
		const rule = message.ruleId ?? '(parse)';
		const finding = {
			file: path.relative(scratch, result.filePath),
			line: message.line,
			rule,
			message: message.message,
			text: lines[message.line - 1]?.trim() ?? '',
			lines,
		};
		consider(finding);
	}
}

/** A finding, unless a named departure covers it. */
function consider(finding) {
	const exception = EXCEPTIONS.find(
		(e) => e.rule === finding.rule && (!e.applies || e.applies(finding)),
	);
	if (exception) excused.set(finding.rule, (excused.get(finding.rule) ?? 0) + 1);
	else findings.push(finding);
}

/** The line of `file` (in `root`) where `needle` first appears, for a finding outside the generated classes. */
function lineOf(file, needle) {
	const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
	const index =
		needle === undefined
			? -1
			: lines.findIndex((l) =>
					l.includes(typeof needle === 'string' ? needle : JSON.stringify(needle)),
				);
	return { line: index + 1 || 1, text: lines[Math.max(index, 0)].trim(), lines };
}

// no-hardcoded-ids on the package's own sources too: the node classes are built in nodes/shared/, so
// n8n's rule, which reads .node.ts files only, would see none of the request code there.
const sourceLint = new ESLint({
	cwd: root,
	overrideConfigFile: true,
	overrideConfig: [
		{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
		{
			files: ['**/*.ts'],
			languageOptions: { parser: tsParser, sourceType: 'module' },
			plugins: {
				source: { rules: { 'no-hardcoded-ids': HAND_WRITTEN_RULES['no-hardcoded-ids'] } },
			},
			rules: { 'source/no-hardcoded-ids': 'error' },
		},
	],
	errorOnUnmatchedPattern: false,
});
for (const result of await sourceLint.lintFiles(['nodes/**/*.ts', 'credentials/**/*.ts'])) {
	const lines = fs.readFileSync(result.filePath, 'utf8').split('\n');
	for (const message of result.messages) {
		consider({
			file: path.relative(root, result.filePath),
			line: message.line,
			rule:
				message.ruleId === 'source/no-hardcoded-ids'
					? '@n8n/community-nodes/no-hardcoded-ids'
					: (message.ruleId ?? '(parse)'),
			message: message.message,
			text: lines[message.line - 1]?.trim() ?? '',
			lines,
		});
	}
}

// The codex files (nodes/*/*.node.json), which n8n reads when the description has no codex of its
// own: n8n's codex rules (valid-codex-categories, valid-node-categories, no-ai-codex-category,
// no-codex-subcategories, no-logic-or-flow-nodes) on each.
for (const { relative, description } of described) {
	const file = relative.replace(/\.ts$/, '.json');
	if (description.codex || !fs.existsSync(path.join(root, file))) continue;
	let codex;
	try {
		codex = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
	} catch (error) {
		consider({ file, line: 1, rule: '(parse)', message: String(error), text: '', lines: [] });
		continue;
	}
	const aiSdk = /from ['"]@n8n\/ai-node-sdk['"]/.test(
		fs.readFileSync(path.join(root, relative), 'utf8'),
	);
	const outputsMain = (description.outputs ?? []).includes('main');
	for (const [rule, message, value] of codexProblems(codex, { outputsMain, aiSdk })) {
		consider({ file, ...lineOf(file, value), rule: `@n8n/community-nodes/${rule}`, message });
	}
}

// n8n's package rules that 0.32.0 lacks: one repository per package, the community keyword, MIT.
const packageProblems = [
	[
		'no-monorepo',
		pkg.repository?.directory !== undefined,
		'"repository.directory" marks a package in a monorepo: a community node package has a repository of its own',
		'directory',
	],
	[
		'require-community-node-keyword',
		!(pkg.keywords ?? []).includes('n8n-community-node-package'),
		'"keywords" must include "n8n-community-node-package"',
		'keywords',
	],
	[
		'require-mit-license',
		pkg.license !== 'MIT',
		'The "license" of a community node package must be "MIT"',
		'license',
	],
];
for (const [rule, failed, message, key] of packageProblems) {
	if (failed)
		consider({
			file: 'package.json',
			...lineOf('package.json', `"${key}"`),
			rule: `@n8n/community-nodes/${rule}`,
			message,
		});
}

// The sources' own connection types: n8n's constant, not the 'main' literal the generated classes cannot tell apart.
for (const file of ['nodes/shared/describe/describe.ts', 'nodes/shared/poll/description.ts']) {
	const full = path.join(root, file);
	if (!fs.existsSync(full)) continue;
	fs.readFileSync(full, 'utf8')
		.split('\n')
		.forEach((text, index) => {
			if (/\b(inputs|outputs)\s*:\s*\[[^\]]*['"]main['"]/.test(text)) {
				findings.push({
					file,
					line: index + 1,
					rule: '@n8n/community-nodes/node-connection-type-literal',
					message: "Use NodeConnectionTypes.Main, not 'main'",
					text: text.trim(),
				});
			}
		});
}

const byRule = (list) =>
	Object.entries(list.reduce((acc, f) => ({ ...acc, [f.rule]: (acc[f.rule] ?? 0) + 1 }), {})).sort(
		(a, b) => b[1] - a[1],
	);

if (flag('--all') && excused.size) {
	console.log(
		`Departures (scripts/literal-lint.exceptions.mjs): ${[...excused].map(([rule, n]) => `${rule} ${n}`).join(', ')}`,
	);
}
if (flag('--keep')) console.log(`Generated classes: ${scratch}`);
else fs.rmSync(scratch, { recursive: true, force: true });

if (findings.length) {
	// an object's or a list's finding shows the line after its opening bracket too (its first member)
	const shown = (f) =>
		/^[{[]$/.test(f.text) && f.lines?.[f.line] ? `${f.text} ${f.lines[f.line].trim()}` : f.text;
	for (const f of findings)
		console.error(`${f.file}:${f.line}  ${f.rule}  ${f.message}\n    ${shown(f)}`);
	console.error(
		`\nn8n's lint on the literal descriptions: ${findings.length} findings (${byRule(findings)
			.map(([r, n]) => `${r} ${n}`)
			.join(', ')})`,
	);
	process.exit(1);
}
console.log(
	`n8n's lint on the literal descriptions: clean (${results.length} classes${excused.size ? `; ${[...excused.values()].reduce((a, b) => a + b, 0)} findings under named departures` : ''})`,
);
