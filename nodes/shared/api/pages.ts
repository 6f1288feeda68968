/**
 * Reading answers: the records of an answer (`unwrap`), a list's pages one call each until
 * the answer says there are no more (bounded, ended when a server repeats itself, each record
 * once by its id), and the file name of a file answer.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { createHash } from 'crypto';

import type { ApiRequest } from './request';
import type { Operation, Area } from '../tables/spec';
import { redactTokens } from './nodeErrors';
import { OUTCOME_UNKNOWN, outcomeUnknown } from './failureKinds';
import { pageContext, vendorRequest } from './transport';
import type { RunState, VendorContext } from './transport';

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

/** A code-0 answer that says a value is invalid: what it says, and the field it names if any. */
interface Refusal {
	message: string;
	/** The name after "invalid value passed for", e.g. `estimate_ids` or `line_items[0].item_id`. */
	field?: string;
}

/**
 * The refusal in a `code` 0 answer, if it is one. The Accounting document ("Errors"): "The samples show an
 * error response with `code` 0 and a message for invalid `estimate_ids`, so success and
 * failure cannot be told from `code` alone in that case". The wording of such a message is
 * not documented: any code-0 message with the word "invalid" (any case, whatever else the
 * answer holds) is taken as a refusal (docs/ASSUMPTIONS.md).
 */
function codeZeroRefusal(body: unknown): Refusal | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const { code, message } = body as IDataObject;
	if ((code !== 0 && code !== '0') || typeof message !== 'string' || !/\binvalid\b/i.test(message))
		return undefined;
	const field = /invalid value passed for\s+["'`]?([A-Za-z0-9_.[\]]+)/i.exec(message)?.[1];
	return { message, field };
}

/** What an answer holds of what its operation documents: its records, a refusal, or what is missing. */
type Evidence = { records: IDataObject[] } | { refusal: Refusal } | { missing: string };

