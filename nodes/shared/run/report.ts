// Running an item (run/): the run report, what became of every item when a run ends on an error, a block or a stop.
/**
 * How a run's outcome is told: an item's failure naming the item, the items' results paired
 * with their input item, and the report of a run that ends early (an item's error, a
 * rate-limit block, a stop) saying which items were done, failed or not sent.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RateLimitBlockedError } from '../api/failureKinds';
import { inputFailure } from '../api/nodeErrors';
import type { Area } from '../tables/spec';
import { CONTINUE_ON_FAIL, errorJson, failureJson, ITEM_MARK, withItemMark } from './calls';
import { indexRanges } from './parallel';
import type { Settled } from './parallel';

/** An item's failure as the node reports it (NodeApiError / NodeOperationError naming the item, its message ending with `[item X]`). */
export function itemError(
	ctx: IExecuteFunctions,
	caught: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const error =
		caught instanceof NodeApiError || caught instanceof NodeOperationError
			? caught
			: inputFailure(ctx.getNode(), caught, { itemIndex });
	if (error.context) error.context.itemIndex = itemIndex;
	error.message = withItemMark(error.message, itemIndex);
	return error;
}

/**
 * An item's results paired with it, sharing one `pairedItem` (as n8n's own helper does). Each
 * is a new object of one of two fixed shapes: made by spreading, the objects of a long list
 * (Return All) each got a hidden class of their own, about 170 bytes more per record kept.
 */
export function pairedWith(results: INodeExecutionData[], itemIndex: number): INodeExecutionData[] {
	const pairedItem = { item: itemIndex };
	return results.map((r) => {
		if (!onlyJsonAndBinary(r)) return { ...r, pairedItem };
		return r.binary ? { json: r.json, binary: r.binary, pairedItem } : { json: r.json, pairedItem };
	});
}

/** Whether a result holds nothing but `json` and `binary` (looked at without making a list of its keys). */
function onlyJsonAndBinary(result: INodeExecutionData): boolean {
	for (const key in result) if (key !== 'json' && key !== 'binary') return false;
	return true;
}

/** `item 0: payment_id 1001` for done items whose output carries their resource's id (at most 20 listed). */
function doneIds(
	ctx: IExecuteFunctions,
	area: Area,
	settled: Array<Settled<INodeExecutionData[]>>,
	done: number[],
): string {
	const notes: string[] = [];
	for (const itemIndex of done) {
		const outcome = settled[itemIndex];
		const resource = area.resources.find(
			(r) => r.value === ctx.getNodeParameter('resource', itemIndex, ''),
		);
		const idField = resource?.idField;
		if (outcome.state !== 'done' || !idField) continue;
		const ids = outcome.value
			.map((result) => result.json[idField])
			.filter((id) => id !== undefined && id !== null && id !== '');
		if (ids.length) notes.push(`item ${itemIndex}: ${idField} ${ids.map(String).join(', ')}`);
	}
	if (!notes.length) return '';
	return ` (${notes.slice(0, 20).join('; ')}${notes.length > 20 ? `; and ${notes.length - 20} more` : ''})`;
}

/**
 * A run of several items that ends on an item's error (no Continue On Fail): the error keeps
 * its headline and says what became of every item, as the rate-limit block report does, so
 * nothing done is hidden and a run again does not repeat writes unseen.
 */
export function withRunReport(
	ctx: IExecuteFunctions,
	area: Area,
	error: NodeApiError | NodeOperationError,
	settled: Array<Settled<INodeExecutionData[]>>,
	itemIndex: number,
) {
	if (settled.length < 2) return error;
	const { done, failed, notStarted: notSent } = itemStates(settled);
	error.message = `${error.message.replace(ITEM_MARK, '')} [item ${itemIndex}; ${done.length} of ${settled.length} items done, ${notSent.length} not sent]`;
	const report = [
		`Done: ${itemsPhrase(done)}${doneIds(ctx, area, settled, done)}.`,
		`Not done or outcome unknown: ${itemsPhrase(failed)}.`,
		`Not sent: ${itemsPhrase(notSent)}${notSent.length ? ' (nothing was sent for them)' : ''}.`,
		done.length
			? `Running the workflow again repeats the done items: run only the others, or ${CONTINUE_ON_FAIL} to get one output item per input item.`
			: '',
	]
		.filter(Boolean)
		.join(' ');
	error.description = `${error.description ? `${error.description} ` : ''}${report}`;
	return error;
}

