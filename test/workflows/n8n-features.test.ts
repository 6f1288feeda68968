/**
 * n8n's own features around the nodes, written from the promises only (README "## Options",
 * "### Triggers", "### Updates change only what you set", "### Outcomes"; docs/BEHAVIOUR.md on
 * Retry On Fail, the error output, overlapping polls, the poll deadline, long lists and Fetch
 * Test Event) by a tester who did not write the package and did not read nodes/ or credentials/.
 *
 * - Retry On Fail (node settings) with every On Error setting: no write sent twice within an
 *   execution, a done item keeps its output, unknown outcomes stay unknown, refused writes and
 *   reads run again, the run report names every record made.
 * - On Error "Continue (using error output)": each failure on output 1 as `{ error: { message, ... } }`,
 *   paired to its input item; successes on the main output; Continue (regular output) as before.
 * - Triggers on n8n-core's own activation and cron path, on fake time: overlapping polls, the 30 s
 *   deadline, a 429 or 503 at a scheduled poll, re-activation with the state, a long list over
 *   several polls, Fetch Test Event's sample.
 * - Rules: a 204 to a list read, dates given with an offset or as a moment, number text.
 *
 * The service's record of requests (the emulator's, and an answer proxy's) is the witness.
 * Run: npx jest test/workflows/n8n-features --maxWorkers=1
 */
import type { IDataObject, INode, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { Clock } from '../../emulator/clock';
import { DEMO } from '../../emulator/demo-data';
import type { FaultTarget } from '../../emulator/faults';
import { timestamp, timestampMs } from '../../emulator/rules/formats';
import { binaryItem, runWorkflow } from '../../harness';
import type { RunResult } from '../../harness';
import { activateTrigger, type ActiveTrigger } from '../../harness/activation';
import { useFakeClock } from '../tools/fake-timers';
import { useProxiedEnv } from '../tools/proxied-env';
import { resetPacers } from '../tools/pacers';
import { byId, chain, NODE_TYPES, vendorNode } from '../../harness/workflows';
import { PolledTrigger } from './support';
import type { Step } from '../../harness/workflows';

/** The service's clock follows n8n's `Date.now()` (fake in the trigger tests). */
const clock = new Clock({ realTime: true });
const ctx = useProxiedEnv({ demo: true, clock });
const env = ctx.env;

afterEach(() => {
	env.em.faults.clear();
	resetPacers();
});

const REFUSAL = {
	kind: 'html',
	status: 400,
	contentType: 'application/json',
	body: JSON.stringify({ code: 1, message: 'Refused for this test.' }),
} as const;
type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
const retry = (onError: OnError, maxTries = 3): Partial<INode> => ({
	retryOnFail: true,
	maxTries,
	waitBetweenTries: 1,
	onError,
});

const items = env.orgSteps('vendorBooks', { resource: 'item' });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const custom = env.orgSteps('vendorBooks', {
	resource: 'customApiCall',
	operation: 'customApiCall',
});
const projects = env.portalSteps({ resource: 'project' });

let serial = 0;
const unique = (label: string) => `${label} ${Date.now() % 100000}-${++serial}`;
const bodyOf = (r: { body?: unknown }) => (r.body ?? {}) as IDataObject;
const isItemCreate = (r: { method: string; path: string }) =>
	r.method === 'POST' && /\/books\/v3\/items$/.test(r.path);
/** The statuses the service answered the item creates named `name` with, in order. */
const creates = (name: string) =>
	env
		.apiRequests()
		.filter((r) => isItemCreate(r) && bodyOf(r).name === name)
		.map((r) => r.status);
const made = (name: string) =>
	env
		.orgTenant()
		.all('items')
		.filter((i) => i.name === name);
const pairOf = (o: { pairedItem?: unknown }) => (o.pairedItem as { item: number }).item;
const errorOf = (result: RunResult, node: string) =>
	result.error(node) as (Error & { description?: string }) | undefined;

/** A predicate true for the `nth` (1-based) request matching `match` only. */
function nthOf(nth: number, match: (r: FaultTarget) => boolean): (r: FaultTarget) => boolean {
	let seen = 0;
	return (r) => match(r) && ++seen === nth;
}
const createNamed = (name: string) => (r: FaultTarget) =>
	isItemCreate(r) && bodyOf(r).name === name;

async function newItems(n: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < n; i++) {
		const res = await env.call('POST', 'books', '/items', {
			json: { name: unique('RoF item'), rate: 5 },
		});
		ids.push(String(res.body.item.item_id));
	}
	return ids;
}

// ---------------------------------------------------------------- triggers (fake time, n8n-core's activation and cron)
// First in the file: with jest's fake Date (performance and hrtime stay real, as in the repo's own trigger tests), a
// poll right after real-time requests to the same organization saw a 60 s answer waited for in full; that did not
// happen on fake time alone (see the report), so these run before any real-time request.

