/**
 * A test tool: a second local server on 127.0.0.1, the "other host" a redirect points at. It
 * records every request it receives (method, path, headers, body) and answers each with a
 * plausible success envelope carrying a marker, so a test can tell whether a client followed a
 * redirect (a request arrived here), what it carried there (an Authorization header, a body, a
 * secret), and whether this server's answer was taken as the API's (the marker in an output).
 */
import * as http from '../../host/http';
import type { AddressInfo } from '../../host/net';

/** The text every answer of the wire server carries: found in an output, it was taken as the API's answer. */
export const ELSEWHERE_MARKER = 'answered-by-another-host';

interface WireRequest {
	method: string;
	/** Path and query as received. */
	url: string;
	headers: http.IncomingMessage['headers'];
	body: string;
}

export interface WireServer {
	/** `http://127.0.0.1:<port>` */
	url: string;
	received: WireRequest[];
	close(): Promise<void>;
}

async function readBody(stream: http.IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** Starts the server; `answer` changes what it answers (default: a code-0 envelope with the marker in every usual record key). */
export async function startWireServer(
	answer?: (request: WireRequest) => { status: number; body: string },
): Promise<WireServer> {
	const received: WireRequest[] = [];
	const server = http.createServer((req, res) => {
		void readBody(req).then((body) => {
			const request: WireRequest = {
				method: (req.method ?? 'GET').toUpperCase(),
				url: req.url ?? '/',
				headers: req.headers,
				body,
			};
			received.push(request);
			const made = answer?.(request) ?? { status: 200, body: JSON.stringify(markedEnvelope()) };
			res.writeHead(made.status, {
				'Content-Type': 'application/json;charset=UTF-8',
				'Content-Length': String(Buffer.byteLength(made.body)),
			});
			res.end(made.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A success envelope whose every common record key holds a record with the marker. */
function markedEnvelope(): Record<string, unknown> {
	const record = { id: ELSEWHERE_MARKER, name: ELSEWHERE_MARKER };
	const keys = [
		'item',
		'items',
		'estimate',
		'estimates',
		'invoice',
		'invoices',
		'payment',
		'customerpayments',
		'project',
		'projects',
		'bill',
		'bills',
		'comments',
		'templates',
		'data',
		'info',
		'payment_refunds',
		'portals',
		'tasks',
		'bin',
	];
	return {
		code: 0,
		message: ELSEWHERE_MARKER,
		...Object.fromEntries(keys.map((k) => [k, k.endsWith('s') ? [record] : record])),
		count: 1,
	};
}
