/**
 * Vendor Invoice (`/invoice/v3`): customer payments and refunds (document 002). Payments
 * work on the books invoices of the same organisation.
 *
 * Documented errors (HTTP 400): 3004 blank or unknown customer_id (checked before the table
 * validation, so a blank customer is 3004 and not a "required" refusal); 24016 an amount
 * applied above the invoice's balance; 9521 a partial payment of a retainer invoice
 * (invoice flag `is_retainer`); 9523 a changed amount on a retainer invoice on update
 * (including dropping it).
 *
 * Choices: an unknown invoice in `invoices` -> 400 code 1000; an invoice of another
 * customer, or amounts applied above the payment's `amount` -> 400 code 2. A refund above
 * the payment's unused amount (amount - applied - refunded) -> 400 code 2. Payment numbers
 * are `1`, `2`, ... per organisation; `status` is `success`. Delete gives the applied
 * amounts back to the invoices. Refund list: `GET /customerpayments/{payment_id}/refunds`
 * (inferred path) answering `{ code, message, payment_refunds: [...] }`, no page_context.
 * Payment list: `page_context` as an object.
 */
import type { Rec } from '../store';
import { customerName, settleInvoice } from './books';
import {
	acctError,
	bodyObject,
	CODE,
	type Ctx,
	day,
	envelope,
	findRecord,
	genericCreate,
	genericDelete,
	genericList,
	genericUpdate,
	invalidField,
	isReply,
	money,
	notFound,
	type Reply,
	type Rules,
	tenantOf,
} from './common';

interface Application {
	invoice_id: string;
	amount_applied: number;
	invoice_payment_id?: string;
}

function checkCustomer(ctx: Ctx): Reply | undefined {
	const id = bodyObject(ctx).customer_id;
	if (id === undefined || id === null || String(id).trim() === '' || !tenantOf(ctx).get('customers', String(id))) {
		return acctError(400, CODE.customer, 'Please enter a valid customer. The customer field is blank or incorrect.');
	}
	return undefined;
}

function applicationsOf(payment: Rec | undefined): Application[] {
	return ((payment?.invoices ?? []) as Rec[]).map((a) => ({
		invoice_id: String(a.invoice_id),
		amount_applied: Number(a.amount_applied),
		invoice_payment_id: a.invoice_payment_id,
	}));
}

/** Applies (sign 1) or takes back (sign -1) a payment's amounts on its invoices. */
function book(ctx: Ctx, apps: Application[], sign: 1 | -1, date?: string): void {
	const tenant = tenantOf(ctx);
	for (const a of apps) {
		const inv = tenant.get('invoices', a.invoice_id);
		if (!inv) continue;
		inv.payment_made = money(Number(inv.payment_made ?? 0) + sign * a.amount_applied);
		if (sign === 1 && date) inv.last_payment_date = date;
		settleInvoice(inv, day(ctx.clock.now()));
	}
}

/**
 * Checks the `invoices` of a create / update body against balances as they would be with
 * `previous` taken back. Returns the refusal, or the checked applications.
 */
function checkApplications(ctx: Ctx, previous?: Rec): Application[] | Reply {
	const body = bodyObject(ctx);
	const tenant = tenantOf(ctx);
	const old = applicationsOf(previous);
	const entries: Rec[] = Array.isArray(body.invoices) ? body.invoices : previous ? (previous.invoices ?? []) : [];
	const apps: Application[] = [];
	for (const [i, e] of entries.entries()) {
		const id = String(e.invoice_id);
		const inv = tenant.get('invoices', id);
		if (!inv) return acctError(400, CODE.notFound, `Invoice ${id} does not exist.`);
		if (String(inv.customer_id) !== String(body.customer_id)) {
			return invalidField(ctx, `invoices[${i}].invoice_id`, `invoice ${inv.invoice_number} belongs to another customer`);
		}
		const before = old.filter((a) => a.invoice_id === id).reduce((s, a) => s + a.amount_applied, 0);
		const balance = money(Number(inv.balance) + before);
		const amount = Number(e.amount_applied);
		if (inv.is_retainer && previous && old.some((a) => a.invoice_id === id) && amount !== before) {
			return acctError(400, CODE.retainerChange, 'The payment amount made to a retainer invoice cannot be changed. Delete the payment and add it again.');
		}
		if (amount > balance + 1e-9) {
			return acctError(400, CODE.overBalance, 'The amount entered is more than the balance due for the selected invoice(s).');
		}
		if (inv.is_retainer && amount < balance - 1e-9 && !(previous && before === amount)) {
			return acctError(400, CODE.retainerPartial, 'Partial payment of a retainer invoice is not allowed. Please record the full payment.');
		}
		apps.push({ invoice_id: id, amount_applied: amount, invoice_payment_id: e.invoice_payment_id });
	}
	for (const a of old) {
		const inv = tenant.get('invoices', a.invoice_id);
		if (inv?.is_retainer && !apps.some((n) => n.invoice_id === a.invoice_id)) {
			return acctError(400, CODE.retainerChange, 'The payment amount made to a retainer invoice cannot be changed. Delete the payment and add it again.');
		}
	}
	const applied = apps.reduce((s, a) => s + a.amount_applied, 0);
	if (applied > Number(body.amount) + 1e-9) return invalidField(ctx, 'amount', `is less than the amounts applied to invoices (${money(applied)})`);
	return apps;
}

