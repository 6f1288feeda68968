/**
 * A run that may not wait (nodes/shared/api/run.ts, failFast patience: the poll at a trigger's
 * activation) never waits on the service, on a fake clock: every kind of answer ends the request
 * within 30 s of simulated time with a transient failure (a 429's hold or block, 5xx, no answer,
 * an answer that never ends, a proxy's page, a token endpoint that does not answer, a key held by
 * an earlier 429). The hold a 429 taught is kept: a later request of a waiting context waits it
 * out. Also: every answer's `Date` sets the service's clock (clock.ts), and the run's `calls.sent` counts
 * every call the service saw (a 401 and its resend are two).
 */
import type { IDataObject } from 'n8n-workflow';

import { SERVER_CLOCKS } from '../../nodes/shared/api/clock';
import {
	isOutcomeUnknown,
	isTransientFailure,
	RateLimitBlockedError,
} from '../../nodes/shared/api/failureKinds';
import type { ApiRequest } from '../../nodes/shared/api/request';
import { vendorRequest } from '../../nodes/shared/api/transport';
import type { Area } from '../../nodes/shared/tables/spec';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { useFakeClock } from '../tools/fake-timers';
import { answering, type Answer, BASE, GET, json, onFakeClock, testContext } from './support';

const POST: ApiRequest = { ...GET, method: 'POST', body: { name: 'Widget' } };

beforeEach(() => {
	useFakeClock();
	SERVER_CLOCKS.forget();
});
afterEach(async () => {
	await jest.runOnlyPendingTimersAsync();
	jest.useRealTimers();
});

interface Kind {
	name: string;
	answers: Answer[];
	area?: Area;
	req?: ApiRequest;
	refresh?: () => Promise<IDataObject>;
	/** The error's message. */
	says?: RegExp;
}

const hanging = () => new Promise<IDataObject>(() => undefined);

const kinds: Kind[] = [
	{
		name: '429 with Retry-After 20 (accounting)',
		answers: [json(429, { code: 429 }, { 'retry-after': '20' })],
		says: /resume at \d{4}-/,
	},
	{
		name: '429 with Retry-After as an HTTP date 10 minutes on',
		answers: [
			json(
				429,
				{ code: 429 },
				{
					'retry-after': new Date(Date.UTC(2030, 0, 1, 0, 10)).toUTCString(),
					date: new Date(Date.UTC(2030, 0, 1)).toUTCString(),
				},
			),
		],
		says: /until \d{4}-/,
	},
	{
		name: '429 without Retry-After (Projects: the 30-minute block)',
		answers: [json(429, { errorCode: 'X' })],
		area: projectsArea,
		says: /blocks further requests until/,
	},
	{ name: '503 on a read', answers: [json(503, { code: 503, message: 'down' })] },
	{ name: '500 on a write', answers: [json(500, { code: 500 })], req: POST },
	{ name: 'no answer (connection refused)', answers: ['refused'], says: /not retried/ },
	{
		name: 'an answer that never comes (the deadline: at most 10 s)',
		answers: ['hang'],
		says: /did not answer in time/,
	},
	{
		name: "a proxy's HTML page on a read",
		answers: [
			{ statusCode: 200, headers: { 'content-type': 'text/html' }, body: '<html>wait</html>' },
		],
		says: /HTML page/,
	},
	{
		name: '401 and a token endpoint that never answers (at most 10 s)',
		answers: [json(401, { code: 57 })],
		refresh: hanging,
		says: /did not answer a refresh within 10 s/,
	},
	{
		name: '401, refreshed, then 503',
		answers: [json(401, { code: 57 }), json(503, { code: 503 })],
	},
];

test.each(kinds)(
	'failFast, $name: a transient failure within 30 s of simulated time',
	async ({ answers, area = booksArea, req = GET, refresh, says }) => {
		const stub = answering(answers);
		const { run } = testContext(BASE, { httpRequest: stub.httpRequest, refresh });
		run.setPatience('failFast');
		const { error, elapsed } = await onFakeClock(vendorRequest(run, area, req));
		expect(error).toBeDefined();
		expect(isTransientFailure(error)).toBe(true);
		expect(elapsed).toBeLessThanOrEqual(30_000);
		if (says) expect(error!.message).toMatch(says);
		// nothing is retried: one call, or a 401 and its resend
		expect(stub.calls.length).toBeLessThanOrEqual(
			answers[0] !== 'refused' && answers[0] !== 'hang' && answers[0].statusCode === 401 ? 2 : 1,
		);
		if (req === POST) expect(isOutcomeUnknown(error)).toBe(true);
	},
);

