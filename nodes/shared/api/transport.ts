// Talking to the API (api/): owns requests from values, transport, pacing, limits, errors, waits and reading pages; imports only tables/.
/**
 * The one path every request takes: signs with `Vendor-oauthtoken`, refreshes the token
 * before a known-expired one is used and once on 401 / INVALID_OAUTHTOKEN, paces every
 * area by count (the project area per credential, the accounting areas per organization),
 * waits on 429, retries only what a repeat cannot duplicate, and turns envelopes into data
 * or NodeApiErrors.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { createHash } from 'crypto';

import { apiError, redactTokens, tokenRefusal } from './errors';
import { OUTCOME_UNKNOWN, outcomeUnknown, RateLimitBlockedError, transientFailure } from './failures';
import { requestLimiter } from './limit';
import { readRunOptions } from './options';
import { ACCOUNTING_RULE, DOCUMENTED_RULE, type Pacer, pacerFor } from './pacing';
import { regionUrls, trimSlash } from './regions';
import type { ApiRequest } from './request';
import type { Area } from '../tables/spec';
import { listenOnce, pause } from './wait';

export type VendorContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export const CREDENTIAL = 'vendorOAuth2Api';

/** Known expiry of access tokens this process obtained (the token itself is only a map key, never logged). */
const tokenExpiry = new Map<string, number>();
/** One refresh at a time per credential. */
const refreshing = new Map<string, Promise<IDataObject>>();

/**
 * The credential as read for a node run (its context): n8n decrypts it and resolves its
 * expressions on every read, which costs more than the request itself, so it is read once
 * per run and again only around a refresh (then this entry is replaced).
 */
const credentialsOfRun = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

function runCredentials(ctx: VendorContext): Promise<ICredentialDataDecryptedObject> {
	let read = credentialsOfRun.get(ctx);
	if (!read) {
		read = ctx.getCredentials(CREDENTIAL);
		credentialsOfRun.set(ctx, read);
		// a failed read is not kept: the next request reads again
		read.catch(() => credentialsOfRun.delete(ctx));
	}
	return read;
}

const EXPIRY_MARGIN_MS = 60_000;
/** A 429's Retry-After up to this long is waited; longer counts as a block. */
const SHORT_WAIT_MS = 60_000;
const MAX_RETRIES = 3;
/**
 * In an area without a block (the accounting areas) a 429 is the organization's minute used up,
 * by this n8n or another client: waited as long as one request's holds add up to at most this
 * many windows (a Retry-After may free one request's room at a time), then an error.
 */
const MAX_HELD_WINDOWS = 5;

/** The headline says the outcome is unknown for writes; no stock "retry" text replaces it (no error code in it). */
function connectionFailed(ctx: VendorContext, error: Error, idempotent: boolean, itemIndex?: number, expired = false): NodeApiError {
	const code = (error as Error & { code?: string }).code;
	const timedOut = expired || code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(error.message);
	const cutShort = !timedOut && /^Z_/.test(code ?? '');
	const what = timedOut ? 'did not answer in time' : cutShort ? 'sent an answer that was cut short' : 'lost the connection';
	const message = idempotent ? `The Vendor API ${what}; the read was retried without success` : `${OUTCOME_UNKNOWN}: the Vendor API ${what} after the request was sent`;
	return transientFailure(ofWrite(idempotent, new NodeApiError(ctx.getNode(), { message }, {
		message,
		description: `${idempotent ? 'Reads are retried up to 3 times.' : 'The request was not repeated, because repeating a write can create a duplicate.'} Cause: ${code ?? error.message}.`,
		itemIndex,
	})));
}

/** A write's failure after the request went out leaves its outcome unknown (marked for the per-record reports); a read's does not. */
function ofWrite<E extends Error>(idempotent: boolean, error: E): E {
	return idempotent ? error : outcomeUnknown(error);
}

