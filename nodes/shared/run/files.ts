// Running an item (run/): the files of an operation, downloaded (binary output) or read for upload (binary input).
/**
 * A downloaded file becomes the item's binary data (numbered when a split operation returns
 * several); a file to upload is read from the input item and its extension checked first.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiWords, assertNotRefused, fileNameFrom } from '../api/pages';
import type { ApiRequest } from '../api/request';
import { vendorRequest } from '../api/transport';
import type { OperationRun } from './types';

function numbered(fileName: string, index: number, total: number): string {
	if (total <= 1) return fileName;
	const dot = fileName.lastIndexOf('.');
	return dot > 0
		? `${fileName.slice(0, dot)}-${index + 1}${fileName.slice(dot)}`
		: `${fileName}-${index + 1}`;
}

export async function fetchFile(
	ctx: IExecuteFunctions,
	run: OperationRun,
	req: ApiRequest,
	part: number,
	parts: number,
): Promise<INodeExecutionData> {
	const { op, itemIndex } = run;
	const res = await vendorRequest(run.state, run.area, req, { itemIndex, binary: true });
	const ids = op.batch ? run.values[op.batch.field] : undefined;
	// no content (a 204) is no file, not an empty one
	const noContent = res.statusCode === 204 && Buffer.isBuffer(res.body) && res.body.length === 0;
	if (!Buffer.isBuffer(res.body) || noContent) {
		// a code-0 refusal says which value was refused; any other answer shows its code and message
		if (!noContent) assertNotRefused(ctx.getNode(), res.body, itemIndex, req.qs);
		const detail = ids
			? ` for ${op.batch?.field} ${String(req.qs[op.batch?.field ?? ''] ?? '')}`
			: '';
		const message = `No file was returned${detail}: the Vendor API answered ${noContent ? 'HTTP 204 No Content' : apiWords(res.body)}`;
		throw new NodeApiError(
			ctx.getNode(),
			{ message },
			{
				message,
				description: 'A file was expected; the answer holds none.',
				httpCode: String(res.statusCode),
				itemIndex,
			},
		);
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
export async function readUpload(
	ctx: IExecuteFunctions,
	run: OperationRun,
): Promise<{ field: string; fileName: string; mimeType: string; data: Buffer } | undefined> {
	const spec = run.op.binaryInput;
	if (!spec) return undefined;
	const property = String(
		ctx.getNodeParameter('binaryPropertyName', run.itemIndex, '') ?? '',
	).trim();
	if (!property) {
		if (spec.required === false) return undefined;
		throw new NodeOperationError(ctx.getNode(), 'Input Binary Field is required', {
			itemIndex: run.itemIndex,
		});
	}
	const meta = ctx.helpers.assertBinaryData(run.itemIndex, property);
	const fileName = meta.fileName ?? `file.${meta.fileExtension ?? ''}`;
	const extension = (
		fileName.includes('.')
			? fileName.slice(fileName.lastIndexOf('.') + 1)
			: (meta.fileExtension ?? '')
	).toLowerCase();
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
