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
 */
import { readdirSync, readFileSync, statSync } from '../../host/fs';
import { dirname, join, relative, resolve } from '../../host/path';

const ROOT = resolve(module.path, '../..');

type Part = 'tables' | 'areaTables' | 'api' | 'describe' | 'run' | 'features' | 'poll' | 'root' | 'node' | 'credentials';

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
		if (!['tables', 'api', 'describe', 'run', 'features', 'poll'].includes(folder)) throw new Error(`${file}: unknown folder of nodes/shared/`);
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
	for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*['"](\.[^'"]+)['"]/g)) {
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

/** Strongly connected components with more than one file (or a file importing itself): the circles. */
function circles(): string[] {
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
		for (const w of graph.get(v) ?? []) {
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
			if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort().join(' | '));
		}
	};
	for (const f of files) if (!indexes.has(f)) visit(f);
	return found.sort();
}

function layerViolations(): string[] {
	const out: string[] = [];
	for (const [from, targets] of graph) {
		for (const to of targets) {
			if (!MAY_IMPORT[partOf(from)].includes(partOf(to))) out.push(`${from} -> ${to}`);
			// a node's field tables read only the shared tables and its own node's tables
			else if (partOf(from) === 'areaTables' && partOf(to) === 'areaTables' && from.split('/')[1] !== to.split('/')[1]) out.push(`${from} -> ${to}`);
		}
	}
	return out.sort();
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
		graph.set('nodes/shared/tables/spec.ts', [...(graph.get('nodes/shared/tables/spec.ts') ?? []), 'nodes/shared/node.ts']);
		try {
			expect(layerViolations()).toContain('nodes/shared/tables/spec.ts -> nodes/shared/node.ts');
			expect(circles().some((c) => c.includes('nodes/shared/tables/spec.ts') && c.includes('nodes/shared/node.ts'))).toBe(true);
		} finally {
			graph.set('nodes/shared/tables/spec.ts', importsOf('nodes/shared/tables/spec.ts'));
		}
	});
});
