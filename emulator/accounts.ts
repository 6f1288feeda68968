/**
 * The accounts (OAuth 2.0) server's endpoints, `/{region}/oauth/v2/...`; its choices where the
 * document is silent (marked SILENT: below) are in README.md, "The accounts server".
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from '../host/http';
import {
	consentPage,
	parseBasicAuth,
	parseBodyParams,
	sendAuthError,
	sendHtml,
	sendJson,
} from './accounts-http';
import { isValidScope, parseScopes, scopeCovers } from './accounts-scopes';
import {
	ACCESS_TOKEN_TTL_MS,
	type AccessRecord,
	type CheckAccessTokenResult,
	type ClientRegistration,
	GRANT_CODE_TTL_MS,
	type RefreshRecord,
	type TokenInfo,
	TokenStore,
} from './accounts-tokens';
import type { Clock } from './clock';
import type { Source } from '../nodes/shared/tables/spec';
import { SOURCE_HEADER } from './source';

interface AccountsStats {
	tokenRequests: number;
	refreshRequests: number;
	authPageViews: number;
}

interface AccountsOptions {
	clock: Clock;
	regions: string[];
	clients: ClientRegistration[];
	/** e.g. `http://127.0.0.1:PORT`, known after listen. */
	baseUrl: () => string;
	/** HTTP status of token-endpoint error answers (default 200, as the vendor does). */
	tokenErrorStatus?: number;
	/** Grant code validity (default 2 minutes). */
	grantCodeTtlMs?: number;
	/** Access token validity (default 1 hour). */
	accessTokenTtlMs?: number;
}

type AuthorizationErrorCode =
	| 'ERROR_invalid_response_type'
	| 'ERROR_invalid_client'
	| 'ERROR_invalid_redirect_uri'
	| 'ERROR_invalid_scope';

type TokenErrorCode =
	| 'invalid_client'
	| 'invalid_code'
	| 'invalid_redirect_uri'
	| 'unsupported_grant_type';

/**
 * Where each refusal of the accounts server comes from, sent as its `X-Emulator-Source` header
 * as the API's refusals are (rules/refusals.ts): a section of the Conventions document (`Conventions, <section>: "<words>"`) with its
 * words, or a docs/ASSUMPTIONS.md bullet. test/emulator/accounts-sources.test.ts makes every one
 * of them happen over HTTP and checks each against the documents and the bullets.
 */
export const OAUTH_SOURCES = {
	responseType:
		'Conventions, Errors: "`ERROR_invalid_response_type` (response_type is not `code`, or mandatory keys missing)"',
	accessType:
		"guess: The emulator's accounts server refuses an authorization request whose `access_type` is neither `online` nor `offline`",
	authClient: 'Conventions, Errors: "`ERROR_invalid_client` (client id wrong or empty)"',
	authRedirect:
		'Conventions, Errors: "`ERROR_invalid_redirect_uri` (differs from the registered one)"',
	scopeSeparator:
		'Conventions, Scopes: "Several scopes are separated by commas in the authorization request"',
	scope: 'Conventions, Errors: "`ERROR_invalid_scope` (invalid scope)"',
	consent: "guess: The emulator's consent step is its own page",
	method:
		"guess: The emulator's accounts server answers 405 to a method its endpoint does not take",
	grantType:
		"guess: The emulator's accounts server refuses a token request whose `grant_type` is neither `authorization_code` nor `refresh_token`",
	tokenClient: 'Conventions, Errors: "`invalid_client` (wrong client id or secret"',
	regionSecret: 'Conventions, Errors: "wrong per-region secret when multi-data-center is enabled"',
	regionMismatch: 'Conventions, Errors: "region mismatch between grant and token calls"',
	code: 'Conventions, Errors: "`invalid_code` (grant token expired after one minute in the redirect flow, already used, or the refresh token is wrong or revoked)"',
	tokenRedirect: 'Conventions, Errors: "`invalid_redirect_uri` (differs from the registered one)"',
} as const satisfies Record<string, Source>;

