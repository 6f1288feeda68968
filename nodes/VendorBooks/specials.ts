/**
 * Irregular Books operations, named by `special` in the tables:
 * - bulkReminder: any number of invoice ids, sent in calls of 10; the `info` answer is
 *   mapped to one output item per invoice (sent, or the error for that id).
 * - fromEstimate: reads the estimate and creates the invoice from its customer and lines,
 *   with `invoiced_estimate_id`.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertValid, chunk, findOperation, runStandard } from '../shared/run/execute';
import type { OperationRun, Special } from '../shared/run/execute';
import { readRunOptions } from '../shared/api/options';
import { mapInOrder } from '../shared/run/parallel';
import { buildRequest, splitList } from '../shared/api/request';
import { vendorRequest } from '../shared/api/transport';

function idsOf(value: unknown): string[] {
	return Array.isArray(value) ? value.map(String) : splitList(String(value ?? ''));
}

const bulkReminder: Special = async (ctx: IExecuteFunctions, run: OperationRun) => {
	const { area, op, values, organizationId, itemIndex } = run;
	const field = op.batch?.field ?? 'invoice_ids';
	// The calls of 10 go in parallel (bounded by the requests in flight); one output item per invoice, in the order given.
	const batches = await mapInOrder(
		chunk(idsOf(values[field]), op.batch?.size ?? 10),
		readRunOptions(ctx).requestsInFlight,
		async (ids): Promise<INodeExecutionData[]> => {
			const req = buildRequest(area, op, { ...values, [field]: ids }, organizationId);
			const body = (await vendorRequest(ctx, area, req, { itemIndex })).body as IDataObject;
			const info = (body.info ?? {}) as IDataObject;
			const errors = new Map<string, string>();
			for (const entry of (info.email_errors_info ?? []) as IDataObject[]) {
				for (const id of idsOf(entry.ids)) errors.set(id, String(entry.message ?? 'not sent'));
			}
			return ids.map((id) => {
				const error = errors.get(id);
				return { json: error ? { invoice_id: id, sent: false, error } : { invoice_id: id, sent: true } };
			});
		},
		ctx.getExecutionCancelSignal?.(),
	);
	const out = batches.flat();
	const failed = out.filter((o) => o.json.sent === false).map((o) => String(o.json.invoice_id));
	if (failed.length && !ctx.continueOnFail()) {
		const sent = out.length - failed.length;
		throw new NodeOperationError(ctx.getNode(), `Payment reminders failed for ${failed.length} invoice(s): ${failed.join(', ')}`, {
			itemIndex,
			description: `${sent} reminder(s) were sent. ${out
				.filter((o) => o.json.error)
				.map((o) => `${String(o.json.invoice_id)}: ${String(o.json.error)}`)
				.join('; ')}`,
		});
	}
	return out;
};

/** Line fields copied from the estimate to the invoice (documented on both). */
const LINE_FIELDS = ['item_id', 'name', 'description', 'item_order', 'rate', 'quantity', 'unit', 'discount', 'tax_id', 'tds_tax_id', 'tax_treatment_code', 'hsn_or_sac', 'sat_item_key_code', 'unitkey_code', 'product_type'];
/** Header fields copied from the estimate. */
const HEADER_FIELDS = ['customer_id', 'contact_persons', 'currency_id', 'exchange_rate', 'reference_number', 'discount', 'is_discount_before_tax', 'discount_type', 'is_inclusive_tax', 'place_of_supply', 'gst_treatment', 'gst_no', 'tax_treatment', 'vat_treatment', 'salesperson_name', 'notes', 'terms', 'shipping_charge', 'adjustment', 'adjustment_description'];

function pick(source: IDataObject, keys: string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) if (source[key] !== undefined && source[key] !== null && source[key] !== '') out[key] = source[key];
	return out;
}

const fromEstimate: Special = async (ctx: IExecuteFunctions, run: OperationRun) => {
	const { area, values, organizationId, itemIndex } = run;
	const { estimate_id: estimateId, ...overrides } = values;
	const get = findOperation(area, 'estimate', 'get').op;
	const answer = (await vendorRequest(ctx, area, buildRequest(area, get, { estimate_id: estimateId }, organizationId), { itemIndex })).body as IDataObject;
	const estimate = (answer.estimate ?? {}) as IDataObject;
	const lines = ((estimate.line_items ?? []) as IDataObject[]).map((line) => pick(line, LINE_FIELDS));
	if (!lines.length) {
		throw new NodeOperationError(ctx.getNode(), `Estimate ${String(estimateId)} has no line items to invoice`, { itemIndex });
	}
	const create = findOperation(area, 'invoice', 'create').op;
	const invoice: IDataObject = { ...pick(estimate, HEADER_FIELDS), line_items: lines, invoiced_estimate_id: String(estimateId), ...overrides };
	assertValid(ctx, create, invoice, itemIndex);
	return await runStandard(ctx, { ...run, op: create }, invoice);
};

export const booksSpecials: Record<string, Special> = { bulkReminder, fromEstimate };
