// Talking to the API (api/): owns requests from values, transport, pacing, limits, errors, waits and reading pages; imports only tables/.
/**
 * The one path every request takes, a short loop: sign (`token.ts`), take the pacer's turn and
 * a slot (`pacing.ts`, `limit.ts`), send under a deadline (`deadline.ts`), note the service's
 * clock (`clock.ts`), then do what the answer means (`decision.ts`, reading it with
 * `answer.ts`): done, wait and resend, refresh and resend, or fail. No request follows a
 * redirect: the token and a body never leave the API's addresses. What a request needs of its
 * run (the halt, patience and deadline, the Options, the limiter, the credential, the calls
 * sent, the replay memory) comes by hand with its run state (`run.ts`); what is per process
 * (the pacers, the token memory, the service's clock) stays in its own file.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { headerText } from './answer';
import { SERVER_CLOCKS } from './clock';
import { deadline, type RequestDeadline } from './deadline';
import { decide, FIRST_ATTEMPT, type AttemptState, type RequestFacts, type Sent } from './decision';
import { isOutcomeUnknown, outcomeUnknown, RateLimitBlockedError } from './failureKinds';
import { ACCOUNTING_RULE, DOCUMENTED_RULE, type Pacer, pacerFor } from './pacing';
import { regionUrls, trimSlash } from './regions';
import { withReplayNote, writeSlot, type PriorWrite, type Replay } from './replay';
import type { ApiRequest } from './request';
import type { RunState } from './run';
import { credentialKey, Signer, type TokenData, type VendorContext } from './token';
import type { Area } from '../tables/spec';
import { pause } from './wait';

export type { VendorContext } from './token';
export { CREDENTIAL, REFUSAL_MEMORY_MS, refreshFailureCause } from './token';
export { RunState } from './run';
export { pageContext } from './answer';

/** Under failFast patience (run.ts) a request's deadline is at most this (the Timeout option otherwise). */
export const FAIL_FAST_TIMEOUT_MS = 10_000;

export interface SendOptions {
	/** The answer is a file: returned as a Buffer with its headers. */
	binary?: boolean;
	/** A multipart body built by `multipart()`. */
	multipart?: { body: Buffer; contentType: string };
	itemIndex?: number;
}

export interface ApiResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

/** The organization a request of an accounting area is for (its query parameter or header, as the area sends it); '' when none. */
function organizationOf(area: Area, req: ApiRequest): string {
	if (!area.org) return '';
	const { in: where, name } = area.org;
	if (where === 'query') return String(req.qs?.[name] ?? '');
	const lower = name.toLowerCase();
	const header = Object.keys(req.headers ?? {}).find((k) => k.toLowerCase() === lower);
	return header === undefined ? '' : String(req.headers[header] ?? '');
}

/** A credential's requests per window for this n8n, as a share of the rule's limit (absent or not a positive number: all of it). */
function shareOf(value: unknown, limit: number): number {
	const perInstance = Number(value ?? limit);
	return Number.isFinite(perInstance) && perInstance > 0 ? perInstance / limit : 1;
}

/**
 * The pacer of a request: the project area's per credential, under its documented rule, at the
 * credential's Projects share; the accounting areas' one per credential and organization (they
 * share the organization's requests per minute), at the credential's Accounting Requests per
 * Minute. Per process: every execution of this n8n process with the credential shares it.
 */
function pacerOf(ctx: VendorContext, area: Area, req: ApiRequest, credentials: IDataObject): Pacer {
	if (area.family === 'projects')
		return pacerFor(
			`${credentialKey(ctx)}:${area.value}`,
			shareOf(credentials.projectsRequestsPerWindow, DOCUMENTED_RULE.limit),
		);
	return pacerFor(
		`accounting:${credentialKey(ctx)}:${organizationOf(area, req)}`,
		shareOf(credentials.accountingRequestsPerMinute, ACCOUNTING_RULE.limit),
		'accounting',
	);
}

