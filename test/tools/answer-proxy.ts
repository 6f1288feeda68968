/**
 * A test tool, not part of the emulator: an HTTP server on 127.0.0.1 that a credential's API
 * URLs point at. By default it forwards every request to the emulator (`target`) and passes the
 * answer back as it came; a rule makes it answer a request itself instead:
 *
 * - a made-up answer (`{ status, contentType, body }`, body a string or a Buffer);
 * - a dropped connection (the socket destroyed once the whole request is in: the request was
 *   sent, no answer came);
 * - forward and then replace (`replace(upstream)` turns the emulator's answer into another).
 *
 * A rule matches by method and a regular expression on the path (without the query), or by any
 * test of the request (its query, its body); `nth` limits it to the Nth matching requests
 * (1-based, counted per rule since it was added). Every request that passed through is recorded
 * with who answered it and how, and when it arrived (`Date.now()`, so a test's clock).
 *
 * A token answer's `api_domain` that names the emulator is rewritten to name the proxy, so the
 * requests made with a refreshed token go through the proxy too.
 *
 * `serviceClock`, when set, is the service's clock: every answer (forwarded or made up) then
 * carries a `Date` header of that time, as a server whose clock is off from n8n's would send.
 */
import * as http from '../../host/http';
import type { AddressInfo } from '../../host/net';

/** An answer the proxy gives itself. */
export interface MadeAnswer {
	status: number;
	contentType?: string;
	body: string | Buffer;
	headers?: Record<string, string>;
}

/** What the emulator answered, given to a `replace` rule. */
export interface UpstreamAnswer {
	status: number;
	headers: http.IncomingMessage['headers'];
	body: Buffer;
	/** The body parsed as JSON, when it is JSON. */
	json?: unknown;
}

/** A request as the proxy saw it. */
export interface ProxiedRequest {
	method: string;
	/** The path without the query. */
	path: string;
	query: Record<string, string>;
	/** The body as text (empty when none). */
	text: string;
	/** The body parsed as JSON, when it is JSON. */
	json?: unknown;
	headers: http.IncomingMessage['headers'];
}

export type ProxyAction =
	| { answer: MadeAnswer }
	| { drop: true }
	| { replace: (upstream: UpstreamAnswer, request: ProxiedRequest) => MadeAnswer };

export interface ProxyRule {
	method?: string;
	/** Matched against the path without the query. */
	path?: RegExp;
	/** Any other condition on the request (its query, its body). */
	test?: (request: ProxiedRequest) => boolean;
	/** Only the Nth matching requests (1-based) take the action; the others pass as if the rule were not there. */
	nth?: number | number[];
	action: ProxyAction;
	/** How many requests matched so far (kept by the proxy). */
	seen?: number;
}

/** A request that passed through and what became of it. */
export interface ProxyRecord extends ProxiedRequest {
	/** `forwarded`: the emulator's answer as it came; `answered`: made up; `dropped`: no answer; `replaced`: forwarded, answer replaced. */
	outcome: 'forwarded' | 'answered' | 'dropped' | 'replaced';
	/** The status the client got (undefined when dropped). */
	status?: number;
	/** The status the emulator gave (forwarded and replaced requests). */
	upstreamStatus?: number;
	/** What the emulator answered, parsed (forwarded and replaced requests with a JSON answer). */
	upstreamJson?: unknown;
	/** `Date.now()` when the whole request was in (the test's clock, virtual or real). */
	arrivedAt: number;
}

export interface AnswerProxy {
	/** `http://127.0.0.1:<port>`: replaces the emulator's base URL in a credential's URLs. */
	url: string;
	records: ProxyRecord[];
	/** Adds a rule; the first matching rule (in the order added) acts. Returns the rule (its `seen` count). */
	add(rule: ProxyRule): ProxyRule;
	/** Removes every rule and forgets the records (the service clock stays). */
	reset(): void;
	/** The service's time (epoch ms) for the `Date` header of every answer; undefined: the header as it comes. */
	serviceClock?: () => number;
	close(): Promise<void>;
}

function parseJson(buffer: Buffer): unknown {
	if (!buffer.length) return undefined;
	try {
		return JSON.parse(buffer.toString('utf8'));
	} catch {
		return undefined;
	}
}

