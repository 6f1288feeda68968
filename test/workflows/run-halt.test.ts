/**
 * Without Continue On Fail an item's failure ends the run: no further item starts, and the
 * items already sending finish (docs/BEHAVIOUR.md). The node prepares twice the Requests in
 * Flight at once, so when an item fails the next one may already wait for the pacer or a
 * request slot: it must send nothing (the run's halt, api/run.ts). Found by the independent options suite: a
 * payment was still created after the run had failed.
 *
 * One case per way an item reaches the API (a single write, a read, a read-first update, the
 * Projects pacer, Custom API Call, a file), each with five items where item 1 is refused by the
 * API and Requests in Flight is 1: item 0 done, item 1 failed, items 2-4 not sent, and the
 * service saw only the requests of items 0 and 1; an item before the failing one still goes out.
 * With Continue On Fail nothing halts.
 * Run: npx jest test/workflows/run-halt
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import type { RecordedRequest } from '../../emulator/server';
import type { RunResult } from '../../harness';
import { byId } from '../../harness/workflows';
import { useWorkflowEnv } from './support';
import type { Step } from '../../harness/workflows';

const env = useWorkflowEnv({ demo: true });
const UNKNOWN = '1999999999999';
/** Ids no other item of its case carries (never sent: a request of one would show). */
const OTHER = ['1999999999991', '1999999999992'];
const ONE_AT_A_TIME = { requestsInFlight: 1 };

interface Case {
	/** The step; the field under test reads `{{ $json.v }}`. */
	step: (settings?: Step['settings']) => Step;
	/** Item values: item 1 is the one the API refuses. */
	values: string[];
	/** The requests of the operation, and the value of item `v` each carries (its path or body). */
	requests: (r: RecordedRequest) => boolean;
	carries: (r: RecordedRequest, v: string) => boolean;
}

const inPath = (r: RecordedRequest, v: string) => r.path.includes(v);
const books = (resource: string) => env.orgSteps('vendorBooks', { resource });
const payment = env.orgSteps('vendorInvoice', { resource: 'payment' });
const billing = env.orgSteps('vendorBilling', { resource: 'project' });

