/**
 * Replies as they go over the wire: a `Reply` rendered to status, headers and bytes, and written
 * with its `Content-Length`.
 */
import type http from '../host/http';
import type { Reply } from './rules/context';

/** An answer as it goes over the wire: status, headers (without Content-Length) and body bytes. */
export interface Wire {
	status: number;
	headers: Record<string, string | number>;
	payload: Buffer;
}

export function render(reply: Reply): Wire {
	const headers: Record<string, string | number> = {
		'Cache-Control': 'no-store',
		...(reply.headers ?? {}),
	};
	let payload: Buffer;
	if (reply.file) {
		payload = reply.file.data;
		headers['Content-Type'] = reply.file.contentType;
		headers['Content-Disposition'] =
			`attachment; filename="${reply.file.fileName.replace(/["\r\n]/g, '_')}"`;
	} else {
		payload = Buffer.from(reply.json === undefined ? '' : JSON.stringify(reply.json));
		headers['Content-Type'] = 'application/json;charset=UTF-8';
	}
	return { status: reply.status, headers, payload };
}

/** `headers` without the names in `drop` (any case). */
export function without(
	headers: Record<string, string | number>,
	...drop: string[]
): Record<string, string | number> {
	return Object.fromEntries(
		Object.entries(headers).filter(([k]) => !drop.includes(k.toLowerCase())),
	);
}

export function write(res: http.ServerResponse, wire: Wire): void {
	res.writeHead(wire.status, {
		...without(wire.headers, 'content-length'),
		'Content-Length': wire.payload.length,
	});
	res.end(wire.payload);
}

export function send(res: http.ServerResponse, reply: Reply): void {
	write(res, render(reply));
}
