/**
 * The accounts server's request reading and answers: body parameters, Basic credentials, JSON and
 * HTML answers, the emulator's pages.
 */
import type { IncomingMessage, ServerResponse } from '../host/http';
import type { Source } from '../nodes/shared/tables/spec';
import { SOURCE_HEADER } from './source';

function escapeHtml(s: string): string {
	return s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

function headerValue(req: IncomingMessage, name: string): string {
	const v = req.headers[name.toLowerCase()];
	return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** Parses a form-urlencoded or JSON body into string parameters (non-scalar JSON values are dropped). */
export function parseBodyParams(req: IncomingMessage, body: Buffer): Map<string, string> {
	const out = new Map<string, string>();
	if (!body || body.length === 0) return out;
	const text = body.toString('utf8');
	if (/json/i.test(headerValue(req, 'content-type'))) {
		try {
			const parsed: unknown = JSON.parse(text);
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
				for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
					if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
						out.set(k, String(v));
				}
			}
		} catch {
			// malformed JSON: treated as no parameters
		}
		return out;
	}
	for (const [k, v] of new URLSearchParams(text)) if (!out.has(k)) out.set(k, v);
	return out;
}

export function parseBasicAuth(req: IncomingMessage): { id: string; secret: string } | undefined {
	const m = /^Basic\s+(\S+)$/i.exec(headerValue(req, 'authorization').trim());
	if (!m) return undefined;
	const decoded = Buffer.from(m[1], 'base64').toString('utf8');
	const i = decoded.indexOf(':');
	if (i < 0) return undefined;
	return { id: decoded.slice(0, i), secret: decoded.slice(i + 1) };
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json;charset=UTF-8',
		'Content-Length': Buffer.byteLength(text),
		'Cache-Control': 'no-store',
		Pragma: 'no-cache',
		...headers,
	});
	res.end(text);
}

export function sendHtml(
	res: ServerResponse,
	status: number,
	html: string,
	headers: Record<string, string> = {},
): void {
	res.writeHead(status, {
		'Content-Type': 'text/html;charset=UTF-8',
		'Content-Length': Buffer.byteLength(html),
		'Cache-Control': 'no-store',
		...headers,
	});
	res.end(html);
}

function page(title: string, body: string): string {
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>Vendor Accounts (emulator)</h1>
${body}
</body></html>
`;
}

/**
 * An authorization-request error: 400 with the code as an HTML page, or as JSON when the request
 * accepts JSON; the code in `X-Error`, where the refusal comes from in `X-Emulator-Source`.
 */
export function sendAuthError(
	req: IncomingMessage,
	res: ServerResponse,
	code: string,
	source: Source,
): void {
	const headers = { 'X-Error': code, [SOURCE_HEADER]: source };
	if (/application\/json/i.test(headerValue(req, 'accept'))) {
		sendJson(res, 400, { error: code }, headers);
		return;
	}
	sendHtml(
		res,
		400,
		page(
			'Authorization error',
			`<p>The authorization request was refused.</p>\n<p id="error">${escapeHtml(code)}</p>`,
		),
		headers,
	);
}

/** The consent page: the client, region, access type and scopes asked, and Accept / Reject posting `request_id` to `/auth/decision`. */
export function consentPage(
	clientName: string,
	region: string,
	accessType: string,
	scopes: string[],
	requestId: string,
): string {
	const action = `/${encodeURIComponent(region)}/oauth/v2/auth/decision`;
	const hidden = `<input type="hidden" name="request_id" value="${escapeHtml(requestId)}">`;
	return page(
		`Authorize ${clientName}`,
		`<p><strong id="client-name">${escapeHtml(clientName)}</strong> would like to access your Vendor account data (data center <span id="region">${escapeHtml(region)}</span>).</p>
<p>Access type: <span id="access-type">${accessType}</span></p>
<p>Requested permissions:</p>
<ul id="scopes">
${scopes.map((s) => `<li class="scope">${escapeHtml(s)}</li>`).join('\n')}
</ul>
<form id="consent" method="POST" action="${escapeHtml(action)}">
${hidden}
<button type="submit" id="accept" name="decision" value="accept">Accept</button>
<button type="submit" id="reject" name="decision" value="reject">Reject</button>
</form>`,
	);
}
