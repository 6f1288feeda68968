/**
 * Items in parallel (Options → Requests in Flight), end to end on n8n's engine against the
 * emulator with latency: the emulator's count of requests at once shows the bound; the
 * outputs keep input order and pairing even when answers arrive out of order; failures,
 * continue-on-fail, split operations and stopping behave per item. No timings are asserted.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { DEFAULT_REQUESTS_IN_FLIGHT } from '../../nodes/shared/api/options';
import { until, useFakeTimersOnly } from '../tools/fake-timers';
import { byId, expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const LATENCY_MS = 60;
const env = useWorkflowEnv({ demo: true, latencyMs: LATENCY_MS });
const items = env.orgSteps('vendorBooks', { resource: 'item' });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
/** Item -> Get of the input item's `id`. */
const get = (options: IDataObject = {}, settings = {}) =>
	items('Get', { operation: 'get', item_id: byId('={{ $json.id }}'), options }, settings);
const ids: string[] = [];
/** A well-formed item id the emulator does not know: answered 404. */
const UNKNOWN = '1999999999999';

beforeAll(async () => {
	env.em.setLatency(0);
	for (let i = 0; i < 40; i++) {
		const res = await env.call('POST', 'books', '/items', {
			json: { name: `Parallel ${String(i).padStart(2, '0')}`, rate: i },
		});
		ids.push(String(res.body.item.item_id));
	}
	env.em.setLatency(LATENCY_MS);
});
afterEach(() => env.em.faults.clear());

const pairing = (out: INodeExecutionData[]) =>
	out.map((o) => (o.pairedItem as { item: number }).item);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
/** The emulator saw requests in parallel, never more than `bound` at once (reaching the bound depends on the machine's speed, so it is not asserted). */
const expectInFlight = (bound: number) => {
	expect(env.em.inFlight.max).toBeLessThanOrEqual(bound);
	expect(env.em.inFlight.max).toBeGreaterThan(1);
};
/** The item ids of the requests the emulator received, in arrival order. */
const sentIds = () => env.apiRequests().map((r) => String(r.path.split('/').pop()));
const hangFor = (id: string, ms: number) =>
	env.em.faults.next(1, { kind: 'hang', ms }, (t) => t.path.endsWith(`/items/${id}`));

test('40 items, 8 in flight: requests in parallel, never more than 8 at once, outputs in input order and paired, though answers arrive out of order', async () => {
	// the first items answer last
	hangFor(ids[0], 400);
	hangFor(ids[1], 250);
	hangFor(ids[9], 150);
	const result = await env.run(
		[get({ requestsInFlight: 8 })],
		ids.map((id) => ({ id })),
	);
	expectNoError(result);
	expectInFlight(8);
	expect(json(result, 'Get').map((o) => o.item_id)).toEqual(ids);
	expect(pairing(result.output('Get'))).toEqual(range(0, 40));
	const requests = env.apiRequests();
	expect(requests).toHaveLength(40);
	expect(requests.every((r) => r.status === 200)).toBe(true);
	// the delayed answers (items 0, 1 and 9 last) really happened
	expect(env.em.faults.pending()).toEqual([]);
});

test('40 items, 8 in flight: no signal gets a listener per request or per wait (the stop and the Timeout listen once per execution)', async () => {
	const added = new Map<AbortSignal, number>();
	const original = AbortSignal.prototype.addEventListener;
	const spy = jest.spyOn(AbortSignal.prototype, 'addEventListener').mockImplementation(function (
		this: AbortSignal,
		...args: Parameters<AbortSignal['addEventListener']>
	) {
		added.set(this, (added.get(this) ?? 0) + 1);
		return original.apply(this, args);
	});
	try {
		const result = await env.run(
			[get({ requestsInFlight: 8 })],
			ids.map((id) => ({ id })),
		);
		expectNoError(result);
		expect(json(result, 'Get').map((o) => o.item_id)).toEqual(ids);
	} finally {
		spy.mockRestore();
	}
	// each request's own signal gets n8n's listener; none collects one per request or wait
	expect(added.size).toBeGreaterThanOrEqual(40);
	expect(Math.max(...added.values())).toBeLessThanOrEqual(4);
});

