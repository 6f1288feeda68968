/**
 * Vendor Invoice (`/invoice/v3`, document 002): customer payments and refunds on the books
 * invoices; documented errors and choices in README.md, "Payments".
 */
import type { Source } from '../../nodes/shared/tables/spec';
import type { Rec } from '../store';
import { acctError, CODE, envelope, invalidField } from './answers';
import { bodyObject, type Ctx, isReply, type Reply, type Rules, tenantOf } from './context';
import { day, money } from './formats';
import { findRecord, genericCreate, genericDelete, genericList, genericUpdate } from './generic';
import { customerName, settleInvoice } from './invoicing';
import { GUESS, NOT_FOUND, notFound, refuse } from './refusals';

/** The documented payment errors (the Payments document, "Errors"), in its words. */
const S = {
	customer: 'Payments, Errors: "3004 | customer field blank or incorrect"',
	retainerPartial:
		'Payments, Errors: "9521 | partial payment of a retainer invoice is not allowed; record the full payment"',
	retainerChange:
		'Payments, Errors: "9523 | the payment amount made to a retainer invoice cannot be changed; delete it and add it again"',
	overBalance:
		'Payments, Errors: "24016 | the amount entered exceeds the balance due on the invoice"',
	refundOverUnused: "guess: The emulator refuses a refund above the payment's unused amount",
} as const satisfies Record<string, Source>;

/** What a payment create or update may be refused for: its customer, its invoices (unknown, over the balance, a retainer's rules), the payment itself unknown. */
const WRITE_SOURCES: readonly Source[] = [
	S.customer,
	S.retainerPartial,
	S.retainerChange,
	S.overBalance,
	GUESS.notFound,
];

interface Application {
	invoice_id: string;
	amount_applied: number;
	invoice_payment_id?: string;
}

/** 3004 (the Payments document): the customer field blank or incorrect. On update only a customer that is sent is checked (a partial update keeps the stored one). */
function checkCustomer(ctx: Ctx, onUpdate = false): Reply | undefined {
	const body = bodyObject(ctx);
	if (onUpdate && !('customer_id' in body)) return undefined;
	const id = body.customer_id;
	if (
		id === undefined ||
		id === null ||
		String(id).trim() === '' ||
		!tenantOf(ctx).get('customers', String(id))
	) {
		return refuse(
			S.customer,
			acctError(
				400,
				CODE.customer,
				'Please enter a valid customer. The customer field is blank or incorrect.',
			),
		);
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
	const entries: Rec[] = Array.isArray(body.invoices)
		? body.invoices
		: previous
			? (previous.invoices ?? [])
			: [];
	const apps: Application[] = [];
	for (const e of entries) {
		const id = String(e.invoice_id);
		const inv = tenant.get('invoices', id);
		if (!inv)
			return refuse(GUESS.notFound, acctError(400, CODE.notFound, `Invoice ${id} does not exist.`));
		const before = old.filter((a) => a.invoice_id === id).reduce((s, a) => s + a.amount_applied, 0);
		const balance = money(Number(inv.balance) + before);
		const amount = Number(e.amount_applied);
		if (inv.is_retainer && previous && old.some((a) => a.invoice_id === id) && amount !== before) {
			return refuse(
				S.retainerChange,
				acctError(
					400,
					CODE.retainerChange,
					'The payment amount made to a retainer invoice cannot be changed. Delete the payment and add it again.',
				),
			);
		}
		if (amount > balance + 1e-9) {
			return refuse(
				S.overBalance,
				acctError(
					400,
					CODE.overBalance,
					'The amount entered is more than the balance due for the selected invoice(s).',
				),
			);
		}
		if (inv.is_retainer && amount < balance - 1e-9 && !(previous && before === amount)) {
			return refuse(
				S.retainerPartial,
				acctError(
					400,
					CODE.retainerPartial,
					'Partial payment of a retainer invoice is not allowed. Please record the full payment.',
				),
			);
		}
		apps.push({ invoice_id: id, amount_applied: amount, invoice_payment_id: e.invoice_payment_id });
	}
	for (const a of old) {
		const inv = tenant.get('invoices', a.invoice_id);
		if (inv?.is_retainer && !apps.some((n) => n.invoice_id === a.invoice_id)) {
			return refuse(
				S.retainerChange,
				acctError(
					400,
					CODE.retainerChange,
					'The payment amount made to a retainer invoice cannot be changed. Delete the payment and add it again.',
				),
			);
		}
	}
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
	rec.unused_amount = money(
		Number(rec.amount) -
			apps.reduce((s, a) => s + a.amount_applied, 0) -
			Number(rec.amount_refunded ?? 0),
	);
}

export const paymentRules: Rules = {
	'invoice.payment.create': {
		sources: WRITE_SOURCES,
		pre: checkCustomer,
		handle: (ctx) => {
			const apps = checkApplications(ctx);
			if (isReply(apps)) return apps;
			return genericCreate(ctx, (rec) => {
				const tenant = tenantOf(ctx);
				rec.payment_number = String(tenant.counter('payment'));
				rec.date ??= day(ctx.clock.now());
				Object.assign(rec, {
					status: 'success',
					amount_refunded: 0,
					currency_code: 'USD',
					currency_symbol: '$',
				});
				book(ctx, apps, 1, rec.date);
				fill(ctx, rec, apps);
			});
		},
	},
	'invoice.payment.update': {
		sources: WRITE_SOURCES,
		pre: (ctx) => checkCustomer(ctx, true),
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
		sources: NOT_FOUND,
		handle: (ctx) => {
			const rec = findRecord(ctx);
			if (isReply(rec)) return rec;
			book(ctx, applicationsOf(rec), -1);
			tenantOf(ctx)
				.all('payment_refunds')
				.filter((r) => r.payment_id === rec.payment_id)
				.forEach((r) => tenantOf(ctx).remove('payment_refunds', r.payment_refund_id));
			return genericDelete(ctx);
		},
	},
	'invoice.payment.getAll': {
		sources: [GUESS.paging],
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
		sources: [...NOT_FOUND, S.refundOverUnused],
		handle: (ctx) => {
			const payment = tenantOf(ctx).get('customerpayments', ctx.params.payment_id);
			if (!payment) return notFound(ctx, 'Payment', ctx.params.payment_id);
			const body = bodyObject(ctx);
			const amount = Number(body.amount);
			if (amount > Number(payment.unused_amount ?? 0) + 1e-9) {
				return refuse(
					S.refundOverUnused,
					invalidField(
						ctx,
						'amount',
						`is more than the unused amount of the payment (${payment.unused_amount ?? 0})`,
					),
				);
			}
			const refund: Rec = {
				payment_refund_id: ctx.store.nextId(),
				payment_id: payment.payment_id,
				date: day(ctx.clock.now()),
				...body,
				amount,
			};
			tenantOf(ctx).put('payment_refunds', refund.payment_refund_id, refund);
			payment.amount_refunded = money(Number(payment.amount_refunded ?? 0) + amount);
			payment.unused_amount = money(Number(payment.unused_amount) - amount);
			return envelope(
				'The refund information for this payment has been saved.',
				{ payment_refunds: [refund] },
				201,
			);
		},
	},
	'invoice.refund.getAll': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const payment = tenantOf(ctx).get('customerpayments', ctx.params.payment_id);
			if (!payment) return notFound(ctx, 'Payment', ctx.params.payment_id);
			const refunds = tenantOf(ctx)
				.all('payment_refunds')
				.filter((r) => r.payment_id === payment.payment_id);
			return envelope('success', { payment_refunds: refunds });
		},
	},
};
