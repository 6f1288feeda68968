/**
 * n8n's node setting Retry On Fail runs the whole node again, every input item, when a try
 * throws or its first output item is an error. No write is sent twice within an execution
 * (api/replay.ts): an item done by an earlier try keeps its output without a call, a write the
 * service answered is not sent again, one of unknown outcome stays *Outcome unknown*; only what
 * was not sent (and reads) runs again. The run report and the output name every record made,
 * whichever try made it.
 *
 * Generated over the ways an item writes (a create, a read-first update, a deletion, Custom API
 * Call, a split call: Bulk Reminder), every On Error setting, Requests in Flight 1 and 10, and
 * the refused item first or third: four items, one of them refused by the service on every try,
 * Max Tries 3. The service's record of requests is the witness.
 * Run: npx jest test/workflows/retry-on-fail
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import type { FaultTarget } from '../../emulator/faults';
import type { RecordedRequest } from '../../emulator/server';
import type { RunResult } from '../../harness';
import { byId } from '../../harness/workflows';
import { useWorkflowEnv } from './support';
import type { Step } from '../../harness/workflows';

const env = useWorkflowEnv({ demo: true });
afterEach(() => env.em.faults.clear());

const MAX_TRIES = 3;
const REFUSAL = {
	kind: 'html',
	status: 400,
	contentType: 'application/json',
	body: JSON.stringify({ code: 1, message: 'Refused for this test.' }),
} as const;
type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
const ON_ERROR: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

const retry = (onError: OnError): Partial<INode> => ({
	retryOnFail: true,
	maxTries: MAX_TRIES,
	waitBetweenTries: 1,
	onError,
});

interface WriteCase {
	/** The step; the value under test reads `{{ $json.v }}`. */
	step: (rif: number, settings: Partial<INode>) => Step;
	/** Four values, one per item, made before each run. */
	values: () => Promise<string[]>;
	/** Whether a request is this operation's write carrying value `v`. */
	writes: (r: RecordedRequest, v: string) => boolean;
	/** The record id field the run report names, and the id of the record value `v` is for. */
	idField?: string;
	recordId?: (v: string) => string | undefined;
}

const items = env.orgSteps('vendorBooks', { resource: 'item' });
const billing = env.orgSteps('vendorBilling', { resource: 'project' });
const custom = env.orgSteps('vendorBooks', {
	resource: 'customApiCall',
	operation: 'customApiCall',
});
let serial = 0;
const names = () => Array.from({ length: 4 }, (_, i) => `Retry ${++serial}-${i}`);
const bodyOf = (r: RecordedRequest) => (r.body ?? {}) as IDataObject;

/** Items of the demo organisation made for one case, so every run starts from records of its own. */
async function newItems(): Promise<string[]> {
	const ids: string[] = [];
	for (const name of names()) {
		const res = await env.call('POST', 'books', '/items', { json: { name, rate: 5 } });
		ids.push(String(res.body.item.item_id));
	}
	return ids;
}

const CASES: Array<[string, WriteCase]> = [
	[
		'Vendor Books Item → Create',
		{
			step: (rif, settings) =>
				items(
					'Op',
					{ operation: 'create', name: '={{ $json.v }}', options: { requestsInFlight: rif } },
					settings,
				),
			values: async () => names(),
			writes: (r, v) => r.method === 'POST' && /\/items$/.test(r.path) && bodyOf(r).name === v,
			idField: 'item_id',
			recordId: (v) =>
				env
					.orgTenant()
					.all('items')
					.find((i) => i.name === v)?.item_id as string | undefined,
		},
	],
	[
		'Vendor Billing Project → Update (read first, then written)',
		{
			step: (rif, settings) =>
				billing(
					'Op',
					{
						operation: 'update',
						project_id: byId('={{ $json.v }}'),
						updateFields: { description: '={{ "Retried " + $json.v }}' },
						options: { requestsInFlight: rif },
					},
					settings,
				),
			values: async () => {
				// copies of a demo project, each a record of its own
				const tenant = env.orgTenant();
				const model = tenant.get('projects', DEMO.billingProjects.website)!;
				return names().map((name) => {
					const id = env.em.store.nextId();
					tenant.put('projects', id, { ...model, project_id: id, project_name: name });
					return id;
				});
			},
			writes: (r, v) => r.method === 'PUT' && r.path.endsWith(`/projects/${v}`),
			idField: 'project_id',
			recordId: (v) => v,
		},
	],
	[
		'Vendor Books Item → Delete',
		{
			step: (rif, settings) =>
				items(
					'Op',
					{
						operation: 'delete',
						item_id: byId('={{ $json.v }}'),
						options: { requestsInFlight: rif },
					},
					settings,
				),
			values: newItems,
			writes: (r, v) => r.method === 'DELETE' && r.path.endsWith(`/items/${v}`),
		},
	],
	[
		'Vendor Books Custom API Call (POST)',
		{
			step: (rif, settings) =>
				custom(
					'Op',
					{
						customMethod: 'POST',
						customPath: '/items',
						customBodyType: 'json',
						customBody: '={{ JSON.stringify({ name: $json.v, rate: 3 }) }}',
						options: { requestsInFlight: rif },
					},
					settings,
				),
			values: async () => names(),
			writes: (r, v) => r.method === 'POST' && /\/items$/.test(r.path) && bodyOf(r).name === v,
		},
	],
];