/** The root URL of an area for these credentials. */
export function areaRoot(area: Area, credentials: IDataObject): string {
	const urls = regionUrls(credentials as { region?: string });
	const token = (credentials.oauthTokenData ?? {}) as TokenData;
	if (area.family === 'projects') return urls.projects;
	return token.api_domain ? trimSlash(String(token.api_domain)) : urls.api;
}

/** How a request is sent: the execution's stop, its deadline, and what a block does. */
interface Sending {
	signal?: AbortSignal;
	timeoutMs: number;
	failFast: boolean;
	/** Epoch ms no wait may end after (the run's `until`: a trigger poll's deadline); Infinity: none. */
	until: number;
	/** The next sending is the request sent again after a wait (counted in the run's `calls.resent`). */
	resend?: boolean;
	/** During a block: the error to end with instead of waiting (On Rate-Limit Block = fail, or failFast). */
	failWhenBlocked?: (until: number) => Error;
	/** The item the request is for (the run's halt: whether it has started). */
	itemIndex?: number;
}

/** One sending and what came of it; `release` gives the pacer its answer, in the same synchronous run as the hold the answer sets. */
interface SendResult {
	sent: Sent;
	release: () => void;
	sentAt: number;
	answeredAt: number;
}

function asAnswer(response: IN8nHttpFullResponse): Sent {
	const raw = Buffer.isBuffer(response.body)
		? response.body
		: Buffer.from((response.body as ArrayBuffer) ?? []);
	return {
		kind: 'answer',
		status: response.statusCode,
		headers: (response.headers ?? {}) as IDataObject,
		raw,
	};
}

/** Sends once: the pacer's turn (counted until its answer is back), a slot, the deadline, the call. */
async function sendOnce(
	run: RunState,
	pacer: Pacer,
	http: IHttpRequestOptions,
	how: Sending,
): Promise<SendResult> {
	const none = () => {};
	const heldNow = () => ({
		kind: 'notSent' as const,
		until: pacer.heldTill,
		block: pacer.blockedTill > Date.now(),
	});
	// a run that may not wait (or not that long) meets a hold before its turn: nothing is sent
	if ((how.failFast || pacer.heldTill > how.until) && pacer.heldTill > Date.now())
		return { sent: heldNow(), release: none, sentAt: 0, answeredAt: 0 };
	// an item that has sent nothing, in a run an earlier item's failure ended: it does not wait its turn
	if (run.haltedBefore(how.itemIndex))
		return { sent: { kind: 'halted' }, release: none, sentAt: 0, answeredAt: 0 };
	const answered = await pacer.take(how.signal, how.failWhenBlocked);
	// a turn that came past the run's deadline is not used: nothing is sent
	if (Date.now() > how.until) {
		answered(false);
		return {
			sent: { kind: 'notSent', until: Date.now(), block: false },
			release: none,
			sentAt: 0,
			answeredAt: 0,
		};
	}
	let timer: RequestDeadline | undefined;
	let sentAt = 0;
	try {
		const sent = await run.limiter.run(async (): Promise<Sent> => {
			// A hold or block that began while this request waited for a slot (another request's
			// 429): not sent into it, nor counted.
			if (pacer.heldTill > Date.now()) return heldNow();
			// An earlier item's failure ended the run while this item, which has sent nothing, waited.
			if (run.haltedBefore(how.itemIndex)) return { kind: 'halted' };
			run.markSending(how.itemIndex);
			// the Timeout counts from here, when the request is sent, to the last byte of its answer
			timer = deadline(how.timeoutMs, how.signal);
			sentAt = Date.now();
			run.calls.sent++;
			if (how.resend) run.calls.resent++;
			try {
				return asAnswer(
					(await run.ctx.helpers.httpRequest({
						...http,
						abortSignal: timer.signal,
					})) as IN8nHttpFullResponse,
				);
			} finally {
				timer.clear();
			}
		}, how.signal);
		return {
			sent,
			release: () => answered(sent.kind !== 'notSent' && sent.kind !== 'halted'),
			sentAt,
			answeredAt: Date.now(),
		};
	} catch (error) {
		answered();
		const sent: Sent = how.signal?.aborted
			? { kind: 'cancelled' }
			: { kind: 'noAnswer', error, expired: timer?.expired() ?? false };
		return { sent, release: none, sentAt, answeredAt: Date.now() };
	}
}