describe("triggers on n8n-core's cron path", () => {
	const active: ActiveTrigger[] = [];
	let lastNow = 0;
	beforeEach(() => {
		useFakeClock();
		jest.setSystemTime(Math.max(Date.now(), lastNow + 60_000));
		resetPacers();
		env.em.faults.clear();
		env.em.clearRequests();
	});
	afterEach(async () => {
		env.em.faults.clear();
		for (const t of active.splice(0)) await t.deactivate();
		await jest.runOnlyPendingTimersAsync();
		lastNow = Date.now();
		jest.useRealTimers();
		resetPacers();
	});

	async function pass(ms: number): Promise<void> {
		for (let left = ms; left > 0; left -= 500)
			await jest.advanceTimersByTimeAsync(Math.min(500, left));
	}

	/** Settles `p` while moving the fake time half a second at a time; the simulated time it took. */
	async function settle(p: Promise<unknown>): Promise<number> {
		const started = Date.now();
		let done = false;
		const tracked = p.finally(() => void (done = true));
		while (!done) await jest.advanceTimersByTimeAsync(500);
		await tracked;
		return Date.now() - started;
	}

	async function activate(
		type: new () => INodeType,
		parameters: IDataObject,
		staticData?: IDataObject,
	): Promise<ActiveTrigger> {
		let trigger: ActiveTrigger | undefined;
		await settle(
			activateTrigger({
				nodeType: type,
				node: vendorNode(type, { maxCallsPerDay: 1_000_000, ...parameters }, 'Trigger'),
				credentials: env.credentials,
				credentialTypes: [VendorOAuth2Api],
				staticData,
			}).then((t) => void (trigger = t)),
		);
		active.push(trigger as ActiveTrigger);
		return trigger as ActiveTrigger;
	}

	const invoiceCreated = () => ({ organizationId: env.org, event: 'invoiceCreated' });
	function newInvoiceRecord(): string {
		const id = env.em.store.nextId();
		const created = timestamp(clock.now());
		env.orgTenant().put('invoices', id, {
			invoice_id: id,
			invoice_number: `INV-ind-${id}`,
			status: 'draft',
			date: created.slice(0, 10),
			total: 1,
			balance: 1,
			created_time: created,
			last_modified_time: created,
		});
		return id;
	}
	const emittedIds = (t: ActiveTrigger, field: string) =>
		t.emitted.flatMap((run) => run[0].map((i) => String(i.json[field])));
	const isInvoiceList = (r: FaultTarget) =>
		r.method === 'GET' && /\/books\/v3\/invoices$/.test(r.path);

	test('a poll that starts while another poll of the same trigger runs sends nothing and emits nothing; the running poll emits the new record once', async () => {
		const trigger = await activate(VendorBooksTrigger, invoiceCreated());
		await pass(60_000);
		const id = newInvoiceRecord();
		await pass(1_000);
		env.em.faults.next(1, { kind: 'hang', ms: 15_000 }, isInvoiceList);
		env.em.clearRequests();
		let firstDone = false;
		const first = trigger.poll().finally(() => void (firstDone = true));
		await pass(3_000);
		expect(firstDone).toBe(false);
		const before = env.apiRequests().length;
		await settle(trigger.poll());
		// the second poll made no call of its own and emitted nothing
		expect(env.apiRequests().length).toBe(before);
		expect(trigger.emitted).toEqual([]);
		await settle(first);
		expect(emittedIds(trigger, 'invoice_id')).toEqual([id]);
	});

	test('no poll waits past the 30 s deadline: every answer taking 60 s, the poll ends within 30 s of its start as an error execution; the next poll emits the record once', async () => {
		const trigger = await activate(VendorBooksTrigger, invoiceCreated());
		await pass(60_000);
		const id = newInvoiceRecord();
		await pass(1_000);
		env.em.faults.next(1_000, { kind: 'hang', ms: 60_000 }, isInvoiceList);
		const took = await settle(trigger.poll());
		expect(took).toBeLessThanOrEqual(30_500);
		expect(trigger.errors).toHaveLength(1);
		expect(trigger.emitted).toEqual([]);
		env.em.faults.clear();
		await pass(120_000);
		await settle(trigger.poll());
		await settle(trigger.poll());
		expect(emittedIds(trigger, 'invoice_id')).toEqual([id]);
	});

	test.each([
		['429 without Retry-After', { kind: 'status', status: 429 } as const],
		['429 with Retry-After 120', { kind: 'status', status: 429, retryAfter: 120 } as const],
		['503', { kind: 'status', status: 503 } as const],
	])(
		'a scheduled poll that meets %s is an error execution, within the deadline; once the service answers, the record made before is emitted once and nothing is missed',
		async (_answer, fault) => {
			const trigger = await activate(VendorBooksTrigger, invoiceCreated());
			await pass(60_000);
			const before = newInvoiceRecord();
			await pass(1_000);
			env.em.faults.next(1_000, fault, isInvoiceList);
			const took = await settle(trigger.poll());
			expect(took).toBeLessThanOrEqual(30_500);
			expect(trigger.errors).toHaveLength(1);
			expect(trigger.emitted).toEqual([]);
			env.em.faults.clear();
			await pass(180_000);
			const later = newInvoiceRecord();
			await pass(1_000);
			await settle(trigger.poll());
			await pass(60_000);
			await settle(trigger.poll());
			expect(emittedIds(trigger, 'invoice_id').sort()).toEqual([before, later].sort());
		},
	);

	test('a trigger deactivated and activated again with its state emits a record made meanwhile once', async () => {
		const first = await activate(VendorBooksTrigger, invoiceCreated());
		await pass(60_000);
		await settle(first.poll());
		expect(first.emitted).toEqual([]);
		const state = first.staticData();
		await first.deactivate();
		active.splice(active.indexOf(first), 1);
		await pass(30_000);
		const id = newInvoiceRecord();
		await pass(30_000);
		const second = await activate(VendorBooksTrigger, invoiceCreated(), state);
		for (let i = 0; i < 3; i++) {
			await pass(60_000);
			await settle(second.poll());
		}
		expect(emittedIds(second, 'invoice_id')).toEqual([id]);
	});

	test('a long list read (Bill Created, 2,600 bills, every page answered in 4 s) goes on over several polls, each within the deadline: a bill made meanwhile is emitted once, no old bill is', async () => {
		const tenant = env.orgTenant();
		const old = clock.now() - 3_600_000;
		for (let i = 0; i < 2_600; i++) {
			const id = env.em.store.nextId();
			tenant.put('bills', id, {
				bill_id: id,
				bill_number: `B-long-${i}`,
				status: 'open',
				created_time: timestampMs(old - i * 1000),
				last_modified_time: timestampMs(old - i * 1000),
			});
		}
		const isBillList = (r: FaultTarget) =>
			r.method === 'GET' && /\/inventory\/v1\/bills$/.test(r.path);
		env.em.faults.next(1_000_000, { kind: 'hang', ms: 4_000 }, isBillList);
		const trigger = await activate(VendorInventoryTrigger, {
			organizationId: env.org,
			event: 'billCreated',
		});
		await pass(60_000);
		const id = env.em.store.nextId();
		const at = timestampMs(clock.now());
		tenant.put('bills', id, {
			bill_id: id,
			bill_number: `B-new-${id}`,
			status: 'open',
			created_time: at,
			last_modified_time: at,
		});
		const took: number[] = [];
		const perPoll: number[] = [];
		for (let i = 0; i < 8; i++) {
			await pass(60_000);
			env.em.clearRequests();
			took.push(await settle(trigger.poll()));
			perPoll.push(env.apiRequests().length);
		}
		expect(emittedIds(trigger, 'bill_id')).toEqual([id]);
		// the read of 14 pages did not fit one poll: no poll read them all, and the pass went on over several polls
		expect(Math.max(...perPoll)).toBeLessThan(14);
		expect(perPoll.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(14);
		// no poll outlasts its 30 s deadline
		expect(Math.max(...took)).toBeLessThanOrEqual(30_500);
	});

	// README "### Triggers": "no wait of a poll (a 429's hold, a retry, the pacing) ends past 30 s"; BEHAVIOUR "The poll
	// deadline": "a request is given no longer than what is left (its Timeout otherwise)".
	test('a page request sent with little of the 30 s deadline left is given no longer than what is left: the poll ends within 30 s (Bill Created, page 1 answered in 27.5 s, page 2 in 10 s)', async () => {
		const isBillList = (r: FaultTarget) =>
			r.method === 'GET' && /\/inventory\/v1\/bills$/.test(r.path);
		const trigger = await activate(VendorInventoryTrigger, {
			organizationId: env.org,
			event: 'billCreated',
		});
		// the baseline done over as many polls as it takes (no fault)
		for (let i = 0; i < 3; i++) {
			await pass(60_000);
			await settle(trigger.poll());
		}
		await pass(60_000);
		env.em.faults.next(1, { kind: 'hang', ms: 27_500 }, isBillList);
		env.em.faults.next(1_000, { kind: 'hang', ms: 10_000 }, isBillList);
		env.em.clearRequests();
		const took = await settle(trigger.poll());
		// the list has several pages: a second page was asked for
		expect(
			env.apiRequests().filter((r) => isBillList(r as unknown as FaultTarget)).length,
		).toBeGreaterThanOrEqual(2);
		expect(took).toBeLessThanOrEqual(30_500);
	});
});

// ---------------------------------------------------------------- Retry On Fail

describe('Retry On Fail: no write sent twice within an execution', () => {
	const createStep = (rif: number, settings: Partial<INode>) =>
		items(
			'Op',
			{ operation: 'create', name: '={{ $json.v }}', options: { requestsInFlight: rif } },
			settings,
		);

	test.each([1, 10])(
		'two items with identical values, the third refused on every try (Stop Workflow, Requests in Flight %i): each identical item made once, no more',
		async (rif) => {
			const [same, other] = [unique('Twin'), unique('Refused')];
			env.em.clearRequests();
			env.em.faults.next(100, REFUSAL, createNamed(other));
			const result = await env.run(
				[createStep(rif, retry('stopWorkflow'))],
				[{ v: same }, { v: same }, { v: other }],
			);
			expect(creates(other)).toEqual([400, 400, 400]);
			// two items asked for two records of that name: both made, neither sent again
			expect(creates(same)).toEqual([201, 201]);
			expect(made(same)).toHaveLength(2);
			const error = errorOf(result, 'Op');
			expect(error?.message).toMatch(/\[item 2; 2 of 3 items done/);
			for (const rec of made(same))
				expect(error?.description).toContain(`item_id ${String(rec.item_id)}`);
		},
	);

	test('two identical items, the second refused on the first try only (Stop Workflow): the second is sent again and made; the first is not sent again', async () => {
		const same = unique('Twin once');
		env.em.clearRequests();
		env.em.faults.next(1, REFUSAL, nthOf(2, createNamed(same)));
		const result = await env.run(
			[createStep(1, retry('stopWorkflow'))],
			[{ v: same }, { v: same }],
		);
		expect(result.error()).toBeUndefined();
		expect(creates(same)).toEqual([201, 400, 201]);
		expect(made(same)).toHaveLength(2);
		const out = result.output('Op');
		expect(out.map(pairOf)).toEqual([0, 1]);
		// each item's output is its own record
		expect(new Set(out.map((o) => String(o.json.item_id))).size).toBe(2);
	});

	test.each(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as OnError[])(
		'item 0 refused on the first try only (On Error %s): it is sent again and made; the items a try did keep their output and are not sent again',
		async (onError) => {
			const names = [unique('First'), unique('Second'), unique('Third')];
			env.em.clearRequests();
			env.em.faults.next(1, REFUSAL, createNamed(names[0]));
			const result = await env.run(
				[createStep(1, retry(onError))],
				names.map((v) => ({ v })),
			);
			expect(result.error()).toBeUndefined();
			expect(creates(names[0])).toEqual([400, 201]);
			for (const v of names.slice(1)) expect(creates(v)).toEqual([201]);
			for (const v of names) expect(made(v)).toHaveLength(1);
			const out = result.output('Op', 0, 0);
			expect(out.map((o) => o.json.name)).toEqual(names);
			expect(out.every((o) => o.json.error === undefined)).toBe(true);
			if (onError === 'continueErrorOutput') expect(result.output('Op', 0, 1)).toEqual([]);
		},
	);

	test('a create answered 503 is Outcome unknown: a later try (another item refused) does not send it again (Stop Workflow, Requests in Flight 10)', async () => {
		const names = [unique('Ok'), unique('Five oh three'), unique('Refused')];
		env.em.clearRequests();
		env.em.faults.next(1, { kind: 'status', status: 503 }, createNamed(names[1]));
		env.em.faults.next(100, REFUSAL, createNamed(names[2]));
		const result = await env.run(
			[createStep(10, retry('stopWorkflow'))],
			names.map((v) => ({ v })),
		);
		expect(creates(names[1])).toEqual([503]);
		expect(creates(names[0])).toEqual([201]);
		const error = errorOf(result, 'Op');
		expect(error).toBeDefined();
		// the run report names the record made
		expect(error?.description).toContain(`item_id ${String(made(names[0])[0].item_id)}`);
	});

	test('mixed: item 0 refused on every try, item 2 answered 503 (Continue using error output, Requests in Flight 10): item 0 sent 3 times, item 2 once and Outcome unknown "Not sent again by Retry On Fail"', async () => {
		const names = [unique('Refused'), unique('Ok'), unique('Unknown'), unique('Ok')];
		env.em.clearRequests();
		env.em.faults.next(100, REFUSAL, createNamed(names[0]));
		env.em.faults.next(1, { kind: 'status', status: 503 }, createNamed(names[2]));
		const result = await env.run(
			[createStep(10, retry('continueErrorOutput'))],
			names.map((v) => ({ v })),
		);
		expect(creates(names[0])).toEqual([400, 400, 400]);
		expect(creates(names[2])).toEqual([503]);
		expect(creates(names[1])).toEqual([201]);
		expect(creates(names[3])).toEqual([201]);
		const main = result.output('Op', 0, 0);
		const errors = result.output('Op', 0, 1);
		expect(main.map(pairOf).sort()).toEqual([1, 3]);
		expect(errors.map(pairOf).sort()).toEqual([0, 2]);
		const unknown = errors.find((o) => pairOf(o) === 2)?.json.error as IDataObject;
		expect(String(unknown.message)).toMatch(/^Outcome unknown/);
		expect(String(unknown.description)).toMatch(/Not sent again by Retry On Fail/);
	});

	test('the run report names every record made, whichever try made it (item 1 refused once, item 3 on every try)', async () => {
		const names = [0, 1, 2, 3].map((i) => unique(`Report ${i}`));
		env.em.clearRequests();
		env.em.faults.next(1, REFUSAL, createNamed(names[1]));
		env.em.faults.next(100, REFUSAL, createNamed(names[3]));
		const result = await env.run(
			[createStep(1, retry('stopWorkflow'))],
			names.map((v) => ({ v })),
		);
		expect(creates(names[0])).toEqual([201]);
		expect(creates(names[1])).toEqual([400, 201]);
		expect(creates(names[2])).toEqual([201]);
		expect(creates(names[3])).toEqual([400, 400]);
		const error = errorOf(result, 'Op');
		expect(error?.message).toMatch(/\[item 3; 3 of 4 items done/);
		for (const v of names.slice(0, 3))
			expect(error?.description).toContain(`item_id ${String(made(v)[0].item_id)}`);
	});

	test('Item Update, item 1 refused on the first try (Stop Workflow): item 0 updated once, item 1 sent again, item 2 once', async () => {
		const ids = await newItems(3);
		env.em.clearRequests();
		const puts = (id: string) =>
			env
				.apiRequests()
				.filter((r) => r.method === 'PUT' && r.path.endsWith(`/items/${id}`))
				.map((r) => r.status);
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => r.method === 'PUT' && r.path.endsWith(`/items/${ids[1]}`),
		);
		const result = await env.run(
			[
				items(
					'Op',
					{
						operation: 'update',
						item_id: byId('={{ $json.v }}'),
						updateFields: { description: '={{ "Retried " + $json.v }}' },
						options: { requestsInFlight: 1 },
					},
					retry('stopWorkflow'),
				),
			],
			ids.map((v) => ({ v })),
		);
		expect(result.error()).toBeUndefined();
		expect(ids.map((id) => puts(id).length)).toEqual([1, 2, 1]);
		for (const id of ids)
			expect(env.orgTenant().get('items', id)?.description).toBe(`Retried ${id}`);
		expect(result.output('Op').map(pairOf)).toEqual([0, 1, 2]);
	});

	test('Item Delete, item 1 refused on the first try (Continue regular output, Requests in Flight 10, item 0 refused once too): every delete done once or after its refusal, each { deleted: true }', async () => {
		const ids = await newItems(3);
		env.em.clearRequests();
		const deletes = (id: string) =>
			env
				.apiRequests()
				.filter((r) => r.method === 'DELETE' && r.path.endsWith(`/items/${id}`))
				.map((r) => r.status);
		// item 0 refused once, so that n8n tries again (its first output item is an error)
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => r.method === 'DELETE' && r.path.endsWith(`/items/${ids[0]}`),
		);
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => r.method === 'DELETE' && r.path.endsWith(`/items/${ids[1]}`),
		);
		const result = await env.run(
			[
				items(
					'Op',
					{
						operation: 'delete',
						item_id: byId('={{ $json.v }}'),
						options: { requestsInFlight: 10 },
					},
					retry('continueRegularOutput'),
				),
			],
			ids.map((v) => ({ v })),
		);
		expect(ids.map((id) => deletes(id).filter((s) => s < 300).length)).toEqual([1, 1, 1]);
		expect(deletes(ids[2])).toHaveLength(1);
		const out = result.output('Op');
		expect(out.map(pairOf)).toEqual([0, 1, 2]);
		expect(out.map((o) => o.json.deleted)).toEqual([true, true, true]);
	});

	test('Custom API Call POST of two identical bodies and a third refused once (Stop Workflow): identical bodies each made once, the third made on the retry', async () => {
		const [same, other] = [unique('Custom twin'), unique('Custom refused')];
		env.em.clearRequests();
		env.em.faults.next(1, REFUSAL, createNamed(other));
		const result = await env.run(
			[
				custom(
					'Op',
					{
						customMethod: 'POST',
						customPath: '/items',
						customBodyType: 'json',
						customBody: '={{ JSON.stringify({ name: $json.v, rate: 3 }) }}',
						options: { requestsInFlight: 1 },
					},
					retry('stopWorkflow'),
				),
			],
			[{ v: same }, { v: same }, { v: other }],
		);
		expect(result.error()).toBeUndefined();
		expect(creates(same)).toEqual([201, 201]);
		expect(creates(other)).toEqual([400, 201]);
		expect(made(same)).toHaveLength(2);
		expect(made(other)).toHaveLength(1);
	});

	test('Upload Attachment of two files, the second refused on the first try (Stop Workflow): the first uploaded once, the second sent again', async () => {
		const targets = [
			(await env.newInvoice(DEMO.customers.acme, 11)).id,
			(await env.newInvoice(DEMO.customers.acme, 12)).id,
		];
		env.em.clearRequests();
		const uploads = (id: string) =>
			env
				.apiRequests()
				.filter((r) => r.method === 'POST' && r.path.endsWith(`/invoices/${id}/attachment`))
				.map((r) => r.status);
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => r.method === 'POST' && r.path.endsWith(`/invoices/${targets[1]}/attachment`),
		);
		const result = await env.run(
			[
				invoices(
					'Attach',
					{
						operation: 'uploadAttachment',
						invoice_id: byId('={{ $json.target }}'),
						binaryPropertyName: 'data',
						options: { requestsInFlight: 1 },
					},
					retry('stopWorkflow'),
				),
			],
			targets.map((target, i) =>
				binaryItem(Buffer.from(`file ${i}`), `receipt-${i}.png`, 'image/png', { target }),
			),
		);
		expect(result.error()).toBeUndefined();
		expect(uploads(targets[0])).toHaveLength(1);
		expect(uploads(targets[1])).toHaveLength(2);
		expect(result.output('Attach').map(pairOf)).toEqual([0, 1]);
	});

	test('Print of 30 invoices whose second call (of 25 and 5) is refused on the first try (Stop Workflow): the refused call runs again, every id printed', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 30; i++) ids.push((await env.newInvoice(DEMO.customers.acme, 20 + i)).id);
		env.em.clearRequests();
		const isPrint = (r: { path: string }) => r.path.endsWith('/invoices/print');
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => isPrint(r) && String(r.query?.invoice_ids ?? '').includes(ids[29]),
		);
		const result = await env.run([
			invoices(
				'Print',
				{ operation: 'print', invoice_ids: ids.join(','), options: { requestsInFlight: 1 } },
				retry('stopWorkflow'),
			),
		]);
		expect(result.error()).toBeUndefined();
		const calls = env.apiRequests().filter(isPrint);
		expect(
			calls.filter((r) => String(r.query.invoice_ids).includes(ids[29])).map((r) => r.status),
		).toEqual([400, 200]);
		const printed = result.output('Print').flatMap((o) => o.json.invoice_ids as string[]);
		expect([...printed].sort()).toEqual([...ids].sort());
	});

	test.each([1, 10])(
		'item 0 refused on the first try only, Requests in Flight %i, Stop Workflow: the items in flight or done in try 1 are not sent again',
		async (rif) => {
			const names = [0, 1, 2, 3].map((i) => unique(`Flight ${i}`));
			env.em.clearRequests();
			env.em.faults.next(1, REFUSAL, createNamed(names[0]));
			const result = await env.run(
				[createStep(rif, retry('stopWorkflow'))],
				names.map((v) => ({ v })),
			);
			expect(result.error()).toBeUndefined();
			expect(creates(names[0])).toEqual([400, 201]);
			for (const v of names.slice(1)) expect(creates(v)).toEqual([201]);
			for (const v of names) expect(made(v)).toHaveLength(1);
			expect(result.output('Op').map((o) => o.json.name)).toEqual(names);
		},
	);

	test('Billing Project Update (read first): item 1 refused on the first try; item 0 neither read nor written again, item 1 read and written again', async () => {
		const tenant = env.orgTenant();
		const model = tenant.get('projects', DEMO.billingProjects.website)!;
		const ids = [0, 1].map((i) => {
			const id = env.em.store.nextId();
			tenant.put('projects', id, {
				...model,
				project_id: id,
				project_name: unique(`Billing RoF ${i}`),
			});
			return id;
		});
		env.em.clearRequests();
		const calls = (id: string, method: string) =>
			env
				.apiRequests()
				.filter((r) => r.method === method && r.path.endsWith(`/projects/${id}`))
				.map((r) => r.status);
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => r.method === 'PUT' && r.path.endsWith(`/projects/${ids[1]}`),
		);
		const billing = env.orgSteps('vendorBilling', { resource: 'project' });
		const result = await env.run(
			[
				billing(
					'Op',
					{
						operation: 'update',
						project_id: byId('={{ $json.v }}'),
						updateFields: { description: 'Retried' },
						options: { requestsInFlight: 1 },
					},
					retry('stopWorkflow'),
				),
			],
			ids.map((v) => ({ v })),
		);
		expect(result.error()).toBeUndefined();
		expect(calls(ids[0], 'PUT')).toEqual([200]);
		expect(calls(ids[0], 'GET')).toHaveLength(1);
		expect(calls(ids[1], 'PUT')).toEqual([400, 200]);
		for (const id of ids) expect(tenant.get('projects', id)?.description).toBe('Retried');
	});

	// BEHAVIOUR "n8n's Retry On Fail": "a write of unknown outcome is not sent again and stays *Outcome unknown*, its
	// description adding "Not sent again by Retry On Fail"", also when the answer given again is what leaves it unknown.
	test('Item Delete whose answer does not prove it (a 204 in the accounting area) is Outcome unknown and not sent again when item 0 is refused on every try (Continue regular output)', async () => {
		const ids = await newItems(2);
		ctx.proxy.add({
			method: 'DELETE',
			path: new RegExp(`/items/${ids[1]}$`),
			action: { answer: { status: 204, body: '' } },
		});
		env.em.faults.next(
			100,
			REFUSAL,
			(r) => r.method === 'DELETE' && r.path.endsWith(`/items/${ids[0]}`),
		);
		const result = await env.run(
			[
				items(
					'Op',
					{
						operation: 'delete',
						item_id: byId('={{ $json.v }}'),
						options: { requestsInFlight: 1 },
					},
					retry('continueRegularOutput'),
				),
			],
			ids.map((v) => ({ v })),
		);
		const sent = (id: string) =>
			ctx.proxy.records.filter((r) => r.method === 'DELETE' && r.path.endsWith(`/items/${id}`))
				.length;
		expect(sent(ids[0])).toBe(3);
		expect(sent(ids[1])).toBe(1);
		const out = result.output('Op');
		expect(out.map(pairOf)).toEqual([0, 1]);
		expect(String(out[1].json.error)).toMatch(/^Outcome unknown/);
		expect(String(out[1].json.description)).toMatch(/Not sent again by Retry On Fail/);
	});

	test.each(['stopWorkflow', 'continueRegularOutput'] as OnError[])(
		'Bulk Reminder of 12 invoices: the call of 10 loses its connection after the service mailed them, the call of 2 is refused on every try (On Error %s): the 10 are mailed once and stay unknown (sent: null), the 2 are sent on every try',
		async (onError) => {
			const ids: string[] = [];
			for (let i = 0; i < 12; i++) ids.push((await env.newInvoice(DEMO.customers.acme, 80 + i)).id);
			for (const id of ids) env.orgTenant().get('invoices', id)!.status = 'sent';
			const before = env.orgTenant().mails.length;
			env.em.clearRequests();
			const isCall = (first: string) => (r: FaultTarget) =>
				r.operation === 'books.invoice.bulkReminder' &&
				String(r.query?.invoice_ids ?? '').startsWith(first);
			env.em.faults.next(1, { kind: 'dropAfterCommit' }, isCall(ids[0]));
			env.em.faults.next(100, REFUSAL, isCall(ids[10]));
			const result = await env.run([
				invoices(
					'Remind',
					{
						operation: 'bulkReminder',
						invoice_ids: ids.join(','),
						options: { requestsInFlight: 1 },
					},
					retry(onError),
				),
			]);
			const calls = env.apiRequests().filter((r) => r.operation === 'books.invoice.bulkReminder');
			expect(calls.filter((r) => String(r.query.invoice_ids).startsWith(ids[0]))).toHaveLength(1);
			const mailed = env
				.orgTenant()
				.mails.slice(before)
				.filter((m) => m.kind === 'reminder')
				.map((m) => String(m.invoiceId));
			expect(mailed.sort()).toEqual(ids.slice(0, 10).sort());
			if (onError === 'stopWorkflow') {
				expect(calls.filter((r) => String(r.query.invoice_ids).startsWith(ids[10]))).toHaveLength(
					3,
				);
				expect(errorOf(result, 'Remind')).toBeDefined();
				return;
			}
			const out = result.output('Remind').map((o) => o.json);
			expect(
				out
					.filter((o) => o.sent === null)
					.map((o) => String(o.invoice_id))
					.sort(),
			).toEqual(ids.slice(0, 10).sort());
			expect(
				out
					.filter((o) => o.sent === false)
					.map((o) => String(o.invoice_id))
					.sort(),
			).toEqual(ids.slice(10).sort());
		},
	);

	test('a read refused on the first try runs again; the items a try read are not read again (Item Get, item 1 refused once)', async () => {
		const ids = [DEMO.items.consulting, DEMO.items.design, DEMO.items.hosting];
		env.em.clearRequests();
		const gets = (id: string) =>
			env.apiRequests().filter((r) => r.method === 'GET' && r.path.endsWith(`/items/${id}`)).length;
		env.em.faults.next(
			1,
			REFUSAL,
			(r) => r.method === 'GET' && r.path.endsWith(`/items/${ids[1]}`),
		);
		const result = await env.run(
			[
				items(
					'Op',
					{ operation: 'get', item_id: byId('={{ $json.v }}'), options: { requestsInFlight: 1 } },
					retry('stopWorkflow'),
				),
			],
			ids.map((v) => ({ v })),
		);
		expect(result.error()).toBeUndefined();
		expect(ids.map(gets)).toEqual([1, 2, 1]);
		expect(result.output('Op').map((o) => String(o.json.item_id))).toEqual(ids);
	});
});

