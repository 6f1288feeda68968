/**
 * Pacing of the project-management area, with the documented rule scaled down (100
 * requests per 2 minutes, 30 minutes blocked -> 10 per second, 1.5 s blocked; the logic is
 * the same): runs of 3x the limit through the node (many input items, Return All over many
 * pages, a batch trash) finish with zero 429s in close to the minimum time the rule
 * allows, and a 429 makes the node wait instead of retrying at once.
 */
import { DOCUMENTED_RULE, marginMs, Pacer, setPacingRule } from '../nodes/shared/pacing';
import type { RecordedRequest } from './emulator/server';
import { apiClient } from './emulator/server';
import { expectNoError, json, steps, WorkflowEnv } from './workflows/support';

const RULE = { limit: 10, windowMs: 1000, blockMs: 1500 };
const env = new WorkflowEnv();
let portal: string;
let projects: ReturnType<typeof steps>;
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

beforeAll(async () => {
	await env.start({ demo: true, rateLimit: RULE });
	portal = env.em.portalId;
	projects = steps('vendorProjects', { portal_id: byId(portal) });
});
afterAll(async () => {
	setPacingRule(DOCUMENTED_RULE);
	await env.stop();
});
beforeEach(() => {
	setPacingRule(RULE); // fresh pacers
	env.em.resetRateLimits();
	env.em.clearRequests();
});

/** The least time N requests can span under the rule: request k*limit+1 comes a window after request (k-1)*limit+1. */
function minimumSpan(n: number): number {
	return Math.floor((n - 1) / RULE.limit) * RULE.windowMs;
}

function expectPaced(requests: RecordedRequest[], n: number): void {
	expect(requests).toHaveLength(n);
	expect(requests.filter((r) => r.status === 429)).toEqual([]);
	expect(requests.every((r) => r.status === 200)).toBe(true);
	const times = requests.map((r) => r.time);
	// never more than `limit` within any window, as the server counts (arrival times)
	for (let i = RULE.limit; i < n; i++) expect(times[i] - times[i - RULE.limit]).toBeGreaterThanOrEqual(RULE.windowMs);
	const span = times[n - 1] - times[0];
	const minimum = minimumSpan(n);
	expect(span).toBeGreaterThanOrEqual(minimum);
	// close to the minimum: the margin per window plus generous room for a loaded machine
	expect(span).toBeLessThan(minimum + 2 * marginMs(RULE) + 1500);
}

test('30 input items (3x the limit) run with zero 429s in close to the minimum time', async () => {
	const items = Array.from({ length: 30 }, (_, i) => ({ n: i }));
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get' })], items);
	expectNoError(result);
	expect(json(result, 'Portal')).toHaveLength(30);
	expectPaced(env.apiRequests(), 30);
});

test('30 items with 50 requests in flight and server latency: still zero 429s and never more than the limit per window', async () => {
	env.em.setLatency(100);
	try {
		const items = Array.from({ length: 30 }, (_, i) => ({ n: i }));
		const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get', options: { requestsInFlight: 50 } })], items);
		expectNoError(result);
		expect(json(result, 'Portal')).toHaveLength(30);
		expect(result.output('Portal').map((o) => (o.pairedItem as { item: number }).item)).toEqual(items.map((i) => i.n));
		expectPaced(env.apiRequests(), 30);
		// the first window's requests really went out together
		expect(env.em.inFlight.max).toBeGreaterThan(1);
	} finally {
		env.em.setLatency(0);
	}
});

test('Return All over 30 pages runs with zero 429s in close to the minimum time', async () => {
	const t = env.em.store.portal('us', portal)!;
	for (let i = t.all('projects').length; i < 30 * 200 - 10; i++) {
		const id = String(5400000000000 + i);
		t.put('projects', id, { id, name: `Paced ${i}` });
	}
	const result = await env.run([projects('List', { resource: 'project', operation: 'getAll', returnAll: true })]);
	expectNoError(result);
	expect(json(result, 'List')).toHaveLength(30 * 200 - 10);
	expectPaced(env.apiRequests(), 30);
	expect(env.apiRequests().map((r) => r.query.page)).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
});

test('a batch trash of 3000 ids (30 calls) runs with zero 429s in close to the minimum time', async () => {
	const t = env.em.store.portal('us', portal)!;
	const ids = Array.from({ length: 3000 }, (_, i) => String(5500000000000 + i));
	for (const id of ids) t.put('issues', id, { id, name: `Issue ${id}` });
	const result = await env.run([projects('Trash', { resource: 'trash', operation: 'moveToTrash', module: 'issues', items: ids.join(',') })]);
	expectNoError(result);
	expect(json(result, 'Trash')).toHaveLength(30);
	expectPaced(env.apiRequests(), 30);
});

