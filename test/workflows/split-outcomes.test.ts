/**
 * An item whose ids go out in several calls keeps every call's outcome (only what the API showed),
 * end to end on n8n's engine against the emulator: a failed call does not erase the others'
 * work. Bulk Reminder of 25 invoices (calls of 10, 10 and 5) with one call failing reports the
 * invoices of the other calls as sent and those of the failed call as not sent (refused) or of
 * unknown outcome (a 500, a dropped connection), by id, with and without Continue On Fail; an
 * id given twice is sent once and reported once.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Fault, FaultTarget } from '../../emulator/faults';
import { DEMO } from '../../emulator/demo-data';
import { expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const onError = { onError: 'continueRegularOutput' } as const;
afterEach(() => env.em.faults.clear());

/** The `n`th Bulk Reminder call (1-based, calls made one at a time) meets `fault`. */
function failCall(n: number, fault: Fault): void {
	let seen = 0;
	env.em.faults.next(
		1,
		fault,
		(req: FaultTarget) => req.operation === 'books.invoice.bulkReminder' && ++seen === n,
	);
}

/** Invoices the emulator e-mailed a reminder for since mail number `since`. */
const remindedSince = (since: number): string[] =>
	env
		.orgTenant()
		.mails.slice(since)
		.filter((m) => m.kind === 'reminder')
		.map((m) => String(m.invoiceId));

const remind = (ids: string[], settings?: typeof onError) =>
	invoices(
		'Remind',
		{ operation: 'bulkReminder', invoice_ids: ids.join(','), options: { requestsInFlight: 1 } },
		settings,
	);

const ids: string[] = [];
beforeAll(async () => {
	for (let i = 0; i < 25; i++) ids.push((await env.newInvoice(DEMO.customers.acme, 20 + i)).id);
	// reminders go to open invoices only
	for (const id of ids) env.orgTenant().get('invoices', id)!.status = 'sent';
});

const FAILURES: Array<[string, Fault, boolean | null]> = [
	['a 500 (the write may have been processed)', { kind: 'status', status: 500 }, null],
	['a dropped connection', { kind: 'drop' }, null],
	[
		'a refusal (HTTP 400, code 1)',
		{
			kind: 'html',
			status: 400,
			contentType: 'application/json',
			body: JSON.stringify({ code: 1, message: 'Refused for this test.' }),
		},
		false,
	],
];

describe.each(FAILURES)(
	'Bulk Reminder of 25 invoices, one call meeting %s',
	(_name, fault, undoneSent) => {
		test.each([2, 3])(
			"call %i failing: the other calls' invoices sent, the failed call's reported by id, with Continue On Fail",
			async (call) => {
				const undone = call === 2 ? ids.slice(10, 20) : ids.slice(20);
				const sent = ids.filter((id) => !undone.includes(id));
				failCall(call, fault);
				const before = env.orgTenant().mails.length;
				const result = await env.run([remind(ids, onError)]);
				expectNoError(result);
				const out = json(result, 'Remind');
				expect(out.map((o) => o.invoice_id)).toEqual(ids);
				expect(out.filter((o) => o.sent === true).map((o) => o.invoice_id)).toEqual(sent);
				const failed = out.filter((o) => o.sent !== true);
				expect(failed.map((o) => [o.invoice_id, o.sent])).toEqual(
					undone.map((id) => [id, undoneSent]),
				);
				for (const o of failed)
					expect(o.error).toMatch(
						undoneSent === null ? /^Outcome unknown/ : /^Not sent: .*Refused for this test/,
					);
				// the reminders that went out are those reported sent (a 500 here is the emulator's before processing)
				expect(remindedSince(before).sort()).toEqual([...sent].sort());
			},
		);

		test('call 2 failing without Continue On Fail: the error names the sent invoices and the others by id', async () => {
			failCall(2, fault);
			const result = await env.run([remind(ids)]);
			const error = result.error('Remind') as (Error & { description?: string }) | undefined;
			const undone = ids.slice(10, 20);
			expect(error?.message).toBe(
				`${undoneSent === null ? 'Payment reminders: outcome unknown' : 'Payment reminders not sent'} for 10 invoice(s): ${undone.join(', ')} [item 0]`,
			);
			expect(error?.description).toContain(
				`15 reminder(s) were sent (${[...ids.slice(0, 10), ...ids.slice(20)].join(', ')})`,
			);
		});
	},
);

test('an id given twice is sent once and reported once', async () => {
	const [a, b] = ids;
	env.em.clearRequests();
	const result = await env.run([
		invoices('Remind', { operation: 'bulkReminder', invoice_ids: `${a},${a},${b}` }),
	]);
	expectNoError(result);
	const calls = env.apiRequests().filter((r) => r.operation === 'books.invoice.bulkReminder');
	expect(calls.map((r) => (r.query as IDataObject).invoice_ids)).toEqual([`${a},${b}`]);
	expect(json(result, 'Remind').map((o) => [o.invoice_id, o.sent])).toEqual([
		[a, true],
		[b, true],
	]);
});

test('Print of the same id twice makes one call for it', async () => {
	const [a, b] = ids;
	env.em.clearRequests();
	const result = await env.run([
		invoices('Print', { operation: 'print', invoice_ids: `${a},${b},${a}` }),
	]);
	expectNoError(result);
	expect(env.apiRequests().map((r) => (r.query as IDataObject).invoice_ids)).toEqual([`${a},${b}`]);
	expect(json(result, 'Print')).toEqual([{ code: 0, message: 'success', invoice_ids: [a, b] }]);
});