test(`without the option, at most ${DEFAULT_REQUESTS_IN_FLIGHT} requests are in flight at once; with 1, one at a time in input order`, async () => {
	const input = ids.map((id) => ({ id }));
	const byDefault = await env.run([get()], input);
	expectNoError(byDefault);
	expectInFlight(DEFAULT_REQUESTS_IN_FLIGHT);
	expect(json(byDefault, 'Get').map((o) => o.item_id)).toEqual(ids);

	env.em.clearRequests();
	const one = await env.run([get({ requestsInFlight: 1 })], input.slice(0, 12));
	expectNoError(one);
	expect(env.em.inFlight.max).toBe(1);
	expect(sentIds()).toEqual(ids.slice(0, 12));
	expect(pairing(one.output('Get'))).toEqual(range(0, 12));
});

test('continue-on-fail: each failing item becomes its own error item in its place; the others are output as usual', async () => {
	const input = ids.slice(0, 20).map((id) => ({ id }));
	input[3] = { id: 'not-an-id' }; // refused before sending
	input[11] = { id: UNKNOWN }; // 404 from the API
	hangFor(ids[2], 200);
	const result = await env.run(
		[get({ requestsInFlight: 5 }, { onError: 'continueRegularOutput' })],
		input,
	);
	expectNoError(result);
	const out = json(result, 'Get');
	expect(out).toHaveLength(20);
	expect(pairing(result.output('Get'))).toEqual(range(0, 20));
	expect(String(out[3].error)).toMatch(/^Invalid input: Item ID must be an ID made of digits/);
	expect(String(out[11].error)).toMatch(/./);
	expect(out[11].item_id).toBeUndefined();
	const good = range(0, 20).filter((i) => i !== 3 && i !== 11);
	expect(good.map((i) => out[i].item_id)).toEqual(good.map((i) => ids[i]));
	expect(env.apiRequests()).toHaveLength(19); // all but the refused one
	expect(env.em.inFlight.max).toBeLessThanOrEqual(5);
});

test('a failing item ends the run with its own error; no item starts after it and the running ones settle', async () => {
	const input = ids.map((id) => ({ id }));
	input[3] = { id: 'not-an-id' }; // fails at once, while items 0-2 wait for their answers
	const result = await env.run([get({ requestsInFlight: 2 })], input);
	const error = result.error('Get') as Error & { context?: IDataObject };
	expect(error.message).toMatch(/^Invalid input: Item ID must be an ID made of digits/);
	expect(error.context?.itemIndex).toBe(3);
	// items 0-3 were started (2 requests in flight, item tasks 2x), item 3 sent nothing; nothing after it
	expect(sentIds().sort()).toEqual(ids.slice(0, 3).sort());
	expect(env.apiRequests().every((r) => r.status === 200)).toBe(true);
});

test('of several failing items, the run ends with the first in input order among those that ran', async () => {
	const input = ids.slice(0, 10).map((id) => ({ id }));
	input[1] = { id: UNKNOWN }; // answered 404 after the latency
	input[3] = { id: 'not-an-id' }; // fails first in time
	const result = await env.run([get({ requestsInFlight: 2 })], input);
	const error = result.error('Get') as Error & { context?: IDataObject };
	expect(error.context?.itemIndex).toBe(1);
	expect(error.message).not.toMatch(/Invalid input/);
	// items 0 and 1 were sent; item 2 only if it got a request slot before item 1's refusal came
	// back (after it, as with one request at a time, it sends nothing: the run's halt, api/run.ts); nothing after 3
	const sent = sentIds();
	expect(sent).toEqual(expect.arrayContaining([ids[0], UNKNOWN]));
	expect(sent.filter((id) => ![ids[0], UNKNOWN, ids[2]].includes(id))).toEqual([]);
	expect(error.message).toMatch(
		sent.includes(ids[2])
			? /\[item 1; 2 of 10 items done, 6 not sent\]$/
			: /\[item 1; 1 of 10 items done, 7 not sent\]$/,
	);
});

