/**
 * Vendor Invoice (customer payments and refunds), end to end: workflows run by n8n's
 * engine against the emulator. Every request is asserted (method, path, query, the
 * organisation header `X-com-vendor-invoice-organizationid`, body) with the outputs.
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { apiCall, fromList, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
const refunds = env.orgSteps('vendorInvoice', { resource: 'refund' });
let org: string;
beforeAll(() => (org = env.org));

/** Every request carried the stored token and the organisation in the invoice header (not in the query). */
const expectSigned = (): void => env.expectSigned({ org: 'invoiceHeader' });

test('create a payment applied to two invoices -> get -> update with invoice_payment_id -> refund -> list refunds -> delete', async () => {
	const a = await env.newInvoice(DEMO.customers.acme, 300);
	const b = await env.newInvoice(DEMO.customers.acme, 200);
	env.em.clearRequests();
	const created = "={{ $('Create').item.json.payment_id }}";
	const result = await env.run([
		payments('Create', {
			operation: 'create',
			customer_id: DEMO.customers.acme,
			amount: 600,
			date: '2026-03-01',
			invoices: {
				values: [
					{ invoice_id: a.id, amount_applied: 300 },
					{ invoice_id: b.id, amount_applied: 150 },
				],
			},
			additionalFields: {
				payment_mode: 'banktransfer',
				reference_number: 'WIRE-77',
				description: 'March wire',
				bank_charges: 2.5,
				exchange_rate: 1,
			},
		}),
		payments('Get', { operation: 'get', payment_id: byId('={{ $json.payment_id }}') }),
		payments('Update', {
			operation: 'update',
			payment_id: byId(created),
			updateFields: {
				customer_id: DEMO.customers.acme,
				amount: 600,
				payment_mode: 'check',
				invoices: {
					values: [
						{
							invoice_payment_id: "={{ $('Create').item.json.invoices[0].invoice_payment_id }}",
							invoice_id: a.id,
							amount_applied: 300,
						},
						{
							invoice_payment_id: "={{ $('Create').item.json.invoices[1].invoice_payment_id }}",
							invoice_id: b.id,
							amount_applied: 200,
						},
					],
				},
				reference_number: 'CHK-78',
			},
		}),
		refunds('Refund', {
			operation: 'create',
			payment_id: byId(created),
			amount: 40,
			date: '2026-03-05',
			refund_mode: 'cash',
			additionalFields: { reference_number: 'RF-1', description: 'Excess' },
		}),
		refunds('Refunds', { operation: 'getAll', payment_id: byId(created), returnAll: true }),
		payments('Delete', { operation: 'delete', payment_id: byId(created) }),
	]);
	expectNoError(result);

	const payment = json(result, 'Create')[0];
	const id = String(payment.payment_id);
	expect(id).toMatch(/^\d+$/);
	expect(payment).toMatchObject({
		customer_id: DEMO.customers.acme,
		customer_name: 'Acme Corp',
		amount: 600,
		payment_mode: 'banktransfer',
		date: '2026-03-01',
		status: 'success',
		reference_number: 'WIRE-77',
	});
	const applied = payment.invoices as IDataObject[];
	expect(
		applied.map((i) => [i.invoice_id, i.invoice_number, i.amount_applied, i.balance_amount]),
	).toEqual([
		[a.id, a.number, 300, 0],
		[b.id, b.number, 150, 50],
	]);
	expect(json(result, 'Get')[0]).toMatchObject({ payment_id: id, amount: 600, invoices: applied });
	const updated = json(result, 'Update')[0];
	expect(updated).toMatchObject({
		payment_id: id,
		payment_mode: 'check',
		reference_number: 'CHK-78',
	});
	expect(
		(updated.invoices as IDataObject[]).map((i) => [i.invoice_payment_id, i.amount_applied]),
	).toEqual([
		[applied[0].invoice_payment_id, 300],
		[applied[1].invoice_payment_id, 200],
	]);
	const refund = json(result, 'Refund')[0];
	expect(refund).toMatchObject({
		payment_id: id,
		amount: 40,
		refund_mode: 'cash',
		date: '2026-03-05',
		reference_number: 'RF-1',
	});
	expect(json(result, 'Refunds')).toEqual([refund]);
	expect(json(result, 'Delete')).toEqual([
		{ deleted: true, code: 0, message: 'The payment has been deleted.' },
	]);
	for (const node of ['Create', 'Get', 'Update', 'Refund', 'Refunds', 'Delete'])
		expect(result.output(node).map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
	// the invoices are open again after the delete
	expect([
		env.orgTenant().get('invoices', a.id)!.balance,
		env.orgTenant().get('invoices', b.id)!.balance,
	]).toEqual([300, 200]);

	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: '/invoice/v3/customerpayments',
			query: {},
			org,
			body: {
				customer_id: DEMO.customers.acme,
				amount: 600,
				payment_mode: 'banktransfer',
				date: '2026-03-01',
				reference_number: 'WIRE-77',
				description: 'March wire',
				invoices: [
					{ invoice_id: a.id, amount_applied: 300 },
					{ invoice_id: b.id, amount_applied: 150 },
				],
				exchange_rate: 1,
				bank_charges: 2.5,
			},
		},
		{ method: 'GET', path: `/invoice/v3/customerpayments/${id}`, query: {}, org, body: undefined },
		{
			method: 'PUT',
			path: `/invoice/v3/customerpayments/${id}`,
			query: {},
			org,
			body: {
				customer_id: DEMO.customers.acme,
				amount: 600,
				payment_mode: 'check',
				reference_number: 'CHK-78',
				invoices: [
					{
						invoice_payment_id: applied[0].invoice_payment_id,
						invoice_id: a.id,
						amount_applied: 300,
					},
					{
						invoice_payment_id: applied[1].invoice_payment_id,
						invoice_id: b.id,
						amount_applied: 200,
					},
				],
			},
		},
		{
			method: 'POST',
			path: `/invoice/v3/customerpayments/${id}/refunds`,
			query: {},
			org,
			body: {
				amount: 40,
				date: '2026-03-05',
				refund_mode: 'cash',
				reference_number: 'RF-1',
				description: 'Excess',
			},
		},
		{
			method: 'GET',
			path: `/invoice/v3/customerpayments/${id}/refunds`,
			query: {},
			org,
			body: undefined,
		},
		{
			method: 'DELETE',
			path: `/invoice/v3/customerpayments/${id}`,
			query: {},
			org,
			body: undefined,
		},
	]);
	expect(env.apiRequests()[0].headers['content-type']).toBe('application/json');
	expect(env.apiRequests().map((r) => r.status)).toEqual([201, 200, 200, 201, 200, 200]);
	expectSigned();
});

