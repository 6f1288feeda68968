// Running an item (run/): owns the per-item loop and executeArea; features plug in as ItemParts; imports tables/ and api/.
/**
 * The per-item loop every node runs: read and validate the fields, send (split into
 * batches, paged, as a file), shape the output, pair it with its input item, and with
 * `continueOnFail` turn one failing item into an error item while the others go on.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { RateLimitBlockedError } from '../api/failureKinds';
import { doneItem, rememberItem, withReplayNote } from '../api/replay';
import { RunState } from '../api/run';
import type { Area } from '../tables/spec';
import { errorJson, forErrorOutput } from './calls';
import { withCurrentValues } from './current';
import { runBounded } from './parallel';
import type { BoundedOptions, Settled } from './parallel';
import { ItemReader } from './reader';
import { blockReport, itemError, pairedWith, stoppedError, withRunReport } from './report';
import { runStandard } from './standard';
import type { ItemPart, OperationRun, Special } from './types';

/**
 * What a write reads first (the record's current values, the estimate an invoice is made
 * from): when that read fails, the write is not sent, and the error says so first.
 */
export async function readBeforeWrite<T>(what: string, read: Promise<T>): Promise<T> {
	return await read.catch((error: unknown) => {
		if (error instanceof NodeApiError) {
			error.message = `Not sent: ${what} did not succeed: ${error.message}`;
			error.description = `${error.description ? `${error.description} ` : ''}Nothing was written.`;
		}
		throw error;
	});
}

/**
 * The work of one input item: read and check its values, send, and return its output
 * (paired with the item by the caller). Items run in parallel: everything here reads
 * only this item's parameters.
 */
async function runItem(
	state: RunState<IExecuteFunctions>,
	area: Area,
	specials: Record<string, Special>,
	itemIndex: number,
	parts: readonly ItemPart[] = [],
	reader: ItemReader = new ItemReader(state.ctx, area, parts),
): Promise<INodeExecutionData[]> {
	const ctx = state.ctx;
	const taker = reader.takerOf(itemIndex);
	if (taker?.run) return await taker.run(state, area, itemIndex);
	const { resource, op, values: given, organizationId } = reader.planOf(itemIndex);
	const values = await readBeforeWrite(
		`reading the current ${resource.name.toLowerCase()} (to resend the fields left out)`,
		withCurrentValues(state, area, resource, op, given, organizationId, itemIndex),
	);
	reader.check(op, values, itemIndex);
	const setting = (name: string, fallback: unknown) => reader.setting(name, itemIndex, fallback);
	const run: OperationRun = {
		state,
		area,
		resource,
		op,
		values,
		organizationId,
		itemIndex,
		parts,
		setting,
	};
	const handler = op.special ? specials[op.special] : undefined;
	return handler ? await handler(ctx, run) : await runStandard(ctx, run);
}

/** The whole `execute()` of an area's node: the items in parallel (Options → Requests in Flight), the output in input order. */
export async function executeArea(
	ctx: IExecuteFunctions,
	area: Area,
	specials: Record<string, Special> = {},
	parts: readonly ItemPart[] = [],
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (!items.length) return [[]];
	// the state of this run, handed to every request of its items (api/run.ts)
	const state = new RunState(ctx);
	const continueOnFail = ctx.continueOnFail();
	const signal = ctx.getExecutionCancelSignal?.();
	const reader = new ItemReader(ctx, area, parts);
	const settled = await runItems(
		state,
		items.length,
		async (itemIndex) => await runItem(state, area, specials, itemIndex, parts, reader),
		{
			width: itemTasks(state),
			// Without continue-on-fail a failure ends the run; a rate-limit block always stops starting items.
			stopsOn: (error) => !continueOnFail || error instanceof RateLimitBlockedError,
			// and an item prepared but not yet sending sends nothing (the run's halt, api/run.ts)
			onStop: (itemIndex) => state.halt(itemIndex),
			signal,
		},
	);
	const blocks = settled.flatMap((s) =>
		s.state === 'failed' && s.error instanceof RateLimitBlockedError ? [s.error] : [],
	);
	if (signal?.aborted && !blocks.length && settled.some((s) => s.state !== 'done'))
		throw stoppedError(ctx, settled);
	if (blocks.length) {
		const report = blockReport(ctx, settled, blocks);
		if (!continueOnFail) throw report.error;
		return [forErrorOutput(ctx, settled.map((s, itemIndex) => report.itemOf(s, itemIndex)).flat())];
	}
	const out: INodeExecutionData[] = [];
	for (const [itemIndex, outcome] of settled.entries()) {
		if (outcome.state === 'done') {
			for (const result of pairedWith(outcome.value, itemIndex)) out.push(result);
		} else if (outcome.state === 'failed') {
			const error = withReplayNote(
				state.replay,
				itemIndex,
				itemError(ctx, outcome.error, itemIndex),
			);
			if (!continueOnFail) throw withRunReport(ctx, area, error, settled, itemIndex);
			out.push({ json: errorJson(error), pairedItem: { item: itemIndex } });
		}
	}
	return [forErrorOutput(ctx, out)];
}

/**
 * The items in order, each run by `task`, except those an earlier try of this node run did
 * (n8n's Retry On Fail, api/replay.ts): they keep the output they had, without a call, and
 * count as done in the run's report, whichever try did them.
 */
async function runItems(
	state: RunState<IExecuteFunctions>,
	count: number,
	task: (itemIndex: number) => Promise<INodeExecutionData[]>,
	options: BoundedOptions,
): Promise<Array<Settled<INodeExecutionData[]>>> {
	const earlier = Array.from({ length: count }, (_, itemIndex) =>
		doneItem<INodeExecutionData[]>(state.replay, itemIndex),
	);
	const pending = earlier.flatMap((output, itemIndex) => (output === undefined ? [itemIndex] : []));
	const ran = await runBounded(pending.length, async (k) => await task(pending[k]), {
		...options,
		onStop: (k) => options.onStop?.(pending[k]),
	});
	const settled = earlier.map(
		(output): Settled<INodeExecutionData[]> =>
			output === undefined ? { state: 'notStarted' } : { state: 'done', value: output },
	);
	pending.forEach((itemIndex, k) => {
		settled[itemIndex] = ran[k];
	});
	settled.forEach((outcome, itemIndex) => {
		if (outcome.state === 'done') rememberItem(state.replay, itemIndex, outcome.value);
	});
	return settled;
}

/** Item tasks at once: twice the requests in flight, so a prepared item is ready when a request slot frees. */
function itemTasks(state: RunState<IExecuteFunctions>): number {
	return 2 * state.options.requestsInFlight;
}
