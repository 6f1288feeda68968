/**
 * The house rules of the published sources (nodes/, credentials/): no import circle (type-only
 * imports included) and no part importing a part above it. The layers, lowest first, as the
 * README's Design section maps them:
 *
 *   tables    nodes/shared/tables/   the field tables' types, naming, inferred texts, validation
 *   areaTables nodes/<Node>/tables/  the field tables themselves (data)
 *   api       nodes/shared/api/      requests, transport, pacing, limits, errors, waits, pages
 *   describe  nodes/shared/describe/ node properties from the tables
 *   run       nodes/shared/run/      the item loop and the pickers
 *   features  nodes/shared/features/ Custom API Call, Simplify (plugged in by the root)
 *   poll      nodes/shared/poll/     the triggers' poll
 *   root      nodes/shared/node.ts   the composition root: assembles the node classes
 *   node      nodes/<Node>/*.ts      the node files, their specials and events
 *
 * And the house rules of the whole repository (every .ts, .js and .mjs outside node_modules,
 * dist and build): no import circle anywhere; nothing outside test/ imports test/; the published
 * code imports nothing outside nodes/ and credentials/; host/ imports nothing of the repository;
 * harness/ (n8n's engine running the nodes, for the tests, the benchmarks and the demo) imports
 * only the published code, the emulator and host/, and of the emulator only the demo imports it;
 * the emulator reaches into the published code only through the files listed in EMULATOR_READS
 * (the field tables, shared by design: the emulator serves what the tables say) and never
 * reaches the engine's run code.
 */
import { readdirSync, readFileSync, statSync } from '../../host/fs';
import { dirname, join, relative, resolve } from '../../host/path';
import { preProcessFile } from 'typescript';

const ROOT = resolve(module.path, '../..');

type Part =
	| 'tables'
	| 'areaTables'
	| 'api'
	| 'describe'
	| 'run'
	| 'features'
	| 'poll'
	| 'root'
	| 'node'
	| 'credentials';

/** What each part may import (besides packages). */
const MAY_IMPORT: Record<Part, readonly Part[]> = {
	tables: ['tables'],
	areaTables: ['tables', 'areaTables'],
	api: ['tables', 'api'],
	describe: ['tables', 'api', 'describe'],
	run: ['tables', 'api', 'run'],
	features: ['tables', 'api', 'describe', 'run', 'features'],
	poll: ['tables', 'api', 'describe', 'run', 'poll'],
	root: ['tables', 'api', 'describe', 'run', 'features', 'poll', 'root'],
	node: ['tables', 'areaTables', 'api', 'run', 'poll', 'root', 'node'],
	credentials: ['tables', 'api'],
};

/** Known violations, each `from -> to`; this list must only shrink. */
const KNOWN_LAYER_VIOLATIONS: readonly string[] = [];
/** Known circles, each as its sorted files joined by ` | `; this list must only shrink. */
const KNOWN_CIRCLES: readonly string[] = [];

function partOf(file: string): Part {
	const parts = file.split('/');
	if (parts[0] === 'credentials') return 'credentials';
	if (parts[1] === 'shared') {
		if (parts.length === 3) {
			if (parts[2] === 'node.ts') return 'root';
			throw new Error(`${file}: a file of nodes/shared/ belongs in one of its folders`);
		}
		const folder = parts[2] as Part;
		if (!['tables', 'api', 'describe', 'run', 'features', 'poll'].includes(folder))
			throw new Error(`${file}: unknown folder of nodes/shared/`);
		return folder;
	}
	return parts[2] === 'tables' ? 'areaTables' : 'node';
}

function sources(dir: string): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative import and re-export of a file, `import type` included, resolved to a file. */
function importsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8');
	const out: string[] = [];
	for (const match of text.matchAll(
		/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*['"](\.[^'"]+)['"]/g,
	)) {
		const target = join(dirname(file), match[1]);
		const candidates = [`${target}.ts`, join(target, 'index.ts'), target];
		const found = candidates.find((c) => {
			try {
				return statSync(join(ROOT, c)).isFile();
			} catch {
				return false;
			}
		});
		if (!found) throw new Error(`${file}: cannot resolve ${match[1]}`);
		out.push(relative(ROOT, join(ROOT, found)));
	}
	return out;
}

