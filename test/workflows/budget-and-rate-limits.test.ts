/**
 * Budgets and rate limits, written from the README ("Triggers": what a poll costs, Max API Calls
 * per Day; "Credentials": the rate-limit figures; Troubleshooting) and docs/BEHAVIOUR.md /
 * docs/ASSUMPTIONS.md (pacing, 429 handling, holds and blocks) by a tester who did not write the
 * package. Everything runs on n8n's engine through the harness against the emulator, whose
 * request log is the witness: tests count the requests the service received, they never measure
 * time.
 *
 * Time: n8n's clock is virtual (`useClock` below, after test/tools/virtual-clock.ts): in the
 * rate-limit tests the package's pacing and hold waits pass at once and move `Date.now()` on; the
 * emulator's clock follows `Date.now()` (a real-time Clock), so its rate-limit windows, token
 * expiry and record times move with it. A test moves the clock itself with `advance` (a minute
 * between polls, as n8n polls every minute).
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { Clock } from '../../emulator/clock';
import type { OrganizationRateLimit } from '../../emulator/limits';
import type { RecordedRequest } from '../../emulator/server';
import { apiClient } from '../../emulator/server';
import { Container } from '../../harness/setup';
import * as wait from '../../nodes/shared/api/wait';
import { setImmediate } from '../../host/globals';
import { byId, json } from '../../harness/workflows';
import { PolledTrigger, useWorkflowEnv } from './support';
import type { RunResult } from '../../harness';
import { type Account, seedAccount } from '../../emulator/seed';
import { type EventCase, eventCases } from '../../harness/trigger-events';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Records of every kind a trigger watches: the README's cost table column N = 1,000. */
const N = 1000;

/** The service's clock: follows n8n's (virtual) `Date.now()`. */
const clock = new Clock({ realTime: true });
/** The accounting areas' limit as the emulator enforces it; off (huge) unless a test sets the service's figure. */
const ACCOUNTING: OrganizationRateLimit = {
	limit: 1_000_000_000,
	windowMs: MINUTE,
	retryAfter: false,
};
const env = useWorkflowEnv({ clock, accountingRateLimit: ACCOUNTING });
const time = useClock();
const warn = jest.spyOn(Container.get(Logger), 'warn');
let account: Account;

beforeAll(() => {
	account = { store: env.em.store, clock, org: env.orgTenant(), portal: env.portalTenant() };
	seedAccount(account, N);
});

/**
 * n8n's clock: `Date.now()` is real time plus an offset the test moves (`advance`). The package's
 * waits of `virtualFrom` ms or more pass at once and move it by their length (as
 * test/tools/virtual-clock.ts does for waits of a second or more); shorter ones run in real time.
 * The trigger tests keep every wait real (a token refresh raced against a deadline must not lose
 * to a deadline that passes at once); the rate-limit tests make the pacing waits virtual.
 */
function useClock(): { advance: (ms: number) => void; virtualFrom: (ms: number) => void } {
	const state = { offset: 0, virtualFrom: Number.POSITIVE_INFINITY };
	const realNow = Date.now.bind(Date);
	const realPause = wait.pause;
	beforeAll(() => {
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + state.offset);
		jest.spyOn(wait, 'pause').mockImplementation(async (ms, signal) => {
			if (ms < state.virtualFrom) return await realPause(ms, signal);
			state.offset += ms;
			await new Promise<void>((resolve) => setImmediate(resolve));
		});
	});
	afterAll(() => jest.restoreAllMocks());
	return { advance: (ms) => (state.offset += ms), virtualFrom: (ms) => (state.virtualFrom = ms) };
}

/** A new access token stored in the credential (a day of virtual time expires the old one). */
function freshToken(): void {
	env.credentials[0].data.oauthTokenData = { ...env.em.issueToken() } as unknown as IDataObject;
}

// ---------------------------------------------------------------- triggers

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const { commonPollingParameters } = require('n8n-core/dist/nodes-loader/constants') as {
	commonPollingParameters: INodeProperties[];
};

/** The node type with n8n's "Poll Times", as n8n's loader hands a polling node to the engine. */
function withPollTimes(Type: new () => INodeType): new () => INodeType {
	return class extends Type {
		description: INodeTypeDescription = {
			...this.description,
			properties: [...commonPollingParameters, ...this.description.properties],
		};
	};
}

