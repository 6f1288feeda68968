/**
 * What the emulator holds between requests: accounts, store, clock, faults, request log, limits,
 * latency, waits; one per `startEmulator`, changed only by the handler, checks and admin routes.
 */
import { Accounts } from './accounts';
import { EndlessPages } from './bad-answers';
import { Clock } from './clock';
import { seedDemo, seedItems } from './demo-data';
import { Faults } from './faults';
import { OrganizationLimits, ProjectLimits } from './limits';
import { Pending } from './pending';
import { allScopes, Router } from './routes';
import { Store } from './store';
import {
	DEFAULT_CLIENT,
	DEFAULT_ORGANIZATION_ID,
	DEFAULT_PORTAL_ID,
	DEFAULT_RATE_LIMIT,
	type EmulatorOptions,
	type RecordedRequest,
	REGIONS,
} from './types';

/** The delay before every answer is processed: `ms` ± `jitter`, evenly drawn. */
class Latency {
	ms: number;
	jitter = 0;

	constructor(ms: number) {
		this.ms = Math.max(0, ms);
	}

	/** Sets both, `ms` at least 0 and `jitter` from 0 to `ms`. */
	set(ms: number, jitter = 0): void {
		this.ms = Math.max(0, ms);
		this.jitter = Math.min(this.ms, Math.max(0, jitter));
	}

	/** One wait: `ms` ± `jitter`, never negative. */
	draw(): number {
		return Math.max(0, this.ms + (this.jitter ? (Math.random() * 2 - 1) * this.jitter : 0));
	}
}

export class EmulatorState {
	readonly clock: Clock;
	readonly router = new Router();
	readonly store = new Store();
	readonly faults = new Faults();
	readonly requests: RecordedRequest[] = [];
	/** API-area requests being handled now, and the most at once since the last `clearRequests()`. */
	readonly inFlight = { now: 0, max: 0 };
	readonly latency: Latency;
	readonly defaultClient: { clientId: string; clientSecret: string; redirectUri: string };
	readonly accounts: Accounts;
	/** Project management's limit per region and OAuth client. */
	readonly projectLimits: ProjectLimits;
	/** The accounting areas' limit per organization; undefined unless asked for. */
	readonly organizationLimits?: OrganizationLimits;
	readonly retryAfterHeader: boolean;
	readonly endless = new EndlessPages();
	readonly pending = new Pending();
	/** `http://127.0.0.1:<port>`, once the server listens. */
	baseUrl = '';

	constructor(opts: EmulatorOptions) {
		this.clock = opts.clock ?? new Clock({ realTime: true });
		this.latency = new Latency(opts.latencyMs ?? 0);
		this.projectLimits = new ProjectLimits(opts.rateLimit ?? DEFAULT_RATE_LIMIT, this.clock);
		this.organizationLimits = opts.accountingRateLimit
			? new OrganizationLimits(opts.accountingRateLimit, this.clock)
			: undefined;
		this.retryAfterHeader = opts.retryAfterHeader ?? false;
		this.defaultClient = {
			...DEFAULT_CLIENT,
			redirectUri: opts.redirectUri ?? DEFAULT_CLIENT.redirectUri,
		};
		this.accounts = new Accounts({
			clock: this.clock,
			regions: [...REGIONS],
			clients: [
				{
					clientId: this.defaultClient.clientId,
					clientSecret: this.defaultClient.clientSecret,
					redirectUris: [this.defaultClient.redirectUri],
					name: 'Vendor emulator default client',
				},
				...(opts.clients ?? []),
			],
			baseUrl: () => this.baseUrl,
		});
		this.seed(opts);
	}

	/** A default organisation and portal in every region; the demo data and extra items when asked for. */
	private seed(opts: EmulatorOptions): void {
		for (const region of REGIONS) {
			this.store.addOrg(region, DEFAULT_ORGANIZATION_ID, 'Zylker Demo Org');
			this.store.addPortal(region, DEFAULT_PORTAL_ID, 'Zylker Demo Portal');
		}
		if (opts.demo)
			seedDemo(this.store, this.clock, 'us', DEFAULT_ORGANIZATION_ID, DEFAULT_PORTAL_ID);
		if (opts.seedItems)
			seedItems(this.store, this.clock, 'us', DEFAULT_ORGANIZATION_ID, opts.seedItems);
	}

	regionUrls(region = 'us'): { accounts: string; api: string; projects: string } {
		return {
			accounts: `${this.baseUrl}/${region}`,
			api: `${this.baseUrl}/${region}/api`,
			projects: `${this.baseUrl}/${region}/projects`,
		};
	}

	issueToken(o: { region?: string; scopes?: string[] } = {}): ReturnType<Accounts['issueTokens']> {
		return this.accounts.issueTokens({
			clientId: this.defaultClient.clientId,
			region: o.region ?? 'us',
			scopes: o.scopes ?? allScopes(),
		});
	}

	clearRequests(): void {
		this.requests.length = 0;
		this.inFlight.max = this.inFlight.now;
	}

	resetRateLimits(): void {
		this.projectLimits.reset();
		this.organizationLimits?.reset();
	}
}
