/**
 * Vendor Books: estimates (`{api_url}/books/v3/estimates`). Scope module `estimates`.
 * Source: document 001, "Estimate", "Reference values shared by estimates and invoices",
 * "Endpoints / Estimates", "Limits". The reference-value enums are shared with invoices.
 */
import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';
import { COMPUTED_MEMBER, sortOrder } from '../../shared/tables/inferred';
import { computedTax, FILTER_LIMIT_GUESS, PRODUCT_TYPES } from './items';

const S = 'VendorBooks.estimates';

// ---- Reference values shared by estimates and invoices -------------------------------

const DISCOUNT_TYPES = ['entity_level', 'item_level'] as const;
const GST_TREATMENTS = ['business_gst', 'business_none', 'overseas', 'consumer'] as const;
/** GCC / UAE / other values, then the UAE-only ones, then Mexico's: one enum. */
const TAX_TREATMENTS = [
	'vat_registered',
	'vat_not_registered',
	'gcc_vat_not_registered',
	'gcc_vat_registered',
	'non_gcc',
	'dz_vat_registered',
	'dz_vat_not_registered',
	'home_country_mexico',
	'border_region_mexico',
	'non_mexico',
] as const;
const TAX_TREATMENT_LABELS: Readonly<Record<string, string>> = {
	vat_registered: 'VAT Registered (GCC)',
	vat_not_registered: 'VAT Not Registered (GCC)',
	gcc_vat_not_registered: 'GCC VAT Not Registered (GCC)',
	gcc_vat_registered: 'GCC VAT Registered (GCC)',
	non_gcc: 'Non-GCC (GCC)',
	dz_vat_registered: 'DZ VAT Registered (UAE Only)',
	dz_vat_not_registered: 'DZ VAT Not Registered (UAE Only)',
	home_country_mexico: 'Home Country (Mexico)',
	border_region_mexico: 'Border Region (Mexico)',
	non_mexico: 'Non-Mexico (Mexico)',
};
const VAT_TREATMENTS = [
	'uk',
	'eu_vat_registered',
	'overseas',
	'eu_vat_not_registered',
	'non_eu',
] as const;
const VAT_TREATMENT_LABELS: Readonly<Record<string, string>> = {
	uk: 'UK',
	eu_vat_registered: 'EU VAT Registered',
	overseas: 'Overseas',
	eu_vat_not_registered: 'EU VAT Not Registered (Before the 2021 Exit)',
	non_eu: 'Non-EU (Before the 2021 Exit)',
};
/** UAE emirates, then GCC countries. */
const PLACES_OF_SUPPLY = [
	'AB',
	'AJ',
	'DU',
	'FU',
	'RA',
	'SH',
	'UM',
	'AE',
	'SA',
	'BH',
	'KW',
	'OM',
	'QA',
] as const;
const PLACE_OF_SUPPLY_LABELS: Readonly<Record<string, string>> = {
	AB: 'AB (UAE Emirate)',
	AJ: 'AJ (UAE Emirate)',
	DU: 'DU (UAE Emirate)',
	FU: 'FU (UAE Emirate)',
	RA: 'RA (UAE Emirate)',
	SH: 'SH (UAE Emirate)',
	UM: 'UM (UAE Emirate)',
	AE: 'AE (GCC Country)',
	SA: 'SA (GCC Country)',
	BH: 'BH (GCC Country)',
	KW: 'KW (GCC Country)',
	OM: 'OM (GCC Country)',
	QA: 'QA (GCC Country)',
};
/** UAE, then Bahrain, then Saudi Arabia. */
const TAX_TREATMENT_CODES = [
	'uae_same_tax_group',
	'uae_reimbursed_expense',
	'uae_others',
	'bahrain_same_tax_group',
	'bahrain_transfer_of_concern',
	'bahrain_disbursement',
	'bahrain_head_to_branch_transaction',
	'bahrain_warranty_repair_services',
	'bahrain_others',
	'ksa_pvt_health',
	'ksa_pvt_edu',
	'ksa_reimbursed_expense',
	'ksa_house_sales',
] as const;
const TAX_TREATMENT_CODE_LABELS: Readonly<Record<string, string>> = {
	uae_same_tax_group: 'Same Tax Group (UAE)',
	uae_reimbursed_expense: 'Reimbursed Expense (UAE)',
	uae_others: 'Others (UAE)',
	bahrain_same_tax_group: 'Same Tax Group (Bahrain)',
	bahrain_transfer_of_concern: 'Transfer of Concern (Bahrain)',
	bahrain_disbursement: 'Disbursement (Bahrain)',
	bahrain_head_to_branch_transaction: 'Head to Branch Transaction (Bahrain)',
	bahrain_warranty_repair_services: 'Warranty Repair Services (Bahrain)',
	bahrain_others: 'Others (Bahrain)',
	ksa_pvt_health: 'Private Health (Saudi Arabia)',
	ksa_pvt_edu: 'Private Education (Saudi Arabia)',
	ksa_reimbursed_expense: 'Reimbursed Expense (Saudi Arabia)',
	ksa_house_sales: 'House Sales (Saudi Arabia)',
};

