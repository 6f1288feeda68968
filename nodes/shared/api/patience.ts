// Talking to the API (api/): how long a request of a context may wait; imports nothing.
/**
 * How long the requests of one node context may wait on the service. By default a request
 * waits out what it is told (a 429's hold, 5xx retries, a slow token endpoint). The poll at a
 * trigger's activation may not: n8n gives a workflow's publication a deadline (84 s on n8n
 * 2.41), so there every transient failure fails at once (as a transient failure: the
 * activation keeps the trigger and the next scheduled poll catches up), and holds and blocks
 * learned there still apply to the next polls.
 *
 * A context may also be given a time to wait until (`until`, epoch ms): a trigger's poll has a
 * deadline (n8n's cron starts the next poll at the next tick, and n8n's durable scheduler
 * abandons a poll after 45 s). A wait that would end past it (a 429's hold or Retry-After, a
 * retry's backoff, a held pacer) is not waited: the request fails at once as under failFast,
 * and a request is not given longer than what is left.
 */

export type Patience = 'wait' | 'failFast';

interface Bound {
	patience: Patience;
	/** Epoch ms no wait may end after; Infinity: none. */
	until: number;
}

const patienceOf = new WeakMap<object, Bound>();

/** Sets how the requests of this context (an n8n node context) wait, and until when at most; 'wait' without a time is the default. */
export function setPatience(ctx: object, patience: Patience, until = Number.POSITIVE_INFINITY): void {
	if (patience === 'wait' && until === Number.POSITIVE_INFINITY) patienceOf.delete(ctx);
	else patienceOf.set(ctx, { patience, until });
}

/** How the requests of this context wait. */
export function patience(ctx: object): Patience {
	return patienceOf.get(ctx)?.patience ?? 'wait';
}

/** Until when (epoch ms) the requests of this context may wait; Infinity when no time is set. */
export function waitsUntil(ctx: object): number {
	return patienceOf.get(ctx)?.until ?? Number.POSITIVE_INFINITY;
}
