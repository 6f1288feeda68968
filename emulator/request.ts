/**
 * Reading a request: the body (JSON, form fields, multipart parts and files), the query's first
 * values and the headers in lower case.
 */
import type http from '../host/http';
import type { FilePart } from './rules/context';

export interface MultipartPart {
	name: string;
	fileName?: string;
	contentType?: string;
	/** Text of non-file parts. */
	value?: string;
	data: Buffer;
}

function parseMultipart(buf: Buffer, boundary: string): MultipartPart[] {
	const delimiter = Buffer.from(`--${boundary}`);
	const parts: MultipartPart[] = [];
	let pos = buf.indexOf(delimiter);
	while (pos !== -1) {
		const start = pos + delimiter.length;
		if (buf.subarray(start, start + 2).toString() === '--') break;
		const next = buf.indexOf(delimiter, start);
		if (next === -1) break;
		const part = buf.subarray(start + 2, next - 2);
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd !== -1) {
			const head = part.subarray(0, headerEnd).toString('utf8');
			const data = Buffer.from(part.subarray(headerEnd + 4));
			const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
			const fileName = /filename="([^"]*)"/i.exec(head)?.[1];
			const contentType = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
			parts.push({
				name,
				fileName,
				contentType,
				data,
				value: fileName === undefined ? data.toString('utf8') : undefined,
			});
		}
		pos = next;
	}
	return parts;
}

export interface ParsedBody {
	/** What the rules see: JSON, or the JSON of a multipart `JSONString` part. */
	json: unknown;
	files: FilePart[];
	/** What the request log shows. */
	recorded: unknown;
	error?: string;
}

export function parseBody(contentType: string, buf: Buffer): ParsedBody {
	if (buf.length === 0) return { json: undefined, files: [], recorded: undefined };
	const text = (): string => buf.toString('utf8');
	if (/multipart\/form-data/i.test(contentType)) {
		const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
		const parts = boundary ? parseMultipart(buf, boundary[1] ?? boundary[2]) : [];
		const files = parts
			.filter((p) => p.fileName !== undefined)
			.map((p) => ({
				field: p.name,
				fileName: p.fileName ?? '',
				contentType: p.contentType ?? 'application/octet-stream',
				data: p.data,
			}));
		const jsonPart = parts.find((p) => p.name === 'JSONString');
		let json: unknown;
		let error: string | undefined;
		if (jsonPart) {
			try {
				json = JSON.parse(jsonPart.value ?? '');
			} catch {
				error = 'JSONString is not valid JSON';
			}
		}
		return { json, files, recorded: parts, error };
	}
	if (/json/i.test(contentType)) {
		try {
			const json: unknown = JSON.parse(text());
			return { json, files: [], recorded: json };
		} catch {
			return {
				json: undefined,
				files: [],
				recorded: text(),
				error: 'the request body is not valid JSON',
			};
		}
	}
	if (/x-www-form-urlencoded/i.test(contentType)) {
		const form = Object.fromEntries(new URLSearchParams(text()));
		return { json: form, files: [], recorded: form };
	}
	return { json: undefined, files: [], recorded: text() };
}

export function firstValues(params: URLSearchParams): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of params) if (!(k in out)) out[k] = v;
	return out;
}

export function flatHeaders(req: http.IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers))
		if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
	return out;
}
