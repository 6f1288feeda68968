/** Vendor Books irregular invoice operations, end to end on n8n's engine against the emulator. */
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { DEMO } from '../../emulator/demo-data';
import type { Rec } from '../../emulator/store';
import { binaryItem, readBinary } from '../../harness';
import { byId, expectNoError, json } from '../../harness/workflows';
import { apiCall, fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const books = env.orgSteps('vendorBooks', { resource: 'invoice' });
let org: string;
beforeAll(() => (org = env.org));

const stored = (id: string): Rec => env.orgTenant().get('invoices', id)!;

/** Every request carried the stored token and the organisation (in the query), and succeeded. */
const expectSignedAndOk = (): void => env.expectSigned({ org: 'query', ok: true });

async function newInvoice(status: string): Promise<string> {
	const customer = env.orgTenant().all('customers')[0].customer_id as string;
	const res = await env.call('POST', 'books', '/invoices', {
		json: { customer_id: customer, line_items: [{ name: 'Work', rate: 100, quantity: 1 }] },
	});
	const id = String(res.body.invoice.invoice_id);
	stored(id).status = status;
	return id;
}

test('bulk reminders: 23 invoice ids -> 3 calls of at most 10 and 23 output items, two failures reported per invoice', async () => {
	const ids: string[] = [];
	for (let i = 0; i < 23; i++) ids.push(await newInvoice(i === 4 || i === 17 ? 'paid' : 'sent'));
	env.em.clearRequests();

	const result = await env.run([
		books(
			'Remind',
			{ operation: 'bulkReminder', invoice_ids: ids.join(',') },
			{ onError: 'continueRegularOutput' },
		),
	]);
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
	expect(result.output('Remind').every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(
		true,
	);
	// the emulator really sent 21 reminders
	const reminded = env
		.orgTenant()
		.mails.filter((m) => m.kind === 'reminder' && ids.includes(m.invoiceId));
	expect(reminded.map((m) => m.invoiceId).sort()).toEqual(
		ids.filter((_, i) => i !== 4 && i !== 17).sort(),
	);

	// without continueOnFail the failures stop the workflow, naming the invoices
	const strict = await env.run([
		books('Remind', { operation: 'bulkReminder', invoice_ids: [ids[4], ids[0]].join(',') }),
	]);
	expect(strict.error('Remind')?.message).toBe(
		`Payment reminders not sent for 1 invoice(s): ${ids[4]} [item 0]`,
	);
});

test('create an invoice from an accepted estimate: invoiced_estimate_id and the estimate lines are sent', async () => {
	const estimates = await env.call('GET', 'books', '/estimates', { query: { status: 'accepted' } });
	const estimate = estimates.body.estimates[0];
	const full = (await env.call('GET', 'books', `/estimates/${estimate.estimate_id}`)).body.estimate;
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
	expect([read.method, read.path]).toEqual([
		'GET',
		`/us/api/books/v3/estimates/${estimate.estimate_id}`,
	]);
	expect([create.method, create.path, create.query]).toEqual([
		'POST',
		'/us/api/books/v3/invoices',
		{ organization_id: org },
	]);
	const body = create.body as Record<string, unknown> & {
		line_items: Array<Record<string, unknown>>;
	};
	expect(body).toMatchObject({
		customer_id: full.customer_id,
		invoiced_estimate_id: String(estimate.estimate_id),
		date: '2026-11-21',
		payment_terms: 15,
	});
	expect(body.line_items.map((l) => [l.item_id, l.name, l.rate, l.quantity])).toEqual(
		(full.line_items as Array<Record<string, unknown>>).map((l) => [
			l.item_id,
			l.name,
			l.rate,
			l.quantity,
		]),
	);
	const invoice = json(result, 'From estimate')[0];
	expect(invoice).toMatchObject({ customer_id: full.customer_id, total: full.total });
	expect(String(invoice.invoice_id)).toMatch(/^\d+$/);
});

test('PDF of 60 invoices: three calls of at most 25 ids and three PDF files, each its own binary item', async () => {
	const ids: string[] = [];
	for (let i = 0; i < 60; i++) ids.push(await newInvoice('sent'));
	env.em.clearRequests();
	const result = await env.run([
		books('PDF', { operation: 'getPdf', invoice_ids: ids.join(','), binaryPropertyName: 'pdf' }),
	]);
	expectNoError(result);
	expect(
		env.apiRequests().map((r) => [r.method, r.path, r.query.invoice_ids.split(',').length]),
	).toEqual([
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
	for (const f of files)
		expect((await readBinary(f, 'pdf')).subarray(0, 5).toString()).toBe('%PDF-');
	expect(files.map((f) => (f.json.invoice_ids as string[]).length)).toEqual([25, 25, 10]);
});

test('an attachment with extension .exe is refused before sending; a .png is uploaded as multipart', async () => {
	const id = await newInvoice('sent');
	env.em.clearRequests();
	const upload = (file: string) =>
		env.run(
			[
				books(
					'Attach',
					{
						operation: 'uploadAttachment',
						invoice_id: { __rl: true, mode: 'id', value: id },
						binaryPropertyName: 'data',
					},
					{ onError: 'continueRegularOutput' },
				),
			],
			[
				binaryItem(
					Buffer.from('file bytes'),
					file,
					file.endsWith('.png') ? 'image/png' : 'application/octet-stream',
				),
			],
		);
	const refused = await upload('setup.exe');
	expect(json(refused, 'Attach')[0].error).toBe(
		'The file "setup.exe" has the extension ".exe", which the API does not accept for "attachment": allowed are .gif, .png, .jpeg, .jpg, .bmp, .pdf [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(0);

	const accepted = await upload('receipt.png');
	expectNoError(accepted);
	expect(json(accepted, 'Attach')).toEqual([{ code: 0, message: 'Your file has been attached.' }]);
	const [req] = env.apiRequests();
	expect([req.method, req.path, req.headers['content-type']]).toEqual([
		'POST',
		`/us/api/books/v3/invoices/${id}/attachment`,
		expect.stringMatching(/^multipart\/form-data; boundary=/),
	]);
	const stored = await env.call('GET', 'books', `/invoices/${id}/attachment`);
	expect(stored.buffer.toString()).toBe('file bytes');
});

test('create with lines, addresses, custom fields and Mexico pickers -> update omitting a line deletes it', async () => {
	const result = await env.run([
		books('Create', {
			operation: 'create',
			customer_id: DEMO.customers.initech,
			line_items: {
				values: [
					{
						item_id: DEMO.items.hosting,
						quantity: 12,
						rate: 49,
						additionalFields: { time_entry_ids: '501, 502', tax_treatment_code: 'ksa_pvt_edu' },
					},
					{
						name: 'Setup',
						quantity: 1,
						rate: 150,
						additionalFields: { tags: '[{"tag_id":"7001","tag_option_id":"7002"}]' },
					},
				],
			},
			additionalFields: {
				invoice_number: 'INV-X-1',
				date: '2026-11-01',
				payment_terms: 30,
				payment_terms_label: 'Net 30',
				allow_partial_payments: true,
				contact_persons: '9001,9002',
				billing_address: {
					values: {
						address: '1 Main St',
						street2: 'Suite 5',
						city: 'Austin',
						state: 'TX',
						zip: '73301',
						country: 'USA',
					},
				},
				custom_fields: { values: [{ customfield_id: '601', value: 'North' }] },
			},
			mexicoFields: { cfdi_usage: 'general_expense', cfdi_reference_type: 'cfdi_for_advance' },
			ukFields: { vat_treatment: 'uk' },
		}),
		books('Update', {
			operation: 'update',
			invoice_id: byId('={{ $json.invoice_id }}'),
			updateFields: {
				line_items: {
					values: [
						{ line_item_id: '={{ $json.line_items[1].line_item_id }}', quantity: 2, rate: 150 },
					],
				},
				reference_number: 'PO-5',
				reason: 'Hosting cancelled',
			},
		}),
	]);
	expectNoError(result);
	const invoice = json(result, 'Create')[0];
	const id = String(invoice.invoice_id);
	const lines = invoice.line_items as Rec[];
	expect(invoice).toMatchObject({
		invoice_number: 'INV-X-1',
		customer_name: 'Initech',
		status: 'draft',
		due_date: '2026-12-01',
		total: 738,
		balance: 738,
		cfdi_usage: 'general_expense',
		billing_address: { street2: 'Suite 5', city: 'Austin' },
		custom_fields: [{ customfield_id: '601', value: 'North' }],
	});
	const updated = json(result, 'Update')[0];
	expect(updated).toMatchObject({
		invoice_id: invoice.invoice_id,
		reference_number: 'PO-5',
		total: 300,
	});
	expect((updated.line_items as Rec[]).map((l) => [l.line_item_id, l.name, l.quantity])).toEqual([
		[lines[1].line_item_id, 'Setup', 2],
	]);
	expect(stored(id).line_items).toHaveLength(1);

	const [create, update] = env.apiRequests();
	expect([
		create.method,
		create.path,
		create.query,
		update.method,
		update.path,
		update.query,
	]).toEqual([
		'POST',
		'/us/api/books/v3/invoices',
		{ organization_id: org },
		'PUT',
		`/us/api/books/v3/invoices/${id}`,
		{ organization_id: org },
	]);
	const { line_items: sentLines, ...header } = create.body as Rec;
	expect(header).toEqual({
		customer_id: DEMO.customers.initech,
		invoice_number: 'INV-X-1',
		date: '2026-11-01',
		payment_terms: 30,
		payment_terms_label: 'Net 30',
		allow_partial_payments: true,
		contact_persons: ['9001', '9002'],
		billing_address: {
			address: '1 Main St',
			street2: 'Suite 5',
			city: 'Austin',
			state: 'TX',
			zip: '73301',
			country: 'USA',
		},
		custom_fields: [{ customfield_id: '601', value: 'North' }],
		cfdi_usage: 'general_expense',
		cfdi_reference_type: 'cfdi_for_advance',
		vat_treatment: 'uk',
	});
	expect(sentLines).toEqual([
		expect.objectContaining({
			item_id: DEMO.items.hosting,
			quantity: 12,
			rate: 49,
			time_entry_ids: ['501', '502'],
			tax_treatment_code: 'ksa_pvt_edu',
		}),
		expect.objectContaining({
			name: 'Setup',
			quantity: 1,
			rate: 150,
			tags: [{ tag_id: '7001', tag_option_id: '7002' }],
		}),
	]);
	expect(sentLines[1]).not.toHaveProperty('tax_treatment_code');
	expect(update.body).toEqual({
		line_items: [
			expect.objectContaining({
				line_item_id: String(lines[1].line_item_id),
				quantity: 2,
				rate: 150,
			}),
		],
		reference_number: 'PO-5',
		reason: 'Hosting cancelled',
	});
	expectSignedAndOk();
});

test('get many: the status filter form, sort and Return All across pages', async () => {
	for (let i = 0; i < 203; i++) await newInvoice('overdue');
	env.em.clearRequests();
	const result = await env.run([
		books('List', {
			operation: 'getAll',
			returnAll: true,
			filters: {
				filter_by: 'Status.OverDue',
				sort_column: 'invoice_number',
				sort_order: 'D',
				item_name_contains: 'work',
			},
		}),
	]);
	expectNoError(result);
	const out = json(result, 'List');
	expect(out).toHaveLength(203);
	expect(out.every((i) => i.status === 'overdue')).toBe(true);
	const numbers = out.map((i) => String(i.invoice_number));
	expect(numbers).toEqual([...numbers].sort().reverse());
	expect(out[0]).not.toHaveProperty('line_items');
	expect(out[0]).toEqual(
		expect.objectContaining({
			balance: 100,
			total: 100,
			customer_id: expect.any(String),
			due_date: expect.any(String),
		}),
	);
	const query = {
		filter_by: 'Status.OverDue',
		sort_column: 'invoice_number',
		sort_order: 'D',
		item_name_contains: 'work',
		per_page: '200',
		organization_id: org,
	};
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
		['GET', '/us/api/books/v3/invoices', { ...query, page: '1' }],
		['GET', '/us/api/books/v3/invoices', { ...query, page: '2' }],
	]);
	expectSignedAndOk();

	env.em.clearRequests();
	const paid = await env.run([
		books('List', {
			operation: 'getAll',
			limit: 10,
			filters: {
				status: 'paid',
				sort_column: 'total',
				due_date_before: '2099-01-01',
				invoice_number_startswith: 'INV-0000',
			},
		}),
	]);
	expect(json(paid, 'List').map((i) => i.invoice_id)).toEqual([
		DEMO.invoices.paid2,
		DEMO.invoices.paid1,
	]);
	expect(env.apiRequests()[0].query).toEqual({
		status: 'paid',
		sort_column: 'total',
		due_date_before: '2099-01-01',
		invoice_number_startswith: 'INV-0000',
		page: '1',
		per_page: '10',
		organization_id: org,
	});
});

test('e-mail: get the prepared content, then send it; the documented body is sent', async () => {
	const id = DEMO.invoices.draft;
	const result = await env.run([
		books('Content', { operation: 'getEmailContent', invoice_id: byId(id) }),
		books('Send', {
			operation: 'sendEmail',
			invoice_id: byId(id),
			to_mail_ids: '={{ $json.to_mails_str }}',
			additionalFields: {
				cc_mail_ids: 'boss@acme.example',
				subject: '={{ $json.subject }}',
				body: '<p>See attached</p>',
				send_from_org_email_id: true,
			},
		}),
	]);
	expectNoError(result);
	const content = json(result, 'Content')[0];
	expect(content).toMatchObject({
		to_mails_str: 'billing@acme.example',
		file_name: 'INV-00007.pdf',
		customer_id: DEMO.customers.acme,
		entity_id: id,
	});
	expect(content.subject).toMatch(/^Invoice - INV-00007 from /);
	expect(json(result, 'Send')).toEqual([{ code: 0, message: 'Your invoice has been sent.' }]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: `/books/v3/invoices/${id}/email`,
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'POST',
			path: `/books/v3/invoices/${id}/email`,
			query: { organization_id: org },
			body: {
				to_mail_ids: ['billing@acme.example'],
				cc_mail_ids: ['boss@acme.example'],
				subject: content.subject,
				body: '<p>See attached</p>',
				send_from_org_email_id: true,
			},
		},
	]);
	expectSignedAndOk();
	expect(env.orgTenant().mails.at(-1)).toMatchObject({
		kind: 'invoice',
		invoiceId: id,
		to: ['billing@acme.example'],
		cc: ['boss@acme.example'],
	});
	expect(stored(id)).toMatchObject({ is_emailed: true, status: 'sent' });
});

test('payment reminder: content, send, disable; a paid invoice is refused with the API message', async () => {
	const id = DEMO.invoices.overdue2;
	const result = await env.run([
		books('Content', { operation: 'getReminderContent', invoice_id: byId(id) }),
		books('Remind', {
			operation: 'sendReminder',
			invoice_id: byId(id),
			to_mail_ids: 'ap@globex.example',
			additionalFields: { subject: 'Friendly reminder' },
		}),
		books('Disable', { operation: 'disableReminder', invoice_id: byId(id) }),
	]);
	expectNoError(result);
	expect(json(result, 'Content')[0]).toMatchObject({
		subject: 'Payment reminder for invoice INV-00002',
		to_mails_str: 'ap@globex.example',
		entity_id: id,
	});
	expect(json(result, 'Remind')).toEqual([
		{ code: 0, message: 'Your payment reminder has been sent.' },
	]);
	expect(json(result, 'Disable')).toEqual([{ code: 0, message: 'Reminders stopped.' }]);
	const base = `/books/v3/invoices/${id}/paymentreminder`;
	expect(env.apiRequests().map(apiCall)).toEqual([
		{ method: 'GET', path: base, query: { organization_id: org }, body: undefined },
		{
			method: 'POST',
			path: base,
			query: { organization_id: org },
			body: { to_mail_ids: ['ap@globex.example'], subject: 'Friendly reminder' },
		},
		{ method: 'POST', path: `${base}/disable`, query: { organization_id: org }, body: undefined },
	]);
	expectSignedAndOk();
	expect(stored(id)).toMatchObject({ reminders_sent: 1, payment_reminder_enabled: false });

	const refused = await env.run([
		books('Remind', { operation: 'sendReminder', invoice_id: byId(DEMO.invoices.paid1) }),
	]);
	expect(refused.error('Remind')?.message).toBe(
		'Payment reminders can be sent only for open or overdue invoices; invoice INV-00004 is paid. (code 3) [item 0]',
	);
});

test('print: ids joined by commas, more than 25 split into calls of 25, each answer with the ids it answers for', async () => {
	const ids: string[] = [...Object.values(DEMO.invoices)];
	while (ids.length < 27) ids.push((await env.newInvoice(DEMO.customers.acme, 10 + ids.length)).id);
	env.em.clearRequests();
	const result = await env.run([
		books('Print', { operation: 'print', invoice_ids: ids.join(',') }),
	]);
	expectNoError(result);
	expect(json(result, 'Print')).toEqual([
		{ code: 0, message: 'success', invoice_ids: ids.slice(0, 25) },
		{ code: 0, message: 'success', invoice_ids: ids.slice(25) },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/invoices/print',
			query: { invoice_ids: ids.slice(0, 25).join(','), organization_id: org },
			body: undefined,
		},
		{
			method: 'GET',
			path: '/books/v3/invoices/print',
			query: { invoice_ids: ids.slice(25).join(','), organization_id: org },
			body: undefined,
		},
	]);
	expectSignedAndOk();
});

