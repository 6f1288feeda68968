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
const requireHere = createRequire(path.join(here, '..', 'package.json'));
const ts = requireHere('typescript');
const requireFromRoot = createRequire(path.join(root, 'package.json'));
const Module = requireFromRoot('node:module');
if (!Module._extensions['.ts']) {
	Module._extensions['.ts'] = function compileTs(module, filename) {
		const source = fs.readFileSync(filename, 'utf8');
		const { outputText } = ts.transpileModule(source, {
			fileName: filename,
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2021, esModuleInterop: true },
		});
		module._compile(outputText, filename);
	};
}

// --- writing a value as a TypeScript literal ----------------------------------------------
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function literal(value, indent, key) {
	const pad = '\t'.repeat(indent + 1);
	const end = '\t'.repeat(indent);
	if (value === undefined) return 'undefined';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		// The sources use n8n's constant for the main connection (the rule node-connection-type-literal); the value is the same.
		if (value === 'main' && (key === 'inputs' || key === 'outputs')) return 'NodeConnectionTypes.Main';
		return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
	}
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value === 'function') return 'undefined as never';
	if (Array.isArray(value)) {
		if (!value.length) return '[]';
		return `[\n${value.map((v) => `${pad}${literal(v, indent + 1, key)},`).join('\n')}\n${end}]`;
	}
	const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
	if (!entries.length) return '{}';
	return `{\n${entries.map(([k, v]) => `${pad}${IDENTIFIER.test(k) ? k : `'${k}'`}: ${literal(v, indent + 1, k)},`).join('\n')}\n${end}}`;
}

// --- the package's nodes and credentials, as literal classes --------------------------------
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const source = (distPath) => distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-vendor-literal-'));

function copyIcons(fromDir, toDir) {
	for (const file of fs.readdirSync(fromDir)) {
		if (/\.(svg|png)$/.test(file)) fs.copyFileSync(path.join(fromDir, file), path.join(toDir, file));
	}
}

function writeClass(relative, text) {
	const target = path.join(scratch, relative);
	fs.mkdirSync(path.dirname(target), { recursive: true });
	fs.writeFileSync(target, text);
	copyIcons(path.join(root, path.dirname(relative)), path.dirname(target));
}

const className = (file) => path.basename(file).replace(/\..*$/, '');

for (const distPath of pkg.n8n?.nodes ?? []) {
	const relative = source(distPath);
	const exported = requireFromRoot(path.join(root, relative));
	const name = className(relative);
	const node = new exported[name]();
	const methods = node.methods?.listSearch
		? `\n\n\tmethods = {\n\t\tlistSearch: {\n${Object.keys(node.methods.listSearch)
				.map((m) => `\t\t\tasync ${m}(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {\n\t\t\t\treturn { results: [{ name: this.getNode().name, value: '' }] };\n\t\t\t},`)
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
	const relative = source(distPath);
	const exported = requireFromRoot(path.join(root, relative));
	const name = className(relative);
	const credential = new exported[name]();
	const fields = Object.entries(credential)
		.filter(([, v]) => typeof v !== 'function')
		.map(([k, v]) => `\t${k}${k === 'icon' ? ': Icon' : k === 'properties' ? ': INodeProperties[]' : ''} = ${literal(v, 1, k)};`)
		.join('\n\n');
	writeClass(
		relative,
		`// Generated by scripts/literal-lint.mjs from ${relative}: the credential as n8n reads it.\n` +
			`import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';\n\n` +
			`export class ${name} implements ICredentialType {\n${fields}\n}\n`,
	);
}
fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify(pkg, null, 2));

// --- n8n's rules ------------------------------------------------------------------------------
const config = [
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: ['nodes/**/*.ts', 'credentials/**/*.ts'] },
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.credentials.rules, 'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off' },
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.nodes.rules,
	},
];

const eslint = new ESLint({ cwd: scratch, overrideConfigFile: true, overrideConfig: config, errorOnUnmatchedPattern: false });
const results = await eslint.lintFiles(['nodes/**/*.ts', 'credentials/**/*.ts']);

// --- the findings, less the named departures ------------------------------------------------
const findings = [];
const excused = new Map();
for (const result of results) {
	const lines = fs.readFileSync(result.filePath, 'utf8').split('\n');
	for (const message of result.messages) {
		const rule = message.ruleId ?? '(parse)';
		const finding = { file: path.relative(scratch, result.filePath), line: message.line, rule, message: message.message, text: lines[message.line - 1]?.trim() ?? '', lines };
		const exception = EXCEPTIONS.find((e) => e.rule === rule && (!e.applies || e.applies(finding)));
		if (exception) excused.set(rule, (excused.get(rule) ?? 0) + 1);
		else findings.push(finding);
	}
}

// The sources' own connection types: n8n's constant, not the 'main' literal the generated classes cannot tell apart.
for (const file of ['nodes/shared/describe/describe.ts', 'nodes/shared/poll/description.ts']) {
	const full = path.join(root, file);
	if (!fs.existsSync(full)) continue;
	fs.readFileSync(full, 'utf8')
		.split('\n')
		.forEach((text, index) => {
			if (/\b(inputs|outputs)\s*:\s*\[[^\]]*['"]main['"]/.test(text)) {
				findings.push({ file, line: index + 1, rule: '@n8n/community-nodes/node-connection-type-literal', message: "Use NodeConnectionTypes.Main, not 'main'", text: text.trim() });
			}
		});
}

const byRule = (list) => Object.entries(list.reduce((acc, f) => ({ ...acc, [f.rule]: (acc[f.rule] ?? 0) + 1 }), {})).sort((a, b) => b[1] - a[1]);

if (flag('--all') && excused.size) {
	console.log(`Departures (scripts/literal-lint.exceptions.mjs): ${[...excused].map(([rule, n]) => `${rule} ${n}`).join(', ')}`);
}
if (flag('--keep')) console.log(`Generated classes: ${scratch}`);
else fs.rmSync(scratch, { recursive: true, force: true });

if (findings.length) {
	for (const f of findings) console.error(`${f.file}:${f.line}  ${f.rule}  ${f.message}\n    ${f.text}`);
	console.error(`\nn8n's lint on the literal descriptions: ${findings.length} findings (${byRule(findings).map(([r, n]) => `${r} ${n}`).join(', ')})`);
	process.exit(1);
}
console.log(`n8n's lint on the literal descriptions: clean (${results.length} classes${excused.size ? `; ${[...excused.values()].reduce((a, b) => a + b, 0)} findings under named departures` : ''})`);

