/**
 * The source of every rule of the field tables of Vendor Inventory (purchase bills, the Payments document)
 * : the words of a document section (`<document>, <section>: "<words>"`) or of a bullet
 * of docs/ASSUMPTIONS.md (`guess: <words>`). Key: `<resource>.<operation>.<field path>.<rule>`
 * or `<resource>.<operation>.<rule>`; `*` as the operation stands for every operation of the
 * resource that has the rule. Checked by test/tables/rule-sources.test.ts; left out of the
 * published build and imported by no node (the emulator reads it to name the source of its
 * table-driven refusals, emulator/rules/table-sources.ts).
 */
export const SOURCES: Readonly<Record<string, string>> = {
	'bill.create.binaryInput.extensions': 'Payments, Bill: "An extra `attachment` file is accepted with extensions gif, png, jpeg, jpg, bmp, pdf"',
	'bill.*.vendor_id.required': 'Payments, Bill: "vendor_id (required)"',
	'bill.*.vendor_id.numeric': 'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
	'bill.*.bill_number.required': 'Payments, Bill: "bill_number (required)"',
	'bill.*.date.required': 'Payments, Bill: "date (required)"',
	'bill.*.date.date': 'guess: Bill dates (`date`, `due_date`) are written yyyy-mm-dd',
	'bill.*.due_date.required': 'Payments, Bill: "due_date (required)"',
	'bill.*.due_date.date': 'guess: Bill dates (`date`, `due_date`) are written yyyy-mm-dd',
	'bill.*.line_items.required': 'Payments, Bill: "line_items (required)"',
	'bill.*.line_items.minItems': 'guess: A bill has at least one line',
	'bill.*.line_items.line_item_id.numeric': 'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	'bill.*.line_items.purchaseorder_item_id.numeric': 'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	'bill.*.line_items.receive_item_id.numeric': 'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	'bill.*.line_items.account_id.numeric': 'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	'bill.*.line_items.warehouse_id.numeric': 'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	'bill.*.line_items.tax_id.numeric': 'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	'bill.*.line_items.item_order.min': 'Payments, Bill: "item_order (double, starts at 0)"',
	'bill.*.line_items.account_name.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.tax_name.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.tax_type.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.tax_percentage.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.bcy_rate.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.item_total.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.image_id.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.image_name.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.image_type.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.reverse_charge_tax_name.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.reverse_charge_tax_percentage.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.line_items.reverse_charge_tax_amount.readOnly': 'guess: Members the service computes are taken as response-only, one rule for every table',
	'bill.*.purchaseorder_id.numeric': 'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
	'bill.*.currency_id.numeric': 'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
	'bill.*.custom_fields.customfield_id.numeric': 'Payments, Bill: "custom_fields | array of `{ customfield_id: long, value: string }`"',
	'bill.*.gst_treatment.values': 'Payments, Bill: "gst_treatment (India only) | business_gst, business_none, overseas, consumer"',
	'bill.*.gst_no.maxLength': 'guess: A bill\'s `gst_no` is checked as 15 characters of letters and digits',
	'bill.*.gst_no.minLength': 'guess: A bill\'s `gst_no` is checked as 15 characters of letters and digits',
	'bill.*.gst_no.alphanumeric': 'guess: A bill\'s `gst_no` is checked as 15 characters of letters and digits',
	'bill.*.tax_treatment.values': 'Payments, Bill: "tax_treatment (Mexico only, input) | home_country_mexico, border_region_mexico, non_mexico"',
	'bill.getAll.pagination': 'guess: this list\'s paging is not in the vendor\'s API reference; it is paged as in Vendor Books (page, per_page, page_context), and without page_context Return All stops at a short page.',
	'bill.update.bill_id.required': 'guess: this call is not in the vendor\'s API reference; it is sent as PUT /bills/{bill_id} and answered like bill create.',
	'bill.update.bill_id.numeric': 'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
};
