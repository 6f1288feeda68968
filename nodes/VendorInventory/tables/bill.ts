import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';
import { COMPUTED_MEMBER, GUESSED_PAGING, PAGING_NOTICE } from '../../shared/tables/inferred';

/**
 * Purchase bills (the Payments document, "Bills"): what a vendor charges on credit. Paths are relative
 * to `{api_url}/inventory/v1`; the organisation id travels in the query `organization_id`
 * (added by the engine).
 */

const SCOPE = 'VendorInventory.bills.';

/** The GST number's rule, a guess listed in docs/ASSUMPTIONS.md (the Payments document says "15-digit string"). */
const GST_NO_RULE =
	'15 characters of letters and digits where the Payments document says a 15-digit string, since real GST numbers carry letters';

/** Documented line-item members the server fills in (names from ids, totals, item images). */
export const RESPONSE_ONLY_LINE_MEMBERS = [
	'account_name',
	'tax_name',
	'tax_type',
	'tax_percentage',
	'bcy_rate',
	'item_total',
	'image_id',
	'image_name',
	'image_type',
	'reverse_charge_tax_name',
	'reverse_charge_tax_percentage',
	'reverse_charge_tax_amount',
] as const;

const LINE_MEMBER_TYPES: Readonly<Record<string, Field['type']>> = {
	tax_percentage: 'number',
	bcy_rate: 'number',
	item_total: 'number',
	image_id: 'number',
	reverse_charge_tax_percentage: 'number',
	reverse_charge_tax_amount: 'number',
};

/**
 * Input fields of one bill line item (the writable members of "Bill line item"). The
 * country-only members come last and carry the country in their label, so they are easy to
 * skip (a fixed collection's members cannot be grouped into collections of their own).
 */