async function readBody(stream: http.IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function matches(rule: ProxyRule, request: ProxiedRequest): boolean {
	if (rule.method && rule.method.toUpperCase() !== request.method) return false;
	if (rule.path && !rule.path.test(request.path)) return false;
	return !rule.test || rule.test(request);
}

/** Whether the rule acts on this matching request (its `nth` counting), counting it. */
function takes(rule: ProxyRule): boolean {
	rule.seen = (rule.seen ?? 0) + 1;
	if (rule.nth === undefined) return true;
	return (Array.isArray(rule.nth) ? rule.nth : [rule.nth]).includes(rule.seen);
}

/** Sends one request to the emulator and reads its whole answer. */
async function forward(
	target: URL,
	req: http.IncomingMessage,
	body: Buffer,
): Promise<UpstreamAnswer> {
	return await new Promise((resolve, reject) => {
		const headers = { ...req.headers, host: target.host };
		delete headers.connection;
		const upstream = http.request(
			{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
			(res) => {
				readBody(res)
					.then((buffer) =>
						resolve({
							status: res.statusCode ?? 502,
							headers: res.headers,
							body: buffer,
							json: parseJson(buffer),
						}),
					)
					.catch(reject);
			},
		);
		upstream.on('error', reject);
		upstream.end(body);
	});
}

/** The `Date` header of the service clock, if one is set. */
function dated(clock: (() => number) | undefined): Record<string, string> {
	return clock ? { date: new Date(clock()).toUTCString() } : {};
}

function send(res: http.ServerResponse, answer: MadeAnswer, clock?: () => number): void {
	const body = Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(answer.body, 'utf8');
	res.writeHead(answer.status, {
		...(answer.contentType ? { 'Content-Type': answer.contentType } : {}),
		'Content-Length': String(body.length),
		...dated(clock),
		...answer.headers,
	});
	res.end(body);
}

/** What the emulator answered, passed on unchanged (its length recomputed: the body was read whole). */
function passOn(res: http.ServerResponse, upstream: UpstreamAnswer, clock?: () => number): void {
	const headers = { ...upstream.headers, ...dated(clock) };
	delete headers['transfer-encoding'];
	delete headers.connection;
	headers['content-length'] = String(upstream.body.length);
	res.writeHead(upstream.status, headers);
	res.end(upstream.body);
}

/**
 * A token answer's `api_domain` pointing at the emulator, pointed at the proxy instead: a
 * refreshed token keeps the node's requests going through the proxy.
 */
function keepThroughProxy(upstream: UpstreamAnswer, target: URL, proxyUrl: string): UpstreamAnswer {
	const json = upstream.json as { api_domain?: unknown } | undefined;
	if (!json || typeof json.api_domain !== 'string' || !json.api_domain.startsWith(target.origin))
		return upstream;
	const body = Buffer.from(
		JSON.stringify({ ...json, api_domain: json.api_domain.replace(target.origin, proxyUrl) }),
		'utf8',
	);
	return { ...upstream, body, json: parseJson(body) };
}

/** Starts a proxy in front of `target` (the emulator's base URL, `http://127.0.0.1:<port>`). */
export async function startAnswerProxy(target: string): Promise<AnswerProxy> {
	const to = new URL(target);
	let rules: ProxyRule[] = [];
	const records: ProxyRecord[] = [];
	const proxy = {} as AnswerProxy;

	const server = http.createServer((req, res) => {
		void (async () => {
			const body = await readBody(req);
			const url = new URL(req.url ?? '/', 'http://proxy');
			const request: ProxiedRequest = {
				method: (req.method ?? 'GET').toUpperCase(),
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				text: body.toString('utf8'),
				json: parseJson(body),
				headers: req.headers,
			};
			const rule = rules.find((r) => matches(r, request) && takes(r));
			const record: ProxyRecord = { ...request, outcome: 'forwarded', arrivedAt: Date.now() };
			records.push(record);
			const action = rule?.action;
			if (action && 'drop' in action) {
				record.outcome = 'dropped';
				req.socket.destroy();
				return;
			}
			if (action && 'answer' in action) {
				record.outcome = 'answered';
				record.status = action.answer.status;
				send(res, action.answer, proxy.serviceClock);
				return;
			}
			const upstream = await forward(to, req, body);
			record.upstreamStatus = upstream.status;
			record.upstreamJson = upstream.json;
			if (action && 'replace' in action) {
				const answer = action.replace(upstream, request);
				record.outcome = 'replaced';
				record.status = answer.status;
				send(res, answer, proxy.serviceClock);
				return;
			}
			record.status = upstream.status;
			passOn(res, keepThroughProxy(upstream, to, proxy.url), proxy.serviceClock);
		})().catch((error: Error) => {
			if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
			res.end(`answer proxy: ${error.message}`);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return Object.assign(proxy, {
		url: `http://127.0.0.1:${port}`,
		records,
		add(rule: ProxyRule) {
			rule.seen = 0;
			rules.push(rule);
			return rule;
		},
		reset() {
			rules = [];
			records.length = 0;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	});
}

/** `{ status: 200, contentType: JSON, body }` from a value. */
export function jsonAnswer(body: unknown, status = 200): MadeAnswer {
	return { status, contentType: 'application/json;charset=UTF-8', body: JSON.stringify(body) };
}