/** What the service answered each write of value `v` with (0: no answer). */
const answered = (c: WriteCase, v: string) =>
	env
		.apiRequests()
		.filter((r) => c.writes(r, v))
		.map((r) => r.status);

const errorOf = (result: RunResult, node: string) =>
	result.error(node) as (Error & { description?: string }) | undefined;

describe.each(CASES)('%s with Retry On Fail (Max Tries 3)', (_name, c) => {
	const MATRIX = ON_ERROR.flatMap((onError) =>
		[1, 10].flatMap((rif) => [0, 2].map((refused) => [onError, rif, refused] as const)),
	);
	test.each(MATRIX)(
		'On Error %s, Requests in Flight %i, item %i refused on every try: no write sent twice, every record made named',
		async (onError, rif, refused) => {
			const values = await c.values();
			env.em.clearRequests();
			env.em.faults.next(100, REFUSAL, (r: FaultTarget) =>
				c.writes(r as unknown as RecordedRequest, values[refused]),
			);
			const result = await env.run(
				[c.step(rif, retry(onError))],
				values.map((v) => ({ v })),
			);
			// n8n tries again when a try throws (stopWorkflow) or its first output item is an error
			const tries = onError === 'stopWorkflow' || refused === 0 ? MAX_TRIES : 1;
			expect(answered(c, values[refused])).toEqual(Array(tries).fill(400));
			// every other item's write went out at most once (never again on a later try), and was done where it went out
			const done: string[] = [];
			for (const [i, v] of values.entries()) {
				if (i === refused) continue;
				const statuses = answered(c, v);
				expect(statuses.length).toBeLessThanOrEqual(1);
				if (statuses.length) {
					expect(statuses[0]).toBeGreaterThanOrEqual(200);
					expect(statuses[0]).toBeLessThan(300);
					done.push(v);
				}
			}
			if (onError === 'stopWorkflow') {
				const error = errorOf(result, 'Op');
				expect(error?.message).toMatch(
					new RegExp(`\\[item ${refused}; ${done.length} of 4 items done`),
				);
				// the run report names the records made, by the try that made them or an earlier one
				for (const v of c.recordId ? done : [])
					expect(error?.description).toContain(`${c.idField} ${c.recordId!(v)}`);
				return;
			}
			// continuing: one output per item, the done ones with their record, the refused one an error
			const main = result.output('Op', 0, 0);
			const errors =
				onError === 'continueErrorOutput'
					? result.output('Op', 0, 1)
					: main.filter((o) => o.json.error !== undefined);
			const successes = main.filter((o) => o.json.error === undefined);
			expect(successes.map((o) => (o.pairedItem as { item: number }).item).sort()).toEqual(
				[0, 1, 2, 3].filter((i) => i !== refused),
			);
			expect(errors.map((o) => (o.pairedItem as { item: number }).item)).toEqual([refused]);
			expect(done).toHaveLength(3);
			if (onError === 'continueErrorOutput')
				expect(main.every((o) => o.json.error === undefined)).toBe(true);
		},
	);
});