/** What n8n's HTTP helper throws when the network (not the code) failed: an axios error or a system error code. */
function isNetworkFailure(error: unknown): boolean {
	const e = (error ?? {}) as { isAxiosError?: unknown; code?: unknown; cause?: { code?: unknown } };
	return e.isAxiosError === true || typeof e.code === 'string' || typeof e.cause?.code === 'string';
}

/** Anything else (a helper missing from this n8n release, a TypeError) is reported as itself, never retried. */
function unexpectedFailure(ctx: VendorContext, error: unknown, idempotent: boolean, itemIndex?: number): NodeApiError {
	const e = (error ?? {}) as { name?: string; message?: string };
	const what = `${e.name ?? 'Error'}: ${redactTokens(String(e.message ?? error))}`;
	const message = idempotent ? `The request could not be sent: ${what}` : `${OUTCOME_UNKNOWN}: sending it stopped unexpectedly: ${what}`;
	return ofWrite(idempotent, new NodeApiError(ctx.getNode(), { message }, { message, description: 'Not retried: the network was not the cause.', itemIndex }));
}

function cancelled(ctx: VendorContext, itemIndex?: number): NodeApiError {
	const message = 'The execution was stopped';
	return new NodeApiError(ctx.getNode(), { message }, { message, description: 'A write in flight when the execution was stopped may have been processed: check the record before running again.', itemIndex });
}

/** Deadlines of the requests in flight (when, the request's controller, whether it fired). */
interface Deadline {
	at: number;
	controller: AbortController;
	expired: boolean;
	/** The execution's signal: its stop aborts the request too. */
	outer?: AbortSignal;
}
const deadlines = new Set<Deadline>();
/** Execution signals that have the one listener aborting their requests in flight (a listener per request cost CPU on every request). */
const watchedSignals = new WeakSet<AbortSignal>();
/** How often the one shared timer looks for deadlines that have passed. */
const DEADLINE_TICK_MS = 200;
let ticking = false;

/** One timer for all deadlines, running while there are any: a timer per request, cancelled when its answer is in, cost more CPU than the rest of the package's work on a request. */
async function watchDeadlines(): Promise<void> {
	ticking = true;
	try {
		while (deadlines.size > 0) {
			await pause(DEADLINE_TICK_MS);
			const now = Date.now();
			for (const d of deadlines) {
				if (d.at > now) continue;
				deadlines.delete(d);
				d.expired = true;
				d.controller.abort(new Error('timeout exceeded'));
			}
		}
	} finally {
		ticking = false;
	}
}

/**
 * The Timeout option over the whole request, headers and body: n8n's HTTP helper's own
 * timeout restarts with every byte, so a body dripping in would never end. The request's
 * signal aborts when the execution stops or when the time is up (`expired()` then says so;
 * it fires within a fifth of a second of the time).
 */
function deadline(ms: number, outer?: AbortSignal): { signal: AbortSignal; expired: () => boolean; clear: () => void } {
	const entry: Deadline = { at: Date.now() + ms, controller: new AbortController(), expired: false, outer };
	if (outer?.aborted) entry.controller.abort(outer.reason);
	else if (outer) {
		listenOnce(watchedSignals, outer, () => {
			for (const d of deadlines) if (d.outer === outer) d.controller.abort(outer.reason);
		});
	}
	deadlines.add(entry);
	if (!ticking) void watchDeadlines();
	return {
		signal: entry.controller.signal,
		expired: () => entry.expired,
		clear: () => deadlines.delete(entry),
	};
}

/** What came back, for an error: the first bytes as text, whitespace folded, tokens redacted. */
function firstBytes(raw: Buffer): string {
	const text = redactTokens(raw.subarray(0, 120).toString('utf8').replace(/\s+/g, ' ').trim());
	return raw.length > 120 ? `${text}...` : text;
}

/**
 * Why a successful status's answer is not what the request expects (undefined when it is):
 * JSON where JSON is expected (a file may be anything but an HTML page or broken JSON). A
 * proxy's HTML page, JSON cut short or an empty body must never pass as the API's answer.
 */
