/**
 * Vendor Books (`/books/v3`, document 001): items, estimates, invoices; the choices where the
 * document is silent are in README.md, "Books".
 */
import { ATTACHMENT_EXTENSIONS } from '../../nodes/VendorBooks/tables/invoices';
import { makePdf } from '../pdf';
import type { Source } from '../../nodes/shared/tables/spec';
import type { Rec, Tenant } from '../store';
import { acctError, CODE, envelope, invalidField } from './answers';
import { addComment, commentsOf } from './comments';
import { bodyObject, type Ctx, isReply, type Reply, type Rules, tenantOf } from './context';
import { day, idList, money } from './formats';
import { findRecord, genericCreate, genericDelete, genericList, genericUpdate } from './generic';
import { computeTotals, customerName, isRemindable, settleInvoice } from './invoicing';
import { GUESS, NOT_FOUND, notFound, refuse } from './refusals';

/** The document passages the Books refusals rest on. */
const S = {
	itemInUse:
		'Accounting, States and transitions: "An item that is part of a transaction cannot be deleted."',
	estimatePdfQuirk:
		'Accounting, Errors: "The samples show an error response with `code` 0 and a message for invalid `estimate_ids`"',
	estimatePrint25: 'Accounting, Limits: "Bulk print of estimates | 25"',
	invoice25: 'Accounting, Limits: "Bulk export or print of invoices | 25 per PDF"',
	reminders10: 'Accounting, Limits: "Bulk invoice reminders | 10 per call"',
	reminderOpen:
		'Accounting, States and transitions: "Payment reminders can be sent only for invoices that are open or overdue."',
	attachmentFile:
		'Accounting, Invoices: "a file; allowed extensions gif, png, jpeg, jpg, bmp, pdf"',
	attachmentType: 'Accounting, Limits: "Invoice attachment types | gif, png, jpeg, jpg, bmp, pdf"',
} as const satisfies Record<string, Source>;

const UNNAMED_QUERY = { unnamedQuery: GUESS.unnamedQuery } as const;

const MIME: Record<string, string> = {
	gif: 'image/gif',
	png: 'image/png',
	jpeg: 'image/jpeg',
	jpg: 'image/jpeg',
	bmp: 'image/bmp',
	pdf: 'application/pdf',
};

// ---------------------------------------------------------------- helpers

function pad(n: number): string {
	return String(n).padStart(5, '0');
}

/** `PUT /item|invoice/{id}/customfields`: merges `[{ customfield_id, value }]` into `custom_fields`. */
function updateCustomFields(collection: string, thing: string) {
	return (ctx: Ctx): Reply => {
		const rec = findRecord(ctx, collection, thing);
		if (isReply(rec)) return rec;
		const current: Rec[] = Array.isArray(rec.custom_fields) ? rec.custom_fields : [];
		for (const cf of Array.isArray(ctx.body) ? (ctx.body as Rec[]) : []) {
			const id = String(cf.customfield_id);
			const existing = current.find((c) => String(c.customfield_id) === id);
			if (existing) existing.value = cf.value;
			else current.push({ customfield_id: id, value: cf.value });
		}
		rec.custom_fields = current;
		return envelope('Custom fields have been updated.');
	};
}

/** Comments of estimates and invoices: add, list, update. */
function commentRules(collection: string, thing: string, parentField: string): Rules {
	const parent = (ctx: Ctx) => findRecord(ctx, collection, thing);
	return {
		addComment: {
			sources: NOT_FOUND,
			handle: (ctx) => {
				const p = parent(ctx);
				if (isReply(p)) return p;
				const show = bodyObject(ctx).show_comment_to_clients === true;
				addComment(ctx, 'comments', parentField, String(p[parentField]), {
					comment_type: show ? 'external' : 'internal',
					show_comment_to_clients: show,
					operation_type: 'Added',
					transaction_id: '',
					transaction_type: 'comment',
				});
				return envelope('Comments added.', {}, 201);
			},
		},
		getComments: {
			sources: NOT_FOUND,
			handle: (ctx) => {
				const p = parent(ctx);
				if (isReply(p)) return p;
				return envelope('success', {
					comments: commentsOf(ctx, 'comments', parentField, String(p[parentField])),
				});
			},
		},
		updateComment: {
			sources: NOT_FOUND,
			handle: (ctx) => {
				const p = tenantOf(ctx).get(collection, ctx.params[parentField]);
				if (!p) return notFound(ctx, thing, ctx.params[parentField]);
				const c = tenantOf(ctx).get('comments', ctx.params.comment_id);
				if (!c || c[parentField] !== String(p[parentField]))
					return notFound(ctx, 'Comment', ctx.params.comment_id);
				const body = bodyObject(ctx);
				if (body.description !== undefined) c.description = String(body.description);
				if (body.show_comment_to_clients !== undefined)
					c.show_comment_to_clients = body.show_comment_to_clients === true;
				return envelope('Comment has been updated.');
			},
		},
	};
}