const CASES: Array<[string, Case]> = [
	[
		'Vendor Invoice Payment → Create (one write): a customer the API refuses',
		{
			step: (settings) =>
				payment(
					'Op',
					{
						operation: 'create',
						customer_id: '={{ $json.v }}',
						amount: 21,
						date: '2026-01-15',
						options: ONE_AT_A_TIME,
					},
					settings,
				),
			values: [
				DEMO.customers.acme,
				UNKNOWN,
				DEMO.customers.globex,
				DEMO.customers.initech,
				DEMO.customers.umbrella,
			],
			requests: (r) => r.method === 'POST' && /\/customerpayments$/.test(r.path),
			carries: (r, v) => (r.body as IDataObject | undefined)?.customer_id === v,
		},
	],
	[
		'Vendor Books Item → Get (a read): an item that does not exist',
		{
			step: (settings) =>
				books('item')(
					'Op',
					{ operation: 'get', item_id: byId('={{ $json.v }}'), options: ONE_AT_A_TIME },
					settings,
				),
			values: [
				DEMO.items.consulting,
				UNKNOWN,
				DEMO.items.design,
				DEMO.items.hosting,
				DEMO.items.legacySupport,
			],
			requests: (r) => r.method === 'GET' && /\/items\/\d+$/.test(r.path),
			carries: inPath,
		},
	],
	[
		'Vendor Billing Project → Update (the record read first, then written): a project that does not exist',
		{
			step: (settings) =>
				billing(
					'Op',
					{
						operation: 'update',
						project_id: byId('={{ $json.v }}'),
						updateFields: { description: 'Halted run' },
						options: ONE_AT_A_TIME,
					},
					settings,
				),
			values: [
				DEMO.billingProjects.website,
				UNKNOWN,
				DEMO.billingProjects.support,
				DEMO.billingProjects.inactive,
				OTHER[0],
			],
			requests: (r) => /\/billing\/v1\/projects\/\d+$/.test(r.path),
			carries: inPath,
		},
	],
	[
		'Vendor Projects Project → Get (the Projects pacer): a project that does not exist',
		{
			step: (settings) =>
				env.portalSteps({ resource: 'project' })(
					'Op',
					{ operation: 'get', project_id: byId('={{ $json.v }}'), options: ONE_AT_A_TIME },
					settings,
				),
			values: [DEMO.projects.website, UNKNOWN, DEMO.projects.mobile, OTHER[0], OTHER[1]],
			requests: (r) => r.method === 'GET' && /\/projects\/\d+\/?$/.test(r.path),
			carries: inPath,
		},
	],
	[
		'Vendor Books Custom API Call: a path the API does not know',
		{
			step: (settings) =>
				books('customApiCall')(
					'Op',
					{
						operation: 'customApiCall',
						customMethod: 'GET',
						customPath: '=/items/{{ $json.v }}',
						options: ONE_AT_A_TIME,
					},
					settings,
				),
			values: [
				DEMO.items.consulting,
				UNKNOWN,
				DEMO.items.design,
				DEMO.items.hosting,
				DEMO.items.legacySupport,
			],
			requests: (r) => r.method === 'GET' && /\/items\/\d+$/.test(r.path),
			carries: inPath,
		},
	],
	[
		'Vendor Books Invoice → Get PDF (a file): an invoice that does not exist',
		{
			step: (settings) =>
				books('invoice')(
					'Op',
					{ operation: 'getPdf', invoice_ids: '={{ $json.v }}', options: ONE_AT_A_TIME },
					settings,
				),
			values: [
				DEMO.invoices.overdue1,
				UNKNOWN,
				DEMO.invoices.overdue2,
				DEMO.invoices.paid1,
				DEMO.invoices.sent,
			],
			requests: (r) => r.method === 'GET' && /\/invoices\/pdf$/.test(r.path),
			carries: (r, v) => String(r.query?.invoice_ids ?? '').includes(v),
		},
	],
];

async function runCase(
	c: Case,
	settings?: Step['settings'],
): Promise<{ result: RunResult; sentFor: boolean[] }> {
	env.em.clearRequests();
	const result = await env.run(
		[c.step(settings)],
		c.values.map((v) => ({ v })),
	);
	expect(new Set(c.values).size).toBe(c.values.length);
	const requests = env.apiRequests().filter(c.requests);
	return { result, sentFor: c.values.map((v) => requests.some((r) => c.carries(r, v))) };
}

describe('an item failure ends the run: the items that had sent nothing send nothing', () => {
	test.each(CASES)('%s', async (_name, c) => {
		const { result, sentFor } = await runCase(c);
		const error = result.error() as (Error & { description?: string }) | undefined;
		expect(error?.message).toMatch(/\[item 1; 1 of 5 items done, 3 not sent\]$/);
		expect(error?.description).toMatch(/Not sent: items 2-4 \(nothing was sent for them\)/);
		expect(sentFor).toEqual([true, true, false, false, false]);
	});

	test('the items before the failing one still go out: item 1 refused before sending (a blank ID) while item 0 prepares', async () => {
		const c = CASES[1][1];
		const { result, sentFor } = await runCase({
			...c,
			values: [
				DEMO.items.consulting,
				' ',
				DEMO.items.design,
				DEMO.items.hosting,
				DEMO.items.legacySupport,
			],
		});
		expect((result.error() as Error | undefined)?.message).toMatch(
			/\[item 1; 1 of 5 items done, 3 not sent\]$/,
		);
		expect(sentFor).toEqual([true, false, false, false, false]);
	});

	test.each(CASES.slice(0, 2))('with Continue On Fail nothing halts: %s', async (_name, c) => {
		const { result, sentFor } = await runCase(c, { onError: 'continueRegularOutput' });
		expect(result.error()).toBeUndefined();
		const out = result.output('Op');
		expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(out.map((o) => 'error' in o.json)).toEqual([false, true, false, false, false]);
		expect(sentFor).toEqual([true, true, true, true, true]);
	});
});
