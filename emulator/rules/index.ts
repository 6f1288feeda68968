/**
 * Every area's rules keyed by operation id, each wrapped so a refusal must cite one of its declared
 * sources (else it throws: the server answers 500); test/emulator/sources.test.ts checks them.
 */
import type { Source } from '../../nodes/shared/tables/spec';
import { billingRules } from './billing';
import { booksRules } from './books';
import type { Ctx, Reply, Rule, Rules } from './context';
import { generic as genericBehaviour, GENERIC_SOURCES } from './generic';
import { inventoryRules } from './inventory';
import { paymentRules } from './payments';
import { projectsRules } from './projects';

/** The rules as each area declares them (unchecked). */
export const DECLARED: Rules = {
	...projectsRules,
	...booksRules,
	...paymentRules,
	...billingRules,
	...inventoryRules,
};

/** Throws when `reply` is a refusal that cites no source, or one `sources` does not hold. */
function checkRefusal(id: string, sources: readonly Source[], reply: Reply): Reply {
	const refusal = reply.status >= 400 || reply.source !== undefined;
	if (!refusal) return reply;
	if (reply.source === undefined)
		throw new Error(`${id}: a refusal (HTTP ${reply.status}) names no source`);
	if (!sources.includes(reply.source))
		throw new Error(`${id}: a refusal cites "${reply.source}", which the rule does not declare`);
	return reply;
}

/** `rule` with its `pre` and `handle` checked against its declared sources (unchanged when it declares none). */
export function checked(id: string, rule: Rule): Rule {
	const sources = rule.sources;
	if (!sources) return rule;
	return {
		...rule,
		pre:
			rule.pre &&
			((ctx: Ctx) => {
				const reply = rule.pre?.(ctx);
				return reply && checkRefusal(id, sources, reply);
			}),
		handle:
			rule.handle &&
			((ctx: Ctx) => checkRefusal(id, sources, (rule.handle as (c: Ctx) => Reply)(ctx))),
	};
}

export const RULES: Rules = Object.fromEntries(
	Object.entries(DECLARED).map(([id, rule]) => [id, checked(id, rule)]),
);

/** The behaviour of an operation without a rule of its own, its refusals checked against GENERIC_SOURCES. */
export function generic(ctx: Ctx): Reply {
	return checkRefusal(ctx.id, GENERIC_SOURCES, genericBehaviour(ctx));
}

/**
 * Whether operation `id` accepts query parameters no field table names (the documents say
 * it takes parameters whose names they do not show): server.ts leaves them unrefused.
 */
export function acceptsUnnamedQuery(id: string): boolean {
	return DECLARED[id]?.unnamedQuery !== undefined;
}
