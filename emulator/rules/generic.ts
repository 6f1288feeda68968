/** Generic CRUD by kind: the behaviour of an operation without a rule of its own, and its parts. */
import type { Operation, Source } from '../../nodes/shared/tables/spec';
import type { Rec } from '../store';
import { envelope, isAccounting, ok } from './answers';
import { bodyObject, type Ctx, isReply, type Reply, tenantOf } from './context';
import { timestamp, timestampMs } from './formats';
import { filterRecords, listReply, type ListOptions } from './lists';
import { BILLING_PROJECT_NOT_FOUND, GUESS, notFound } from './refusals';

/** Sources of the refusals the generic behaviour and `listReply` make. */
export const GENERIC_SOURCES: readonly Source[] = [
	GUESS.notFound,
	BILLING_PROJECT_NOT_FOUND,
	GUESS.paging,
];

/** The record-id parameter of an operation: the last `{param}` of its path. */
function recordParam(op: Operation): string | undefined {
	const all = op.path.match(/\{([^}]+)\}/g);
	return all ? all[all.length - 1].slice(1, -1) : undefined;
}

/** The collection of each resource that has generic CRUD. */
const COLLECTIONS: Readonly<Record<string, string>> = {
	'books.item': 'items',
	'books.estimate': 'estimates',
	'books.invoice': 'invoices',
	'invoice.payment': 'customerpayments',
	'billing.project': 'projects',
	'billing.comment': 'project_comments',
	'inventory.bill': 'bills',
	'projects.project': 'projects',
};

interface CrudTarget {
	collection: string;
	idField: string;
	thing: string;
	/** Answer key of single records / lists. */
	key: string;
}

function crudTarget(ctx: Ctx): CrudTarget {
	const collection = COLLECTIONS[`${ctx.area.value}.${ctx.resource.value}`];
	if (!collection) throw new Error(`${ctx.id}: no collection for generic CRUD`);
	return {
		collection,
		idField: ctx.resource.idField ?? 'id',
		thing: ctx.resource.name,
		// Ops without a stated response key (e.g. the inferred bill update) answer like the resource's create / get.
		key:
			ctx.op.responseKey ??
			(ctx.op.kind === 'list'
				? undefined
				: ctx.resource.operations.find(
						(o) => (o.kind === 'create' || o.kind === 'get') && o.responseKey,
					)?.responseKey) ??
			collection,
	};
}

/**
 * The record of the resource addressed by the path (its `idField` parameter, else the
 * last path parameter), or a not-found reply.
 */
export function findRecord(
	ctx: Ctx,
	collection = crudTarget(ctx).collection,
	thing = ctx.resource.name,
): Rec | Reply {
	const id = ctx.params[ctx.resource.idField ?? ''] ?? ctx.params[recordParam(ctx.op) ?? ''] ?? '';
	return tenantOf(ctx).get(collection, id) ?? notFound(ctx, thing, id);
}

/** Body keys of the operation's body fields plus unknown keys (path values are not copied). */
function writableBody(ctx: Ctx): Rec {
	const body = { ...bodyObject(ctx) };
	for (const k of Object.keys(ctx.params)) delete body[k];
	return body;
}

/** A hook that completes (or refuses) a record before it is stored. */
type Prepare = (rec: Rec, ctx: Ctx, previous?: Rec) => Reply | void;

function singleReply(ctx: Ctx, t: CrudTarget, rec: Rec, message: string, status: number): Reply {
	if (isAccounting(ctx.area)) return envelope(message, { [t.key]: rec }, status);
	return ok(rec, status);
}

export function genericCreate(ctx: Ctx, prepare?: Prepare): Reply {
	const t = crudTarget(ctx);
	const stamp = stampNow(ctx);
	const rec: Rec = {
		[t.idField]: ctx.store.nextId(),
		...writableBody(ctx),
		created_time: stamp,
		last_modified_time: stamp,
	};
	const refused = prepare?.(rec, ctx);
	if (refused) return refused;
	tenantOf(ctx).put(t.collection, String(rec[t.idField]), rec);
	return singleReply(ctx, t, rec, `${t.thing} has been created.`, 201);
}

/** Timestamps as the area writes them: accounting with a numeric offset, bills and projects with milliseconds. */
function stampNow(ctx: Ctx): string {
	const now = ctx.clock.now();
	return isAccounting(ctx.area) && ctx.area.value !== 'inventory'
		? timestamp(now)
		: timestampMs(now);
}

function genericGet(ctx: Ctx): Reply {
	const t = crudTarget(ctx);
	const rec = findRecord(ctx);
	if (isReply(rec)) return rec;
	return singleReply(ctx, t, rec, 'success', 200);
}

export function genericUpdate(ctx: Ctx, prepare?: Prepare): Reply {
	const t = crudTarget(ctx);
	const found = findRecord(ctx);
	if (isReply(found)) return found;
	const next: Rec = { ...found, ...writableBody(ctx), [t.idField]: found[t.idField] };
	next.last_modified_time = stampNow(ctx);
	const refused = prepare?.(next, ctx, found);
	if (refused) return refused;
	tenantOf(ctx).put(t.collection, String(next[t.idField]), next);
	return singleReply(ctx, t, next, `${t.thing} has been updated.`, 200);
}

export function genericDelete(ctx: Ctx): Reply {
	const t = crudTarget(ctx);
	const found = findRecord(ctx);
	if (isReply(found)) return found;
	tenantOf(ctx).remove(t.collection, String(found[t.idField]));
	const message = `The ${t.thing.toLowerCase()} has been deleted.`;
	return isAccounting(ctx.area) ? envelope(message) : ok({ message });
}

export function genericList(ctx: Ctx, opts: ListOptions & { records?: Rec[] } = {}): Reply {
	const t = crudTarget(ctx);
	const records = filterRecords(opts.records ?? tenantOf(ctx).all(t.collection), ctx.query);
	return listReply(ctx, t.key, records, opts);
}

/** The behaviour of an operation without a rule of its own. */
export function generic(ctx: Ctx): Reply {
	switch (ctx.op.kind) {
		case 'create':
			return genericCreate(ctx);
		case 'get':
			return genericGet(ctx);
		case 'list':
			return genericList(ctx);
		case 'update':
			return genericUpdate(ctx);
		case 'delete':
			return genericDelete(ctx);
		default:
			// An emulator bug, not an answer of the service (sources.test.ts: every other kind has a rule): 500.
			throw new Error(`The emulator does not implement ${ctx.id}`);
	}
}