const files = [...sources('nodes'), ...sources('credentials')];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Strongly connected components of a graph with more than one file (or a file importing itself). */
function graphCircles(g: ReadonlyMap<string, readonly string[]>): string[] {
	let index = 0;
	const indexes = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[] = [];
	const visit = (v: string) => {
		indexes.set(v, index);
		low.set(v, index++);
		stack.push(v);
		onStack.add(v);
		for (const w of g.get(v) ?? []) {
			if (!indexes.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v)!, low.get(w)!));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexes.get(w)!));
		}
		if (low.get(v) === indexes.get(v)) {
			const component: string[] = [];
			let w: string;
			do {
				w = stack.pop()!;
				onStack.delete(w);
				component.push(w);
			} while (w !== v);
			if (component.length > 1 || (g.get(v) ?? []).includes(v))
				found.push(component.sort().join(' | '));
		}
	};
	for (const f of g.keys()) if (!indexes.has(f)) visit(f);
	return found.sort();
}

/** The circles of the published code's graph. */
const circles = () => graphCircles(graph);

function layerViolations(): string[] {
	const out: string[] = [];
	for (const [from, targets] of graph) {
		for (const to of targets) {
			if (!MAY_IMPORT[partOf(from)].includes(partOf(to))) out.push(`${from} -> ${to}`);
			// a node's field tables read only the shared tables and its own node's tables
			else if (
				partOf(from) === 'areaTables' &&
				partOf(to) === 'areaTables' &&
				from.split('/')[1] !== to.split('/')[1]
			)
				out.push(`${from} -> ${to}`);
		}
	}
	return out.sort();
}

// ---------------------------------------------------------------- the whole repository

/** Folders of the repository left out of the walk: installed, built or generated. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'build', '.git', 'coverage']);

/** Every .ts, .js and .mjs file of the repository (top level included), relative to ROOT. */
function repositoryFiles(dir = ''): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name) => {
		if (NOT_SOURCES.has(name) || name.startsWith('.')) return [];
		const path = dir ? join(dir, name) : name;
		if (statSync(join(ROOT, path)).isDirectory()) return repositoryFiles(path);
		return /\.(ts|js|mjs|cjs)$/.test(name) ? [path] : [];
	});
}

/** A relative specifier resolved to a file of the repository, as TypeScript and node resolve it. */
function resolveFrom(file: string, specifier: string): string | undefined {
	const target = join(dirname(file), specifier);
	const candidates = [
		target,
		...['.ts', '.js', '.mjs', '.cjs'].map((e) => target + e),
		...['index.ts', 'index.js'].map((i) => join(target, i)),
	];
	if (target.endsWith('.js')) candidates.push(target.replace(/\.js$/, '.ts'));
	return candidates.find((c) => {
		try {
			return statSync(join(ROOT, c)).isFile();
		} catch {
			return false;
		}
	});
}

/**
 * Every relative import of a file, as TypeScript's own scanner finds them (comments and
 * strings skipped): `import`/`export ... from`, a bare import, `require` and a dynamic
 * import, type-only imports included.
 */
function repositoryImportsOf(file: string): string[] {
	const { importedFiles } = preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
	const out = new Set<string>();
	for (const { fileName } of importedFiles) {
		if (!fileName.startsWith('.')) continue;
		const found = resolveFrom(file, fileName);
		if (!found) throw new Error(`${file}: cannot resolve ${fileName}`);
		out.add(found);
	}
	return [...out];
}

const repoFiles = repositoryFiles();
const repoGraph = new Map(repoFiles.map((f) => [f, repositoryImportsOf(f)]));
/** Known circles of the whole repository, each as its sorted files joined by ` | `; this list must only shrink. */
const KNOWN_REPOSITORY_CIRCLES: readonly string[] = [];

const top = (file: string) => file.split('/')[0];
const isPublished = (file: string) => top(file) === 'nodes' || top(file) === 'credentials';

/** What harness/ may import: the published code it runs, the emulator it runs it against, host/. */
const HARNESS_READS: readonly string[] = ['harness', 'nodes', 'credentials', 'emulator', 'host'];
/** The one file of the emulator that runs the nodes, through the harness. */
const DEMO = 'emulator/demo.ts';

/**
 * What the emulator imports from the published code, and nothing else there: the field
 * tables it builds its routes and checks from, and the few node files whose rule the service
 * shares. The demo alone also takes the credential (to run the nodes against the emulator).
 */
