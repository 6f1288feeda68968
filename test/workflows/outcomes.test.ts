/**
 * An outcome is reported as the API gave it, end to end on n8n's engine against the emulator:
 * - Bulk Reminder: one item per invoice, `sent` true / false / null (unknown) as the `info`
 *   answer says (the Accounting document, "Bulk reminder info"), with the answer's `code` and `message`;
 * - a code-0 answer whose message says the value passed for a field of the operation is
 *   invalid is an error (the Accounting document, "Errors");
 * - an envelope-only answer is output as given, `{ code, message }`.
 * Answers the emulator does not give by itself (a count of 0 with no error entry, a failure
 * code, a count that does not add up) come from its existing way to answer a route with a
 * given body: the `html` fault with a JSON content type (nothing is processed).
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const estimates = env.orgSteps('vendorBooks', { resource: 'estimate' });
const items = env.orgSteps('vendorBooks', { resource: 'item' });
const onError = { onError: 'continueRegularOutput' } as const;
afterEach(() => env.em.faults.clear());

const I = DEMO.invoices;
const remind = (ids: string[], settings?: typeof onError, parameters: IDataObject = {}) =>
	invoices(
		'Remind',
		{ operation: 'bulkReminder', invoice_ids: ids.join(','), ...parameters },
		settings,
	);

/** The next `n` calls of `operation` answer `body` (HTTP 200, JSON) without being processed. */
function answerWith(body: IDataObject, operation = 'books.invoice.bulkReminder', n = 1): void {
	env.em.faults.next(
		n,
		{
			kind: 'html',
			status: 200,
			contentType: 'application/json;charset=UTF-8',
			body: JSON.stringify(body),
		},
		operation,
	);
}
const reminderAnswer = (info: IDataObject): IDataObject => ({ code: 0, message: 'success', info });

/** Reminders the emulator recorded for these invoices since `since` mails. */
const remindersFor = (ids: string[], since: number) =>
	env
		.orgTenant()
		.mails.slice(since)
		.filter((m) => m.kind === 'reminder' && ids.includes(String(m.invoiceId)))
		.map((m) => String(m.invoiceId));