test('PDF of an unknown invoice: the API error names the ids; nothing is output as a file', async () => {
	const result = await env.run([
		books('PDF', { operation: 'getPdf', invoice_ids: `${DEMO.invoices.sent},1499999999999` }),
	]);
	expect(result.error('PDF')?.message).toBe(
		'Invalid value passed for invoice_ids: no such record: 1499999999999 (code 2) [item 0]',
	);
	expect(env.apiRequests().map((r) => [r.path, r.status])).toEqual([
		['/us/api/books/v3/invoices/pdf', 400],
	]);
});

test('attachment: upload, allow it in e-mails, download as binary, delete', async () => {
	const id = await newInvoice('sent');
	env.em.clearRequests();
	const result = await env.run(
		[
			books('Upload', {
				operation: 'uploadAttachment',
				invoice_id: byId(id),
				binaryPropertyName: 'scan',
			}),
			books('In mail', {
				operation: 'updateAttachment',
				invoice_id: byId(id),
				can_send_in_mail: true,
			}),
			books('Download', {
				operation: 'downloadAttachment',
				invoice_id: byId(id),
				binaryPropertyName: 'file',
			}),
			books('Delete', { operation: 'deleteAttachment', invoice_id: byId(id) }),
		],
		[
			binaryItem(
				Buffer.from('%PDF-1.4 signed order'),
				'signed-order.pdf',
				'application/pdf',
				{},
				'scan',
			),
		],
	);
	expectNoError(result);
	expect(json(result, 'Upload')).toEqual([{ code: 0, message: 'Your file has been attached.' }]);
	expect(json(result, 'In mail')).toEqual([
		{ code: 0, message: 'Invoice attachment preferences have been updated.' },
	]);
	const [file] = result.output('Download');
	expect([file.binary?.file.fileName, file.binary?.file.mimeType]).toEqual([
		'signed-order.pdf',
		'application/pdf',
	]);
	expect((await readBinary(file, 'file')).toString()).toBe('%PDF-1.4 signed order');
	expect(file.json).toEqual({
		fileName: 'signed-order.pdf',
		mimeType: 'application/pdf',
		fileSize: 21,
	});
	expect(json(result, 'Delete')).toEqual([
		{ deleted: true, code: 0, message: 'Your file is no longer attached to the invoice.' },
	]);

	const requests = env.apiRequests();
	const path = `/books/v3/invoices/${id}/attachment`;
	expect(
		requests.map((r) => apiCall({ ...r, body: r.method === 'POST' ? undefined : r.body })),
	).toEqual([
		{ method: 'POST', path, query: { organization_id: org }, body: undefined },
		{
			method: 'PUT',
			path,
			query: { can_send_in_mail: 'true', organization_id: org },
			body: undefined,
		},
		{ method: 'GET', path, query: { organization_id: org }, body: undefined },
		{ method: 'DELETE', path, query: { organization_id: org }, body: undefined },
	]);
	expect(requests[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
	expect(JSON.stringify(requests[0].body)).toContain('signed-order.pdf');
	expectSignedAndOk();
	expect(stored(id)).toMatchObject({ has_attachment: false, attachment_name: '' });
});

test('delete an expense receipt, update custom fields, delete an applied credit', async () => {
	const before = stored(DEMO.invoices.overdue3).balance as number;
	const result = await env.run([
		books('Receipt', { operation: 'deleteExpenseReceipt', expense_id: DEMO.expenseId }),
		books('Fields', {
			operation: 'updateCustomFields',
			invoice_id: byId(DEMO.invoices.sent),
			custom_fields: {
				values: [
					{ customfield_id: '701', value: 'Rush' },
					{ customfield_id: '702', value: 'B2B' },
				],
			},
		}),
		books('Credit', {
			operation: 'deleteAppliedCredit',
			invoice_id: byId(DEMO.invoices.overdue3),
			credit_id: DEMO.creditId,
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Receipt')).toEqual([
		{ deleted: true, code: 0, message: 'The attached expense receipt has been deleted.' },
	]);
	expect(json(result, 'Fields')).toEqual([
		{ code: 0, message: 'Custom fields have been updated.' },
	]);
	expect(json(result, 'Credit')).toEqual([
		{ deleted: true, code: 0, message: 'Credits applied to the invoice have been deleted.' },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'DELETE',
			path: `/books/v3/invoices/expenses/${DEMO.expenseId}/receipt`,
			query: { organization_id: org },
			body: undefined,
		},
		{
			method: 'PUT',
			path: `/books/v3/invoice/${DEMO.invoices.sent}/customfields`,
			query: { organization_id: org },
			body: [
				{ customfield_id: '701', value: 'Rush' },
				{ customfield_id: '702', value: 'B2B' },
			],
		},
		{
			method: 'DELETE',
			path: `/books/v3/invoices/${DEMO.invoices.overdue3}/creditsapplied/${DEMO.creditId}`,
			query: { organization_id: org },
			body: undefined,
		},
	]);
	expectSignedAndOk();
	expect((stored(DEMO.invoices.sent).line_items as Rec[])[0]).not.toHaveProperty(
		'expense_receipt_name',
	);
	expect(stored(DEMO.invoices.sent).custom_fields).toEqual([
		{ customfield_id: '701', value: 'Rush' },
		{ customfield_id: '702', value: 'B2B' },
	]);
	expect(stored(DEMO.invoices.overdue3)).toMatchObject({
		credits: [],
		credits_applied: 0,
		balance: before + 50,
	});
});

test('comments: add, list, update', async () => {
	const id = DEMO.invoices.viewed;
	const result = await env.run([
		books('Add', {
			operation: 'addComment',
			invoice_id: byId(id),
			description: 'Customer promised payment Friday',
		}),
		books('List', { operation: 'getComments', invoice_id: byId(id) }),
		books('Edit', {
			operation: 'updateComment',
			invoice_id: byId(id),
			comment_id: '={{ $json.comment_id }}',
			description: 'Paid Monday instead',
		}),
	]);
	expectNoError(result);
	const [comment] = json(result, 'List');
	expect(comment).toMatchObject({
		invoice_id: id,
		description: 'Customer promised payment Friday',
		comment_type: 'internal',
	});
	const base = `/books/v3/invoices/${id}/comments`;
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: base,
			query: { organization_id: org },
			body: { description: 'Customer promised payment Friday' },
		},
		{ method: 'GET', path: base, query: { organization_id: org }, body: undefined },
		{
			method: 'PUT',
			path: `${base}/${String(comment.comment_id)}`,
			query: { organization_id: org },
			body: { description: 'Paid Monday instead' },
		},
	]);
	expectSignedAndOk();
	expect(json(result, 'Edit')).toEqual([{ code: 0, message: 'Comment has been updated.' }]);
	expect(env.orgTenant().get('comments', String(comment.comment_id))).toMatchObject({
		description: 'Paid Monday instead',
	});
});

test('the invoice picker lists invoices by number and searches with invoice_number_contains', async () => {
	const invoices = env.picker(VendorBooks, 'searchInvoices', {
		organizationId: org,
		resource: 'invoice',
		operation: 'sendEmail',
		invoice_id: fromList(''),
	});
	const found = await invoices({ filter: 'INV-0000' });
	expect(found.results.slice(0, 3)).toEqual([
		{ name: 'INV-00001', value: DEMO.invoices.overdue1 },
		{ name: 'INV-00002', value: DEMO.invoices.overdue2 },
		{ name: 'INV-00003', value: DEMO.invoices.overdue3 },
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/books/v3/invoices',
			query: {
				invoice_number_contains: 'INV-0000',
				page: '1',
				per_page: '200',
				organization_id: org,
			},
			body: undefined,
		},
	]);
	expectSignedAndOk();
});
