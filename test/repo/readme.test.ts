/**
 * The README speaks for the package: its Operations tables list exactly the operations and
 * trigger events the nodes offer, and are what `npm run generate` (scripts/generate.mjs) writes
 * from the tables, it has the sections a community package's README is expected to have, and
 * nothing in it points outside the repository.
 */
import { spawnSync } from '../../host/child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from '../../host/fs';
import { process } from '../../host/globals';
import { tmpdir } from '../../host/os';
import { join } from '../../host/path';
import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { NODE_TYPES } from '../../harness/workflows';

const README = readFileSync(join(module.path, '..', '..', 'README.md'), 'utf8');
const CUSTOM = 'customApiCall';

function section(title: string): string {
	const start = README.indexOf(`\n## ${title}\n`);
	if (start < 0) throw new Error(`README has no "## ${title}" section`);
	const end = README.indexOf('\n## ', start + 1);
	return README.slice(start, end < 0 ? undefined : end);
}

/** Rows `| a | b | c |` of the tables in a text, as cells. */
function rows(text: string): string[][] {
	return text
		.split('\n')
		.filter((l) => l.startsWith('| ') && !l.startsWith('|---'))
		.map((l) =>
			l
				.slice(1, -1)
				.split('|')
				.map((c) => c.trim()),
		)
		.filter((cells) => !['Node', 'Trigger (polling)'].includes(cells[0]));
}

const options = (p: INodeProperties | undefined) => (p?.options ?? []) as INodePropertyOptions[];
const sorted = (names: string[]) => [...names].sort();

/** What the nodes offer: "node | resource" -> operations, and "node" -> events. */
function offered(): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const Type of NODE_TYPES) {
		const { displayName, properties } = (new Type() as INodeType).description;
		const resource = properties.find((p) => p.name === 'resource');
		if (!resource) {
			out.set(
				displayName,
				sorted(options(properties.find((p) => p.name === 'event')).map((o) => o.name)),
			);
			continue;
		}
		for (const r of options(resource).filter((o) => o.value !== CUSTOM)) {
			const operations = properties
				.filter(
					(p) =>
						p.name === 'operation' && (p.displayOptions?.show?.resource ?? []).includes(r.value),
				)
				.flatMap((p) =>
					options(p)
						.filter((o) => o.value !== CUSTOM)
						.map((o) => o.name),
				);
			out.set(`${displayName} | ${r.name}`, sorted(operations));
		}
	}
	return out;
}

test('the Operations tables list exactly the resources, operations and trigger events of the nodes', () => {
	const listed = new Map(
		rows(section('Operations')).map((cells) => {
			const key = cells.length === 3 ? `${cells[0]} | ${cells[1]}` : cells[0];
			return [key, sorted(cells[cells.length - 1].split(',').map((n) => n.trim()))];
		}),
	);
	const expected = offered();
	expect(expected.size).toBeGreaterThan(15);
	expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(expected));
});

/** `npm run generate --check` on the README, or on another file. */
function generateCheck(readme?: string): { status: number | null; output: string } {
	const script = join(module.path, '..', '..', 'scripts', 'generate.mjs');
	const run = spawnSync(
		process.execPath,
		[script, '--check', ...(readme ? ['--readme', readme] : [])],
		{ encoding: 'utf8' },
	);
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('the Operations tables are what npm run generate writes from the tables, byte for byte', () => {
	expect(generateCheck()).toEqual({
		status: 0,
		output: expect.stringContaining('tables are what the nodes offer'),
	});
});

test('a forgotten npm run generate fails, saying to run it and which rows differ', () => {
	const dir = mkdtempSync(join(tmpdir(), 'n8n-nodes-vendor-readme-'));
	try {
		// a row of the tables with one operation (or event) fewer, as if one were added and the README not renewed
		const row =
			section('Operations')
				.split('\n')
				.find((l) => /^\| .*, [^|]+ \|$/.test(l)) ?? '';
		expect(row).not.toBe('');
		writeFileSync(join(dir, 'README.md'), README.replace(row, row.replace(/, [^,|]+ \|$/, ' |')));
		const { status, output } = generateCheck(join(dir, 'README.md'));
		expect(status).toBe(1);
		expect(output).toContain('run npm run generate');
		expect(output).toContain(`tables give:  ${row}`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('the README has the sections of a community package: Operations, Credentials, Compatibility, Version history', () => {
	for (const title of ['Operations', 'Credentials', 'Compatibility', 'Version history'])
		expect(section(title).length).toBeGreaterThan(100);
});

test('nothing in the README points outside the repository', () => {
	expect(README).not.toMatch(/\.\.\/(shared|\.library)|\]\(\.\.\//);
	const links = [...README.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
	for (const link of links) expect(link).toMatch(/^(#|https:\/\/|[\w.-]+(\/[\w.-]+)*$)/);
});

test('the publish workflow tests, then publishes with npm provenance (id-token permission, --provenance)', () => {
	const workflow = readFileSync(
		join(module.path, '..', '..', '.github', 'workflows', 'publish.yml'),
		'utf8',
	);
	expect(workflow).toMatch(/^\s+id-token: write/m);
	const test = workflow.indexOf('run: npm test');
	expect(workflow).toMatch(/^\s+NPM_CONFIG_PROVENANCE: 'true'/m); // n8n-node release's npm publish, with provenance
	const publish = workflow.indexOf('npm run release');
	expect(test).toBeGreaterThan(0);
	expect(publish).toBeGreaterThan(test);
});

test('the README is for users: within about 300 lines, the two set-up commands on its first screen, and every docs/ file it links exists', () => {
	const lines = README.split('\n');
	expect(lines.length).toBeLessThanOrEqual(320);
	const firstScreen = lines.slice(0, 25).join('\n');
	expect(firstScreen).toMatch(/npm ci && npm run demo/);
	expect(firstScreen).toMatch(/npm ci && npm test/);
	const docs = [...README.matchAll(/\]\((docs\/[\w.-]+)\)/g)].map((m) => m[1]);
	expect(docs.length).toBeGreaterThanOrEqual(3);
	for (const doc of docs)
		expect([doc, existsSync(join(module.path, '..', '..', doc))]).toEqual([doc, true]);
});
