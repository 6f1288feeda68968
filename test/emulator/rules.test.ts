/**
 * The documented rules of each area, over real HTTP against the demo data.
 * Run: npx jest test/emulator/rules
 */
import { Clock } from '../../emulator/clock';
import { DEMO } from '../../emulator/demo-data';
import { GUESS } from '../../emulator/rules/refusals';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';

let em: Emulator;
let call: ReturnType<typeof apiClient>;
const DAY = 86_400_000;
const P = () => `/portal/${em.portalId}`;

beforeEach(async () => {
	em = await startEmulator({ demo: true, clock: new Clock() });
	call = apiClient(em, { token: em.issueToken().access_token });
});
afterEach(async () => em.close());

const ids = (list: Array<Record<string, unknown>>, key: string) => list.map((r) => String(r[key]));

describe('books: items', () => {
	test('mark inactive / active; the list shows active items unless asked', async () => {
		const id = DEMO.items.hosting;
		expect((await call('POST', 'books', `/items/${id}/inactive`)).body).toEqual({
			code: 0,
			message: 'The item has been marked as inactive.',
		});
		expect(ids((await call('GET', 'books', '/items')).body.items, 'item_id')).not.toContain(id);
		expect(
			ids(
				(await call('GET', 'books', '/items', { query: { filter_by: 'Status.Inactive' } })).body
					.items,
				'item_id',
			).sort(),
		).toEqual([id, DEMO.items.legacySupport].sort());
		await call('POST', 'books', `/items/${id}/active`);
		expect((await call('GET', 'books', `/items/${id}`)).body.item.status).toBe('active');
		expect((await call('POST', 'books', '/items/555/active')).status).toBe(404);
	});

	test('an item used in a transaction cannot be deleted (400 code 1); an unused one can', async () => {
		const r = await call('DELETE', 'books', `/items/${DEMO.items.consulting}`);
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(1);
		expect(r.body.message).toMatch(/part of a transaction/);
		expect((await call('GET', 'books', `/items/${DEMO.items.consulting}`)).status).toBe(200);
		expect((await call('DELETE', 'books', '/items/1200000000007')).status).toBe(200);
		// a new invoice line makes another item "in use"
		await call('POST', 'books', '/invoices', {
			json: {
				customer_id: DEMO.customers.acme,
				line_items: [{ item_id: '1200000000006', quantity: 1 }],
			},
		});
		expect((await call('DELETE', 'books', '/items/1200000000006')).body.code).toBe(1);
	});

	test('custom fields: PUT /item/{id}/customfields merges the array body', async () => {
		const r = await call('PUT', 'books', `/item/${DEMO.items.design}/customfields`, {
			json: [{ customfield_id: '77', value: 'blue' }],
		});
		expect(r.body).toEqual({ code: 0, message: 'Custom fields have been updated.' });
		expect(
			(await call('GET', 'books', `/items/${DEMO.items.design}`)).body.item.custom_fields,
		).toEqual([{ customfield_id: '77', value: 'blue' }]);
		const bad = await call('PUT', 'books', `/item/${DEMO.items.design}/customfields`, {
			json: [{ value: 'no id' }],
		});
		expect(bad.body.message).toContain('custom_fields[0].customfield_id');
	});
});

