/**
 * Every export no other file uses, run by `npm run lint` (and so by `npm test` and CI).
 *
 * Checked: each .ts file that tsconfig.test.json or tsconfig.tools.json covers (nodes/,
 * credentials/, emulator/, bench/, test/; host/ and scripts/ are plain JavaScript). An exported
 * name (a function, const, class, type, interface, enum, namespace, `export { x }` entry,
 * re-export or default) is used when another file reads it:
 *   - `import { x }`, `import type { x }`, `import { type x }`, a default import;
 *   - `export { x } from`, `export * from`, `export * as m from` and `import { x }; export { x }`
 *     pass a use on: a re-export is used only when its own name is, and then so is its source;
 *   - `import * as m`, `import m = require()`, `const m = require()`: `m.x` (or the type `m.x`)
 *     uses x; `m` read any other way uses everything;
 *   - `import()`, `require()`, `jest.requireActual()`, `module.require()` of a path use what is
 *     read of them (`const { x } = require(...)`, `(await import(...)).x`), else everything; the
 *     type `import('...').X` uses X. A path may be `path.join(ROOT, 'build', ...)`: the JavaScript
 *     files of the repository (scripts/, host/, ...) are read for such uses too, and a path into
 *     build/ or dist/ stands for the .ts file it was built from.
 * Entry points read by something other than an import: n8n's loader (and scripts/literal-lint.mjs)
 * reads, from each file package.json's "n8n" section lists (dist/ path -> .ts source), the class
 * named as the file (`VendorBooks` of VendorBooks.node.ts); that export counts as used. Jest
 * suites, the benches and the demo are run (jest, `node build/...`), and nothing reads what they
 * export: their exports are checked like any other.
 * A use within the file itself does not count: drop the `export` and tsc's noUnusedLocals says
 * whether the name is used at all.
 *
 * Usage: node scripts/unused-exports.mjs [--fix] [--root <folder>] [<folder or file>...]
 * Prints `file: name` per unused export and exits 1 if any; folders or files named: only those
 * (the uses are still read from every file). --fix removes the `export` keyword of
 * each (`export default` too) and the entry of an `export { x }` list (the whole statement when
 * none is left); a file left without import or export gets `export {};` so that it stays a module.
 * Running it again finds nothing and changes nothing. A statement exporting used and unused
 * names at once (`export const a = 1, b = 2;`) and `export default <expression>` are left, named.
 * Then `npx tsc -p tsconfig.test.json` (noUnusedLocals) lists what nothing uses at all.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = path.resolve(option('--root') ?? path.join(here, '..'));
const fix = args.includes('--fix');
/** Folders or files named on the command line: report (and fix) only what is under them. */
const only = args
	.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--root')
	.map((a) => path.resolve(a));
const ts = createRequire(path.join(here, '..', 'package.json'))('typescript');
const started = Date.now();

// --- the files ------------------------------------------------------------------------------
/** The .ts files the two configs cover, and the compiler options of the first. */
function configured() {
	const files = new Set();
	let options;
	for (const name of ['tsconfig.test.json', 'tsconfig.tools.json']) {
		const file = path.join(root, name);
		if (!fs.existsSync(file)) continue;
		const parsed = ts.getParsedCommandLineOfConfigFile(
			file,
			{},
			{
				...ts.sys,
				onUnRecoverableConfigFileDiagnostic: (d) =>
					fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
			},
		);
		if (parsed.errors.length)
			fail(
				parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'),
			);
		options ??= parsed.options;
		for (const f of parsed.fileNames)
			if (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) files.add(path.resolve(f));
	}
	if (!options) fail(`no tsconfig.test.json or tsconfig.tools.json in ${root}`);
	return { files: [...files].sort(), options };
}