/** The body as sent: a multipart form, JSON, or none. */
function payloadOf(
	req: ApiRequest,
	opts: SendOptions,
): { body: Buffer | string; contentType: string } | undefined {
	if (opts.multipart) return { body: opts.multipart.body, contentType: opts.multipart.contentType };
	return req.body !== undefined
		? { body: JSON.stringify(req.body), contentType: 'application/json' }
		: undefined;
}

/** n8n's request: the raw bytes and the full answer whatever its status, signed, never following a redirect. */
function httpOptions(
	req: ApiRequest,
	url: string,
	payload: ReturnType<typeof payloadOf>,
	token: string,
	timeoutMs: number,
): IHttpRequestOptions {
	return {
		method: req.method,
		url,
		qs: req.qs,
		headers: {
			...req.headers,
			...(payload ? { 'Content-Type': payload.contentType } : {}),
			Authorization: `Vendor-oauthtoken ${token}`,
		},
		body: payload?.body,
		returnFullResponse: true,
		timeout: timeoutMs,
		ignoreHttpStatusErrors: true,
		encoding: 'arraybuffer',
		json: false,
		// the token (and a write's body) stay home: a 3xx comes back as it is (decision.ts)
		disableFollowRedirect: true,
	};
}

/** The body of a write as its identity across tries: a multipart body without its random boundary. */
function identityBody(payload: ReturnType<typeof payloadOf>): Buffer | string | undefined {
	if (!payload) return undefined;
	const boundary = /boundary=(\S+)/.exec(payload.contentType)?.[1];
	if (!boundary || typeof payload.body === 'string') return payload.body;
	return payload.body.toString('latin1').split(boundary).join('');
}

/** An answer or failure as kept for a later try, and as given to it: a copy, so no try changes another's. */
function copyAnswer(answer: ApiResponse): ApiResponse {
	const body = Buffer.isBuffer(answer.body)
		? Buffer.from(answer.body)
		: structuredClone(answer.body);
	return { body, headers: { ...answer.headers }, statusCode: answer.statusCode };
}

function copyError(error: Error): Error {
	return outcomeUnknown(
		Object.create(
			Object.getPrototypeOf(error) as object,
			Object.getOwnPropertyDescriptors(error),
		) as Error,
	);
}

/** What an earlier try's same write came to, given again without a call (replay.ts): its answer, or its unknown outcome. */
function replayed(
	prior: PriorWrite<ApiResponse>,
	replay: Replay,
	itemIndex: number | undefined,
): ApiResponse {
	if (itemIndex !== undefined) replay.replayedItems.add(itemIndex);
	if (prior.kind === 'answered') return copyAnswer(prior.answer);
	throw withReplayNote(replay, itemIndex ?? -1, copyError(prior.error));
}

/** Sends one API request of an area for `run` (its state, run.ts; `run.ctx` is n8n's node context) and returns the parsed answer; throws NodeApiError on failure. */
export async function vendorRequest(
	run: RunState,
	area: Area,
	req: ApiRequest,
	opts: SendOptions = {},
): Promise<ApiResponse> {
	const payload = payloadOf(req, opts);
	// a write an earlier try of this node run sent (n8n's Retry On Fail) is not sent again
	const slot = writeSlot<ApiResponse>(run.replay, {
		itemIndex: opts.itemIndex,
		method: req.method,
		path: `${area.value} ${req.path}`,
		qs: req.qs,
		organization: organizationOf(area, req),
		body: identityBody(payload),
	});
	if (slot?.prior && run.replay) {
		run.markSending(opts.itemIndex);
		return replayed(slot.prior, run.replay, opts.itemIndex);
	}
	const answer = await send(run, area, req, opts, payload).catch((error: unknown) => {
		// a write of unknown outcome is kept as such: a later try fails again without sending
		if (slot && error instanceof Error && isOutcomeUnknown(error))
			slot.keep({ kind: 'unknown', error: copyError(error) });
		throw error;
	});
	slot?.keep({ kind: 'answered', answer: copyAnswer(answer) });
	return answer;
}

