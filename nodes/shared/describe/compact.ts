/**
 * A smaller node description without losing anything: a property that is repeated, the
 * same in every respect but its `displayOptions`, for several operations (an ID picker,
 * line items, region fields, Return All / Limit, ...) becomes one property shown for all
 * of them.
 *
 * Two copies are merged only when
 * 1. the widened `show: { resource, operation }` shows it exactly where the copies were
 *    shown (no other resource / operation pair gains it), and
 * 2. every operation still sees its properties in the same order as before: the merged
 *    properties are placed by a topological order of "comes before" over every
 *    operation's list, and a merge that would need a cycle is not made.
 */
import type { INodeProperties } from 'n8n-workflow';

type Pair = string;

const SEP = '\u0000';
const pairOf = (resource: unknown, operation: unknown): Pair =>
	`${String(resource)}${SEP}${String(operation)}`;

/** The resource / operation pairs that exist: from the operation lists. */
function existingPairs(props: INodeProperties[]): Pair[] {
	const pairs = new Set<Pair>();
	for (const p of props) {
		if (p.name !== 'operation' || !Array.isArray(p.options)) continue;
		for (const resource of p.displayOptions?.show?.resource ?? []) {
			for (const option of p.options)
				if ('value' in option) pairs.add(pairOf(resource, option.value));
		}
	}
	return [...pairs];
}

/** Where a property may be visible, judged by `resource` / `operation` only (other conditions count as "may be"). */
function visibleAt(p: INodeProperties, existing: Pair[]): Set<Pair> {
	const show = p.displayOptions?.show;
	return new Set(
		existing.filter((pair) => {
			const [resource, operation] = pair.split(SEP);
			return (
				(!show?.resource || show.resource.includes(resource)) &&
				(!show?.operation || show.operation.includes(operation))
			);
		}),
	);
}

/** The property's content apart from which resources and operations show it; undefined when it cannot be merged. */
function contentKey(p: INodeProperties): string | undefined {
	const show = p.displayOptions?.show;
	if (!show?.resource || !show.operation || p.displayOptions?.hide || p.name === 'operation')
		return undefined;
	const otherConditions = Object.fromEntries(
		Object.entries(show).filter(([key]) => key !== 'resource' && key !== 'operation'),
	);
	return JSON.stringify({ ...p, displayOptions: { ...p.displayOptions, show: otherConditions } });
}

const union = <T>(...lists: Array<Iterable<T>>): T[] => [...new Set(lists.flatMap((l) => [...l]))];

interface Group {
	members: number[];
	at: Set<Pair>;
	resources: string[];
	operations: string[];
}

/** The properties with repeated copies merged (see above); the order each operation sees is unchanged. */
export function mergeRepeatedProperties(props: INodeProperties[]): INodeProperties[] {
	const existing = existingPairs(props);
	const existingSet = new Set(existing);
	const at = props.map((p) => visibleAt(p, existing));
	const keys = props.map(contentKey);
	// group of each property (union-find by hand: groups are few and small)
	const groupOf = props.map((_, i) => i);
	const groups = new Map<number, Group>(
		props.map((p, i) => [
			i,
			{
				members: [i],
				at: at[i],
				resources: (p.displayOptions?.show?.resource ?? []).map(String),
				operations: (p.displayOptions?.show?.operation ?? []).map(String),
			},
		]),
	);
	// "comes before" edges between properties, from every pair's list
	const next = props.map(() => new Set<number>());
	for (const pair of existing) {
		const seen = props.map((_, i) => i).filter((i) => at[i].has(pair));
		for (let k = 1; k < seen.length; k++) next[seen[k - 1]].add(seen[k]);
	}
	const successors = (g: number): number[] =>
		union(...(groups.get(g)?.members ?? []).map((m) => [...next[m]].map((n) => groupOf[n]))).filter(
			(n) => n !== g,
		);
	const reaches = (from: number, to: number): boolean => {
		const stack = [from];
		const visited = new Set<number>();
		while (stack.length) {
			const g = stack.pop() as number;
			if (g === to) return true;
			if (visited.has(g)) continue;
			visited.add(g);
			stack.push(...successors(g));
		}
		return false;
	};
	/** Merges group `y` into group `x` when both rules allow it. */
	const merge = (x: number, y: number): boolean => {
		const a = groups.get(x) as Group;
		const b = groups.get(y) as Group;
		const resources = union(a.resources, b.resources);
		const operations = union(a.operations, b.operations);
		const exact = resources.every((r) =>
			operations.every(
				(o) => !existingSet.has(pairOf(r, o)) || a.at.has(pairOf(r, o)) || b.at.has(pairOf(r, o)),
			),
		);
		if (!exact || [...b.at].some((p) => a.at.has(p)) || reaches(x, y) || reaches(y, x))
			return false;
		groups.set(x, {
			members: [...a.members, ...b.members],
			at: new Set(union(a.at, b.at)),
			resources,
			operations,
		});
		groups.delete(y);
		for (const m of b.members) groupOf[m] = x;
		return true;
	};
	// groups of copies grow until no two of the same content can be merged (an estimate's and
	// an invoice's create/update copies merge once each resource's pair has been merged)
	for (let changed = true; changed; ) {
		changed = false;
		const roots = [...groups.keys()].filter((g) => keys[g] !== undefined).sort((x, y) => x - y);
		for (const [n, x] of roots.entries()) {
			for (const y of roots.slice(n + 1)) {
				if (groups.has(x) && groups.has(y) && keys[x] === keys[y] && merge(x, y)) changed = true;
			}
		}
	}
	// topological order, earliest original position first among the ready ones
	const incoming = new Map<number, number>([...groups.keys()].map((g) => [g, 0]));
	for (const g of groups.keys())
		for (const s of successors(g)) incoming.set(s, (incoming.get(s) ?? 0) + 1);
	const ready = [...groups.keys()].filter((g) => incoming.get(g) === 0);
	const out: INodeProperties[] = [];
	while (ready.length) {
		ready.sort((x, y) => x - y);
		const g = ready.shift() as number;
		const group = groups.get(g) as Group;
		const first = props[group.members[0]];
		out.push(
			group.members.length === 1
				? first
				: {
						...first,
						displayOptions: {
							...first.displayOptions,
							show: {
								...first.displayOptions?.show,
								resource: group.resources,
								operation: group.operations,
							},
						},
					},
		);
		for (const s of successors(g)) {
			incoming.set(s, (incoming.get(s) ?? 0) - 1);
			if (incoming.get(s) === 0) ready.push(s);
		}
	}
	return out;
}