const lineItemFields: Field[] = [
	{
		name: 'line_item_id',
		top: true,
		type: 'id',
		updateOnly: true,
		numeric: true,
		description: 'ID of an existing line item (when updating)',
		sources:
			'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	},
	{
		name: 'purchaseorder_item_id',
		type: 'id',
		numeric: true,
		label: 'Purchase Order Item ID',
		description: 'ID of the purchase-order line billed',
		sources:
			'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	},
	{
		name: 'receive_item_id',
		type: 'id',
		numeric: true,
		description: 'ID of the received line billed',
		sources:
			'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	},
	{ name: 'name', top: true, type: 'string', description: 'Name of the line item' },
	{
		name: 'account_id',
		top: true,
		type: 'id',
		numeric: true,
		description: 'ID of the expense account',
		sources:
			'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	},
	{
		name: 'warehouse_id',
		type: 'id',
		numeric: true,
		description: 'ID of the warehouse',
		sources:
			'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	},
	{
		name: 'description',
		top: true,
		type: 'string',
		multiline: true,
		description: 'Description of the line item',
	},
	{ name: 'rate', top: true, type: 'number', description: 'Rate of the line item' },
	{ name: 'quantity', top: true, type: 'number', description: 'Number of units on the line' },
	{ name: 'unit', top: true, type: 'string', description: 'Unit of the quantity' },
	{
		name: 'tax_id',
		top: true,
		type: 'id',
		numeric: true,
		description: 'ID of the tax applied',
		sources:
			'Payments, Bill: "Bill line item: purchaseorder_item_id, receive_item_id, line_item_id, account_id, warehouse_id, tax_id (long)"',
	},
	{
		name: 'item_order',
		type: 'number',
		min: 0,
		description: 'Position of the line item; starts at 0',
		sources: 'Payments, Bill: "item_order (double, starts at 0)"',
	},
	{
		name: 'tds_tax_id',
		type: 'string',
		group: 'Mexico',
		label: 'TDS Tax ID (Mexico)',
		description: 'ID of the TDS tax (Mexico only)',
	},
	{
		name: 'reverse_charge_tax_id',
		type: 'string',
		group: 'India',
		label: 'Reverse Charge Tax ID (India)',
		description: 'ID of the reverse-charge tax (India only)',
	},
	{
		name: 'hsn_or_sac',
		type: 'string',
		group: 'India',
		label: 'HSN or SAC (India)',
		description: 'HSN or SAC code of the goods or service (India only)',
	},
	{
		name: 'tax_exemption_code',
		type: 'string',
		label: 'Tax Exemption Code (IN, AU, CA, MX)',
		description: 'Tax exemption code (India, Australia, Canada and Mexico only)',
	},
	{
		name: 'tax_exemption_id',
		type: 'id',
		label: 'Tax Exemption ID (IN, AU, CA)',
		description: 'ID of the tax exemption (India, Australia, Canada only)',
	},
	// Response-only (inferred): named or computed by the server from the ids above and the
	// bill's currency; the documents list them in the line item without saying which are input.
	...RESPONSE_ONLY_LINE_MEMBERS.map(
		(name): Field => ({
			name,
			type: LINE_MEMBER_TYPES[name] ?? 'string',
			readOnly: true,
			inferred: true,
			sources: COMPUTED_MEMBER,
		}),
	),
];

/** The bill create input; the update takes the same fields with the same required ones. */
const billInput: Field[] = [
	{
		name: 'vendor_id',
		type: 'id',
		numeric: true,
		required: true,
		description: 'ID of the vendor',
		sources: {
			required: 'Payments, Bill: "vendor_id (required)"',
			numeric:
				'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
		},
	},
	{
		name: 'bill_number',
		type: 'string',
		required: true,
		description: 'Number of the bill',
		sources: 'Payments, Bill: "bill_number (required)"',
	},
	{
		name: 'date',
		type: 'date',
		required: true,
		description: 'Date of the bill (yyyy-mm-dd)',
		sources: {
			required: 'Payments, Bill: "date (required)"',
			date: 'guess: Bill dates (`date`, `due_date`) are written yyyy-mm-dd',
		},
	},
	{
		name: 'due_date',
		type: 'date',
		required: true,
		description: 'Date the bill is due (yyyy-mm-dd)',
		sources: {
			required: 'Payments, Bill: "due_date (required)"',
			date: 'guess: Bill dates (`date`, `due_date`) are written yyyy-mm-dd',
		},
	},
	{
		name: 'line_items',
		type: 'array',
		jsonAlternative: true,
		required: true,
		minItems: 1,
		description: 'Lines of the bill',
		fields: lineItemFields,
		sources: {
			required: 'Payments, Bill: "line_items (required)"',
			minItems: 'guess: A bill has at least one line',
		},
	},
	{
		name: 'purchaseorder_id',
		type: 'id',
		numeric: true,
		label: 'Purchase Order ID',
		description: 'ID of the purchase order billed',
		sources:
			'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
	},
	{ name: 'reference_number', type: 'string', description: 'Reference number of the bill' },
	{
		name: 'currency_id',
		type: 'id',
		numeric: true,
		description: 'ID of the currency',
		sources:
			'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
	},
	{ name: 'exchange_rate', type: 'number', description: 'Exchange rate of the bill currency' },
	{
		name: 'is_item_level_tax_calc',
		type: 'boolean',
		label: 'Tax Per Line Item',
		description: 'Whether tax is calculated per line item',
	},
	{
		name: 'is_inclusive_tax',
		type: 'boolean',
		label: 'Rates Include Tax',
		description: 'Whether the line rates include tax',
	},
	{ name: 'notes', type: 'string', multiline: true, description: 'Notes on the bill' },
	{ name: 'terms', type: 'string', multiline: true, description: 'Terms and conditions' },
	{
		name: 'custom_fields',
		type: 'array',
		jsonAlternative: true,
		description: 'Values of custom fields',
		fields: [
			{
				name: 'customfield_id',
				type: 'id',
				numeric: true,
				label: 'Custom Field ID',
				description: 'ID of the custom field',
				sources:
					'Payments, Bill: "custom_fields | array of `{ customfield_id: long, value: string }`"',
			},
			{ name: 'value', type: 'string', description: 'Value of the custom field' },
		],
	},
	{
		name: 'gst_treatment',
		type: 'enum',
		group: 'India',
		values: ['business_gst', 'business_none', 'overseas', 'consumer'],
		valueLabels: {
			business_gst: 'Business GST',
			business_none: 'Business None',
			overseas: 'Overseas',
			consumer: 'Consumer',
		},
		description: 'GST treatment of the bill (India only)',
		sources:
			'Payments, Bill: "gst_treatment (India only) | business_gst, business_none, overseas, consumer"',
	},
	{
		name: 'gst_no',
		type: 'string',
		group: 'India',
		// the Payments document, Bill: gst_no | 15-digit string; letters pass too (GST_NO_RULE: real numbers carry them)
		alphanumeric: true,
		minLength: 15,
		maxLength: 15,
		inferredRule: GST_NO_RULE,
		description: 'GST number of the vendor: 15 letters and digits (India only)',
		sources: "guess: A bill's `gst_no` is checked as 15 characters of letters and digits",
	},
	{
		name: 'source_of_supply',
		type: 'string',
		group: 'India',
		description: "Place code of the source of supply; defaults to the contact's place (India only)",
	},
	{
		name: 'destination_of_supply',
		type: 'string',
		group: 'India',
		description:
			"Place code of the destination of supply; defaults to the organization's home state (India only)",
	},
	{
		name: 'tax_treatment',
		type: 'enum',
		group: 'Mexico',
		values: ['home_country_mexico', 'border_region_mexico', 'non_mexico'],
		valueLabels: {
			home_country_mexico: 'Home Country Mexico',
			border_region_mexico: 'Border Region Mexico',
			non_mexico: 'Non Mexico',
		},
		description: 'Tax treatment of the bill (Mexico only)',
		sources:
			'Payments, Bill: "tax_treatment (Mexico only, input) | home_country_mexico, border_region_mexico, non_mexico"',
	},
];

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create purchase bill',
		description: 'Record a bill from a vendor',
		kind: 'create',
		method: 'POST',
		path: '/bills',
		scope: `${SCOPE}CREATE`,
		fields: billInput,
		responseKey: 'bill',
		binaryInput: {
			field: 'attachment',
			extensions: ['gif', 'png', 'jpeg', 'jpg', 'bmp', 'pdf'],
			required: false,
		},
		notes:
			'An attachment file (gif, png, jpeg, jpg, bmp, pdf) may accompany the bill; with one the request is multipart (JSONString + attachment), without one plain JSON. Line items: account_name, tax_name, tax_type, tax_percentage, bcy_rate, item_total, image_id, image_name, image_type and the reverse_charge_tax name, percentage and amount are taken as response-only (inferred: the server names or computes them from the ids), marked readOnly. is_pre_gst and is_reverse_charge_applied appear in the record (India only) but not in the create input, so they are not offered. Error codes for bills are not shown.',
		sources: {
			'binaryInput.extensions':
				'Payments, Bill: "An extra `attachment` file is accepted with extensions gif, png, jpeg, jpg, bmp, pdf"',
		},
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many purchase bills',
		description: 'List bills',
		kind: 'list',
		method: 'GET',
		path: '/bills',
		scope: `${SCOPE}READ`,
		fields: [],
		responseKey: 'bills',
		pagination: 'pageContext',
		inferred: true,
		inferredNote: GUESSED_PAGING,
		notice: PAGING_NOTICE,
		notes:
			'No filters are stated. Inferred pagination: not shown; assumed to follow the accounting lists of the Accounting document (page / per_page, page_context).',
		sources: { pagination: `guess: ${GUESSED_PAGING}` },
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update purchase bill',
		description: 'Update a bill',
		kind: 'update',
		method: 'PUT',
		path: '/bills/{bill_id}',
		scope: `${SCOPE}UPDATE`,
		fields: [
			{
				name: 'bill_id',
				type: 'id',
				numeric: true, // the Payments document, Bill: bill_id, purchaseorder_id, vendor_id, currency_id | long; line ids and custom field ids long
				required: true,
				locator: 'bill',
				description: 'ID of the bill',
				sources:
					'Payments, Bill: "bill_id, purchaseorder_id, vendor_id, currency_id, reference_id | long"',
			},
			...billInput,
		],
		responseKey: 'bill',
		inferred: true,
		inferredNote:
			"this call is not in the vendor's API reference; it is sent as PUT /bills/{bill_id} and answered like bill create.",
		notice:
			'If this fails with "not found", bills cannot be updated in this account: change the bill in the Vendor app. If it says "Outcome unknown" because the answer came without bill, the update may have been made under another answer key: check the bill (Bill → Get Many) before running again.',
		notes:
			'Inferred operation: path and response not shown; implied by the create path; same required fields as create. Inferred response key: bill, as the create answer. An attachment on update is not documented and not offered.',
		sources: {
			path: "guess: this call is not in the vendor's API reference; it is sent as PUT /bills/{bill_id} and answered like bill create.",
		},
	},
];

export const bill: Resource = {
	value: 'bill',
	name: 'Bill',
	idField: 'bill_id',
	nameField: 'bill_number',
	listOperation: GET_MANY,
	operations,
	/** Simplify: the fields kept (bill fields of the documents). */
	simplify: [
		'bill_id',
		'bill_number',
		'vendor_id',
		'vendor_name',
		'status',
		'date',
		'due_date',
		'currency_code',
		'sub_total',
		'balance',
	],
};