// ---------------------------------------------------------------- the error output

describe('On Error "Continue (using error output)"', () => {
	const errorItem = (o: { json: IDataObject }) => o.json.error as IDataObject;

	test('Item Update: a record not found goes to output 1 paired to its item as { error: { message, ... } }; the others stay on the main output', async () => {
		const ids = await newItems(2);
		const input = [{ v: ids[0] }, { v: '1999999999999' }, { v: ids[1] }];
		const result = await env.run(
			[
				items(
					'Op',
					{
						operation: 'update',
						item_id: byId('={{ $json.v }}'),
						updateFields: { description: 'Seen' },
					},
					{ onError: 'continueErrorOutput' },
				),
			],
			input,
		);
		expect(result.error()).toBeUndefined();
		const main = result.output('Op', 0, 0);
		const errors = result.output('Op', 0, 1);
		expect(main.map(pairOf)).toEqual([0, 2]);
		expect(main.every((o) => o.json.error === undefined)).toBe(true);
		expect(errors.map(pairOf)).toEqual([1]);
		expect(typeof errorItem(errors[0])).toBe('object');
		expect(String(errorItem(errors[0]).message)).toMatch(/\[item 1\]$/);
	});

	test('an input check (Rate "ten") goes to output 1 with nothing sent; the good item is created', async () => {
		const names = [unique('Good'), unique('Bad rate')];
		env.em.clearRequests();
		const result = await env.run(
			[
				items(
					'Op',
					{
						operation: 'create',
						name: '={{ $json.v }}',
						additionalFields: { rate: '={{ $json.rate }}' },
					},
					{ onError: 'continueErrorOutput' },
				),
			],
			[
				{ v: names[0], rate: 2 },
				{ v: names[1], rate: 'ten' },
			],
		);
		expect(creates(names[1])).toEqual([]);
		expect(result.output('Op', 0, 0).map(pairOf)).toEqual([0]);
		const errors = result.output('Op', 0, 1);
		expect(errors.map(pairOf)).toEqual([1]);
		expect(String(errorItem(errors[0]).message)).toMatch(
			/^Invalid input.*Rate must be a number.*\[item 1\]$|Rate must be a number.*\[item 1\]$/,
		);
	});

	test('a deletion answered 204 in the accounting area (no code) is Outcome unknown on output 1; a proved deletion is { deleted: true } on the main output', async () => {
		const ids = await newItems(2);
		ctx.proxy.add({
			method: 'DELETE',
			path: new RegExp(`/items/${ids[1]}$`),
			action: { answer: { status: 204, body: '' } },
		});
		const result = await env.run(
			[
				items(
					'Op',
					{ operation: 'delete', item_id: byId('={{ $json.v }}') },
					{ onError: 'continueErrorOutput' },
				),
			],
			ids.map((v) => ({ v })),
		);
		const main = result.output('Op', 0, 0);
		const errors = result.output('Op', 0, 1);
		expect(main.map((o) => [pairOf(o), o.json.deleted])).toEqual([[0, true]]);
		expect(errors.map(pairOf)).toEqual([1]);
		expect(String(errorItem(errors[0]).message)).toMatch(/^Outcome unknown/);
	});

	test('Bulk Reminder of 12 invoices, the call of the last 2 refused: 10 sent on the main output, one error item per id not done on output 1 (sent: false), each paired to item 0', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) ids.push((await env.newInvoice(DEMO.customers.acme, 60 + i)).id);
		for (const id of ids) env.orgTenant().get('invoices', id)!.status = 'sent';
		env.em.faults.next(
			1,
			REFUSAL,
			(r) =>
				r.operation === 'books.invoice.bulkReminder' &&
				String(r.query?.invoice_ids ?? '').startsWith(ids[10]),
		);
		const result = await env.run([
			invoices(
				'Op',
				{ operation: 'bulkReminder', invoice_ids: ids.join(','), options: { requestsInFlight: 1 } },
				{ onError: 'continueErrorOutput' },
			),
		]);
		const main = result.output('Op', 0, 0);
		const errors = result.output('Op', 0, 1);
		expect(main.filter((o) => o.json.sent === true).map((o) => String(o.json.invoice_id))).toEqual(
			ids.slice(0, 10),
		);
		expect(main.every((o) => o.json.error === undefined)).toBe(true);
		expect(errors).toHaveLength(2);
		expect(errors.map(pairOf)).toEqual([0, 0]);
		expect(errors.map((o) => errorItem(o).sent)).toEqual([false, false]);
		// every id is reported: each error item names its invoice
		expect(errors.map((o) => JSON.stringify(o.json.error))).toEqual([
			expect.stringContaining(ids[10]),
			expect.stringContaining(ids[11]),
		]);
	});

	test('Custom API Call refused by the service: output 1 holds { error: { message, httpCode, ... } } paired; the successful call stays on the main output', async () => {
		const names = [unique('Custom ok'), unique('Custom refused')];
		env.em.faults.next(1, REFUSAL, createNamed(names[1]));
		const result = await env.run(
			[
				custom(
					'Op',
					{
						customMethod: 'POST',
						customPath: '/items',
						customBodyType: 'json',
						customBody: '={{ JSON.stringify({ name: $json.v, rate: 3 }) }}',
					},
					{ onError: 'continueErrorOutput' },
				),
			],
			names.map((v) => ({ v })),
		);
		expect(result.output('Op', 0, 0).map(pairOf)).toEqual([0]);
		const errors = result.output('Op', 0, 1);
		expect(errors.map(pairOf)).toEqual([1]);
		expect(String(errorItem(errors[0]).message)).toMatch(/Refused for this test/);
		expect(String(errorItem(errors[0]).httpCode)).toBe('400');
	});

	test('Continue (regular output) is unchanged: the error item keeps its members at the top, in its place', async () => {
		const names = [unique('Regular ok'), unique('Regular refused')];
		env.em.faults.next(1, REFUSAL, createNamed(names[1]));
		const result = await env.run(
			[
				items(
					'Op',
					{ operation: 'create', name: '={{ $json.v }}' },
					{ onError: 'continueRegularOutput' },
				),
			],
			names.map((v) => ({ v })),
		);
		const main = result.output('Op', 0, 0);
		expect(main.map(pairOf)).toEqual([0, 1]);
		expect(typeof main[1].json.error).toBe('string');
		expect(String(main[1].json.error)).toMatch(/Refused for this test\. \(code 1\) \[item 1\]$/);
		expect(result.output('Op', 0, 1)).toEqual([]);
	});

	test('a rate-limit block in Vendor Projects (429 without Retry-After): every unsent item on output 1 with notSent and blockedUntil, paired', async () => {
		env.em.faults.next(1, { kind: 'status', status: 429 }, 'projects');
		const ids = [DEMO.projects.website, DEMO.projects.mobile, DEMO.projects.template];
		const result = await env.run(
			[
				projects(
					'Op',
					{
						operation: 'get',
						project_id: byId('={{ $json.id }}'),
						options: { requestsInFlight: 1 },
					},
					{ onError: 'continueErrorOutput' },
				),
			],
			ids.map((id) => ({ id })),
		);
		expect(result.error()).toBeUndefined();
		const errors = result.output('Op', 0, 1);
		expect(errors.map(pairOf)).toEqual([0, 1, 2]);
		for (const e of errors) expect(errorItem(e).blockedUntil).toBeDefined();
		expect(errors.slice(1).map((e) => errorItem(e).notSent)).toEqual([true, true]);
		expect(result.output('Op', 0, 0)).toEqual([]);
	});
});