describe('books: estimates', () => {
	test('create computes number, status, totals; update recomputes', async () => {
		const c = await call('POST', 'books', '/estimates', {
			json: {
				customer_id: DEMO.customers.globex,
				line_items: [
					{ item_id: DEMO.items.design, quantity: 2 },
					{ name: 'Extra', rate: 10, quantity: 3 },
				],
				shipping_charge: 5,
			},
		});
		expect(c.status).toBe(201);
		expect(c.body.estimate).toMatchObject({
			estimate_number: 'EST-00007',
			status: 'draft',
			customer_name: 'Globex Inc',
			sub_total: 5030,
			total: 5035,
		});
		expect(c.body.estimate.line_items[0]).toMatchObject({
			name: 'Website design',
			rate: 2500,
			item_total: 5000,
		});
		const u = await call('PUT', 'books', `/estimates/${c.body.estimate.estimate_id}`, {
			json: { line_items: [{ name: 'Only', rate: 1, quantity: 1 }] },
		});
		expect(u.body.estimate).toMatchObject({ sub_total: 1, total: 6 }); // shipping_charge 5 kept
		const accepted = (await call('GET', 'books', `/estimates/${DEMO.estimates.accepted1}`)).body
			.estimate;
		expect(accepted).toMatchObject({ status: 'accepted' });
		expect(accepted.accepted_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	});

	test('GET /estimates/pdf: two ids -> one real PDF file', async () => {
		const r = await call('GET', 'books', '/estimates/pdf', {
			query: { estimate_ids: `${DEMO.estimates.sent},${DEMO.estimates.draft}` },
		});
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe('application/pdf');
		expect(r.headers['content-disposition']).toBe('attachment; filename="estimates.pdf"');
		expect(r.buffer.subarray(0, 5).toString()).toBe('%PDF-');
		expect(r.buffer.toString('latin1')).toMatch(/\/Count 2 /);
		expect(r.buffer.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
		const one = await call('GET', 'books', '/estimates/pdf', {
			query: { estimate_ids: DEMO.estimates.sent },
		});
		expect(one.headers['content-disposition']).toBe('attachment; filename="EST-00005.pdf"');
	});

	test('GET /estimates/pdf with unknown or malformed ids: the documented quirk, 200 with code 0 and no file', async () => {
		for (const bad of ['999', 'abc', `${DEMO.estimates.sent},999`]) {
			const r = await call('GET', 'books', '/estimates/pdf', { query: { estimate_ids: bad } });
			expect(r.status).toBe(200);
			expect(r.headers['content-type']).toMatch(/json/);
			expect(r.body).toEqual({ code: 0, message: 'Invalid value passed for estimate_ids' });
		}
	});

	test('PDF and print take at most 25 ids', async () => {
		const many = Array.from({ length: 26 }, (_, i) => String(1300000000001 + (i % 6))).join(',');
		for (const path of ['/estimates/pdf', '/estimates/print']) {
			const r = await call('GET', 'books', path, { query: { estimate_ids: many } });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(2);
			expect(r.body.message).toMatch(/estimate_ids: at most 25/);
		}
		const ok = await call('GET', 'books', '/estimates/print', {
			query: { estimate_ids: DEMO.estimates.sent },
		});
		expect(ok.body).toEqual({ code: 0, message: 'success' });
	});

	test('addresses, templates and comments', async () => {
		const id = DEMO.estimates.draft;
		await call('PUT', 'books', `/estimates/${id}/address/billing`, {
			json: { address: '1 Main St', city: 'Springfield', zip: '12345' },
		});
		await call('PUT', 'books', `/estimates/${id}/address/shipping`, {
			json: { city: 'Shelbyville' },
		});
		let est = (await call('GET', 'books', `/estimates/${id}`)).body.estimate;
		expect(est.billing_address).toMatchObject({
			address: '1 Main St',
			city: 'Springfield',
			zip: '12345',
		});
		expect(est.shipping_address.city).toBe('Shelbyville');
		expect(
			(await call('PUT', 'books', `/estimates/${id}/templates/${DEMO.templates.spreadsheet}`)).body
				.code,
		).toBe(0);
		est = (await call('GET', 'books', `/estimates/${id}`)).body.estimate;
		expect(est).toMatchObject({
			template_id: DEMO.templates.spreadsheet,
			template_name: 'Spreadsheet',
		});
		expect((await call('PUT', 'books', `/estimates/${id}/templates/42`)).status).toBe(404);
		expect(
			(
				await call('POST', 'books', `/estimates/${id}/comments`, {
					json: { description: 'Looks good', show_comment_to_clients: true },
				})
			).status,
		).toBe(201);
		const list = (await call('GET', 'books', `/estimates/${id}/comments`)).body.comments;
		expect(list).toHaveLength(1);
		expect(list[0]).toMatchObject({
			estimate_id: id,
			description: 'Looks good',
			comment_type: 'external',
		});
		await call('PUT', 'books', `/estimates/${id}/comments/${list[0].comment_id}`, {
			json: { description: 'Edited' },
		});
		expect(
			(await call('GET', 'books', `/estimates/${id}/comments`)).body.comments[0].description,
		).toBe('Edited');
		expect(
			(
				await call(
					'PUT',
					'books',
					`/estimates/${DEMO.estimates.sent}/comments/${list[0].comment_id}`,
					{ json: { description: 'x' } },
				)
			).status,
		).toBe(404);
	});
});

describe('books: invoices', () => {
	test('balance = total - payments; e-mail records the mail and sets is_emailed (draft -> sent)', async () => {
		const pp = (await call('GET', 'books', '/invoices', { query: { status: 'partially_paid' } }))
			.body.invoices[0];
		expect(pp.balance).toBe(pp.total - 200);
		const id = DEMO.invoices.draft;
		const r = await call('POST', 'books', `/invoices/${id}/email`, {
			json: {
				to_mail_ids: ['a@x.example'],
				cc_mail_ids: ['b@x.example'],
				subject: 'Your invoice',
				body: '<p>Hi</p>',
			},
		});
		expect(r.body).toEqual({ code: 0, message: 'Your invoice has been sent.' });
		const org = em.store.org('us', em.organizationId);
		expect(org?.mails.at(-1)).toMatchObject({
			kind: 'invoice',
			invoiceId: id,
			to: ['a@x.example'],
			cc: ['b@x.example'],
			subject: 'Your invoice',
		});
		const inv = (
			await call('GET', 'books', '/invoices', { query: { invoice_number_startswith: 'INV-00007' } })
		).body.invoices[0];
		expect(inv).toMatchObject({ is_emailed: true, status: 'sent' });
		const bad = await call('POST', 'books', `/invoices/${id}/email`, {
			json: { to_mail_ids: ['not-an-email'] },
		});
		expect(bad.body.message).toContain('to_mail_ids[0]');
	});

	test('Send Email without to_mail_ids to a customer without an address is sent to no one (document 001 marks no member required); a reminder is refused (a listed guess)', async () => {
		const org = em.store.org('us', em.organizationId);
		const customer = org?.get('customers', DEMO.customers.initech);
		if (customer) customer.email = '';
		const id = DEMO.invoices.overdue3; // Initech's
		const sent = await call('POST', 'books', `/invoices/${id}/email`, {
			json: { subject: 'Your invoice' },
		});
		expect(sent.body).toEqual({ code: 0, message: 'Your invoice has been sent.' });
		expect(org?.mails.at(-1)).toMatchObject({
			kind: 'invoice',
			invoiceId: id,
			to: [],
			subject: 'Your invoice',
		});
		const reminder = await call('POST', 'books', `/invoices/${id}/paymentreminder`, { json: {} });
		expect([reminder.status, reminder.body.message]).toEqual([
			400,
			'Invalid value passed for to_mail_ids: is required (the customer has no email address)',
		]);
		expect(reminder.headers['x-emulator-source']).toBe(GUESS.reminderRecipient);
		expect(
			(
				await call('POST', 'books', `/invoices/${id}/paymentreminder`, {
					json: { to_mail_ids: ['ap@initech.example'] },
				})
			).body.code,
		).toBe(0);
	});

	test('e-mail and reminder content have the documented data shape', async () => {
		for (const path of ['email', 'paymentreminder']) {
			const r = await call('GET', 'books', `/invoices/${DEMO.invoices.overdue1}/${path}`);
			expect(r.body.code).toBe(0);
			for (const key of [
				'bcc_mails',
				'gateways_configured',
				'body',
				'documents',
				'customer_name',
				'attach_pdf',
				'entity_id',
				'to_mails_str',
				'from_email',
				'subject',
				'emailtemplates',
				'to_contacts',
				'file_name',
				'from_emails',
				'customer_id',
			]) {
				expect(r.body.data).toHaveProperty(key);
			}
			expect(r.body.data.to_mails_str).toBe('billing@acme.example');
		}
	});

	test('payment reminders only for open or overdue invoices; disable sets payment_reminder_enabled=false', async () => {
		const draft = await call('POST', 'books', `/invoices/${DEMO.invoices.draft}/paymentreminder`, {
			json: {},
		});
		expect(draft.status).toBe(400);
		expect(draft.body.code).toBe(3);
		const paid = await call('POST', 'books', `/invoices/${DEMO.invoices.paid1}/paymentreminder`, {
			json: {},
		});
		expect(paid.body.code).toBe(3);
		const ok = await call('POST', 'books', `/invoices/${DEMO.invoices.overdue1}/paymentreminder`, {
			json: { subject: 'Reminder' },
		});
		expect(ok.body).toEqual({ code: 0, message: 'Your payment reminder has been sent.' });
		expect(em.store.org('us', em.organizationId)?.mails.at(-1)).toMatchObject({
			kind: 'reminder',
			to: ['billing@acme.example'],
			subject: 'Reminder',
		});
		const inv = (
			await call('GET', 'books', '/invoices', { query: { invoice_number_startswith: 'INV-00001' } })
		).body.invoices[0];
		expect(inv.reminders_sent).toBe(1);
		await call('POST', 'books', `/invoices/${DEMO.invoices.overdue1}/paymentreminder/disable`);
		expect(
			em.store.org('us', em.organizationId)?.get('invoices', DEMO.invoices.overdue1)
				?.payment_reminder_enabled,
		).toBe(false);
	});

	test('bulk reminders: 11 ids refused; otherwise info with per-id errors', async () => {
		const eleven = Array.from({ length: 11 }, () => DEMO.invoices.overdue1).join(',');
		const r = await call('POST', 'books', '/invoices/paymentreminder', {
			query: { invoice_ids: eleven },
		});
		expect(r.status).toBe(400);
		expect(r.body.message).toMatch(/invoice_ids: at most 10/);
		const mixed = [
			DEMO.invoices.overdue1,
			DEMO.invoices.overdue2,
			DEMO.invoices.paid1,
			DEMO.invoices.draft,
			'1499999999999',
		].join(',');
		const m = await call('POST', 'books', '/invoices/paymentreminder', {
			query: { invoice_ids: mixed },
		});
		expect(m.status).toBe(200);
		expect(m.body.code).toBe(0);
		expect(m.body.info.email_success_info.sent_count).toBe(2);
		expect(m.body.info.email_errors_info).toEqual([
			{
				message: 'Payment reminders can be sent only for open or overdue invoices.',
				ids: [DEMO.invoices.paid1, DEMO.invoices.draft],
			},
			{ message: 'Invoice does not exist.', ids: ['1499999999999'] },
		]);
		expect(m.body.info.code).toBe(1);
	});

	test('invoice PDF: 26 ids refused, 2 ids -> one PDF; print envelope', async () => {
		const many = Array.from({ length: 26 }, () => DEMO.invoices.sent).join(',');
		expect(
			(await call('GET', 'books', '/invoices/pdf', { query: { invoice_ids: many } })).status,
		).toBe(400);
		const r = await call('GET', 'books', '/invoices/pdf', {
			query: { invoice_ids: `${DEMO.invoices.sent},${DEMO.invoices.viewed}` },
		});
		expect(r.headers['content-type']).toBe('application/pdf');
		expect(r.buffer.subarray(0, 5).toString()).toBe('%PDF-');
		expect(r.headers['content-disposition']).toContain('invoices.pdf');
		expect(
			(
				await call('GET', 'books', '/invoices/print', {
					query: { invoice_ids: DEMO.invoices.sent },
				})
			).body,
		).toEqual({ code: 0, message: 'success' });
		expect(
			(await call('GET', 'books', '/invoices/pdf', { query: { invoice_ids: '1499999999999' } }))
				.body.code,
		).toBe(2);
	});

	test('attachments: .exe refused, .png round-trips with its type, can_send_in_mail, delete', async () => {
		const id = DEMO.invoices.sent;
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255]);
		const exe = await call('POST', 'books', `/invoices/${id}/attachment`, {
			form: {
				files: [
					{
						field: 'attachment',
						fileName: 'tool.exe',
						contentType: 'application/octet-stream',
						data: Buffer.from('MZ'),
					},
				],
			},
		});
		expect(exe.status).toBe(400);
		expect(exe.body.code).toBe(4);
		expect((await call('GET', 'books', `/invoices/${id}/attachment`)).status).toBe(404);
		const up = await call('POST', 'books', `/invoices/${id}/attachment`, {
			form: {
				files: [
					{ field: 'attachment', fileName: 'receipt.png', contentType: 'image/png', data: png },
				],
			},
		});
		expect(up.status).toBe(201);
		const down = await call('GET', 'books', `/invoices/${id}/attachment`);
		expect(down.headers['content-type']).toBe('image/png');
		expect(down.headers['content-disposition']).toBe('attachment; filename="receipt.png"');
		expect(down.buffer.equals(png)).toBe(true);
		expect(
			em.requests.find((r) => r.operation === 'books.invoice.uploadAttachment' && r.status === 201)
				?.body,
		).toEqual([
			expect.objectContaining({
				name: 'attachment',
				fileName: 'receipt.png',
				contentType: 'image/png',
			}),
		]);
		await call('PUT', 'books', `/invoices/${id}/attachment`, { query: { can_send_in_mail: true } });
		const inv = em.store.org('us', em.organizationId)?.get('invoices', id);
		expect(inv).toMatchObject({
			has_attachment: true,
			attachment_name: 'receipt.png',
			can_send_in_mail: true,
		});
		expect(
			(
				await call('PUT', 'books', `/invoices/${id}/attachment`, {
					query: { can_send_in_mail: 'maybe' },
				})
			).body.message,
		).toContain('can_send_in_mail');
		expect((await call('DELETE', 'books', `/invoices/${id}/attachment`)).body.code).toBe(0);
		expect((await call('GET', 'books', `/invoices/${id}/attachment`)).status).toBe(404);
	});

	test('expense receipt, custom fields, comments, applied credit', async () => {
		expect(
			(await call('DELETE', 'books', `/invoices/expenses/${DEMO.expenseId}/receipt`)).body.code,
		).toBe(0);
		expect(
			(await call('DELETE', 'books', `/invoices/expenses/${DEMO.expenseId}/receipt`)).status,
		).toBe(404);
		await call('PUT', 'books', `/invoice/${DEMO.invoices.sent}/customfields`, {
			json: [{ customfield_id: '5', value: 'PO-9' }],
		});
		expect(
			em.store.org('us', em.organizationId)?.get('invoices', DEMO.invoices.sent)?.custom_fields,
		).toEqual([{ customfield_id: '5', value: 'PO-9' }]);
		await call('POST', 'books', `/invoices/${DEMO.invoices.sent}/comments`, {
			json: { description: 'Called the customer' },
		});
		expect(
			(await call('GET', 'books', `/invoices/${DEMO.invoices.sent}/comments`)).body.comments[0],
		).toMatchObject({ invoice_id: DEMO.invoices.sent, description: 'Called the customer' });
		const before = em.store
			.org('us', em.organizationId)
			?.get('invoices', DEMO.invoices.overdue3)?.balance;
		expect(
			(
				await call(
					'DELETE',
					'books',
					`/invoices/${DEMO.invoices.overdue3}/creditsapplied/${DEMO.creditId}`,
				)
			).body.code,
		).toBe(0);
		expect(
			em.store.org('us', em.organizationId)?.get('invoices', DEMO.invoices.overdue3)?.balance,
		).toBe(before + 50);
		expect(
			(
				await call(
					'DELETE',
					'books',
					`/invoices/${DEMO.invoices.overdue3}/creditsapplied/${DEMO.creditId}`,
				)
			).status,
		).toBe(404);
	});
});