const EMULATOR_READS: readonly string[] = [
	'nodes/shared/tables/spec.ts', // the tables' types
	'nodes/shared/tables/validate.ts', // the tables' field validation, the service's own checks
	'nodes/shared/tables/problemText.ts', // the Problem a refusal lists
	'nodes/shared/tables/location.ts', // where a field travels: the values the service looks for in path, query and body
	'nodes/shared/tables/organizations.ts', // the organisations list route
	'nodes/VendorBilling/tables/index.ts', // each area's tables: the routes
	'nodes/VendorBooks/tables/index.ts',
	'nodes/VendorInventory/tables/index.ts',
	'nodes/VendorInvoice/tables/index.ts',
	'nodes/VendorProjects/tables/index.ts',
	'nodes/VendorBooks/tables/invoices.ts', // the attachment file types
	'nodes/VendorProjects/tables/customFieldTypes.ts', // the custom field types a portal has
	'nodes/VendorProjects/customFields.ts', // the custom fields' value rule, one rule for both sides
	'credentials/VendorOAuth2Api.credentials.ts', // demo.ts only: the credential the demo's workflow uses
];

/** The engine's run code, which the emulator must not reach even through the tables. */
const ENGINE =
	/^nodes\/(shared\/(run|poll|features|describe)\/|shared\/node\.ts$|[^/]+\/[^/]+\.node\.ts$)/;

/** Every import that breaks one of the repository's rules, as `from -> to (rule)`. */
function repositoryViolations(g: ReadonlyMap<string, readonly string[]>): string[] {
	const out: string[] = [];
	for (const [from, targets] of g) {
		for (const to of targets) {
			if (top(to) === 'test' && top(from) !== 'test')
				out.push(`${from} -> ${to} (only test/ imports test/)`);
			if (top(from) === 'harness' && !HARNESS_READS.includes(top(to)))
				out.push(
					`${from} -> ${to} (harness/ imports only the published code, the emulator and host/)`,
				);
			if (top(from) === 'emulator' && top(to) === 'harness' && from !== DEMO)
				out.push(`${from} -> ${to} (of the emulator, only the demo runs the harness)`);
			if (isPublished(from) && !isPublished(to))
				out.push(`${from} -> ${to} (the published code imports only nodes/ and credentials/)`);
			if (top(from) === 'host')
				out.push(`${from} -> ${to} (host/ imports nothing of the repository)`);
			if (top(from) === 'emulator' && isPublished(to)) {
				const demoOnly = to.startsWith('credentials/') && from !== DEMO;
				if (!EMULATOR_READS.includes(to) || demoOnly)
					out.push(
						`${from} -> ${to} (the emulator reads only EMULATOR_READS of the published code)`,
					);
			}
		}
	}
	return out.sort();
}

/** The engine's run files the emulator (the demo aside, which runs the nodes) reaches, through any chain of imports. */
function emulatorReachesEngine(g: ReadonlyMap<string, readonly string[]>): string[] {
	const seen = new Set<string>();
	const todo = [...g.keys()].filter((f) => top(f) === 'emulator' && f !== DEMO);
	while (todo.length) {
		const f = todo.pop()!;
		if (seen.has(f)) continue;
		seen.add(f);
		// past the emulator, only the published code's own imports are followed
		for (const to of g.get(f) ?? []) if (top(to) === 'emulator' || isPublished(to)) todo.push(to);
	}
	return [...seen].filter((f) => ENGINE.test(f)).sort();
}

describe('layers', () => {
	it('reads the imports of every published source', () => {
		expect(files.length).toBeGreaterThan(30);
		expect(graph.get('nodes/VendorBooks/VendorBooks.node.ts')?.length).toBeGreaterThan(0);
	});

	it('has no import circle beyond the known ones (type-only imports included)', () => {
		const found = circles();
		expect(found.filter((c) => !KNOWN_CIRCLES.includes(c))).toEqual([]);
		// the known list only shrinks: a circle broken is taken off it
		expect(KNOWN_CIRCLES.filter((c) => !found.includes(c))).toEqual([]);
	});

	it('has no import from a lower part to a higher one beyond the known ones', () => {
		const found = layerViolations();
		expect(found.filter((v) => !KNOWN_LAYER_VIOLATIONS.includes(v))).toEqual([]);
		expect(KNOWN_LAYER_VIOLATIONS.filter((v) => !found.includes(v))).toEqual([]);
	});

	it('finds a circle and an upward import when there is one', () => {
		graph.set('nodes/shared/tables/spec.ts', [
			...(graph.get('nodes/shared/tables/spec.ts') ?? []),
			'nodes/shared/node.ts',
		]);
		try {
			expect(layerViolations()).toContain('nodes/shared/tables/spec.ts -> nodes/shared/node.ts');
			expect(
				circles().some(
					(c) => c.includes('nodes/shared/tables/spec.ts') && c.includes('nodes/shared/node.ts'),
				),
			).toBe(true);
		} finally {
			graph.set('nodes/shared/tables/spec.ts', importsOf('nodes/shared/tables/spec.ts'));
		}
	});
});

