/**
 * Nothing passes silently: answers that are not what an operation expects, lists that never
 * end, bodies that drip, and runs that end half done, through n8n's engine against the
 * emulator's faults.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../emulator/demo-data';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });

/** A new open invoice of `customer` for `rate` (one line), through the books area. */
async function newInvoice(customer: string, rate: number): Promise<string> {
	const res = await env.call('POST', 'books', '/invoices', { json: { customer_id: customer, line_items: [{ name: 'Work', rate, quantity: 1 }] } });
	expect(res.body.code).toBe(0);
	return String(res.body.invoice.invoice_id);
}

describe('a run that ends on a failing item says what became of every item', () => {
	test('10 payment creates in parallel, one answered 500, no Continue On Fail: the error lists the 9 done with their payment ids', async () => {
		const invoices: string[] = [];
		for (let i = 0; i < 10; i++) invoices.push(await newInvoice(DEMO.customers.acme, 40));
		env.em.clearRequests();
		let creates = 0;
		env.em.faults.next(1, { kind: 'status', status: 500 }, (r) => r.method === 'POST' && r.area === 'invoice' && ++creates === 4);
		const result = await env.run(
			[
				payments('Pay', {
					operation: 'create',
					customer_id: DEMO.customers.acme,
					amount: 40,
					payment_mode: 'cash',
					invoices: { values: [{ invoice_id: '={{ $json.invoice }}', amount_applied: 40 }] },
				}),
			],
			invoices.map((invoice) => ({ invoice })),
		);
		const error = result.error('Pay') as (Error & { description?: string }) | undefined;
		expect(error?.message).toMatch(/^Outcome unknown: the write may have been processed/);
		const failed = Number(/\[item (\d+); 9 of 10 items done, 0 not sent\]$/.exec(String(error?.message))?.[1]);
		expect(failed).toBeGreaterThanOrEqual(0);
		// every other item was sent once and created a payment: the error names each with its id
		const created = env.apiRequests().filter((r) => r.method === 'POST' && r.status === 201);
		expect(created).toHaveLength(9);
		const description = String(error?.description);
		const done = [...Array(10).keys()].filter((i) => i !== failed);
		for (const itemIndex of done) {
			const paymentId = new RegExp(`item ${itemIndex}: payment_id (\\d+)`).exec(description)?.[1];
			expect(paymentId).toBeDefined();
			// the id named is the payment the API created for that item
			const res = await env.call('GET', 'invoice', `/customerpayments/${String(paymentId)}`);
			expect(((res.body.payment as IDataObject).invoices as IDataObject[])[0].invoice_id).toBe(invoices[itemIndex]);
		}
		expect(description).toContain(`Failed: item ${failed}.`);
		expect(description).toContain('Not sent: none.');
		expect(description).toMatch(/Running the workflow again repeats the done items/);
	});
});
