/**
 * Reading answers: the records of an answer (`unwrap`), a list's pages one call each until
 * the answer says there are no more (bounded, and ended when a server repeats itself), and
 * the file name of a file answer.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { createHash } from 'crypto';

import type { ApiRequest } from './request';
import type { Operation, Area } from '../tables/spec';
import { pageContext, vendorRequest } from './transport';
import type { VendorContext } from './transport';

/** The records of an answer: the response key's value, or the one list in it. */
export function unwrap(op: Operation, body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (!body || typeof body !== 'object') return [{ result: body as string }];
	const b = body as IDataObject;
	if (op.responseKey && b[op.responseKey] !== undefined) {
		const v = b[op.responseKey];
		if (Array.isArray(v)) return v as IDataObject[];
		return [v as IDataObject];
	}
	if (op.kind === 'list' || op.pagination) {
		const list = Object.entries(b).find(([k, v]) => Array.isArray(v) && k !== 'page_context');
		if (list) return list[1] as IDataObject[];
	}
	// An envelope-only answer is output as the API gave it (`{ code, message }`): it claims no more than that.
	return [b];
}

/** An answer that is only the envelope: `{ code, message }` and nothing else. */
function envelopeOnly(body: unknown): { code: unknown; message: unknown } | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const { code, message, ...rest } = body as IDataObject;
	return code !== undefined && Object.keys(rest).length === 0 ? { code, message } : undefined;
}

/**
 * The field of the operation a code-0 answer refuses, if it does. Document 2 ("Errors"): "The
 * samples show an error response with `code` 0 and a message for invalid `estimate_ids`, so
 * success and failure cannot be told from `code` alone in that case". Such an answer is the
 * envelope only, with the documented message "Invalid value passed for <field>" naming a field
 * of this operation's table; the field's name is returned.
 */
export function refusedField(op: Operation, body: unknown): string | undefined {
	const envelope = envelopeOnly(body);
	if (!envelope || String(envelope.code) !== '0' || typeof envelope.message !== 'string') return undefined;
	const named = /^\s*Invalid value passed for ([A-Za-z0-9_]+)/i.exec(envelope.message)?.[1];
	return named !== undefined && op.fields.some((f) => f.name === named) ? named : undefined;
}

/**
 * Whether a page follows this one of `pageSize` entries: as `page_context` says; an answer
 * without one (paging guessed for some lists) goes on only after a full page.
 */
export function hasMore(op: Operation, body: unknown, entries: IDataObject[], pageSize: number): boolean {
	const context = op.pagination === 'pageContext' ? pageContext(body) : undefined;
	if (context) return context.has_more_page === true;
	return (op.pagination === 'pageContext' || op.pagination === 'pageSize') && entries.length >= pageSize;
}

/** Return All reads at most this many pages of one list for one item (200 a page: 400,000 records). */
export const DEFAULT_PAGE_LIMIT = 2000;
let pageLimit = DEFAULT_PAGE_LIMIT;

/** For tests: the same rule with a smaller number. */
export function setPageLimit(limit: number = DEFAULT_PAGE_LIMIT): void {
	pageLimit = limit;
}

/**
 * What a page holds, as one short string: the digest of its records' keys in sorted order (a
 * record's ID when the list's records carry one, else its JSON), so a page holding the same
 * records as an earlier one, in any order, has the same fingerprint. One string a page is
 * kept, not one a record: the repeat check costs no memory in proportion to the records.
 */
function pageFingerprint(entries: IDataObject[], idField?: string): string {
	const keys = entries.map((record) => {
		const id = idField === undefined ? undefined : record?.[idField];
		return typeof id === 'string' || typeof id === 'number' ? `#${id}` : JSON.stringify(record);
	});
	return createHash('sha1').update(keys.sort().join('\u0000')).digest('base64');
}

function pagingStopped(ctx: VendorContext, message: string, description: string, itemIndex?: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message }, { message, description, itemIndex });
}

/**
 * A list's pages, one call each, until the answer says there is no more (one call for unpaged
 * lists). It always ends: a page that holds the same records as an earlier page ends it (with
 * an error when the API said there were more), and so does the page limit (an error saying how
 * far it got).
 */
export async function* listPages(
	ctx: VendorContext,
	area: Area,
	op: Operation,
	req: ApiRequest,
	pageSize = op.perPage ?? 200,
	itemIndex?: number,
	/** The records' ID field (the resource's), when they carry one: a page's fingerprint is made of IDs. */
	idField?: string,
): AsyncGenerator<{ entries: IDataObject[]; body: unknown }> {
	if (!op.pagination || op.pagination === 'none') {
		const body = (await vendorRequest(ctx, area, req, { itemIndex })).body;
		yield { entries: unwrap(op, body), body };
		return;
	}
	const pagesSeen = new Set<string>();
	let records = 0;
	for (let page = 1; ; page++) {
		if (page > pageLimit) {
			throw pagingStopped(
				ctx,
				`Return All stopped after ${pageLimit} pages (${records} records): the Vendor API still said there were more`,
				`At most ${pageLimit} pages are read for one list and item. Narrow the list with its filters, or turn Return All off and set a Limit.`,
				itemIndex,
			);
		}
		const body = (await vendorRequest(ctx, area, { ...req, qs: { ...req.qs, page, per_page: pageSize } }, { itemIndex })).body;
		const entries = unwrap(op, body);
		const fingerprint = entries.length > 0 ? pageFingerprint(entries, idField) : '';
		if (page > 1 && entries.length > 0 && pagesSeen.has(fingerprint)) {
			// A server that ignores `page` (paging guessed) answers the same page again: stop there.
			// One that says there is more and repeats itself would never end: an error.
			if (pageContext(body)?.has_more_page !== true) return;
			throw pagingStopped(
				ctx,
				`Return All stopped at page ${page} (${records} records): the Vendor API said there were more records but answered with a page it had already sent`,
				'The API repeated records it had already sent while saying more would follow; reading on would never end.',
				itemIndex,
			);
		}
		pagesSeen.add(fingerprint);
		records += entries.length;
		yield { entries, body };
		if (!hasMore(op, body, entries, pageSize) || entries.length === 0) return;
	}
}

export function fileNameFrom(headers: IDataObject, fallback: string): string {
	const cd = String(headers['content-disposition'] ?? '');
	const match = cd.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
	return match ? decodeURIComponent(match[1]) : fallback;
}