// ---------------------------------------------------------------- rules the docs decide

describe('a 204 to a list read is a read that found nothing', () => {
	const noContent = () =>
		ctx.proxy.add({
			method: 'GET',
			path: /\/books\/v3\/items$/,
			action: { answer: { status: 204, body: '' } },
		});

	test('Item Get Many (Return All): no item and no error', async () => {
		noContent();
		const result = await env.run([items('List', { operation: 'getAll', returnAll: true })]);
		expect(result.error()).toBeUndefined();
		expect(result.output('List')).toEqual([]);
	});

	test('with Always Output Data: its one empty item', async () => {
		noContent();
		const result = await env.run([
			items(
				'List',
				{ operation: 'getAll', returnAll: false, limit: 5 },
				{ alwaysOutputData: true },
			),
		]);
		expect(result.error()).toBeUndefined();
		expect(result.output('List').map((o) => o.json)).toEqual([{}]);
	});

	test('Item Created Fetch Test Event on a 204: nothing emitted, no error', async () => {
		noContent();
		const { items: emitted } = await new PolledTrigger(env, VendorBooksTrigger, {
			organizationId: env.org,
			event: 'itemCreated',
		}).pollTrigger('manual');
		expect(emitted).toEqual([]);
	});
});

test("a 204 to page 2 of Return All ends the list: page 1's records are output, no page 3 is asked", async () => {
	const tenant = env.orgTenant();
	while (tenant.all('items').length < 230) {
		const id = env.em.store.nextId();
		tenant.put('items', id, { item_id: id, name: `Filler ${id}`, rate: 1, status: 'active' });
	}
	ctx.proxy.add({
		method: 'GET',
		path: /\/books\/v3\/items$/,
		test: (r) => r.query.page === '2',
		action: { answer: { status: 204, body: '' } },
	});
	const result = await env.run([items('List', { operation: 'getAll', returnAll: true })]);
	expect(result.error()).toBeUndefined();
	const pages = ctx.proxy.records
		.filter((r) => r.method === 'GET' && /\/items$/.test(r.path))
		.map((r) => r.query.page ?? '1');
	expect(pages).toEqual(['1', '2']);
	expect(result.output('List')).toHaveLength(200);
});

