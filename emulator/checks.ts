/**
 * The checks an API request passes before its rule, in order (route, token, rate limits, scope,
 * organisation or portal, unknown keys, field validation); each refusal names its source.
 */
import type http from '../host/http';
import type { Area, Operation } from '../nodes/shared/tables/spec';
import { locationOf } from '../nodes/shared/tables/location';
import { validateValues } from '../nodes/shared/tables/validate';
import type { Accounts } from './accounts';
import { parseVendorAuthorization } from './accounts-scopes';
import type { TokenInfo } from './accounts-tokens';
import { familyError } from './replies';
import type { Family, MatchResult, Route } from './routes';
import { CODE, invalid, isAccounting } from './rules/answers';
import type { Ctx, Reply } from './rules/context';
import { refuse } from './rules/refusals';
import { citing, ORGANIZATION_SOURCES, PIPELINE, problemSource } from './rules/table-sources';
import { acceptsUnnamedQuery } from './rules';
import type { EmulatorState } from './state';
import type { Rec, Store } from './store';

/** The 404 of an unknown URL and the 405 of a known path asked with another method. */
export function routeRefusal(
	found: Exclude<MatchResult, { kind: 'ok' }>,
	family: Family,
	method: string,
	path: string,
): Reply {
	if (found.kind === 'none')
		return refuse(
			PIPELINE.url,
			familyError(
				family,
				404,
				'url',
				family === 'projects' ? `No API at ${method} ${path}` : 'Invalid URL Passed',
			),
		);
	return refuse(
		PIPELINE.method,
		familyError(
			family,
			405,
			'method',
			family === 'projects'
				? `${method} is not valid for this URL; use ${found.allowed.join(', ')}`
				: 'Invalid URL Passed',
		),
	);
}

/** The token's holder, or the 401 of a missing, unknown, expired or other region's token. */
export function checkToken(
	accounts: Accounts,
	req: http.IncomingMessage,
	region: string,
	area: Area,
): { info: TokenInfo } | { reply: Reply } {
	const authHeader = req.headers.authorization;
	const check = accounts.checkAccessToken(parseVendorAuthorization(authHeader), region);
	if (check.ok) return { info: check.info };
	const why = {
		missing: /^bearer\s/i.test(String(authHeader ?? ''))
			? 'The Bearer scheme is not accepted: send Authorization: Vendor-oauthtoken <token>'
			: 'No access token: send Authorization: Vendor-oauthtoken <token>',
		unknown: 'The access token is invalid',
		expired: 'The access token has expired',
		wrong_region: 'The access token belongs to another data-center region',
	}[check.reason];
	return {
		reply: refuse(PIPELINE.token, {
			status: 401,
			json: isAccounting(area)
				? { code: CODE.notAuthorized, errorCode: 'INVALID_OAUTHTOKEN', message: why }
				: { errorCode: 'INVALID_OAUTHTOKEN', message: why },
		}),
	};
}

/** The organization id a request carries where its area sends it (query or header), trimmed. */
function organizationOf(
	area: Area,
	query: Record<string, string>,
	req: http.IncomingMessage,
): string | undefined {
	if (!area.org) return undefined;
	const raw =
		area.org.in === 'query' ? query[area.org.name] : req.headers[area.org.name.toLowerCase()];
	return (Array.isArray(raw) ? raw[0] : raw)?.trim();
}

/** Counts the request against its rate limit; the 429 past it (project management per client, the accounting areas per organization when enabled). */
export function checkRate(
	state: EmulatorState,
	family: Family,
	area: Area,
	region: string,
	clientId: string,
	query: Record<string, string>,
	req: http.IncomingMessage,
): Reply | undefined {
	if (family === 'projects') {
		const wait = state.projectLimits.hit(`${region}:${clientId}`);
		if (wait !== undefined) {
			const { limit, windowMs } = state.projectLimits.rule;
			const reply = familyError(
				family,
				429,
				'rate',
				`Too many requests: at most ${limit} per ${windowMs / 1000} s; blocked for ${Math.ceil(wait / 1000)} s`,
			);
			if (state.retryAfterHeader) reply.headers = { 'Retry-After': String(Math.ceil(wait / 1000)) };
			return refuse(PIPELINE.rateProjects, reply);
		}
	}
	const limits = state.organizationLimits;
	if (!limits || !area.org) return undefined;
	const organization = organizationOf(area, query, req);
	const wait = organization ? limits.hit(`${region}:${organization}`) : undefined;
	if (wait === undefined) return undefined;
	const reply = familyError(
		family,
		429,
		'rate',
		`Too many requests: at most ${limits.rule.limit} per ${limits.rule.windowMs / 1000} s per organization`,
	);
	reply.headers = limits.headers(wait);
	return refuse(PIPELINE.rateAccounting, reply);
}

/** The 403 of a token without the operation's scopes (an operation without a stated scope needs none). */
export function checkScope(
	accounts: Accounts,
	area: Area,
	op: Operation,
	info: TokenInfo,
): Reply | undefined {
	const scopes = op.scope === undefined ? [] : Array.isArray(op.scope) ? op.scope : [op.scope];
	const missing = scopes.filter((s) => !accounts.hasScope(info, s));
	if (!missing.length) return undefined;
	return refuse(
		PIPELINE.scope,
		isAccounting(area)
			? {
					status: 403,
					json: {
						code: CODE.notAuthorized,
						message: 'You are not authorized to perform this operation',
					},
				}
			: {
					status: 403,
					json: {
						errorCode: 'INVALID_OAUTHSCOPE',
						message: `The access token lacks the scope ${missing.join(', ')}`,
					},
				},
	);
}

