/**
 * Table-driven routing: every operation of the five areas' field tables becomes a route (method +
 * path template); the matching order is in README.md, "Routes".
 */
import type { Area, Family, HttpMethod, Operation, Resource } from '../nodes/shared/tables/spec';
import { ORGANIZATION, ORGANIZATIONS_LIST } from '../nodes/shared/tables/organizations';
import { billingArea } from '../nodes/VendorBilling/tables';
import { booksArea } from '../nodes/VendorBooks/tables';
import { inventoryArea } from '../nodes/VendorInventory/tables';
import { invoiceArea } from '../nodes/VendorInvoice/tables';
import { projectsArea } from '../nodes/VendorProjects/tables';

export const AREAS: readonly Area[] = [
	projectsArea,
	booksArea,
	invoiceArea,
	billingArea,
	inventoryArea,
];

/** The area's family (see the tables' `Area.family`): `accounting` is served under `/{region}/api`, `projects` under `/{region}/projects`. */
export type { Family } from '../nodes/shared/tables/spec';

export interface Route {
	/** `${area}.${resource}.${operation}`, e.g. `books.item.create`. */
	id: string;
	area: Area;
	resource: Resource;
	op: Operation;
	segments: string[];
}

interface RouteMatch {
	route: Route;
	params: Record<string, string>;
}

export type MatchResult =
	| { kind: 'ok'; match: RouteMatch }
	| { kind: 'method'; area: Area; allowed: HttpMethod[] }
	| { kind: 'none'; area?: Area };

function operationId(area: Area, resource: Resource, op: Operation): string {
	return `${area.value}.${resource.value}.${op.value}`;
}

function split(path: string): string[] {
	return path.split('/').filter((s) => s !== '');
}

const isParam = (seg: string): boolean => /^\{[^}]+\}$/.test(seg);

export class Router {
	readonly routes: Route[] = [];

	constructor(readonly areas: readonly Area[] = AREAS) {
		const seen = new Set<string>();
		for (const area of areas) {
			for (const resource of area.resources) {
				for (const op of resource.operations) {
					const key = `${area.value} ${op.method} ${op.path}`;
					if (seen.has(key)) continue;
					seen.add(key);
					this.routes.push({
						id: operationId(area, resource, op),
						area,
						resource,
						op,
						segments: split(op.path),
					});
				}
			}
			// the organizations list (inferred) behind the Organization ID pickers of the accounting areas
			if (area.org)
				this.routes.push({
					id: operationId(area, ORGANIZATION, ORGANIZATIONS_LIST),
					area,
					resource: ORGANIZATION,
					op: ORGANIZATIONS_LIST,
					segments: split(ORGANIZATIONS_LIST.path),
				});
		}
	}

	byId(id: string): Route | undefined {
		return this.routes.find((r) => r.id === id);
	}

	/** The area a request path belongs to, and the path below the area's base path. */
	areaOf(family: Family, path: string): { area: Area; rest: string } | undefined {
		for (const area of this.areas) {
			if (area.family !== family) continue;
			if (path === area.basePath || path.startsWith(`${area.basePath}/`)) {
				return { area, rest: path.slice(area.basePath.length) || '/' };
			}
		}
		return undefined;
	}

	match(family: Family, method: string, path: string): MatchResult {
		const found = this.areaOf(family, path);
		if (!found) return { kind: 'none' };
		const { area, rest } = found;
		let segs: string[];
		try {
			segs = split(rest).map(decodeURIComponent);
		} catch {
			return { kind: 'none', area };
		}
		const candidates: Array<{ route: Route; score: number[]; params: Record<string, string> }> = [];
		for (const route of this.routes) {
			if (route.area !== area || route.segments.length !== segs.length) continue;
			const params: Record<string, string> = {};
			const score: number[] = [];
			let ok = true;
			route.segments.forEach((t, i) => {
				if (isParam(t)) {
					params[t.slice(1, -1)] = segs[i];
					score.push(0);
				} else if (t === segs[i]) {
					score.push(1);
				} else {
					ok = false;
				}
			});
			if (ok) candidates.push({ route, score, params });
		}
		if (candidates.length === 0) return { kind: 'none', area };
		const withMethod = candidates.filter((c) => c.route.op.method === method.toUpperCase());
		if (withMethod.length === 0) {
			return {
				kind: 'method',
				area,
				allowed: [...new Set(candidates.map((c) => c.route.op.method))],
			};
		}
		withMethod.sort((a, b) => compareScore(b.score, a.score));
		return { kind: 'ok', match: { route: withMethod[0].route, params: withMethod[0].params } };
	}
}

function compareScore(a: number[], b: number[]): number {
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
	return 0;
}

/** Every scope an operation of the tables needs (the default scope set of issued tokens). */
export function allScopes(areas: readonly Area[] = AREAS): string[] {
	const out = new Set<string>();
	for (const area of areas) {
		area.scopes.forEach((s) => out.add(s));
		for (const r of area.resources) {
			for (const op of r.operations) {
				const scopes =
					op.scope === undefined ? [] : Array.isArray(op.scope) ? op.scope : [op.scope];
				scopes.forEach((s) => out.add(s));
			}
		}
	}
	return [...out];
}
