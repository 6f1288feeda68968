/**
 * scripts/unused-exports.mjs (run by `npm run lint`) on a small repository written for the test:
 * it flags each export no other file reads and passes each one read by an import (a type-only
 * one too), a re-export that is itself read, `export *`, a namespace's members, `require()` and
 * `import()`, a script's `require(path.join(ROOT, 'build', ...))`, and the class n8n's loader
 * reads from a file package.json's "n8n" section lists. `--fix` drops exactly the flagged
 * exports, after which the check passes, and a second `--fix` changes nothing. (The repository
 * itself is checked by `npm run lint`.)
 */
import {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from '../../host/fs';
import { tmpdir } from '../../host/os';
import { dirname, join, relative } from '../../host/path';
import { spawnSync } from '../../host/child_process';
import { process } from '../../host/globals';

const ROOT = join(module.path, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'unused-exports.mjs');

const FIXTURE: Record<string, string> = {
	'package.json': JSON.stringify({
		name: 'fixture',
		n8n: { nodes: ['dist/nodes/Thing/Thing.node.js'] },
	}),
	'tsconfig.test.json': JSON.stringify({
		compilerOptions: {
			module: 'commonjs',
			moduleResolution: 'node',
			target: 'es2021',
			strict: true,
			noEmit: true,
			esModuleInterop: true,
		},
		include: ['src/**/*.ts', 'nodes/**/*.ts'],
	}),
	'src/lib.ts': [
		'export function used(): number {',
		'\treturn 1;',
		'}',
		'export function unused(): number {',
		'\treturn 2;',
		'}',
		'export type OnlyAType = { a: number };',
		'export interface UnusedShape {',
		'\ta: number;',
		'}',
		'export const passedOn = 1;',
		'export const passedOnUnread = 2;',
		'',
	].join('\n'),
	'src/barrel.ts': [
		"export { passedOn, passedOnUnread } from './lib';",
		"export * from './star';",
		'',
	].join('\n'),
	'src/star.ts': ['export const viaStar = 1;', 'export const starUnread = 2;', ''].join('\n'),
	'src/ns.ts': ['export const nsRead = 1;', 'export const nsUnread = 2;', ''].join('\n'),
	'src/list.ts': ['const a = 1;', 'const b = 2;', '', 'export { a, b };', ''].join('\n'),
	'src/dynamic.ts': [
		'export const required = 1;',
		'export const imported = 2;',
		'export const neither = 3;',
		'',
	].join('\n'),
	'src/built.ts': ['export const readByScript = 1;', 'export const notReadByScript = 2;', ''].join(
		'\n',
	),
	'src/main.ts': [
		"import { used } from './lib';",
		"import type { OnlyAType } from './lib';",
		"import { passedOn, viaStar } from './barrel';",
		"import * as ns from './ns';",
		"import { a } from './list';",
		'',
		"const { required } = require('./dynamic') as { required: number };",
		'export const all: OnlyAType = { a: used() + passedOn + viaStar + ns.nsRead + a + required };',
		'async function later(): Promise<number> {',
		"\treturn (await import('./dynamic')).imported;",
		'}',
		'void later();',
		'',
	].join('\n'),
	'nodes/Thing/Thing.node.ts': ['export class Thing {}', 'export const helper = 1;', ''].join('\n'),
	'scripts/run.js': [
		"const path = require('node:path');",
		"const ROOT = path.join(__dirname, '..');",
		"const { readByScript } = require(path.join(ROOT, 'build', 'src', 'built.js'));",
		'console.log(readByScript);',
		'',
	].join('\n'),
};

const FLAGGED = [
	'nodes/Thing/Thing.node.ts: helper',
	'src/barrel.ts: passedOnUnread',
	'src/built.ts: notReadByScript',
	'src/dynamic.ts: neither',
	'src/lib.ts: unused',
	'src/lib.ts: UnusedShape',
	'src/lib.ts: passedOnUnread',
	'src/list.ts: b',
	'src/main.ts: all',
	'src/ns.ts: nsUnread',
	'src/star.ts: starUnread',
];

function check(
	root: string,
	...args: string[]
): { status: number | null; stdout: string; stderr: string } {
	const run = spawnSync(process.execPath, [SCRIPT, '--root', root, ...args], {
		cwd: root,
		encoding: 'utf8',
	});
	return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function files(root: string, dir = root): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) Object.assign(out, files(root, path));
		else out[relative(root, path)] = readFileSync(path, 'utf8');
	}
	return out;
}