test('without failFast the same 503 is retried three times (1 s, 2 s, 4 s) before it ends', async () => {
	const stub = answering([json(503, { code: 503 })]);
	const { run } = testContext(BASE, { httpRequest: stub.httpRequest });
	const { error, elapsed } = await onFakeClock(vendorRequest(run, booksArea, GET));
	expect(isTransientFailure(error)).toBe(true);
	expect(stub.calls).toHaveLength(4);
	expect(elapsed).toBeGreaterThanOrEqual(7000);
});

test('failFast, a key held by an earlier 429: fails at once without a call, saying until when; a waiting context waits the hold out', async () => {
	const first = answering([json(429, { code: 429 }, { 'retry-after': '20' })]);
	const a = testContext(BASE, { httpRequest: first.httpRequest, credentialId: 'wire-held' });
	a.run.setPatience('failFast');
	const at = Date.now();
	expect((await onFakeClock(vendorRequest(a.run, booksArea, GET))).error).toBeDefined();

	const second = answering([json(200, { code: 0, items: [] })]);
	const b = testContext(BASE, { httpRequest: second.httpRequest, credentialId: 'wire-held' });
	b.run.setPatience('failFast');
	const held = await onFakeClock(vendorRequest(b.run, booksArea, GET));
	expect(held.elapsed).toBe(0);
	expect(isTransientFailure(held.error)).toBe(true);
	expect(held.error!.message).toMatch(/holds further requests until \d{4}-\d{2}-\d{2}T/);
	expect(second.calls).toHaveLength(0);
	expect(b.run.calls.sent).toBe(0);

	const c = testContext(BASE, { httpRequest: second.httpRequest, credentialId: 'wire-held' });
	const waited = await onFakeClock(vendorRequest(c.run, booksArea, GET));
	expect(waited.error).toBeUndefined();
	expect(second.calls).toHaveLength(1);
	expect(second.calls[0].at - at).toBeGreaterThanOrEqual(20_000);
});

test('failFast, a Projects key blocked by an earlier 429: the block error at once, without a call', async () => {
	const first = answering([json(429, { errorCode: 'X' })]);
	const a = testContext(BASE, { httpRequest: first.httpRequest, credentialId: 'wire-blocked' });
	a.run.setPatience('failFast');
	await onFakeClock(vendorRequest(a.run, projectsArea, GET));
	const second = answering([json(200, {})]);
	const b = testContext(BASE, { httpRequest: second.httpRequest, credentialId: 'wire-blocked' });
	b.run.setPatience('failFast');
	const { error, elapsed } = await onFakeClock(vendorRequest(b.run, projectsArea, GET));
	expect(error).toBeInstanceOf(RateLimitBlockedError);
	expect((error as RateLimitBlockedError).until).toBeGreaterThanOrEqual(Date.now() + 29 * 60_000);
	expect(elapsed).toBe(0);
	expect(second.calls).toHaveLength(0);
});

test("every answer's Date sets the service's clock of the area's root (5 minutes ahead here)", async () => {
	const ahead = () => new Date(Date.now() + 300_000).toUTCString();
	const stub = answering([
		{ statusCode: 200, headers: { date: ahead() }, body: '{"code":0,"items":[]}' },
	]);
	const { run } = testContext(BASE, { httpRequest: stub.httpRequest });
	await onFakeClock(vendorRequest(run, booksArea, GET));
	const offset = SERVER_CLOCKS.offset(BASE);
	expect(offset).toBeDefined();
	expect(Math.abs(offset! - 300_000)).toBeLessThanOrEqual(1000);
});

test('calls.sent counts every call the service saw: a 401 and its resend are two', async () => {
	const stub = answering([json(401, { code: 57 }), json(200, { code: 0, items: [] })]);
	const t = testContext(BASE, { httpRequest: stub.httpRequest });
	const { error } = await onFakeClock(vendorRequest(t.run, booksArea, GET));
	expect(error).toBeUndefined();
	expect(t.refreshes()).toBe(1);
	expect(t.run.calls.sent).toBe(2);
	expect(stub.calls[1].options.headers?.Authorization).toMatch(/^Vendor-oauthtoken 1000\.a/);
	expect(stub.calls.every((c) => c.options.disableFollowRedirect === true)).toBe(true);
});