const placeOfSupply: Field = {
	name: 'place_of_supply',
	type: 'enum',
	values: PLACES_OF_SUPPLY,
	valueLabels: PLACE_OF_SUPPLY_LABELS,
	group: 'GCC',
	description:
		"Place of supply: a UAE emirate or a GCC country; when omitted the contact's place is used",
	sources:
		'Accounting, Reference values shared by estimates and invoices: "place_of_supply (UAE emirates) | AB, AJ, DU, FU, RA, SH, UM | | place_of_supply (GCC countries) | AE, SA, BH, KW, OM, QA"',
};
const gstTreatment: Field = {
	name: 'gst_treatment',
	type: 'enum',
	values: GST_TREATMENTS,
	group: 'India',
	description:
		'How GST applies to the customer: registered business, unregistered business, overseas or consumer',
	sources:
		'Accounting, Reference values shared by estimates and invoices: "gst_treatment (India) | business_gst, business_none, overseas, consumer"',
};
const gstNo: Field = {
	name: 'gst_no',
	type: 'string',
	label: 'GST No',
	group: 'India',
	description: 'GST number',
};
const isPreGst: Field = {
	name: 'is_pre_gst',
	type: 'boolean',
	label: 'Pre-GST',
	group: 'India',
	description: 'Whether the transaction dates from before GST',
};
const taxTreatment: Field = {
	name: 'tax_treatment',
	type: 'enum',
	values: TAX_TREATMENTS,
	valueLabels: TAX_TREATMENT_LABELS,
	description:
		'How tax applies to the customer, for organizations in the GCC, the UAE and Mexico; each choice names its region.',
	sources:
		'Accounting, Reference values shared by estimates and invoices: "tax_treatment (GCC, UAE, other) | vat_registered, vat_not_registered, gcc_vat_not_registered, gcc_vat_registered, non_gcc; dz_vat_registered and dz_vat_not_registered (UAE only) | | tax_treatment (Mexico) | home_country_mexico, border_region_mexico, non_mexico"',
};
const vatTreatment: Field = {
	name: 'vat_treatment',
	type: 'enum',
	values: VAT_TREATMENTS,
	valueLabels: VAT_TREATMENT_LABELS,
	group: 'UK',
	description:
		'How VAT applies to the customer (the EU choices apply to transactions before the 2021 exit only)',
	sources:
		'Accounting, Reference values shared by estimates and invoices: "vat_treatment (UK) | uk, eu_vat_registered, overseas; before the 2021 exit also eu_vat_not_registered, non_eu"',
};
const discountType: Field = {
	name: 'discount_type',
	type: 'enum',
	values: DISCOUNT_TYPES,
	description: 'Whether the discount applies to the whole transaction or per line item',
	sources:
		'Accounting, Reference values shared by estimates and invoices: "discount_type | entity_level, item_level"',
};
const taxTreatmentCode: Field = {
	name: 'tax_treatment_code',
	type: 'enum',
	values: TAX_TREATMENT_CODES,
	valueLabels: TAX_TREATMENT_CODE_LABELS,
	group: 'GCC',
	// A member of every line: left unset unless chosen (n8n fills a line's members with their defaults).
	default: '',
	description:
		'Tax treatment code of the line (UAE, Bahrain or Saudi Arabia; each choice names its country)',
	sources: {
		values:
			'Accounting, Reference values shared by estimates and invoices: "tax_treatment_code (UAE) | uae_same_tax_group, uae_reimbursed_expense, uae_others | | tax_treatment_code (Bahrain) | bahrain_same_tax_group, bahrain_transfer_of_concern, bahrain_disbursement, bahrain_head_to_branch_transaction, bahrain_warranty_repair_services, bahrain_others | | tax_treatment_code (Saudi Arabia) | ksa_pvt_health, ksa_pvt_edu, ksa_reimbursed_expense, ksa_house_sales"',
		default:
			'guess: No choice is preselected unless the API reference documents its default (Item Type: sales).',
	},
};
export const lineProductType: Field = {
	name: 'product_type',
	type: 'enum',
	values: PRODUCT_TYPES,
	default: '',
	description: 'Whether the line is goods, a service or a digital service',
	sources: {
		values: 'Accounting, Item: "product_type | goods, service or digital_service"',
		default:
			'guess: No choice is preselected unless the API reference documents its default (Item Type: sales).',
	},
};