function unexpectedAnswer(raw: Buffer, contentType: string, parsed: unknown, binary: boolean): string | undefined {
	if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) return undefined;
	const labelledJson = /json/i.test(contentType);
	const html = /html/i.test(contentType) || (labelledJson && /^\s*</.test(raw.subarray(0, 64).toString('utf8')));
	const what = (kind: string) => `${kind} (content type ${contentType || 'none'}, ${raw.length} bytes${raw.length ? `: ${firstBytes(raw)}` : ''})`;
	if (html) return what('an HTML page, not the API\'s answer');
	if (binary && !labelledJson) return undefined;
	if (raw.length === 0) return what('an empty body');
	try {
		JSON.parse(raw.toString('utf8'));
	} catch (error) {
		if (/end of (JSON )?input|unterminated/i.test((error as Error).message)) return what('JSON cut short');
		return what('a body that is not JSON');
	}
	return what('JSON that is not an object or a list');
}

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

interface TokenData extends IDataObject {
	error?: string;
	access_token?: string;
	api_domain?: string;
	expires_in_sec?: number;
	expires_in?: number;
}

function credentialKey(ctx: VendorContext): string {
	const ref = ctx.getNode().credentials?.[CREDENTIAL];
	return ref?.id ?? ref?.name ?? 'default';
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
	if (area.root === 'projects') return pacerFor(`${credentialKey(ctx)}:${area.value}`, shareOf(credentials.projectsRequestsPerWindow, DOCUMENTED_RULE.limit));
	return pacerFor(`accounting:${credentialKey(ctx)}:${organizationOf(area, req)}`, shareOf(credentials.accountingRequestsPerMinute, ACCOUNTING_RULE.limit), 'accounting');
}

/** The root URL of an area for these credentials. */
export function areaRoot(area: Area, credentials: IDataObject): string {
	const urls = regionUrls(credentials as { region?: string });
	const token = (credentials.oauthTokenData ?? {}) as TokenData;
	if (area.root === 'projects') return urls.projects;
	return token.api_domain ? trimSlash(String(token.api_domain)) : urls.api;
}

/** What the token endpoint answered, as n8n's OAuth2 client reports it on the error it throws. */
function tokenEndpointAnswer(error: unknown): { status?: number; endpointCode?: string } {
	const e = (error ?? {}) as { status?: number; statusCode?: number; body?: { error?: unknown }; response?: { status?: number } };
	return { status: e.status ?? e.statusCode ?? e.response?.status, endpointCode: typeof e.body?.error === 'string' ? redactTokens(e.body.error) : undefined };
}

/** The token endpoint said no (an error code, a 4xx), as opposed to no answer, a 5xx or an exception. */
function refusedByTokenEndpoint(error: unknown): boolean {
	const { status, endpointCode } = tokenEndpointAnswer(error);
	return endpointCode !== undefined || (status !== undefined && status >= 400 && status < 500);
}

/**
 * Why a refresh failed, from what n8n's OAuth2 client threw: the token endpoint's error code,
 * its HTTP status, no answer, or the exception itself (a missing helper, a TypeError), never
 * the request (it carries the client secret and the refresh token).
 */
export function refreshFailureCause(error: unknown): string {
	const e = (error ?? {}) as { code?: unknown; name?: string; message?: string };
	const { status, endpointCode } = tokenEndpointAnswer(error);
	if (endpointCode) return `the token endpoint answered ${endpointCode}${status ? ` with HTTP ${status}` : ''}`;
	if (status) return `the token endpoint answered HTTP ${status}`;
	if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && !['EAUTH', 'ESTATUS'].includes(e.code)) {
		// in words: n8n replaces a message that names a system code with its own stock text
		const words: Record<string, string> = { ECONNREFUSED: 'connection refused', ECONNRESET: 'connection closed', ETIMEDOUT: 'timed out', ECONNABORTED: 'timed out', ENOTFOUND: 'host not found' };
		return `the token call got no answer: ${words[e.code] ?? 'no network answer'}`;
	}
	return `an unexpected exception: ${e.name ?? 'Error'}: ${redactTokens(String(e.message ?? error))}`;
}