test('get many: every documented filter reaches the query and selects the one matching payment', async () => {
	const target = await env.call('POST', 'invoice', '/customerpayments', {
		json: {
			customer_id: DEMO.customers.globex,
			amount: 123.45,
			payment_mode: 'banktransfer',
			date: '2026-01-15',
			reference_number: 'REF-ALL-1',
			description: 'Filter target',
		},
	});
	await env.call('POST', 'invoice', '/customerpayments', {
		json: {
			customer_id: DEMO.customers.globex,
			amount: 123.46,
			payment_mode: 'cash',
			date: '2026-01-15',
			reference_number: 'REF-ALL-2',
			description: 'Filter decoy',
		},
	});
	env.em.clearRequests();
	const filters = {
		customer_name_startswith: 'Glo',
		customer_name_contains: 'obex',
		reference_number_startswith: 'REF-ALL',
		reference_number_contains: 'ALL',
		date: '2026-01-15',
		amount_less_than: 124,
		amount_less_equals: 123.45,
		amount_greater_than: 123,
		amount_greater_equals: 123.45,
		notes_startswith: 'Filter',
		notes_contains: 'target',
		payment_mode_startswith: 'bank',
		payment_mode_contains: 'transfer',
		filter_by: 'PaymentMode.BankTransfer',
	};
	const result = await env.run([
		payments('List', { operation: 'getAll', returnAll: true, filters }),
	]);
	expectNoError(result);
	expect(json(result, 'List')).toEqual([
		expect.objectContaining({
			payment_id: target.body.payment.payment_id,
			amount: 123.45,
			payment_mode: 'banktransfer',
			reference_number: 'REF-ALL-1',
		}),
	]);
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'GET',
			path: '/invoice/v3/customerpayments',
			query: {
				...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)])),
				page: '1',
				per_page: '200',
			},
			org,
			body: undefined,
		},
	]);
	expectSigned();
});

