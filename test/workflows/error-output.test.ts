/**
 * With On Error "Continue (using error output)" every failing item goes to the node's error
 * output, paired to its own input item, and every success stays on the main output. n8n-core
 * moves an item there only when its json holds nothing but `error` (`handleNodeErrorOutput`),
 * so there an error item is `{ error: { message, ...the members the regular output has } }`;
 * with "Continue" (regular output) it is as before, its members at the top.
 *
 * Generated over every kind of failure the package reports: the API's refusal, an input check,
 * a record not found, a page failing in the middle of Return All, a write of unknown outcome,
 * each id of a split call, a file, and a rate-limit block (last: its block stays for the file).
 * Run: npx jest test/workflows/error-output
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import type { FaultTarget } from '../../emulator/faults';
import { byId, expectNoError } from '../../harness/workflows';
import { useWorkflowEnv } from './support';
import type { Step } from '../../harness/workflows';

const env = useWorkflowEnv({ demo: true });
afterEach(() => env.em.faults.clear());

const REFUSAL = {
	kind: 'html',
	status: 400,
	contentType: 'application/json',
	body: JSON.stringify({ code: 1, message: 'Refused for this test.' }),
} as const;
const UNKNOWN = '1999999999999';
type Continue = 'continueRegularOutput' | 'continueErrorOutput';

const items = env.orgSteps('vendorBooks', { resource: 'item' });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
let serial = 0;
const unique = (label: string) => `${label} ${++serial}`;
const nameOf = (r: FaultTarget) => ((r.body ?? {}) as IDataObject).name;

interface Kind {
	/** The step under On Error `onError`; its input items. */
	step: (onError: Continue) => Step;
	input: () => IDataObject[];
	/** Makes the service fail where the kind says (before each run). */
	arrange?: (input: IDataObject[]) => void;
	/** Per input item: how many successes and failures it gives. */
	expected: Array<{ ok: number; failed: number }>;
	/** What every failure's message says. */
	message: RegExp;
}

const KINDS: Array<[string, Kind]> = [
	[
		'the API refuses a create',
		{
			step: (onError) => items('Op', { operation: 'create', name: '={{ $json.v }}' }, { onError }),
			input: () => [unique('Ok'), unique('Refused'), unique('Ok')].map((v) => ({ v })),
			arrange: (input) => env.em.faults.next(1, REFUSAL, (r) => nameOf(r) === input[1].v),
			expected: [
				{ ok: 1, failed: 0 },
				{ ok: 0, failed: 1 },
				{ ok: 1, failed: 0 },
			],
			message: /Refused for this test\. \(code 1\) \[item 1\]$/,
		},
	],
	[
		'an input check refuses a value (nothing sent)',
		{
			step: (onError) =>
				items(
					'Op',
					{
						operation: 'create',
						name: '={{ $json.v }}',
						additionalFields: { rate: '={{ $json.rate }}' },
					},
					{ onError },
				),
			input: () => [
				{ v: unique('Ok'), rate: 2 },
				{ v: unique('Bad rate'), rate: 'ten' },
			],
			expected: [
				{ ok: 1, failed: 0 },
				{ ok: 0, failed: 1 },
			],
			message: /Rate must be a number.*\[item 1\]$/,
		},
	],
	[
		'a record is not found',
		{
			step: (onError) =>
				items('Op', { operation: 'get', item_id: byId('={{ $json.v }}') }, { onError }),
			input: () => [DEMO.items.consulting, UNKNOWN, DEMO.items.design].map((v) => ({ v })),
			expected: [
				{ ok: 1, failed: 0 },
				{ ok: 0, failed: 1 },
				{ ok: 1, failed: 0 },
			],
			message: /\[item 1\]$/,
		},
	],
	[
		'a page fails in the middle of Return All',
		{
			step: (onError) => items('Op', { operation: 'getAll', returnAll: true }, { onError }),
			input: () => [{}],
			arrange: () => {
				env.em.faults.next(2, { kind: 'endlessPages' }, 'books.item.getAll');
				env.em.faults.next(1, REFUSAL, 'books.item.getAll');
			},
			expected: [{ ok: 400, failed: 1 }],
			message: /Refused for this test\. \(code 1\) \[item 0\]$/,
		},
	],
	[
		"a write's outcome is unknown (the connection dropped after the service made it)",
		{
			step: (onError) => items('Op', { operation: 'create', name: '={{ $json.v }}' }, { onError }),
			input: () => [unique('Ok'), unique('Dropped')].map((v) => ({ v })),
			arrange: (input) =>
				env.em.faults.next(1, { kind: 'dropAfterCommit' }, (r) => nameOf(r) === input[1].v),
			expected: [
				{ ok: 1, failed: 0 },
				{ ok: 0, failed: 1 },
			],
			message: /^Outcome unknown/,
		},
	],
	[
		'some ids of a split call fail (Bulk Reminder of 12: the call of the last 2 refused)',
		{
			step: (onError) =>
				invoices(
					'Op',
					{
						operation: 'bulkReminder',
						invoice_ids: '={{ $json.ids }}',
						options: { requestsInFlight: 1 },
					},
					{ onError },
				),
			input: () => [{ ids: reminded.join(',') }],
			arrange: () =>
				env.em.faults.next(
					1,
					REFUSAL,
					(r) =>
						r.operation === 'books.invoice.bulkReminder' &&
						String(r.query?.invoice_ids ?? '').startsWith(reminded[10]),
				),
			expected: [{ ok: 10, failed: 2 }],
			message: /^Not sent: .*Refused for this test/,
		},
	],
	[
		'a file is not returned (Get PDF of an invoice that does not exist)',
		{
			step: (onError) =>
				invoices('Op', { operation: 'getPdf', invoice_ids: '={{ $json.v }}' }, { onError }),
			input: () => [DEMO.invoices.overdue1, UNKNOWN].map((v) => ({ v })),
			expected: [
				{ ok: 1, failed: 0 },
				{ ok: 0, failed: 1 },
			],
			message: /\[item 1\]$/,
		},
	],
];

