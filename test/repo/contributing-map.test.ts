/**
 * docs/CONTRIBUTING.md's File map matches the tree: every path it names exists, and every file of
 * nodes/shared/ (all folders), emulator/ (top level), bench/, scripts/ (top level) and
 * scripts/real-n8n/ is named in it. Also: CONTRIBUTING stays a map (at most 20,000 bytes), and
 * the relative links of CONTRIBUTING and bench/README.md land on files (and headings) of the
 * repository, none outside it.
 *
 * The map is the first fenced block of the "## File map" section. A line that starts at column 0
 * is a folder heading (`nodes/shared/api/`) or a top-level entry (`examples/: ...`); an indented
 * line names entries inside the last heading. The names are what comes before the first ": " of
 * the line, separated by ", "; a name ending in `/` is a folder. An indented folder entry
 * (`rules/`) covers every file under it; a heading covers nothing, so each file under it is
 * named. `<Node>` stands for the node folders: such an entry must exist in at least one.
 *
 * Canaries at the end: a renamed entry, a dropped entry and an entry for a file that is not there
 * each fail the check.
 */
import { existsSync, readdirSync, readFileSync, statSync } from '../../host/fs';
import { dirname, join, relative, resolve } from '../../host/path';

const ROOT = resolve(module.path, '..', '..');
const CONTRIBUTING = readFileSync(join(ROOT, 'docs', 'CONTRIBUTING.md'), 'utf8');

/** The roots whose files must be named, and whether their subfolders count too. */
const MUST_NAME: ReadonlyArray<[folder: string, deep: boolean]> = [
	['nodes/shared', true],
	['emulator', false],
	['bench', true],
	['scripts', false],
	['scripts/real-n8n', false],
];

interface MapEntry {
	/** Relative to the repository, `/` at the end for a folder; may hold `<Node>`. */
	path: string;
	/** An indented folder entry: it covers the files under it. */
	covers: boolean;
	line: number;
}

function mapBlock(doc: string): string {
	const start = doc.indexOf('\n## File map\n');
	if (start < 0) throw new Error('CONTRIBUTING has no "## File map" section');
	const end = doc.indexOf('\n## ', start + 1);
	const section = doc.slice(start, end < 0 ? undefined : end);
	const fence = section.match(/\n```\n([\s\S]*?)\n```/);
	if (!fence) throw new Error('the File map section has no fenced block');
	return fence[1];
}

function parseMap(block: string): MapEntry[] {
	const entries: MapEntry[] = [];
	let heading = '';
	block.split('\n').forEach((text, i) => {
		if (!text.trim()) return;
		const indented = /^\s/.test(text);
		const colon = text.indexOf(': ');
		const names = (colon < 0 ? text : text.slice(0, colon))
			.trim()
			.split(', ')
			.map((n) => n.trim());
		if (names.some((n) => !n || /\s/.test(n)))
			throw new Error(`map line ${i + 1} is not "names: description": ${text}`);
		if (!indented) {
			if (names.length !== 1)
				throw new Error(`map line ${i + 1}: a heading names one folder: ${text}`);
			heading = names[0];
			if (!heading.endsWith('/')) {
				entries.push({ path: heading, covers: false, line: i + 1 });
				heading = '';
			} else entries.push({ path: heading, covers: false, line: i + 1 });
			return;
		}
		if (!heading) throw new Error(`map line ${i + 1} is indented under no folder: ${text}`);
		for (const name of names)
			entries.push({ path: heading + name, covers: name.endsWith('/'), line: i + 1 });
	});
	return entries;
}

function filesUnder(folder: string, deep: boolean): string[] {
	return readdirSync(join(ROOT, folder)).flatMap((name) => {
		const path = `${folder}/${name}`;
		if (statSync(join(ROOT, path)).isDirectory()) return deep ? filesUnder(path, true) : [];
		return [path];
	});
}

const NODE_FOLDERS = readdirSync(join(ROOT, 'nodes')).filter(
	(n) => n !== 'shared' && statSync(join(ROOT, 'nodes', n)).isDirectory(),
);

function exists(path: string): boolean {
	const folder = path.endsWith('/');
	const candidates = path.includes('<Node>')
		? NODE_FOLDERS.map((n) => path.replace('<Node>', n))
		: [path];
	return candidates.some((c) => {
		const full = join(ROOT, c);
		return existsSync(full) && statSync(full).isDirectory() === folder;
	});
}

