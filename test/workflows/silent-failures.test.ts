/**
 * Nothing passes silently: answers that are not what an operation expects, lists that never
 * end, bodies that drip, and runs that end half done, through n8n's engine against the
 * emulator's faults.
 */
import type { IDataObject } from 'n8n-workflow';

import { RunState } from '../../nodes/shared/api/run';
import * as wait from '../../nodes/shared/api/wait';
import { DEMO } from '../../emulator/demo-data';
import { useFakeClock } from '../tools/fake-timers';
import { useVirtualClock } from '../tools/virtual-clock';
import type { Fault } from '../../emulator/faults';
import { byId, expectNoError } from '../../harness/workflows';
import { useWorkflowEnv } from './support';
import { setImmediate } from '../../host/globals';

const env = useWorkflowEnv({ demo: true });
const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
const items = env.orgSteps('vendorBooks', { resource: 'item' });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const custom = env.orgSteps('vendorBooks', {
	resource: 'customApiCall',
	operation: 'customApiCall',
});
const onError = { onError: 'continueRegularOutput' } as const;

const BAD_ANSWERS: Array<[string, Fault, RegExp]> = [
	[
		"a proxy's HTML page as text/html",
		{ kind: 'html', status: 200 },
		/an HTML page, not the API's answer/,
	],
	[
		'an HTML page labelled application/json',
		{ kind: 'html', status: 200, contentType: 'application/json' },
		/an HTML page, not the API's answer/,
	],
	['JSON cut short (Content-Length matching the cut)', { kind: 'truncated' }, /JSON cut short/],
	['a gzip body cut short', { kind: 'truncated', gzip: true }, /JSON cut short|cut short/],
	['an empty body', { kind: 'empty' }, /an empty body/],
];

/** The node's one output item as an error item (continue on fail), or fails the test. */
function errorOf(result: Awaited<ReturnType<typeof env.run>>, node: string): IDataObject {
	const out = result.output(node);
	expect(out).toHaveLength(1);
	expect(out[0].json.error).toEqual(expect.any(String));
	return out[0].json;
}

/** The node's last output item: the error item that ends a list stopped part way (continue on fail). */
function lastOf(result: Awaited<ReturnType<typeof env.run>>, node: string): IDataObject {
	const out = result.output(node);
	expect(out.length).toBeGreaterThan(1);
	return out[out.length - 1].json;
}

describe('a run that ends on a failing item says what became of every item', () => {
	test('10 payment creates in parallel, one answered 500, no Continue On Fail: the error lists the 9 done with their payment ids', async () => {
		const invoices: string[] = [];
		for (let i = 0; i < 10; i++) invoices.push((await env.newInvoice(DEMO.customers.acme, 40)).id);
		env.em.clearRequests();
		let creates = 0;
		env.em.faults.next(
			1,
			{ kind: 'status', status: 500 },
			(r) => r.method === 'POST' && r.area === 'invoice' && ++creates === 4,
		);
		const result = await env.run(
			[
				payments('Pay', {
					operation: 'create',
					customer_id: DEMO.customers.acme,
					amount: 40,
					invoices: { values: [{ invoice_id: '={{ $json.invoice }}', amount_applied: 40 }] },
				}),
			],
			invoices.map((invoice) => ({ invoice })),
		);
		const error = result.error('Pay') as (Error & { description?: string }) | undefined;
		expect(error?.message).toMatch(/^Outcome unknown: the write may have been processed/);
		const failed = Number(
			/\[item (\d+); 9 of 10 items done, 0 not sent\]$/.exec(String(error?.message))?.[1],
		);
		expect(failed).toBeGreaterThanOrEqual(0);
		// every other item was sent once and created a payment: the error names each with its id
		const created = env.apiRequests().filter((r) => r.method === 'POST' && r.status === 201);
		expect(created).toHaveLength(9);
		const description = String(error?.description);
		const done = [...Array(10).keys()].filter((i) => i !== failed);
		for (const itemIndex of done) {
			const paymentId = new RegExp(`item ${itemIndex}: payment_id (\\d+)`).exec(description)?.[1];
			expect(paymentId).toBeDefined();
			// the id named is the payment the API created for that item
			const res = await env.call('GET', 'invoice', `/customerpayments/${String(paymentId)}`);
			expect(((res.body.payment as IDataObject).invoices as IDataObject[])[0].invoice_id).toBe(
				invoices[itemIndex],
			);
		}
		expect(description).toContain(`Not done or outcome unknown: item ${failed}.`);
		expect(description).toContain('Not sent: none.');
		expect(description).toMatch(/Running the workflow again repeats the done items/);
	});
});