const reminded: string[] = [];
beforeAll(async () => {
	for (let i = 0; i < 12; i++)
		reminded.push((await env.newInvoice(DEMO.customers.acme, 40 + i)).id);
	for (const id of reminded) env.orgTenant().get('invoices', id)!.status = 'sent';
});

const itemOf = (o: INodeExecutionData) => (o.pairedItem as { item: number }).item;
const countBy = (out: INodeExecutionData[], n: number) =>
	Array.from({ length: n }, (_, i) => out.filter((o) => itemOf(o) === i).length);

describe.each(KINDS)('%s', (_name, kind) => {
	test('Continue (using error output): each failure on the error output, paired to its item, each success on the main output', async () => {
		const input = kind.input();
		kind.arrange?.(input);
		const result = await env.run([kind.step('continueErrorOutput')], input);
		expectNoError(result);
		const main = result.output('Op', 0, 0);
		const errors = result.output('Op', 0, 1);
		expect(main.every((o) => o.json.error === undefined)).toBe(true);
		expect(countBy(main, input.length)).toEqual(kind.expected.map((e) => e.ok));
		expect(countBy(errors, input.length)).toEqual(kind.expected.map((e) => e.failed));
		for (const o of errors) {
			const error = o.json.error as IDataObject;
			expect(typeof error).toBe('object');
			expect(String(error.message)).toMatch(kind.message);
		}
	});

	test('Continue (regular output): the same items on the one output, each failure with its members at the top, as before', async () => {
		const input = kind.input();
		kind.arrange?.(input);
		const result = await env.run([kind.step('continueRegularOutput')], input);
		expectNoError(result);
		const out = result.output('Op', 0, 0);
		const failures = out.filter((o) => o.json.error !== undefined);
		expect(
			countBy(
				out.filter((o) => o.json.error === undefined),
				input.length,
			),
		).toEqual(kind.expected.map((e) => e.ok));
		expect(countBy(failures, input.length)).toEqual(kind.expected.map((e) => e.failed));
		for (const o of failures) expect(String(o.json.error)).toMatch(kind.message);
	});
});

test('the error output holds the same members as the regular output, under error', async () => {
	const kind = KINDS[2][1];
	const regular = await env.run([kind.step('continueRegularOutput')], kind.input());
	const routed = await env.run([kind.step('continueErrorOutput')], kind.input());
	const { error, ...rest } = regular.output('Op', 0, 0)[1].json;
	expect(routed.output('Op', 0, 1)[0].json.error).toEqual({ message: error, ...rest });
});

// last: the block it meets stays on this file's pacer for the block's length
test('a rate-limit block: the blocked item and the items not sent on the error output, each paired, the done one on the main output', async () => {
	const step = items(
		'Op',
		{ operation: 'get', item_id: byId('={{ $json.v }}'), options: { requestsInFlight: 1 } },
		{ onError: 'continueErrorOutput' },
	);
	let seen = 0;
	env.em.faults.next(
		1,
		{ kind: 'status', status: 429, retryAfter: 3600 },
		(r) => r.operation === 'books.item.get' && ++seen === 2,
	);
	const result = await env.run(
		[step],
		[DEMO.items.consulting, DEMO.items.design, DEMO.items.hosting].map((v) => ({ v })),
	);
	expectNoError(result);
	expect(result.output('Op', 0, 0).map(itemOf)).toEqual([0]);
	const errors = result.output('Op', 0, 1);
	expect(errors.map(itemOf)).toEqual([1, 2]);
	for (const o of errors)
		expect(String((o.json.error as IDataObject).message)).toMatch(/blocks further requests until/);
});