/** The PDF of some estimates or invoices (`ids` already checked). */
function pdfReply(recs: Rec[], numberField: string, plural: string): Reply {
	const data = makePdf(
		recs.map((r) => ({
			title: `${r[numberField]}  (${r.status})`,
			lines: [
				`Customer: ${r.customer_name ?? ''}`,
				`Date: ${r.date ?? ''}`,
				...(r.line_items ?? []).map(
					(l: Rec) => `${l.name}  ${l.quantity} x ${l.rate} = ${l.item_total}`,
				),
				`Total: ${r.total ?? 0}`,
				...(r.balance !== undefined ? [`Balance due: ${r.balance}`] : []),
			],
		})),
	);
	const fileName = recs.length === 1 ? `${recs[0][numberField]}.pdf` : `${plural}.pdf`;
	return { status: 200, file: { data, contentType: 'application/pdf', fileName } };
}

/** Ids of a bulk query parameter, checked against a limit and the collection. */
function bulk(
	ctx: Ctx,
	param: string,
	collection: string,
	max: number,
	limit: Source,
): { recs: Rec[]; missing: string[] } | Reply {
	const ids = idList(ctx.query[param]);
	if (ids.length === 0)
		return refuse(GUESS.bulkIds, invalidField(ctx, param, 'is required', 'query'));
	if (ids.length > max)
		return refuse(
			limit,
			invalidField(ctx, param, `at most ${max} ids per request (got ${ids.length})`, 'query'),
		);
	const tenant = tenantOf(ctx);
	const recs = ids.map((id) => tenant.get(collection, id)).filter((r): r is Rec => !!r);
	const missing = ids.filter((id) => !tenant.get(collection, id));
	return { recs, missing };
}

/** Print: the envelope, or the code-0 answer naming `param` when an id is unknown (`unknown`: its source). */
function print(ctx: Ctx, param: string, collection: string, limit: Source, unknown: Source): Reply {
	const b = bulk(ctx, param, collection, 25, limit);
	if (isReply(b)) return b;
	return b.missing.length
		? refuse(unknown, envelope(`Invalid value passed for ${param}`))
		: envelope('success');
}

function allExist(
	ctx: Ctx,
	param: string,
	collection: string,
	max: number,
	limit: Source,
): Rec[] | Reply {
	const b = bulk(ctx, param, collection, max, limit);
	if (isReply(b)) return b;
	if (b.missing.length)
		return refuse(
			GUESS.invoiceIds,
			invalidField(ctx, param, `no such record: ${b.missing.join(', ')}`, 'query'),
		);
	return b.recs;
}

