// Running an item (run/): owns the per-item loop and the pickers (listSearch); features plug in as ItemParts; imports tables/ and api/.
/**
 * The per-item loop every node runs: read and validate the fields, send (split into
 * batches, paged, as a file), shape the output, pair it with its input item, and with
 * `continueOnFail` turn one failing item into an error item while the others go on.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RateLimitBlockedError } from '../api/failures';
import { readRunOptions } from '../api/options';
import { answerRecords, apiWords, assertNotRefused, fileNameFrom, hasMore, listPages, unwrap } from '../api/pages';
import { buildRequest, InputError, inputFailure, nodeRequest, readValues } from '../api/request';
import type { ApiRequest } from '../api/request';
import { multipart, vendorRequest } from '../api/transport';
import type { VendorContext } from '../api/transport';
import { searchMethodName } from '../tables/naming';
import { ORGANIZATION, ORGANIZATIONS_LIST } from '../tables/organizations';
import type { Area, Operation, Resource } from '../tables/spec';
import { checkValues } from '../tables/validate';
import { readFirstNote, withCurrentValues } from './current';
import { errorJson, readList, settleCalls, splitOutcome, uniqueIds } from './calls';
import { indexRanges, runBounded } from './parallel';
import type { Settled } from './parallel';

export interface OperationRun {
	area: Area;
	resource: Resource;
	op: Operation;
	/** The operation's values in API shape, validated. */
	values: IDataObject;
	organizationId?: string;
	itemIndex: number;
	/** The parts plugged into the loop; their `shapeOutput` shapes the standard output. */
	parts?: readonly ItemPart[];
	/** A plain parameter of this item (string, number or boolean), read once per run when every item reads the same. */
	setting: (name: string, fallback: unknown) => unknown;
}

/**
 * What a feature (Custom API Call, Simplify) adds to the item loop, plugged in by the
 * composition root: an item it runs itself instead of an operation (`takes` / `run`), or a
 * last shaping of an operation's standard output.
 */
export interface ItemPart {
	takes?(ctx: IExecuteFunctions, itemIndex: number): boolean;
	run?(ctx: IExecuteFunctions, area: Area, itemIndex: number): Promise<INodeExecutionData[]>;
	shapeOutput?(ctx: IExecuteFunctions, run: OperationRun, out: INodeExecutionData[]): INodeExecutionData[];
}

/** Hand-written behaviour for an operation marked `special` in its table. */
export type Special = (ctx: IExecuteFunctions, run: OperationRun) => Promise<INodeExecutionData[]>;

export function findOperation(area: Area, resourceValue: string, operationValue: string): { resource: Resource; op: Operation } {
	const resource = area.resources.find((r) => r.value === resourceValue);
	const op = resource?.operations.find((o) => o.value === operationValue);
	if (!resource || !op) throw new InputError(`Unknown operation "${operationValue}" of resource "${resourceValue}"`);
	return { resource, op };
}

/** Refuses values that break a table rule, naming each field and rule; nothing is sent. */
export function assertValid(ctx: IExecuteFunctions, op: Operation, values: IDataObject, itemIndex: number): void {
	try {
		checkValues(op, values);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { itemIndex });
	}
}

/** Splits an array into chunks of at most `size`. */
export function chunk<T>(list: T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
	return out;
}

async function send(ctx: IExecuteFunctions, run: OperationRun, req: ApiRequest, binary = false): Promise<unknown> {
	return (await vendorRequest(ctx, run.area, req, { itemIndex: run.itemIndex, binary })).body;
}

async function fetchList(ctx: IExecuteFunctions, run: OperationRun, req: ApiRequest): Promise<INodeExecutionData[]> {
	const { op, itemIndex } = run;
	const returnAll = run.setting('returnAll', false) as boolean;
	const limit = returnAll ? Infinity : (run.setting('limit', 50) as number);
	const pageSize = Math.max(1, Math.min(op.perPage ?? 200, limit));
	return await readList(ctx, listPages(ctx, run.area, op, req, pageSize, itemIndex, run.resource.idField), limit);
}