/** The request sent (and resent as the answers say) until it is done or fails. */
async function send(
	run: RunState,
	area: Area,
	req: ApiRequest,
	opts: SendOptions,
	payload: ReturnType<typeof payloadOf>,
): Promise<ApiResponse> {
	const ctx = run.ctx;
	const failFast = run.patience === 'failFast';
	// a run with a deadline waits a token refresh no longer than one that may not wait
	const signer = await Signer.of(
		run,
		failFast || run.until < Number.POSITIVE_INFINITY,
		opts.itemIndex,
	);
	const pacer = pacerOf(ctx, area, req, signer.credentials);
	const options = run.options;
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal?.() : undefined;
	const failOnBlock = options.onRateLimitBlock === 'fail';
	const until = run.until;
	const how: Sending = {
		signal,
		failFast,
		until,
		// never longer than what is left before the run's deadline
		timeoutMs: Math.max(
			1,
			Math.min(
				failFast ? Math.min(options.timeoutMs, FAIL_FAST_TIMEOUT_MS) : options.timeoutMs,
				until - Date.now(),
			),
		),
		failWhenBlocked:
			failOnBlock || failFast
				? (until) => new RateLimitBlockedError(ctx.getNode(), until, opts.itemIndex)
				: undefined,
		itemIndex: opts.itemIndex,
	};
	const facts = {
		node: ctx.getNode(),
		area,
		idempotent: req.method === 'GET',
		binary: opts.binary === true,
		failOnBlock,
		failFast,
		itemIndex: opts.itemIndex,
	};
	let attempt: AttemptState = FIRST_ATTEMPT;
	for (;;) {
		const root = areaRoot(area, signer.credentials);
		const url = root + area.basePath + req.path;
		const { sent, release, sentAt, answeredAt } = await sendOnce(
			run,
			pacer,
			httpOptions(req, url, payload, signer.token, how.timeoutMs),
			how,
		);
		if (sent.kind === 'answer')
			SERVER_CLOCKS.note(root, headerText(sent.headers, 'date'), sentAt, answeredAt);
		// the pacer gets its answer, the decision is made and its hold set in one synchronous run: a
		// waiter the answer wakes sees the hold
		release();
		const refused = sent.kind === 'answer' && sent.status === 429;
		const rule = {
			...pacer.rule,
			...(refused ? { holdAfterRefusal: pacer.holdAfterRefusal } : {}),
		};
		let step = decide(sent, { ...facts, url } satisfies RequestFacts, rule, attempt, Date.now());
		// a wait that would end past the run's deadline is not waited: decided as under failFast
		if (
			step.kind === 'retry' &&
			(sent.kind === 'notSent' ? sent.until : Date.now() + step.afterMs) > until
		)
			step = decide(sent, { ...facts, url, failFast: true }, rule, attempt, Date.now());
		if ('hold' in step && step.hold) pacer.block(step.hold.ms, step.hold.block);
		if (step.kind === 'done')
			return { body: step.body, headers: step.headers, statusCode: step.status };
		if (step.kind === 'fail') throw step.error;
		// a retry after a sending (not after a held turn) sends the request again after its wait
		how.resend = step.kind === 'retry' && (how.resend === true || sent.kind !== 'notSent');
		if (step.kind === 'refresh') await signer.refresh();
		else if (step.afterMs > 0) await pause(step.afterMs, signal);
		attempt = step.next;
	}
}

/** A multipart/form-data body with one file part and optional JSON-string fields. */
export function multipart(
	file: { field: string; fileName: string; mimeType: string; data: Buffer } | undefined,
	fields: Record<string, string> = {},
): { body: Buffer; contentType: string } {
	const boundary = `----n8nVendor${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
			),
		);
	}
	if (file) {
		const safeName = file.fileName.replace(/["\r\n]/g, '_');
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${safeName}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`,
			),
			file.data,
			Buffer.from('\r\n'),
		);
	}
	parts.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
