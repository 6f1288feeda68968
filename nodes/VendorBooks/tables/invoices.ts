/**
 * Vendor Books: invoices (`{api_url}/books/v3/invoices`). Scope module `invoices`.
 * Source: document 001, "Invoice", "Reference values shared by estimates and invoices",
 * "Endpoints / Invoices", "Limits".
 */
import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';
import { customerId, BODY, LINE, lineProductType } from './estimates';
import { COMPUTED_MEMBER, sortOrder } from '../../shared/tables/inferred';
import { customFieldValues } from './items';

const S = 'VendorBooks.invoices';

const CFDI_USAGES = [
	'acquisition_of_merchandise',
	'return_discount_bonus',
	'general_expense',
	'buildings',
	'furniture_office_equipment',
	'transport_equipment',
	'computer_equipmentdye_molds_tools',
	'telephone_communication',
	'satellite_communication',
	'other_machinery_equipment',
	'hospital_expense',
	'medical_expense_disability',
	'funeral_expense',
	'donation',
	'interest_mortage_loans',
	'contribution_sar',
	'medical_expense_insurance_pormium',
	'school_transportation_expense',
	'deposit_saving_account',
	'payment_educational_service',
	'no_tax_effect',
	'payment',
	'payroll',
] as const;
/** The CFDI usages in users' words (the API's values glue and misspell some: `computer_equipmentdye_molds_tools`, `interest_mortage_loans`). */
const CFDI_USAGE_LABELS: Readonly<Record<(typeof CFDI_USAGES)[number], string>> = {
	acquisition_of_merchandise: 'Acquisition of Merchandise',
	return_discount_bonus: 'Returns, Discounts or Bonuses',
	general_expense: 'General Expenses',
	buildings: 'Buildings',
	furniture_office_equipment: 'Furniture and Office Equipment',
	transport_equipment: 'Transport Equipment',
	computer_equipmentdye_molds_tools: 'Computer Equipment, Dies, Molds and Tools',
	telephone_communication: 'Telephone Communication',
	satellite_communication: 'Satellite Communication',
	other_machinery_equipment: 'Other Machinery and Equipment',
	hospital_expense: 'Medical, Dental and Hospital Expenses',
	medical_expense_disability: 'Medical Expenses for Disability',
	funeral_expense: 'Funeral Expenses',
	donation: 'Donations',
	interest_mortage_loans: 'Interest on Mortgage Loans',
	contribution_sar: 'Contributions to SAR (Retirement Savings)',
	medical_expense_insurance_pormium: 'Medical Expense Insurance Premiums',
	school_transportation_expense: 'School Transportation Expenses',
	deposit_saving_account: 'Deposits in Savings Accounts',
	payment_educational_service: 'Payments for Educational Services',
	no_tax_effect: 'No Tax Effect',
	payment: 'Payments',
	payroll: 'Payroll',
};
const CFDI_REFERENCE_TYPES = [
	'return_of_merchandise',
	'substitution_previous_cfdi',
	'transfer_of_goods',
	'invoice_generated_from_order',
	'cfdi_for_advance',
] as const;
const PAYMENT_GATEWAYS = [
	'paypal',
	'authorize_net',
	'payflow_pro',
	'stripe',
	'2checkout',
	'braintree',
] as const;
const INVOICE_STATUSES = [
	'sent',
	'draft',
	'overdue',
	'paid',
	'void',
	'unpaid',
	'partially_paid',
	'viewed',
] as const;
export const ATTACHMENT_EXTENSIONS = ['gif', 'png', 'jpeg', 'jpg', 'bmp', 'pdf'] as const;

const invoiceId: Field = {
	name: 'invoice_id',
	type: 'id',
	required: true,
	locator: 'invoice',
	description: 'ID of the invoice',
};

const invoiceIds: Field = {
	name: 'invoice_ids',
	type: 'array',
	required: true,
	of: { name: 'invoice_id', type: 'id', locator: 'invoice' },
	separator: ',',
	description: 'IDs of the invoices (sent joined by commas)',
	sources: {
		required: 'guess: The IDs of a PDF, print or bulk reminder call are required',
		separator:
			'guess: ID lists sent in the query (`estimate_ids`, `invoice_ids`) are joined with commas',
	},
};

