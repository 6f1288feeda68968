// Running an item (run/): an item whose ids are split into several calls; what became of each record when a call fails.
/**
 * Some operations make several calls for one item: ids split into calls of at most the
 * documented number (print and PDF in parts of 25, trash in parts of 100, Bulk Reminder in
 * calls of 10). The calls go in parallel (bounded by Requests in Flight), and every call's
 * outcome is kept: a failed call does not erase what the others did. A record of a done call
 * is done; one of a failed call is "not sent" when the API refused it or nothing went out, or
 * "outcome unknown" when a write may have been processed (no answer, a 5xx, an answer without
 * evidence); one of a call not made (after a rate-limit block or a stop) is not sent. Ids
 * given twice are sent once.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactTokens } from '../api/nodeErrors';
import {
	isOutcomeUnknown,
	OUTCOME_UNKNOWN,
	outcomeUnknown,
	RateLimitBlockedError,
} from '../api/failureKinds';
import type { RunState } from '../api/run';
import type { Operation } from '../tables/spec';
import { runBounded } from './parallel';
import type { Settled } from './parallel';

/** What to do for one output item per input item (or record), in the words of n8n's node settings. */
export const CONTINUE_ON_FAIL = "set the node's 'On Error' setting to 'Continue'";

/** ` [item 3]` at the end of a message (or `[item 3; ...]` of a run report). */
export const ITEM_MARK = / \[item \d+(;[^\]]*)?\]$/;

/** A message with the item it belongs to appended, ` [item 3]` (n8n's UX guidelines), once. */
export function withItemMark(message: string, itemIndex: number): string {
	return ITEM_MARK.test(message) ? message : `${message} [item ${itemIndex}]`;
}