/** What is wrong with a map: names of missing paths, and files that should be named but are not. */
function mapProblems(doc: string): { missing: string[]; unnamed: string[] } {
	const entries = parseMap(mapBlock(doc));
	const missing = entries.filter((e) => !exists(e.path)).map((e) => `line ${e.line}: ${e.path}`);
	const named = new Set(entries.filter((e) => !e.path.endsWith('/')).map((e) => e.path));
	const covering = entries.filter((e) => e.covers && !e.path.includes('<Node>')).map((e) => e.path);
	const unnamed = MUST_NAME.flatMap(([folder, deep]) => filesUnder(folder, deep)).filter(
		(file) => !named.has(file) && !covering.some((c) => file.startsWith(c)),
	);
	return { missing, unnamed };
}

test('every path the File map names exists', () => {
	const entries = parseMap(mapBlock(CONTRIBUTING));
	expect(entries.length).toBeGreaterThan(100);
	expect(mapProblems(CONTRIBUTING).missing).toEqual([]);
});

test('every file of nodes/shared/, emulator/, bench/, scripts/ and scripts/real-n8n/ is in the File map', () => {
	expect(mapProblems(CONTRIBUTING).unnamed).toEqual([]);
});

test('CONTRIBUTING is a map, not a narrative: at most 20,000 bytes', () => {
	expect(statSync(join(ROOT, 'docs', 'CONTRIBUTING.md')).size).toBeLessThanOrEqual(20_000);
});

/** The headings of a Markdown file as GitHub anchors. */
function anchors(file: string): Set<string> {
	const text = readFileSync(join(ROOT, file), 'utf8');
	return new Set(
		[...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
			m[1]
				.trim()
				.toLowerCase()
				.replace(/[^a-z0-9 _-]/g, '')
				.replace(/ /g, '-'),
		),
	);
}

test.each(['docs/CONTRIBUTING.md', 'bench/README.md'])(
	'the links of %s land inside the repository, on files and headings that exist',
	(file) => {
		const text = readFileSync(join(ROOT, file), 'utf8');
		const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
		const problems: string[] = [];
		for (const link of links) {
			if (/^[a-z]+:/i.test(link) || link.startsWith('//')) {
				problems.push(`${link}: points outside the repository`);
				continue;
			}
			const [target, anchor] = link.split('#');
			const path = target ? relative(ROOT, resolve(ROOT, dirname(file), target)) : file;
			if (path.startsWith('..')) problems.push(`${link}: points outside the repository`);
			else if (!existsSync(join(ROOT, path))) problems.push(`${link}: no such file`);
			else if (anchor && !anchors(path).has(anchor)) problems.push(`${link}: no such heading`);
		}
		expect(problems).toEqual([]);
	},
);

describe('canaries: the check fails on a map that drifted', () => {
	const entryLine = CONTRIBUTING.split('\n').find(
		(l) => /^ {2}(\S+\.ts), /.test(l) && l.includes('transport.ts'),
	);

	test('a renamed entry: the new name is missing and the old file unnamed', () => {
		expect(entryLine).toBeDefined();
		const drifted = CONTRIBUTING.replace(
			entryLine as string,
			(entryLine as string).replace('transport.ts', 'transporter.ts'),
		);
		const { missing, unnamed } = mapProblems(drifted);
		expect(missing).toEqual([expect.stringContaining('nodes/shared/api/transporter.ts')]);
		expect(unnamed).toEqual(['nodes/shared/api/transport.ts']);
	});

	test('a dropped line: its files are unnamed', () => {
		const line = CONTRIBUTING.split('\n').find((l) => l.startsWith('  demo.ts, '));
		expect(line).toBeDefined();
		const { unnamed } = mapProblems(CONTRIBUTING.replace(`${line as string}\n`, ''));
		expect(unnamed).toEqual(
			expect.arrayContaining([
				'emulator/demo.ts',
				'emulator/demo-options.ts',
				'emulator/demo-data.ts',
			]),
		);
	});

	test('an entry for a file that is not there, and one for a node file no node has', () => {
		const drifted = CONTRIBUTING.replace(
			'  customCall.ts, simplify.ts\n',
			'  customCall.ts, simplify.ts, gone.ts\n',
		).replace(
			'  specials.ts, customFields.ts, events.ts\n',
			'  specials.ts, customFields.ts, events.ts, nowhere.ts\n',
		);
		expect(mapProblems(drifted).missing).toEqual([
			expect.stringContaining('nodes/shared/features/gone.ts'),
			expect.stringContaining('nodes/<Node>/nowhere.ts'),
		]);
	});
});