/** Invoice addresses: `{ address, street2, city, state, zip, country, fax }`. */
const invoiceAddressMembers: Field[] = [
	{ name: 'address', type: 'string', description: 'Street address' },
	{ name: 'street2', type: 'string', label: 'Street 2', description: 'Second address line' },
	{ name: 'city', type: 'string' },
	{ name: 'state', type: 'string', description: 'State or province' },
	{ name: 'zip', type: 'string', description: 'ZIP or postal code' },
	{ name: 'country', type: 'string' },
	{ name: 'fax', type: 'string', description: 'Fax number' },
];

const lineItems: Field = {
	name: 'line_items',
	type: 'array',
	jsonAlternative: true,
	top: true,
	description: 'Line items of the invoice',
	fields: [
		...LINE.head,
		{ name: 'project_id', type: 'id', description: 'ID of the project' },
		{
			name: 'time_entry_ids',
			type: 'array',
			of: { name: 'time_entry_id', type: 'id' },
			description: 'IDs of the time entries billed on this line',
		},
		{ name: 'item_type', type: 'string', description: 'Type of the item billed on the line' },
		lineProductType,
		{ name: 'expense_id', type: 'id', description: 'ID of the expense billed on this line' },
		...LINE.text,
		...LINE.price,
		{
			name: 'tags',
			type: 'array',
			description: 'Reporting tags of the line',
			fields: [
				{ name: 'tag_id', type: 'id', description: 'ID of the tag' },
				{ name: 'tag_option_id', type: 'id', description: 'ID of the tag option' },
			],
		},
		...LINE.tax,
		{ name: 'header_name', type: 'string', description: 'Name of the line group header' },
		{ name: 'header_id', type: 'id', description: 'ID of the line group header' },
		...LINE.mexico,
		{
			name: 'hsn_or_sac',
			type: 'string',
			label: 'HSN or SAC',
			group: 'India',
			description: 'HSN code of the goods or SAC code of the service',
		},
		{ name: 'warehouse_id', type: 'id', description: 'ID of the warehouse' },
	],
};

/** The invoice's number, reference, date and terms: the head of its body, and of Create From Estimate's. */
const invoiceHead: Field[] = [
	{ name: 'invoice_number', type: 'string', description: 'Number of the invoice' },
	{
		name: 'reference_number',
		type: 'string',
		description: 'Your reference for the invoice, e.g. a purchase order number',
	},
	{
		name: 'date',
		type: 'date',
		description: 'Date of the invoice (yyyy-mm-dd)',
		sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
	},
	{
		name: 'payment_terms',
		type: 'integer',
		description: 'Payment terms in days',
		sources: 'Accounting, Invoice: "payment_terms (integer days)"',
	},
	{ name: 'payment_terms_label', type: 'string', description: 'Label of the payment terms' },
	{
		name: 'due_date',
		type: 'date',
		description: 'Due date (yyyy-mm-dd)',
		sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
	},
];