function mailContent(ctx: Ctx, inv: Rec, kind: 'invoice' | 'reminder'): Rec {
	const tenant = tenantOf(ctx);
	const customer = tenant.get('customers', inv.customer_id) ?? {};
	const to = customer.email ? [String(customer.email)] : [];
	const subject =
		kind === 'invoice'
			? `Invoice - ${inv.invoice_number} from ${tenant.name}`
			: `Payment reminder for invoice ${inv.invoice_number}`;
	const body =
		kind === 'invoice'
			? `<p>Dear ${customer.customer_name ?? 'customer'},</p><p>Please find invoice ${inv.invoice_number} for ${inv.total} attached.</p>`
			: `<p>Dear ${customer.customer_name ?? 'customer'},</p><p>Invoice ${inv.invoice_number} has a balance of ${inv.balance}, due ${inv.due_date}.</p>`;
	const fromEmail = `billing@${tenant.id}.example.com`;
	return {
		bcc_mails: [],
		gateways_configured: false,
		gateways_associated: false,
		bcc_mails_str: '',
		body,
		documents: [],
		customer_name: inv.customer_name ?? '',
		attach_pdf: true,
		entity_id: inv.invoice_id,
		cc_mails_list: [],
		file_name_without_extension: inv.invoice_number,
		to_mails_str: to.join(','),
		cc_mails_str: '',
		from_email: fromEmail,
		from_address: fromEmail,
		deprecated_placeholders_used: [],
		error_list: [],
		subject,
		emailtemplates: [
			{
				email_template_id: '1',
				name: kind === 'invoice' ? 'Default' : 'Payment reminder',
				selected: true,
			},
		],
		emailtemplate_documents: [],
		to_contacts: to.map((email) => ({
			email,
			first_name: customer.customer_name ?? '',
			selected: true,
		})),
		attachment_name: inv.attachment_name ?? '',
		file_name: `${inv.invoice_number}.pdf`,
		from_emails: [
			{ user_name: tenant.name, email: fromEmail, selected: true, is_org_email_id: true },
		],
		customer_id: inv.customer_id,
	};
}

function sendMail(ctx: Ctx, inv: Rec, kind: 'invoice' | 'reminder'): void {
	const body = bodyObject(ctx);
	const content = mailContent(ctx, inv, kind);
	const to =
		Array.isArray(body.to_mail_ids) && body.to_mail_ids.length
			? body.to_mail_ids.map(String)
			: idList(content.to_mails_str);
	tenantOf(ctx).mails.push({
		kind,
		invoiceId: String(inv.invoice_id),
		to,
		cc: Array.isArray(body.cc_mail_ids) ? body.cc_mail_ids.map(String) : [],
		subject: String(body.subject ?? content.subject),
		body: String(body.body ?? content.body),
		time: ctx.clock.now(),
	});
	if (kind === 'invoice') {
		inv.is_emailed = true;
		if (inv.status === 'draft') inv.status = 'sent';
	} else {
		inv.reminders_sent = Number(inv.reminders_sent ?? 0) + 1;
		inv.last_reminder_sent_date = day(ctx.clock.now());
	}
}

/** A single payment reminder with no recipient: refused (a listed guess; Send Email is not refused). */
function noRecipient(ctx: Ctx, inv: Rec): Reply | undefined {
	const body = bodyObject(ctx);
	if (Array.isArray(body.to_mail_ids) && body.to_mail_ids.length) return undefined;
	return mailContent(ctx, inv, 'reminder').to_mails_str
		? undefined
		: refuse(
				GUESS.reminderRecipient,
				invalidField(ctx, 'to_mail_ids', 'is required (the customer has no email address)'),
			);
}

const invoice = (ctx: Ctx) => findRecord(ctx, 'invoices', 'Invoice');
const estimate = (ctx: Ctx) => findRecord(ctx, 'estimates', 'Estimate');

/** Items referenced by any estimate or invoice line. */
function itemInUse(tenant: Tenant, itemId: string): boolean {
	return [...tenant.all('estimates'), ...tenant.all('invoices')].some((t) =>
		(t.line_items ?? []).some((l: Rec) => String(l.item_id) === itemId),
	);
}

function setStatus(collection: string, thing: string, status: string, message: string) {
	return (ctx: Ctx): Reply => {
		const rec = findRecord(ctx, collection, thing);
		if (isReply(rec)) return rec;
		rec.status = status;
		return envelope(message);
	};
}

function setAddress(kind: 'billing_address' | 'shipping_address') {
	return (ctx: Ctx): Reply => {
		const rec = estimate(ctx);
		if (isReply(rec)) return rec;
		const body = bodyObject(ctx);
		const address: Rec = {};
		for (const k of ['address', 'city', 'state', 'zip', 'country', 'fax'])
			address[k] = body[k] ?? rec[kind]?.[k] ?? '';
		rec[kind] = address;
		return envelope(
			kind === 'billing_address' ? 'Billing address updated.' : 'Shipping address updated.',
		);
	};
}

