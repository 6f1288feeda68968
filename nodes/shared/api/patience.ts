// Talking to the API (api/): how long a request of a context may wait; imports nothing.
/**
 * How long the requests of one node context may wait on the service. By default a request
 * waits out what it is told (a 429's hold, 5xx retries, a slow token endpoint). The poll at a
 * trigger's activation may not: n8n gives a workflow's publication a deadline (84 s on n8n
 * 2.41), so there every transient failure fails at once (as a transient failure: the
 * activation keeps the trigger and the next scheduled poll catches up), and holds and blocks
 * learned there still apply to the next polls.
 */

export type Patience = 'wait' | 'failFast';

const patienceOf = new WeakMap<object, Patience>();

/** Sets how the requests of this context (an n8n node context) wait; 'wait' is the default. */
export function setPatience(ctx: object, patience: Patience): void {
	if (patience === 'wait') patienceOf.delete(ctx);
	else patienceOf.set(ctx, patience);
}

/** How the requests of this context wait. */
export function patience(ctx: object): Patience {
	return patienceOf.get(ctx) ?? 'wait';
}
