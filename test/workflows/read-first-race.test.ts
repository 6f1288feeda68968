/**
 * Read-first updates told honestly (issue 34, Deliver 6), end to end on n8n's engine: Payment →
 * Update with only a description reads the payment for the customer and amount the API needs,
 * then writes. A change made by someone else between the read and the write (here: made by the
 * test proxy as soon as the read has been answered) is shown in the output when the write's
 * answer shows it (`readFirstWarning`); a change to a field the update resends cannot be seen
 * and is overwritten, as the operation's description says.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../emulator/demo-data';
import { useProxiedEnv } from '../tools/proxied-env';
import { byId, expectNoError, json } from './support';

const proxied = useProxiedEnv({ demo: true });
const id = DEMO.payments.paid2;

/** Between the node's read of the payment and its write, someone else changes `change` on the stored payment. */
function changeAfterRead(change: IDataObject): void {
	proxied.proxy.add({
		method: 'GET',
		path: new RegExp(`/customerpayments/${id}$`),
		action: {
			replace: (upstream) => {
				Object.assign(proxied.env.orgTenant().get('customerpayments', id)!, change);
				return { status: upstream.status, contentType: String(upstream.headers['content-type']), body: upstream.body };
			},
		},
	});
}

const update = (description: string) =>
	proxied.env.orgSteps('vendorInvoice', { resource: 'payment' })('Update', { operation: 'update', payment_id: byId(id), updateFields: { description } });

test('no change in between: no warning, and only the description changes', async () => {
	const { last_modified_time: _modified, ...before } = { ...proxied.env.orgTenant().get('customerpayments', id)! };
	const result = await proxied.env.run([update('first')]);
	expectNoError(result);
	const [out] = json(result, 'Update');
	expect(out.readFirstWarning).toBeUndefined();
	expect(proxied.env.orgTenant().get('customerpayments', id)).toMatchObject({ ...before, description: 'first' });
});

test('a field the update does not send changed in between: the output says so, naming it and what was sent as read', async () => {
	const read = String(proxied.env.orgTenant().get('customerpayments', id)!.payment_mode);
	const mode = read === 'cash' ? 'banktransfer' : 'cash';
	changeAfterRead({ payment_mode: mode });
	const result = await proxied.env.run([update('second')]);
	expectNoError(result);
	const [out] = json(result, 'Update');
	const warning = out.readFirstWarning as IDataObject;
	expect(warning.changed).toEqual({ payment_mode: { read, now: mode } });
	expect(Object.keys(warning.sentAsRead as IDataObject).sort()).toEqual(['amount', 'customer_id']);
	expect(String(warning.message)).toMatch(/^Changed by someone else between this node's read and its write: payment_mode/);
});

test('the amount changed in between cannot be seen in the answer: it is overwritten with the amount read, as the description says', async () => {
	const amount = Number(proxied.env.orgTenant().get('customerpayments', id)!.amount);
	changeAfterRead({ amount: amount + 150 });
	const result = await proxied.env.run([update('third')]);
	expectNoError(result);
	const [out] = json(result, 'Update');
	expect(out.readFirstWarning).toBeUndefined();
	expect(Number(proxied.env.orgTenant().get('customerpayments', id)!.amount)).toBe(amount);
});