function numbered(fileName: string, index: number, total: number): string {
	if (total <= 1) return fileName;
	const dot = fileName.lastIndexOf('.');
	return dot > 0 ? `${fileName.slice(0, dot)}-${index + 1}${fileName.slice(dot)}` : `${fileName}-${index + 1}`;
}

async function fetchFile(ctx: IExecuteFunctions, run: OperationRun, req: ApiRequest, part: number, parts: number): Promise<INodeExecutionData> {
	const { op, itemIndex } = run;
	const res = await vendorRequest(ctx, run.area, req, { itemIndex, binary: true });
	const ids = op.batch ? run.values[op.batch.field] : undefined;
	if (!Buffer.isBuffer(res.body)) {
		// a code-0 refusal says which value was refused; any other answer shows its code and message
		assertNotRefused(ctx.getNode(), res.body, itemIndex, req.qs);
		const detail = ids ? ` for ${op.batch?.field} ${String(req.qs[op.batch?.field ?? ''] ?? '')}` : '';
		const message = `No file was returned${detail}: the Vendor API answered ${apiWords(res.body)}`;
		throw new NodeApiError(ctx.getNode(), { message }, { message, description: 'A file was expected; the answer holds none.', httpCode: String(res.statusCode), itemIndex });
	}
	const spec = op.binaryOutput ?? { mimeType: 'application/octet-stream', fileName: 'file' };
	const mimeType = String(res.headers['content-type'] ?? spec.mimeType).split(';')[0];
	const fileName = numbered(fileNameFrom(res.headers, spec.fileName), part, parts);
	const property = ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const binary = await ctx.helpers.prepareBinaryData(res.body, fileName, mimeType);
	const json: IDataObject = { fileName, mimeType, fileSize: res.body.length };
	if (op.batch) json[op.batch.field] = String(req.qs[op.batch.field] ?? '').split(',');
	return { json, binary: { [property]: binary } };
}