/** Each id once, in the order first given (a repeated id would be sent, and reported, twice). */
export function uniqueIds<T>(values: readonly T[]): T[] {
	const seen = new Set<string>();
	return values.filter((value) => {
		const key = String(value);
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** The key of one record's id in a per-record output: `invoice_ids` → `invoice_id`, else `id`. */
function recordKey(field: string): string {
	return field.endsWith('_ids') ? field.slice(0, -1) : 'id';
}

/** The calls of one item, all settled: each one's value or failure, or not made (after a rate-limit block or a stop). */
export async function settleCalls<G, R>(
	state: RunState<IExecuteFunctions>,
	groups: readonly G[],
	call: (group: G, index: number) => Promise<R>,
): Promise<Array<Settled<R>>> {
	const ctx = state.ctx;
	const signal = ctx.getExecutionCancelSignal?.();
	// one call (most operations): its outcome without the pool's bookkeeping
	if (groups.length === 1 && !signal?.aborted) {
		try {
			return [{ state: 'done', value: await call(groups[0], 0) }];
		} catch (error) {
			return [{ state: 'failed', error }];
		}
	}
	// A failed call does not stop the others (their outcome does not depend on Requests in Flight); a rate-limit block does.
	return await runBounded(groups.length, async (index) => await call(groups[index], index), {
		width: state.options.requestsInFlight,
		signal,
		stopsOn: (error) => error instanceof RateLimitBlockedError,
	});
}

/** Nothing done and one call failed: that failure is thrown as a single call's would be (the item's error, not a per-record report). */
export function throwLoneFailure(settled: ReadonlyArray<Settled<unknown>>): void {
	if (settled.some((s) => s.state === 'done')) return;
	const failures = settled.flatMap((s) => (s.state === 'failed' ? [s.error] : []));
	if (failures.length === 1) throw failures[0];
}

/** What became of the records of a call that was not done: `{ <key>: id, sent: false | null, error }` each. */
export function undoneRecords(
	op: Operation,
	key: string,
	ids: readonly string[],
	outcome: Settled<unknown>,
): IDataObject[] {
	let sent: false | null = false;
	let error: string;
	if (outcome.state === 'failed') {
		const reason = redactTokens(String((outcome.error as Error)?.message ?? outcome.error));
		if (op.method !== 'GET' && isOutcomeUnknown(outcome.error)) {
			sent = null;
			error = reason.startsWith('Outcome unknown') ? reason : `Outcome unknown: ${reason}`;
		} else error = `${op.method === 'GET' ? 'Not done' : 'Not sent'}: ${reason}`;
	} else
		error =
			'Not sent: this call was not made, because the rate limit blocked further requests or the run was stopped';
	return ids.map((id) => failureJson({ [key]: id, sent, error }));
}

/** `A, B, C` (at most `max` named, then how many more). */
function idList(ids: readonly string[], max = 200): string {
	if (!ids.length) return 'none';
	return ids.length > max
		? `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`
		: ids.join(', ');
}

/**
 * The output of an item whose ids went out in several calls. All done: each call's output, in
 * order. Nothing done and one call failed: that failure, as a single call's. Otherwise, with
 * Continue On Fail, the done calls' outputs and one error item per record not done; without
 * it, an error that names the records done, not sent and of unknown outcome by id.
 */
export function splitOutcome(
	ctx: IExecuteFunctions,
	op: Operation,
	field: string,
	groups: ReadonlyArray<readonly string[]>,
	settled: Array<Settled<INodeExecutionData[]>>,
	itemIndex: number,
): INodeExecutionData[] {
	const failures = settled.flatMap((s) => (s.state === 'failed' ? [s.error] : []));
	if (!failures.length && settled.every((s) => s.state === 'done'))
		return settled.flatMap((s) => (s.state === 'done' ? s.value : []));
	const signal = ctx.getExecutionCancelSignal?.();
	if (!failures.length) throw signal?.reason ?? new Error('The execution was stopped');
	throwLoneFailure(settled);
	const key = recordKey(field);
	const done: string[] = [];
	const undone: IDataObject[] = [];
	const out: INodeExecutionData[] = [];
	settled.forEach((s, index) => {
		if (s.state === 'done') {
			done.push(...groups[index]);
			out.push(...s.value);
		} else {
			const records = undoneRecords(op, key, groups[index], s);
			undone.push(...records);
			out.push(...records.map((json) => ({ json })));
		}
	});
	if (ctx.continueOnFail()) return out;
	throw notAllDone(ctx, op, field, {
		done,
		undone,
		key,
		total: done.length + undone.length,
		failure: failures[0],
		itemIndex,
	});
}

/** The error of an item whose calls were partly done: the headline says what is unknown or not sent, the description names every id. */
function notAllDone(
	ctx: IExecuteFunctions,
	op: Operation,
	field: string,
	report: {
		done: string[];
		undone: IDataObject[];
		key: string;
		total: number;
		failure: unknown;
		itemIndex: number;
	},
): NodeApiError {
	const { done, undone, key, total, failure, itemIndex } = report;
	const unknown = undone.filter((r) => r.sent === null).map((r) => String(r[key]));
	const notSent = undone.filter((r) => r.sent === false).map((r) => String(r[key]));
	const verb = op.method === 'GET' ? 'done' : 'sent';
	const reason = redactTokens(String((failure as Error)?.message ?? failure));
	const cause = reason.startsWith(`${OUTCOME_UNKNOWN}: `)
		? reason.slice(OUTCOME_UNKNOWN.length + 2)
		: reason;
	const message = [
		unknown.length ? `Outcome unknown for ${unknown.length} of ${total} ${field}` : '',
		notSent.length
			? `${unknown.length ? 'not' : 'Not'} ${verb} for ${notSent.length} of ${total} ${field}`
			: '',
	]
		.filter(Boolean)
		.join(', ');
	const description = [
		`Done (${done.length}): ${idList(done)}.`,
		notSent.length ? `Not ${verb} (${notSent.length}): ${idList(notSent)}.` : '',
		unknown.length
			? `Outcome unknown (${unknown.length}, not repeated: check them before running again): ${idList(unknown)}.`
			: '',
		`Why the first call was not done: ${reason}.`,
		done.length
			? `Running the workflow again repeats the done ones: run only the others, or ${CONTINUE_ON_FAIL} to get one output item per record.`
			: '',
	]
		.filter(Boolean)
		.join(' ');
	const httpCode = (failure as NodeApiError)?.httpCode ?? undefined;
	const error = new NodeApiError(
		ctx.getNode(),
		{ message, ...(httpCode ? { httpCode } : {}) },
		{ message: `${message}: ${cause}`, description, itemIndex, ...(httpCode ? { httpCode } : {}) },
	);
	return unknown.length ? outcomeUnknown(error) : error;
}

/** The json of output items that tell a failure (error items), as the node made them. */
const failures = new WeakSet<IDataObject>();

/** Marks an output item's json as telling a failure: with On Error "Continue (using error output)" it goes to the error output. */
export function failureJson(json: IDataObject): IDataObject {
	failures.add(json);
	return json;
}

/** An error as an output item's json (Continue On Fail): its message, description and HTTP code. */
export function errorJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	return failureJson(json);
}

/**
 * The output for n8n's On Error setting. With "Continue (using error output)" n8n moves an
 * item to the error output only when its json holds nothing but `error` (n8n-core
 * `handleNodeErrorOutput`; an item's own `error` member would do too, but n8n then replaces its
 * json by the bare message): so there each error item's json becomes `{ error: { message, ...the
 * rest it holds } }`, the same members under `error`, and every success stays on the main output.
 * Otherwise (Continue, or no continuing) the items are as made.
 */
export function forErrorOutput(
	ctx: IExecuteFunctions,
	out: INodeExecutionData[],
): INodeExecutionData[] {
	if (ctx.getNode().onError !== 'continueErrorOutput') return out;
	return out.map((item) => {
		if (!failures.has(item.json)) return item;
		const { error, ...rest } = item.json;
		return { ...item, json: { error: { message: error, ...rest } } };
	});
}

/**
 * A list's records, one output item each, read page by page up to `limit`. A page that fails
 * after others were read does not erase them: with Continue On Fail they are output, followed
 * by an error item saying where the list stopped; without it the error says how many were read.
 */
export async function readList(
	ctx: IExecuteFunctions,
	pages: AsyncIterable<{ entries: IDataObject[] }>,
	limit = Infinity,
): Promise<INodeExecutionData[]> {
	const records: INodeExecutionData[] = [];
	let read = 0;
	let failure: unknown;
	try {
		for await (const { entries } of pages) {
			read++;
			for (const json of entries) records.push({ json });
			if (records.length >= limit) break;
		}
	} catch (error) {
		failure = error;
	}
	if (failure === undefined) return records.length > limit ? records.slice(0, limit) : records;
	if (
		!records.length ||
		!(failure instanceof NodeApiError || failure instanceof NodeOperationError)
	)
		throw failure;
	const stopped = `The list stopped after page ${read}: the ${records.length} record(s) of pages 1-${read} were read; the rest were not. A list writes nothing, so running it again is safe.`;
	failure.description = `${failure.description ? `${failure.description} ` : ''}${stopped}`;
	if (!ctx.continueOnFail()) throw failure;
	const json = errorJson(failure);
	const itemIndex = failure.context?.itemIndex;
	if (typeof itemIndex === 'number') json.error = withItemMark(String(json.error), itemIndex);
	return [...records, { json: failureJson({ ...json, recordsRead: records.length }) }];
}