/** The repository's JavaScript files (scripts/, host/, the configs), read for uses only. */
function javascriptFiles(dir = root, out = []) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (
			entry.name.startsWith('.') ||
			['node_modules', 'dist', 'build', 'coverage'].includes(entry.name)
		)
			continue;
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) javascriptFiles(full, out);
		else if (/\.(js|mjs|cjs)$/.test(entry.name)) out.push(full);
	}
	return out;
}

function fail(message) {
	console.error(`unused-exports: ${message}`);
	process.exit(2);
}

const { files: checked, options } = configured();
const isChecked = new Set(checked);
const resolutionCache = ts.createModuleResolutionCache(root, (f) => f, options);

/** The checked file a module specifier of `from` names, or undefined (a package, host/, ...). */
function resolveSpecifier(specifier, from) {
	const { resolvedModule } = ts.resolveModuleName(
		specifier,
		from,
		options,
		ts.sys,
		resolutionCache,
	);
	if (resolvedModule && !resolvedModule.isExternalLibraryImport) {
		const file = path.resolve(resolvedModule.resolvedFileName);
		if (isChecked.has(file)) return file;
	}
	return builtFrom(path.resolve(path.dirname(from), specifier));
}

/** The checked .ts file a path stands for: itself, or what build/ or dist/ holds built from it. */
function builtFrom(absolute) {
	const relative = path.relative(root, absolute).split(path.sep).join('/');
	if (relative.startsWith('..')) return undefined;
	const source = relative.replace(/^(build|dist)\//, '');
	const bare = source.replace(/\.(js|ts)$/, '');
	for (const candidate of [`${bare}.ts`, `${bare}/index.ts`]) {
		const file = path.join(root, candidate);
		if (isChecked.has(file)) return file;
	}
	return undefined;
}

// --- what each file exports and what it uses ------------------------------------------------
/** file -> name -> the places that export it: { kind, node, statement } */
const exportsOf = new Map();
/** file -> exported name -> [source file, name there ('*': all of it)] */
const reexportsOf = new Map();
/** file -> files it `export * from` */
const starsOf = new Map();
/** uses read directly: [file, name ('*': all of it)] */
const directUses = [];

const addTo = (map, file, key, value) => {
	if (!map.has(file)) map.set(file, new Map());
	const inner = map.get(file);
	if (!inner.has(key)) inner.set(key, []);
	inner.get(key).push(value);
};
const hasModifier = (node, kind) =>
	(ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : []).some((m) => m.kind === kind);

/** Names a binding pattern declares. */
function boundNames(name) {
	if (ts.isIdentifier(name)) return [name.text];
	return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}

/** Strips what does not change which value is read: parentheses, `as`, `!`, `await`. */
function outer(node) {
	let n = node;
	while (
		n.parent &&
		(ts.isParenthesizedExpression(n.parent) ||
			ts.isAsExpression(n.parent) ||
			ts.isTypeAssertionExpression(n.parent) ||
			ts.isNonNullExpression(n.parent) ||
			ts.isAwaitExpression(n.parent) ||
			ts.isSatisfiesExpression(n.parent))
	)
		n = n.parent;
	return n;
}

/** A path written as a literal or `path.join(ROOT | __dirname | module.path, '...', ...)`. */
function pathOf(node, file) {
	if (ts.isStringLiteralLike(node)) return { text: node.text, base: 'specifier' };
	if (!ts.isCallExpression(node)) return undefined;
	const callee = node.expression.getText();
	if (!/^(path\.)?(join|resolve)$/.test(callee) || !node.arguments.length) return undefined;
	const [first, ...rest] = node.arguments;
	if (rest.some((a) => !ts.isStringLiteralLike(a))) return undefined;
	const tail = rest.map((a) => a.text);
	if (ts.isStringLiteralLike(first))
		return { text: path.join(path.dirname(file), first.text, ...tail), base: 'absolute' };
	const head = first.getText();
	if (head === '__dirname' || head === 'module.path')
		return { text: path.join(path.dirname(file), ...tail), base: 'absolute' };
	// ROOT, root, ...: the repository, as the scripts name it
	return { text: path.join(root, ...tail), base: 'absolute' };
}

function targetOf(node, file) {
	const p = pathOf(node, file);
	if (!p) return undefined;
	return p.base === 'specifier' ? resolveSpecifier(p.text, file) : builtFrom(p.text);
}

/** What is read of a module value (a dynamic import or require): names, a binding, or all ('*'). */
function readsOf(call) {
	const n = outer(call);
	const parent = n.parent;
	if (parent && ts.isPropertyAccessExpression(parent) && parent.expression === n)
		return [parent.name.text];
	if (
		parent &&
		ts.isElementAccessExpression(parent) &&
		parent.expression === n &&
		ts.isStringLiteralLike(parent.argumentExpression)
	)
		return [parent.argumentExpression.text];
	if (parent && ts.isVariableDeclaration(parent) && parent.initializer === n) {
		if (ts.isIdentifier(parent.name)) return { binding: parent.name.text };
		if (
			ts.isObjectBindingPattern(parent.name) &&
			parent.name.elements.every(
				(e) =>
					!e.dotDotDotToken &&
					(e.propertyName
						? ts.isIdentifier(e.propertyName) || ts.isStringLiteral(e.propertyName)
						: ts.isIdentifier(e.name)),
			)
		)
			return parent.name.elements.map((e) => (e.propertyName ?? e.name).text);
	}
	return ['*'];
}

function analyse(file, text, isChecked) {
	const sf = ts.createSourceFile(
		file,
		text,
		ts.ScriptTarget.Latest,
		true,
		/\.ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS,
	);
	/** local name -> [source file, imported name] of the file's import bindings */
	const imported = new Map();
	/** namespace binding -> its module file(s) */
	const namespaces = new Map();
	const use = (target, name) => target && directUses.push([target, name]);
	const own = (name, entry) => isChecked && addTo(exportsOf, file, name, entry);

	for (const statement of sf.statements) {
		if (ts.isImportDeclaration(statement)) {
			const target = resolveSpecifier(statement.moduleSpecifier.text, file);
			const clause = statement.importClause;
			if (!target || !clause) continue;
			if (clause.name) {
				use(target, 'default');
				imported.set(clause.name.text, [target, 'default']);
			}
			const bindings = clause.namedBindings;
			if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, [target]);
			else if (bindings)
				for (const e of bindings.elements) {
					const name = (e.propertyName ?? e.name).text;
					use(target, name);
					imported.set(e.name.text, [target, name]);
				}
		} else if (
			ts.isImportEqualsDeclaration(statement) &&
			ts.isExternalModuleReference(statement.moduleReference)
		) {
			const target = targetOf(statement.moduleReference.expression, file);
			if (target) namespaces.set(statement.name.text, [target]);
		} else if (ts.isExportDeclaration(statement)) {
			const clause = statement.exportClause;
			if (statement.moduleSpecifier) {
				const target = resolveSpecifier(statement.moduleSpecifier.text, file);
				if (!isChecked) {
					// a JavaScript file's exports are not checked: what it passes on is used
					if (!clause || ts.isNamespaceExport(clause)) use(target, '*');
					else for (const e of clause.elements) use(target, (e.propertyName ?? e.name).text);
				} else if (!clause) {
					if (target) (starsOf.get(file) ?? starsOf.set(file, []).get(file)).push(target);
				} else if (ts.isNamespaceExport(clause)) {
					own(clause.name.text, { kind: 'statement', node: statement, statement });
					if (target) addTo(reexportsOf, file, clause.name.text, [target, '*']);
				} else
					for (const e of clause.elements) {
						own(e.name.text, { kind: 'element', node: e, statement });
						if (target)
							addTo(reexportsOf, file, e.name.text, [target, (e.propertyName ?? e.name).text]);
					}
			} else if (clause && ts.isNamedExports(clause))
				for (const e of clause.elements)
					own(e.name.text, {
						kind: 'element',
						node: e,
						statement,
						local: (e.propertyName ?? e.name).text,
					});
		} else if (ts.isExportAssignment(statement)) {
			own('default', { kind: 'assignment', node: statement, statement });
		} else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
			const isDefault = hasModifier(statement, ts.SyntaxKind.DefaultKeyword);
			if (ts.isVariableStatement(statement)) {
				const names = statement.declarationList.declarations.flatMap((d) => boundNames(d.name));
				for (const name of names)
					own(name, { kind: 'modifier', node: statement, statement, names });
			} else if (ts.isModuleDeclaration(statement) && !ts.isIdentifier(statement.name)) {
				// `declare module '...'`: an ambient module, not an export of this file
			} else if (statement.name || isDefault)
				own(isDefault ? 'default' : statement.name.text, {
					kind: 'modifier',
					node: statement,
					statement,
					names: [isDefault ? 'default' : statement.name.text],
				});
		}
	}
	// `import { x }; export { x }`: a re-export of the import
	for (const [name, entries] of exportsOf.get(file) ?? []) {
		for (const entry of entries) {
			if (entry.local === undefined || !imported.has(entry.local)) continue;
			addTo(reexportsOf, file, name, imported.get(entry.local));
		}
	}
	for (const entries of exportsOf.get(file)?.values() ?? []) {
		for (const entry of entries)
			if (entry.local !== undefined && namespaces.has(entry.local))
				for (const t of namespaces.get(entry.local))
					addTo(reexportsOf, file, entry.node.name.text, [t, '*']);
	}

	const bindings = new Map(); // binding name -> module files, for `const m = require(...)`
	(function walk(node) {
		if (ts.isCallExpression(node) && node.arguments.length) {
			const callee =
				node.expression.kind === ts.SyntaxKind.ImportKeyword ? 'import' : node.expression.getText();
			if (
				['import', 'require', 'module.require', 'jest.requireActual', 'jest.requireMock'].includes(
					callee,
				)
			) {
				const target = targetOf(node.arguments[0], file);
				if (target) {
					const reads = readsOf(node);
					if (Array.isArray(reads)) for (const name of reads) use(target, name);
					else
						(
							bindings.get(reads.binding) ?? bindings.set(reads.binding, []).get(reads.binding)
						).push(target);
				}
			}
		} else if (
			ts.isImportTypeNode(node) &&
			ts.isLiteralTypeNode(node.argument) &&
			ts.isStringLiteral(node.argument.literal)
		) {
			const target = resolveSpecifier(node.argument.literal.text, file);
			if (target) {
				if (node.qualifier) {
					let q = node.qualifier;
					while (ts.isQualifiedName(q)) q = q.left;
					use(target, q.text);
				} else if (!isTypeOfRequire(node)) use(target, '*');
			}
		}
		ts.forEachChild(node, walk);
	})(sf);
	for (const [name, targets] of bindings)
		namespaces.set(name, [...(namespaces.get(name) ?? []), ...targets]);

	if (namespaces.size) {
		(function walk(node) {
			if (ts.isIdentifier(node) && namespaces.has(node.text) && namespaces.get(node.text).length) {
				const targets = namespaces.get(node.text);
				const parent = node.parent;
				const declaring =
					ts.isExportSpecifier(parent) ||
					((ts.isNamespaceImport(parent) ||
						ts.isImportEqualsDeclaration(parent) ||
						ts.isVariableDeclaration(parent)) &&
						parent.name === node);
				const aName =
					(ts.isPropertyAccessExpression(parent) && parent.name === node) ||
					(ts.isQualifiedName(parent) && parent.right === node) ||
					((ts.isPropertyAssignment(parent) ||
						ts.isPropertySignature(parent) ||
						ts.isPropertyDeclaration(parent) ||
						ts.isMethodDeclaration(parent)) &&
						parent.name === node);
				if (!declaring && !aName) {
					let read = '*';
					if (ts.isPropertyAccessExpression(parent) && parent.expression === node)
						read = parent.name.text;
					else if (ts.isQualifiedName(parent) && parent.left === node) read = parent.right.text;
					else if (
						ts.isElementAccessExpression(parent) &&
						parent.expression === node &&
						ts.isStringLiteralLike(parent.argumentExpression)
					)
						read = parent.argumentExpression.text;
					for (const t of targets) use(t, read);
				}
			}
			ts.forEachChild(node, walk);
		})(sf);
	}
	return sf;
}