/**
 * Update with `line_items`: the lines sent replace the old ones (an omitted line is deleted,
 * as documented); a line with the `line_item_id` of an old line changes that line (members
 * not sent keep their values); an unknown `line_item_id` is refused.
 */
function mergeLines(rec: Rec, ctx: Ctx, previous: Rec): Reply | undefined {
	if (rec.line_items === previous.line_items || !Array.isArray(rec.line_items)) return undefined;
	const old: Rec[] = Array.isArray(previous.line_items) ? previous.line_items : [];
	const merged: Rec[] = [];
	for (const [i, line] of (rec.line_items as Rec[]).entries()) {
		if (line.line_item_id === undefined) {
			merged.push(line);
			continue;
		}
		const before = old.find((l) => String(l.line_item_id) === String(line.line_item_id));
		if (!before)
			return refuse(
				GUESS.unknownLine,
				invalidField(
					ctx,
					`line_items[${i}].line_item_id`,
					`no line item ${String(line.line_item_id)} in this ${ctx.resource.value}`,
				),
			);
		merged.push({ ...before, ...line });
	}
	rec.line_items = merged;
	return undefined;
}

/** List entries carry only the documented list-entry fields. */
function listEntry(keys: string[]) {
	return (rec: Rec): Rec =>
		Object.fromEntries(keys.filter((k) => rec[k] !== undefined).map((k) => [k, rec[k]]));
}
const ESTIMATE_LIST_FIELDS = [
	'estimate_id',
	'customer_name',
	'customer_id',
	'status',
	'estimate_number',
	'reference_number',
	'date',
	'currency_id',
	'currency_code',
	'total',
	'created_time',
	'last_modified_time',
	'accepted_date',
	'declined_date',
	'expiry_date',
	'has_attachment',
	'is_viewed_by_client',
	'client_viewed_time',
];
const INVOICE_LIST_FIELDS = [
	'invoice_id',
	'ach_payment_initiated',
	'customer_name',
	'customer_id',
	'status',
	'invoice_number',
	'reference_number',
	'date',
	'due_date',
	'due_days',
	'currency_id',
	'schedule_time',
	'currency_code',
	'is_viewed_by_client',
	'has_attachment',
	'client_viewed_time',
	'total',
	'balance',
	'created_time',
	'last_modified_time',
	'is_emailed',
	'reminders_sent',
	'last_reminder_sent_date',
	'payment_expected_date',
	'last_payment_date',
	'custom_fields',
	'documents',
	'salesperson_id',
	'salesperson_name',
	'shipping_charge',
	'adjustment',
	'write_off_amount',
	'exchange_rate',
];

function prepareTransaction(kind: 'estimate' | 'invoice') {
	return (rec: Rec, ctx: Ctx, previous?: Rec): Reply | undefined => {
		const tenant = tenantOf(ctx);
		const now = ctx.clock.now();
		if (previous) {
			const refused = mergeLines(rec, ctx, previous);
			if (refused) return refused;
		} else {
			rec[`${kind}_number`] ??=
				`${kind === 'estimate' ? 'EST' : 'INV'}-${pad(tenant.counter(kind))}`;
			rec.status = 'draft';
			rec.date ??= day(now);
		}
		rec.customer_name = customerName(tenant, rec.customer_id) || rec.customer_name || '';
		computeTotals(rec, tenant, () => ctx.store.nextId());
		if (kind === 'invoice') {
			if (!previous) {
				rec.due_date ??= day(Date.parse(rec.date), Number(rec.payment_terms ?? 0));
				Object.assign(rec, {
					payment_made: 0,
					credits_applied: 0,
					credits: [],
					is_emailed: false,
					reminders_sent: 0,
					payment_reminder_enabled: true,
					has_attachment: false,
					can_send_in_mail: false,
				});
			}
			settleInvoice(rec, day(now));
		}
		return undefined;
	};
}

// ---------------------------------------------------------------- items