/** The organisation (accounting areas) or portal (project management) the request names, or its refusal. */
export function resolveTenant(
	store: Store,
	area: Area,
	region: string,
	params: Record<string, string>,
	query: Record<string, string>,
	req: http.IncomingMessage,
): Ctx['tenant'] | Reply {
	if (area.org) {
		const id = organizationOf(area, query, req);
		const where =
			area.org.in === 'query' ? `query parameter ${area.org.name}` : `header ${area.org.name}`;
		const source = ORGANIZATION_SOURCES[area.value];
		if (!id)
			return citing(source, {
				status: 400,
				json: {
					code: CODE.organization,
					message: `The organization id is required: send it as the ${where}.`,
				},
			});
		const org = store.org(region, id);
		if (!org)
			return citing(source, {
				status: 400,
				json: {
					code: CODE.organization,
					message: `The organization id ${id} (${where}) is not an organization of this account in this region.`,
				},
			});
		return org;
	}
	if (params.portal_id === undefined) return undefined;
	const portal = store.portal(region, params.portal_id);
	return (
		portal ??
		refuse(PIPELINE.portal, {
			status: 404,
			json: {
				errorCode: 'INVALID_PARAMETER_VALUE',
				message: `No portal with id ${params.portal_id}`,
			},
		})
	);
}

/**
 * The 400 naming query parameters or top-level body keys no table names. Project bodies may
 * also carry custom-field values keyed by the portal's custom-field API names; query
 * parameters the documents give without names are accepted where they do (rules'
 * `unnamedQuery`).
 */
export function shapeRefusal(
	route: Route,
	tenant: Ctx['tenant'],
	query: Record<string, string>,
	json: unknown,
): Reply | undefined {
	const customNames =
		route.resource.value === 'project' && tenant && 'customFields' in tenant
			? tenant.customFields.filter((d) => d.module === 'projects').map((d) => d.api_name)
			: [];
	const unknown = unknownKeys(
		route.area,
		route.op,
		acceptsUnnamedQuery(route.id) ? {} : query,
		json,
		customNames,
	);
	if (!unknown) return undefined;
	const what = unknown.where === 'query' ? 'query parameter' : 'body key';
	return refuse(
		PIPELINE.tableShape,
		invalid(
			route.area,
			unknown.keys.map((key) => ({
				field: key,
				message: `is not a ${what} of this operation (no field table names it)`,
			})),
			unknown.where,
		),
	);
}

/**
 * Query parameters and top-level body keys no table names (nested entries are checked by the
 * server-side schemas), besides `extraBodyKeys` (a portal's custom-field API names). Named: the operation's fields where they travel, `page` / `per_page`
 * on paged lists, and the organisation parameter of an area that sends it in the query.
 */
function unknownKeys(
	area: Area,
	op: Operation,
	query: Record<string, string>,
	json: unknown,
	extraBodyKeys: string[] = [],
): { where: 'query' | 'body'; keys: string[] } | undefined {
	const named = (where: string): Set<string> =>
		new Set(op.fields.filter((f) => locationOf(f, op) === where).map((f) => f.name));
	const inQuery = named('query');
	if (op.pagination && op.pagination !== 'none')
		['page', 'per_page'].forEach((k) => inQuery.add(k));
	if (area.org?.in === 'query') inQuery.add(area.org.name);
	const badQuery = Object.keys(query).filter((k) => !inQuery.has(k));
	if (badQuery.length) return { where: 'query', keys: badQuery };
	if (!json || typeof json !== 'object' || Array.isArray(json) || op.fields.some((f) => f.bodyRoot))
		return undefined;
	const inBody = new Set([...named('body'), ...extraBodyKeys]);
	const badBody = Object.keys(json).filter((k) => !inBody.has(k));
	return badBody.length ? { where: 'body', keys: badBody } : undefined;
}

/** The operation's field values, each read from where the table says it travels. */
function valuesOf(
	op: Operation,
	params: Record<string, string>,
	query: Record<string, string>,
	req: http.IncomingMessage,
	json: unknown,
): Record<string, unknown> {
	const values: Record<string, unknown> = {};
	const obj = json && typeof json === 'object' && !Array.isArray(json) ? (json as Rec) : {};
	for (const f of op.fields) {
		const where = locationOf(f, op);
		if (where === 'path') values[f.name] = params[f.name];
		else if (where === 'query') values[f.name] = query[f.name];
		else if (where === 'header') values[f.name] = req.headers[f.name.toLowerCase()];
		else values[f.name] = f.bodyRoot ? json : obj[f.name];
	}
	return values;
}

/** The 400 of the field tables' validation (nested keys no table names included), citing the source of the first rule broken. */
export function validationRefusal(
	route: Route,
	params: Record<string, string>,
	query: Record<string, string>,
	req: http.IncomingMessage,
	json: unknown,
): Reply | undefined {
	const { area, op } = route;
	const problems = validateValues(op, valuesOf(op, params, query, req, json), 'server');
	if (!problems.length) return undefined;
	const inBody = problems.some((p) => {
		const f = op.fields.find((x) => x.name === p.field.split(/[.[]/)[0]);
		return !f || locationOf(f, op) === 'body';
	});
	return citing(problemSource(op, problems[0]), invalid(area, problems, inBody ? 'body' : 'query'));
}