/** The file to upload, checked against the allowed extensions before anything is sent. */
export async function readUpload(ctx: IExecuteFunctions, run: OperationRun): Promise<{ field: string; fileName: string; mimeType: string; data: Buffer } | undefined> {
	const spec = run.op.binaryInput;
	if (!spec) return undefined;
	const property = String(ctx.getNodeParameter('binaryPropertyName', run.itemIndex, '') ?? '').trim();
	if (!property) {
		if (spec.required === false) return undefined;
		throw new NodeOperationError(ctx.getNode(), 'Input Binary Field is required', { itemIndex: run.itemIndex });
	}
	const meta = ctx.helpers.assertBinaryData(run.itemIndex, property);
	const fileName = meta.fileName ?? `file.${meta.fileExtension ?? ''}`;
	const extension = (fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : meta.fileExtension ?? '').toLowerCase();
	if (!spec.extensions.includes(extension)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The file "${fileName}" has the extension "${extension ? `.${extension}` : '(none)'}", which the API does not accept for "${spec.field}": allowed are ${spec.extensions.map((e) => `.${e}`).join(', ')}`,
			{ itemIndex: run.itemIndex, description: 'Nothing was sent to the API.' },
		);
	}
	const data = await ctx.helpers.getBinaryDataBuffer(run.itemIndex, property);
	return { field: spec.field, fileName, mimeType: meta.mimeType, data };
}

/**
 * The records an answer carries as evidence that the operation was done; otherwise an error
 * with the API's code and message (a code-0 refusal, an answer without the documented record
 * or list: `answerRecords`).
 */
export function checkAnswer(ctx: IExecuteFunctions, run: OperationRun, body: unknown, values: IDataObject): IDataObject[] {
	return answerRecords(ctx.getNode(), run.area, run.op, body, { itemIndex: run.itemIndex, values });
}

/** What an operation does when its table says all there is to say. */
export async function runStandard(ctx: IExecuteFunctions, run: OperationRun, values: IDataObject = run.values): Promise<INodeExecutionData[]> {
	const { area, op } = run;
	const batchField = op.batch?.field;
	const batchValues = batchField && Array.isArray(values[batchField]) ? uniqueIds(values[batchField] as unknown[]) : undefined;
	const groups = batchValues && op.batch ? chunk(batchValues, op.batch.size) : [undefined];
	// Read (and checked) once; an optional file left out sends plain JSON, the documents' convention.
	const file = await readUpload(ctx, run);
	// The calls of a split operation go in parallel (bounded by the requests in flight); each call's outcome is kept.
	const settled = await settleCalls(ctx, groups, async (group, index): Promise<INodeExecutionData[]> => {
		const callValues = group && batchField ? { ...values, [batchField]: group as IDataObject[] } : values;
		const req = buildRequest(area, op, callValues, run.organizationId);
		if (op.binaryOutput) return [await fetchFile(ctx, run, req, index, groups.length)];
		if (op.kind === 'list') return await fetchList(ctx, run, req);
		let body: unknown;
		if (file) {
			const fields: Record<string, string> = req.body && typeof req.body === 'object' ? { JSONString: JSON.stringify(req.body) } : {};
			body = (await vendorRequest(ctx, area, { ...req, body: undefined }, { itemIndex: run.itemIndex, multipart: multipart(file, fields) })).body;
		} else body = await send(ctx, run, req);
		const records = checkAnswer(ctx, run, body, callValues);
		// a read-first update: what its answer shows of a change by someone else since the read
		const note = records.length === 1 ? readFirstNote(values, records[0]) : undefined;
		if (note) records[0] = { ...records[0], ...note };
		// an answer of a split operation says which ids it answers for
		return group && batchField && !op.responseKey ? records.map((json) => ({ json: { ...json, [batchField]: group.map(String) } })) : records.map((json) => ({ json }));
	});
	const ids = groups.map((group) => (group ?? []).map(String));
	const out = splitOutcome(ctx, op, batchField ?? 'ids', ids, settled, run.itemIndex);
	return (run.parts ?? []).reduce((shaped, part) => (part.shapeOutput ? part.shapeOutput(ctx, run, shaped) : shaped), out);
}

/** An item's operation and values as its parameters give them (before any read of the record). */
interface ItemPlan {
	resource: Resource;
	op: Operation;
	values: IDataObject;
	organizationId?: string;
}

/** Whether any parameter (at any depth) is an expression: n8n marks one with a leading `=`. */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * How a node run reads its items. When no parameter is an expression every item reads what
 * item 0 reads, so the operation, its values and their check are read once per run, not per
 * item (n8n resolves and copies each parameter on every read). A failed read is not kept:
 * each item then reports its own error.
 */
export class ItemReader {
	/** Every item reads the same parameters. */
	private readonly same: boolean;

	private taker?: { part: ItemPart | undefined };

	private plan?: ItemPlan;

	/** Values objects checked already (the same object is the same values). */
	private readonly checked = new WeakSet<IDataObject>();

	/** Plain parameters read already, by name (only when every item reads the same). */
	private readonly settings = new Map<string, unknown>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly area: Area,
		private readonly parts: readonly ItemPart[],
	) {
		this.same = !hasExpression(ctx.getNode().parameters);
	}

	/** The part that runs this item itself (Custom API Call), if one does. */
	takerOf(itemIndex: number): ItemPart | undefined {
		if (this.taker) return this.taker.part;
		const part = this.parts.find((p) => p.run && p.takes?.(this.ctx, itemIndex));
		if (this.same) this.taker = { part };
		return part;
	}

	/** The item's operation and values (read once when every item reads the same). */
	planOf(itemIndex: number): ItemPlan {
		if (this.plan) return this.plan;
		const { ctx, area } = this;
		const { resource, op } = findOperation(area, ctx.getNodeParameter('resource', itemIndex) as string, ctx.getNodeParameter('operation', itemIndex) as string);
		const values = readValues(ctx, itemIndex, op);
		let organizationId: string | undefined;
		if (area.org) {
			organizationId = String(ctx.getNodeParameter('organizationId', itemIndex, '', { extractValue: true }) ?? '').trim();
			if (!organizationId) throw new InputError('Organization ID is required');
		}
		const plan = { resource, op, values, organizationId };
		if (this.same) this.plan = plan;
		return plan;
	}

	/** A plain parameter (string, number, boolean) of the item; every caller of a name gives the same fallback. */
	setting(name: string, itemIndex: number, fallback: unknown): unknown {
		if (this.settings.has(name)) return this.settings.get(name);
		const value = this.ctx.getNodeParameter(name, itemIndex, fallback);
		if (this.same && (value === null || typeof value !== 'object')) this.settings.set(name, value);
		return value;
	}

	/** Refuses values that break a table rule (each values object is checked once). */
	check(op: Operation, values: IDataObject, itemIndex: number): void {
		if (this.checked.has(values)) return;
		assertValid(this.ctx, op, values, itemIndex);
		this.checked.add(values);
	}
}

/**
 * What a write reads first (the record's current values, the estimate an invoice is made
 * from): when that read fails, the write is not sent, and the error says so first.
 */
export async function readBeforeWrite<T>(what: string, read: Promise<T>): Promise<T> {
	return await read.catch((error: unknown) => {
		if (error instanceof NodeApiError) {
			error.message = `Not sent: ${what} failed: ${error.message}`;
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
export async function runItem(
	ctx: IExecuteFunctions,
	area: Area,
	specials: Record<string, Special>,
	itemIndex: number,
	parts: readonly ItemPart[] = [],
	reader: ItemReader = new ItemReader(ctx, area, parts),
): Promise<INodeExecutionData[]> {
	const taker = reader.takerOf(itemIndex);
	if (taker?.run) return await taker.run(ctx, area, itemIndex);
	const { resource, op, values: given, organizationId } = reader.planOf(itemIndex);
	const values = await readBeforeWrite(`reading the current ${resource.name.toLowerCase()} (to resend the fields left out)`, withCurrentValues(ctx, area, resource, op, given, organizationId, itemIndex));
	reader.check(op, values, itemIndex);
	const setting = (name: string, fallback: unknown) => reader.setting(name, itemIndex, fallback);
	const run: OperationRun = { area, resource, op, values, organizationId, itemIndex, parts, setting };
	const handler = op.special ? specials[op.special] : undefined;
	return handler ? await handler(ctx, run) : await runStandard(ctx, run);
}

/** An item's failure as the node reports it (NodeApiError / NodeOperationError naming the item). */
function itemError(ctx: IExecuteFunctions, caught: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	const error =
		caught instanceof NodeApiError || caught instanceof NodeOperationError
			? caught
			: inputFailure(ctx.getNode(), caught, { itemIndex });
	if (error.context) error.context.itemIndex = itemIndex;
	return error;
}

/** The whole `execute()` of an area's node: the items in parallel (Options → Requests in Flight), the output in input order. */
export async function executeArea(ctx: IExecuteFunctions, area: Area, specials: Record<string, Special> = {}, parts: readonly ItemPart[] = []): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	if (!items.length) return [[]];
	const continueOnFail = ctx.continueOnFail();
	const signal = ctx.getExecutionCancelSignal?.();
	const reader = new ItemReader(ctx, area, parts);
	const settled = await runBounded(items.length, async (itemIndex) => await runItem(ctx, area, specials, itemIndex, parts, reader), {
		width: itemTasks(ctx),
		// Without continue-on-fail a failure ends the run; a rate-limit block always stops starting items.
		stopsOn: (error) => !continueOnFail || error instanceof RateLimitBlockedError,
		signal,
	});
	const blocks = settled.flatMap((s) => (s.state === 'failed' && s.error instanceof RateLimitBlockedError ? [s.error] : []));
	if (signal?.aborted && !blocks.length && settled.some((s) => s.state !== 'done')) throw stoppedError(ctx, settled);
	if (blocks.length) {
		const report = blockReport(ctx, settled, blocks);
		if (!continueOnFail) throw report.error;
		return [settled.map((s, itemIndex) => report.itemOf(s, itemIndex)).flat()];
	}
	const out: INodeExecutionData[] = [];
	for (const [itemIndex, outcome] of settled.entries()) {
		if (outcome.state === 'done') {
			for (const result of pairedWith(outcome.value, itemIndex)) out.push(result);
		} else if (outcome.state === 'failed') {
			const error = itemError(ctx, outcome.error, itemIndex);
			if (!continueOnFail) throw withRunReport(ctx, area, error, settled, itemIndex);
			out.push({ json: errorJson(error), pairedItem: { item: itemIndex } });
		}
	}
	return [out];
}

/**
 * An item's results paired with it, sharing one `pairedItem` (as n8n's own helper does). Each
 * is a new object of one of two fixed shapes: made by spreading, the objects of a long list
 * (Return All) each got a hidden class of their own, about 170 bytes more per record kept.
 */
function pairedWith(results: INodeExecutionData[], itemIndex: number): INodeExecutionData[] {
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
function doneIds(ctx: IExecuteFunctions, area: Area, settled: Array<Settled<INodeExecutionData[]>>, done: number[]): string {
	const notes: string[] = [];
	for (const itemIndex of done) {
		const outcome = settled[itemIndex];
		const resource = area.resources.find((r) => r.value === ctx.getNodeParameter('resource', itemIndex, ''));
		const idField = resource?.idField;
		if (outcome.state !== 'done' || !idField) continue;
		const ids = outcome.value.map((result) => result.json[idField]).filter((id) => id !== undefined && id !== null && id !== '');
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
function withRunReport(ctx: IExecuteFunctions, area: Area, error: NodeApiError | NodeOperationError, settled: Array<Settled<INodeExecutionData[]>>, itemIndex: number) {
	if (settled.length < 2) return error;
	const { done, failed, notStarted: notSent } = itemStates(settled);
	error.message = `${error.message} [item ${itemIndex}; ${done.length} of ${settled.length} items done, ${notSent.length} not sent]`;
	const report = [
		`Done: ${itemsPhrase(done)}${doneIds(ctx, area, settled, done)}.`,
		`Failed: ${itemsPhrase(failed)}.`,
		`Not sent: ${itemsPhrase(notSent)}${notSent.length ? ' (nothing was sent for them)' : ''}.`,
		done.length ? 'Running the workflow again repeats the done items: run only the failed and unsent ones, or turn on Continue On Fail to get one output item per input item.' : '',
	]
		.filter(Boolean)
		.join(' ');
	error.description = `${error.description ? `${error.description} ` : ''}${report}`;
	return error;
}

/** Item tasks at once: twice the requests in flight, so a prepared item is ready when a request slot frees. */
function itemTasks(ctx: IExecuteFunctions): number {
	return 2 * readRunOptions(ctx).requestsInFlight;
}

function indexesWhere(settled: Array<Settled<INodeExecutionData[]>>, test: (s: Settled<INodeExecutionData[]>) => boolean): number[] {
	return settled.flatMap((s, i) => (test(s) ? [i] : []));
}

function itemsPhrase(indexes: number[]): string {
	return indexes.length ? `${indexes.length === 1 ? 'item' : 'items'} ${indexRanges(indexes)}` : 'none';
}

/** The items of a run by what became of them. */
function itemStates(settled: Array<Settled<INodeExecutionData[]>>): { done: number[]; failed: number[]; notStarted: number[] } {
	return {
		done: indexesWhere(settled, (s) => s.state === 'done'),
		failed: indexesWhere(settled, (s) => s.state === 'failed'),
		notStarted: indexesWhere(settled, (s) => s.state === 'notStarted'),
	};
}

function stoppedError(ctx: IExecuteFunctions, settled: Array<Settled<INodeExecutionData[]>>): NodeOperationError {
	const { done, failed, notStarted } = itemStates(settled);
	// "canceled" in the message: n8n then records the execution as canceled, not failed.
	return new NodeOperationError(ctx.getNode(), 'The execution was canceled', {
		description: `Stopped before all items ran. Done: ${itemsPhrase(done)}.${failed.length ? ` Failed or stopped in flight: ${itemsPhrase(failed)}.` : ''} Not started: ${itemsPhrase(notStarted)}.`,
	});
}

/**
 * A rate-limit block during the run: one error saying when the block lifts, which items
 * were done and which were not sent; with continue-on-fail the done items' outputs, an
 * error item per failed item and a "not sent" error item per item the block stopped.
 */
function blockReport(ctx: IExecuteFunctions, settled: Array<Settled<INodeExecutionData[]>>, blocks: RateLimitBlockedError[]) {
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
		failed.length ? `Failed or partly sent: ${itemsPhrase(failed)}.` : '',
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
					json: {
						error: `Not sent: the Vendor API blocks further requests until ${lifts}`,
						description: `Nothing was sent for this item. Run it again after ${lifts}.`,
						httpCode: '429',
						notSent: true,
						blockedUntil: lifts,
					},
					pairedItem,
				},
			];
		}
		const error = s.state === 'failed' ? s.error : undefined;
		return [{ json: errorJson(itemError(ctx, error, itemIndex)), pairedItem }];
	};
	return { error, itemOf };
}

/** `listSearch` methods for every resource with a list: the pickers of resource locators. */
export function listSearchMethods(area: Area): Record<string, (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>> {
	const methods: Record<string, (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>> = {};
	// the organization picker of the accounting nodes (an inferred list)
	const resources = area.org ? [...area.resources, ORGANIZATION] : area.resources;
	for (const resource of resources) {
		const list = resource.operations.find((o) => o.value === resource.listOperation);
		if (!list || !resource.idField) continue;
		methods[searchMethodName(resource.value)] = async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
			return await searchRecords(this, area, resource, list, filter, paginationToken);
		};
	}
	return methods;
}

async function searchRecords(
	ctx: ILoadOptionsFunctions,
	area: Area,
	resource: Resource,
	list: Operation,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const idField = resource.idField ?? 'id';
	const nameField = resource.nameField ?? 'name';
	const values: IDataObject = {};
	for (const field of list.fields.filter((f) => f.required)) {
		values[field.name] = ctx.getCurrentNodeParameter(field.name, { extractValue: true }) as string;
	}
	const contains = list.fields.find((f) => f.name === `${nameField}_contains`);
	if (filter && contains) values[contains.name] = filter;
	const organizationId = area.org && list !== ORGANIZATIONS_LIST ? String(ctx.getCurrentNodeParameter('organizationId', { extractValue: true }) ?? '') : undefined;
	const req = nodeRequest(ctx.getNode(), area, list, values, organizationId, 'Nothing was sent to the API. Correct the value and try again.');
	const page = Number(paginationToken ?? 1);
	if (list.pagination && list.pagination !== 'none') Object.assign(req.qs, { page, per_page: list.perPage ?? 200 });
	const body = (await vendorRequest(ctx as VendorContext, area, req)).body;
	const records = unwrap(list, body);
	const needle = (filter ?? '').toLowerCase();
	const results = records
		.map((r) => ({ name: String(r[nameField] ?? r[idField]), value: String(r[idField]) }))
		.filter((r) => !needle || r.name.toLowerCase().includes(needle) || r.value.includes(needle));
	const more = hasMore(list, body, records, list.perPage ?? 200);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}