describe('a write of unknown outcome is not sent again on a retry', () => {
	test.each(ON_ERROR.slice(1))(
		"Item Create, item 1's connection dropped after the service made it, item 0 refused (On Error %s): one record, reported Outcome unknown",
		async (onError) => {
			const c = CASES[0][1];
			const values = names();
			env.em.clearRequests();
			env.em.faults.next(1, { kind: 'dropAfterCommit' }, (r: FaultTarget) =>
				c.writes(r as unknown as RecordedRequest, values[1]),
			);
			// and item 0 refused on every try, so that n8n tries again when continuing
			env.em.faults.next(100, REFUSAL, (r: FaultTarget) =>
				c.writes(r as unknown as RecordedRequest, values[0]),
			);
			const result = await env.run(
				[c.step(1, retry(onError))],
				values.map((v) => ({ v })),
			);
			expect(answered(c, values[0])).toEqual(Array(MAX_TRIES).fill(400));
			// sent once: the service made it once, and no later try sent it again
			expect(answered(c, values[1])).toEqual([0]);
			expect(
				env
					.orgTenant()
					.all('items')
					.filter((i) => i.name === values[1]),
			).toHaveLength(1);
			const all = [
				...result.output('Op', 0, 0),
				...(onError === 'continueErrorOutput' ? result.output('Op', 0, 1) : []),
			];
			const item1 = all.find((o) => (o.pairedItem as { item: number }).item === 1)?.json;
			const message =
				onError === 'continueErrorOutput' ? (item1?.error as IDataObject)?.message : item1?.error;
			expect(message).toMatch(/^Outcome unknown/);
			const description =
				onError === 'continueErrorOutput'
					? (item1?.error as IDataObject)?.description
					: item1?.description;
			expect(description).toMatch(/Not sent again by Retry On Fail/);
		},
	);

	test('a write of unknown outcome that ends the run (no Continue On Fail) stays Outcome unknown on every try and is sent once', async () => {
		const c = CASES[0][1];
		const values = names();
		env.em.clearRequests();
		env.em.faults.next(1, { kind: 'dropAfterCommit' }, (r: FaultTarget) =>
			c.writes(r as unknown as RecordedRequest, values[1]),
		);
		const result = await env.run(
			[c.step(1, retry('stopWorkflow'))],
			values.map((v) => ({ v })),
		);
		expect(answered(c, values[1])).toEqual([0]);
		expect(answered(c, values[0])).toEqual([201]);
		const error = errorOf(result, 'Op');
		expect(error?.message).toMatch(/^Outcome unknown.*\[item 1; 1 of 4 items done/);
		expect(error?.description).toMatch(/Not sent again by Retry On Fail/);
		expect(
			env
				.orgTenant()
				.all('items')
				.filter((i) => values.includes(String(i.name))),
		).toHaveLength(2);
	});
});

describe('a split call counts per call', () => {
	const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
	const ids: string[] = [];
	beforeAll(async () => {
		for (let i = 0; i < 12; i++) ids.push((await env.newInvoice(DEMO.customers.acme, 30 + i)).id);
		for (const id of ids) env.orgTenant().get('invoices', id)!.status = 'sent';
	});
	const reminded = (since: number) =>
		env
			.orgTenant()
			.mails.slice(since)
			.filter((m) => m.kind === 'reminder')
			.map((m) => String(m.invoiceId));

	test.each(ON_ERROR.flatMap((onError) => [1, 10].map((rif) => [onError, rif] as const)))(
		'Bulk Reminder of 12 invoices whose second call (of 10 and 2) is refused, On Error %s, Requests in Flight %i: each reminder mailed once',
		async (onError, rif) => {
			const before = env.orgTenant().mails.length;
			env.em.clearRequests();
			env.em.faults.next(
				100,
				REFUSAL,
				(r: FaultTarget) =>
					r.operation === 'books.invoice.bulkReminder' &&
					String(r.query?.invoice_ids ?? '').startsWith(ids[10]),
			);
			const result = await env.run([
				invoices(
					'Remind',
					{
						operation: 'bulkReminder',
						invoice_ids: ids.join(','),
						options: { requestsInFlight: rif },
					},
					retry(onError),
				),
			]);
			const calls = env.apiRequests().filter((r) => r.operation === 'books.invoice.bulkReminder');
			// the refused call went out on every try (n8n tries again when the item fails; continuing, its first output is a sent reminder), the first one once
			expect(calls.filter((r) => r.status === 400)).toHaveLength(
				onError === 'stopWorkflow' ? MAX_TRIES : 1,
			);
			expect(calls.filter((r) => r.status === 200)).toHaveLength(1);
			expect(reminded(before).sort()).toEqual(ids.slice(0, 10).sort());
			if (onError === 'stopWorkflow') {
				expect(errorOf(result, 'Remind')?.message).toMatch(
					/^Payment reminders not sent for 2 invoice\(s\)/,
				);
				return;
			}
			const main = result.output('Remind', 0, 0);
			const errors =
				onError === 'continueErrorOutput'
					? result.output('Remind', 0, 1)
					: main.filter((o) => o.json.error !== undefined);
			expect(main.filter((o) => o.json.sent === true).map((o) => o.json.invoice_id)).toEqual(
				ids.slice(0, 10),
			);
			expect(errors).toHaveLength(2);
		},
	);
});