describe('dates are the day given', () => {
	/** Invoice → Create From Estimate with `date`, in a workflow of time zone `zone`: the date the create sent. */
	async function sentDate(date: string, zone: string): Promise<unknown> {
		env.em.clearRequests();
		const step: Step = invoices('From', {
			operation: 'createFromEstimate',
			estimate_id: byId(DEMO.estimates.accepted1),
			additionalFields: { date },
		});
		const result = await runWorkflow({
			workflow: { ...chain([step]), settings: { timezone: zone } },
			nodeTypes: NODE_TYPES,
			credentialTypes: [VendorOAuth2Api],
			credentials: env.credentials,
		});
		const error = result.error();
		if (error) throw error;
		const create = env
			.apiRequests()
			.find((r) => r.method === 'POST' && r.path.endsWith('/invoices'));
		return bodyOf(create ?? {}).date;
	}

	test('ISO text with an offset is the day written (2026-03-05T23:30:00-08:00 is 2026-03-05), in any workflow zone', async () => {
		expect(await sentDate('2026-03-05T23:30:00-08:00', 'Asia/Tokyo')).toBe('2026-03-05');
		expect(await sentDate('2026-03-05T23:30:00-08:00', 'UTC')).toBe('2026-03-05');
	});

	test('other text (2026-03-05Tlater) is refused naming the field, nothing sent', async () => {
		const refused = await sentDate('2026-03-05Tlater', 'UTC').then(
			() => 'sent',
			(e: { message?: string }) => String(e.message),
		);
		expect(refused).toMatch(/^Invalid input: Date .*\(got "2026-03-05Tlater"\) \[item 0\]$/);
		expect(env.apiRequests().filter((r) => r.method === 'POST')).toEqual([]);
	});

	test.each([
		[
			'a luxon DateTime',
			'={{ DateTime.fromISO("2026-03-05T20:00:00Z") }}',
			'Asia/Tokyo',
			'2026-03-06',
		],
		[
			'a luxon DateTime',
			'={{ DateTime.fromISO("2026-03-06T03:00:00Z") }}',
			'America/Los_Angeles',
			'2026-03-05',
		],
		['a JS Date', '={{ new Date("2026-03-05T20:00:00Z") }}', 'Asia/Tokyo', '2026-03-06'],
		['a JS Date', '={{ new Date("2026-03-06T03:00:00Z") }}', 'America/Los_Angeles', '2026-03-05'],
		[
			'a DateTime put in another zone with setZone',
			'={{ DateTime.fromISO("2026-03-05T20:00:00Z").setZone("America/New_York") }}',
			'Asia/Tokyo',
			'2026-03-06',
		],
	])(
		'%s from an expression (%s) is its day in the workflow zone %s: %s',
		async (_kind, expression, zone, day) => {
			expect(await sentDate(expression, zone)).toBe(day);
		},
	);
});

