/**
 * One HTTP request from arrival to answer: record, latency, a fault that answers without
 * processing, then the accounts server or the API pipeline, sent as a bad-answer fault wants.
 */
import type http from '../host/http';
import { admin, isAdminPath } from './admin';
import { answer, captureAnswer, htmlAnswer } from './bad-answers';
import type { Fault } from './faults';
import { apiReply } from './pipeline';
import { familyError, faultReply } from './replies';
import { firstValues, flatHeaders, type ParsedBody, parseBody } from './request';
import type { Family, MatchResult } from './routes';
import type { Reply } from './rules/context';
import { refuse } from './rules/refusals';
import { PIPELINE, requireSource } from './rules/table-sources';
import type { EmulatorState } from './state';
import type { Rec } from './store';
import { type RecordedRequest, REGIONS } from './types';
import { render, send, write } from './wire';

/** A request as routed: its family (by path), the API route it matches, and its log entry. */
interface Incoming {
	req: http.IncomingMessage;
	res: http.ServerResponse;
	url: URL;
	raw: Buffer;
	body: ParsedBody;
	method: string;
	region: string;
	family: Family | 'accounts' | undefined;
	query: Record<string, string>;
	found?: MatchResult;
	rec: RecordedRequest;
}

export async function handleRequest(
	state: EmulatorState,
	req: http.IncomingMessage,
	res: http.ServerResponse,
): Promise<void> {
	const chunks: Buffer[] = [];
	for await (const c of req) chunks.push(c as Buffer);
	const raw = Buffer.concat(chunks);
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const body = parseBody(String(req.headers['content-type'] ?? ''), raw);
	if (isAdminPath(url.pathname)) return admin(state, req, res, url, body);
	const incoming = route(state, req, res, url, raw, body);
	if (state.latency.ms > 0) {
		await state.pending.sleep(state.latency.draw());
		if (state.pending.closing) return void req.socket.destroy();
	}
	const { method, region, family, found, rec } = incoming;
	const fault = state.faults.take({
		method,
		path: rec.path,
		region,
		area: rec.area,
		operation: rec.operation,
		kind: found?.kind === 'ok' ? found.match.route.op.kind : undefined,
		query: rec.query,
		body: rec.body,
	});
	if (!(await earlyFault(state, incoming, fault))) return;
	if (
		!(REGIONS as readonly string[]).includes(region) ||
		!family ||
		(family !== 'accounts' && !found)
	) {
		const reply = refuse(
			PIPELINE.url,
			familyError(
				family === 'accounts' ? undefined : family,
				404,
				'url',
				family === 'projects' ? `No API at ${method} ${rec.path}` : 'Invalid URL Passed',
			),
		);
		return answer(res, render(reply), fault, state.pending);
	}
	if (family === 'accounts') return accountsAnswer(state, incoming, fault);
	apiAnswer(state, { ...incoming, family, found: found as MatchResult }, fault);
}

/** Routes the request by path (region, family, API route), records it and counts it in flight. */
function route(
	state: EmulatorState,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	url: URL,
	raw: Buffer,
	body: ParsedBody,
): Incoming {
	const method = (req.method ?? 'GET').toUpperCase();
	const [, region = '', ...rest] = url.pathname.split('/');
	const sub = `/${rest.join('/')}`;
	const family: Family | 'accounts' | undefined = sub.startsWith('/oauth/')
		? 'accounts'
		: sub === '/api' || sub.startsWith('/api/')
			? 'accounting'
			: sub === '/projects' || sub.startsWith('/projects/')
				? 'projects'
				: undefined;
	const familyPath =
		family === 'accounting'
			? sub.slice('/api'.length)
			: family === 'projects'
				? sub.slice('/projects'.length)
				: sub;
	const query = firstValues(url.searchParams);
	const rec: RecordedRequest = {
		method,
		path: url.pathname,
		query,
		headers: flatHeaders(req),
		body: body.recorded,
		region,
		status: 0,
		time: Date.now(),
	};
	state.requests.push(rec);
	res.on('finish', () => {
		rec.status = res.statusCode;
	});
	const found =
		family && family !== 'accounts' ? state.router.match(family, method, familyPath) : undefined;
	if (family === 'accounts') rec.area = 'accounts';
	else if (found?.kind === 'ok')
		Object.assign(rec, { area: found.match.route.area.value, operation: found.match.route.id });
	else if (found?.area) rec.area = found.area.value;
	if (rec.area && rec.area !== 'accounts') {
		state.inFlight.now++;
		state.inFlight.max = Math.max(state.inFlight.max, state.inFlight.now);
		res.once('close', () => state.inFlight.now--);
	}
	return { req, res, url, raw, body, method, region, family, query, found, rec };
}

/** Applies a fault that acts before processing (drop, status, html, hang); false when the request is done. */
async function earlyFault(
	state: EmulatorState,
	{ req, res, family }: Incoming,
	fault: Fault | undefined,
): Promise<boolean> {
	switch (fault?.kind) {
		case 'drop':
			req.socket.destroy();
			return false;
		case 'status':
			send(res, faultReply(family === 'accounts' ? undefined : family, fault));
			return false;
		case 'html':
			write(res, htmlAnswer(fault));
			return false;
		case 'hang':
			await state.pending.sleep(fault.ms);
			if (!state.pending.closing) return true;
			req.socket.destroy();
			return false;
		default:
			return true;
	}
}

/** The accounts server's answer (it writes it itself), through a bad-answer fault if any. */
async function accountsAnswer(
	state: EmulatorState,
	{ req, res, url, region, raw }: Incoming,
	fault: Fault | undefined,
): Promise<void> {
	if (fault?.kind === 'dropAfterCommit') {
		res.writeHead = (() => res) as unknown as typeof res.writeHead;
		res.end = (() => {
			req.socket.destroy();
			return res;
		}) as unknown as typeof res.end;
	}
	if (fault?.kind === 'truncated' || fault?.kind === 'empty' || fault?.kind === 'drip')
		captureAnswer(res, fault, state.pending);
	if (!(await state.accounts.handle(req, res, url, region, raw)))
		send(res, { status: 404, json: { error: 'not_found' } });
}

/** The API pipeline's answer, changed by a fault that acts on the processed answer (dropAfterCommit, noPageContext, endlessPages, bad answers). */
function apiAnswer(
	state: EmulatorState,
	incoming: Incoming & { family: Family; found: MatchResult },
	fault: Fault | undefined,
): void {
	const { req, res, method, region, family, query, found, rec, body } = incoming;
	let reply: Reply;
	try {
		const asked =
			fault?.kind === 'noPageContext' && fault.ignorePage ? { ...query, page: '1' } : query;
		reply = requireSource(
			`${method} ${rec.path}`,
			apiReply(state, found, { req, method, path: rec.path, family, region, query: asked, body }),
		);
	} catch (error) {
		reply = familyError(family, 500, 'internal', `Internal error: ${(error as Error).message}`);
	}
	if (fault?.kind === 'dropAfterCommit') return void req.socket.destroy();
	if (fault?.kind === 'noPageContext' && reply.json && typeof reply.json === 'object')
		delete (reply.json as Rec).page_context;
	const route = found.kind === 'ok' ? found.match.route : undefined;
	if (fault?.kind === 'endlessPages' && route && reply.status >= 200 && reply.status < 300)
		reply = { ...reply, json: state.endless.page(route, query, reply.json) };
	answer(res, render(reply), fault, state.pending);
}
