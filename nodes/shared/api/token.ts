// Talking to the API (api/): the access token of a request: read, refreshed, refusals remembered; imports only api/ files.
/**
 * The token a request is signed with: the credential is read once per run (its run state,
 * api/run.ts); the token is
 * refreshed (through n8n's OAuth2 helpers, which store it) before a token known to be expired
 * is used and once on 401 / INVALID_OAUTHTOKEN; one refresh at a time per credential; a
 * refused refresh is remembered for a while, so that many executions make one refused call.
 * Under failFast patience (api/run.ts) a refresh is waited at most `FAIL_FAST_REFRESH_MS`.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { createHash } from 'crypto';

import { redirectTarget } from './answer';
import { redactTokens, tokenEndpointRedirected, tokenRefusal } from './nodeErrors';
import { isNetworkFailure, transientFailure } from './failureKinds';
import { pause } from './wait';

export type VendorContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export const CREDENTIAL = 'vendorOAuth2Api';

/** Known expiry of access tokens this process obtained (the token itself is only a map key, never logged): per process, as a token outlives the run that got it. */
const tokenExpiry = new Map<string, number>();
/** One refresh at a time per credential, across the runs of this process. */
const refreshing = new Map<string, Promise<IDataObject>>();

/** What a signer needs of its run (api/run.ts `RunState`): its context and the credential as read for the run. */
interface RunCredentials {
	readonly ctx: VendorContext;
	credentials(): Promise<ICredentialDataDecryptedObject>;
	keepCredentials(credentials: ICredentialDataDecryptedObject): void;
}

const EXPIRY_MARGIN_MS = 60_000;

export interface TokenData extends IDataObject {
	error?: string;
	access_token?: string;
	api_domain?: string;
	expires_in_sec?: number;
	expires_in?: number;
}

export function credentialKey(ctx: VendorContext): string {
	const ref = ctx.getNode().credentials?.[CREDENTIAL];
	return ref?.id ?? ref?.name ?? 'default';
}

/** What the token endpoint answered, as n8n's OAuth2 client reports it on the error it throws. */
function tokenEndpointAnswer(error: unknown): { status?: number; endpointCode?: string } {
	const e = (error ?? {}) as {
		status?: number;
		statusCode?: number;
		body?: { error?: unknown };
		response?: { status?: number };
	};
	return {
		status: e.status ?? e.statusCode ?? e.response?.status,
		endpointCode: typeof e.body?.error === 'string' ? redactTokens(e.body.error) : undefined,
	};
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
	if (endpointCode)
		return `the token endpoint answered ${endpointCode}${status ? ` with HTTP ${status}` : ''}`;
	if (status) return `the token endpoint answered HTTP ${status}`;
	if (
		typeof e.code === 'string' &&
		/^E[A-Z]+$/.test(e.code) &&
		!['EAUTH', 'ESTATUS'].includes(e.code)
	) {
		// in words: n8n replaces a message that names a system code with its own stock text
		const words: Record<string, string> = {
			ECONNREFUSED: 'connection refused',
			ECONNRESET: 'connection closed',
			ETIMEDOUT: 'timed out',
			ECONNABORTED: 'timed out',
			ENOTFOUND: 'host not found',
		};
		return `the token call got no answer: ${words[e.code] ?? 'no network answer'}`;
	}
	return `an unexpected exception: ${e.name ?? 'Error'}: ${redactTokens(String(e.message ?? error))}`;
}

type OAuth2Helpers = {
	refreshOAuth2Token?: (this: unknown, type: string, options: IDataObject) => Promise<IDataObject>;
	requestOAuth2?: (
		this: unknown,
		type: string,
		request: IDataObject,
		options: IDataObject,
	) => Promise<unknown>;
};

/**
 * The refresh on releases without `helpers.refreshOAuth2Token` (n8n before 1.119): n8n's OAuth2
 * request helper refreshes the token and stores it in the credential when its request is
 * answered 401. It gets a context whose `request` sends nothing: the first call gets the 401
 * this request already had, the second (signed in memory with the new token) is answered at
 * once. The new token is then read back from the credential, where n8n stored it.
 */
async function refreshThroughRequestHelper(
	ctx: VendorContext,
	requestOAuth2: NonNullable<OAuth2Helpers['requestOAuth2']>,
): Promise<TokenData> {
	let calls = 0;
	const answered = async () => ({ statusCode: calls++ === 0 ? 401 : 200, headers: {}, body: '' });
	const context = {
		getNode: () => ctx.getNode(),
		getCredentials: async (type: string) => await ctx.getCredentials(type),
		logger: ctx.logger,
		helpers: { request: answered },
	};
	const blank = {
		method: 'GET',
		uri: 'http://127.0.0.1/',
		url: 'http://127.0.0.1/',
		headers: {},
		resolveWithFullResponse: true,
		simple: false,
	};
	await requestOAuth2.call(context, CREDENTIAL, blank, {
		tokenType: 'Bearer',
		includeCredentialsOnRefreshOnBody: true,
	});
	if (calls < 2) throw new Error("n8n's OAuth2 request helper did not refresh the token");
	return ((await ctx.getCredentials(CREDENTIAL)).oauthTokenData ?? {}) as TokenData;
}