describe('Bulk Reminder reports each invoice as the answer says', () => {
	test("all sent: sent true with the answer's code and message, with and without Continue On Fail", async () => {
		const ids = [I.overdue1, I.overdue2, I.sent];
		for (const settings of [undefined, onError]) {
			const before = env.orgTenant().mails.length;
			const result = await env.run([remind(ids, settings)]);
			expectNoError(result);
			const message = 'Payment reminders have been sent for 3 invoice(s).';
			expect(json(result, 'Remind')).toEqual(
				ids.map((invoice_id) => ({ invoice_id, sent: true, code: 0, message })),
			);
			expect(remindersFor(ids, before).sort()).toEqual([...ids].sort());
		}
	});

	test('partial errors (info.code 1, the named ones refused): the others sent, the refused ones not; without Continue On Fail an error saying what was sent', async () => {
		const ids = [I.overdue1, I.paid1, I.draft, I.overdue2];
		const refusal = 'Payment reminders can be sent only for open or overdue invoices.';
		const message = 'Payment reminders have been sent for 2 invoice(s).';

		const lenient = await env.run([remind(ids, onError)]);
		expectNoError(lenient);
		expect(json(lenient, 'Remind')).toEqual([
			{ invoice_id: I.overdue1, sent: true, code: 1, message },
			{ invoice_id: I.paid1, sent: false, error: refusal, code: 1, message },
			{ invoice_id: I.draft, sent: false, error: refusal, code: 1, message },
			{ invoice_id: I.overdue2, sent: true, code: 1, message },
		]);

		const before = env.orgTenant().mails.length;
		const strict = await env.run([remind(ids)]);
		const error = strict.error('Remind') as (Error & { description?: string }) | undefined;
		expect(error?.message).toBe(
			`Payment reminders not sent for 2 invoice(s): ${I.paid1}, ${I.draft} [item 0]`,
		);
		expect(error?.description).toContain(`2 reminder(s) were sent (${I.overdue1}, ${I.overdue2})`);
		expect(error?.description).toContain(`${I.paid1}: ${refusal}`);
		expect(error?.description).toContain('info.code 1');
		// what the error says was sent was sent
		expect(remindersFor(ids, before).sort()).toEqual([I.overdue1, I.overdue2].sort());
	});

	test("sent_count 0 with no error entry and info.code 1001: nothing is reported sent; an error naming the API's code and message", async () => {
		const ids = [I.overdue1, I.overdue2];
		const info = {
			code: 1001,
			email_success_info: { message: 'Reminders are switched off.', sent_count: 0 },
			email_errors_info: [],
		};

		answerWith(reminderAnswer(info));
		const strict = await env.run([remind(ids)]);
		expect(strict.error('Remind')?.message).toBe(
			'No payment reminder was sent for 2 invoice(s): the Vendor API answered info.code 1001, "Reminders are switched off.", sent_count 0 [item 0]',
		);
		expect(strict.output('Remind')).toEqual([]);

		answerWith(reminderAnswer(info));
		const lenient = await env.run([remind(ids, onError)]);
		expectNoError(lenient);
		const why =
			'Not sent: the answer counts 0 reminders sent (info.code 1001, "Reminders are switched off.", sent_count 0)';
		expect(json(lenient, 'Remind')).toEqual(
			ids.map((invoice_id) => ({
				invoice_id,
				sent: false,
				error: why,
				code: 1001,
				message: 'Reminders are switched off.',
			})),
		);
	});

	test('the brief\'s answer {code: 1001, sent_count 0, no errors, no message} is never "sent"', async () => {
		answerWith(
			reminderAnswer({ code: 1001, email_success_info: { sent_count: 0 }, email_errors_info: [] }),
		);
		const result = await env.run([remind([I.overdue3], onError)]);
		expect(json(result, 'Remind')).toEqual([
			{
				invoice_id: I.overdue3,
				sent: false,
				error: 'Not sent: the answer counts 0 reminders sent (info.code 1001, sent_count 0)',
				code: 1001,
			},
		]);
	});

	test("every invoice refused by the API (the emulator's own answer, sent_count 0): an error naming the API's messages; per-invoice failures with Continue On Fail", async () => {
		const ids = [I.paid1, I.paid2];
		const strict = await env.run([remind(ids)]);
		expect(strict.error('Remind')?.message).toBe(
			`No payment reminder was sent for 2 invoice(s): the Vendor API answered info.code 1, "Payment reminders have been sent for 0 invoice(s).", sent_count 0, "Payment reminders can be sent only for open or overdue invoices." (ids ${I.paid1}, ${I.paid2}) [item 0]`,
		);
		const lenient = await env.run([remind(ids, onError)]);
		expect(json(lenient, 'Remind').map((o) => [o.invoice_id, o.sent, o.code])).toEqual([
			[I.paid1, false, 1],
			[I.paid2, false, 1],
		]);
	});

	test('info.code not 0 and no error entry names an invoice, though sent_count covers them: outcome unknown (sent null), never sent', async () => {
		const ids = [I.overdue1, I.overdue2];
		const info = {
			code: 1001,
			email_success_info: {
				message: 'Payment reminders have been sent for 2 invoice(s).',
				sent_count: 2,
			},
			email_errors_info: [],
		};
		answerWith(reminderAnswer(info));
		const lenient = await env.run([remind(ids, onError)]);
		expectNoError(lenient);
		const out = json(lenient, 'Remind');
		expect(out.map((o) => [o.invoice_id, o.sent, o.code, o.message])).toEqual(
			ids.map((id) => [id, null, 1001, info.email_success_info.message]),
		);
		for (const o of out)
			expect(o.error).toMatch(
				/^Outcome unknown: the answer's info.code is not 0 and no entry of email_errors_info names an invoice, yet it counts 2 sent of 2/,
			);

		answerWith(reminderAnswer(info));
		const strict = await env.run([remind(ids)]);
		expect(strict.error('Remind')?.message).toBe(
			`Payment reminders: outcome unknown for 2 invoice(s): ${ids.join(', ')} [item 0]`,
		);
		expect((strict.error('Remind') as { description?: string }).description).toMatch(
			/^0 reminder\(s\) were sent\. /,
		);
	});

	test('sent_count smaller than the invoices not named in errors: which were sent cannot be told, so those are unknown; the named one is not sent', async () => {
		const ids = [I.overdue1, I.overdue2, I.overdue3];
		answerWith(
			reminderAnswer({
				code: 1,
				email_success_info: {
					message: 'Payment reminders have been sent for 1 invoice(s).',
					sent_count: 1,
				},
				email_errors_info: [{ message: 'The customer has no e-mail address.', ids: [I.overdue3] }],
			}),
		);
		const result = await env.run([remind(ids, onError)]);
		expectNoError(result);
		const out = json(result, 'Remind');
		expect(out.map((o) => [o.invoice_id, o.sent])).toEqual([
			[I.overdue1, null],
			[I.overdue2, null],
			[I.overdue3, false],
		]);
		expect(out[0].error).toMatch(
			/^Outcome unknown: the answer counts 1 sent of the 2 invoice\(s\) it does not name as not sent, so which were sent cannot be told/,
		);
		expect(out[2].error).toBe('The customer has no e-mail address.');
		expect(
			out.every(
				(o) => o.code === 1 && o.message === 'Payment reminders have been sent for 1 invoice(s).',
			),
		).toBe(true);
	});

	test('an answer without info (its documented record) is no evidence: outcome unknown, never a success, not repeated', async () => {
		answerWith({ code: 0, message: 'success' });
		const result = await env.run([remind([I.overdue1])]);
		expect(result.error('Remind')?.message).toBe(
			'Outcome unknown: the write may have been processed. Check the record before running again: the Vendor API answered without the info its documented answer carries (code 0: "success") [item 0]',
		);
		expect((result.error('Remind') as { description?: string }).description).toContain(
			'It was not repeated',
		);
		expect(
			env.apiRequests().filter((r) => r.operation === 'books.invoice.bulkReminder'),
		).toHaveLength(1);
	});

	test('calls of 10 in order: one call answered "none sent" among real ones keeps every invoice\'s own outcome', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) ids.push((await env.newInvoice(DEMO.customers.acme, 10 + i)).id);
		for (const id of ids) env.orgTenant().get('invoices', id)!.status = 'sent';
		env.em.clearRequests();
		// one call at a time, so the canned answer is the first call's
		answerWith(
			reminderAnswer({
				code: 1001,
				email_success_info: { message: 'Not now.', sent_count: 0 },
				email_errors_info: [],
			}),
		);
		const result = await env.run([remind(ids, onError, { options: { requestsInFlight: 1 } })]);
		expectNoError(result);
		expect(env.apiRequests().map((r) => r.query.invoice_ids.split(',').length)).toEqual([10, 2]);
		expect(env.apiRequests().flatMap((r) => r.query.invoice_ids.split(','))).toEqual(ids);
		const out = json(result, 'Remind');
		expect(out.map((o) => o.invoice_id)).toEqual(ids);
		expect(out.map((o) => o.sent)).toEqual([...Array(10).fill(false), true, true]);
		expect(out.slice(10).every((o) => o.code === 0)).toBe(true);
		expect(out.slice(0, 10).every((o) => o.code === 1001 && o.message === 'Not now.')).toBe(true);
	});
});