type OAuth2Helpers = {
	refreshOAuth2Token?: (this: unknown, type: string, options: IDataObject) => Promise<IDataObject>;
	requestOAuth2?: (this: unknown, type: string, request: IDataObject, options: IDataObject) => Promise<unknown>;
};

/**
 * The refresh on releases without `helpers.refreshOAuth2Token` (n8n before 1.119): n8n's OAuth2
 * request helper refreshes the token and stores it in the credential when its request is
 * answered 401. It gets a context whose `request` sends nothing: the first call gets the 401
 * this request already had, the second (signed in memory with the new token) is answered at
 * once. The new token is then read back from the credential, where n8n stored it.
 */
async function refreshThroughRequestHelper(ctx: VendorContext, requestOAuth2: NonNullable<OAuth2Helpers['requestOAuth2']>): Promise<TokenData> {
	let calls = 0;
	const answered = async () => ({ statusCode: calls++ === 0 ? 401 : 200, headers: {}, body: '' });
	const context = {
		getNode: () => ctx.getNode(),
		getCredentials: async (type: string) => await ctx.getCredentials(type),
		logger: ctx.logger,
		helpers: { request: answered },
	};
	const blank = { method: 'GET', uri: 'http://127.0.0.1/', url: 'http://127.0.0.1/', headers: {}, resolveWithFullResponse: true, simple: false };
	await requestOAuth2.call(context, CREDENTIAL, blank, { tokenType: 'Bearer', includeCredentialsOnRefreshOnBody: true });
	if (calls < 2) throw new Error("n8n's OAuth2 request helper did not refresh the token");
	return ((await ctx.getCredentials(CREDENTIAL)).oauthTokenData ?? {}) as TokenData;
}

/** How long a refused refresh is remembered, so that many executions make one refused token call. */
export const REFUSAL_MEMORY_MS = 120_000;
/** Refused refreshes by stored credential state (a hash: the tokens are never kept as such): until when, and the error. */
const refusals = new Map<string, { until: number; message: string; description: string }>();

/** The stored credential's state a refusal belongs to: a Reconnect or a changed token URL is a new state. */
function refusalKey(ctx: VendorContext, credentials: IDataObject): string {
	const token = (credentials.oauthTokenData ?? {}) as IDataObject;
	const state = [credentialKey(ctx), token.refresh_token, token.access_token, credentials.accessTokenUrl, credentials.clientId].map((v) => String(v ?? '')).join('\u0000');
	return createHash('sha256').update(state).digest('hex');
}

function refusedError(ctx: VendorContext, refusal: { message: string; description: string }): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message: 'Token refresh refused' }, { message: refusal.message, description: refusal.description, httpCode: '401' });
}

