/** Shared by Books, Payments, Billing and the demo data: customer names, line totals, invoice balances. */
import type { Rec, Tenant } from '../store';
import { money } from './formats';

/** An invoice's open statuses, overdue aside: `settleInvoice` keeps them, `isRemindable` reads them. */
const OPEN = ['sent', 'unpaid', 'partially_paid', 'viewed'];

export function customerName(tenant: Tenant, customerId: unknown): string {
	return String(tenant.get('customers', customerId as string)?.customer_name ?? '');
}

/** Line ids, names from the item, line totals, sub_total and total. */
export function computeTotals(rec: Rec, tenant: Tenant, newId: () => string): void {
	const lines: Rec[] = Array.isArray(rec.line_items) ? rec.line_items : [];
	rec.line_items = lines.map((l, i) => {
		const item = l.item_id !== undefined ? tenant.get('items', l.item_id) : undefined;
		const rate = Number(l.rate ?? item?.rate ?? 0);
		const quantity = Number(l.quantity ?? 1);
		return {
			line_item_id: String(l.line_item_id ?? newId()),
			item_order: i,
			name: item?.name ?? '',
			description: item?.description ?? '',
			...l,
			item_id: l.item_id !== undefined ? String(l.item_id) : undefined,
			rate,
			quantity,
			item_total: money(rate * quantity - Number(l.discount_amount ?? 0)),
		};
	});
	rec.sub_total = money(rec.line_items.reduce((s: number, l: Rec) => s + l.item_total, 0));
	rec.tax_total = 0;
	rec.total = money(rec.sub_total + Number(rec.shipping_charge ?? 0) + Number(rec.adjustment ?? 0));
}

/** Balance from total, payments and credits; status from the balance (draft and void stay). */
export function settleInvoice(inv: Rec, today: string): void {
	inv.payment_made = money(Number(inv.payment_made ?? 0));
	inv.credits_applied = money(Number(inv.credits_applied ?? 0));
	inv.balance = money(
		Number(inv.total ?? 0) -
			inv.payment_made -
			inv.credits_applied -
			Number(inv.write_off_amount ?? 0),
	);
	if ((inv.status === 'draft' || inv.status === 'void') && inv.payment_made === 0) return;
	if (inv.balance <= 0) inv.status = 'paid';
	else if (inv.payment_made > 0) inv.status = 'partially_paid';
	else if (inv.due_date && inv.due_date < today) inv.status = 'overdue';
	else if (!OPEN.includes(inv.status)) inv.status = 'sent';
}

export function isRemindable(inv: Rec): boolean {
	return OPEN.includes(inv.status) || inv.status === 'overdue';
}