test('a split operation sends its calls in parallel and outputs them in order: 60 invoice PDFs, 3 calls', async () => {
	env.em.setLatency(0);
	const customer = env.orgTenant().all('customers')[0].customer_id as string;
	const invoiceIds: string[] = [];
	for (let i = 0; i < 60; i++) {
		const res = await env.call('POST', 'books', '/invoices', {
			json: { customer_id: customer, line_items: [{ name: 'Work', rate: 100, quantity: 1 }] },
		});
		invoiceIds.push(String(res.body.invoice.invoice_id));
	}
	env.em.setLatency(LATENCY_MS);
	env.em.clearRequests();
	const result = await env.run([
		invoices('PDF', { operation: 'getPdf', invoice_ids: invoiceIds.join(',') }),
	]);
	expectNoError(result);
	expectInFlight(3);
	const files = result.output('PDF');
	expect(files.map((f) => f.binary?.data.fileName)).toEqual([
		'invoices-1.pdf',
		'invoices-2.pdf',
		'invoices-3.pdf',
	]);
	expect(files.map((f) => f.json.invoice_ids)).toEqual([
		invoiceIds.slice(0, 25),
		invoiceIds.slice(25, 50),
		invoiceIds.slice(50),
	]);
	expect(pairing(files)).toEqual([0, 0, 0]);

	// one request slot shared by 3 items of 3 calls each: the calls queue for it, no deadlock, all in order
	env.em.clearRequests();
	const pdf = invoices('PDF', {
		operation: 'getPdf',
		invoice_ids: invoiceIds.join(','),
		options: { requestsInFlight: 1 },
	});
	const queued = await env.run([pdf], [{ n: 0 }, { n: 1 }, { n: 2 }]);
	expectNoError(queued);
	expect(env.em.inFlight.max).toBe(1);
	expect(env.apiRequests()).toHaveLength(9);
	expect(pairing(queued.output('PDF'))).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
	expect(queued.output('PDF').map((f) => f.binary?.data.fileName)).toEqual(
		Array(3).fill(['invoices-1.pdf', 'invoices-2.pdf', 'invoices-3.pdf']).flat(),
	);
});

test('bulk reminders send their calls of 10 in parallel; one output item per invoice in the order given', async () => {
	env.em.setLatency(0);
	const customer = env.orgTenant().all('customers')[0].customer_id as string;
	const invoiceIds: string[] = [];
	for (let i = 0; i < 45; i++) {
		const res = await env.call('POST', 'books', '/invoices', {
			json: { customer_id: customer, line_items: [{ name: 'Work', rate: 100, quantity: 1 }] },
		});
		const id = String(res.body.invoice.invoice_id);
		env.orgTenant().get('invoices', id)!.status = 'sent';
		invoiceIds.push(id);
	}
	env.em.setLatency(LATENCY_MS);
	env.em.clearRequests();
	const result = await env.run([
		invoices('Remind', { operation: 'bulkReminder', invoice_ids: invoiceIds.join(',') }),
	]);
	expectNoError(result);
	expectInFlight(5);
	expect(env.apiRequests()).toHaveLength(5);
	expect(json(result, 'Remind')).toEqual(
		invoiceIds.map((invoice_id, i) => ({
			invoice_id,
			sent: true,
			code: 0,
			message: `Payment reminders have been sent for ${i < 40 ? 10 : 5} invoice(s).`,
		})),
	);
	expect(pairing(result.output('Remind')).every((i) => i === 0)).toBe(true);
});

test('a stopped execution starts no more items: only the requests already in flight reached the API', async () => {
	// fake timers (only they): the emulator's latency and hangs and the harness's stop are timers, so the stop
	// comes exactly when three requests are held by the server, however slowly the run started
	useFakeTimersOnly();
	try {
		env.em.faults.next(100, { kind: 'hang', ms: 1500 });
		const run = env.run(
			[get({ requestsInFlight: 3 })],
			ids.map((id) => ({ id })),
			{ timeoutMs: 300 },
		);
		// three requests in flight: none can be answered before the test moves the time
		await until(() => env.apiRequests().length >= 3);
		await jest.advanceTimersByTimeAsync(300); // the latency ends and the hangs begin, then the stop
		const result = await run;
		expect(result.run.status).toBe('canceled');
		expect(json(result, 'Get')).toEqual([]);
		expect(result.error('Get')?.message).toBe('The execution was canceled');
		expect((result.error('Get') as Error & { description?: string }).description).toMatch(
			/Not started: items \d+-39\.$/,
		);
		// three in flight when stopped (at most the item tasks, 2x, until every request carries the stop signal)
		expect(env.apiRequests().length).toBeGreaterThanOrEqual(3);
		expect(env.apiRequests().length).toBeLessThanOrEqual(6);
		// none was answered: the stop did not wait for them
		expect(env.apiRequests().every((r) => r.status === 0)).toBe(true);
	} finally {
		jest.useRealTimers();
	}
});
