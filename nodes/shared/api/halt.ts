// Talking to the API (api/): a run an item's failure ended: items that have sent nothing send nothing; imports nothing.
/**
 * Without Continue On Fail an item's failure ends the run: no further item starts, and the
 * items already sending finish (docs/BEHAVIOUR.md). Twice the Requests in Flight are prepared
 * at once (run/execute.ts), so an item's task may be waiting for the pacer or a request slot
 * when another item fails: whether an item has started is decided where its requests are sent.
 * Once the run is halted, an item that has sent no request yet sends none; an item that has
 * goes on (its further calls, pages and retries go out).
 */

interface RunState {
	halted: boolean;
	/** The items that have sent a request. */
	readonly sending: Set<number>;
}

const runs = new WeakMap<object, RunState>();

/** Registers a run of items on its context (one node run); returns what halts it. */
export function haltableRun(ctx: object): () => void {
	const state: RunState = { halted: false, sending: new Set() };
	runs.set(ctx, state);
	return () => {
		state.halted = true;
	};
}

/**
 * Whether item `itemIndex` may not send: its run was halted before it sent anything. Never
 * for a context with no run registered (triggers, pickers) nor for a request of no item.
 */
export function haltedBefore(ctx: object, itemIndex: number | undefined): boolean {
	const state = runs.get(ctx);
	return state !== undefined && itemIndex !== undefined && state.halted && !state.sending.has(itemIndex);
}

/** Item `itemIndex` sends a request: from now on it has started, and a halt lets it finish. */
export function markSending(ctx: object, itemIndex: number | undefined): void {
	if (itemIndex !== undefined) runs.get(ctx)?.sending.add(itemIndex);
}