/** Fills the payment record from its checked applications. */
function fill(ctx: Ctx, rec: Rec, apps: Application[]): void {
	const tenant = tenantOf(ctx);
	rec.customer_id = String(rec.customer_id);
	rec.customer_name = customerName(tenant, rec.customer_id);
	rec.email = String(tenant.get('customers', rec.customer_id)?.email ?? '');
	rec.invoices = apps.map((a) => {
		const inv = tenant.get('invoices', a.invoice_id) as Rec;
		return {
			invoice_id: a.invoice_id,
			invoice_payment_id: a.invoice_payment_id ?? ctx.store.nextId(),
			invoice_number: inv.invoice_number,
			date: inv.date,
			invoice_amount: inv.total,
			amount_applied: a.amount_applied,
			balance_amount: money(inv.balance),
		};
	});
	rec.invoice_number = rec.invoices.map((i: Rec) => i.invoice_number).join(',');
	rec.bcy_amount = rec.amount;
	rec.unused_amount = money(Number(rec.amount) - apps.reduce((s, a) => s + a.amount_applied, 0) - Number(rec.amount_refunded ?? 0));
}

export const paymentRules: Rules = {
	'invoice.payment.create': {
		pre: checkCustomer,
		handle: (ctx) => {
			const apps = checkApplications(ctx);
			if (isReply(apps)) return apps;
			return genericCreate(ctx, (rec) => {
				const tenant = tenantOf(ctx);
				rec.payment_number = String(tenant.counter('payment'));
				rec.date ??= day(ctx.clock.now());
				Object.assign(rec, { status: 'success', amount_refunded: 0, currency_code: 'USD', currency_symbol: '$' });
				book(ctx, apps, 1, rec.date);
				fill(ctx, rec, apps);
			});
		},
	},
	'invoice.payment.update': {
		pre: checkCustomer,
		handle: (ctx) => {
			const previous = findRecord(ctx);
			if (isReply(previous)) return previous;
			const apps = checkApplications(ctx, previous);
			if (isReply(apps)) return apps;
			return genericUpdate(ctx, (rec) => {
				book(ctx, applicationsOf(previous), -1);
				book(ctx, apps, 1, rec.date);
				fill(ctx, rec, apps);
			});
		},
	},
	'invoice.payment.delete': {
		handle: (ctx) => {
			const rec = findRecord(ctx);
			if (isReply(rec)) return rec;
			book(ctx, applicationsOf(rec), -1);
			tenantOf(ctx).all('payment_refunds').filter((r) => r.payment_id === rec.payment_id).forEach((r) => tenantOf(ctx).remove('payment_refunds', r.payment_refund_id));
			return genericDelete(ctx);
		},
	},
	'invoice.payment.getAll': {
		handle: (ctx) =>
			genericList(ctx, {
				reportName: 'Customer Payments',
				entry: (p) => ({
					payment_id: p.payment_id,
					payment_number: p.payment_number,
					invoice_number: p.invoice_number,
					date: p.date,
					payment_mode: p.payment_mode,
					amount: p.amount,
					bcy_amount: p.bcy_amount,
					customer_id: p.customer_id,
					customer_name: p.customer_name,
					reference_number: p.reference_number,
					description: p.description,
				}),
			}),
	},
	'invoice.refund.create': {
		handle: (ctx) => {
			const payment = tenantOf(ctx).get('customerpayments', ctx.params.payment_id);
			if (!payment) return notFound(ctx, 'Payment', ctx.params.payment_id);
			const body = bodyObject(ctx);
			const amount = Number(body.amount);
			if (amount > Number(payment.unused_amount ?? 0) + 1e-9) {
				return invalidField(ctx, 'amount', `is more than the unused amount of the payment (${payment.unused_amount ?? 0})`);
			}
			const refund: Rec = { payment_refund_id: ctx.store.nextId(), payment_id: payment.payment_id, date: day(ctx.clock.now()), ...body, amount };
			tenantOf(ctx).put('payment_refunds', refund.payment_refund_id, refund);
			payment.amount_refunded = money(Number(payment.amount_refunded ?? 0) + amount);
			payment.unused_amount = money(Number(payment.unused_amount) - amount);
			return envelope('The refund information for this payment has been saved.', { payment_refunds: [refund] }, 201);
		},
	},
	'invoice.refund.getAll': {
		handle: (ctx) => {
			const payment = tenantOf(ctx).get('customerpayments', ctx.params.payment_id);
			if (!payment) return notFound(ctx, 'Payment', ctx.params.payment_id);
			const refunds = tenantOf(ctx).all('payment_refunds').filter((r) => r.payment_id === payment.payment_id);
			return envelope('success', { payment_refunds: refunds });
		},
	},
};