describe("a 2xx answer that is not the API's is never taken as success", () => {
	// the retries wait their backoff on the test's clock
	useVirtualClock();

	test.each(BAD_ANSWERS)(
		'Invoice Create answered with %s: "Outcome unknown", sent once, what came back named',
		async (_label, fault, kind) => {
			env.em.clearRequests();
			env.em.faults.next(1, fault, 'books.invoice.create');
			const result = await env.run([
				invoices(
					'Create',
					{
						operation: 'create',
						customer_id: DEMO.customers.acme,
						line_items: { values: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 10 }] },
					},
					onError,
				),
			]);
			const error = errorOf(result, 'Create');
			expect(error.error).toMatch(/^Outcome unknown: the write may have been processed/);
			expect(String(error.error)).toMatch(kind);
			expect(String(error.description)).toMatch(/What came back: .*content type/);
			expect(env.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
		},
	);

	test.each(BAD_ANSWERS)(
		'Item Get answered once with %s: the read is retried and succeeds',
		async (_label, fault) => {
			env.em.clearRequests();
			env.em.faults.next(1, fault, 'books.item.get');
			const result = await env.run([
				items('Get', { operation: 'get', item_id: byId(DEMO.items.hosting) }),
			]);
			expectNoError(result);
			expect(result.output('Get')[0].json.item_id).toBe(DEMO.items.hosting);
			expect(env.apiRequests().map((r) => r.status)).toEqual([200, 200]);
		},
	);

	test('Item Get Many answered with an HTML page every time: an error after the retries, never an item holding the page', async () => {
		env.em.clearRequests();
		env.em.faults.next(4, { kind: 'html', status: 200 }, 'books.item.getAll');
		const result = await env.run([
			items('List', { operation: 'getAll', returnAll: true }, onError),
		]);
		const error = errorOf(result, 'List');
		expect(error.error).toBe(
			"The Vendor API answered HTTP 200 with an HTML page, not the API's answer; the read was retried without success [item 0]",
		);
		expect(String(error.description)).toMatch(
			/content type text\/html, \d+ bytes: <!DOCTYPE html>/,
		);
		expect(env.apiRequests()).toHaveLength(4);
	});

	test('Custom API Call: a body labelled JSON that does not parse is an error; a real file is still binary data', async () => {
		env.em.faults.next(1, { kind: 'truncated' }, (r) => r.method === 'POST');
		const cut = await env.run([
			custom(
				'Call',
				{
					customMethod: 'POST',
					customPath: '/items',
					customBodyType: 'json',
					customBody: '{ "name": "Cut widget", "rate": 3 }',
				},
				onError,
			),
		]);
		expect(errorOf(cut, 'Call').error).toMatch(/^Outcome unknown: .*JSON cut short/);
		env.em.faults.next(1, { kind: 'html', status: 200 }, (r) => r.method === 'POST');
		const html = await env.run([
			custom(
				'Call',
				{
					customMethod: 'POST',
					customPath: '/items',
					customBodyType: 'json',
					customBody: '{ "name": "Proxied widget", "rate": 3 }',
				},
				onError,
			),
		]);
		expect(errorOf(html, 'Call').error).toMatch(/^Outcome unknown: .*an HTML page/);
		const pdf = await env.run([
			custom('PDF', {
				customMethod: 'GET',
				customPath: '/estimates/pdf',
				customQuery: { parameters: [{ name: 'estimate_ids', value: DEMO.estimates.sent }] },
			}),
		]);
		expectNoError(pdf);
		expect(pdf.output('PDF')[0].binary?.data?.mimeType).toBe('application/pdf');
	});
});

