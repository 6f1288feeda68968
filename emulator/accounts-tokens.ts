/**
 * The accounts server's grant codes, refresh tokens and access tokens, minted under the documented
 * limits and checked for the API server (README.md, "The accounts server").
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';

export const GRANT_CODE_TTL_MS = 60 * 1000;
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
const LIMIT_WINDOW_MS = 10 * 60 * 1000;
const MAX_GRANT_CODES_PER_WINDOW = 10;
const MAX_ACCESS_TOKENS_PER_WINDOW = 10;
const MAX_REFRESH_TOKENS_PER_WINDOW = 20;

export interface ClientRegistration {
	clientId: string;
	clientSecret: string;
	redirectUris: string[];
	name: string;
	/** Regions where the client is registered (default: all regions of the emulator). */
	regions?: string[];
	/** Multi-data-center clients have one secret per region; missing regions use `clientSecret`. */
	regionSecrets?: Record<string, string>;
}

export interface TokenInfo {
	clientId: string;
	region: string;
	scopes: string[];
	expiresAt: number;
}

export type CheckAccessTokenResult =
	| { ok: true; info: TokenInfo }
	| { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'wrong_region' };

interface GrantCode {
	code: string;
	clientId: string;
	region: string;
	redirectUri: string;
	scopes: string[];
	accessType: 'online' | 'offline';
	createdAt: number;
	expiresAt: number;
}

export interface RefreshRecord {
	token: string;
	clientId: string;
	region: string;
	scopes: string[];
	createdAt: number;
}

export interface AccessRecord {
	token: string;
	info: TokenInfo;
	family: string;
	createdAt: number;
}

function randomToken(bytes = 24): string {
	// Opaque; the "1000." prefix mimics the vendor family's token look, nothing depends on it.
	return `1000.${randomBytes(bytes).toString('hex')}`;
}

/** What a grant code is minted from: the consent's client, region, redirect URI, scopes and access type. */
type CodeRequest = Pick<GrantCode, 'clientId' | 'region' | 'redirectUri' | 'scopes' | 'accessType'>;

export class TokenStore {
	private readonly codes = new Map<string, GrantCode>();
	private readonly refreshTokens = new Map<string, RefreshRecord>();
	private readonly accessTokens = new Map<string, AccessRecord>();
	/** family id (refresh token, or a one-off id for online access) -> access tokens, creation order. */
	private readonly families = new Map<string, string[]>();
	/** `${clientId}\n${region}` -> grant codes / refresh tokens, creation order (for the limits). */
	private readonly codesByClient = new Map<string, string[]>();
	private readonly refreshByClient = new Map<string, string[]>();

	constructor(
		private readonly clock: Clock,
		private readonly grantCodeTtlMs: number,
		readonly accessTokenTtlMs: number,
	) {}

	code(code: string): GrantCode | undefined {
		return this.codes.get(code);
	}

	deleteCode(code: string): void {
		this.codes.delete(code);
	}

	refreshToken(token: string): RefreshRecord | undefined {
		return this.refreshTokens.get(token);
	}

	accessToken(token: string): AccessRecord | undefined {
		return this.accessTokens.get(token);
	}

	/** The tokens a client holds now (for the checks that compare n8n's stored credential with what was issued). */
	issuedTo(clientId: string): { access: AccessRecord[]; refresh: RefreshRecord[] } {
		return {
			access: [...this.accessTokens.values()].filter((a) => a.info.clientId === clientId),
			refresh: [...this.refreshTokens.values()].filter((r) => r.clientId === clientId),
		};
	}

	deleteAccessToken(token: string): void {
		this.accessTokens.delete(token);
	}

	mintGrantCode(p: CodeRequest): GrantCode {
		const now = this.clock.now();
		const code: GrantCode = {
			code: randomToken(),
			clientId: p.clientId,
			region: p.region,
			redirectUri: p.redirectUri,
			scopes: [...p.scopes],
			accessType: p.accessType,
			createdAt: now,
			expiresAt: now + this.grantCodeTtlMs,
		};
		const key = `${p.clientId}\n${p.region}`;
		this.enforceWindowLimit(this.codesByClient, key, this.codes, MAX_GRANT_CODES_PER_WINDOW, (c) =>
			this.codes.delete(c),
		);
		this.codes.set(code.code, code);
		this.pushTo(this.codesByClient, key, code.code);
		return code;
	}