describe('numbers are decimal text or numbers', () => {
	const create = async (rate: string | number) => {
		const name = unique('Rate');
		env.em.clearRequests();
		const result = await env.run(
			[
				items(
					'Op',
					{ operation: 'create', name, additionalFields: { rate: '={{ $json.rate }}' } },
					{ onError: 'continueRegularOutput' },
				),
			],
			[{ rate }],
		);
		return { name, result, sent: env.apiRequests().filter((r) => isItemCreate(r)) };
	};

	test('decimal text is sent as the number: "12.50" 12.5, " -3 " -3, "1e3" 1000, ".5" 0.5', async () => {
		for (const [rate, number] of [
			['12.50', 12.5],
			[' -3 ', -3],
			['1e3', 1000],
			['.5', 0.5],
		] as const) {
			const { sent, result } = await create(rate);
			expect([rate, result.output('Op')[0].json.error]).toEqual([rate, undefined]);
			expect([rate, sent.map((r) => bodyOf(r).rate)]).toEqual([rate, [number]]);
		}
	});

	test('a number from an expression that is not finite (1/0) is refused naming Rate, nothing sent', async () => {
		const name = unique('Rate inf');
		env.em.clearRequests();
		const result = await env.run(
			[
				items(
					'Op',
					{ operation: 'create', name, additionalFields: { rate: '={{ 1/0 }}' } },
					{ onError: 'continueRegularOutput' },
				),
			],
			[{}],
		);
		expect(env.apiRequests().filter((r) => isItemCreate(r))).toEqual([]);
		expect(String(result.output('Op')[0].json.error)).toMatch(/Rate/);
	});

	test('a text field holding a number (Billing Project rate) is sent the text as written, trimmed, exponent written out; 0x10 is refused naming Rate, nothing written', async () => {
		const billing = env.orgSteps('vendorBilling', { resource: 'project' });
		for (const [rate, sent] of [
			[' 1e3 ', '1000'],
			['95.50', '95.50'],
		]) {
			env.em.clearRequests();
			const result = await env.run([
				billing('Op', {
					operation: 'update',
					project_id: byId(DEMO.billingProjects.website),
					updateFields: { rate },
				}),
			]);
			expect(result.error()).toBeUndefined();
			const put = env.apiRequests().find((r) => r.method === 'PUT');
			expect([rate, bodyOf(put ?? {}).rate]).toEqual([rate, sent]);
		}
		env.em.clearRequests();
		const result = await env.run([
			billing(
				'Op',
				{
					operation: 'update',
					project_id: byId(DEMO.billingProjects.website),
					updateFields: { rate: '0x10' },
				},
				{ onError: 'continueRegularOutput' },
			),
		]);
		expect(env.apiRequests().filter((r) => r.method === 'PUT')).toEqual([]);
		// refused by its label and the rule (the wording differs from a number field's: see the report)
		expect(String(result.output('Op')[0].json.error)).toMatch(
			/^Invalid input: Rate must be a number .*\(got "0x10"\) \[item 0\]$/,
		);
	});

	test.each(['0x10', '0b1', '0o7', '1_000', '1,5', 'Infinity', 'NaN'])(
		'rate %j is refused naming the field by its label, nothing sent',
		async (rate) => {
			const { sent, result } = await create(rate);
			expect(sent).toEqual([]);
			expect(String(result.output('Op')[0].json.error)).toContain(
				`Rate must be a number written in decimal digits, e.g. 12.50, -3 or 1e3 (got "${rate}")`,
			);
		},
	);
});