describe('layers of the whole repository', () => {
	it('reads the imports of every source of the repository', () => {
		for (const folder of [
			'nodes',
			'credentials',
			'emulator',
			'harness',
			'bench',
			'scripts',
			'test',
			'host',
		])
			expect(repoFiles.some((f) => top(f) === folder)).toBe(true);
		expect(repoGraph.get('emulator/server.ts')).toContain('host/http.js');
		expect(repoGraph.get('scripts/real-n8n/check.js')).toContain('scripts/real-n8n/n8n-session.js');
		expect(repoGraph.get('scripts/cloud-check.mjs')).toEqual([]);
	});

	it('has no import circle anywhere beyond the known ones', () => {
		const found = graphCircles(repoGraph);
		expect(found.filter((c) => !KNOWN_REPOSITORY_CIRCLES.includes(c))).toEqual([]);
		expect(KNOWN_REPOSITORY_CIRCLES.filter((c) => !found.includes(c))).toEqual([]);
	});

	it('keeps test/ to itself, the published code to itself, host/ a leaf, the harness below test/ and bench/, and the emulator to the tables', () => {
		expect(repositoryViolations(repoGraph)).toEqual([]);
	});

	it('lists only what is imported: each of EMULATOR_READS is still used', () => {
		const imported = new Set(
			[...repoGraph].flatMap(([from, targets]) => targets.map((to) => `${from} -> ${to}`)),
		);
		const uses = (pattern: RegExp, to: string) =>
			[...imported].some(
				(edge) => pattern.test(edge.split(' -> ')[0]) && edge.endsWith(` -> ${to}`),
			);
		expect(EMULATOR_READS.filter((to) => !uses(/^emulator\//, to))).toEqual([]);
	});

	it("keeps the emulator away from the engine's run code, through any chain of imports", () => {
		expect(emulatorReachesEngine(repoGraph)).toEqual([]);
	});

	it('finds a circle, an import of test/, a harness reaching up, an unlisted table and a reach into the engine when there is one', () => {
		const g = new Map(repoGraph);
		g.set('emulator/clock.ts', [
			...(g.get('emulator/clock.ts') ?? []),
			'emulator/server.ts',
			'test/workflows/support.ts',
			'harness/index.ts',
		]);
		g.set('bench/support.ts', [...(g.get('bench/support.ts') ?? []), 'test/workflows/support.ts']);
		g.set('harness/index.ts', [...(g.get('harness/index.ts') ?? []), 'bench/support.ts']);
		g.set('host/fs.js', ['emulator/clock.ts']);
		g.set('emulator/routes.ts', [
			...(g.get('emulator/routes.ts') ?? []),
			'nodes/shared/run/execute.ts',
		]);
		g.set('nodes/shared/tables/spec.ts', [
			...(g.get('nodes/shared/tables/spec.ts') ?? []),
			'bench/support.ts',
		]);
		expect(
			graphCircles(g).some(
				(c) => c.includes('emulator/clock.ts') && c.includes('emulator/server.ts'),
			),
		).toBe(true);
		expect(repositoryViolations(g)).toEqual(
			expect.arrayContaining([
				'emulator/clock.ts -> test/workflows/support.ts (only test/ imports test/)',
				'bench/support.ts -> test/workflows/support.ts (only test/ imports test/)',
				'harness/index.ts -> bench/support.ts (harness/ imports only the published code, the emulator and host/)',
				'emulator/clock.ts -> harness/index.ts (of the emulator, only the demo runs the harness)',
				'host/fs.js -> emulator/clock.ts (host/ imports nothing of the repository)',
				'emulator/routes.ts -> nodes/shared/run/execute.ts (the emulator reads only EMULATOR_READS of the published code)',
				'nodes/shared/tables/spec.ts -> bench/support.ts (the published code imports only nodes/ and credentials/)',
			]),
		);
		expect(emulatorReachesEngine(g)).toContain('nodes/shared/run/execute.ts');
	});
});
