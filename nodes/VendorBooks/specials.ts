/**
 * Irregular Books operations, named by `special` in the tables:
 * - bulkReminder: any number of invoice ids, sent in calls of 10; the `info` answer is
 *   mapped to one output item per invoice: sent (true), not sent (false) or unknown (null)
 *   as the answer says, with the answer's `code` and `message` (see `reminderOutcomes`).
 * - fromEstimate: reads the estimate and creates the invoice from its customer and lines,
 *   with `invoiced_estimate_id`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readBeforeWrite } from '../shared/run/execute';
import { assertValid, findOperation } from '../shared/run/reader';
import { checkAnswer, chunk, runStandard } from '../shared/run/standard';
import type { OperationRun, Special } from '../shared/run/types';
import {
	failureJson,
	settleCalls,
	throwLoneFailure,
	uniqueIds,
	undoneRecords,
} from '../shared/run/calls';
import { answerRecords } from '../shared/api/pages';
import { buildRequest, splitList } from '../shared/api/request';
import { vendorRequest } from '../shared/api/transport';
import { redactTokens } from '../shared/api/nodeErrors';

function idsOf(value: unknown): string[] {
	return Array.isArray(value) ? value.map(String) : splitList(String(value ?? ''));
}

/** `info.code` 0 (number or text), the documents' success code, or absent (no failure stated). */
function isSuccessCode(code: unknown): boolean {
	return code === undefined || code === null || String(code) === '0';
}

/** What one call's answer said, in the API's words (for errors): info.code, the success message and count, each error entry. */
function apiSaid(info: IDataObject, success: IDataObject, errors: IDataObject[]): string {
	const parts: string[] = [];
	if (info.code !== undefined) parts.push(`info.code ${String(info.code)}`);
	if (success.message !== undefined) parts.push(`"${String(success.message)}"`);
	if (success.sent_count !== undefined) parts.push(`sent_count ${String(success.sent_count)}`);
	for (const entry of errors)
		parts.push(`"${String(entry.message ?? '(no message)')}" (ids ${idsOf(entry.ids).join(', ')})`);
	return redactTokens(parts.length ? parts.join(', ') : 'no info');
}

/**
 * What one bulk-reminder answer says of each invoice of its call. The Accounting document: "Bulk reminder
 * `info`: { email_success_info: { message, sent_count }, email_errors_info: [ { message, ids } ],
 * code }". An invoice named in an error entry is not sent. The others are sent only when
 * `sent_count` is exactly their number and `info.code` is 0 (or absent), or not 0 with error
 * entries that account for it; a count of 0 means none of them was sent; any other answer (a
 * smaller or larger count, no count, a failure code no entry explains) leaves their outcome
 * unknown (`sent: null`). Every item carries the answer's `code` and `message`.
 */
function reminderOutcomes(
	ids: string[],
	body: IDataObject,
): { items: IDataObject[]; said: string } {
	const info = (body.info && typeof body.info === 'object' ? body.info : {}) as IDataObject;
	const success = (
		info.email_success_info && typeof info.email_success_info === 'object'
			? info.email_success_info
			: {}
	) as IDataObject;
	const entries = (
		Array.isArray(info.email_errors_info) ? info.email_errors_info : []
	) as IDataObject[];
	const errors = new Map<string, string>();
	for (const entry of entries)
		for (const id of idsOf(entry.ids))
			if (ids.includes(id))
				errors.set(id, String(entry.message ?? 'named in email_errors_info (no message)'));
	const rest = ids.filter((id) => !errors.has(id));
	const count =
		success.sent_count === undefined || success.sent_count === null || success.sent_count === ''
			? Number.NaN
			: Number(success.sent_count);
	const explained = isSuccessCode(info.code) || errors.size > 0;
	const said = apiSaid(info, success, entries);
	let sent: boolean | null = null;
	let why: string | undefined;
	if (count === 0) {
		sent = false;
		why = `Not sent: the answer counts 0 reminders sent (${said})`;
	} else if (count === rest.length && explained) {
		sent = true;
	} else if (Number.isNaN(count)) {
		why = `Outcome unknown: the answer does not say how many reminders were sent (${said})`;
	} else if (!explained) {
		why = `Outcome unknown: the answer's info.code is not 0 and no entry of email_errors_info names an invoice, yet it counts ${count} sent of ${rest.length} (${said})`;
	} else {
		why = `Outcome unknown: the answer counts ${count} sent of the ${rest.length} invoice(s) it does not name as not sent, so which were sent cannot be told (${said})`;
	}
	const api: IDataObject = {};
	if (info.code !== undefined) api.code = info.code;
	if (success.message !== undefined) api.message = success.message;
	const items = ids.map((id): IDataObject => {
		const error = errors.get(id);
		// a reminder not sent, or of unknown outcome, is a failure (n8n's error output takes it)
		if (error !== undefined) return failureJson({ invoice_id: id, sent: false, error, ...api });
		return why
			? failureJson({ invoice_id: id, sent, error: why, ...api })
			: { invoice_id: id, sent, ...api };
	});
	return { items, said };
}

