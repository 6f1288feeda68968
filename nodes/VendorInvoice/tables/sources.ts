/**
 * The source of every rule of the field tables of Vendor Invoice (customer payments and refunds, the Payments document)
 * : the words of a document section (`<document>, <section>: "<words>"`) or of a bullet
 * of docs/ASSUMPTIONS.md (`guess: <words>`). Key: `<resource>.<operation>.<field path>.<rule>`
 * or `<resource>.<operation>.<rule>`; `*` as the operation stands for every operation of the
 * resource that has the rule. Checked by test/tables/rule-sources.test.ts; left out of the
 * published build and imported by no node (the emulator reads it to name the source of its
 * table-driven refusals, emulator/rules/table-sources.ts).
 */
export const SOURCES: Readonly<Record<string, string>> = {
	'payment.create.customer_id.required': 'guess: A payment\'s `customer_id` is required on create',
	'payment.create.amount.required': 'guess: required (not marked required in the vendor\'s API reference; a payment needs an amount)',
	'payment.*.payment_mode.maxLength': 'Payments, Customer payment: "payment_mode | string, max 100; allowed check, cash, creditcard, banktransfer, bankremittance, autotransaction, others"',
	'payment.*.payment_mode.values': 'Payments, Customer payment: "payment_mode | string, max 100; allowed check, cash, creditcard, banktransfer, bankremittance, autotransaction, others"',
	'payment.create.date.date': 'Payments, Customer payment: "date | string `yyyy-mm-dd`"',
	'payment.getAll.date.date': 'Payments, Customer payments: "date (`yyyy-mm-dd`)"',
	'payment.update.date.date': 'Payments, Customer payment: "date | string `yyyy-mm-dd`"',
	'payment.*.reference_number.maxLength': 'Payments, Customer payment: "reference_number | string, max 100"',
	'payment.*.invoices.invoice_id.required': 'guess: required in each entry (the vendor\'s API reference gives an entry as { invoice_id, amount_applied })',
	'payment.*.invoices.amount_applied.required': 'guess: required in each entry (the vendor\'s API reference gives an entry as { invoice_id, amount_applied })',
	'payment.*.invoices.date.date': 'Payments, Customer payment: "date | string `yyyy-mm-dd`"',
	'payment.get.payment_id.required': 'Payments, Customer payments: "GET | /customerpayments/{payment_id}"',
	'payment.update.payment_id.required': 'Payments, Customer payments: "PUT | /customerpayments/{payment_id}"',
	'payment.delete.payment_id.required': 'Payments, Customer payments: "DELETE | /customerpayments/{payment_id}"',
	'payment.getAll.pagination': 'guess: this list\'s paging is not in the vendor\'s API reference; it is paged as in Vendor Books (page, per_page, page_context), and without page_context Return All stops at a short page.',
	'payment.getAll.customer_name_startswith.maxLength': 'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	'payment.getAll.customer_name_contains.maxLength': 'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	'payment.getAll.reference_number_startswith.maxLength': 'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	'payment.getAll.reference_number_contains.maxLength': 'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	'payment.getAll.filter_by.maxLength': 'guess: Inferred names, marked `inferred` in the tables',
	'payment.getAll.filter_by.values': 'guess: Inferred names, marked `inferred` in the tables',

	'refund.create.payment_id.required': 'Payments, Customer payments: "POST | /customerpayments/{payment_id}/refunds"',
	'refund.getAll.payment_id.required': 'guess: this list is not in the vendor\'s API reference; it is read from GET /customerpayments/{payment_id}/refunds, the path of refund create.',
	'refund.create.amount.required': 'guess: required (not marked required in the vendor\'s API reference; a refund needs an amount)',
	'refund.create.date.date': 'Payments, Customer payment: "Refund input: date (`yyyy-mm-dd`)"',
	'refund.create.refund_mode.maxLength': 'Payments, Customer payment: "refund_mode (max 50)"',
	'refund.create.reference_number.maxLength': 'Payments, Customer payment: "reference_number (max 100)"',
	'refund.getAll.pagination': 'guess: this list is not in the vendor\'s API reference; it is read from GET /customerpayments/{payment_id}/refunds, the path of refund create.',
};