interface Poll {
	ids: string[];
	calls: RecordedRequest[];
}

/** A trigger of an event case; each poll runs with the static data the previous one left. */
class Trigger extends PolledTrigger {
	constructor(
		private readonly event: EventCase,
		parameters: IDataObject = {},
	) {
		super(env, withPollTimes(event.nodeType), { ...event.parameters, ...parameters });
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<Poll & { items: IDataObject[] }> {
		const { items, calls } = await this.pollTrigger(mode);
		return { items, ids: items.map((i) => String(i[this.event.idField])), calls };
	}
}

function eventCase(label: string): EventCase {
	const found = eventCases(env.org, env.portal).find((c) => c.label === label);
	if (!found) throw new Error(`no event ${label}`);
	return found;
}

/** Moves n8n's clock (and the service's) to the next midnight UTC (the harness's workflow time zone). */
function toNextMidnight(): void {
	time.advance(DAY - (Date.now() % DAY));
}

const UNLIMITED = { maxCallsPerDay: 100_000_000 };

describe('what a poll costs: the README table at N = 1,000 records of each kind', () => {
	beforeEach(() => {
		freshToken();
		env.em.resetRateLimits();
	});

	// Calls per quiet poll, README "What a poll costs" (N = 1,000 column)
	test.each([
		['Books: Invoice Created', 1],
		['Projects: Record Moved to Trash', 1],
		['Books: Estimate Status Changed (accepted)', 2],
		['Books: Item Created', 5],
		['Projects: Project Created', 5],
		['Payments: Payment Recorded, dated within the last 1 day', 1],
	])(
		'%s: a quiet poll costs %i call(s); activation the same or up to twice; a poll after one change the same or one more, emitting it once',
		async (label, quiet) => {
			const event = eventCase(label);
			const trigger = new Trigger(event, UNLIMITED);
			time.advance(1000);
			const activation = await trigger.poll();
			expect(activation.ids).toEqual([]);
			expect(activation.calls.length).toBeGreaterThanOrEqual(quiet);
			expect(activation.calls.length).toBeLessThanOrEqual(2 * quiet);

			time.advance(MINUTE);
			const q = await trigger.poll();
			expect({ ids: q.ids, calls: q.calls.length }).toEqual({ ids: [], calls: quiet });

			time.advance(1000);
			const changed = event.change(account);
			time.advance(1000);
			const after = await trigger.poll();
			expect(after.ids).toEqual([changed]);
			expect([quiet, quiet + 1]).toContain(after.calls.length);

			// quiet again (one record more: a whole-list read may take one page more)
			time.advance(MINUTE);
			const again = await trigger.poll();
			expect(again.ids).toEqual([]);
			expect([quiet, quiet + 1]).toContain(again.calls.length);
		},
	);
});

describe('Max API Calls per Day', () => {
	beforeEach(() => {
		freshToken();
		env.em.resetRateLimits();
		env.em.faults.clear();
		warn.mockClear();
	});
	afterEach(() => env.em.faults.clear());

	/**
	 * Two UTC days of every-minute polls of Invoice Created at the default budget, activated at the
	 * first midnight, then the third day's first two hours (made once, shared by two tests).
	 */
	interface Day {
		/** Calls of each of the two days. */
		calls: number[];
		/** Minutes of each day whose poll called the API. */
		callingMinutes: number[][];
		made: string[];
		emitted: string[];
	}
	let day: Day | undefined;
	async function dayAtTheDefaultBudget(): Promise<Day> {
		if (day) return day;
		const event = eventCase('Books: Invoice Created');
		const trigger = new Trigger(event);
		toNextMidnight();
		const result: Day = { calls: [0, 0], callingMinutes: [[], []], made: [], emitted: [] };
		for (let minute = 0; minute < 2 * 1440 + 120; minute++) {
			const d = Math.floor(minute / 1440);
			if (d < 2 && minute % 97 === 13) result.made.push(event.change(account));
			const poll = await trigger.poll();
			if (d < 2) {
				result.calls[d] += poll.calls.length;
				if (poll.calls.length > 0) result.callingMinutes[d].push(minute % 1440);
			}
			result.emitted.push(...poll.ids);
			time.advance(MINUTE);
		}
		day = result;
		return result;
	}

	test("the default budget (500), a 1-call event polled every minute for two days: at most 500 calls a day, and every invoice made emitted once (the next day's polls catching up)", async () => {
		const { calls, callingMinutes, made, emitted } = await dayAtTheDefaultBudget();
		for (const d of [0, 1]) {
			expect(calls[d]).toBeLessThanOrEqual(500);
			// the budget is used, not left idle: well over 400 polls each day
			expect(callingMinutes[d].length).toBeGreaterThanOrEqual(400);
		}
		expect(emitted).toEqual(made);
	}, 240_000);

	// Found a defect when written (README "its polls are spread over the day to stay within it ... With the default, a
	// 1-call event polls about every 3 minutes"): every day a poll every minute from midnight to about 00:30, the 500
	// spent at 23:00, and no poll from 23:00 to midnight. Fixed (poll/budget.ts: a new day carries at most two polls'
	// worth of credit). The activation's own day may start with a burst (BEHAVIOUR), so the day after it is checked.
	test('the default budget, a 1-call event: on the day after activation, polls about every 3 minutes in every hour (spread, not spent early)', async () => {
		const { callingMinutes } = await dayAtTheDefaultBudget();
		const perHour = Array.from(
			{ length: 24 },
			(_, hour) => callingMinutes[1].filter((m) => Math.floor(m / 60) === hour).length,
		);
		// about 20 an hour (1,440 / 500 = one every 2.9 minutes)
		expect(
			perHour
				.map((polls, hour) => ({ hour, polls }))
				.filter(({ polls }) => polls < 10 || polls > 30),
		).toEqual([]);
	}, 240_000);

	test('a poll that would overspend is skipped without calling the API and emits nothing; the next poll emits everything new since the last one, once', async () => {
		// 24 calls a day for a 1-call event: about one poll an hour
		const event = eventCase('Books: Invoice Created');
		const trigger = new Trigger(event, { maxCallsPerDay: 24 });
		time.advance(MINUTE);
		await trigger.poll();
		const made: string[] = [];
		const emitted: string[][] = [];
		let skippedAfterAChange = 0;
		let calling = 0;
		for (let minute = 1; minute <= 300; minute++) {
			time.advance(MINUTE);
			if ([1, 10, 50, 95].includes(minute)) {
				made.push(event.change(account));
				time.advance(1000);
			}
			const poll = await trigger.poll();
			if (poll.calls.length === 0) {
				expect(poll.ids).toEqual([]);
				if (made.length > emitted.flat().length) skippedAfterAChange++;
			} else {
				calling++;
				if (poll.ids.length) emitted.push(poll.ids);
			}
		}
		// a day's 24 spread: about 5 polls in 5 hours, never one a minute
		expect(calling).toBeGreaterThanOrEqual(3);
		expect(calling).toBeLessThanOrEqual(6);
		// the skips were real (records waited for a later poll), and the polls that ran emitted them all, once
		expect(skippedAfterAChange).toBeGreaterThan(0);
		expect(emitted.flat()).toEqual(made);
		expect(emitted.some((batch) => batch.length > 1)).toBe(true);
	}, 60_000);

	test('the budget scales with what a poll costs: Item Created (5-6 calls a poll at N = 1,000) with 100 a day makes at most 100 calls in a day, whole polls only', async () => {
		const event = eventCase('Books: Item Created');
		const listPages = Math.ceil(account.org.all('items').length / 200);
		const trigger = new Trigger(event, { maxCallsPerDay: 100 });
		toNextMidnight();
		let calls = 0;
		const polls: number[] = [];
		for (let minute = 0; minute < 1440; minute += 5) {
			const poll = await trigger.poll();
			calls += poll.calls.length;
			// a poll reads the whole list or nothing: never a part of it (skipped "without calling the API")
			const pages = poll.calls.filter(
				(c) => c.method === 'GET' && /\/items$/.test(c.path) && c.status === 200,
			).length;
			if (poll.calls.length > 0) polls.push(pages);
			time.advance(5 * MINUTE);
		}
		expect(calls).toBeLessThanOrEqual(100);
		// 100 / 5 = 20 polls a day; the first (the baseline) may cost up to twice
		expect(polls.length).toBeGreaterThanOrEqual(10);
		for (const pages of polls.slice(1)) expect(pages).toBe(listPages);
	}, 120_000);

	test('every call the API sees counts: with every access token refused once (401, refresh, resend), a day of every-minute polls with 48 a day makes at most 48 calls, 401s included', async () => {
		const trigger = new Trigger(eventCase('Books: Invoice Created'), { maxCallsPerDay: 48 });
		toNextMidnight();
		const seen: RecordedRequest[] = [];
		for (let minute = 0; minute < 1440; minute++) {
			env.em.accounts.expireAllAccessTokens();
			seen.push(...(await trigger.poll()).calls);
			time.advance(MINUTE);
		}
		// the refusals really happened and each was followed by its resend
		expect(seen.filter((r) => r.status === 401).length).toBeGreaterThan(5);
		expect(seen.filter((r) => r.status === 200).length).toBeGreaterThan(5);
		expect(seen.length).toBeLessThanOrEqual(48);
	}, 180_000);

	test('every call the API sees counts: a read answered 503 and its retry (or a failed poll) count too; 48 a day stays at most 48 calls', async () => {
		const trigger = new Trigger(eventCase('Books: Invoice Created'), { maxCallsPerDay: 48 });
		toNextMidnight();
		const seen: RecordedRequest[] = [];
		for (let minute = 0; minute < 1440; minute++) {
			env.em.faults.next(1, { kind: 'status', status: 503 }, 'books');
			try {
				seen.push(...(await trigger.poll()).calls);
			} catch {
				// a failed poll: n8n reports it; what it sent is still in the emulator's log
				seen.push(...env.apiRequests());
			}
			env.em.faults.clear();
			time.advance(MINUTE);
		}
		expect(seen.filter((r) => r.status === 503).length).toBeGreaterThan(5);
		expect(seen.length).toBeLessThanOrEqual(48);
	}, 180_000);

	test("n8n's log warns when the Poll Times would cost more than the budget (Item Created every minute, 500 a day), and not for an hourly 1-call event", async () => {
		const everyMinute = { pollTimes: { item: [{ mode: 'everyMinute' }] } };
		const expensive = new Trigger(eventCase('Books: Item Created'), everyMinute);
		for (let i = 0; i < 3; i++) {
			await expensive.poll();
			time.advance(HOUR);
		}
		const budgetWarnings = () =>
			warn.mock.calls
				.map(([message]) => String(message))
				.filter((m) => /Max API Calls per Day/.test(m));
		expect(budgetWarnings().length).toBeGreaterThan(0);
		// the warning names the budget it exceeds
		expect(budgetWarnings().some((m) => /500/.test(m))).toBe(true);

		warn.mockClear();
		const cheap = new Trigger(eventCase('Books: Invoice Created'), {
			pollTimes: { item: [{ mode: 'everyHour', minute: 0 }] },
		});
		for (let i = 0; i < 3; i++) {
			await cheap.poll();
			time.advance(HOUR);
		}
		expect(budgetWarnings()).toEqual([]);
	});
});

// ---------------------------------------------------------------- rate limits

/** The time (ms) an error text says requests resume: its first ISO date-time. */
function resumesAt(text: string): number {
	const found = /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)/.exec(text);
	if (!found) throw new Error(`no time in: ${text}`);
	return Date.parse(found[1]);
}

