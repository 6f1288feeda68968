/**
 * An API request from its route to its answer: the checks of checks.ts in order, then the
 * operation's rule (rules/*.ts) or the generic behaviour of its kind.
 */
import type http from '../host/http';
import { ORGANIZATIONS_LIST } from '../nodes/shared/tables/organizations';
import type { TokenInfo } from './accounts-tokens';
import {
	checkRate,
	checkScope,
	checkToken,
	resolveTenant,
	routeRefusal,
	shapeRefusal,
	validationRefusal,
} from './checks';
import type { ParsedBody } from './request';
import type { Family, MatchResult, Route } from './routes';
import { invalid } from './rules/answers';
import type { Ctx, Reply } from './rules/context';
import { refuse } from './rules/refusals';
import { PIPELINE } from './rules/table-sources';
import { generic, RULES } from './rules';
import type { EmulatorState } from './state';

/** What the pipeline reads of a request. */
interface ApiRequest {
	req: http.IncomingMessage;
	method: string;
	path: string;
	family: Family;
	region: string;
	query: Record<string, string>;
	body: ParsedBody;
}

/** The answer to an API request (a refusal or the operation's answer). */
export function apiReply(state: EmulatorState, found: MatchResult, r: ApiRequest): Reply {
	if (found.kind !== 'ok') return routeRefusal(found, r.family, r.method, r.path);
	const { route, params } = found.match;
	const admitted = admit(state, route, r);
	if ('reply' in admitted) return admitted.reply;
	// the organizations of the account (the pickers' list; needs no organization itself)
	if (route.op === ORGANIZATIONS_LIST) {
		const organizations = state.store
			.orgsIn(r.region)
			.map((t) => ({ organization_id: t.id, name: t.name }));
		return { status: 200, json: { code: 0, message: 'success', organizations } };
	}
	const tenant = resolveTenant(state.store, route.area, r.region, params, r.query, r.req);
	if (tenant && 'status' in tenant) return tenant;
	if (r.body.error)
		return refuse(PIPELINE.json, invalid(route.area, [{ field: 'body', message: r.body.error }]));
	const shape = shapeRefusal(route, tenant, r.query, r.body.json);
	if (shape) return shape;
	const { area, op } = route;
	const ctx: Ctx = {
		id: route.id,
		area,
		resource: route.resource,
		op,
		region: r.region,
		tenant,
		params,
		query: r.query,
		body: r.body.json,
		files: r.body.files,
		token: admitted.info,
		store: state.store,
		clock: state.clock,
	};
	const rule = RULES[route.id];
	const early = rule?.pre?.(ctx);
	if (early) return early;
	const problems = validationRefusal(route, params, r.query, r.req, r.body.json);
	if (problems) return problems;
	return rule?.handle ? rule.handle(ctx) : generic(ctx);
}

/** The token's holder, once the token, the rate limits and the scopes let the request in; else their refusal. */
function admit(
	state: EmulatorState,
	route: Route,
	r: ApiRequest,
): { info: TokenInfo } | { reply: Reply } {
	const token = checkToken(state.accounts, r.req, r.region, route.area);
	if ('reply' in token) return token;
	const refused =
		checkRate(state, r.family, route.area, r.region, token.info.clientId, r.query, r.req) ??
		checkScope(state.accounts, route.area, route.op, token.info);
	return refused ? { reply: refused } : token;
}
