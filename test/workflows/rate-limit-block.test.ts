/**
 * A rate-limit block during a run of many items (Vendor Projects), end to end on n8n's
 * engine against the emulator: by default one error that says when the block lifts, which
 * items were done and which were not sent; with continue-on-fail the done items' outputs
 * and a "not sent" error item per unsent item.
 *
 * The transport's side of the contract (nodes/shared/failures.ts): when a 429 starts a
 * block and Options → On Rate-Limit Block is "fail", it throws RateLimitBlockedError, and
 * every later request of the blocked area throws it before sending. Here a thin stand-in
 * around the real transport plays that part (the call after the first `allowed` ones meets
 * the block), so these tests pin the per-item loop's half of the contract.
 */
import { RateLimitBlockedError } from '../../nodes/shared/api/failureKinds';
import { vendorRequest } from '../../nodes/shared/api/transport';
import { expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

jest.mock('../../nodes/shared/api/transport', () => {
	const actual = jest.requireActual('../../nodes/shared/api/transport');
	return { ...actual, vendorRequest: jest.fn(actual.vendorRequest) };
});
const realVendorRequest = (
	jest.requireActual('../../nodes/shared/api/transport') as { vendorRequest: typeof vendorRequest }
).vendorRequest;
const transport = vendorRequest as jest.MockedFunction<typeof vendorRequest>;

const env = useWorkflowEnv({ latencyMs: 30 });
const portal = env.portalSteps({ resource: 'portal', operation: 'get' });
const trash = env.portalSteps({ resource: 'trash', operation: 'moveToTrash', module: 'tasks' });
const UNTIL = Date.UTC(2030, 0, 2, 3, 4, 5);
const LIFTS = '2030-01-02T03:04:05Z';

/** Projects requests after the first `allowed` meet a block until UNTIL (thrown by the transport, nothing sent). */
function blockAfter(allowed: number): void {
	let calls = 0;
	transport.mockImplementation(async (run, area, req, opts) => {
		if (area.family === 'projects' && ++calls > allowed)
			throw new RateLimitBlockedError(run.ctx.getNode(), UNTIL, opts?.itemIndex);
		return await realVendorRequest(run, area, req, opts);
	});
}
afterEach(() => transport.mockImplementation(realVendorRequest));

const input = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
const pairing = (items: Array<{ pairedItem?: unknown }>) =>
	items.map((o) => (o.pairedItem as { item: number }).item);

test('by default a block ends the run with one error: when it lifts, which items were done, which were not sent', async () => {
	blockAfter(4);
	const result = await env.run([portal('Portal', { options: { requestsInFlight: 1 } })], input(10));
	const error = result.error('Portal') as Error & { description?: string; httpCode?: string };
	expect(error.message).toBe(
		`The Vendor API blocks further requests until ${LIFTS}: 4 of 10 items done, 6 not sent`,
	);
	expect(error.description).toMatch(
		new RegExp(
			`^Done: items 0-3\\. Not sent: items 4-9 \\(nothing was sent for them: run them again after ${LIFTS}\\)\\.`,
		),
	);
	expect(error.description).toContain('On Rate-Limit Block');
	expect(error.httpCode).toBe('429');
	expect(json(result, 'Portal')).toEqual([]);
	// nothing was sent after the block: only the done items reached the API
	expect(env.apiRequests().map((r) => r.status)).toEqual([200, 200, 200, 200]);
});

test('with continue-on-fail: the done items as usual, then a "not sent" error item per unsent item, each paired', async () => {
	blockAfter(4);
	const result = await env.run(
		[portal('Portal', { options: { requestsInFlight: 1 } }, { onError: 'continueRegularOutput' })],
		input(10),
	);
	expectNoError(result);
	const out = json(result, 'Portal');
	expect(pairing(result.output('Portal'))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
	expect(out.slice(0, 4).every((o) => o.error === undefined && o.id !== undefined)).toBe(true);
	for (const [i, o] of out.slice(4).entries()) {
		expect(o).toMatchObject({
			error: `Not sent: the Vendor API blocks further requests until ${LIFTS} [item ${i + 4}]`,
			description: `Nothing was sent for this item. Run it again after ${LIFTS}.`,
			httpCode: '429',
			notSent: true,
			blockedUntil: LIFTS,
		});
	}
	expect(env.apiRequests()).toHaveLength(4);
});

test('items in parallel: the items in flight settle, none starts after the block, and done + not sent cover every item', async () => {
	blockAfter(7);
	const result = await env.run(
		[portal('Portal', { options: { requestsInFlight: 5 } }, { onError: 'continueRegularOutput' })],
		input(30),
	);
	expectNoError(result);
	const out = result.output('Portal');
	expect(pairing(out)).toEqual(Array.from({ length: 30 }, (_, i) => i));
	const done = out.filter((o) => o.json.error === undefined);
	const unsent = out.filter((o) => o.json.notSent === true);
	expect(done).toHaveLength(7);
	expect(unsent).toHaveLength(23);
	expect(env.apiRequests()).toHaveLength(7);
	expect(env.em.inFlight.max).toBeLessThanOrEqual(5);

	blockAfter(7);
	const strict = await env.run([portal('Portal', { options: { requestsInFlight: 5 } })], input(30));
	expect(strict.error('Portal')?.message).toBe(
		`The Vendor API blocks further requests until ${LIFTS}: 7 of 30 items done, 23 not sent`,
	);
});

test('a split operation stopped by the block after some of its calls: the records of the done call are done, the others not sent, by id', async () => {
	const ids = Array.from({ length: 250 }, (_, i) => String(5200000000000 + i));
	for (const id of ids) env.portalTenant().put('tasks', id, { id, name: `Task ${id}` });
	blockAfter(1);
	const result = await env.run([
		trash('Trash', { items: ids.join(','), options: { requestsInFlight: 1 } }),
	]);
	const error = result.error('Trash') as Error & { description?: string };
	expect(error.message).toBe(
		`Not sent for 150 of 250 items: The Vendor API blocks further requests until ${LIFTS} [item 0]`,
	);
	expect(error.description).toContain(`Done (100): ${ids.slice(0, 100).join(', ')}.`);
	expect(error.description).toContain(`Not sent (150): ${ids.slice(100).join(', ')}.`);
	// the first 100 really went to the trash, the rest did not
	expect(env.apiRequests()).toHaveLength(1);
	expect(env.portalTenant().bin.has(`tasks:${ids[0]}`)).toBe(true);
	expect(env.portalTenant().get('tasks', ids[100])).toBeDefined();

	blockAfter(1);
	const rest = ids.slice(100);
	const lenient = await env.run([
		trash(
			'Trash',
			{ items: rest.join(','), options: { requestsInFlight: 1 } },
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(lenient);
	const out = json(lenient, 'Trash');
	// the done call's answer with the ids it answers for, then one "not sent" item per id of the blocked calls
	expect(out[0].items).toEqual(rest.slice(0, 100));
	expect(out.slice(1).map((o) => [o.id, o.sent])).toEqual(rest.slice(100).map((id) => [id, false]));
	expect(String(out[1].error)).toBe(
		`Not sent: The Vendor API blocks further requests until ${LIFTS}`,
	);
	expect(String(out[out.length - 1].error)).toMatch(/^Not sent: /);
});