test('get many with Return All reads every page; a limit asks for just that many', async () => {
	for (let i = 0; i < 205; i++) {
		const res = await env.call('POST', 'invoice', '/customerpayments', {
			json: { customer_id: DEMO.customers.initech, amount: i + 1, reference_number: `BULK-${i}` },
		});
		expect(res.status).toBe(201);
	}
	env.em.clearRequests();
	const result = await env.run([
		payments('List', {
			operation: 'getAll',
			returnAll: true,
			filters: { reference_number_startswith: 'BULK-' },
		}),
	]);
	expectNoError(result);
	const out = json(result, 'List');
	expect(out).toHaveLength(205);
	expect(new Set(out.map((p) => p.payment_id)).size).toBe(205);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query])).toEqual(
		[1, 2].map((page) => [
			'GET',
			'/us/api/invoice/v3/customerpayments',
			{ reference_number_startswith: 'BULK-', page: String(page), per_page: '200' },
		]),
	);

	env.em.clearRequests();
	const limited = await env.run([
		payments('List', {
			operation: 'getAll',
			returnAll: false,
			limit: 3,
			filters: { reference_number_startswith: 'BULK-' },
		}),
	]);
	expect(json(limited, 'List')).toHaveLength(3);
	expect(env.apiRequests().map((r) => r.query.per_page)).toEqual(['3']);
	expectSigned();
});

test('an amount over the balance gives the 24016 message: what went wrong and what to do', async () => {
	const inv = await env.newInvoice(DEMO.customers.umbrella, 100);
	env.em.clearRequests();
	const result = await env.run([
		payments('Create', {
			operation: 'create',
			customer_id: DEMO.customers.umbrella,
			amount: 150,
			invoices: { values: [{ invoice_id: inv.id, amount_applied: 150 }] },
		}),
	]);
	const error = result.error('Create');
	expect(error?.message).toBe(
		"The amount entered exceeds the balance due on the invoice (code 24016). Lower Amount Applied to at most the invoice's balance due; the rest of the payment stays unused and can be refunded. [item 0]",
	);
	expect((error as { description?: string }).description).toBe(
		'The Vendor API answered: The amount entered is more than the balance due for the selected invoice(s).',
	);
	expect(error).toMatchObject({ httpCode: '400' });
	expect(env.apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
		['POST', '/us/api/invoice/v3/customerpayments', 400],
	]);
	expect(env.orgTenant().get('invoices', inv.id)!.balance).toBe(100);
	expect(error?.message).not.toContain(String(env.storedToken.access_token));
});