/** The create and update body, after the customer. */
const invoiceBodyFields: Field[] = [
	lineItems,
	...invoiceHead,
	...BODY.money,
	{
		name: 'allow_partial_payments',
		type: 'boolean',
		description: 'Whether partial payments are allowed',
	},
	{
		name: 'recurring_invoice_id',
		type: 'id',
		readOnly: true,
		description: 'ID of the recurring invoice this invoice was raised from',
		sources: COMPUTED_MEMBER,
	},
	{
		name: 'payment_options',
		type: 'object',
		readOnly: true,
		description: 'Online payment gateways offered on the invoice',
		fields: [
			{
				name: 'payment_gateways',
				type: 'array',
				description: 'Payment gateways',
				fields: [
					{ name: 'configured', type: 'boolean', description: 'Whether the gateway is configured' },
					{
						name: 'additional_field1',
						type: 'enum',
						values: ['standard', 'adaptive'],
						default: '',
						description: 'Additional gateway setting',
						sources: {
							values: 'Accounting, Invoice: "additional_field1 (standard or adaptive)"',
							default:
								'guess: No choice is preselected unless the API reference documents its default (Item Type: sales).',
						},
					},
					{
						name: 'gateway_name',
						type: 'enum',
						values: PAYMENT_GATEWAYS,
						default: '',
						description: 'Name of the gateway',
						sources: {
							values:
								'Accounting, Invoice: "with gateway_name in paypal, authorize_net, payflow_pro, stripe, 2checkout, braintree"',
							default:
								'guess: No choice is preselected unless the API reference documents its default (Item Type: sales).',
						},
					},
				],
			},
		],
		sources: COMPUTED_MEMBER,
	},
	{
		name: 'billing_address',
		type: 'object',
		fields: invoiceAddressMembers,
		description: 'Billing address of the invoice',
	},
	{
		name: 'shipping_address',
		type: 'object',
		fields: invoiceAddressMembers,
		description: 'Shipping address of the invoice',
	},
	{ name: 'notes', type: 'string', multiline: true, description: 'Notes shown on the invoice' },
	{ name: 'terms', type: 'string', multiline: true, description: 'Terms and conditions' },
	{
		name: 'custom_fields',
		type: 'array',
		jsonAlternative: true,
		description: 'Custom field values',
		fields: [
			{
				name: 'customfield_id',
				type: 'id',
				label: 'Custom Field ID',
				description: 'ID of the custom field',
			},
			{ name: 'value', type: 'string', description: 'Value of the custom field' },
		],
	},
	{ name: 'template_id', type: 'id', description: 'ID of the PDF template' },
	{ name: 'salesperson_name', type: 'string', description: 'Name of the salesperson' },
	{ name: 'salesperson_id', type: 'id', description: 'ID of the salesperson' },
	{
		name: 'payment_expected_date',
		type: 'date',
		description: 'Date the payment is expected',
		sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
	},
	{
		name: 'payment_reminder_enabled',
		type: 'boolean',
		description: 'Whether payment reminders are sent for the invoice',
	},
	// Input-only fields.
	{
		name: 'invoiced_estimate_id',
		type: 'id',
		locator: 'estimate',
		description: 'ID of the estimate this invoice is raised from',
	},
	{ name: 'salesorder_item_id', type: 'id', description: 'ID of the sales order item' },
	{ name: 'custom_subject', type: 'string', description: 'Subject of the email' },
	{ name: 'custom_body', type: 'string', multiline: true, description: 'Body of the email' },
	{ name: 'reason', type: 'string', description: 'Reason for the change' },
	{ name: 'tax_authority_id', type: 'id', description: 'ID of the tax authority' },
	{ name: 'tax_exemption_id', type: 'id', description: 'ID of the tax exemption' },
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
	{
		name: 'avatax_tax_code',
		type: 'string',
		label: 'AvaTax Tax Code',
		description: 'Tax code in AvaTax',
	},
	// Region-only fields.
	...BODY.regions,
	{
		name: 'vat_reg_no',
		type: 'string',
		label: 'VAT Registration Number',
		description: 'VAT registration number of the customer',
	},
	{
		name: 'cfdi_usage',
		type: 'enum',
		label: 'CFDI Usage',
		values: CFDI_USAGES,
		valueLabels: CFDI_USAGE_LABELS,
		group: 'Mexico',
		description: 'What the customer uses the invoice for (Mexican CFDI)',
		sources:
			'Accounting, Reference values shared by estimates and invoices: "cfdi_usage (Mexico) | acquisition_of_merchandise, return_discount_bonus, general_expense, buildings, furniture_office_equipment, transport_equipment, computer_equipmentdye_molds_tools, telephone_communication, satellite_communication, other_machinery_equipment, hospital_expense, medical_expense_disability, funeral_expense, donation, interest_mortage_loans, contribution_sar, medical_expense_insurance_pormium, school_transportation_expense, deposit_saving_account, payment_educational_service, no_tax_effect, payment, payroll"',
	},
	{
		name: 'cfdi_reference_type',
		type: 'enum',
		label: 'CFDI Reference Type',
		values: CFDI_REFERENCE_TYPES,
		group: 'Mexico',
		description:
			'How this CFDI relates to the referenced invoice, e.g. a substitution of a previous CFDI',
		sources:
			'Accounting, Reference values shared by estimates and invoices: "cfdi_reference_type (Mexico) | return_of_merchandise, substitution_previous_cfdi, transfer_of_goods, invoice_generated_from_order, cfdi_for_advance"',
	},
	{
		name: 'reference_invoice_id',
		type: 'id',
		locator: 'invoice',
		group: 'Mexico',
		description: 'ID of the referenced invoice (CFDI)',
	},
];