	mintRefreshToken(clientId: string, region: string, scopes: string[]): RefreshRecord {
		const rec: RefreshRecord = {
			token: randomToken(),
			clientId,
			region,
			scopes: [...scopes],
			createdAt: this.clock.now(),
		};
		const key = `${clientId}\n${region}`;
		this.enforceWindowLimit(
			this.refreshByClient,
			key,
			this.refreshTokens,
			MAX_REFRESH_TOKENS_PER_WINDOW,
			(t) => {
				// The 21st deletes the first: that refresh token stops working; its access tokens run out normally.
				this.refreshTokens.delete(t);
				this.families.delete(t);
			},
		);
		this.refreshTokens.set(rec.token, rec);
		this.pushTo(this.refreshByClient, key, rec.token);
		return rec;
	}

	mintAccessToken(
		family: string,
		clientId: string,
		region: string,
		scopes: string[],
	): AccessRecord {
		const now = this.clock.now();
		const rec: AccessRecord = {
			token: randomToken(),
			info: { clientId, region, scopes: [...scopes], expiresAt: now + this.accessTokenTtlMs },
			family,
			createdAt: now,
		};
		this.enforceWindowLimit(
			this.families,
			family,
			this.accessTokens,
			MAX_ACCESS_TOKENS_PER_WINDOW,
			(t) => this.accessTokens.delete(t),
		);
		this.accessTokens.set(rec.token, rec);
		this.pushTo(this.families, family, rec.token);
		return rec;
	}

	/**
	 * Drops entries of `index[key]` that no longer exist, then, if `max` of them were created inside
	 * the last 10 minutes, deletes the first created of those (so the new one is the max-th).
	 */
	private enforceWindowLimit(
		index: Map<string, string[]>,
		key: string,
		store: Map<string, { createdAt: number }>,
		max: number,
		remove: (id: string) => void,
	): void {
		const since = this.clock.now() - LIMIT_WINDOW_MS;
		const live = (index.get(key) ?? []).filter((id) => store.has(id));
		const inWindow = live.filter((id) => (store.get(id)?.createdAt ?? -Infinity) > since);
		let kept = live;
		if (inWindow.length >= max) {
			const victims = new Set(inWindow.slice(0, inWindow.length - max + 1));
			for (const v of victims) remove(v);
			kept = live.filter((id) => !victims.has(id));
		}
		index.set(key, kept);
	}

	private pushTo(index: Map<string, string[]>, key: string, id: string): void {
		const list = index.get(key);
		if (list) list.push(id);
		else index.set(key, [id]);
	}

	/** Checks the token of an `Authorization: Vendor-oauthtoken <token>` header for a call to `region`. */
	checkAccessToken(token: string | undefined, region: string): CheckAccessTokenResult {
		if (!token) return { ok: false, reason: 'missing' };
		const rec = this.accessTokens.get(token);
		if (!rec) return { ok: false, reason: 'unknown' };
		if (rec.info.region !== region) return { ok: false, reason: 'wrong_region' };
		if (this.clock.now() >= rec.info.expiresAt) return { ok: false, reason: 'expired' };
		return { ok: true, info: { ...rec.info, scopes: [...rec.info.scopes] } };
	}

	/** Makes every access token minted so far expired (refresh tokens keep working). */
	expireAllAccessTokens(): void {
		const now = this.clock.now();
		for (const rec of this.accessTokens.values())
			rec.info.expiresAt = Math.min(rec.info.expiresAt, now);
	}

	/** Revokes a refresh token and every access token minted from it (any region). */
	revokeRefreshToken(refreshToken: string): void {
		if (!this.refreshTokens.delete(refreshToken)) return;
		for (const t of this.families.get(refreshToken) ?? []) this.accessTokens.delete(t);
		this.families.delete(refreshToken);
	}

	/** Forgets every code and token. */
	clear(): void {
		for (const m of [
			this.codes,
			this.refreshTokens,
			this.accessTokens,
			this.families,
			this.codesByClient,
			this.refreshByClient,
		])
			m.clear();
	}
}