/** `require('x') as typeof import('x')`: the require says what is read, not the type. */
function isTypeOfRequire(node) {
	if (!node.isTypeOf) return false;
	const parent = node.parent;
	return (
		(ts.isAsExpression(parent) || ts.isTypeAssertionExpression(parent)) &&
		ts.isCallExpression(parent.expression)
	);
}

const sources = new Map();
for (const file of checked)
	sources.set(file, { sf: analyse(file, fs.readFileSync(file, 'utf8'), true) });
for (const file of javascriptFiles()) analyse(file, fs.readFileSync(file, 'utf8'), false);

// n8n's loader: the class named as the file, from each file of package.json's "n8n" section
const pkgFile = path.join(root, 'package.json');
if (fs.existsSync(pkgFile)) {
	const n8n = JSON.parse(fs.readFileSync(pkgFile, 'utf8')).n8n ?? {};
	for (const listed of [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])]) {
		const file = builtFrom(path.join(root, listed));
		if (file) directUses.push([file, path.basename(file).replace(/\..*$/, '')]);
	}
}

// --- uses, passed on through re-exports -------------------------------------------------------
const used = new Set();
const key = (file, name) => `${file}\0${name}`;
function markUsed(file, name) {
	if (name === '*') return markAll(file);
	if (used.has(key(file, name))) return;
	used.add(key(file, name));
	for (const [source, there] of reexportsOf.get(file)?.get(name) ?? []) markUsed(source, there);
	if (!exportsOf.get(file)?.has(name))
		for (const star of starsOf.get(file) ?? []) markUsed(star, name);
}
const allMarked = new Set();
function markAll(file) {
	if (allMarked.has(file)) return;
	allMarked.add(file);
	for (const name of exportsOf.get(file)?.keys() ?? []) markUsed(file, name);
	for (const star of starsOf.get(file) ?? []) markAll(star);
}
for (const [file, name] of directUses) markUsed(file, name);