/** Body of email and payment-reminder sends. */
const mailFields: Field[] = [
	{
		name: 'to_mail_ids',
		type: 'array',
		top: true,
		label: 'To Email Addresses',
		of: {
			name: 'email',
			type: 'email',
			sources: 'Accounting, Invoices: "to_mail_ids: [email], cc_mail_ids: [email]"',
		},
		description: 'Email addresses of the recipients',
	},
	{
		name: 'cc_mail_ids',
		type: 'array',
		label: 'CC Email Addresses',
		of: {
			name: 'email',
			type: 'email',
			sources: 'Accounting, Invoices: "to_mail_ids: [email], cc_mail_ids: [email]"',
		},
		description: 'Email addresses to send a copy to',
	},
	{ name: 'subject', type: 'string', description: 'Subject of the email' },
	{ name: 'body', type: 'string', multiline: true, description: 'Body of the email (HTML)' },
	{
		name: 'send_from_org_email_id',
		type: 'boolean',
		label: 'Send From Organization Email',
		description: "Whether to send from the organization's email address",
	},
];

const commentFields: Field[] = [
	{
		name: 'description',
		type: 'string',
		top: true,
		multiline: true,
		inferred: true,
		description: 'Text of the comment',
	},
	{
		name: 'show_comment_to_clients',
		type: 'boolean',
		inferred: true,
		description: 'Whether clients see the comment',
	},
];

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create invoice',
		description: 'Create an invoice',
		kind: 'create',
		method: 'POST',
		path: '/invoices',
		scope: `${S}.CREATE`,
		fields: [customerId(true), ...invoiceBodyFields],
		responseKey: 'invoice',
		notes:
			'The two true/false query flags of create are not named in the documents: not offered. Requiredness of invoice fields is not shown; no field is marked required. payment_options is documented as an invoice field with its shape but not said to be input; taken as response-only (readOnly, not offered).',
	},
	{
		value: 'createFromEstimate',
		name: 'Create From Estimate',
		action: 'Create invoice from estimate',
		description: 'Create an invoice from the customer and line items of an estimate',
		kind: 'action',
		method: 'POST',
		path: '/invoices',
		scope: [`${S}.CREATE`, 'VendorBooks.estimates.READ'],
		fields: [
			{
				name: 'estimate_id',
				type: 'id',
				in: 'body',
				required: true,
				locator: 'estimate',
				description: 'ID of the estimate to invoice',
				sources:
					"guess: the vendor's API reference has no such call; the node reads the estimate (GET /estimates/{estimate_id}) and creates an invoice from its customer and line items (POST /invoices).",
			},
			...invoiceHead,
			{ name: 'notes', type: 'string', multiline: true, description: 'Notes shown on the invoice' },
			{ name: 'terms', type: 'string', multiline: true, description: 'Terms and conditions' },
		],
		responseKey: 'invoice',
		inferred: true,
		inferredNote:
			"the vendor's API reference has no such call; the node reads the estimate (GET /estimates/{estimate_id}) and creates an invoice from its customer and line items (POST /invoices).",
		notice:
			'Two calls: the estimate is read, then the invoice is created from its customer and lines (fields set here override them)',
		special: 'fromEstimate',
		notes:
			'Not a documented call: composed by the node from GET /estimates/{estimate_id} and POST /invoices. estimate_id is not sent as such: the node reads the estimate and builds the invoice body (customer_id, line_items, currency and the other copied header fields, invoiced_estimate_id = estimate_id), then overlays the fields given here.',
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many invoices',
		description: 'List invoices',
		kind: 'list',
		method: 'GET',
		path: '/invoices',
		scope: `${S}.READ`,
		responseKey: 'invoices',
		pagination: 'pageContext',
		perPage: 200,
		fields: [
			{
				name: 'invoice_number_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only invoices whose number starts with this text',
				sources:
					'Accounting, Invoices: "invoice_number, item_name, item_description (each with _startswith / _contains, max length 100)"',
			},
			{
				name: 'invoice_number_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only invoices whose number contains this text',
				sources:
					'Accounting, Invoices: "invoice_number, item_name, item_description (each with _startswith / _contains, max length 100)"',
			},
			{
				name: 'item_name_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only invoices with an item whose name starts with this text',
				sources:
					'Accounting, Invoices: "invoice_number, item_name, item_description (each with _startswith / _contains, max length 100)"',
			},
			{
				name: 'item_name_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only invoices with an item whose name contains this text',
				sources:
					'Accounting, Invoices: "invoice_number, item_name, item_description (each with _startswith / _contains, max length 100)"',
			},
			{
				name: 'item_description_startswith',
				type: 'string',
				maxLength: 100,
				description: 'Only invoices with an item whose description starts with this text',
				sources:
					'Accounting, Invoices: "invoice_number, item_name, item_description (each with _startswith / _contains, max length 100)"',
			},
			{
				name: 'item_description_contains',
				type: 'string',
				maxLength: 100,
				description: 'Only invoices with an item whose description contains this text',
				sources:
					'Accounting, Invoices: "invoice_number, item_name, item_description (each with _startswith / _contains, max length 100)"',
			},
			{
				name: 'custom_field_startswith',
				type: 'string',
				description: 'Only invoices with a custom field value starting with this text',
			},
			{
				name: 'custom_field_contains',
				type: 'string',
				description: 'Only invoices with a custom field value containing this text',
			},
			{
				name: 'due_date_start',
				type: 'date',
				description: 'Start of the due date range (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'due_date_end',
				type: 'date',
				description: 'End of the due date range (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'due_date_before',
				type: 'date',
				description: 'Only invoices due before this day (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'due_date_after',
				type: 'date',
				description: 'Only invoices due after this day (yyyy-mm-dd)',
				sources: 'Accounting, What the service does: "Dates are `yyyy-mm-dd`"',
			},
			{
				name: 'status',
				type: 'enum',
				values: INVOICE_STATUSES,
				inferred: true,
				description: 'Only invoices with this status',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			{
				name: 'filter_by',
				type: 'enum',
				values: [
					'Status.All',
					'Status.Sent',
					'Status.Draft',
					'Status.OverDue',
					'Status.Paid',
					'Status.Void',
					'Status.Unpaid',
					'Status.PartiallyPaid',
					'Status.Viewed',
					'Date.PaymentExpectedDate',
				],
				inferred: true,
				description:
					'Only invoices with this status, or with a payment expected date (another form of the status filter)',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			{
				name: 'sort_column',
				type: 'enum',
				values: [
					'customer_name',
					'invoice_number',
					'date',
					'due_date',
					'total',
					'balance',
					'created_time',
				],
				inferred: true,
				description: 'Field to sort the invoices by',
				sources: 'guess: Inferred names, marked `inferred` in the tables',
			},
			sortOrder,
		],
		sources: {
			perPage: 'Accounting, Page context: "per_page (200 in the sample)"',
			pagination:
				'Accounting, What the service does: "The list envelope also carries `page_context`"',
		},
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update invoice',
		description: 'Update an invoice',
		kind: 'update',
		method: 'PUT',
		path: '/invoices/{invoice_id}',
		scope: `${S}.UPDATE`,
		fields: [invoiceId, customerId(false), ...invoiceBodyFields],
		responseKey: 'invoice',
		notes: 'The true/false query flag of update is not named in the documents: not offered.',
		sources: { path: 'Accounting, Invoices: "PUT | /invoices/{invoice_id}"' },
	},
	{
		value: 'sendEmail',
		name: 'Send Email',
		action: 'Send invoice by email',
		description: 'Email an invoice',
		kind: 'action',
		method: 'POST',
		path: '/invoices/{invoice_id}/email',
		scope: `${S}.CREATE`,
		fields: [invoiceId, ...mailFields],
		sources: { path: 'Accounting, Invoices: "POST | /invoices/{invoice_id}/email"' },
	},
	{
		value: 'getEmailContent',
		name: 'Get Email Content',
		action: 'Get invoice email content',
		description: 'Get the email content prepared for an invoice',
		kind: 'action',
		method: 'GET',
		path: '/invoices/{invoice_id}/email',
		scope: `${S}.READ`,
		fields: [invoiceId],
		responseKey: 'data',
		sources: { path: 'Accounting, Invoices: "GET | /invoices/{invoice_id}/email"' },
	},
	{
		value: 'sendReminder',
		name: 'Send Reminder',
		action: 'Send invoice payment reminder',
		description: 'Email a payment reminder (only for open or overdue invoices)',
		kind: 'action',
		method: 'POST',
		path: '/invoices/{invoice_id}/paymentreminder',
		scope: `${S}.CREATE`,
		fields: [invoiceId, ...mailFields],
		sources: { path: 'Accounting, Invoices: "POST | /invoices/{invoice_id}/paymentreminder"' },
	},
	{
		value: 'getReminderContent',
		name: 'Get Reminder Content',
		action: 'Get invoice payment reminder content',
		description: 'Get the payment reminder email content prepared for an invoice',
		kind: 'action',
		method: 'GET',
		path: '/invoices/{invoice_id}/paymentreminder',
		scope: `${S}.READ`,
		fields: [invoiceId],
		responseKey: 'data',
		sources: { path: 'Accounting, Invoices: "GET | /invoices/{invoice_id}/paymentreminder"' },
	},
	{
		value: 'bulkReminder',
		name: 'Bulk Reminder',
		action: 'Send payment reminders for invoices',
		description:
			'Email payment reminders for several invoices (at most 10 per call); one output item per invoice: sent, not sent or unknown',
		kind: 'action',
		method: 'POST',
		path: '/invoices/paymentreminder',
		scope: `${S}.CREATE`,
		fields: [{ ...invoiceIds, in: 'query' }],
		batch: { field: 'invoice_ids', size: 10 },
		responseKey: 'info',
		special: 'bulkReminder',
		notes:
			"Ids are split into calls of at most 10; each invoice gets one item, `sent` true only when the answer's sent_count accounts for it (false when named in email_errors_info or sent_count is 0, null when it cannot be told), with the answer's `info.code` and message.",
		sources: {
			batch:
				'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"',
		},
	},
	{
		value: 'disableReminder',
		name: 'Disable Reminder',
		action: 'Disable invoice payment reminders',
		description: 'Disable automated payment reminders for an invoice',
		kind: 'action',
		method: 'POST',
		path: '/invoices/{invoice_id}/paymentreminder/disable',
		scope: `${S}.CREATE`,
		fields: [invoiceId],
		sources: {
			path: 'Accounting, Invoices: "POST | /invoices/{invoice_id}/paymentreminder/disable"',
		},
	},
	{
		value: 'getPdf',
		name: 'Get PDF',
		action: 'Get invoices as PDF',
		description: 'Download one or more invoices as one PDF (at most 25 per PDF)',
		kind: 'action',
		method: 'GET',
		path: '/invoices/pdf',
		scope: `${S}.READ`,
		fields: [invoiceIds],
		batch: { field: 'invoice_ids', size: 25 },
		binaryOutput: { mimeType: 'application/pdf', fileName: 'invoices.pdf' },
		notes:
			'At most 25 invoices per PDF: more ids give one PDF per batch of 25. A code-0 answer without a PDF is an error.',
		sources: {
			batch:
				'Accounting, Invoices: "GET | /invoices/pdf | READ | query `invoice_ids` (max 25, one PDF)"',
		},
	},
	{
		value: 'print',
		name: 'Print',
		action: 'Print invoices',
		description: 'Print one or more invoices (at most 25 per call)',
		kind: 'action',
		method: 'GET',
		path: '/invoices/print',
		scope: `${S}.READ`,
		fields: [invoiceIds],
		batch: { field: 'invoice_ids', size: 25 },
		sources: {
			batch: 'Accounting, Invoices: "GET | /invoices/print | READ | query `invoice_ids` (max 25)"',
		},
	},
	{
		value: 'uploadAttachment',
		name: 'Upload Attachment',
		action: 'Upload invoice attachment',
		description: 'Attach a file (gif, png, jpeg, jpg, bmp or pdf) to an invoice',
		kind: 'action',
		method: 'POST',
		path: '/invoices/{invoice_id}/attachment',
		scope: `${S}.CREATE`,
		fields: [invoiceId],
		binaryInput: { field: 'attachment', extensions: ATTACHMENT_EXTENSIONS, required: true },
		notes:
			'The multipart field name of the file is not shown in the documents; `attachment` is used (inferred). Extensions outside the documented list are refused before sending.',
		sources: {
			'binaryInput.extensions':
				'Accounting, Invoices: "POST | /invoices/{invoice_id}/attachment | CREATE | a file; allowed extensions gif, png, jpeg, jpg, bmp, pdf"',
			'binaryInput.required':
				'Accounting, Invoices: "POST | /invoices/{invoice_id}/attachment | CREATE | a file"',
			path: 'Accounting, Invoices: "POST | /invoices/{invoice_id}/attachment"',
		},
	},
	{
		value: 'updateAttachment',
		name: 'Update Attachment',
		action: 'Update invoice attachment settings',
		description: 'Set whether the attached file is sent with the invoice email',
		kind: 'action',
		method: 'PUT',
		path: '/invoices/{invoice_id}/attachment',
		scope: `${S}.UPDATE`,
		fields: [
			invoiceId,
			{
				name: 'can_send_in_mail',
				type: 'boolean',
				label: 'Attach to Email',
				in: 'query',
				required: true,
				inferredRule:
					"required (the only input of this call; not marked required in the vendor's API reference)",
				description: 'Whether the attachment is sent with the invoice email',
				sources:
					"guess: required (the only input of this call; not marked required in the vendor's API reference)",
			},
		],
		sources: { path: 'Accounting, Invoices: "PUT | /invoices/{invoice_id}/attachment"' },
	},
	{
		value: 'downloadAttachment',
		name: 'Download Attachment',
		action: 'Download invoice attachment',
		description: 'Download the file attached to an invoice',
		kind: 'action',
		method: 'GET',
		path: '/invoices/{invoice_id}/attachment',
		scope: `${S}.READ`,
		fields: [invoiceId],
		binaryOutput: { mimeType: 'application/octet-stream', fileName: 'attachment' },
		notes:
			'The file type is whatever the server answers (Content-Type / Content-Disposition); the binaryOutput values are fallbacks only.',
		sources: { path: 'Accounting, Invoices: "GET | /invoices/{invoice_id}/attachment"' },
	},
	{
		value: 'deleteAttachment',
		name: 'Delete Attachment',
		action: 'Delete invoice attachment',
		description: 'Delete the file attached to an invoice',
		kind: 'action',
		method: 'DELETE',
		path: '/invoices/{invoice_id}/attachment',
		scope: `${S}.DELETE`,
		fields: [invoiceId],
		sources: { path: 'Accounting, Invoices: "DELETE | /invoices/{invoice_id}/attachment"' },
	},
	{
		value: 'deleteExpenseReceipt',
		name: 'Delete Expense Receipt',
		action: 'Delete invoice expense receipt',
		description: 'Delete the receipt of an invoice raised from an expense',
		kind: 'action',
		method: 'DELETE',
		path: '/invoices/expenses/{expense_id}/receipt',
		scope: `${S}.DELETE`,
		fields: [{ name: 'expense_id', type: 'id', required: true, description: 'ID of the expense' }],
		sources: { path: 'Accounting, Invoices: "DELETE | /invoices/expenses/{expense_id}/receipt"' },
	},
	{
		value: 'updateCustomFields',
		name: 'Update Custom Fields',
		action: 'Update invoice custom fields',
		description: 'Update the custom field values of an invoice',
		kind: 'action',
		method: 'PUT',
		path: '/invoice/{invoice_id}/customfields',
		scope: `${S}.UPDATE`,
		fields: [invoiceId, customFieldValues],
		notes: 'Path uses the singular `/invoice/`, as documented.',
		sources: { path: 'Accounting, Invoices: "PUT | /invoice/{invoice_id}/customfields"' },
	},
	{
		value: 'addComment',
		name: 'Add Comment',
		action: 'Add comment to invoice',
		description: 'Add a comment to an invoice',
		kind: 'action',
		method: 'POST',
		path: '/invoices/{invoice_id}/comments',
		scope: `${S}.CREATE`,
		fields: [invoiceId, ...commentFields],
		notes:
			'The invoice comment body fields are not shown in the documents; the estimate comment input { description, show_comment_to_clients } is used (inferred).',
		sources: { path: 'Accounting, Invoices: "POST | /invoices/{invoice_id}/comments"' },
	},
	{
		value: 'getComments',
		name: 'Get Comments',
		action: 'Get invoice comments',
		description: 'List the comments and history of an invoice',
		kind: 'action',
		method: 'GET',
		path: '/invoices/{invoice_id}/comments',
		scope: `${S}.READ`,
		fields: [invoiceId],
		responseKey: 'comments',
		pagination: 'none',
		sources: {
			pagination:
				'Accounting, Invoices: "GET | /invoices/{invoice_id}/comments | READ | none | `comments`"',
			path: 'Accounting, Invoices: "GET | /invoices/{invoice_id}/comments"',
		},
	},
	{
		value: 'updateComment',
		name: 'Update Comment',
		action: 'Update invoice comment',
		description: 'Update a comment of an invoice',
		kind: 'action',
		method: 'PUT',
		path: '/invoices/{invoice_id}/comments/{comment_id}',
		scope: `${S}.UPDATE`,
		fields: [
			invoiceId,
			{ name: 'comment_id', type: 'id', required: true, description: 'ID of the comment' },
			...commentFields,
		],
		notes: 'Comment fields as for estimates (inferred).',
		sources: { path: 'Accounting, Invoices: "PUT | /invoices/{invoice_id}/comments/{comment_id}"' },
	},
	{
		value: 'deleteAppliedCredit',
		name: 'Delete Applied Credit',
		action: 'Delete credit applied to invoice',
		description: 'Remove a credit applied to an invoice',
		kind: 'action',
		method: 'DELETE',
		path: '/invoices/{invoice_id}/creditsapplied/{credit_id}',
		fields: [
			invoiceId,
			{ name: 'credit_id', type: 'id', required: true, description: 'ID of the applied credit' },
		],
		notes: 'Scope not stated in the documents.',
		sources: {
			path: 'Accounting, Invoices: "DELETE | /invoices/{invoice_id}/creditsapplied/{credit_id}"',
		},
	},
];

export const invoice: Resource = {
	value: 'invoice',
	name: 'Invoice',
	idField: 'invoice_id',
	nameField: 'invoice_number',
	listOperation: GET_MANY,
	operations,
	/** Simplify: the fields kept (invoice list entry fields of the documents). */
	simplify: [
		'invoice_id',
		'invoice_number',
		'customer_id',
		'customer_name',
		'status',
		'date',
		'due_date',
		'currency_code',
		'total',
		'balance',
	],
};