/** Every text of the run's error and its output items' errors. */
function errorText(result: RunResult, node: string): string {
	const error = result.error(node) as (Error & { description?: string }) | undefined;
	const items = json(result, node).filter((i) => i.error !== undefined);
	return [error?.message, error?.description, ...items.map((i) => JSON.stringify(i))]
		.filter(Boolean)
		.join('\n');
}

/** At most `limit` of the requests arrived within any `windowMs`, as the server recorded them. */
function mostInAnyWindow(requests: RecordedRequest[], windowMs: number): number {
	const times = requests.map((r) => r.time).sort((a, b) => a - b);
	let most = 0;
	let start = 0;
	for (let end = 0; end < times.length; end++) {
		while (times[end] - times[start] >= windowMs) start++;
		most = Math.max(most, end - start + 1);
	}
	return most;
}

const statuses = (requests: RecordedRequest[]) => requests.map((r) => r.status);
const input = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
const CONTINUE = { onError: 'continueRegularOutput' as const };

describe('Vendor Projects: 100 requests per 2 minutes, a 30-minute block past it', () => {
	const portal = () => env.portalSteps({ resource: 'portal', operation: 'get' });
	const project = () => env.portalSteps({ resource: 'project' });
	const projectCalls = () => env.apiRequests().filter((r) => r.area === 'projects');

	beforeAll(() => time.virtualFrom(1000));
	beforeEach(() => {
		// past any window and block of an earlier test, a new token
		time.advance(31 * MINUTE);
		freshToken();
		env.em.resetRateLimits();
		env.em.faults.clear();
		env.em.clearRequests();
		delete env.credentials[0].data.projectsRequestsPerWindow;
	});

	/** Another client of the account (same OAuth client) uses up the 2-minute window: the next request starts the block. */
	async function anotherClientUsesTheWindow(): Promise<void> {
		for (let i = 0; i < 100; i++)
			expect((await env.call('GET', 'projects', `/portal/${env.portal}`)).status).toBe(200);
		env.em.clearRequests();
	}

	// One request in flight: a pacing wait moves n8n's virtual clock on at once, which would make a request in flight
	// meanwhile look older than its Timeout (and be retried); the pacing itself is the same.
	test('250 items (2.5x the limit) are paced, not refused: every item done, no 429, never more than 100 within 2 minutes as the server counts', async () => {
		const result = await env.run(
			[portal()('Portal', { options: { requestsInFlight: 1 } })],
			input(250),
		);
		expect(errorText(result, 'Portal')).toBe('');
		expect(json(result, 'Portal')).toHaveLength(250);
		const requests = projectCalls();
		expect(requests).toHaveLength(250);
		expect(statuses(requests).filter((s) => s !== 200)).toEqual([]);
		expect(mostInAnyWindow(requests, 2 * MINUTE)).toBeLessThanOrEqual(100);
	}, 120_000);

	test('Projects Requests per 2 Minutes set to 45 (2 workers): 100 items, never more than 45 within 2 minutes, none refused', async () => {
		env.credentials[0].data.projectsRequestsPerWindow = 45;
		const result = await env.run(
			[portal()('Portal', { options: { requestsInFlight: 1 } })],
			input(100),
		);
		expect(errorText(result, 'Portal')).toBe('');
		expect(json(result, 'Portal')).toHaveLength(100);
		const requests = projectCalls();
		expect(statuses(requests).filter((s) => s !== 200)).toEqual([]);
		expect(mostInAnyWindow(requests, 2 * MINUTE)).toBeLessThanOrEqual(45);
	}, 120_000);

	test('the limit used up by another client: by default one error saying when requests resume (30 minutes on), nothing sent after the block; with Continue On Fail an error item per item, the unsent ones with notSent and blockedUntil', async () => {
		await anotherClientUsesTheWindow();
		const result = await env.run(
			[portal()('Portal', { options: { requestsInFlight: 1 } })],
			input(3),
		);
		const requests = projectCalls();
		expect(statuses(requests)).toEqual([429]);
		const error = result.error('Portal') as Error & { description?: string };
		expect(error.message).toMatch(/blocks further requests until/);
		expect(
			Math.abs(resumesAt(error.message) - (requests[0].time + 30 * MINUTE)),
		).toBeLessThanOrEqual(2000);
		expect(`${error.message}\n${error.description ?? ''}`).toMatch(/not sent/i);

		time.advance(31 * MINUTE);
		freshToken();
		env.em.resetRateLimits();
		await anotherClientUsesTheWindow();
		const lenient = await env.run(
			[portal()('Portal', { options: { requestsInFlight: 1 } }, CONTINUE)],
			input(3),
		);
		const sent = projectCalls();
		expect(statuses(sent)).toEqual([429]);
		const out = json(lenient, 'Portal');
		expect(out).toHaveLength(3);
		const lifts = sent[0].time + 30 * MINUTE;
		for (const item of out) expect(item.error).toBeDefined();
		for (const item of out.slice(1)) {
			expect(item.notSent).toBe(true);
			expect(Math.abs(Date.parse(String(item.blockedUntil)) - lifts)).toBeLessThanOrEqual(2000);
		}
		expect(Math.abs(resumesAt(String(out[0].error)) - lifts)).toBeLessThanOrEqual(2000);
	});

	test('On Rate-Limit Block = Wait Until It Lifts: the refused read is sent again once after the block, every item done', async () => {
		await anotherClientUsesTheWindow();
		const result = await env.run(
			[portal()('Portal', { options: { onRateLimitBlock: 'wait', requestsInFlight: 1 } })],
			input(3),
		);
		expect(errorText(result, 'Portal')).toBe('');
		expect(json(result, 'Portal')).toHaveLength(3);
		// a resend before the block lifted would have been refused again
		expect(statuses(projectCalls())).toEqual([429, 200, 200, 200]);
	});

	test('a create answered 429 was not processed: waiting, it is sent again once and the project exists once', async () => {
		await anotherClientUsesTheWindow();
		const name = `Budget block ${Date.now()}`;
		const result = await env.run([
			project()('Create', { operation: 'create', name, options: { onRateLimitBlock: 'wait' } }),
		]);
		expect(errorText(result, 'Create')).toBe('');
		const posts = projectCalls().filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(2);
		expect(posts[0].status).toBe(429);
		expect(posts[1].status).toBeLessThan(300);
		expect(
			env
				.portalTenant()
				.all('projects')
				.filter((p) => p.name === name),
		).toHaveLength(1);
	});

	test('a create met by the block, by default: sent once, nothing created, the error says when requests resume and is not "Outcome unknown"', async () => {
		await anotherClientUsesTheWindow();
		const name = `Budget refused ${Date.now()}`;
		const result = await env.run([project()('Create', { operation: 'create', name })]);
		const posts = projectCalls().filter((r) => r.method === 'POST');
		expect(statuses(posts)).toEqual([429]);
		expect(
			env
				.portalTenant()
				.all('projects')
				.filter((p) => p.name === name),
		).toEqual([]);
		const text = errorText(result, 'Create');
		expect(text).toMatch(/blocks further requests until/);
		expect(text).not.toMatch(/outcome unknown/i);
		expect(Math.abs(resumesAt(text) - (posts[0].time + 30 * MINUTE))).toBeLessThanOrEqual(2000);
	});

	test('a 429 with Retry-After 600 (seconds): the error says requests resume 10 minutes on, not 30, and nothing is sent again', async () => {
		env.em.faults.next(1, { kind: 'status', status: 429, retryAfter: 600 }, 'projects');
		const result = await env.run([portal()('Portal', {})]);
		const requests = projectCalls();
		expect(statuses(requests)).toEqual([429]);
		const text = errorText(result, 'Portal');
		expect(Math.abs(resumesAt(text) - (requests[0].time + 10 * MINUTE))).toBeLessThanOrEqual(2000);
	});
});