describe('invoice area: customer payments', () => {
	const invoice = (id: string) =>
		em.store.org('us', em.organizationId)?.get('invoices', id) as Record<string, number | string>;

	test('create applies amounts: balance drops, status partially_paid then paid; delete restores', async () => {
		const id = DEMO.invoices.overdue2;
		const total = Number(invoice(id).total);
		const first = await call('POST', 'invoice', '/customerpayments', {
			json: {
				customer_id: DEMO.customers.globex,
				amount: 100,
				payment_mode: 'cash',
				invoices: [{ invoice_id: id, amount_applied: 100 }],
			},
		});
		expect(first.status).toBe(201);
		expect(first.body.message).toBe('Payment has been created.');
		expect(first.body.payment).toMatchObject({
			customer_name: 'Globex Inc',
			status: 'success',
			amount: 100,
		});
		expect(first.body.payment.invoices[0]).toMatchObject({
			invoice_id: id,
			amount_applied: 100,
			balance_amount: total - 100,
		});
		expect(invoice(id)).toMatchObject({ balance: total - 100, status: 'partially_paid' });
		const second = await call('POST', 'invoice', '/customerpayments', {
			json: {
				customer_id: DEMO.customers.globex,
				amount: total - 100,
				invoices: [{ invoice_id: id, amount_applied: total - 100 }],
			},
		});
		expect(invoice(id)).toMatchObject({ balance: 0, status: 'paid' });
		await call('DELETE', 'invoice', `/customerpayments/${second.body.payment.payment_id}`);
		await call('DELETE', 'invoice', `/customerpayments/${first.body.payment.payment_id}`);
		expect(invoice(id)).toMatchObject({ balance: total, status: 'overdue' });
		expect(
			(await call('GET', 'invoice', `/customerpayments/${first.body.payment.payment_id}`)).status,
		).toBe(404);
	});

	test('24016: more than the balance due', async () => {
		const r = await call('POST', 'invoice', '/customerpayments', {
			json: {
				customer_id: DEMO.customers.acme,
				amount: 99999,
				invoices: [{ invoice_id: DEMO.invoices.overdue1, amount_applied: 99999 }],
			},
		});
		expect(r.status).toBe(400);
		expect(r.body).toEqual({
			code: 24016,
			message: 'The amount entered is more than the balance due for the selected invoice(s).',
		});
	});

	test('3004: blank, missing or unknown customer (before field validation)', async () => {
		for (const customer_id of ['', undefined, '1199999999999', 'abc']) {
			const r = await call('POST', 'invoice', '/customerpayments', {
				json: { customer_id, amount: 10 },
			});
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(3004);
		}
	});

	test('9521: partial payment of a retainer invoice; 9523: changing it on update', async () => {
		const id = DEMO.invoices.retainer;
		const partial = await call('POST', 'invoice', '/customerpayments', {
			json: {
				customer_id: DEMO.customers.umbrella,
				amount: 500,
				invoices: [{ invoice_id: id, amount_applied: 500 }],
			},
		});
		expect(partial.status).toBe(400);
		expect(partial.body.code).toBe(9521);
		const full = await call('POST', 'invoice', '/customerpayments', {
			json: {
				customer_id: DEMO.customers.umbrella,
				amount: 1000,
				invoices: [{ invoice_id: id, amount_applied: 1000 }],
			},
		});
		expect(full.status).toBe(201);
		expect(invoice(id).status).toBe('paid');
		const pid = full.body.payment.payment_id;
		const change = await call('PUT', 'invoice', `/customerpayments/${pid}`, {
			json: {
				customer_id: DEMO.customers.umbrella,
				amount: 1000,
				invoices: [{ invoice_id: id, amount_applied: 900 }],
			},
		});
		expect(change.status).toBe(400);
		expect(change.body.code).toBe(9523);
		const same = await call('PUT', 'invoice', `/customerpayments/${pid}`, {
			json: {
				customer_id: DEMO.customers.umbrella,
				amount: 1000,
				reference_number: 'R-1',
				invoices: [{ invoice_id: id, amount_applied: 1000 }],
			},
		});
		expect(same.status).toBe(200);
		expect(same.body.payment.reference_number).toBe('R-1');
		expect(invoice(id).balance).toBe(0);
	});

	test('update re-applies amounts on ordinary invoices', async () => {
		const id = DEMO.invoices.overdue1;
		const total = Number(invoice(id).total);
		const c = await call('POST', 'invoice', '/customerpayments', {
			json: {
				customer_id: DEMO.customers.acme,
				amount: 300,
				invoices: [{ invoice_id: id, amount_applied: 300 }],
			},
		});
		await call('PUT', 'invoice', `/customerpayments/${c.body.payment.payment_id}`, {
			json: {
				customer_id: DEMO.customers.acme,
				amount: 300,
				invoices: [{ invoice_id: id, amount_applied: 120 }],
			},
		});
		expect(invoice(id).balance).toBe(total - 120);
	});

	test('refunds of the unused amount: create and list', async () => {
		const pid = DEMO.payments.paid2; // 300 received, 240 applied
		const tooMuch = await call('POST', 'invoice', `/customerpayments/${pid}/refunds`, {
			json: { amount: 61, refund_mode: 'cash' },
		});
		expect(tooMuch.status).toBe(400);
		expect(tooMuch.body.message).toContain('amount');
		const r = await call('POST', 'invoice', `/customerpayments/${pid}/refunds`, {
			json: { amount: 60, refund_mode: 'cash', date: '2026-01-02' },
		});
		expect(r.status).toBe(201);
		expect(r.body.payment_refunds[0]).toMatchObject({
			payment_id: pid,
			amount: 60,
			refund_mode: 'cash',
			date: '2026-01-02',
		});
		const list = await call('GET', 'invoice', `/customerpayments/${pid}/refunds`);
		expect(list.body.payment_refunds).toHaveLength(1);
		expect(
			(await call('GET', 'invoice', `/customerpayments/${pid}`)).body.payment.amount_refunded,
		).toBe(60);
		expect((await call('GET', 'invoice', '/customerpayments/1599999999999/refunds')).status).toBe(
			404,
		);
	});
});