const bulkReminder: Special = async (ctx: IExecuteFunctions, run: OperationRun) => {
	const { area, op, values, organizationId, itemIndex } = run;
	const field = op.batch?.field ?? 'invoice_ids';
	const groups = chunk(uniqueIds(idsOf(values[field])), op.batch?.size ?? 10);
	// The calls of 10 go in parallel (bounded by the requests in flight); one output item per invoice, in the order given.
	// A failed call does not erase the others: its invoices are not sent or of unknown outcome, with the reason.
	const settled = await settleCalls(run.state, groups, async (ids) => {
		const callValues = { ...values, [field]: ids };
		const body = (
			await vendorRequest(run.state, area, buildRequest(area, op, callValues, organizationId), {
				itemIndex,
			})
		).body;
		checkAnswer(ctx, run, body, callValues);
		return reminderOutcomes(ids, body as IDataObject);
	});
	throwLoneFailure(settled);
	const calls = settled.map((s, index) =>
		s.state === 'done'
			? s.value
			: {
					items: undoneRecords(op, 'invoice_id', groups[index], s),
					said:
						s.state === 'failed' ? redactTokens(String((s.error as Error)?.message)) : 'not sent',
				},
	);
	const out = calls.flatMap((call) => call.items);
	const sent = out.filter((o) => o.sent === true).map((o) => String(o.invoice_id));
	const failed = out.filter((o) => o.sent === false).map((o) => String(o.invoice_id));
	const unknown = out.filter((o) => o.sent === null).map((o) => String(o.invoice_id));
	if ((failed.length || unknown.length) && !ctx.continueOnFail()) {
		const said = [...new Set(calls.map((call) => call.said))].join('; ');
		const headline =
			!sent.length && !unknown.length
				? `No payment reminder was sent for ${failed.length} invoice(s): the Vendor API answered ${said}`
				: [
						failed.length
							? `Payment reminders not sent for ${failed.length} invoice(s): ${failed.join(', ')}`
							: '',
						unknown.length
							? `${failed.length ? 'outcome' : 'Payment reminders: outcome'} unknown for ${unknown.length} invoice(s): ${unknown.join(', ')}`
							: '',
					]
						.filter(Boolean)
						.join('; ');
		throw new NodeOperationError(ctx.getNode(), headline, {
			itemIndex,
			description: `${sent.length} reminder(s) were sent${sent.length ? ` (${sent.join(', ')})` : ''}. ${out
				.filter((o) => o.error)
				.map((o) => `${String(o.invoice_id)}: ${redactTokens(String(o.error))}`)
				.join('; ')}. The Vendor API answered: ${said}.`,
		});
	}
	return out.map((json) => ({ json }));
};

/** Line fields copied from the estimate to the invoice (documented on both). */
const LINE_FIELDS = [
	'item_id',
	'name',
	'description',
	'item_order',
	'rate',
	'quantity',
	'unit',
	'discount',
	'tax_id',
	'tds_tax_id',
	'tax_treatment_code',
	'hsn_or_sac',
	'sat_item_key_code',
	'unitkey_code',
	'product_type',
];
/** Header fields copied from the estimate. */
const HEADER_FIELDS = [
	'customer_id',
	'contact_persons',
	'currency_id',
	'exchange_rate',
	'reference_number',
	'discount',
	'is_discount_before_tax',
	'discount_type',
	'is_inclusive_tax',
	'place_of_supply',
	'gst_treatment',
	'gst_no',
	'tax_treatment',
	'vat_treatment',
	'salesperson_name',
	'notes',
	'terms',
	'shipping_charge',
	'adjustment',
	'adjustment_description',
];

function pick(source: IDataObject, keys: string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys)
		if (source[key] !== undefined && source[key] !== null && source[key] !== '')
			out[key] = source[key];
	return out;
}

const fromEstimate: Special = async (ctx: IExecuteFunctions, run: OperationRun) => {
	const { area, values, organizationId, itemIndex } = run;
	const { estimate_id: estimateId, ...overrides } = values;
	const get = findOperation(area, 'estimate', 'get').op;
	const read = async () =>
		answerRecords(
			ctx.getNode(),
			area,
			get,
			(
				await vendorRequest(
					run.state,
					area,
					buildRequest(area, get, { estimate_id: estimateId }, organizationId),
					{ itemIndex },
				)
			).body,
			{ itemIndex },
		)[0];
	const estimate = await readBeforeWrite(`reading estimate ${String(estimateId)}`, read());
	const lines = ((estimate.line_items ?? []) as IDataObject[]).map((line) =>
		pick(line, LINE_FIELDS),
	);
	if (!lines.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Estimate ${String(estimateId)} has no line items to invoice`,
			{ itemIndex },
		);
	}
	const create = findOperation(area, 'invoice', 'create').op;
	const invoice: IDataObject = {
		...pick(estimate, HEADER_FIELDS),
		line_items: lines,
		invoiced_estimate_id: String(estimateId),
		...overrides,
	};
	assertValid(ctx, create, invoice, itemIndex);
	return await runStandard(ctx, { ...run, op: create }, invoice);
};

export const booksSpecials: Record<string, Special> = { bulkReminder, fromEstimate };