type Refusal<C extends string> = { error: C; source: Source };
const isRefusal = <C extends string>(
	answer: Record<string, unknown> | Refusal<C>,
): answer is Refusal<C> => typeof answer.error === 'string' && typeof answer.source === 'string';
const refusal = <C extends string>(error: C, source: keyof typeof OAUTH_SOURCES): Refusal<C> => ({
	error,
	source: OAUTH_SOURCES[source],
});

const PENDING_REQUEST_TTL_MS = 10 * 60 * 1000;

interface PendingAuthorization {
	id: string;
	clientId: string;
	region: string;
	redirectUri: string;
	scopes: string[];
	accessType: 'online' | 'offline';
	state: string | undefined;
	expiresAt: number;
}

export class Accounts {
	/** Test switch: answer the consent page automatically (redirect straight from GET /auth). */
	autoDecision: 'accept' | 'reject' | null = null;

	/** The region the user's account lives in (null: the region asked). Accept answers from it. */
	accountRegion: string | null = null;

	private readonly clock: Clock;
	private readonly regions: Set<string>;
	private readonly clients = new Map<string, ClientRegistration>();
	private readonly baseUrl: () => string;
	private readonly tokenErrorStatus: number;
	private readonly accessTokenTtlMs: number;
	/** Grant codes, refresh and access tokens (accounts-tokens.ts). */
	private readonly tokens: TokenStore;
	private readonly pending = new Map<string, PendingAuthorization>();
	private counters: AccountsStats = { tokenRequests: 0, refreshRequests: 0, authPageViews: 0 };

	constructor(opts: AccountsOptions) {
		this.clock = opts.clock;
		this.regions = new Set(opts.regions);
		for (const c of opts.clients) this.clients.set(c.clientId, c);
		this.baseUrl = opts.baseUrl;
		this.tokenErrorStatus = opts.tokenErrorStatus ?? 200;
		this.accessTokenTtlMs = opts.accessTokenTtlMs ?? ACCESS_TOKEN_TTL_MS;
		this.tokens = new TokenStore(
			opts.clock,
			opts.grantCodeTtlMs ?? GRANT_CODE_TTL_MS,
			this.accessTokenTtlMs,
		);
	}

	// ---------------------------------------------------------------- routing

	/**
	 * Handles `/{region}/oauth/v2/auth`, `/{region}/oauth/v2/auth/decision`, `/{region}/oauth/v2/token`
	 * and `/{region}/oauth/v2/token/revoke`; returns false for any other path (or unknown region).
	 * `body` is the complete request body.
	 */
	handle(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		region: string,
		body: Buffer,
	): Promise<boolean> | boolean {
		if (!this.regions.has(region)) return false;
		const prefix = `/${region}/oauth/v2/`;
		if (!url.pathname.startsWith(prefix)) return false;
		const sub = url.pathname.slice(prefix.length);
		const method = (req.method ?? 'GET').toUpperCase();
		switch (sub) {
			case 'auth':
				if (method !== 'GET') return this.methodNotAllowed(res, 'GET');
				this.handleAuthorize(req, res, url, region);
				return true;
			case 'auth/decision':
				if (method !== 'POST') return this.methodNotAllowed(res, 'POST');
				this.handleDecision(req, res, url, region, body);
				return true;
			case 'token':
				this.counters.tokenRequests++;
				if (method !== 'POST') return this.methodNotAllowed(res, 'POST');
				this.handleToken(req, res, region, body);
				return true;
			case 'token/revoke':
				if (method !== 'POST' && method !== 'GET') return this.methodNotAllowed(res, 'GET, POST');
				this.handleRevoke(req, res, url, region, body);
				return true;
			default:
				return false;
		}
	}

	private methodNotAllowed(res: ServerResponse, allow: string): true {
		sendJson(
			res,
			405,
			{ error: 'method_not_allowed' },
			{ Allow: allow, [SOURCE_HEADER]: OAUTH_SOURCES.method },
		);
		return true;
	}

	// ---------------------------------------------------------------- step 1: authorization