describe('Fetch Test Event (real time)', () => {
	test('Fetch Test Event, Invoice Created: one call, the latest invoice of the first page by its creation time, with _pollCost; the state left alone', async () => {
		const trigger = new PolledTrigger(env, VendorBooksTrigger, {
			organizationId: env.org,
			event: 'invoiceCreated',
		});
		ctx.proxy.reset();
		const { items: sample, calls } = await trigger.pollTrigger('manual');
		expect(calls).toHaveLength(1);
		expect(trigger.staticData).toEqual({});
		const page = (
			ctx.proxy.records.find((r) => /\/invoices$/.test(r.path))?.upstreamJson as IDataObject
		).invoices as IDataObject[];
		const latest = page.reduce(
			(best, r) =>
				Date.parse(String(r.created_time)) > Date.parse(String(best.created_time)) ? r : best,
			page[0],
		);
		expect(sample).toHaveLength(1);
		expect(String(sample[0].invoice_id)).toBe(String(latest.invoice_id));
		expect(sample[0]._pollCost).toBeDefined();
	});

	test('Fetch Test Event, Item Created: the first item as the API lists it, with _pollCost', async () => {
		const trigger = new PolledTrigger(env, VendorBooksTrigger, {
			organizationId: env.org,
			event: 'itemCreated',
		});
		ctx.proxy.reset();
		const { items: sample, calls } = await trigger.pollTrigger('manual');
		expect(calls).toHaveLength(1);
		const page = (
			ctx.proxy.records.find((r) => /\/items$/.test(r.path))?.upstreamJson as IDataObject
		).items as IDataObject[];
		const first = page.find((i) => i.status === undefined || i.status === 'active') as IDataObject;
		expect(sample).toHaveLength(1);
		expect(String(sample[0].item_id)).toBe(String(first.item_id));
		expect(sample[0]._pollCost).toBeDefined();
	});
});

describe('Retry On Fail and a 429 (held, not a failure)', () => {
	test('a create answered 429 once was not processed: it is held and sent again, made once, no error', async () => {
		const name = unique('Held');
		env.em.clearRequests();
		env.em.faults.next(1, { kind: 'status', status: 429, retryAfter: 1 }, createNamed(name));
		const result = await env.run(
			[
				items(
					'Op',
					{ operation: 'create', name: '={{ $json.v }}', options: { requestsInFlight: 1 } },
					retry('stopWorkflow'),
				),
			],
			[{ v: name }],
		);
		expect(result.error()).toBeUndefined();
		expect(creates(name)).toEqual([429, 201]);
		expect(made(name)).toHaveLength(1);
		expect(result.output('Op')[0].json.name).toBe(name);
	});
});