test('3004, 9521 and 9523 become messages that say what to do', async () => {
	const retainer = env.orgTenant().get('invoices', DEMO.invoices.retainer)!;
	const full = Number(retainer.balance);
	const create = (name: string, customer: string, amount: number, applied: number) =>
		payments(
			name,
			{
				operation: 'create',
				customer_id: customer,
				amount,
				invoices: { values: [{ invoice_id: DEMO.invoices.retainer, amount_applied: applied }] },
			},
			{ onError: 'continueRegularOutput' },
		);

	const result = await env.run([
		create('Unknown customer', '1199999999999', 10, 10),
		create('Partial retainer', DEMO.customers.umbrella, 10, 10),
		create('Full retainer', DEMO.customers.umbrella, full, full),
	]);
	expectNoError(result);
	expect(json(result, 'Unknown customer')[0]).toMatchObject({
		error:
			'The customer field is blank or incorrect (code 3004). Set Customer ID to the ID of an existing customer. [item 0]',
		httpCode: '400',
	});
	expect(json(result, 'Partial retainer')[0].error).toBe(
		'A retainer invoice cannot be paid partially (code 9521). Record the full payment of the retainer invoice. [item 0]',
	);
	const paid = json(result, 'Full retainer')[0];
	expect(paid).toMatchObject({
		amount: full,
		invoices: [
			expect.objectContaining({ invoice_id: DEMO.invoices.retainer, amount_applied: full }),
		],
	});

	env.em.clearRequests();
	const change = await env.run([
		payments('Update', {
			operation: 'update',
			payment_id: byId(String(paid.payment_id)),
			updateFields: {
				customer_id: DEMO.customers.umbrella,
				amount: full,
				invoices: { values: [{ invoice_id: DEMO.invoices.retainer, amount_applied: full - 1 }] },
			},
		}),
	]);
	expect(change.error('Update')?.message).toBe(
		'The amount paid to a retainer invoice cannot be changed (code 9523). Delete the payment and record it again. [item 0]',
	);
	// the payment mode nobody set is not sent (it once went as the form's default, cash)
	expect(
		env
			.apiRequests()
			.map((r) => [r.method, r.path, r.status, 'payment_mode' in (r.body as IDataObject)]),
	).toEqual([['PUT', `/us/api/invoice/v3/customerpayments/${paid.payment_id}`, 400, false]]);
});

test('continueOnFail: the item over the balance becomes an error item, the others are paid; paired items kept', async () => {
	const invs = [
		await env.newInvoice(DEMO.customers.acme, 50),
		await env.newInvoice(DEMO.customers.acme, 50),
		await env.newInvoice(DEMO.customers.acme, 50),
	];
	env.em.clearRequests();
	const result = await env.run(
		[
			payments(
				'Pay',
				{
					operation: 'create',
					customer_id: DEMO.customers.acme,
					amount: '={{ $json.amount }}',
					invoices: {
						values: [{ invoice_id: '={{ $json.invoice }}', amount_applied: '={{ $json.amount }}' }],
					},
				},
				{ onError: 'continueRegularOutput' },
			),
		],
		invs.map((inv, i) => ({ invoice: inv.id, amount: i === 1 ? 75 : 50 })),
	);
	expectNoError(result);
	const out = result.output('Pay');
	expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(out[0].json).toMatchObject({
		amount: 50,
		invoices: [expect.objectContaining({ invoice_id: invs[0].id })],
	});
	expect(out[1].json.error).toMatch(
		/^The amount entered exceeds the balance due on the invoice \(code 24016\)/,
	);
	expect(out[2].json).toMatchObject({
		amount: 50,
		invoices: [expect.objectContaining({ invoice_id: invs[2].id })],
	});
	expect(env.apiRequests().map((r) => [r.status, (r.body as IDataObject).amount])).toEqual([
		[201, 50],
		[400, 75],
		[201, 50],
	]);
});