/** How long a refused refresh is remembered, so that many executions make one refused token call. */
export const REFUSAL_MEMORY_MS = 120_000;
/** Refused refreshes by stored credential state (a hash: the tokens are never kept as such): until when, and the error. Per process, so that many executions make one refused call. */
const refusals = new Map<string, { until: number; message: string; description: string }>();

/** The stored credential's state a refusal belongs to: a Reconnect or a changed token URL is a new state. */
function refusalKey(ctx: VendorContext, credentials: IDataObject): string {
	const token = (credentials.oauthTokenData ?? {}) as IDataObject;
	const state = [
		credentialKey(ctx),
		token.refresh_token,
		token.access_token,
		credentials.accessTokenUrl,
		credentials.clientId,
	]
		.map((v) => String(v ?? ''))
		.join('\u0000');
	return createHash('sha256').update(state).digest('hex');
}

function refusedError(
	ctx: VendorContext,
	refusal: { message: string; description: string },
): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: 'Token refresh refused' },
		{ message: refusal.message, description: refusal.description, httpCode: '401' },
	);
}

/** Remembers a refused refresh of this stored state and returns its error. */
function rememberRefusal(
	ctx: VendorContext,
	memoryKey: string,
	message: string,
	description: string,
): NodeApiError {
	refusals.set(memoryKey, {
		until: Date.now() + REFUSAL_MEMORY_MS,
		message,
		description: `${description} (No new token call is made with this credential for ${REFUSAL_MEMORY_MS / 60_000} minutes, unless it is reconnected.)`,
	});
	return refusedError(ctx, { message, description });
}

/** How long the token endpoint's redirect check waits for an answer. */
const REDIRECT_CHECK_MS = 10_000;

/**
 * Whether the token endpoint redirects, asked without a secret before a refresh is sent. n8n's
 * OAuth2 helpers (the only way a node can get a refreshed token stored) follow redirects and, on
 * a 307 or 308, send the refresh token and the client secret on to wherever it points. So the
 * endpoint is first asked the same request with neither (`grant_type=refresh_token` alone, which
 * the token endpoint refuses as any incomplete request) and never followed: a 3xx answer stops the
 * refresh, naming where it pointed. No answer, or any other answer, lets the refresh go on (it
 * then reports its own failure). A server that redirects only requests carrying secrets is not
 * seen this way (docs/BEHAVIOUR.md).
 */
async function assertTokenEndpointStaysHome(
	ctx: VendorContext,
	stored: IDataObject,
): Promise<void> {
	const url = typeof stored.accessTokenUrl === 'string' ? stored.accessTokenUrl : '';
	if (!/^https?:\/\//i.test(url)) return;
	let answer: { statusCode?: number; headers?: IDataObject } | undefined;
	try {
		answer = (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body: 'grant_type=refresh_token',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: REDIRECT_CHECK_MS,
			json: false,
		})) as { statusCode?: number; headers?: IDataObject };
	} catch {
		return;
	}
	const status = Number(answer?.statusCode);
	if (!(status >= 300 && status < 400)) return;
	const location = answer?.headers?.location;
	throw tokenEndpointRedirected(
		ctx.getNode(),
		status,
		redirectTarget(typeof location === 'string' ? location : undefined, url),
	);
}

/** The token call through the helper this n8n release offers; a failure becomes the node's error (a refusal remembered). */
async function callTokenEndpoint(
	ctx: VendorContext,
	memoryKey: string,
	stored: IDataObject,
): Promise<TokenData> {
	const helpers = ctx.helpers as unknown as OAuth2Helpers;
	await assertTokenEndpointStaysHome(ctx, stored);
	try {
		if (typeof helpers.refreshOAuth2Token === 'function') {
			return (await helpers.refreshOAuth2Token.call(ctx, CREDENTIAL, {
				includeCredentialsOnRefreshOnBody: true,
			})) as TokenData;
		}
		if (typeof helpers.requestOAuth2 === 'function')
			return await refreshThroughRequestHelper(ctx, helpers.requestOAuth2);
		throw new Error('this n8n release offers no OAuth2 refresh helper to a node');
	} catch (error) {
		const message = `The access token could not be refreshed (${refreshFailureCause(error)})`;
		// a refusal is remembered; no answer, a 5xx or an exception is not
		if (refusedByTokenEndpoint(error))
			throw rememberRefusal(ctx, memoryKey, message, tokenRefusal(undefined));
		const failed = new NodeApiError(
			ctx.getNode(),
			{ message },
			{ message, description: tokenRefusal(undefined), httpCode: '401' },
		);
		// no answer or a 5xx: the token endpoint may answer later (an exception is not transient)
		throw isNetworkFailure(error) || (tokenEndpointAnswer(error).status ?? 0) >= 500
			? transientFailure(failed)
			: failed;
	}
}