	private handleAuthorize(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		region: string,
	): void {
		this.counters.authPageViews++;
		const q = url.searchParams;
		const checked = this.validateAuthorization(q, region);
		if ('error' in checked) {
			sendAuthError(req, res, checked.error, checked.source);
			return;
		}
		const { client, scopes, accessType } = checked;
		const pending: PendingAuthorization = {
			id: randomBytes(16).toString('hex'),
			clientId: client.clientId,
			region,
			redirectUri: q.get('redirect_uri') ?? '',
			scopes,
			accessType,
			state: q.get('state') ?? undefined,
			expiresAt: this.clock.now() + PENDING_REQUEST_TTL_MS,
		};
		if (this.autoDecision) {
			this.answerConsent(res, pending, this.autoDecision);
			return;
		}
		this.prunePending();
		this.pending.set(pending.id, pending);
		sendHtml(res, 200, consentPage(client.name, region, accessType, scopes, pending.id));
	}

	private validateAuthorization(
		q: URLSearchParams,
		region: string,
	):
		| Refusal<AuthorizationErrorCode>
		| { client: ClientRegistration; scopes: string[]; accessType: 'online' | 'offline' } {
		// Mandatory keys: response_type (must be "code"), scope, redirect_uri. A missing/empty
		// client_id is documented separately as ERROR_invalid_client.
		const responseType = q.get('response_type');
		const scopeParam = q.get('scope');
		const redirectUri = q.get('redirect_uri');
		const accessTypeParam = q.get('access_type');
		if (responseType !== 'code' || scopeParam === null || !redirectUri)
			return refusal('ERROR_invalid_response_type', 'responseType');
		// SILENT: access_type defaults to online; another value is a malformed request.
		if (accessTypeParam !== null && accessTypeParam !== 'online' && accessTypeParam !== 'offline')
			return refusal('ERROR_invalid_response_type', 'accessType');
		const client = this.clientInRegion(q.get('client_id') ?? '', region);
		if (!client) return refusal('ERROR_invalid_client', 'authClient');
		if (!client.redirectUris.includes(redirectUri))
			return refusal('ERROR_invalid_redirect_uri', 'authRedirect');
		// Documented: several scopes are separated by commas (a space-separated list is refused).
		if (/[^,\s]\s+[^,\s]/.test(scopeParam)) return refusal('ERROR_invalid_scope', 'scopeSeparator');
		const scopes = parseScopes(scopeParam);
		if (scopes.length === 0 || !scopes.every(isValidScope))
			return refusal('ERROR_invalid_scope', 'scope');
		return { client, scopes, accessType: accessTypeParam === 'offline' ? 'offline' : 'online' };
	}

	private handleDecision(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		region: string,
		body: Buffer,
	): void {
		const params = parseBodyParams(req, body);
		const get = (k: string): string => params.get(k) ?? url.searchParams.get(k) ?? '';
		const id = get('request_id');
		const decision = get('decision');
		const pending = this.pending.get(id);
		if (
			!pending ||
			pending.region !== region ||
			pending.expiresAt <= this.clock.now() ||
			(decision !== 'accept' && decision !== 'reject')
		) {
			// Emulator-only error: the consent step is the emulator's own page.
			sendAuthError(req, res, 'ERROR_invalid_authorization_request', OAUTH_SOURCES.consent);
			return;
		}
		this.pending.delete(id);
		this.answerConsent(res, pending, decision);
	}

	private answerConsent(
		res: ServerResponse,
		p: PendingAuthorization,
		decision: 'accept' | 'reject',
	): void {
		const target = new URL(p.redirectUri);
		if (decision === 'accept') {
			const home =
				this.accountRegion && this.regions.has(this.accountRegion) ? this.accountRegion : p.region;
			const code = this.tokens.mintGrantCode({ ...p, region: home });
			target.searchParams.set('code', code.code);
			target.searchParams.set('location', home);
			target.searchParams.set('accounts-server', this.accountsServer(home));
		} else {
			target.searchParams.set('error', 'access_denied');
		}
		if (p.state !== undefined) target.searchParams.set('state', p.state);
		res.writeHead(302, {
			Location: target.toString(),
			'Content-Length': 0,
			'Cache-Control': 'no-store',
		});
		res.end();
	}

	// ---------------------------------------------------------------- step 2: token, refresh