function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether an operation reads a list (Get Many, a paged read, a picker's list). */
function isListRead(op: Operation): boolean {
	return (
		op.method === 'GET' &&
		(op.kind === 'list' || (op.pagination !== undefined && op.pagination !== 'none'))
	);
}

/** An answer to a list read that holds nothing: a 204 No Content (given by the transport as `{}`) or `{}`. */
function isEmptyAnswer(op: Operation, body: unknown): boolean {
	return isListRead(op) && isRecord(body) && Object.keys(body).length === 0;
}

/**
 * Whether an answer shows the operation was done. An operation whose documented answer carries
 * a record or a list (`responseKey`) is done only when the answer carries it: an object, or a
 * list (an empty one only for reads: a write answered with an empty list shows nothing done).
 * An accounting operation answered with the envelope only is done on `code` 0 (the Accounting document and
 * 3: "Success responses carry `code` 0"). A code-0 refusal is never a success. The project
 * area's answer bodies are not shown in the documents: its answers are taken as they come.
 */
function evidenceIn(area: Area, op: Operation, body: unknown): Evidence {
	const refusal = codeZeroRefusal(body);
	// A list read answered with nothing (a 204 No Content, which the transport gives as `{}`, or `{}`
	// itself) found nothing: no records, whatever key its documented answer names. It carries no key
	// and no code to check, so it cannot claim more than that.
	if (isEmptyAnswer(op, body)) return { records: [] };
	if (op.responseKey) {
		const value = isRecord(body) ? body[op.responseKey] : undefined;
		if (isRecord(value)) return { records: [value] };
		if (Array.isArray(value) && (value.length > 0 || op.method === 'GET'))
			return { records: value as IDataObject[] };
		return refusal ? { refusal } : { missing: op.responseKey };
	}
	if (refusal) return { refusal };
	// An empty answer to a single read (a 204 No Content, `{}`) holds no record: it does not show the record.
	if (op.method === 'GET' && isRecord(body) && Object.keys(body).length === 0)
		return { missing: 'record' };
	if (area.family === 'accounting' && !Array.isArray(body)) {
		const code = isRecord(body) ? body.code : undefined;
		if (code !== 0 && code !== '0') return { missing: 'code 0' };
	}
	return { records: unwrap(op, body) };
}

/** The API's own words in an answer, for an error: `code 0: "..."`. */
export function apiWords(body: unknown): string {
	if (!isRecord(body)) return `${Array.isArray(body) ? 'a list' : typeof body}`;
	const code = body.code === undefined ? 'no code' : `code ${redactTokens(String(body.code))}`;
	const said = typeof body.message === 'string' ? `: "${redactTokens(body.message)}"` : '';
	const rest = Object.keys(body).filter((k) => k !== 'code' && k !== 'message');
	return `${code}${said}${rest.length ? `; members: ${rest.slice(0, 8).join(', ')}` : ''}`;
}

/** A value as sent, in a few words. */
function sentText(value: unknown): string {
	const text = Array.isArray(value)
		? value.map(String).join(',')
		: typeof value === 'object'
			? JSON.stringify(value)
			: String(value);
	return redactTokens(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}

/**
 * The records an answer carries as evidence of success (see `evidenceIn`); otherwise an error
 * showing the API's code and message. A refusal says the request was refused (nothing done); a
 * write answered without evidence is "Outcome unknown" (the write may have been processed: it
 * is not repeated); a read answered without what it reads is an error.
 */
export function answerRecords(
	node: INode,
	area: Area,
	op: Operation,
	body: unknown,
	options: { itemIndex?: number; values?: IDataObject } = {},
): IDataObject[] {
	const evidence = evidenceIn(area, op, body);
	if ('records' in evidence) return evidence.records;
	const { itemIndex, values = {} } = options;
	if ('refusal' in evidence) return refusedBy(node, body, evidence.refusal, itemIndex, values);
	const what =
		evidence.missing === 'code 0'
			? 'its success code (code 0)'
			: `the ${evidence.missing} ${op.inferred ? 'this call is expected to answer with (its answer is not documented)' : 'its documented answer carries'}`;
	const write = op.method !== 'GET';
	const message = `${write ? `${OUTCOME_UNKNOWN}: ` : ''}the Vendor API answered without ${what} (${apiWords(body)})`;
	const description = write
		? 'Nothing in the answer shows the write was done, nor that it was refused. It was not repeated: check the record before running again.'
		: 'Nothing in the answer holds what was read.';
	return noEvidence(
		node,
		body,
		message.charAt(0).toUpperCase() + message.slice(1),
		description,
		itemIndex,
		write,
	);
}

/** A code-0 refusal in any answer (Custom API Call's too) is an error naming the API's message and the value sent. */
export function assertNotRefused(
	node: INode,
	body: unknown,
	itemIndex?: number,
	values: IDataObject = {},
): void {
	const refusal = codeZeroRefusal(body);
	if (refusal) refusedBy(node, body, refusal, itemIndex, values);
}

function refusedBy(
	node: INode,
	body: unknown,
	refusal: Refusal,
	itemIndex: number | undefined,
	values: IDataObject,
): never {
	const { message: said, field } = refusal;
	const named = field !== undefined && values[field] !== undefined ? field : undefined;
	const message = `The Vendor API refused ${named ? `the ${named} sent` : 'the request'}: ${redactTokens(said)} (code 0)`;
	return noEvidence(
		node,
		body,
		message,
		`${named ? `Sent ${named}: ${sentText(values[named])}. ` : ''}The answer carried code 0 with a message saying a value is invalid: nothing is taken as done.`,
		itemIndex,
	);
}

function noEvidence(
	node: INode,
	body: unknown,
	message: string,
	description: string,
	itemIndex: number | undefined,
	unknown = false,
): never {
	const code =
		isRecord(body) && body.code !== undefined ? redactTokens(String(body.code)) : undefined;
	const error = new NodeApiError(
		node,
		{ message, ...(code === undefined ? {} : { code }) },
		{ message, description, httpCode: '200', itemIndex },
	);
	throw unknown ? outcomeUnknown(error) : error;
}

/**
 * What an answer says of its paging: whether more follows (`page_context.has_more_page`, as
 * the Accounting document shows for the accounting lists, object or array of one; `page_info.has_next_page`
 * for the project-management lists, whose answers the documents do not show) and the page
 * size it states (`per_page`: a server that gives fewer records than asked says so there).
 */
export function pagingFacts(body: unknown): { more?: boolean; perPage?: number } {
	const facts =
		pageContext(body) ?? (isRecord(body) && isRecord(body.page_info) ? body.page_info : undefined);
	if (!isRecord(facts)) return {};
	const more = facts.has_more_page ?? facts.has_next_page;
	const perPage = Number(facts.per_page);
	return {
		...(typeof more === 'boolean' ? { more } : {}),
		...(Number.isInteger(perPage) && perPage > 0 ? { perPage } : {}),
	};
}

/**
 * Whether a page follows this one of `pageSize` entries asked: as the answer says (see
 * `pagingFacts`), whatever the page's length, so a page shorter than asked is read on when
 * the answer says there is more; an answer that does not say goes on only after a full page
 * (full by the page size it states, if smaller than the one asked). Unpaged lists: never.
 */
export function hasMore(
	op: Operation,
	body: unknown,
	entries: IDataObject[],
	pageSize: number,
): boolean {
	if (op.pagination !== 'pageContext' && op.pagination !== 'pageSize') return false;
	const { more, perPage } = pagingFacts(body);
	if (more !== undefined) return more;
	return entries.length >= Math.min(pageSize, perPage ?? pageSize);
}

/** A record's id as text (ids may be numbers or, beyond 2^53, strings of digits): undefined when it has none. */
function idOf(record: IDataObject | undefined, idField: string | undefined): string | undefined {
	const id = idField === undefined ? undefined : record?.[idField];
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * What a page holds, as one short string: the digest of its records' keys in sorted order (a
 * record's ID when the list's records carry one, else its JSON), so a page holding the same
 * records as an earlier one, in any order, has the same fingerprint. One string a page is
 * kept, not one a record: the repeat check costs no memory in proportion to the records.
 */
function pageFingerprint(entries: IDataObject[], idField?: string): string {
	const keys = entries.map((record) => {
		const id = idOf(record, idField);
		return id === undefined ? JSON.stringify(record) : `#${id}`;
	});
	return createHash('sha1').update(keys.sort().join('\u0000')).digest('base64');
}

/**
 * The records of a page not yet output by this read: a record whose id an earlier page (or
 * this one) already gave is left out (one created while the list is paged pushes the others
 * one place on, so the next page begins with one already read). In a list without an id field
 * (the search results, whose shape the documents do not show) a record is told apart by its
 * whole content: the same content again is the same record pushed on. In a list with one, a
 * record missing its id is kept. `seen` holds the keys given so far.
 */
function unseen(
	entries: IDataObject[],
	idField: string | undefined,
	seen: Set<string>,
): IDataObject[] {
	return entries.filter((record) => {
		const id = idOf(record, idField);
		// in a list whose records carry ids, one without its id is not told apart: kept
		if (id === undefined && idField !== undefined) return true;
		const key =
			id === undefined
				? `=${createHash('sha1')
						.update(JSON.stringify(record) ?? '')
						.digest('base64')}`
				: `#${id}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

function pagingStopped(
	ctx: VendorContext,
	message: string,
	description: string,
	itemIndex?: number,
): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message }, { message, description, itemIndex });
}

function pageLimitReached(
	ctx: VendorContext,
	pageLimit: number,
	records: number,
	itemIndex?: number,
): NodeApiError {
	return pagingStopped(
		ctx,
		`Return All stopped after ${pageLimit} pages (${records} records): the Vendor API still said there were more`,
		`At most ${pageLimit} pages are read for one list and item. Narrow the list with its filters, or turn Return All off and set a Limit.`,
		itemIndex,
	);
}

function repeatedPages(
	ctx: VendorContext,
	page: number,
	records: number,
	repeats: number,
	itemIndex?: number,
): NodeApiError {
	return pagingStopped(
		ctx,
		`Return All stopped at page ${page} (${records} records): the Vendor API said there were more records but answered ${repeats} pages in a row that it had already sent`,
		'The API repeated records it had already sent while saying more would follow; reading on would never end.',
		itemIndex,
	);
}

/** The request of page `page` of a list, `size` records a page. */
export function pageRequest(req: ApiRequest, page: number, size: number): ApiRequest {
	return { ...req, qs: { ...req.qs, page, per_page: size } };
}

/** A list's page as `listPages` gives it: its records not given before, the answer and its headers. */
interface ListPage {
	entries: IDataObject[];
	body: unknown;
	/** The answer's headers (lower-case names), e.g. the service's `date`. */
	headers: IDataObject;
	/** The page number asked (1 for an unpaged list). */
	page: number;
}

/**
 * A list's pages, one call each, until the answer says there is no more (one call for unpaged
 * lists); a page shorter than asked is read on when the answer says more follow (`hasMore`).
 * No record is given twice: records carrying `idField` are given once by their id, whatever
 * page they come on again. It always ends: a page that holds the same records as an earlier
 * page is passed over (records created meanwhile push whole pages on), but more of them in a
 * row than pages read ends it (a server ignoring `page`; an error when the answer says there
 * are more); the page limit ends it too (an error saying how far it got). What page-number paging cannot see: a record deleted
 * between two pages moves the next one onto a page already read, and it is not read.
 */
export async function* listPages(
	run: RunState,
	area: Area,
	op: Operation,
	req: ApiRequest,
	pageSize = op.perPage ?? 200,
	itemIndex?: number,
	/** The records' ID field (the resource's), when they carry one: records are given once by it, and a page's fingerprint is made of IDs. */
	idField?: string,
): AsyncGenerator<ListPage> {
	const ctx = run.ctx;
	const seen = new Set<string>();
	if (!op.pagination || op.pagination === 'none') {
		const { body, headers } = await vendorRequest(run, area, req, { itemIndex });
		yield {
			entries: unseen(answerRecords(ctx.getNode(), area, op, body, { itemIndex }), idField, seen),
			body,
			headers,
			page: 1,
		};
		return;
	}
	const pagesSeen = new Set<string>();
	let records = 0;
	let repeats = 0;
	for (let page = 1; ; page++) {
		if (page > run.pageLimit) throw pageLimitReached(ctx, run.pageLimit, records, itemIndex);
		const { body, headers } = await vendorRequest(run, area, pageRequest(req, page, pageSize), {
			itemIndex,
		});
		const entries = answerRecords(ctx.getNode(), area, op, body, { itemIndex });
		const fingerprint = entries.length > 0 ? pageFingerprint(entries, idField) : '';
		if (page > 1 && entries.length > 0 && pagesSeen.has(fingerprint)) {
			// Records created meanwhile push pages already read on (k pages' worth: the next k pages
			// repeat earlier ones, at most as many as were read): passed over. More repeats in a row
			// than pages read is a server answering the same pages whatever `page` asks: the end of
			// a list whose paging is guessed, an error when the answer says there is more (it would
			// never end).
			if (++repeats <= pagesSeen.size) continue;
			if (pagingFacts(body).more !== true) return;
			throw repeatedPages(ctx, page, records, repeats, itemIndex);
		}
		repeats = 0;
		pagesSeen.add(fingerprint);
		const fresh = unseen(entries, idField, seen);
		records += fresh.length;
		yield { entries: fresh, body, headers, page };
		if (!hasMore(op, body, entries, pageSize) || entries.length === 0) return;
	}
}

export function fileNameFrom(headers: IDataObject, fallback: string): string {
	const cd = String(headers['content-disposition'] ?? '');
	const match = cd.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
	return match ? decodeURIComponent(match[1]) : fallback;
}