async function refresh(
	ctx: VendorContext,
	stored: IDataObject,
	previous?: string,
): Promise<IDataObject> {
	const key = credentialKey(ctx);
	const memoryKey = refusalKey(ctx, stored);
	const known = refusals.get(memoryKey);
	if (known && known.until > Date.now()) throw refusedError(ctx, known);
	let pending = refreshing.get(key);
	if (!pending) {
		pending = (async () => {
			const data = await callTokenEndpoint(ctx, memoryKey, stored);
			// A new access token is a success, whatever else the stored token data still holds (n8n
			// merges token data, so an `error` of an earlier refused refresh can stay in it); the
			// accounts server answers a refused refresh with HTTP 200 and `{ error }`.
			if (!data.access_token || data.access_token === previous) {
				const message = `The access token could not be refreshed (${redactTokens(String(data.error ?? 'no new token'))})`;
				throw rememberRefusal(ctx, memoryKey, message, tokenRefusal(data.error));
			}
			refusals.delete(memoryKey);
			const seconds = Number(data.expires_in_sec ?? data.expires_in ?? 3600);
			tokenExpiry.set(
				data.access_token,
				Date.now() + (seconds > 100_000 ? seconds : seconds * 1000),
			);
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

/** How long a refresh is waited under failFast patience (the token endpoint may hang). */
const FAIL_FAST_REFRESH_MS = 10_000;

/** `work`, or a transient failure when it has not settled within `ms` (the work goes on; its outcome is used by the next request). */
async function within<T>(ctx: VendorContext, work: Promise<T>, ms: number): Promise<T> {
	// settled late, its failure is nobody's (the next request refreshes again)
	work.catch(() => undefined);
	const timer = new AbortController();
	const late = pause(ms, timer.signal).then(
		() => {
			const message = `The token endpoint did not answer a refresh within ${ms / 1000} s`;
			throw transientFailure(
				new NodeApiError(
					ctx.getNode(),
					{ message },
					{
						message,
						description:
							'The access token could not be refreshed in time; the next poll tries again.',
						httpCode: '401',
					},
				),
			);
		},
		() => undefined as never,
	);
	try {
		return await Promise.race([work, late]);
	} finally {
		timer.abort();
	}
}

/**
 * The access token of one request: the run's credential, refreshed before a token known to be
 * expired is used (`signer`), and again when the API refuses it (`refresh`). Under failFast a
 * refresh is waited at most `FAIL_FAST_REFRESH_MS`.
 */
export class Signer {
	private readonly ctx: VendorContext;

	private constructor(
		private readonly run: RunCredentials,
		public credentials: IDataObject,
		private readonly failFast: boolean,
	) {
		this.ctx = run.ctx;
	}

	/** The signer of a request of `run` (its credential as read for the run); refuses a credential holding no access token but a token call's `error`. */
	static async of(run: RunCredentials, failFast: boolean, itemIndex?: number): Promise<Signer> {
		const ctx = run.ctx;
		const signer = new Signer(run, await run.credentials(), failFast);
		const stored = (signer.credentials.oauthTokenData ?? {}) as TokenData;
		if (!signer.token && stored.error) {
			// n8n stores a token answer of HTTP 200 `{ error }` as if connected.
			const message = `The credential holds no access token: the token call answered ${String(stored.error)}`;
			throw new NodeApiError(
				ctx.getNode(),
				{ message },
				{ message, description: tokenRefusal(String(stored.error)), httpCode: '401', itemIndex },
			);
		}
		if (!signer.token || isExpired(signer.token)) await signer.refresh();
		return signer;
	}

	/** The access token (never logged). */
	get token(): string {
		return String(((this.credentials.oauthTokenData ?? {}) as TokenData).access_token ?? '');
	}

	/** Uses a refreshed token for the rest of this request and the run's later ones (n8n has stored it already). */
	async refresh(): Promise<void> {
		const work = this.renew();
		await (this.failFast ? within(this.ctx, work, FAIL_FAST_REFRESH_MS) : work);
	}

	private async renew(): Promise<void> {
		// Another execution (or another worker, or this run's other requests) may have refreshed
		// already: use the token n8n stores now.
		const latest = await this.ctx.getCredentials(CREDENTIAL);
		const latestToken = String(((latest.oauthTokenData ?? {}) as TokenData).access_token ?? '');
		if (latestToken && latestToken !== this.token && !isExpired(latestToken)) {
			this.credentials = latest;
		} else {
			const data = await refresh(this.ctx, latest, this.token);
			this.credentials = {
				...this.credentials,
				oauthTokenData: { ...((this.credentials.oauthTokenData as IDataObject) ?? {}), ...data },
			};
		}
		this.run.keepCredentials(this.credentials as ICredentialDataDecryptedObject);
	}
}