	private handleToken(
		req: IncomingMessage,
		res: ServerResponse,
		region: string,
		body: Buffer,
	): void {
		const params = parseBodyParams(req, body);
		const grantType = params.get('grant_type') ?? '';
		if (grantType === 'refresh_token') this.counters.refreshRequests++;
		const fail = ({ error, source }: Refusal<TokenErrorCode>): void =>
			sendJson(res, this.tokenErrorStatus, { error }, { [SOURCE_HEADER]: source });
		if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
			return fail(refusal('unsupported_grant_type', 'grantType'));

		const basic = parseBasicAuth(req);
		const clientId = params.get('client_id') || basic?.id || '';
		const clientSecret = params.get('client_secret') || basic?.secret || '';
		const client = this.clientInRegion(clientId, region);
		if (!client) return fail(refusal('invalid_client', 'tokenClient'));
		if (this.secretFor(client, region) !== clientSecret)
			return fail(
				refusal(
					'invalid_client',
					client.regionSecrets?.[region] === undefined ? 'tokenClient' : 'regionSecret',
				),
			);
		const answer =
			grantType === 'authorization_code'
				? this.exchangeCode(params, client, region)
				: this.refresh(params, client, region);
		if (isRefusal(answer)) return fail(answer);
		sendJson(res, 200, answer);
	}

	/** The token answer to a grant code (single use; a refresh token too for offline access), or the error code. */
	private exchangeCode(
		params: Map<string, string>,
		client: ClientRegistration,
		region: string,
	): Record<string, unknown> | Refusal<TokenErrorCode> {
		const code = this.tokens.code(params.get('code') ?? '');
		if (code && code.region !== region) return refusal('invalid_client', 'regionMismatch');
		if (!code || code.clientId !== client.clientId) return refusal('invalid_code', 'code');
		if (this.clock.now() >= code.expiresAt) {
			this.tokens.deleteCode(code.code);
			return refusal('invalid_code', 'code');
		}
		if ((params.get('redirect_uri') ?? '') !== code.redirectUri)
			return refusal('invalid_redirect_uri', 'tokenRedirect');
		this.tokens.deleteCode(code.code); // single use
		let family: string;
		let refreshToken: string | undefined;
		if (code.accessType === 'offline') {
			refreshToken = this.tokens.mintRefreshToken(client.clientId, region, code.scopes).token;
			family = refreshToken;
		} else {
			family = `online:${randomBytes(8).toString('hex')}`;
		}
		const access = this.tokens.mintAccessToken(family, client.clientId, region, code.scopes);
		const out: Record<string, unknown> = { access_token: access.token };
		if (refreshToken) out.refresh_token = refreshToken;
		return Object.assign(out, {
			scope: code.scopes.join(' '),
			api_domain: this.apiDomain(region),
			token_type: 'Bearer',
			expires_in_sec: Math.round(this.accessTokenTtlMs / 1000),
			expires_in: this.accessTokenTtlMs, // milliseconds, as in the document's sample
		});
	}

	/** The token answer to a refresh token (a new access token, no new refresh token), or the error code. */
	private refresh(
		params: Map<string, string>,
		client: ClientRegistration,
		region: string,
	): Record<string, unknown> | Refusal<TokenErrorCode> {
		const rt = this.tokens.refreshToken(params.get('refresh_token') ?? '');
		if (rt && rt.region !== region) return refusal('invalid_client', 'regionMismatch');
		if (!rt || rt.clientId !== client.clientId) return refusal('invalid_code', 'code');
		// SILENT: optional `scope` / `redirect_uri` on refresh are ignored.
		const access = this.tokens.mintAccessToken(rt.token, rt.clientId, region, rt.scopes);
		return {
			access_token: access.token,
			scope: rt.scopes.join(' '),
			api_domain: this.apiDomain(region),
			token_type: 'Bearer',
			expires_in: Math.round(this.accessTokenTtlMs / 1000),
			expires_in_sec: Math.round(this.accessTokenTtlMs / 1000),
		};
	}

	// ---------------------------------------------------------------- revoke