test('by default a block ends the run with an error that says when it lifts, after one refused request', async () => {
	const call = apiClient(env.em, { token: String(env.storedToken.access_token) });
	for (let i = 0; i <= RULE.limit; i++) await call('GET', 'projects', '/portals');
	env.em.clearRequests();
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get' }, { onError: 'continueRegularOutput' })]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(1);
	expect(String(out[0].error)).toMatch(/blocks further requests until \d{4}-\d{2}-\d{2}T/);
	expect(out[0].notSent).toBe(true);
});

test('by default, while the area is blocked, later items fail at once without sending anything', async () => {
	env.em.faults.next(1, { kind: 'status', status: 429 });
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get', options: { requestsInFlight: 1 } }, { onError: 'continueRegularOutput' })], [{ i: 0 }, { i: 1 }, { i: 2 }]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(3);
	for (const o of out) expect(String(o.error)).toMatch(/blocks further requests until/);
});

test('with On Rate-Limit Block = wait, the node waits out the block on its 429 and then succeeds', async () => {
	const call = apiClient(env.em, { token: String(env.storedToken.access_token) });
	for (let i = 0; i <= RULE.limit; i++) await call('GET', 'projects', '/portals');
	env.em.clearRequests();
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get', options: { onRateLimitBlock: 'wait' } })]);
	expectNoError(result);
	const requests = env.apiRequests();
	expect(requests.map((r) => r.status)).toEqual([429, 200]); // one refusal, no hammering
	// no Retry-After: the documented block (scaled) is waited out before the one retry
	expect(requests[1].time - requests[0].time).toBeGreaterThanOrEqual(RULE.blockMs - 50);
});

test('a 429 with Retry-After is waited out (not retried at once)', async () => {
	env.em.faults.next(1, { kind: 'status', status: 429, retryAfter: 1 });
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get' })]);
	expectNoError(result);
	const requests = env.apiRequests();
	expect(requests.map((r) => r.status)).toEqual([429, 200]);
	expect(requests[1].time - requests[0].time).toBeGreaterThanOrEqual(950);
});

test('a second 429 after waiting out the block is an error (continue-on-fail: an error item), not an endless wait', async () => {
	env.em.faults.next(2, { kind: 'status', status: 429 });
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get', options: { onRateLimitBlock: 'wait' } }, { onError: 'continueRegularOutput' })]);
	const requests = env.apiRequests();
	expect(requests.map((r) => r.status)).toEqual([429, 429]);
	expect(requests[1].time - requests[0].time).toBeGreaterThanOrEqual(RULE.blockMs - 50);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(1);
	expect(JSON.stringify(out[0])).toMatch(/too many requests/i);
	expect(JSON.stringify(out[0])).not.toContain(String(env.storedToken.access_token));
});

test('queue mode: with the credential share at 50 of 100, this instance sends at most half the limit per window', async () => {
	const data = env.credentials[0].data;
	data.projectsRequestsPerWindow = 50;
	try {
		const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get' })], Array.from({ length: 10 }, (_, i) => ({ i })));
		expectNoError(result);
		const times = env.apiRequests().map((r) => r.time);
		expect(times).toHaveLength(10);
		const half = RULE.limit / 2;
		for (let i = half; i < times.length; i++) expect(times[i] - times[i - half]).toBeGreaterThanOrEqual(RULE.windowMs);
	} finally {
		delete data.projectsRequestsPerWindow;
	}
});

test('a request counts from when its answer came back: a late first answer holds the next window until it is a window old', async () => {
	setPacingRule(RULE);
	let now = 0;
	const pacer = new Pacer(() => now);
	const done: Array<() => void> = [];
	for (let i = 0; i < RULE.limit; i++) done.push(await pacer.take());
	// nine answers come back at once, the first one (slow on the network) only at 400 ms
	for (const d of done.slice(1)) d();
	let eleventh = false;
	const next = pacer.take().then((d) => {
		eleventh = true;
		return d;
	});
	await new Promise((r) => setTimeout(r, 20));
	expect(eleventh).toBe(false); // all ten counted: one is still in flight
	now = 400;
	done[0]();
	// now the nine earliest answers (at 0) leave the window first: at windowMs + margin
	now = RULE.windowMs + marginMs(RULE) + 1;
	(await next)();
	expect(eleventh).toBe(true);
	// the twelfth waits for the late answer: 400 + window + margin
	let twelfth = false;
	for (let i = 0; i < 8; i++) (await pacer.take())();
	const last = pacer.take().then(() => (twelfth = true));
	await new Promise((r) => setTimeout(r, 20));
	expect(twelfth).toBe(false);
	now = 400 + RULE.windowMs + marginMs(RULE) + 1;
	await last;
	expect(twelfth).toBe(true);
});