const itemRules: Rules = {
	'books.item.create': {
		sources: [],
		handle: (ctx) =>
			genericCreate(ctx, (rec) => {
				rec.status = 'active';
				rec.item_type ??= 'sales';
			}),
	},
	'books.item.getAll': {
		sources: [GUESS.paging],
		handle: (ctx) => {
			const all = tenantOf(ctx).all('items');
			const explicit = ctx.query.filter_by !== undefined || ctx.query.status !== undefined;
			return genericList(ctx, {
				records: explicit ? all : all.filter((i) => i.status === 'active'),
				reportName: 'Items',
			});
		},
	},
	'books.item.delete': {
		sources: [...NOT_FOUND, S.itemInUse],
		handle: (ctx) => {
			const rec = findRecord(ctx);
			if (isReply(rec)) return rec;
			if (itemInUse(tenantOf(ctx), String(rec.item_id))) {
				return refuse(
					S.itemInUse,
					acctError(
						400,
						CODE.itemInUse,
						`The item "${rec.name}" is part of a transaction and cannot be deleted. Mark it as inactive instead.`,
					),
				);
			}
			return genericDelete(ctx);
		},
	},
	'books.item.updateCustomFields': {
		sources: NOT_FOUND,
		handle: updateCustomFields('items', 'Item'),
	},
	'books.item.markActive': {
		sources: NOT_FOUND,
		handle: setStatus('items', 'Item', 'active', 'The item has been marked as active.'),
	},
	'books.item.markInactive': {
		sources: NOT_FOUND,
		handle: setStatus('items', 'Item', 'inactive', 'The item has been marked as inactive.'),
	},
};

// ---------------------------------------------------------------- estimates

const estimateRules: Rules = {
	'books.estimate.create': {
		...UNNAMED_QUERY,
		sources: [],
		handle: (ctx) => genericCreate(ctx, prepareTransaction('estimate')),
	},
	'books.estimate.update': {
		...UNNAMED_QUERY,
		sources: [...NOT_FOUND, GUESS.unknownLine],
		handle: (ctx) => genericUpdate(ctx, prepareTransaction('estimate')),
	},
	// No behaviour of its own (the json/pdf/html selector's name is not shown: the record is answered).
	'books.estimate.get': { ...UNNAMED_QUERY, sources: NOT_FOUND },
	'books.estimate.getAll': {
		sources: [GUESS.paging],
		handle: (ctx) =>
			genericList(ctx, {
				pageContext: 'array',
				reportName: 'Estimates',
				entry: listEntry(ESTIMATE_LIST_FIELDS),
			}),
	},
	'books.estimate.getPdf': {
		sources: [GUESS.estimatePdf25, S.estimatePdfQuirk],
		// Before the table validation: malformed ids get the documented code-0 answer too.
		pre: (ctx) => {
			const ids = idList(ctx.query.estimate_ids);
			if (ids.length > 25)
				return refuse(
					GUESS.estimatePdf25,
					invalidField(
						ctx,
						'estimate_ids',
						`at most 25 ids per request (got ${ids.length})`,
						'query',
					),
				);
			const tenant = tenantOf(ctx);
			if (ids.length === 0 || ids.some((id) => !tenant.get('estimates', id))) {
				return refuse(S.estimatePdfQuirk, envelope('Invalid value passed for estimate_ids'));
			}
			return pdfReply(
				ids.map((id) => tenant.get('estimates', id) as Rec),
				'estimate_number',
				'estimates',
			);
		},
	},
	'books.estimate.print': {
		sources: [GUESS.bulkIds, S.estimatePrint25, S.estimatePdfQuirk],
		handle: (ctx) => print(ctx, 'estimate_ids', 'estimates', S.estimatePrint25, S.estimatePdfQuirk),
	},
	'books.estimate.updateBillingAddress': {
		sources: NOT_FOUND,
		handle: setAddress('billing_address'),
	},
	'books.estimate.updateShippingAddress': {
		sources: NOT_FOUND,
		handle: setAddress('shipping_address'),
	},
	'books.estimateTemplate.getAll': {
		sources: [],
		handle: (ctx) => envelope('success', { templates: tenantOf(ctx).all('templates') }),
	},
	'books.estimate.applyTemplate': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const rec = estimate(ctx);
			if (isReply(rec)) return rec;
			const template = tenantOf(ctx).get('templates', ctx.params.template_id);
			if (!template) return notFound(ctx, 'Template', ctx.params.template_id);
			Object.assign(rec, {
				template_id: template.template_id,
				template_name: template.template_name,
			});
			return envelope('Estimate template has been updated.');
		},
	},
	...prefix('books.estimate.', commentRules('estimates', 'Estimate', 'estimate_id')),
};

