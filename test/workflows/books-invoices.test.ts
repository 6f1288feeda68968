/** Vendor Books irregular invoice operations, end to end on n8n's engine against the emulator. */
import { apiClient } from '../emulator/server';
import { binaryItem, readBinary } from '../harness';
import { expectNoError, json, steps, WorkflowEnv } from './support';

const env = new WorkflowEnv();
let org: string;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
	await env.start({ demo: true });
	org = env.em.organizationId;
	books = steps('vendorBooks', { organizationId: org, resource: 'invoice' });
	call = apiClient(env.em, { token: String(env.storedToken.access_token) });
});
afterAll(async () => await env.stop());
beforeEach(() => env.em.clearRequests());

let books: ReturnType<typeof steps>;

async function newInvoice(status: string): Promise<string> {
	const customer = env.em.store.org('us', org)!.all('customers')[0].customer_id as string;
	const res = await call('POST', 'books', '/invoices', { json: { customer_id: customer, line_items: [{ name: 'Work', rate: 100, quantity: 1 }] } });
	const id = String(res.body.invoice.invoice_id);
	env.em.store.org('us', org)!.get('invoices', id)!.status = status;
	return id;
}

test('bulk reminders: 23 invoice ids -> 3 calls of at most 10 and 23 output items, two failures reported per invoice', async () => {
	const ids: string[] = [];
	for (let i = 0; i < 23; i++) ids.push(await newInvoice(i === 4 || i === 17 ? 'paid' : 'sent'));
	env.em.clearRequests();

	const result = await env.run(
		[books('Remind', { operation: 'bulkReminder', invoice_ids: ids.join(',') }, { onError: 'continueRegularOutput' })],
	);
	expectNoError(result);
	const calls = env.apiRequests();
	expect(calls.map((r) => [r.method, r.path, r.query.invoice_ids.split(',').length])).toEqual([
		['POST', '/us/api/books/v3/invoices/paymentreminder', 10],
		['POST', '/us/api/books/v3/invoices/paymentreminder', 10],
		['POST', '/us/api/books/v3/invoices/paymentreminder', 3],
	]);
	expect(calls.flatMap((r) => r.query.invoice_ids.split(','))).toEqual(ids);
	const out = json(result, 'Remind');
	expect(out.map((o) => o.invoice_id)).toEqual(ids);
	expect(out.filter((o) => o.sent === true)).toHaveLength(21);
	const failures = out.filter((o) => o.sent === false);
	expect(failures.map((o) => o.invoice_id)).toEqual([ids[4], ids[17]]);
	for (const f of failures) expect(String(f.error)).toMatch(/open or overdue|cannot|not/i);
	expect(result.output('Remind').every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	// the emulator really sent 21 reminders
	const reminded = env.em.store.org('us', org)!.mails.filter((m) => m.kind === 'reminder' && ids.includes(m.invoiceId));
	expect(reminded.map((m) => m.invoiceId).sort()).toEqual(ids.filter((_, i) => i !== 4 && i !== 17).sort());

	// without continueOnFail the failures stop the workflow, naming the invoices
	const strict = await env.run([books('Remind', { operation: 'bulkReminder', invoice_ids: [ids[4], ids[0]].join(',') })]);
	expect(strict.error('Remind')?.message).toBe(`Payment reminders failed for 1 invoice(s): ${ids[4]}`);
});

test('create an invoice from an accepted estimate: invoiced_estimate_id and the estimate lines are sent', async () => {
	const estimates = await call('GET', 'books', '/estimates', { query: { status: 'accepted' } });
	const estimate = estimates.body.estimates[0];
	const full = (await call('GET', 'books', `/estimates/${estimate.estimate_id}`)).body.estimate;
	env.em.clearRequests();

	const result = await env.run([
		books('From estimate', {
			operation: 'createFromEstimate',
			estimate_id: { __rl: true, mode: 'id', value: String(estimate.estimate_id) },
			additionalFields: { date: '2026-11-21', payment_terms: 15 },
		}),
	]);
	expectNoError(result);
	const [read, create] = env.apiRequests();
	expect([read.method, read.path]).toEqual(['GET', `/us/api/books/v3/estimates/${estimate.estimate_id}`]);
	expect([create.method, create.path, create.query]).toEqual(['POST', '/us/api/books/v3/invoices', { organization_id: org }]);
	const body = create.body as Record<string, unknown> & { line_items: Array<Record<string, unknown>> };
	expect(body).toMatchObject({ customer_id: full.customer_id, invoiced_estimate_id: String(estimate.estimate_id), date: '2026-11-21', payment_terms: 15 });
	expect(body.line_items.map((l) => [l.item_id, l.name, l.rate, l.quantity])).toEqual(
		(full.line_items as Array<Record<string, unknown>>).map((l) => [l.item_id, l.name, l.rate, l.quantity]),
	);
	const invoice = json(result, 'From estimate')[0];
	expect(invoice).toMatchObject({ customer_id: full.customer_id, total: full.total });
	expect(String(invoice.invoice_id)).toMatch(/^\d+$/);
});

test('PDF of 60 invoices: three calls of at most 25 ids and three PDF files, each its own binary item', async () => {
	const ids: string[] = [];
	for (let i = 0; i < 60; i++) ids.push(await newInvoice('sent'));
	env.em.clearRequests();
	const result = await env.run([books('PDF', { operation: 'getPdf', invoice_ids: ids.join(','), binaryPropertyName: 'pdf' })]);
	expectNoError(result);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query.invoice_ids.split(',').length])).toEqual([
		['GET', '/us/api/books/v3/invoices/pdf', 25],
		['GET', '/us/api/books/v3/invoices/pdf', 25],
		['GET', '/us/api/books/v3/invoices/pdf', 10],
	]);
	const files = result.output('PDF');
	expect(files).toHaveLength(3);
	expect(files.map((f) => [f.binary?.pdf.fileName, f.binary?.pdf.mimeType])).toEqual([
		['invoices-1.pdf', 'application/pdf'],
		['invoices-2.pdf', 'application/pdf'],
		['invoices-3.pdf', 'application/pdf'],
	]);
	for (const f of files) expect((await readBinary(f, 'pdf')).subarray(0, 5).toString()).toBe('%PDF-');
	expect(files.map((f) => (f.json.invoice_ids as string[]).length)).toEqual([25, 25, 10]);
});