describe('billing projects', () => {
	const body = {
		project_name: 'New build',
		customer_id: DEMO.customers.initech,
		billing_type: 'based_on_task_hours',
	};

	test('1002 for an unknown project on every path with a project id', async () => {
		for (const [method, path] of [
			['GET', '/projects/1699999999999'],
			['PUT', '/projects/1699999999999'],
			['GET', '/projects/1699999999999/comments'],
			['DELETE', '/projects/1699999999999/users/8000000000002'],
			['GET', '/projects/1699999999999/invoices'],
		]) {
			const r = await call(method, 'billing', path, { json: method === 'PUT' ? body : undefined });
			expect(r.status).toBe(404);
			expect(r.body).toEqual({ code: 1002, message: 'Project does not exist.' });
		}
	});

	test('20004 for negative amounts; rate required for fixed cost / project hours', async () => {
		for (const extra of [
			{ rate: '-1' },
			{ budget_amount: '-5' },
			{ tasks: [{ task_name: 'T', rate: -2 }] },
			{ users: [{ user_id: '8000000000002', rate: -1 }] },
		]) {
			const r = await call('POST', 'billing', '/projects', { json: { ...body, ...extra } });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20004);
		}
		const noRate = await call('POST', 'billing', '/projects', {
			json: { ...body, billing_type: 'fixed_cost_for_project' },
		});
		expect(noRate.status).toBe(400);
		expect(noRate.body).toEqual({
			code: 2,
			message:
				'Invalid value passed for rate: is required when billing_type is fixed_cost_for_project',
		});
	});

	test("a blank or unknown customer: the emulator's own codes (document 002 gives 3004 to payments only; a listed guess)", async () => {
		const unknown = await call('POST', 'billing', '/projects', {
			json: { ...body, customer_id: '1199999999999' },
		});
		expect([unknown.status, unknown.body]).toEqual([
			400,
			{ code: 1000, message: 'Customer 1199999999999 does not exist.' },
		]);
		expect(unknown.headers['x-emulator-source']).toBe(GUESS.billingCustomer);
		const update = await call('PUT', 'billing', `/projects/${DEMO.billingProjects.website}`, {
			json: { ...body, customer_id: '1199999999999' },
		});
		expect([update.status, update.body.code]).toEqual([400, 1000]);
		const blank = await call('PUT', 'billing', `/projects/${DEMO.billingProjects.website}`, {
			json: { project_name: 'x', billing_type: 'based_on_task_hours' },
		});
		expect([blank.status, blank.body.code]).toEqual([400, 2]);
		expect(blank.body.message).toContain('customer_id');
		expect(
			em.store.org('us', em.organizationId)?.get('projects', DEMO.billingProjects.website)
				?.project_name,
		).toBe('Website relaunch');
	});

	test('create with tasks and users, update, list filters, remove a user', async () => {
		const c = await call('POST', 'billing', '/projects', {
			json: {
				...body,
				billing_type: 'fixed_cost_for_project',
				rate: '1500',
				tasks: [{ task_name: 'Build' }],
				users: [{ user_id: DEMO.billingUsers.bob, user_role: 'staff' }],
			},
		});
		expect(c.status).toBe(201);
		const p = c.body.project;
		expect(p).toMatchObject({
			project_name: 'New build',
			customer_name: 'Initech',
			rate: 1500,
			status: 'active',
		});
		expect(p.tasks[0]).toMatchObject({ task_name: 'Build', status: 'active' });
		expect(p.tasks[0].task_id).toMatch(/^\d+$/);
		expect(p.users[0]).toMatchObject({ user_id: DEMO.billingUsers.bob, user_role: 'staff' });
		const u = await call('PUT', 'billing', `/projects/${p.project_id}`, {
			json: { ...body, project_name: 'Renamed' },
		});
		expect(u.body.project).toMatchObject({ project_name: 'Renamed', tasks: p.tasks });
		const inactive = await call('GET', 'billing', '/projects', {
			query: { filter_by: 'Status.Inactive' },
		});
		expect(ids(inactive.body.projects, 'project_id')).toEqual([DEMO.billingProjects.inactive]);
		expect(inactive.body.page_context).toMatchObject({ page: 1, has_more_page: false });
		const byCustomer = await call('GET', 'billing', '/projects', {
			query: { customer_id: DEMO.customers.acme, sort_column: 'project_name' },
		});
		expect(byCustomer.body.projects.map((x: { project_name: string }) => x.project_name)).toEqual([
			'Support contract',
			'Website relaunch',
		]);
		const rm = await call(
			'DELETE',
			'billing',
			`/projects/${DEMO.billingProjects.website}/users/${DEMO.billingUsers.bob}`,
		);
		expect(rm.body.code).toBe(0);
		const after = (await call('GET', 'billing', `/projects/${DEMO.billingProjects.website}`)).body
			.project;
		expect(ids(after.users, 'user_id')).toEqual([DEMO.billingUsers.alice]);
		expect(
			(
				await call(
					'DELETE',
					'billing',
					`/projects/${DEMO.billingProjects.website}/users/${DEMO.billingUsers.bob}`,
				)
			).status,
		).toBe(404);
	});

	test('comments and project invoices', async () => {
		const pid = DEMO.billingProjects.website;
		const c = await call('POST', 'billing', `/projects/${pid}/comments`, {
			json: { description: 'Milestone 1 done' },
		});
		expect(c.status).toBe(201);
		expect(c.body.comments).toMatchObject({ project_id: pid, description: 'Milestone 1 done' });
		expect(
			(
				await call('POST', 'billing', `/projects/${pid}/comments`, {
					json: { description: 'x'.repeat(501) },
				})
			).body.code,
		).toBe(2);
		const list = await call('GET', 'billing', `/projects/${pid}/comments`);
		expect(list.body.comments).toHaveLength(2);
		expect(
			(await call('DELETE', 'billing', `/projects/${pid}/comments/${c.body.comments.comment_id}`))
				.body.code,
		).toBe(0);
		expect((await call('GET', 'billing', `/projects/${pid}/comments`)).body.comments).toHaveLength(
			1,
		);
		const inv = await call('GET', 'billing', `/projects/${pid}/invoices`, {
			query: { sort_column: 'invoice_number' },
		});
		expect(ids(inv.body.invoices, 'invoice_id')).toEqual([
			DEMO.invoices.overdue1,
			DEMO.invoices.paid1,
		]);
		expect(Object.keys(inv.body.invoices[0]).sort()).toEqual([
			'balance',
			'created_time',
			'customer_name',
			'date',
			'due_date',
			'invoice_id',
			'invoice_number',
			'reference_number',
			'status',
			'total',
		]);
	});
});

