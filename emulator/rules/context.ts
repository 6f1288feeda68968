/** What a rule gets and gives: the request context, the reply, a rule's declaration, readers of the context. */
import type { Area, Operation, Resource, Source } from '../../nodes/shared/tables/spec';
import type { TokenInfo } from '../accounts-tokens';
import type { Clock } from '../clock';
import type { Rec, Store, Tenant } from '../store';

export interface FilePart {
	field: string;
	fileName: string;
	contentType: string;
	data: Buffer;
}

export interface Ctx {
	/** Operation id, e.g. `books.item.create`. */
	id: string;
	area: Area;
	resource: Resource;
	op: Operation;
	region: string;
	/** The organisation (accounting) or portal (projects); undefined only for `GET /portals`. */
	tenant: Tenant | undefined;
	params: Record<string, string>;
	query: Record<string, string>;
	/** Parsed JSON body (for multipart: the JSON of the `JSONString` part). */
	body: unknown;
	files: FilePart[];
	token: TokenInfo;
	store: Store;
	clock: Clock;
}

export interface Reply {
	status: number;
	json?: unknown;
	file?: { data: Buffer; contentType: string; fileName: string };
	headers?: Record<string, string>;
	/** Where a refusal comes from (set by `refuse`; also sent as the `X-Emulator-Source` header). */
	source?: Source;
}

export interface Rule {
	/** Runs before the table validation (for documented errors that win over it, e.g. 3004). */
	pre?: (ctx: Ctx) => Reply | undefined;
	/** The operation's behaviour; without it the generic behaviour of the operation's kind runs. */
	handle?: (ctx: Ctx) => Reply;
	/**
	 * Every source the rule's refusals may cite ([] when it refuses nothing itself); a
	 * refusal citing another source, or none, is an emulator bug (rules/index.ts throws).
	 */
	sources?: readonly Source[];
	/**
	 * Query parameters no field table names are accepted (not refused) on this operation: the
	 * documents say it takes parameters whose names they do not show. The value is the guess
	 * that says so (checks.ts reads it through `acceptsUnnamedQuery`).
	 */
	unnamedQuery?: Source;
}

export type Rules = Record<string, Rule>;

export function isReply(x: unknown): x is Reply {
	return (
		!!x &&
		typeof x === 'object' &&
		typeof (x as Reply).status === 'number' &&
		('json' in x || 'file' in x)
	);
}

export function tenantOf(ctx: Ctx): Tenant {
	if (!ctx.tenant) throw new Error(`${ctx.id}: no tenant`);
	return ctx.tenant;
}

export function bodyObject(ctx: Ctx): Rec {
	return ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body)
		? (ctx.body as Rec)
		: {};
}