/** `{ address, city, state, zip, country, fax }` as documented for estimates. */
const estimateAddressMembers: Field[] = [
	{ name: 'address', type: 'string', description: 'Street address' },
	{ name: 'city', type: 'string' },
	{ name: 'state', type: 'string', description: 'State or province' },
	{ name: 'zip', type: 'string', description: 'ZIP or postal code' },
	{ name: 'country', type: 'string' },
	{ name: 'fax', type: 'string', description: 'Fax number' },
];

// ---- Estimate fields -----------------------------------------------------------------

const estimateId: Field = {
	name: 'estimate_id',
	type: 'id',
	required: true,
	locator: 'estimate',
	description: 'ID of the estimate',
};

/**
 * The members an estimate's and an invoice's line have alike, in runs each table places in its own
 * order (the documents list the lines' members in different orders).
 */
export const LINE = {
	/** The item and, on update, the line to change. */
	head: [
		{
			name: 'item_id',
			top: true,
			type: 'id',
			numeric: true,
			locator: 'item',
			description: 'ID of the item',
			sources: 'Accounting, Item: "item_id | number"',
		},
		{
			name: 'line_item_id',
			top: true,
			type: 'id',
			updateOnly: true,
			description: 'ID of the line item (to change an existing line)',
		},
	],
	/** What the line says: its name, description and position. */
	text: [
		{ name: 'name', top: true, type: 'string', description: 'Name of the line item' },
		{
			name: 'description',
			top: true,
			type: 'string',
			multiline: true,
			description: 'Description of the line item',
		},
		{
			name: 'item_order',
			type: 'integer',
			description: 'Position of the line',
			sources:
				'guess: Whole numbers: the `item_order` of estimate and invoice lines and the `index` of estimate custom fields',
		},
	],
	/** Mexico's codes of the line. */
	mexico: [
		{
			name: 'sat_item_key_code',
			type: 'string',
			label: 'SAT Item Key Code',
			group: 'Mexico',
			description: 'SAT item key code',
		},
		{
			name: 'unitkey_code',
			type: 'string',
			label: 'Unit Key Code',
			group: 'Mexico',
			description: 'Unit key code',
		},
	],
	/** The line's price: rates, quantity, unit and discount. */
	price: [
		{
			name: 'bcy_rate',
			type: 'number',
			label: 'BCY Rate',
			readOnly: true,
			description: 'Rate in the base currency (computed by the service)',
			sources: COMPUTED_MEMBER,
		},
		{ name: 'rate', top: true, type: 'number', description: 'Rate of the line item' },
		{ name: 'quantity', top: true, type: 'number', description: 'Number of units on the line' },
		{ name: 'unit', top: true, type: 'string', description: 'Unit of measure, e.g. pcs or hours' },
		{
			name: 'discount_amount',
			type: 'number',
			readOnly: true,
			description: 'Discount amount (computed by the service)',
			sources: COMPUTED_MEMBER,
		},
		{
			name: 'discount',
			type: 'string',
			top: true,
			description: 'Discount of the line (an amount, or a percentage such as 10%)',
		},
	],
	/** The line's tax and total. */
	tax: [
		{ name: 'tax_id', top: true, type: 'id', description: 'ID of the tax' },
		{ name: 'tds_tax_id', type: 'id', label: 'TDS Tax ID', description: 'ID of the TDS tax' },
		// named and computed by the service from tax_id
		...computedTax('Tax percentage'),
		taxTreatmentCode,
		{
			name: 'item_total',
			type: 'number',
			readOnly: true,
			description: 'Total of the line (computed by the service)',
			sources: COMPUTED_MEMBER,
		},
	],
} satisfies Record<string, Field[]>;