test('an attachment with extension .exe is refused before sending; a .png is uploaded as multipart', async () => {
	const id = await newInvoice('sent');
	env.em.clearRequests();
	const upload = (file: string) =>
		env.run(
			[books('Attach', { operation: 'uploadAttachment', invoice_id: { __rl: true, mode: 'id', value: id }, binaryPropertyName: 'data' }, { onError: 'continueRegularOutput' })],
			[binaryItem(Buffer.from('file bytes'), file, file.endsWith('.png') ? 'image/png' : 'application/octet-stream')],
		);
	const refused = await upload('setup.exe');
	expect(json(refused, 'Attach')[0].error).toBe('The file "setup.exe" has the extension ".exe", which the API does not accept for "attachment": allowed are .gif, .png, .jpeg, .jpg, .bmp, .pdf');
	expect(env.apiRequests()).toHaveLength(0);

	const accepted = await upload('receipt.png');
	expectNoError(accepted);
	expect(json(accepted, 'Attach')[0]).toMatchObject({ success: true });
	const [req] = env.apiRequests();
	expect([req.method, req.path, req.headers['content-type']]).toEqual(['POST', `/us/api/books/v3/invoices/${id}/attachment`, expect.stringMatching(/^multipart\/form-data; boundary=/)]);
	const stored = await call('GET', 'books', `/invoices/${id}/attachment`);
	expect(stored.buffer.toString()).toBe('file bytes');
});