describe('Return All always ends', () => {
	/** Return All's page limit made `limit` for the test (restored after it). */
	const setPageLimit = (limit: number) =>
		jest.spyOn(RunState.prototype, 'pageLimit', 'get').mockReturnValue(limit);
	afterEach(() => {
		jest.restoreAllMocks();
		env.em.faults.clear();
	});

	test('a server that always says there are more pages with new records: Item Get Many ends at the page limit with an error saying how far it got', async () => {
		setPageLimit(25);
		env.em.clearRequests();
		env.em.faults.next(1_000_000, { kind: 'endlessPages' }, 'books.item.getAll');
		const result = await env.run([
			items('List', { operation: 'getAll', returnAll: true }, onError),
		]);
		// the records read are output, then an error item saying where the list stopped
		const out = result.output('List');
		expect(out).toHaveLength(5001);
		const error = out[5000].json;
		expect(error.error).toBe(
			'Return All stopped after 25 pages (5000 records): the Vendor API still said there were more [item 0]',
		);
		expect(error.recordsRead).toBe(5000);
		expect(
			out
				.slice(0, 5000)
				.every((o) => typeof o.json.item_id === 'string' && o.json.error === undefined),
		).toBe(true);
		expect(env.apiRequests()).toHaveLength(25);
	});

	test('the same for Payment Get Many and a Custom API Call with Return All', async () => {
		setPageLimit(10);
		env.em.faults.next(1_000_000, { kind: 'endlessPages' }, 'invoice.payment.getAll');
		const pay = await env.run([
			payments('List', { operation: 'getAll', returnAll: true }, onError),
		]);
		expect(lastOf(pay, 'List').error).toMatch(/^Return All stopped after 10 pages \(\d+ records\)/);
		env.em.faults.clear();
		env.em.faults.next(1_000_000, { kind: 'endlessPages' }, 'books.item.getAll');
		const call = await env.run([
			custom('Call', { customMethod: 'GET', customPath: '/items', customReturnAll: true }, onError),
		]);
		expect(lastOf(call, 'Call').error).toMatch(/^Return All stopped after 10 pages/);
	});
});

describe('the Timeout covers the whole request', () => {
	const drip: Fault = { kind: 'drip', bytes: 1, everyMs: 200 };

	test('Invoice Create whose answer drips in: ends at the Timeout with "Outcome unknown", sent once', async () => {
		env.em.clearRequests();
		env.em.faults.next(1, drip, 'books.invoice.create');
		const result = await env.run([
			invoices(
				'Create',
				{
					operation: 'create',
					customer_id: DEMO.customers.acme,
					line_items: { values: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 10 }] },
					options: { timeout: 1 },
				},
				onError,
			),
		]);
		expect(errorOf(result, 'Create').error).toBe(
			'Outcome unknown: the write may have been processed. Check the record before running again: the Vendor API did not answer in time after the request was sent [item 0]',
		);
		expect(env.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('Item Get whose answer drips in once: timed out, retried, succeeds', async () => {
		// on the test's clock: the Timeout and the wait before the retry end when the test moves the time, so the
		// retry's answer, however slowly a busy machine handles it, is never cut short by a second of real time
		const waits = jest.spyOn(wait, 'pause');
		useFakeClock();
		try {
			env.em.clearRequests();
			env.em.faults.next(1, drip, 'books.item.get');
			const run = env.run([
				items('Get', {
					operation: 'get',
					item_id: byId(DEMO.items.hosting),
					options: { timeout: 1 },
				}),
			]);
			// the answer drips: the time moves a timer at a time (a byte, a Timeout check) until the Timeout has cut
			// it short and the node waits its 1 s before the retry
			while (!waits.mock.calls.some(([ms]) => ms === 1000)) {
				await new Promise((resolve) => setImmediate(resolve));
				await jest.advanceTimersToNextTimerAsync();
			}
			await jest.advanceTimersByTimeAsync(1000);
			const result = await run; // the clock stands still from here: the retry has all the time it needs
			expectNoError(result);
			expect(env.apiRequests()).toHaveLength(2);
		} finally {
			await jest.runOnlyPendingTimersAsync();
			jest.useRealTimers();
			waits.mockRestore();
		}
	});

	test('Custom API Call whose answer drips in: ends at the Timeout', async () => {
		env.em.faults.next(1, drip, (r) => r.method === 'POST');
		const result = await env.run([
			custom(
				'Call',
				{
					customMethod: 'POST',
					customPath: '/items',
					customBodyType: 'json',
					customBody: '{ "name": "Drip widget", "rate": 3 }',
					options: { timeout: 1 },
				},
				onError,
			),
		]);
		expect(errorOf(result, 'Call').error).toMatch(/^Outcome unknown: .*did not answer in time/);
	});
});