const lineItems: Field = {
	name: 'line_items',
	type: 'array',
	jsonAlternative: true,
	top: true,
	description: 'Line items of the estimate; on update, a line item omitted here is deleted',
	fields: [
		...LINE.head,
		...LINE.text,
		lineProductType,
		{
			name: 'hsn_or_sac',
			type: 'string',
			label: 'HSN or SAC',
			group: 'India',
			description: 'HSN or SAC code',
		},
		...LINE.mexico,
		...LINE.price,
		...LINE.tax,
	],
};

/**
 * Customer ID of an estimate or invoice: required on create (a record without a customer
 * means nothing, and the service refuses it), optional on update (left out: unchanged).
 */
export function customerId(required: boolean): Field {
	return required
		? {
				name: 'customer_id',
				type: 'id',
				required: true,
				inferredRule: 'required on create (an estimate or invoice needs a customer)',
				description: 'ID of the customer',
				sources: 'guess: required on create (an estimate or invoice needs a customer)',
			}
		: { name: 'customer_id', type: 'id', description: 'ID of the customer' };
}

/** The body fields an estimate and an invoice have alike, in runs each table places in its own order. */
export const BODY = {
	/** The money of the transaction: contacts, currency, discount, tax inclusion and adjustment. */
	money: [
		{
			name: 'contact_persons',
			type: 'array',
			of: { name: 'contact_person_id', type: 'id' },
			description: 'IDs of the contact persons',
		},
		{ name: 'currency_id', type: 'id', description: 'ID of the currency' },
		{ name: 'exchange_rate', type: 'number', description: 'Exchange rate of the currency' },
		{
			name: 'discount',
			type: 'string',
			description: 'Discount (an amount, or a percentage such as 10%)',
		},
		{
			name: 'is_discount_before_tax',
			type: 'boolean',
			label: 'Discount Before Tax',
			description: 'Whether the discount applies before tax',
		},
		discountType,
		{
			name: 'is_inclusive_tax',
			type: 'boolean',
			label: 'Rates Include Tax',
			description: 'Whether the rates include tax',
		},
		{ name: 'shipping_charge', type: 'number', description: 'Shipping charge added to the total' },
		{ name: 'adjustment', type: 'number', description: 'Adjustment amount' },
		{
			name: 'adjustment_description',
			type: 'string',
			description: 'Description of the adjustment',
		},
	],
	/** The fields of one region each (GCC, India, UK and others). */
	regions: [
		// Region-only fields.
		placeOfSupply,
		isPreGst,
		gstNo,
		gstTreatment,
		taxTreatment,
		vatTreatment,
	],
} satisfies Record<string, Field[]>;

/** The create and update body, after the customer. */
const estimateBodyFields: Field[] = [
	lineItems,
	{ name: 'estimate_number', type: 'string', description: 'Number of the estimate' },
	{
		name: 'reference_number',
		type: 'string',
		description: 'Your reference for the estimate, e.g. a project code',
	},
	{
		name: 'date',
		type: 'date',
		description: 'Date of the estimate (yyyy-mm-dd)',
		sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
	},
	{
		name: 'expiry_date',
		type: 'date',
		description: 'Expiry date (yyyy-mm-dd)',
		sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
	},
	...BODY.money,
	{
		name: 'billing_address',
		type: 'object',
		fields: estimateAddressMembers,
		description: 'Billing address of the estimate',
	},
	{
		name: 'shipping_address',
		type: 'object',
		fields: estimateAddressMembers,
		description: 'Shipping address of the estimate',
	},
	{ name: 'notes', type: 'string', multiline: true, description: 'Notes shown on the estimate' },
	{ name: 'terms', type: 'string', multiline: true, description: 'Terms and conditions' },
	{
		name: 'custom_fields',
		type: 'array',
		jsonAlternative: true,
		description: 'Custom field values',
		fields: [
			{
				name: 'index',
				type: 'integer',
				description: 'Index of the custom field',
				sources:
					'guess: Whole numbers: the `item_order` of estimate and invoice lines and the `index` of estimate custom fields',
			},
			{ name: 'value', type: 'string', description: 'Value of the custom field' },
		],
	},
	{
		name: 'template_id',
		type: 'id',
		locator: 'estimateTemplate',
		description: 'ID of the PDF template, picked from the estimate templates',
	},
	{ name: 'salesperson_name', type: 'string', description: 'Name of the salesperson' },
	{ name: 'salesperson_id', type: 'id', description: 'ID of the salesperson' },
	{ name: 'project_id', type: 'id', description: 'ID of the project' },
	{ name: 'custom_subject', type: 'string', description: 'Subject of the email' },
	{ name: 'custom_body', type: 'string', multiline: true, description: 'Body of the email' },
	{ name: 'tax_exemption_id', type: 'id', description: 'ID of the tax exemption' },
	{ name: 'tax_authority_id', type: 'id', description: 'ID of the tax authority' },
	{
		name: 'avatax_use_code',
		type: 'string',
		label: 'AvaTax Use Code',
		description: 'Use code in AvaTax (the reason for an exemption)',
	},
	{
		name: 'avatax_exempt_no',
		type: 'string',
		label: 'AvaTax Exemption Number',
		description: 'Exemption number in AvaTax',
	},
	// Region-only fields.
	...BODY.regions,
];