const unused = [];
const within = (file) =>
	!only.length || only.some((o) => file === o || file.startsWith(o + path.sep));
for (const file of checked.filter(within)) {
	for (const [name, entries] of exportsOf.get(file) ?? []) {
		if (used.has(key(file, name))) continue;
		for (const entry of entries) unused.push({ file, name, entry });
	}
}
unused.sort((a, b) =>
	a.file === b.file ? a.entry.node.getStart() - b.entry.node.getStart() : a.file < b.file ? -1 : 1,
);
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

// --- report, or --fix ---------------------------------------------------------------------------
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (!fix) {
	const lines = [...new Set(unused.map((u) => `${rel(u.file)}: ${u.name}`))];
	if (!lines.length) {
		console.log(
			`unused-exports: every export of ${checked.length} files is used elsewhere (${seconds} s)`,
		);
		process.exit(0);
	}
	console.log(lines.join('\n'));
	console.error(
		`unused-exports: ${lines.length} exports nothing else uses (${seconds} s). Drop the \`export\` (node scripts/unused-exports.mjs --fix does), then npx tsc -p tsconfig.test.json shows what is not used at all.`,
	);
	process.exit(1);
}

const kept = [];
let fixed = 0;
const byFile = new Map();
for (const u of unused) (byFile.get(u.file) ?? byFile.set(u.file, []).get(u.file)).push(u);
for (const [file, list] of byFile) {
	const sf = sources.get(file).sf;
	const text = sf.text;
	const edits = []; // [start, end, replacement]
	const flagged = new Set(list.map((u) => u.entry));
	const removedStatements = new Set();
	const lists = new Set();
	const names = new Set(list.map((u) => u.name));
	for (const u of list) {
		const { entry } = u;
		if (entry.kind === 'modifier') {
			if (!entry.names.every((n) => names.has(n))) {
				kept.push(`${rel(file)}: ${u.name} (declared with used names: split the statement)`);
				continue;
			}
			const modifiers = ts
				.getModifiers(entry.statement)
				.filter(
					(m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword,
				);
			if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) && !entry.statement.name) {
				kept.push(`${rel(file)}: default (an anonymous default: name it or delete it)`);
				continue;
			}
			for (const m of modifiers) edits.push([m.getStart(sf), skipSpace(text, m.end), '']);
			removedStatements.add(entry.statement);
			fixed++;
		} else if (entry.kind === 'assignment') {
			kept.push(`${rel(file)}: default (export default <expression>: delete it by hand)`);
		} else if (entry.kind === 'statement') {
			edits.push(statementRange(sf, entry.statement));
			removedStatements.add(entry.statement);
			fixed++;
		} else if (entry.kind === 'element') {
			fixed++;
			if (lists.has(entry.statement)) continue;
			const elements = entry.statement.exportClause.elements;
			const left = elements.filter((e) => ![...flagged].some((f) => f.node === e));
			lists.add(entry.statement);
			if (!left.length) {
				edits.push(statementRange(sf, entry.statement));
				removedStatements.add(entry.statement);
			} else {
				const separator =
					elements.length > 1 ? text.slice(elements[0].end, elements[1].getStart(sf)) : ', ';
				edits.push([
					elements[0].getStart(sf),
					elements[elements.length - 1].end,
					left.map((e) => e.getText(sf)).join(separator),
				]);
			}
		}
	}
	if (!edits.length) continue;
	// a file left with no import or export would become a script (its names global): keep it a module
	const stillModule = sf.statements.some(
		(s) =>
			!removedStatements.has(s) &&
			(ts.isImportDeclaration(s) ||
				ts.isExportDeclaration(s) ||
				ts.isExportAssignment(s) ||
				(ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference)) ||
				hasModifier(s, ts.SyntaxKind.ExportKeyword)),
	);
	let out = text;
	for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0]))
		out = out.slice(0, start) + replacement + out.slice(end);
	if (!stillModule) out = `${out.replace(/\n*$/, '')}\n\nexport {};\n`;
	fs.writeFileSync(file, out);
}
for (const line of kept) console.error(`kept: ${line}`);
console.log(
	`unused-exports --fix: ${fixed} exports no longer exported in ${byFile.size} files${kept.length ? `; ${kept.length} left (above)` : ''}. Now npx tsc -p tsconfig.test.json (noUnusedLocals) lists what nothing uses.`,
);
process.exit(kept.length ? 1 : 0);

function skipSpace(text, at) {
	let i = at;
	while (i < text.length && /[ \t]/.test(text[i])) i++;
	return i;
}

/** A whole statement, with its line when it has one of its own (and one blank line of two). */
function statementRange(sf, statement) {
	const text = sf.text;
	let start = statement.getStart(sf);
	let end = statement.end;
	const lineStart = text.lastIndexOf('\n', start - 1) + 1;
	const rest = text.slice(end).match(/^[ \t]*(\r?\n|$)/);
	if (/^[ \t]*$/.test(text.slice(lineStart, start)) && rest) {
		start = lineStart;
		end += rest[0].length;
		const blankBefore = start === 0 || /\n[ \t]*\r?\n$/.test(text.slice(0, start));
		const blankAfter = text.slice(end).match(/^[ \t]*\r?\n/);
		if (blankBefore && blankAfter) end += blankAfter[0].length;
	}
	return [start, end, ''];
}
