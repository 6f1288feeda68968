/**
 * A run given a time no wait may pass (nodes/shared/api/run.ts `run.setPatience('wait',
 * until)`: a trigger's scheduled poll and its deadline), on a fake clock: a wait that ends before
 * it is waited and the request sent again (and the resend counted apart, `calls.resent`: a poll's
 * cost leaves it out); a wait that would end past it (a 429's Retry-After, a 5xx's backoff, a key
 * held by an earlier 429) is not waited: a transient failure at once; an answer that never comes
 * is given no longer than what is left.
 */
import { SERVER_CLOCKS } from '../../nodes/shared/api/clock';
import { isTransientFailure } from '../../nodes/shared/api/failureKinds';
import { vendorRequest } from '../../nodes/shared/api/transport';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { useFakeClock } from '../tools/fake-timers';
import { answering, BASE, GET, json, onFakeClock, testContext } from './support';

const OK = json(200, { code: 0, items: [] });

beforeEach(() => {
	useFakeClock();
	SERVER_CLOCKS.forget();
});
afterEach(async () => {
	await jest.runOnlyPendingTimersAsync();
	jest.useRealTimers();
});

test('a 429 whose Retry-After ends before the time is waited and sent again; the resend is counted apart', async () => {
	const stub = answering([json(429, { code: 429 }, { 'retry-after': '10' }), OK]);
	const { run } = testContext(BASE, {
		httpRequest: stub.httpRequest,
		credentialId: 'deadline-short',
	});
	run.setPatience('wait', Date.now() + 30_000);
	const { error, elapsed } = await onFakeClock(vendorRequest(run, booksArea, GET));
	expect(error).toBeUndefined();
	expect(stub.calls).toHaveLength(2);
	expect(elapsed).toBeGreaterThanOrEqual(10_000);
	expect([run.calls.sent, run.calls.resent]).toEqual([2, 1]);
});

test.each([
	{
		name: 'a 429 whose Retry-After (60 s) ends past the time',
		answers: [json(429, { code: 429 }, { 'retry-after': '60' }), OK],
		calls: 1,
	},
	{
		name: 'a 429 without Retry-After (the accounting areas: the minute)',
		answers: [json(429, { code: 429 }), OK],
		calls: 1,
	},
	{
		name: '503, retried while the backoff fits, not past the time',
		answers: [json(503, { code: 503 })],
		calls: 4,
		until: 5_000,
	},
])(
	'$name: a transient failure at once, not waited past the time',
	async ({ answers, calls, until = 30_000 }) => {
		const stub = answering(answers);
		const { run } = testContext(BASE, {
			httpRequest: stub.httpRequest,
			credentialId: `deadline-${calls}-${until}-${answers.length}`,
		});
		const end = Date.now() + until;
		run.setPatience('wait', end);
		const { error } = await onFakeClock(vendorRequest(run, booksArea, GET));
		expect(isTransientFailure(error)).toBe(true);
		expect(Date.now()).toBeLessThanOrEqual(end);
		expect(stub.calls.length).toBeLessThanOrEqual(calls);
	},
);

test('a key held past the time by an earlier 429: no call, a transient failure at once; a context without a time waits it out', async () => {
	const first = answering([json(429, { code: 429 }, { 'retry-after': '50' })]);
	const a = testContext(BASE, { httpRequest: first.httpRequest, credentialId: 'deadline-held' });
	a.run.setPatience('wait', Date.now() + 30_000);
	expect(isTransientFailure((await onFakeClock(vendorRequest(a.run, booksArea, GET))).error)).toBe(
		true,
	);
	const second = answering([OK]);
	const b = testContext(BASE, { httpRequest: second.httpRequest, credentialId: 'deadline-held' });
	b.run.setPatience('wait', Date.now() + 30_000);
	const held = await onFakeClock(vendorRequest(b.run, booksArea, GET));
	expect(isTransientFailure(held.error)).toBe(true);
	expect(held.elapsed).toBe(0);
	expect(second.calls).toHaveLength(0);
	const c = testContext(BASE, { httpRequest: second.httpRequest, credentialId: 'deadline-held' });
	expect((await onFakeClock(vendorRequest(c.run, booksArea, GET))).error).toBeUndefined();
	expect(second.calls).toHaveLength(1);
});

test('an answer that never comes is given no longer than what is left before the time', async () => {
	const stub = answering(['hang']);
	const { run } = testContext(BASE, {
		httpRequest: stub.httpRequest,
		credentialId: 'deadline-hang',
	});
	const end = Date.now() + 12_000;
	run.setPatience('wait', end);
	const { error } = await onFakeClock(vendorRequest(run, booksArea, GET));
	expect(isTransientFailure(error)).toBe(true);
	expect(stub.calls).toHaveLength(1);
	expect(Date.now()).toBeLessThanOrEqual(end + 1_000);
});
