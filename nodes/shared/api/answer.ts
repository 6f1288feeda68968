// Talking to the API (api/): reading an answer's bytes and headers (JSON, Retry-After, Location); imports only api/ files.
/**
 * What an answer says, read from its bytes and headers, with no effect: the body as JSON
 * (a UTF-8 byte-order mark or whitespace before it too, integers past 2^53 kept exact), why a
 * successful status's body is not the API's answer, an envelope's refusal, a token problem,
 * a `Retry-After` in both its forms and where a redirect pointed.
 */
import type { IDataObject } from 'n8n-workflow';

import { redactTokens } from './nodeErrors';
import { parseJson } from './json';

/** One header as text (the first, when a server repeated it); undefined when absent. */
export function headerText(headers: IDataObject, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return first === undefined || first === null ? undefined : String(first);
}

/** The first byte that is not a UTF-8 byte-order mark or JSON whitespace; undefined when there is none. */
function firstSignificantByte(raw: Buffer): number | undefined {
	let i = raw.length >= 3 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? 3 : 0;
	while (
		i < raw.length &&
		(raw[i] === 0x20 || raw[i] === 0x09 || raw[i] === 0x0a || raw[i] === 0x0d)
	)
		i++;
	return i < raw.length ? raw[i] : undefined;
}

/**
 * The body as JSON: when labelled JSON, or (unless a file is expected) when it starts with `{`
 * or `[` after a byte-order mark and whitespace; undefined when it is not JSON.
 */
export function parseBody(raw: Buffer, contentType: string, binary = false): unknown {
	const first = firstSignificantByte(raw);
	if (!/json/i.test(contentType) && (binary || (first !== 0x7b && first !== 0x5b)))
		return undefined;
	try {
		return parseJson(raw.toString('utf8'));
	} catch {
		return undefined;
	}
}

/** What came back, for an error: the first bytes as text, whitespace folded, tokens redacted. */
function firstBytes(raw: Buffer): string {
	const text = redactTokens(
		raw
			.subarray(0, 120)
			.toString('utf8')
			.replace(/^\uFEFF/, '')
			.replace(/\s+/g, ' ')
			.trim(),
	);
	return raw.length > 120 ? `${text}...` : text;
}

/**
 * Why a successful status's answer is not what the request expects (undefined when it is):
 * JSON where JSON is expected (a file may be anything but an HTML page or broken JSON). A
 * proxy's HTML page, JSON cut short or an empty body must never pass as the API's answer.
 */
export function unexpectedAnswer(
	raw: Buffer,
	contentType: string,
	parsed: unknown,
	binary: boolean,
): string | undefined {
	if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) return undefined;
	const labelledJson = /json/i.test(contentType);
	const html = /html/i.test(contentType) || (labelledJson && firstSignificantByte(raw) === 0x3c);
	const what = (kind: string) =>
		`${kind} (content type ${contentType || 'none'}, ${raw.length} bytes${raw.length ? `: ${firstBytes(raw)}` : ''})`;
	if (html) return what("an HTML page, not the API's answer");
	if (binary && !labelledJson) return undefined;
	if (raw.length === 0) return what('an empty body');
	try {
		parseJson(raw.toString('utf8'));
	} catch (error) {
		if (/end of (JSON )?input|unterminated/i.test((error as Error).message))
			return what('JSON cut short');
		return what('a body that is not JSON');
	}
	return what('JSON that is not an object or a list');
}

/** An envelope that refuses: a project-area `errorCode`, or an accounting `code` other than 0. */
export function envelopeFailed(body: unknown): boolean {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
	const b = body as IDataObject;
	if (typeof b.errorCode === 'string') return true;
	return b.code !== undefined && b.code !== 0 && b.code !== '0';
}

/** A 401, or an `INVALID_OAUTHTOKEN` envelope: the token, not the request, was refused. */
export function isTokenProblem(status: number, body: unknown): boolean {
	return (
		status === 401 ||
		(!!body && typeof body === 'object' && (body as IDataObject).errorCode === 'INVALID_OAUTHTOKEN')
	);
}

/**
 * A `Retry-After` as a wait in ms: delta-seconds, or an HTTP date, measured from the answer's
 * own `Date` when it has one (the server's clock against the server's clock), else from `now`;
 * undefined when absent or unreadable. A date already past is no wait (0).
 */
export function retryAfterMs(headers: IDataObject, now: number): number | undefined {
	const value = headerText(headers, 'retry-after')?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
	const at = Date.parse(value);
	if (Number.isNaN(at)) return undefined;
	const said = Date.parse(headerText(headers, 'date') ?? '');
	return Math.max(0, at - (Number.isNaN(said) ? now : said));
}

/** The wait before retry `attempt` (0, 1, 2) when the answer gives none: 1 s, 2 s, 4 s, at most 30 s. */
export function backoffMs(attempt: number): number {
	return Math.min(1000 * 2 ** attempt, 30_000);
}

/** Where a redirect pointed, as host and path only (never its query, which may carry a secret), resolved against the request's URL. */
export function redirectTarget(location: string | undefined, from: string): string {
	if (!location) return 'no address (the answer has no Location header)';
	try {
		const to = new URL(location, from);
		return redactTokens(`${to.host}${to.pathname}`);
	} catch {
		return 'an address that is not a URL';
	}
}

/** `page_context` as an object or an array of one object. */
export function pageContext(body: unknown): IDataObject | undefined {
	const pc = (body as IDataObject | undefined)?.page_context;
	if (Array.isArray(pc)) return pc[0] as IDataObject;
	return pc as IDataObject | undefined;
}
