/**
 * Vendor Inventory (`/inventory/v1`, document 002): purchase bills; choices in README.md,
 * "Inventory".
 */
import { ATTACHMENT_EXTENSIONS } from '../../nodes/VendorBooks/tables/invoices';
import type { Source } from '../../nodes/shared/tables/spec';
import type { Rec } from '../store';
import { acctError, CODE } from './answers';
import { type Ctx, type Reply, type Rules, tenantOf } from './context';
import { day, money } from './formats';
import { genericCreate, genericList, genericUpdate } from './generic';
import { GUESS, NOT_FOUND, refuse } from './refusals';

const ATTACHMENT_TYPE: Source =
	'Payments, Bill: "An extra `attachment` file is accepted with extensions gif, png, jpeg, jpg, bmp, pdf."';

function fillBill(ctx: Ctx, rec: Rec, previous?: Rec): Reply | void {
	const tenant = tenantOf(ctx);
	const file = ctx.files[0];
	if (file) {
		const ext = file.fileName.includes('.')
			? file.fileName.slice(file.fileName.lastIndexOf('.') + 1).toLowerCase()
			: '';
		if (!(ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext)) {
			return refuse(
				ATTACHMENT_TYPE,
				acctError(
					400,
					CODE.fileType,
					`Attaching a file of type "${ext || '(none)'}" is not allowed. Allowed types: ${ATTACHMENT_EXTENSIONS.join(', ')}.`,
				),
			);
		}
		tenant.files.set(`bill:${rec.bill_id}`, {
			fileName: file.fileName,
			mimeType: file.contentType,
			data: file.data,
			canSendInMail: false,
		});
		rec.attachment_name = file.fileName;
	}
	rec.vendor_id = String(rec.vendor_id);
	rec.vendor_name = String(tenant.get('vendors', rec.vendor_id)?.vendor_name ?? '');
	rec.line_items = ((rec.line_items ?? []) as Rec[]).map((l, i) => {
		const rate = Number(l.rate ?? 0);
		const quantity = Number(l.quantity ?? 1);
		return {
			line_item_id: ctx.store.nextId(),
			item_order: i,
			...l,
			rate,
			quantity,
			item_total: money(rate * quantity),
		};
	});
	rec.sub_total = money(rec.line_items.reduce((s: number, l: Rec) => s + l.item_total, 0));
	rec.tax_total = 0;
	rec.total = rec.sub_total;
	const paid = ((previous?.payments ?? []) as Rec[]).reduce((s, p) => s + Number(p.amount ?? 0), 0);
	rec.balance = money(rec.total - paid - Number(previous?.vendor_credits_applied ?? 0));
	rec.status = rec.balance <= 0 ? 'paid' : 'open';
	rec.due_by_days = Math.round(
		(Date.parse(rec.due_date) - Date.parse(day(ctx.clock.now()))) / 86_400_000,
	);
	if (!previous)
		Object.assign(rec, {
			payments: [],
			vendor_credits: [],
			vendor_credits_applied: 0,
			currency_code: 'USD',
			currency_symbol: '$',
			price_precision: 2,
		});
}

export const inventoryRules: Rules = {
	'inventory.bill.create': {
		sources: [ATTACHMENT_TYPE],
		handle: (ctx) => genericCreate(ctx, (rec) => fillBill(ctx, rec)),
	},
	'inventory.bill.update': {
		sources: [...NOT_FOUND, ATTACHMENT_TYPE],
		handle: (ctx) => genericUpdate(ctx, (rec, _ctx, previous) => fillBill(ctx, rec, previous)),
	},
	'inventory.bill.getAll': {
		sources: [GUESS.paging],
		handle: (ctx) => genericList(ctx, { reportName: 'Bills' }),
	},
};