describe('inventory: bills', () => {
	const bill = {
		vendor_id: DEMO.vendors.paperCo,
		bill_number: 'B-100',
		date: '2026-01-10',
		due_date: '2026-02-10',
		line_items: [{ name: 'Paper', rate: 5, quantity: 4 }],
	};

	test('create (JSON), list, update', async () => {
		const c = await call('POST', 'inventory', '/bills', { json: bill });
		expect(c.status).toBe(201);
		expect(c.body.bill).toMatchObject({
			vendor_name: 'PaperCo Supplies',
			total: 20,
			balance: 20,
			status: 'open',
		});
		expect(c.body.bill.created_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		const list = await call('GET', 'inventory', '/bills');
		expect(ids(list.body.bills, 'bill_id')).toContain(c.body.bill.bill_id);
		expect(list.body.page_context).toMatchObject({ page: 1, per_page: 200 });
		const u = await call('PUT', 'inventory', `/bills/${c.body.bill.bill_id}`, {
			json: { ...bill, line_items: [{ name: 'Paper', rate: 5, quantity: 10 }] },
		});
		expect(u.body).toMatchObject({ code: 0, bill: { total: 50, bill_id: c.body.bill.bill_id } });
		const missing = await call('POST', 'inventory', '/bills', {
			json: { ...bill, bill_number: undefined },
		});
		expect(missing.body.message).toBe('Invalid value passed for bill_number: is required');
	});

	test('multipart: JSONString + attachment; a wrong extension is refused', async () => {
		const ok = await call('POST', 'inventory', '/bills', {
			form: {
				fields: { JSONString: JSON.stringify(bill) },
				files: [
					{
						field: 'attachment',
						fileName: 'scan.pdf',
						contentType: 'application/pdf',
						data: Buffer.from('%PDF-1.4 test'),
					},
				],
			},
		});
		expect(ok.status).toBe(201);
		expect(ok.body.bill).toMatchObject({ bill_number: 'B-100', attachment_name: 'scan.pdf' });
		const exe = await call('POST', 'inventory', '/bills', {
			form: {
				fields: { JSONString: JSON.stringify(bill) },
				files: [
					{
						field: 'attachment',
						fileName: 'x.exe',
						contentType: 'application/octet-stream',
						data: Buffer.from('MZ'),
					},
				],
			},
		});
		expect(exe.status).toBe(400);
		expect(exe.body.code).toBe(4);
		const invalidJson = await call('POST', 'inventory', '/bills', {
			form: { fields: { JSONString: JSON.stringify({ ...bill, date: '10/01/2026' }) } },
		});
		expect(invalidJson.body.message).toContain('date');
	});
});

describe('project management: trash and bin', () => {
	test('trash: at most 100 ids; module checked; unknown ids refused atomically', async () => {
		const many = Array.from({ length: 101 }, (_, i) => String(3100000000100 + i));
		const r = await call('POST', 'projects', `${P()}/trash`, {
			json: { module: 'tasks', items: many },
		});
		expect(r.status).toBe(400);
		expect(r.body.errorCode).toBe('INVALID_INPUTSTREAM');
		expect(r.body.message).toContain('"items"');
		expect(
			(await call('POST', 'projects', `${P()}/trash`, { json: { module: 'planets', items: [] } }))
				.body.message,
		).toContain('"module"');
		const mixed = await call('POST', 'projects', `${P()}/trash`, {
			json: { module: 'tasks', items: [DEMO.tasks.homepage, '3199999999999'] },
		});
		expect(mixed.status).toBe(400);
		expect(mixed.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
		expect(em.store.portal('us', em.portalId)?.get('tasks', DEMO.tasks.homepage)).toBeDefined();
	});

	test('trashed records leave their collection and appear in the bin; sort and filter', async () => {
		em.clock.advance(1000);
		const r = await call('POST', 'projects', `${P()}/trash`, {
			json: { module: 'projects', items: [DEMO.projects.mobile] },
		});
		expect(r.body).toMatchObject({ count: 1, module: 'projects' });
		expect(
			ids((await call('GET', 'projects', `${P()}/projects`)).body.projects, 'id'),
		).not.toContain(DEMO.projects.mobile);
		const bin = (await call('GET', 'projects', `${P()}/bin`)).body.bin;
		expect(ids(bin, 'id')).toEqual([
			DEMO.projects.mobile,
			DEMO.trashed.recentTask,
			DEMO.trashed.tasklist,
			DEMO.trashed.oldProject,
		]);
		expect(bin[0]).toMatchObject({
			name: 'Mobile App',
			module: 'projects',
			trashed_time: new Date(em.clock.now()).toISOString(),
		});
		const byName = (
			await call('GET', 'projects', `${P()}/bin`, { query: { sort_by: 'asc(name)' } })
		).body.bin;
		expect(byName.map((e: { name: string }) => e.name)).toEqual([
			'Abandoned pilot',
			'Mobile App',
			'Obsolete banner task',
			'Old sprint',
		]);
		const oldest = (
			await call('GET', 'projects', `${P()}/bin`, {
				query: { sort_by: 'asc(trashed_time)', per_page: 1 },
			})
		).body;
		expect(oldest.bin[0].id).toBe(DEMO.trashed.oldProject);
		expect(oldest.page_info.has_next_page).toBe(true);
		expect(
			(await call('GET', 'projects', `${P()}/bin`, { query: { sort_by: 'name' } })).body.errorCode,
		).toBe('INVALID_PARAMETER_VALUE');
		const filter = JSON.stringify({
			criteria: [
				{ cfid: 'module', criteria_condition: 'is', value: ['projects'] },
				{ cfid: 'name', criteria_condition: 'contains', value: ['pilot'] },
			],
			pattern: '1 AND 2',
		});
		expect(
			ids((await call('GET', 'projects', `${P()}/bin`, { query: { filter } })).body.bin, 'id'),
		).toEqual([DEMO.trashed.oldProject]);
		const either = JSON.stringify({
			criteria: [
				{ cfid: 'module', criteria_condition: 'is', value: ['tasks'] },
				{ cfid: 'name', criteria_condition: 'starts_with', value: ['old'] },
			],
			pattern: '1 OR 2',
		});
		expect(
			ids(
				(
					await call('GET', 'projects', `${P()}/bin`, {
						query: { filter: either, sort_by: 'asc(name)' },
					})
				).body.bin,
				'id',
			),
		).toEqual([DEMO.trashed.recentTask, DEMO.trashed.tasklist]);
		expect(
			(await call('GET', 'projects', `${P()}/bin`, { query: { filter: '{not json' } })).status,
		).toBe(400);
	});

	test('restore within 30 days; 40 days (demo) and 31 days (clock) are refused', async () => {
		const old = await call('POST', 'projects', `${P()}/bin/restore`, {
			json: [{ module: 'projects', items: [DEMO.trashed.oldProject] }],
		});
		expect(old.status).toBe(400);
		expect(old.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
		expect(old.body.message).toMatch(/more than 30 days/);
		const ok = await call('POST', 'projects', `${P()}/bin/restore`, {
			json: [{ module: 'tasks', items: [DEMO.trashed.recentTask] }],
		});
		expect(ok.body).toMatchObject({ count: 1 });
		expect(em.store.portal('us', em.portalId)?.get('tasks', DEMO.trashed.recentTask)).toBeDefined();
		await call('POST', 'projects', `${P()}/trash`, {
			json: { module: 'tasks', items: [DEMO.tasks.appStore] },
		});
		em.clock.advance(31 * DAY);
		call = apiClient(em, { token: em.issueToken().access_token }); // the old token expired meanwhile
		const late = await call('POST', 'projects', `${P()}/bin/restore`, {
			json: [{ module: 'tasks', items: [DEMO.tasks.appStore] }],
		});
		expect(late.status).toBe(400);
		expect(late.body.message).toContain(DEMO.tasks.appStore);
		expect(
			(
				await call('POST', 'projects', `${P()}/bin/restore`, {
					json: [{ module: 'tasks', items: ['3199999999999'] }],
				})
			).body.message,
		).toMatch(/not in the bin/);
	});

	test('delete from the bin permanently; empty the bin', async () => {
		const d = await call('DELETE', 'projects', `${P()}/bin`, {
			json: [{ module: 'tasklists', items: [DEMO.trashed.tasklist] }],
		});
		expect(d.body).toMatchObject({ count: 1 });
		expect(
			(
				await call('POST', 'projects', `${P()}/bin/restore`, {
					json: [{ module: 'tasklists', items: [DEMO.trashed.tasklist] }],
				})
			).status,
		).toBe(400);
		expect((await call('DELETE', 'projects', `${P()}/empty-bin`)).body).toMatchObject({ count: 2 });
		expect((await call('GET', 'projects', `${P()}/bin`)).body.bin).toEqual([]);
	});
});

describe('project management: search, my tasks, custom fields', () => {
	test('portal-wide search over names with module and status; in-project search', async () => {
		const all = await call('GET', 'projects', `${P()}/search`, {
			query: { search_term: 'app', module: 'all', status: 'all' },
		});
		expect(
			all.body.results.map((r: { name: string; module: string }) => `${r.module}:${r.name}`).sort(),
		).toEqual(['projects:Mobile App', 'tasks:Publish to app store']);
		const tasks = await call('GET', 'projects', `${P()}/search`, {
			query: { search_term: 'o', module: 'tasks', status: 'all' },
		});
		expect(tasks.body.results.every((r: { module: string }) => r.module === 'tasks')).toBe(true);
		const archived = await call('GET', 'projects', `${P()}/search`, {
			query: { search_term: 'intranet', module: 'projects', status: 'archived' },
		});
		expect(ids(archived.body.results, 'id')).toEqual([DEMO.projects.archived]);
		expect(
			(
				await call('GET', 'projects', `${P()}/search`, {
					query: { search_term: 'intranet', module: 'projects', status: 'active' },
				})
			).body.results,
		).toEqual([]);
		const missingStatus = await call('GET', 'projects', `${P()}/search`, {
			query: { search_term: 'x', module: 'all' },
		});
		expect(missingStatus.body.message).toContain('"status"');
		const inProject = await call(
			'GET',
			'projects',
			`${P()}/projects/${DEMO.projects.website}/search`,
			{ query: { search_term: 'home', module: 'all' } },
		);
		expect(inProject.body.results.map((r: { name: string }) => r.name).sort()).toEqual([
			'Homepage slow on mobile',
			'Redesign homepage',
		]);
		expect(
			inProject.body.results.find((r: { module: string }) => r.module === 'bugs')?.project,
		).toEqual({ id: DEMO.projects.website, name: 'Website Relaunch' });
		expect(
			(
				await call('GET', 'projects', `${P()}/projects/3099999999999/search`, {
					query: { search_term: 'x', module: 'all' },
				})
			).status,
		).toBe(404);
	});

	test('my tasks: the portal tasks owned by the signed-in user', async () => {
		const r = await call('GET', 'projects', `${P()}/mytasks`);
		expect(ids(r.body.tasks, 'id').sort()).toEqual(
			[DEMO.tasks.homepage, DEMO.tasks.checkout, DEMO.tasks.appStore].sort(),
		);
	});

	test('custom-field values by API name are checked against the portal definitions', async () => {
		const good = await call('POST', 'projects', `${P()}/projects`, {
			json: {
				name: 'CF project',
				cf_url: 'zylker.example/x',
				cf_single_select: 'Low',
				cf_multi_select: ['Red'],
				cf_integer: 42,
				cf_date: '2026-03-01',
				cf_time: '09:30',
				cf_single_user: { zpuid: '8000000000001' },
			},
		});
		expect(good.status).toBe(201);
		expect(good.body).toMatchObject({
			cf_url: 'https://zylker.example/x',
			cf_single_select: 'Low',
			cf_multi_select: ['Red'],
			cf_integer: 42,
		});
		const unknown = await call('POST', 'projects', `${P()}/projects`, {
			json: { name: 'CF project', not_a_custom_field: 'refused' },
		});
		expect([unknown.status, unknown.body.errorCode, unknown.body.message]).toEqual([
			400,
			'INVALID_INPUTSTREAM',
			'Invalid value for "not_a_custom_field": is not a body key of this operation (no field table names it)',
		]);
		for (const [key, value, rule] of [
			['cf_url', `https://x.example/${'a'.repeat(190)}`, /at most 200/],
			['cf_single_select', 'Urgent', /one of: Low, Medium, High/],
			['cf_single_line', 'x'.repeat(201), /at most 200/],
			['cf_phone', '+1 (555) 123-45678', /at most 15/],
			['cf_integer', 1.5, /whole number/],
			['cf_date', '01/03/2026', /yyyy-mm-dd/],
			['cf_currency', { amount: 'ten' }, /number/],
		] as const) {
			const r = await call('POST', 'projects', `${P()}/projects`, {
				json: { name: 'Bad CF', [key]: value },
			});
			expect(r.status).toBe(400);
			expect(r.body.errorCode).toBe('INVALID_INPUTSTREAM');
			expect(r.body.message).toContain(`"${key}`);
			expect(r.body.message).toMatch(rule);
		}
		const id = DEMO.projects.website;
		const upd = await call('PATCH', 'projects', `${P()}/projects/${id}`, {
			json: { cf_multi_select: [{ add: ['Green', 'Red'], remove: ['Blue'] }] },
		});
		expect(upd.status).toBe(200);
		expect(upd.body.cf_multi_select).toEqual(['Red', 'Green']);
		const replace = await call('PATCH', 'projects', `${P()}/projects/${id}`, {
			json: { cf_multi_select: ['Yellow'] },
		});
		expect(replace.body.cf_multi_select).toEqual(['Yellow']);
		const badAdd = await call('PATCH', 'projects', `${P()}/projects/${id}`, {
			json: { cf_multi_select: [{ add: ['Purple'] }] },
		});
		expect(badAdd.body.message).toContain('cf_multi_select[0].add[0]');
		const users = await call('PATCH', 'projects', `${P()}/projects/${DEMO.projects.mobile}`, {
			json: {
				cf_multi_user: [
					{ add: [{ zpuid: '8000000000009' }], remove: [{ zpuid: '8000000000001' }] },
				],
			},
		});
		expect(users.body.cf_multi_user).toEqual([{ zpuid: '8000000000009' }]);
		expect(
			(
				await call('POST', 'projects', `${P()}/projects`, {
					json: { name: 'x', cf_multi_select: [{ add: ['Red'] }] },
				})
			).body.message,
		).toMatch(/update only/);
	});

	test('copy_from copies a template; an unknown source is refused', async () => {
		const c = await call('POST', 'projects', `${P()}/projects`, {
			json: { name: 'From template', copy_from: DEMO.projects.website },
		});
		expect(c.body).toMatchObject({
			name: 'From template',
			cf_single_line: 'Phase 2',
			description: 'Website Relaunch (demo)',
		});
		expect(c.body.id).not.toBe(DEMO.projects.website);
		expect(
			(
				await call('POST', 'projects', `${P()}/projects`, {
					json: { name: 'x', copy_from: '3099999999999' },
				})
			).body.message,
		).toContain('copy_from');
	});
});