describe('the accounting areas: 100 requests a minute per organization, 429 past it, no block (ASSUMPTIONS)', () => {
	let orgCounter = 0;
	/** A new organization for each test (each process paces each organization on its own). */
	let org = '';
	let item = '';
	const items = () => env.orgSteps('vendorBooks', { resource: 'item' });
	const ofOrg = () => env.apiRequests().filter((r) => r.query.organization_id === org);

	// the pacing spaces requests 600 ms apart at 100 a minute: waits from 250 ms pass at once (the
	// Timeout's 200 ms watcher stays real)
	beforeAll(() => time.virtualFrom(250));
	beforeEach(async () => {
		time.advance(31 * MINUTE);
		freshToken();
		env.em.resetRateLimits();
		env.em.faults.clear();
		ACCOUNTING.limit = 100;
		ACCOUNTING.retryAfter = false;
		// the credential's Accounting Requests per Minute (Ceiling) at its default (100)
		delete env.credentials[0].data.accountingRequestsPerMinute;
		org = String(610_000_000 + ++orgCounter);
		env.em.store.addOrg('us', org, `Budget org ${orgCounter}`);
		const res = await env.call('POST', 'books', '/items', {
			org,
			json: { name: 'Paced item', rate: 1 },
		});
		expect(res.status).toBeLessThan(300);
		item = String((res.body.item as IDataObject).item_id);
		env.em.resetRateLimits();
		env.em.clearRequests();
	});
	afterEach(() => {
		ACCOUNTING.limit = 1_000_000_000;
		env.em.faults.clear();
	});

	const get = (settings = {}) =>
		items()('Get', { organizationId: org, operation: 'get', item_id: byId(item) }, settings);

	/** Another integration of the organization uses up its minute. */
	async function anotherClientUsesTheMinute(): Promise<void> {
		const call = apiClient(env.em, { token: String(env.storedToken.access_token) });
		for (let i = 0; i < 100; i++)
			expect((await call('GET', 'books', `/items/${item}`, { org })).status).toBe(200);
		expect((await call('GET', 'books', `/items/${item}`, { org })).status).toBe(429);
		env.em.clearRequests();
	}

	test('250 items at the default ceiling: paced, not refused: every item done, no 429, never more than 100 within a minute', async () => {
		const result = await env.run([get()], input(250));
		expect(errorText(result, 'Get')).toBe('');
		expect(json(result, 'Get')).toHaveLength(250);
		const requests = ofOrg();
		expect(requests).toHaveLength(250);
		expect(statuses(requests).filter((s) => s !== 200)).toEqual([]);
		expect(mostInAnyWindow(requests, MINUTE)).toBeLessThanOrEqual(100);
	}, 120_000);

	test('Books and Inventory share one count per organization: 150 item reads then 100 bill lists, no 429', async () => {
		const bills = env.orgSteps('vendorInventory', { resource: 'bill' });
		const result = await env.run(
			[
				get(),
				bills('Bills', { organizationId: org, operation: 'getAll', returnAll: false, limit: 1 }),
			],
			input(150),
		);
		expect(errorText(result, 'Get')).toBe('');
		expect(errorText(result, 'Bills')).toBe('');
		const requests = ofOrg();
		expect(requests.filter((r) => /\/bills$/.test(r.path)).length).toBeGreaterThan(0);
		expect(statuses(requests).filter((s) => s === 429)).toEqual([]);
		expect(mostInAnyWindow(requests, MINUTE)).toBeLessThanOrEqual(100);
	}, 120_000);

	test('a 429 without Retry-After (another integration used the minute): the create is held a whole minute and sent again once; one item created, no error', async () => {
		await anotherClientUsesTheMinute();
		const before = env.em.store.org('us', org)!.all('items').length;
		const result = await env.run([
			items()('Create', { organizationId: org, operation: 'create', name: 'Held write' }),
		]);
		expect(errorText(result, 'Create')).toBe('');
		expect(json(result, 'Create')).toHaveLength(1);
		// resent too early, it would have met a 429 again
		expect(statuses(ofOrg().filter((r) => r.method === 'POST'))).toEqual([429, 201]);
		expect(env.em.store.org('us', org)!.all('items').length).toBe(before + 1);
	});

	test('a 429 with Retry-After: the read is held as long as it says and sent again once', async () => {
		ACCOUNTING.retryAfter = true;
		await anotherClientUsesTheMinute();
		const result = await env.run([get()]);
		expect(errorText(result, 'Get')).toBe('');
		expect(statuses(ofOrg())).toEqual([429, 200]);
	});

	test('every answer 429: the create gives up after 5 minutes of holds (at most a minute each), creates nothing, and the error says when requests resume, not "Outcome unknown"', async () => {
		env.em.faults.next(50, { kind: 'status', status: 429 }, 'books.item.create');
		const before = env.em.store.org('us', org)!.all('items').length;
		const result = await env.run([
			items()('Create', { organizationId: org, operation: 'create', name: 'Never through' }),
		]);
		const posts = ofOrg().filter((r) => r.method === 'POST');
		expect(posts.every((r) => r.status === 429)).toBe(true);
		// at least 5 holds of at most a minute each; not a stream of resends (ASSUMPTIONS: each hold a whole minute,
		// 6 requests; BEHAVIOUR allows shorter holds: 8 were seen once)
		expect(posts.length).toBeGreaterThanOrEqual(5);
		expect(posts.length).toBeLessThanOrEqual(10);
		expect(env.em.store.org('us', org)!.all('items').length).toBe(before);
		const text = errorText(result, 'Create');
		expect(text).not.toBe('');
		expect(text).not.toMatch(/outcome unknown/i);
		expect(resumesAt(text)).toBeGreaterThan(posts[posts.length - 1].time);
	});
});