async function refresh(ctx: VendorContext, stored: IDataObject, previous?: string): Promise<IDataObject> {
	const key = credentialKey(ctx);
	const memoryKey = refusalKey(ctx, stored);
	const known = refusals.get(memoryKey);
	if (known && known.until > Date.now()) throw refusedError(ctx, known);
	let pending = refreshing.get(key);
	if (!pending) {
		const refused = (message: string, description: string) => {
			refusals.set(memoryKey, {
				until: Date.now() + REFUSAL_MEMORY_MS,
				message,
				description: `${description} (No new token call is made with this credential for ${REFUSAL_MEMORY_MS / 60_000} minutes, unless it is reconnected.)`,
			});
			return refusedError(ctx, { message, description });
		};
		pending = (async () => {
			let data: TokenData;
			const helpers = ctx.helpers as unknown as OAuth2Helpers;
			try {
				if (typeof helpers.refreshOAuth2Token === 'function') {
					data = (await helpers.refreshOAuth2Token.call(ctx, CREDENTIAL, { includeCredentialsOnRefreshOnBody: true })) as TokenData;
				} else if (typeof helpers.requestOAuth2 === 'function') {
					data = await refreshThroughRequestHelper(ctx, helpers.requestOAuth2);
				} else {
					throw new Error('this n8n release offers no OAuth2 refresh helper to a node');
				}
			} catch (error) {
				const message = `The access token could not be refreshed (${refreshFailureCause(error)})`;
				// a refusal is remembered; no answer, a 5xx or an exception is not
				if (refusedByTokenEndpoint(error)) throw refused(message, tokenRefusal(undefined));
				const failed = new NodeApiError(ctx.getNode(), { message }, { message, description: tokenRefusal(undefined), httpCode: '401' });
				// no answer or a 5xx: the token endpoint may answer later (an exception is not transient)
				throw isNetworkFailure(error) || (tokenEndpointAnswer(error).status ?? 0) >= 500 ? transientFailure(failed) : failed;
			}
			// A new access token is a success, whatever else the stored token data still holds (n8n
			// merges token data, so an `error` of an earlier refused refresh can stay in it); the
			// accounts server answers a refused refresh with HTTP 200 and `{ error }`.
			if (!data.access_token || data.access_token === previous) {
				throw refused(`The access token could not be refreshed (${redactTokens(String(data.error ?? 'no new token'))})`, tokenRefusal(data.error));
			}
			refusals.delete(memoryKey);
			const seconds = Number(data.expires_in_sec ?? data.expires_in ?? 3600);
			tokenExpiry.set(data.access_token, Date.now() + (seconds > 100_000 ? seconds : seconds * 1000));
			return data;
		})().finally(() => refreshing.delete(key));
		refreshing.set(key, pending);
	}
	return await pending;
}

function isExpired(token: string): boolean {
	const at = tokenExpiry.get(token);
	return at !== undefined && at - EXPIRY_MARGIN_MS <= Date.now();
}

function envelopeFailed(body: unknown): boolean {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
	const b = body as IDataObject;
	if (typeof b.errorCode === 'string') return true;
	return b.code !== undefined && b.code !== 0 && b.code !== '0';
}

function isTokenProblem(status: number, body: unknown): boolean {
	return status === 401 || (!!body && typeof body === 'object' && (body as IDataObject).errorCode === 'INVALID_OAUTHTOKEN');
}