describe('a failure inside a code-0 answer is an error (the Accounting document, "Errors")', () => {
	test('Estimate -> Print with an unknown id: the emulator answers code 0 "Invalid value passed for estimate_ids"; the node fails naming the message and the ids', async () => {
		const ids = [DEMO.estimates.sent, '1399999999999'];
		const result = await env.run([
			estimates('Print', { operation: 'print', estimate_ids: ids.join(',') }),
		]);
		const [call] = env.apiRequests();
		expect([call.status, call.query.estimate_ids]).toEqual([200, ids.join(',')]);
		const error = result.error('Print') as (Error & { description?: string }) | undefined;
		expect(error?.message).toBe(
			'The Vendor API refused the estimate_ids sent: Invalid value passed for estimate_ids (code 0) [item 0]',
		);
		expect(error?.description).toContain(`Sent estimate_ids: ${ids.join(',')}.`);
		expect(result.output('Print')).toEqual([]);
	});

	test('Invoice -> Print with Continue On Fail: an error item for the refused input item, the good item printed', async () => {
		const result = await env.run(
			[invoices('Print', { operation: 'print', invoice_ids: '={{ $json.ids }}' }, onError)],
			[{ ids: `${I.sent},1499999999999` }, { ids: I.viewed }],
		);
		expectNoError(result);
		const out = result.output('Print');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json).toMatchObject({
			error:
				'The Vendor API refused the invoice_ids sent: Invalid value passed for invoice_ids (code 0) [item 0]',
			description: expect.stringContaining(`Sent invoice_ids: ${I.sent},1499999999999.`),
			httpCode: '200',
		});
		expect(out[1].json).toEqual({ code: 0, message: 'success', invoice_ids: [I.viewed] });
	});

	test("a print split into calls of 25 with an unknown id in the second call: the first call's 25 ids are done, the refused one is not, by id", async () => {
		const made: string[] = [];
		for (let i = 0; i < 25; i++) made.push((await env.newInvoice(DEMO.customers.acme, 10 + i)).id);
		const ids = [...made, '1499999999999'];
		env.em.clearRequests();
		const result = await env.run([
			invoices('Print', {
				operation: 'print',
				invoice_ids: ids.join(','),
				options: { requestsInFlight: 1 },
			}),
		]);
		expect(env.apiRequests()).toHaveLength(2);
		const error = result.error('Print') as (Error & { description?: string }) | undefined;
		expect(error?.message).toBe(
			'Not done for 1 of 26 invoice_ids: The Vendor API refused the invoice_ids sent: Invalid value passed for invoice_ids (code 0) [item 0]',
		);
		expect(error?.description).toContain(`Done (25): ${made.join(', ')}.`);
		expect(error?.description).toContain('Not done (1): 1499999999999.');

		const lenient = await env.run([
			invoices(
				'Print',
				{ operation: 'print', invoice_ids: ids.join(','), options: { requestsInFlight: 1 } },
				onError,
			),
		]);
		expectNoError(lenient);
		expect(json(lenient, 'Print')).toEqual([
			{ code: 0, message: 'success', invoice_ids: made },
			{
				invoice_id: '1499999999999',
				sent: false,
				error:
					'Not done: The Vendor API refused the invoice_ids sent: Invalid value passed for invoice_ids (code 0)',
			},
		]);
	});

	test('the rule follows the operation\'s table, not one operation: Disable Reminder and Bulk Reminder answered "Invalid value passed for" their own field fail; a field the operation does not have is refused too', async () => {
		answerWith(
			{ code: 0, message: 'Invalid value passed for invoice_id' },
			'books.invoice.disableReminder',
		);
		const disable = await env.run([
			invoices('Disable', { operation: 'disableReminder', invoice_id: byId(I.overdue3) }),
		]);
		expect(disable.error('Disable')?.message).toBe(
			'The Vendor API refused the invoice_id sent: Invalid value passed for invoice_id (code 0) [item 0]',
		);

		answerWith({ code: 0, message: 'Invalid value passed for invoice_ids' });
		const bulk = await env.run([remind([I.overdue1, I.overdue2])]);
		expect(bulk.error('Remind')?.message).toBe(
			'The Vendor API refused the invoice_ids sent: Invalid value passed for invoice_ids (code 0) [item 0]',
		);
		expect((bulk.error('Remind') as { description?: string }).description).toContain(
			`Sent invoice_ids: ${I.overdue1},${I.overdue2}.`,
		);

		// the wording is not documented: a field the operation does not have is a refusal too
		answerWith(
			{ code: 0, message: 'Invalid value passed for estimate_ids' },
			'books.invoice.disableReminder',
		);
		const other = await env.run([
			invoices('Disable', { operation: 'disableReminder', invoice_id: byId(I.overdue3) }),
		]);
		expect(other.error('Disable')?.message).toBe(
			'The Vendor API refused the request: Invalid value passed for estimate_ids (code 0) [item 0]',
		);
	});
});