let root = '';
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'n8n-nodes-vendor-unused-'));
	for (const [file, text] of Object.entries(FIXTURE)) {
		mkdirSync(dirname(join(root, file)), { recursive: true });
		writeFileSync(join(root, file), text);
	}
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('flags each export nothing else reads, and no export something reads', () => {
	const { status, stdout, stderr } = check(root);
	expect({ status, lines: stdout.trim().split('\n') }).toEqual({ status: 1, lines: FLAGGED });
	expect(stderr).toMatch(/11 exports nothing else uses/);
});

test('names given: only what is under them', () => {
	const { status, stdout } = check(root, join(root, 'src', 'lib.ts'));
	expect({ status, lines: stdout.trim().split('\n') }).toEqual({
		status: 1,
		lines: FLAGGED.filter((l) => l.startsWith('src/lib.ts')),
	});
});

test('--fix drops exactly those exports; then the check passes and a second --fix changes nothing', () => {
	const before = files(root);
	expect(check(root, '--fix').status).toBe(0);
	const after = files(root);
	expect(after['src/lib.ts']).toBe(
		before['src/lib.ts']
			.replace('export function unused', 'function unused')
			.replace('export interface UnusedShape', 'interface UnusedShape')
			.replace('export const passedOnUnread', 'const passedOnUnread'),
	);
	expect(after['src/barrel.ts']).toBe(
		"export { passedOn } from './lib';\nexport * from './star';\n",
	);
	expect(after['src/list.ts']).toBe('const a = 1;\nconst b = 2;\n\nexport { a };\n');
	expect(after['nodes/Thing/Thing.node.ts']).toBe('export class Thing {}\nconst helper = 1;\n');
	expect(after['src/star.ts']).toBe('export const viaStar = 1;\nconst starUnread = 2;\n');
	expect(after['src/ns.ts']).toBe('export const nsRead = 1;\nconst nsUnread = 2;\n');
	expect(after['src/main.ts']).toBe(before['src/main.ts'].replace('export const all', 'const all'));
	expect(after['src/dynamic.ts']).toBe(
		'export const required = 1;\nexport const imported = 2;\nconst neither = 3;\n',
	);
	expect(
		Object.keys(after)
			.filter((f) => after[f] !== before[f])
			.sort(),
	).toEqual([
		'nodes/Thing/Thing.node.ts',
		'src/barrel.ts',
		'src/built.ts',
		'src/dynamic.ts',
		'src/lib.ts',
		'src/list.ts',
		'src/main.ts',
		'src/ns.ts',
		'src/star.ts',
	]);

	expect(check(root).status).toBe(0);
	expect(check(root, '--fix').status).toBe(0);
	expect(files(root)).toEqual(after);
});

test('a file whose every export goes keeps `export {}`, so that it stays a module', () => {
	const dir = mkdtempSync(join(tmpdir(), 'n8n-nodes-vendor-unused-'));
	try {
		writeFileSync(join(dir, 'tsconfig.test.json'), JSON.stringify({ include: ['*.ts'] }));
		writeFileSync(join(dir, 'alone.ts'), '/** The one thing. */\nexport const alone = 1;\n');
		expect(check(dir, '--fix').status).toBe(0);
		expect(readFileSync(join(dir, 'alone.ts'), 'utf8')).toBe(
			'/** The one thing. */\nconst alone = 1;\n\nexport {};\n',
		);
		expect(check(dir).status).toBe(0);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
