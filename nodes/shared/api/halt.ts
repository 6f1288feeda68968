// Talking to the API (api/): a run an item's failure ended: items that have sent nothing send nothing; imports nothing.
/**
 * Without Continue On Fail an item's failure ends the run as with one request at a time: no
 * later item (in input order) starts, and the items already sending finish (docs/BEHAVIOUR.md).
 * Twice the Requests in Flight are prepared at once (run/execute.ts), so an item's task may be
 * waiting for the pacer or a request slot when another item fails: whether an item has started
 * is decided where its requests are sent. Once the run is halted at item i, an item after i
 * that has sent no request yet sends none; an item that has goes on (its further calls, pages
 * and retries go out), and so do the items before i.
 */

interface RunState {
	/** The first item (in input order) whose failure halted the run; undefined while it runs on. */
	haltedAt?: number;
	/** The items that have sent a request. */
	readonly sending: Set<number>;
}

const runs = new WeakMap<object, RunState>();

/** Registers a run of items on its context (one node run); returns what halts it at a failing item. */
export function haltableRun(ctx: object): (itemIndex: number) => void {
	const state: RunState = { sending: new Set() };
	runs.set(ctx, state);
	return (itemIndex) => {
		state.haltedAt = Math.min(state.haltedAt ?? itemIndex, itemIndex);
	};
}

/**
 * Whether item `itemIndex` may not send: its run was halted at an earlier item before this one
 * sent anything. Never for a context with no run registered (triggers, pickers) nor for a
 * request of no item.
 */
export function haltedBefore(ctx: object, itemIndex: number | undefined): boolean {
	const state = runs.get(ctx);
	return state?.haltedAt !== undefined && itemIndex !== undefined && itemIndex > state.haltedAt && !state.sending.has(itemIndex);
}

/** Item `itemIndex` sends a request: from now on it has started, and a halt lets it finish. */
export function markSending(ctx: object, itemIndex: number | undefined): void {
	if (itemIndex !== undefined) runs.get(ctx)?.sending.add(itemIndex);
}