describe('an envelope-only answer is output as the API gave it', () => {
	test('Item -> Mark Active and Invoice -> Disable Reminder: { code: 0, message }, no success key', async () => {
		const result = await env.run([
			items('Active', { operation: 'markActive', item_id: byId(DEMO.items.legacySupport) }),
			invoices('Disable', { operation: 'disableReminder', invoice_id: byId(I.overdue3) }),
		]);
		expectNoError(result);
		expect(json(result, 'Active')).toEqual([
			{ code: 0, message: 'The item has been marked as active.' },
		]);
		expect(json(result, 'Disable')).toEqual([{ code: 0, message: 'Reminders stopped.' }]);
		expect(env.orgTenant().get('items', DEMO.items.legacySupport)?.status).toBe('active');
		expect(env.orgTenant().get('invoices', I.overdue3)?.payment_reminder_enabled).toBe(false);
	});

	test('an envelope with another code 0 message is kept word for word', async () => {
		answerWith({ code: 0, message: 'Nothing to do.' }, 'books.item.markInactive');
		const result = await env.run([
			items('Inactive', { operation: 'markInactive', item_id: byId(DEMO.items.hosting) }),
		]);
		expectNoError(result);
		expect(json(result, 'Inactive')).toEqual([{ code: 0, message: 'Nothing to do.' }]);
	});
});