/** The address operations' body, entered as top-level fields. */
const addressInput: Field[] = estimateAddressMembers.map((f) => ({ ...f, top: true }));

const commentFields: Field[] = [
	{
		name: 'description',
		type: 'string',
		top: true,
		multiline: true,
		description: 'Text of the comment',
	},
	{
		name: 'show_comment_to_clients',
		type: 'boolean',
		description: 'Whether clients see the comment',
	},
];

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create estimate',
		description: 'Create an estimate',
		kind: 'create',
		method: 'POST',
		path: '/estimates',
		scope: `${S}.CREATE`,
		fields: [customerId(true), ...estimateBodyFields],
		responseKey: 'estimate',
		notes:
			'The two true/false query flags of create are not named in the documents: not offered. Requiredness of estimate fields is not shown; no field is marked required.',
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many estimates',
		description: 'List estimates',
		kind: 'list',
		method: 'GET',
		path: '/estimates',
		scope: `${S}.READ`,
		responseKey: 'estimates',
		pagination: 'pageContext',
		perPage: 200,
		fields: [
			{
				name: 'estimate_number_startswith',
				type: 'string',
				description: 'Only estimates whose number starts with this text',
			},
			{
				name: 'estimate_number_contains',
				type: 'string',
				description: 'Only estimates whose number contains this text',
			},
			{
				name: 'reference_number_startswith',
				type: 'string',
				description: 'Only estimates whose reference number starts with this text',
			},
			{
				name: 'reference_number_contains',
				type: 'string',
				description: 'Only estimates whose reference number contains this text',
			},
			{
				name: 'customer_name_startswith',
				type: 'string',
				description: 'Only estimates whose customer name starts with this text',
			},
			{
				name: 'customer_name_contains',
				type: 'string',
				description: 'Only estimates whose customer name contains this text',
			},
			{
				name: 'item_name_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only estimates with an item whose name starts with this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'item_name_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only estimates with an item whose name contains this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'item_description_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only estimates with an item whose description starts with this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'item_description_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only estimates with an item whose description contains this text',
				sources: FILTER_LIMIT_GUESS,
			},
			{
				name: 'custom_field_startswith',
				type: 'string',
				description: 'Only estimates with a custom field value starting with this text',
			},
			{
				name: 'custom_field_contains',
				type: 'string',
				description: 'Only estimates with a custom field value containing this text',
			},
			{
				name: 'total_less_than',
				type: 'number',
				description: 'Only estimates with a total below this',
			},
			{
				name: 'total_less_equals',
				type: 'number',
				description: 'Only estimates with a total of at most this',
			},
			{
				name: 'total_greater_than',
				type: 'number',
				description: 'Only estimates with a total above this',
			},
			{
				name: 'total_greater_equals',
				type: 'number',
				description: 'Only estimates with a total of at least this',
			},
			{
				name: 'date_start',
				type: 'date',
				description: 'Start of the date range (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'date_end',
				type: 'date',
				description: 'End of the date range (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'date_before',
				type: 'date',
				description: 'Only estimates dated before this day (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'date_after',
				type: 'date',
				description: 'Only estimates dated after this day (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'status',
				type: 'enum',
				values: ['draft', 'sent', 'invoiced', 'accepted', 'declined', 'expired'],
				inferred: true,
				description: 'Only estimates with this status',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			{
				name: 'filter_by',
				type: 'enum',
				values: [
					'Status.All',
					'Status.Sent',
					'Status.Draft',
					'Status.Invoiced',
					'Status.Accepted',
					'Status.Declined',
					'Status.Expired',
				],
				inferred: true,
				description: 'Only estimates with this status (another form of the status filter)',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			{
				name: 'sort_column',
				type: 'enum',
				values: ['customer_name', 'estimate_number', 'date', 'total', 'created_time'],
				inferred: true,
				description: 'Field to sort the estimates by',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			sortOrder,
		],
		notes: 'The item name / item description filters carry the documented 100-character limit.',
		sources: {
			perPage: 'Accounting, Page context: "per_page (200 in the sample)"',
			pagination:
				'Accounting, What the service does: "The list envelope also carries `page_context`"',
		},
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update estimate',
		description: 'Update an estimate',
		kind: 'update',
		method: 'PUT',
		path: '/estimates/{estimate_id}',
		scope: `${S}.UPDATE`,
		fields: [estimateId, customerId(false), ...estimateBodyFields],
		responseKey: 'estimate',
		notes: 'The true/false query flag of update is not named in the documents: not offered.',
		sources: { path: 'Accounting, Estimates: "PUT | /estimates/{estimate_id}"' },
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get estimate',
		description: 'Get an estimate as JSON',
		kind: 'get',
		method: 'GET',
		path: '/estimates/{estimate_id}',
		scope: `${S}.READ`,
		fields: [estimateId],
		responseKey: 'estimate',
		notes:
			'The query selecting json, pdf or html is not named in the documents: not offered; the JSON answer is used (use Get PDF for a PDF).',
		sources: { path: 'Accounting, Estimates: "GET | /estimates/{estimate_id}"' },
	},
	{
		value: 'getPdf',
		name: 'Get PDF',
		action: 'Get estimates as PDF',
		description: 'Download one or more estimates as a PDF',
		kind: 'action',
		method: 'GET',
		path: '/estimates/pdf',
		scope: `${S}.READ`,
		fields: [
			{
				name: 'estimate_ids',
				type: 'array',
				required: true,
				of: { name: 'estimate_id', type: 'id', locator: 'estimate' },
				separator: ',',
				inferredRule:
					'split into calls of 25 IDs, one PDF each (25 is documented for estimate print and invoice PDFs, not for estimate PDFs)',
				description: 'IDs of the estimates, sent joined by commas in calls of 25 IDs, one PDF each',
				sources: {
					required: 'guess: The IDs of a PDF, print or bulk reminder call are required',
					separator:
						'guess: ID lists sent in the query (`estimate_ids`, `invoice_ids`) are joined with commas',
				},
			},
		],
		batch: { field: 'estimate_ids', size: 25 },
		binaryOutput: { mimeType: 'application/pdf', fileName: 'estimates.pdf' },
		notes:
			"Inferred rule: the batch size 25 is documented for bulk print of estimates; applied to PDF as well (one file per 25 ids), marked inferredRule on estimate_ids. An invalid value answers code 0 with a message naming estimate_ids and no PDF: an error naming the ids sent (engine: fetchFile). One estimate as PDF: this call with one id (the get's json/pdf/html selector is not named).",
		sources: {
			batch:
				'guess: split into calls of 25 IDs, one PDF each (25 is documented for estimate print and invoice PDFs, not for estimate PDFs)',
		},
	},
	{
		value: 'print',
		name: 'Print',
		action: 'Print estimates',
		description: 'Print one or more estimates (at most 25 per call)',
		kind: 'action',
		method: 'GET',
		path: '/estimates/print',
		scope: `${S}.READ`,
		fields: [
			{
				name: 'estimate_ids',
				type: 'array',
				required: true,
				of: { name: 'estimate_id', type: 'id', locator: 'estimate' },
				separator: ',',
				description: 'IDs of the estimates (sent joined by commas)',
				sources: {
					required: 'guess: The IDs of a PDF, print or bulk reminder call are required',
					separator:
						'guess: ID lists sent in the query (`estimate_ids`, `invoice_ids`) are joined with commas',
				},
			},
		],
		batch: { field: 'estimate_ids', size: 25 },
		sources: {
			batch:
				'Accounting, Estimates: "GET | /estimates/print | READ | query `estimate_ids` (max 25)"',
		},
	},
	{
		value: 'updateBillingAddress',
		name: 'Update Billing Address',
		action: 'Update estimate billing address',
		description: 'Update the billing address of an estimate',
		kind: 'action',
		method: 'PUT',
		path: '/estimates/{estimate_id}/address/billing',
		scope: `${S}.UPDATE`,
		fields: [estimateId, ...addressInput],
		notes: 'Members left empty are not sent.',
		sources: { path: 'Accounting, Estimates: "PUT | /estimates/{estimate_id}/address/billing"' },
	},
	{
		value: 'updateShippingAddress',
		name: 'Update Shipping Address',
		action: 'Update estimate shipping address',
		description: 'Update the shipping address of an estimate',
		kind: 'action',
		method: 'PUT',
		path: '/estimates/{estimate_id}/address/shipping',
		scope: `${S}.UPDATE`,
		fields: [estimateId, ...addressInput],
		notes: 'Members left empty are not sent.',
		sources: { path: 'Accounting, Estimates: "PUT | /estimates/{estimate_id}/address/shipping"' },
	},
	{
		value: 'applyTemplate',
		name: 'Apply Template',
		action: 'Apply template to estimate',
		description: 'Apply a PDF template to an estimate',
		kind: 'action',
		method: 'PUT',
		path: '/estimates/{estimate_id}/templates/{template_id}',
		scope: `${S}.UPDATE`,
		fields: [
			estimateId,
			{
				name: 'template_id',
				type: 'id',
				required: true,
				locator: 'estimateTemplate',
				description: 'ID of the template (picked from the estimate templates)',
			},
		],
		sources: {
			path: 'Accounting, Estimates: "PUT | /estimates/{estimate_id}/templates/{template_id}"',
		},
	},
	{
		value: 'addComment',
		name: 'Add Comment',
		action: 'Add comment to estimate',
		description: 'Add a comment to an estimate',
		kind: 'action',
		method: 'POST',
		path: '/estimates/{estimate_id}/comments',
		scope: `${S}.CREATE`,
		fields: [estimateId, ...commentFields],
		sources: { path: 'Accounting, Estimates: "POST | /estimates/{estimate_id}/comments"' },
	},
	{
		value: 'getComments',
		name: 'Get Comments',
		action: 'Get estimate comments',
		description: 'List the comments and history of an estimate',
		kind: 'action',
		method: 'GET',
		path: '/estimates/{estimate_id}/comments',
		scope: `${S}.READ`,
		fields: [estimateId],
		responseKey: 'comments',
		pagination: 'none',
		sources: {
			pagination:
				'Accounting, Estimates: "GET | /estimates/{estimate_id}/comments | READ | none | `comments`"',
			path: 'Accounting, Estimates: "GET | /estimates/{estimate_id}/comments"',
		},
	},
	{
		value: 'updateComment',
		name: 'Update Comment',
		action: 'Update estimate comment',
		description: 'Update a comment of an estimate',
		kind: 'action',
		method: 'PUT',
		path: '/estimates/{estimate_id}/comments/{comment_id}',
		scope: `${S}.UPDATE`,
		fields: [
			estimateId,
			{ name: 'comment_id', type: 'id', required: true, description: 'ID of the comment' },
			...commentFields,
		],
		sources: {
			path: 'Accounting, Estimates: "PUT | /estimates/{estimate_id}/comments/{comment_id}"',
		},
	},
];

export const estimate: Resource = {
	value: 'estimate',
	name: 'Estimate',
	idField: 'estimate_id',
	nameField: 'estimate_number',
	listOperation: GET_MANY,
	operations,
	/** Simplify: the fields kept (estimate list entry fields of the documents). */
	simplify: [
		'estimate_id',
		'estimate_number',
		'reference_number',
		'customer_id',
		'customer_name',
		'status',
		'date',
		'expiry_date',
		'currency_code',
		'total',
	],
};

/**
 * The PDF templates of estimates (`GET /estimates/templates`), a resource of their own so
 * that template ids are picked from this list (resource locator fed by `getAll`).
 */
export const estimateTemplate: Resource = {
	value: 'estimateTemplate',
	name: 'Estimate Template',
	idField: 'template_id',
	nameField: 'template_name',
	listOperation: GET_MANY,
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get many estimate templates',
			description: 'List the PDF templates of estimates',
			kind: 'list',
			method: 'GET',
			path: '/estimates/templates',
			scope: `${S}.READ`,
			fields: [],
			responseKey: 'templates',
			pagination: 'none',
			notes: 'The list is answered whole (no page_context shown); Limit cuts it on the node side.',
			sources: {
				pagination:
					'Accounting, Estimates: "GET | /estimates/templates | READ | none | `templates`"',
			},
		},
	],
};