function indexesWhere(
	settled: Array<Settled<INodeExecutionData[]>>,
	test: (s: Settled<INodeExecutionData[]>) => boolean,
): number[] {
	return settled.flatMap((s, i) => (test(s) ? [i] : []));
}

function itemsPhrase(indexes: number[]): string {
	return indexes.length
		? `${indexes.length === 1 ? 'item' : 'items'} ${indexRanges(indexes)}`
		: 'none';
}

/** The items of a run by what became of them. */
function itemStates(settled: Array<Settled<INodeExecutionData[]>>): {
	done: number[];
	failed: number[];
	notStarted: number[];
} {
	return {
		done: indexesWhere(settled, (s) => s.state === 'done'),
		failed: indexesWhere(settled, (s) => s.state === 'failed'),
		notStarted: indexesWhere(settled, (s) => s.state === 'notStarted'),
	};
}

export function stoppedError(
	ctx: IExecuteFunctions,
	settled: Array<Settled<INodeExecutionData[]>>,
): NodeOperationError {
	const { done, failed, notStarted } = itemStates(settled);
	// "canceled" in the message: n8n then records the execution as canceled, not failed.
	return new NodeOperationError(ctx.getNode(), 'The execution was canceled', {
		description: `Stopped before all items ran. Done: ${itemsPhrase(done)}.${failed.length ? ` Not done, outcome unknown or stopped in flight: ${itemsPhrase(failed)}.` : ''} Not started: ${itemsPhrase(notStarted)}.`,
	});
}

/**
 * A rate-limit block during the run: one error saying when the block lifts, which items
 * were done and which were not sent; with continue-on-fail the done items' outputs, an
 * error item per failed item and a "not sent" error item per item the block stopped.
 */
export function blockReport(
	ctx: IExecuteFunctions,
	settled: Array<Settled<INodeExecutionData[]>>,
	blocks: RateLimitBlockedError[],
) {
	const until = Math.max(...blocks.map((b) => b.until));
	const lifts = new Date(until).toISOString().replace(/\.\d{3}Z$/, 'Z');
	const isUnsent = (s: Settled<INodeExecutionData[]>) =>
		s.state === 'notStarted' || (s.state === 'failed' && s.error instanceof RateLimitBlockedError);
	const done = indexesWhere(settled, (s) => s.state === 'done');
	const unsent = indexesWhere(settled, isUnsent);
	// Failed items include items of a split operation with some calls done before the block (partly sent).
	const failed = indexesWhere(settled, (s) => s.state === 'failed' && !isUnsent(s));
	const error = new RateLimitBlockedError(ctx.getNode(), until);
	error.message = `The Vendor API blocks further requests until ${lifts}: ${done.length} of ${settled.length} items done, ${unsent.length} not sent`;
	error.description = [
		`Done: ${itemsPhrase(done)}.`,
		`Not sent: ${itemsPhrase(unsent)} (nothing was sent for them: run them again after ${lifts}).`,
		failed.length ? `Not done, outcome unknown or partly sent: ${itemsPhrase(failed)}.` : '',
		'The rate limit was used up (perhaps by another client sharing it). To wait instead, set Options → On Rate-Limit Block to "Wait Until It Lifts".',
	]
		.filter(Boolean)
		.join(' ');
	const itemOf = (s: Settled<INodeExecutionData[]>, itemIndex: number): INodeExecutionData[] => {
		const pairedItem = { item: itemIndex };
		if (s.state === 'done') return pairedWith(s.value, itemIndex);
		if (isUnsent(s)) {
			return [
				{
					json: failureJson({
						error: `Not sent: the Vendor API blocks further requests until ${lifts} [item ${itemIndex}]`,
						description: `Nothing was sent for this item. Run it again after ${lifts}.`,
						httpCode: '429',
						notSent: true,
						blockedUntil: lifts,
					}),
					pairedItem,
				},
			];
		}
		const error = s.state === 'failed' ? s.error : undefined;
		return [{ json: errorJson(itemError(ctx, error, itemIndex)), pairedItem }];
	};
	return { error, itemOf };
}