test('payment_mode and refund_mode are pickers with their limits, checked before sending', async () => {
	const result = await env.run([
		payments(
			'Bad mode',
			{
				operation: 'create',
				customer_id: DEMO.customers.acme,
				amount: 5,
				additionalFields: { payment_mode: '={{ "bitcoin" }}' },
			},
			{ onError: 'continueRegularOutput' },
		),
		payments(
			'Long reference',
			{
				operation: 'create',
				customer_id: DEMO.customers.acme,
				amount: 5,
				additionalFields: { reference_number: 'r'.repeat(101) },
			},
			{ onError: 'continueRegularOutput' },
		),
		refunds(
			'Long refund mode',
			{
				operation: 'create',
				payment_id: byId(DEMO.payments.paid2),
				amount: 1,
				refund_mode: `={{ "${'m'.repeat(51)}" }}`,
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expectNoError(result);
	expect(json(result, 'Bad mode')[0].error).toBe(
		'Invalid input: Payment Mode must be one of: check, cash, creditcard, banktransfer, bankremittance, autotransaction, others (got "bitcoin") [item 0]',
	);
	expect(json(result, 'Long reference')[0].error).toBe(
		'Invalid input: Reference Number must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 101) [item 0]',
	);
	expect(json(result, 'Long refund mode')[0].error).toBe(
		'Invalid input: Refund Mode must be at most 50 characters as the API counts them, where an emoji counts as 2 (got 51) [item 0]',
	);
	expect(env.apiRequests()).toHaveLength(0);

	// The refund modes are not a closed list: another mode within 50 characters is sent.
	const paypal = await env.run([
		refunds('Refund', {
			operation: 'create',
			payment_id: byId(DEMO.payments.paid2),
			amount: 10,
			refund_mode: '={{ "paypal" }}',
		}),
	]);
	expectNoError(paypal);
	expect(json(paypal, 'Refund')[0]).toMatchObject({
		payment_id: DEMO.payments.paid2,
		amount: 10,
		refund_mode: 'paypal',
	});
	expect(env.apiRequests().map(apiCall)).toEqual([
		{
			method: 'POST',
			path: `/invoice/v3/customerpayments/${DEMO.payments.paid2}/refunds`,
			query: {},
			org,
			body: { amount: 10, refund_mode: 'paypal' },
		},
	]);

	// Neither mode has a documented default: the payment mode is a picker under Additional Fields (sent
	// only when added), the refund mode free text (the reference names no values), empty until typed.
	const node = new VendorInvoice();
	const top = node.description.properties.filter((p) => p.name === 'payment_mode');
	expect(top).toEqual([]);
	const additional = node.description.properties.find(
		(p) => p.name === 'additionalFields' && p.displayOptions?.show?.resource?.includes('payment'),
	);
	const mode = (
		additional?.options as Array<{
			name: string;
			type?: string;
			options?: Array<{ value: string }>;
		}>
	).find((o) => o.name === 'payment_mode');
	expect(mode?.type).toBe('options');
	// starts at Not Set (''): adding the field sends nothing until a mode is picked
	expect(mode?.options?.map((o) => o.value)).toEqual([
		'',
		'autotransaction',
		'bankremittance',
		'banktransfer',
		'cash',
		'check',
		'creditcard',
		'others',
	]);
	const refundMode = node.description.properties.find((p) => p.name === 'refund_mode');
	expect(refundMode).toMatchObject({ type: 'string', default: '' });
	expect(refundMode?.description).toContain('At most 50 characters');
});

test('the payment picker lists payments by number through the list call with the organisation header', async () => {
	const paymentPicker = env.picker(VendorInvoice, 'searchPayments', {
		organizationId: org,
		resource: 'payment',
		operation: 'get',
		payment_id: fromList(''),
	});
	const all = await paymentPicker();
	const total = env.orgTenant().all('customerpayments').length;
	expect(all.results).toHaveLength(Math.min(total, 200));
	expect(all.results).toContainEqual({ name: '1', value: DEMO.payments.paid1 });
	expect(all.paginationToken).toBe(total > 200 ? '2' : undefined);
	const [first] = env.apiRequests().map(apiCall);
	expect(first).toEqual({
		method: 'GET',
		path: '/invoice/v3/customerpayments',
		query: { page: '1', per_page: '200' },
		org,
		body: undefined,
	});

	const found = await paymentPicker({ filter: DEMO.payments.partial });
	expect(found.results).toEqual([{ name: '3', value: DEMO.payments.partial }]);
	expectSigned();
});
