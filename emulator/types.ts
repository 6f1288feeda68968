/**
 * The emulator's contract with its users (tests, demo, benches): the defaults, the options of
 * `startEmulator`, a recorded request and the `Emulator` handle. server.ts re-exports them.
 */
import type { Accounts } from './accounts';
import type { ClientRegistration } from './accounts-tokens';
import type { Clock } from './clock';
import type { Faults } from './faults';
import type { OrganizationRateLimit, ProjectRateLimit } from './limits';
import type { Router } from './routes';
import type { Store } from './store';

export const REGIONS = ['us', 'eu', 'in', 'au', 'cn'] as const;
export const DEFAULT_ORGANIZATION_ID = '600000001';
export const DEFAULT_PORTAL_ID = '7000000000001';
export const DEFAULT_CLIENT = {
	clientId: '1000.EMULATORDEFAULTCLIENT',
	clientSecret: 'emulator-default-secret',
	redirectUri: 'http://localhost:5678/rest/oauth2-credential/callback',
};
export const DEFAULT_RATE_LIMIT: ProjectRateLimit = {
	limit: 100,
	windowMs: 120_000,
	blockMs: 1_800_000,
};

export interface EmulatorOptions {
	port?: number;
	clients?: ClientRegistration[];
	clock?: Clock;
	/** Seed demo data (demo-data.ts) into the US organisation and portal. */
	demo?: boolean;
	/** Add this many items to the US organisation (benchmarks of Return All; demo-data.ts). */
	seedItems?: number;
	/** Project-management rate limit (default 100 per 120000 ms, block 1800000 ms). */
	rateLimit?: ProjectRateLimit;
	/** Send `Retry-After` with rate-limit 429s (default off: the documents do not show it). */
	retryAfterHeader?: boolean;
	/** The accounting areas' limit per organization (default off; the service: 100 per 60000 ms): limits.ts. */
	accountingRateLimit?: OrganizationRateLimit;
	/** Milliseconds every answer (API areas and accounts server, not admin routes) waits before it is processed (default 0): a network and server delay. */
	latencyMs?: number;
	/**
	 * Redirect URI the default client accepts (default: n8n's OAuth2 callback on
	 * `http://localhost:5678`). n8n sends `<its editor base URL>/rest/oauth2-credential/callback`.
	 */
	redirectUri?: string;
}

export interface RecordedRequest {
	method: string;
	/** Path without the query. */
	path: string;
	query: Record<string, string>;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** Parsed JSON, form fields, multipart parts, or the raw text. */
	body: unknown;
	region: string;
	/** Area value (`books`, `projects`, ...) or `accounts`. */
	area?: string;
	/** Operation id, e.g. `books.item.create`. */
	operation?: string;
	/** Answered status; 0 while pending or when the connection was dropped. */
	status: number;
	/** Wall-clock time of arrival (ms). */
	time: number;
}

export interface Emulator {
	url: string;
	regionUrls(region?: string): { accounts: string; api: string; projects: string };
	accounts: Accounts;
	clock: Clock;
	store: Store;
	requests: RecordedRequest[];
	clearRequests(): void;
	faults: Faults;
	issueToken(opts?: { region?: string; scopes?: string[] }): ReturnType<Accounts['issueTokens']>;
	defaultClient: { clientId: string; clientSecret: string; redirectUri: string };
	organizationId: string;
	portalId: string;
	router: Router;
	/** Forgets rate-limit counters and blocks. */
	resetRateLimits(): void;
	/** The delay added to every answer (ms), drawn from ms ± jitter; see `EmulatorOptions.latencyMs`. */
	setLatency(ms: number, jitter?: number): void;
	/** API-area requests (not the accounts server) being handled now, and the most at once since the start or the last `clearRequests()`. */
	inFlight: { now: number; max: number };
	close(): Promise<void>;
}