// ---------------------------------------------------------------- invoices

const invoiceRules: Rules = {
	'books.invoice.create': {
		...UNNAMED_QUERY,
		sources: [],
		handle: (ctx) => genericCreate(ctx, prepareTransaction('invoice')),
	},
	'books.invoice.update': {
		...UNNAMED_QUERY,
		sources: [...NOT_FOUND, GUESS.unknownLine],
		handle: (ctx) => genericUpdate(ctx, prepareTransaction('invoice')),
	},
	'books.invoice.getAll': {
		sources: [GUESS.paging],
		handle: (ctx) =>
			genericList(ctx, {
				pageContext: 'array',
				reportName: 'Invoices',
				entry: listEntry(INVOICE_LIST_FIELDS),
			}),
	},
	'books.invoice.sendEmail': {
		sources: NOT_FOUND,
		// No recipient at all (no to_mail_ids, a customer without address) is not refused: document 001 marks no member of the e-mail input required.
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			sendMail(ctx, inv, 'invoice');
			return envelope('Your invoice has been sent.');
		},
	},
	'books.invoice.getEmailContent': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			return isReply(inv) ? inv : envelope('success', { data: mailContent(ctx, inv, 'invoice') });
		},
	},
	'books.invoice.sendReminder': {
		sources: [...NOT_FOUND, S.reminderOpen, GUESS.reminderRecipient],
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			if (!isRemindable(inv)) {
				return refuse(
					S.reminderOpen,
					acctError(
						400,
						CODE.reminderNotAllowed,
						`Payment reminders can be sent only for open or overdue invoices; invoice ${inv.invoice_number} is ${inv.status}.`,
					),
				);
			}
			const refused = noRecipient(ctx, inv);
			if (refused) return refused;
			sendMail(ctx, inv, 'reminder');
			return envelope('Your payment reminder has been sent.');
		},
	},
	'books.invoice.getReminderContent': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			return isReply(inv) ? inv : envelope('success', { data: mailContent(ctx, inv, 'reminder') });
		},
	},
	'books.invoice.bulkReminder': {
		sources: [GUESS.bulkIds, S.reminders10],
		handle: (ctx) => {
			const b = bulk(ctx, 'invoice_ids', 'invoices', 10, S.reminders10);
			if (isReply(b)) return b;
			const sent: string[] = [];
			const refused: string[] = [];
			for (const inv of b.recs) {
				if (isRemindable(inv) && mailContent(ctx, inv, 'reminder').to_mails_str) {
					sendMail(ctx, inv, 'reminder');
					sent.push(String(inv.invoice_id));
				} else refused.push(String(inv.invoice_id));
			}
			const errors = [
				...(refused.length
					? [
							{
								message: 'Payment reminders can be sent only for open or overdue invoices.',
								ids: refused,
							},
						]
					: []),
				...(b.missing.length ? [{ message: 'Invoice does not exist.', ids: b.missing }] : []),
			];
			return envelope('success', {
				info: {
					email_success_info: {
						message: `Payment reminders have been sent for ${sent.length} invoice(s).`,
						sent_count: sent.length,
					},
					email_errors_info: errors,
					code: errors.length ? 1 : 0,
				},
			});
		},
	},
	'books.invoice.disableReminder': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			inv.payment_reminder_enabled = false;
			return envelope('Reminders stopped.');
		},
	},
	'books.invoice.getPdf': {
		sources: [GUESS.bulkIds, S.invoice25, GUESS.invoiceIds],
		handle: (ctx) => {
			const recs = allExist(ctx, 'invoice_ids', 'invoices', 25, S.invoice25);
			return isReply(recs) ? recs : pdfReply(recs, 'invoice_number', 'invoices');
		},
	},
	'books.invoice.print': {
		sources: [GUESS.bulkIds, S.invoice25, GUESS.invoiceIds],
		handle: (ctx) => print(ctx, 'invoice_ids', 'invoices', S.invoice25, GUESS.invoiceIds),
	},
	'books.invoice.uploadAttachment': {
		sources: [...NOT_FOUND, S.attachmentFile, S.attachmentType],
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			const file = ctx.files[0];
			if (!file)
				return refuse(
					S.attachmentFile,
					invalidField(ctx, 'attachment', 'a file is required (multipart/form-data)'),
				);
			const ext = file.fileName.includes('.')
				? file.fileName.slice(file.fileName.lastIndexOf('.') + 1).toLowerCase()
				: '';
			if (!(ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext)) {
				return refuse(
					S.attachmentType,
					acctError(
						400,
						CODE.fileType,
						`Attaching a file of type "${ext || '(none)'}" is not allowed. Allowed types: ${ATTACHMENT_EXTENSIONS.join(', ')}.`,
					),
				);
			}
			tenantOf(ctx).files.set(String(inv.invoice_id), {
				fileName: file.fileName,
				mimeType: MIME[ext],
				data: file.data,
				canSendInMail: false,
			});
			Object.assign(inv, {
				has_attachment: true,
				attachment_name: file.fileName,
				can_send_in_mail: false,
			});
			return envelope('Your file has been attached.', {}, 201);
		},
	},
	'books.invoice.updateAttachment': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			const file = tenantOf(ctx).files.get(String(inv.invoice_id));
			if (!file) return notFound(ctx, 'Attachment of invoice', String(inv.invoice_id));
			file.canSendInMail = ctx.query.can_send_in_mail === 'true';
			inv.can_send_in_mail = file.canSendInMail;
			return envelope('Invoice attachment preferences have been updated.');
		},
	},
	'books.invoice.downloadAttachment': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			const file = tenantOf(ctx).files.get(String(inv.invoice_id));
			if (!file) return notFound(ctx, 'Attachment of invoice', String(inv.invoice_id));
			return {
				status: 200,
				file: { data: file.data, contentType: file.mimeType, fileName: file.fileName },
			};
		},
	},
	'books.invoice.deleteAttachment': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			if (!tenantOf(ctx).files.delete(String(inv.invoice_id)))
				return notFound(ctx, 'Attachment of invoice', String(inv.invoice_id));
			Object.assign(inv, { has_attachment: false, attachment_name: '', can_send_in_mail: false });
			return envelope('Your file is no longer attached to the invoice.');
		},
	},
	'books.invoice.deleteExpenseReceipt': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const id = ctx.params.expense_id;
			const line = tenantOf(ctx)
				.all('invoices')
				.flatMap((i) => (i.line_items ?? []) as Rec[])
				.find((l) => String(l.expense_id) === id && l.expense_receipt_name);
			if (!line) return notFound(ctx, 'Receipt of expense', id);
			delete line.expense_receipt_name;
			return envelope('The attached expense receipt has been deleted.');
		},
	},
	'books.invoice.updateCustomFields': {
		sources: NOT_FOUND,
		handle: updateCustomFields('invoices', 'Invoice'),
	},
	'books.invoice.deleteAppliedCredit': {
		sources: NOT_FOUND,
		handle: (ctx) => {
			const inv = invoice(ctx);
			if (isReply(inv)) return inv;
			const credits: Rec[] = inv.credits ?? [];
			const credit = credits.find((c) => String(c.credit_id) === ctx.params.credit_id);
			if (!credit) return notFound(ctx, 'Applied credit', ctx.params.credit_id);
			inv.credits = credits.filter((c) => c !== credit);
			inv.credits_applied = money(Number(inv.credits_applied ?? 0) - Number(credit.amount ?? 0));
			settleInvoice(inv, day(ctx.clock.now()));
			return envelope('Credits applied to the invoice have been deleted.');
		},
	},
	...prefix('books.invoice.', commentRules('invoices', 'Invoice', 'invoice_id')),
};

function prefix(p: string, rules: Rules): Rules {
	return Object.fromEntries(Object.entries(rules).map(([k, v]) => [p + k, v]));
}

export const booksRules: Rules = { ...itemRules, ...estimateRules, ...invoiceRules };