function parseMaybeJson(buffer: Buffer, contentType: string, binary = false): unknown {
	if (!/json/i.test(contentType) && (binary || !/^\s*[[{]/.test(buffer.subarray(0, 16).toString('utf8')))) return undefined;
	try {
		return JSON.parse(buffer.toString('utf8'));
	} catch {
		return undefined;
	}
}

function retryAfterMs(headers: IDataObject, attempt: number): number {
	const header = Number(headers['retry-after']);
	if (Number.isFinite(header) && header >= 0) return header * 1000;
	return Math.min(1000 * 2 ** attempt, 30_000);
}

/** Sends one API request of an area and returns the parsed answer; throws NodeApiError on failure. */
export async function vendorRequest(ctx: VendorContext, area: Area, req: ApiRequest, opts: SendOptions = {}): Promise<ApiResponse> {
	let credentials = await runCredentials(ctx);
	const tokenOf = () => String(((credentials.oauthTokenData ?? {}) as TokenData).access_token ?? '');
	/** Uses a refreshed token for the rest of this request and the run's later ones (n8n has stored it already). */
	const useRefreshed = async () => {
		// Another execution (or another worker, or this run's other requests) may have refreshed
		// already: use the token n8n stores now.
		const latest = await ctx.getCredentials(CREDENTIAL);
		const latestToken = String(((latest.oauthTokenData ?? {}) as TokenData).access_token ?? '');
		if (latestToken && latestToken !== tokenOf() && !isExpired(latestToken)) {
			credentials = latest;
		} else {
			const data = await refresh(ctx, latest, tokenOf());
			credentials = { ...credentials, oauthTokenData: { ...((credentials.oauthTokenData as IDataObject) ?? {}), ...data } };
		}
		credentialsOfRun.set(ctx, Promise.resolve(credentials));
	};
	const stored = (credentials.oauthTokenData ?? {}) as TokenData;
	if (!tokenOf() && stored.error) {
		// n8n stores a token answer of HTTP 200 `{ error }` as if connected.
		const message = `The credential holds no access token: the token call answered ${String(stored.error)}`;
		throw new NodeApiError(ctx.getNode(), { message }, { message, description: tokenRefusal(String(stored.error)), httpCode: '401', itemIndex: opts.itemIndex });
	}
	if (!tokenOf() || isExpired(tokenOf())) await useRefreshed();
	const pacer = pacerOf(ctx, area, req, credentials);
	const idempotent = req.method === 'GET';
	const payload = opts.multipart
		? { body: opts.multipart.body, contentType: opts.multipart.contentType }
		: req.body !== undefined
			? { body: JSON.stringify(req.body), contentType: 'application/json' }
			: undefined;
	let refreshed = false;
	let waitedBlock = false;
	/** How long this request has waited out the minute of an area without a block (ms). */
	let heldMs = 0;
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal?.() : undefined;
	const run = readRunOptions(ctx);
	const wait = async (ms: number) => await pause(ms, signal);
	/** With On Rate-Limit Block = fail: the error a request meets during a block, instead of waiting. */
	const blockedError = run.onRateLimitBlock === 'fail' ? (until: number) => new RateLimitBlockedError(ctx.getNode(), until, opts.itemIndex) : undefined;
	for (let attempt = 0; ; attempt++) {
		const options: IHttpRequestOptions = {
			method: req.method,
			url: areaRoot(area, credentials) + area.basePath + req.path,
			qs: req.qs,
			headers: {
				...req.headers,
				...(payload ? { 'Content-Type': payload.contentType } : {}),
				Authorization: `Vendor-oauthtoken ${tokenOf()}`,
			},
			body: payload?.body,
			returnFullResponse: true,
			timeout: run.timeoutMs,
			ignoreHttpStatusErrors: true,
			encoding: 'arraybuffer',
			json: false,
		};
		// counted by the pacer until its answer is back
		const answered = await pacer.take(signal, blockedError);
		let sent: { response: IN8nHttpFullResponse } | { blocked: Error } | { held: true };
		let timer: ReturnType<typeof deadline> | undefined;
		try {
			sent = await requestLimiter(ctx).run(async () => {
				// A block that began while this request waited for a slot: nothing is sent.
				if (blockedError && pacer.blockedTill > Date.now()) return { blocked: blockedError(pacer.blockedTill) };
				// A hold that began while this request waited for a slot (another request's 429): not sent
				// into it, nor counted; it waits its turn again.
				if (pacer.heldTill > Date.now()) return { held: true as const };
				// the Timeout counts from here, when the request is sent, to the last byte of its answer
				timer = deadline(run.timeoutMs, signal);
				try {
					return { response: (await ctx.helpers.httpRequest({ ...options, abortSignal: timer.signal })) as IN8nHttpFullResponse };
				} finally {
					timer.clear();
				}
			}, signal);
		} catch (error) {
			answered();
			if (signal?.aborted) throw cancelled(ctx, opts.itemIndex);
			if (!isNetworkFailure(error)) throw unexpectedFailure(ctx, error, idempotent, opts.itemIndex);
			if (idempotent && attempt < MAX_RETRIES) {
				await wait(retryAfterMs({}, attempt));
				continue;
			}
			throw connectionFailed(ctx, error as Error, idempotent, opts.itemIndex, timer?.expired());
		}
		// Marked here, in the same synchronous run as the 429 check below (not in a `finally` on
		// the call): a waiter the mark wakes must see the block this answer may set.
		answered(!('held' in sent));
		if ('blocked' in sent) throw sent.blocked;
		if ('held' in sent) {
			attempt--;
			continue;
		}
		const { response } = sent;
		const status = response.statusCode;
		const headers = (response.headers ?? {}) as IDataObject;
		const raw = Buffer.isBuffer(response.body) ? response.body : Buffer.from((response.body as ArrayBuffer) ?? []);
		const contentType = String(headers['content-type'] ?? '');
		const parsed = parseMaybeJson(raw, contentType, opts.binary);
		if (isTokenProblem(status, parsed) && !refreshed) {
			refreshed = true;
			await useRefreshed();
			attempt--;
			continue;
		}
		// A 429 holds every request of the pacer's key (the project area's credential, an accounting
		// organization) for its Retry-After, else the rule's wait: the project area's documented
		// 30-minute block, an accounting area's minute (a whole window). A short hold is waited and
		// the request sent again (a 429 was not processed, so a write too): in the project area up to
		// 3 times, in the accounting areas while the holds add up to at most MAX_HELD_WINDOWS windows.
		// A block (the project area's, or a long Retry-After) by default ends the run saying when it
		// lifts, with Options → On Rate-Limit Block = wait it is waited out once (cancellable).
		if (status === 429) {
			const told = headers['retry-after'] ? retryAfterMs(headers, attempt) : undefined;
			const holdMs = told ?? pacer.holdAfterRefusal;
			const isBlock = told === undefined ? pacer.rule.blockMs !== undefined : told > SHORT_WAIT_MS;
			pacer.block(holdMs, isBlock);
			if (isBlock && blockedError) throw blockedError(Date.now() + holdMs);
			const minute = !isBlock && pacer.rule.blockMs === undefined;
			if (isBlock ? !waitedBlock : minute ? heldMs + holdMs <= MAX_HELD_WINDOWS * pacer.rule.windowMs : attempt < MAX_RETRIES) {
				waitedBlock ||= isBlock;
				if (minute) heldMs += holdMs;
				await wait(holdMs);
				continue;
			}
		}
		if (status >= 500 && idempotent && attempt < MAX_RETRIES) {
			await wait(retryAfterMs(headers, attempt));
			continue;
		}
		if (status >= 400 || envelopeFailed(parsed)) {
			const failure = { status, body: parsed ?? { message: raw.toString('utf8').slice(0, 300) }, area };
			// A write answered 5xx may have been processed: say so first, never repeat it.
			const failed = status >= 500 && !idempotent ? outcomeUnknown(apiError(ctx.getNode(), failure, opts.itemIndex, undefined, OUTCOME_UNKNOWN)) : apiError(ctx.getNode(), failure, opts.itemIndex);
			throw status === 429 || status >= 500 ? transientFailure(failed) : failed;
		}
		const problem = unexpectedAnswer(raw, contentType, parsed, opts.binary === true);
		if (problem) {
			// a read is retried as other transient failures are; a write may have been processed
			if (idempotent && attempt < MAX_RETRIES) {
				await wait(retryAfterMs(headers, attempt));
				continue;
			}
			const message = idempotent
				? `The Vendor API answered HTTP ${status} with ${problem.split(' (')[0]}; the read was retried without success`
				: `${OUTCOME_UNKNOWN}: the Vendor API answered HTTP ${status} with ${problem.split(' (')[0]}`;
			throw transientFailure(ofWrite(idempotent, new NodeApiError(ctx.getNode(), { message }, { message, description: `What came back: ${problem}. A proxy or load balancer may have answered instead of the API.`, itemIndex: opts.itemIndex })));
		}
		return { body: parsed === undefined ? raw : parsed, headers, statusCode: status };
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
		parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
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

/** `page_context` as an object or an array of one object. */
export function pageContext(body: unknown): IDataObject | undefined {
	const pc = (body as IDataObject | undefined)?.page_context;
	if (Array.isArray(pc)) return pc[0] as IDataObject;
	return pc as IDataObject | undefined;
}
