/**
 * The faults that change a processed answer where it is sent: `truncated`, `empty`, `drip`
 * (`answer`, `captureAnswer` for the accounts server), `endlessPages`; `html` at once (`htmlAnswer`).
 */
import http from '../host/http';
import zlib from '../host/zlib';
import { endlessPage, type Fault, listOf } from './faults';
import type { Pending } from './pending';
import type { Route } from './routes';
import { isAccounting } from './rules/answers';
import type { Rec } from './store';
import { type Wire, without, write } from './wire';

/** The page of an `html` fault. */
function htmlPage(status: number): string {
	const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
	if (status >= 400)
		return `<!DOCTYPE html><html><head><title>${title}</title></head>\n<body>\n<center><h1>${title}</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n`;
	return '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="5"></head>\n<body>\n<h1>Checking your browser before accessing the site.</h1>\n<p>This process is automatic. Your browser will redirect to your requested content shortly.</p>\n</body>\n</html>\n';
}

export function htmlAnswer(fault: Extract<Fault, { kind: 'html' }>): Wire {
	const status = fault.status ?? 200;
	return {
		status,
		headers: { 'Content-Type': fault.contentType ?? 'text/html', 'Cache-Control': 'no-store' },
		payload: Buffer.from(fault.body ?? htmlPage(status), 'utf8'),
	};
}

/** How many of `total` bytes `keep` keeps: a fraction below 1, else a byte count; always fewer than `total` (0 when empty). */
function keptBytes(total: number, keep = 0.5): number {
	const want = keep < 1 ? Math.floor(total * keep) : Math.floor(keep);
	return Math.max(0, Math.min(want, total - 1));
}

/** What a lenient gunzip (flushing what it has, as undici and axios do) makes of `data`. */
function lenientGunzip(data: Buffer): Buffer {
	try {
		return zlib.gunzipSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
	} catch {
		return Buffer.alloc(0);
	}
}

function truncatedAnswer(wire: Wire, fault: Extract<Fault, { kind: 'truncated' }>): Wire {
	const headers = without(wire.headers, 'content-length', 'content-encoding');
	if (!fault.gzip)
		return {
			status: wire.status,
			headers,
			payload: wire.payload.subarray(0, keptBytes(wire.payload.length, fault.keep)),
		};
	const gz = zlib.gzipSync(wire.payload);
	let kept = keptBytes(gz.length, fault.keep);
	// A cut inside the trailer (or right after the last deflate block) still inflates to the whole body leniently.
	while (
		kept > 0 &&
		wire.payload.length > 0 &&
		lenientGunzip(gz.subarray(0, kept)).length >= wire.payload.length
	)
		kept--;
	return {
		status: wire.status,
		headers: { ...headers, 'Content-Encoding': 'gzip' },
		payload: gz.subarray(0, kept),
	};
}

function emptyAnswer(wire: Wire, fault: Extract<Fault, { kind: 'empty' }>): Wire {
	return {
		status: 200,
		headers: {
			...without(
				wire.headers,
				'content-type',
				'content-length',
				'content-encoding',
				'content-disposition',
			),
			'Content-Type': fault.contentType ?? 'application/json',
		},
		payload: Buffer.alloc(0),
	};
}

/** Lists whose records are not the resource's own (id and name fields of their entries). */
const ENDLESS_FIELDS: Readonly<Record<string, { idField: string; nameField: string }>> = {
	'billing.project.getInvoices': { idField: 'invoice_id', nameField: 'invoice_number' },
};

/** Page, page size and record fields of an `endlessPages` answer to a list call. */
function endlessShape(
	route: Route,
	query: Record<string, string>,
): { page: number; perPage: number; idField: string; nameField: string } {
	const asked = (v: string | undefined): number | undefined =>
		v !== undefined && Number.isInteger(Number(v)) && Number(v) >= 1 ? Number(v) : undefined;
	const accounting = isAccounting(route.area);
	const fields =
		ENDLESS_FIELDS[route.id] ??
		(accounting
			? { idField: route.resource.idField ?? 'id', nameField: route.resource.nameField ?? 'name' }
			: { idField: 'id', nameField: 'name' });
	return {
		page: asked(query.page) ?? 1,
		perPage: asked(query.per_page) ?? route.op.perPage ?? (accounting ? 200 : 100),
		...fields,
	};
}

/** `endlessPages`: the last real list record per operation, the template of pages past the real ones. */
export class EndlessPages {
	private readonly templates = new Map<string, Rec>();

	/** The endless page that replaces the list answer `json` of `route`. */
	page(route: Route, query: Record<string, string>, json: unknown): unknown {
		const first = listOf(json)?.records[0];
		if (first && typeof first === 'object' && !Array.isArray(first))
			this.templates.set(route.id, first as Rec);
		return endlessPage(json, {
			...endlessShape(route, query),
			template: this.templates.get(route.id),
		});
	}
}

/** Sends `wire`, as the request's bad-answer fault (if any) wants it. */
export function answer(
	res: http.ServerResponse,
	wire: Wire,
	fault: Fault | undefined,
	pending: Pending,
): void {
	if (fault?.kind === 'truncated') return write(res, truncatedAnswer(wire, fault));
	if (fault?.kind === 'empty') return write(res, emptyAnswer(wire, fault));
	if (fault?.kind === 'drip') return pending.drip(res, wire, fault);
	write(res, wire);
}

/**
 * Makes a handler's `res.writeHead(status, headers)` + `res.end(body)` (the accounts
 * server's only way of answering) go through `answer` with `fault`.
 */
export function captureAnswer(res: http.ServerResponse, fault: Fault, pending: Pending): void {
	const wire: Wire = { status: 200, headers: {}, payload: Buffer.alloc(0) };
	const writeHead = res.writeHead;
	const end = res.end;
	res.writeHead = ((status: number, ...rest: unknown[]) => {
		wire.status = status;
		const headers = rest.find((x) => x && typeof x === 'object');
		if (headers) wire.headers = { ...(headers as Record<string, string | number>) };
		return res;
	}) as typeof res.writeHead;
	res.end = ((chunk?: unknown) => {
		res.writeHead = writeHead;
		res.end = end;
		if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) wire.payload = Buffer.from(chunk);
		answer(res, wire, fault, pending);
		return res;
	}) as typeof res.end;
}