	private handleRevoke(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		region: string,
		body: Buffer,
	): void {
		const params = parseBodyParams(req, body);
		const token = url.searchParams.get('token') ?? params.get('token') ?? '';
		const rt = this.tokens.refreshToken(token);
		if (rt && rt.region === region) this.revokeRefreshToken(token);
		const at = this.tokens.accessToken(token);
		if (at && at.info.region === region) this.tokens.deleteAccessToken(token);
		sendJson(res, 200, { status: 'success' });
	}

	// ---------------------------------------------------------------- for the API server

	/** Checks the token of an `Authorization: Vendor-oauthtoken <token>` header for a call to `region`. */
	checkAccessToken(token: string | undefined, region: string): CheckAccessTokenResult {
		return this.tokens.checkAccessToken(token, region);
	}

	/** True when one of the granted scopes covers `required` (same service+name; same operation or ALL). */
	hasScope(info: TokenInfo, required: string): boolean {
		return info.scopes.some((g) => scopeCovers(g, required));
	}

	// ---------------------------------------------------------------- fault switches / test conveniences

	/** Makes every access token minted so far expired (refresh tokens keep working). */
	expireAllAccessTokens(): void {
		this.tokens.expireAllAccessTokens();
	}

	/** Revokes a refresh token and every access token minted from it (any region). */
	/** The access and refresh tokens a client holds now. */
	issuedTo(clientId: string): { access: AccessRecord[]; refresh: RefreshRecord[] } {
		return this.tokens.issuedTo(clientId);
	}

	revokeRefreshToken(refreshToken: string): void {
		this.tokens.revokeRefreshToken(refreshToken);
	}

	/** Mints an offline token pair directly (as if the consent and code exchange had happened). */
	issueTokens(opts: { clientId: string; region: string; scopes: string[] }): {
		access_token: string;
		refresh_token: string;
		expires_in_sec: number;
		expires_in: number;
		scope: string;
		api_domain: string;
		token_type: 'Bearer';
	} {
		if (!this.regions.has(opts.region))
			throw new Error(`issueTokens: unknown region ${opts.region}`);
		if (!this.clientInRegion(opts.clientId, opts.region)) {
			throw new Error(
				`issueTokens: client ${opts.clientId} is not registered in region ${opts.region}`,
			);
		}
		const bad = opts.scopes.filter((s) => !isValidScope(s));
		if (opts.scopes.length === 0 || bad.length > 0)
			throw new Error(`issueTokens: invalid scopes: ${bad.join(', ')}`);
		const rt = this.tokens.mintRefreshToken(opts.clientId, opts.region, opts.scopes);
		const at = this.tokens.mintAccessToken(rt.token, opts.clientId, opts.region, opts.scopes);
		return {
			access_token: at.token,
			refresh_token: rt.token,
			expires_in_sec: Math.round(this.accessTokenTtlMs / 1000),
			expires_in: Math.round(this.accessTokenTtlMs / 1000),
			scope: opts.scopes.join(' '),
			api_domain: this.apiDomain(opts.region),
			token_type: 'Bearer',
		};
	}

	stats(): AccountsStats {
		return { ...this.counters };
	}

	/** Forgets every code and token and zeroes the stats (clients, regions and switches stay). */
	reset(): void {
		this.tokens.clear();
		this.pending.clear();
		this.counters = { tokenRequests: 0, refreshRequests: 0, authPageViews: 0 };
		this.autoDecision = null;
		this.accountRegion = null;
	}

	/** `${baseUrl()}/${region}`: the accounts address of a region (the redirect's `accounts-server`). */
	accountsServer(region: string): string {
		return `${this.baseUrl()}/${region}`;
	}

	/** `${baseUrl()}/${region}/api`: the token responses' `api_domain`. */
	apiDomain(region: string): string {
		return `${this.baseUrl()}/${region}/api`;
	}

	// ---------------------------------------------------------------- helpers

	private clientInRegion(clientId: string, region: string): ClientRegistration | undefined {
		if (!clientId) return undefined;
		const c = this.clients.get(clientId);
		if (!c) return undefined;
		if (c.regions && !c.regions.includes(region)) return undefined;
		return c;
	}

	private secretFor(client: ClientRegistration, region: string): string {
		return client.regionSecrets?.[region] ?? client.clientSecret;
	}

	private prunePending(): void {
		const now = this.clock.now();
		for (const [id, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(id);
	}
}
