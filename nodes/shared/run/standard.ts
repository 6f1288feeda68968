// Running an item (run/): the standard operation, what an operation does when its table says all there is to say.
/**
 * The standard operation: build the request from the table, split its ids into calls of the
 * documented size, send (a list paged, a file downloaded or uploaded), and keep the records
 * the answer carries as evidence that the operation was done.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { answerRecords, listPages } from '../api/pages';
import { buildRequest } from '../api/request';
import type { ApiRequest } from '../api/request';
import { multipart, vendorRequest } from '../api/transport';
import type { ApiResponse } from '../api/transport';
import { readFirstNote } from './current';
import { readList, settleCalls, splitOutcome, uniqueIds } from './calls';
import { deletedOutput, isDeletion } from './deleted';
import { fetchFile, readUpload } from './files';
import type { OperationRun } from './types';

/** Splits an array into chunks of at most `size`. */
export function chunk<T>(list: T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
	return out;
}

async function fetchList(
	ctx: IExecuteFunctions,
	run: OperationRun,
	req: ApiRequest,
): Promise<INodeExecutionData[]> {
	const { op, itemIndex } = run;
	const returnAll = run.setting('returnAll', false) as boolean;
	const limit = returnAll ? Infinity : (run.setting('limit', 50) as number);
	const pageSize = Math.max(1, Math.min(op.perPage ?? 200, limit));
	return await readList(
		ctx,
		listPages(run.state, run.area, op, req, pageSize, itemIndex, run.resource.idField),
		limit,
	);
}

/**
 * The records an answer carries as evidence that the operation was done; otherwise an error
 * with the API's code and message (a code-0 refusal, an answer without the documented record
 * or list: `answerRecords`).
 */
export function checkAnswer(
	ctx: IExecuteFunctions,
	run: OperationRun,
	body: unknown,
	values: IDataObject,
): IDataObject[] {
	return answerRecords(ctx.getNode(), run.area, run.op, body, { itemIndex: run.itemIndex, values });
}

/** What an operation does when its table says all there is to say. */
export async function runStandard(
	ctx: IExecuteFunctions,
	run: OperationRun,
	values: IDataObject = run.values,
): Promise<INodeExecutionData[]> {
	const { area, op } = run;
	const batchField = op.batch?.field;
	const batchValues =
		batchField && Array.isArray(values[batchField])
			? uniqueIds(values[batchField] as unknown[])
			: undefined;
	const groups = batchValues && op.batch ? chunk(batchValues, op.batch.size) : [undefined];
	// Read (and checked) once; an optional file left out sends plain JSON, the documents' convention.
	const file = await readUpload(ctx, run);
	// The calls of a split operation go in parallel (bounded by the requests in flight); each call's outcome is kept.
	const settled = await settleCalls(
		run.state,
		groups,
		async (group, index): Promise<INodeExecutionData[]> => {
			const callValues =
				group && batchField ? { ...values, [batchField]: group as IDataObject[] } : values;
			const req = buildRequest(area, op, callValues, run.organizationId);
			if (op.binaryOutput) return [await fetchFile(ctx, run, req, index, groups.length)];
			if (op.kind === 'list') return await fetchList(ctx, run, req);
			let answer: ApiResponse;
			if (file) {
				const fields: Record<string, string> =
					req.body && typeof req.body === 'object' ? { JSONString: JSON.stringify(req.body) } : {};
				answer = await vendorRequest(
					run.state,
					area,
					{ ...req, body: undefined },
					{ itemIndex: run.itemIndex, multipart: multipart(file, fields) },
				);
			} else answer = await vendorRequest(run.state, area, req, { itemIndex: run.itemIndex });
			const { body } = answer;
			let records = checkAnswer(ctx, run, body, callValues);
			// a deletion says `deleted: true` beside the answer, only when the answer proves it
			if (isDeletion(op))
				records = [
					deletedOutput(
						ctx.getNode(),
						area,
						op,
						body,
						answer.statusCode,
						callValues,
						run.itemIndex,
					),
				];
			// a read-first update: what its answer shows of a change by someone else since the read
			const note = records.length === 1 ? readFirstNote(values, records[0]) : undefined;
			if (note) records[0] = { ...records[0], ...note };
			// an answer of a split operation says which ids it answers for
			return group && batchField && !op.responseKey
				? records.map((json) => ({ json: { ...json, [batchField]: group.map(String) } }))
				: records.map((json) => ({ json }));
		},
	);
	const ids = groups.map((group) => (group ?? []).map(String));
	const out = splitOutcome(ctx, op, batchField ?? 'ids', ids, settled, run.itemIndex);
	return (run.parts ?? []).reduce(
		(shaped, part) => (part.shapeOutput ? part.shapeOutput(ctx, run, shaped) : shaped),
		out,
	);
}
