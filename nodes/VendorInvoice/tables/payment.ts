import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';
import { GUESSED_PAGING, PAGING_NOTICE } from '../../shared/tables/inferred';

/**
 * Customer payments (the Payments document, "Customer payments"): money received from a customer,
 * applied to one or several invoices. Paths are relative to `{api_url}/invoice/v3`; the
 * organisation id travels in the header `X-com-vendor-invoice-organizationid` (added by
 * the engine from the area's `org`).
 */

const SCOPE = 'VendorInvoice.customerpayments.';

const PAYMENT_MODES = [
	'check',
	'cash',
	'creditcard',
	'banktransfer',
	'bankremittance',
	'autotransaction',
	'others',
] as const;

const PAYMENT_MODE_LABELS = {
	check: 'Check',
	cash: 'Cash',
	creditcard: 'Credit Card',
	banktransfer: 'Bank Transfer',
	bankremittance: 'Bank Remittance',
	autotransaction: 'Auto Transaction',
	others: 'Others',
} as const;

/** The payment-mode filter of the list ("PaymentMode.All, .Check, ..."). */
const PAYMENT_MODE_FILTERS = [
	'PaymentMode.All',
	'PaymentMode.Check',
	'PaymentMode.Cash',
	'PaymentMode.BankTransfer',
	'PaymentMode.Paypal',
	'PaymentMode.CreditCard',
	'PaymentMode.GoogleCheckout',
	'PaymentMode.Credit',
	'PaymentMode.Authorizenet',
	'PaymentMode.BankRemittance',
	'PaymentMode.Payflowpro',
	'PaymentMode.Stripe',
	'PaymentMode.TwoCheckout',
	'PaymentMode.Braintree',
	'PaymentMode.Others',
] as const;

const PAYMENT_MODE_FILTER_LABELS = {
	'PaymentMode.All': 'All',
	'PaymentMode.Check': 'Check',
	'PaymentMode.Cash': 'Cash',
	'PaymentMode.BankTransfer': 'Bank Transfer',
	'PaymentMode.Paypal': 'PayPal',
	'PaymentMode.CreditCard': 'Credit Card',
	'PaymentMode.GoogleCheckout': 'Google Checkout',
	'PaymentMode.Credit': 'Credit',
	'PaymentMode.Authorizenet': 'Authorize.Net',
	'PaymentMode.BankRemittance': 'Bank Remittance',
	'PaymentMode.Payflowpro': 'Payflow Pro',
	'PaymentMode.Stripe': 'Stripe',
	'PaymentMode.TwoCheckout': '2Checkout',
	'PaymentMode.Braintree': 'Braintree',
	'PaymentMode.Others': 'Others',
} as const;

const paymentIdPath: Field = {
	name: 'payment_id',
	type: 'id',
	required: true,
	locator: 'payment',
	description: 'ID of the customer payment',
};

/** The rule of the two members every `invoices` entry carries (not marked required in the documents). */
const INVOICE_ENTRY_RULE =
	"required in each entry (the vendor's API reference gives an entry as { invoice_id, amount_applied })";

/** Members of one entry of `invoices` on create (documented create input). */
const invoiceEntryFields: Field[] = [
	{
		name: 'invoice_id',
		type: 'id',
		required: true,
		inferredRule: INVOICE_ENTRY_RULE,
		description: 'ID of the invoice the payment is applied to',
		sources: `guess: ${INVOICE_ENTRY_RULE}`,
	},
	{
		name: 'amount_applied',
		type: 'number',
		required: true,
		inferredRule: INVOICE_ENTRY_RULE,
		description: 'Amount of the payment applied to this invoice',
		sources: `guess: ${INVOICE_ENTRY_RULE}`,
	},
	{ name: 'invoice_number', type: 'string', description: 'Number of the invoice' },
	{
		name: 'date',
		type: 'date',
		description: 'Date of the invoice (yyyy-mm-dd)',
		sources: 'Payments, Customer payment: "date | string `yyyy-mm-dd`"',
	},
	{
		name: 'invoice_amount',
		type: 'number',
		description: 'Total amount of the invoice (left empty: not sent; an entered 0 is sent)',
	},
	{
		name: 'balance_amount',
		type: 'number',
		description: 'Balance due on the invoice (left empty: not sent; an entered 0 is sent)',
	},
];

/**
 * The customer and the amount: required on create, optional on update. The Payments document marks no
 * update field required ("Update input is the same set"); error 3004 (customer field blank or
 * incorrect) hints that the service may want the customer on every update. The update sends
 * only what the user set; the form says what to do if the service refuses it.
 */
function customerAndAmount(kind: 'create' | 'update'): Field[] {
	if (kind === 'update') {
		return [
			{
				name: 'customer_id',
				type: 'id',
				description:
					'ID of the paying customer. Left out, it is not sent; if the service answers code 3004 (customer blank or incorrect), set it.',
			},
			{
				name: 'amount',
				type: 'number',
				description:
					'Amount received. Left out, it is not sent; if the service refuses the update without it, set it.',
			},
		];
	}
	return [
		{
			name: 'customer_id',
			type: 'id',
			required: true,
			description:
				'ID of the paying customer. Required: error 3004 says the customer field must not be blank.',
			sources: "guess: A payment's `customer_id` is required on create",
		},
		{
			name: 'amount',
			type: 'number',
			required: true,
			inferredRule:
				"required (not marked required in the vendor's API reference; a payment needs an amount)",
			description: 'Amount received',
			sources:
				"guess: required (not marked required in the vendor's API reference; a payment needs an amount)",
		},
	];
}

/** The create and update input after the customer and the amount, minus `invoices` (which differs between create and update). */
const paymentFieldsBeforeInvoices: Field[] = [
	{
		name: 'payment_mode',
		type: 'enum',
		values: PAYMENT_MODES,
		valueLabels: PAYMENT_MODE_LABELS,
		maxLength: 100,
		description:
			'How the customer paid. With Auto Transaction, refunds go to the card the customer supplied.',
		sources:
			'Payments, Customer payment: "payment_mode | string, max 100; allowed check, cash, creditcard, banktransfer, bankremittance, autotransaction, others"',
	},
	{
		name: 'date',
		type: 'date',
		top: true,
		description: 'Date of the payment (yyyy-mm-dd)',
		sources: 'Payments, Customer payment: "date | string `yyyy-mm-dd`"',
	},
	{
		name: 'reference_number',
		type: 'string',
		maxLength: 100,
		description: 'Reference number of the payment, e.g. a cheque number',
		sources: 'Payments, Customer payment: "reference_number | string, max 100"',
	},
	{
		name: 'description',
		type: 'string',
		multiline: true,
		description: 'Description of the payment',
	},
];

const paymentFieldsAfterInvoices: Field[] = [
	{ name: 'exchange_rate', type: 'number', description: 'Exchange rate of the payment currency' },
	{ name: 'payment_form', type: 'string', description: 'Form of the payment' },
	{ name: 'bank_charges', type: 'number', description: 'Bank charges deducted from the payment' },
	{
		name: 'custom_fields',
		type: 'array',
		jsonAlternative: true,
		description: 'Values of custom fields',
		fields: [
			{ name: 'label', type: 'string', description: 'Label of the custom field' },
			{ name: 'value', type: 'string', description: 'Value of the custom field' },
		],
	},
];

const createFields: Field[] = [
	...customerAndAmount('create'),
	...paymentFieldsBeforeInvoices,
	{
		name: 'invoices',
		type: 'array',
		jsonAlternative: true,
		top: true,
		description: 'Invoices the payment is applied to; one payment may cover several invoices',
		fields: invoiceEntryFields,
	},
	...paymentFieldsAfterInvoices,
];

const updateFields: Field[] = [
	paymentIdPath,
	...customerAndAmount('update'),
	...paymentFieldsBeforeInvoices,
	{
		name: 'invoices',
		type: 'array',
		jsonAlternative: true,
		top: true,
		description:
			"Invoices the payment is applied to; an entry may name an existing application of the payment by its 'Invoice Payment ID'",
		fields: [
			{
				name: 'invoice_payment_id',
				type: 'id',
				description: 'ID of an existing application of this payment to the invoice',
			},
			...invoiceEntryFields,
		],
	},
	...paymentFieldsAfterInvoices,
];

const listFilters: Field[] = [
	{
		name: 'customer_name_startswith',
		type: 'string',
		maxLength: 100,
		description: 'Only payments whose customer name starts with this text',
		sources:
			'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	},
	{
		name: 'customer_name_contains',
		type: 'string',
		maxLength: 100,
		description: 'Only payments whose customer name contains this text',
		sources:
			'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	},
	{
		name: 'reference_number_startswith',
		type: 'string',
		maxLength: 100,
		description: 'Only payments whose reference number starts with this text',
		sources:
			'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	},
	{
		name: 'reference_number_contains',
		type: 'string',
		maxLength: 100,
		description: 'Only payments whose reference number contains this text',
		sources:
			'Payments, Customer payments: "customer_name and reference_number (each with _startswith / _contains, max 100)"',
	},
	{
		name: 'date',
		type: 'date',
		description: 'Only payments of this date (yyyy-mm-dd)',
		sources: 'Payments, Customer payments: "date (`yyyy-mm-dd`)"',
	},
	{
		name: 'amount_less_than',
		type: 'number',
		description: 'Only payments with an amount below this',
	},
	{
		name: 'amount_less_equals',
		type: 'number',
		description: 'Only payments with an amount of at most this',
	},
	{
		name: 'amount_greater_than',
		type: 'number',
		description: 'Only payments with an amount above this',
	},
	{
		name: 'amount_greater_equals',
		type: 'number',
		description: 'Only payments with an amount of at least this',
	},
	{
		name: 'notes_startswith',
		type: 'string',
		description: 'Only payments whose notes start with this text',
	},
	{
		name: 'notes_contains',
		type: 'string',
		description: 'Only payments whose notes contain this text',
	},
	{
		name: 'payment_mode_startswith',
		type: 'string',
		description: 'Only payments whose payment mode starts with this text',
	},
	{
		name: 'payment_mode_contains',
		type: 'string',
		description: 'Only payments whose payment mode contains this text',
	},
	{
		name: 'filter_by',
		type: 'enum',
		label: 'Payment Mode Filter',
		values: PAYMENT_MODE_FILTERS,
		valueLabels: PAYMENT_MODE_FILTER_LABELS,
		maxLength: 100,
		inferred: true,
		description: 'Only payments of this mode',
		sources: 'guess: Inferred names, marked `inferred` in the tables',
	},
];

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create customer payment',
		description: 'Record a payment received from a customer',
		kind: 'create',
		method: 'POST',
		path: '/customerpayments',
		scope: `${SCOPE}CREATE`,
		fields: createFields,
		responseKey: 'payment',
		notes:
			'Required markers: the document lists the create input without any. customer_id is required (error 3004); amount is required by judgement. Errors 9521 (partial payment of a retainer invoice) and 24016 (amount exceeds the balance due) come from the invoices entries.',
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get customer payment',
		description: 'Retrieve a customer payment',
		kind: 'get',
		method: 'GET',
		path: '/customerpayments/{payment_id}',
		scope: `${SCOPE}READ`,
		fields: [paymentIdPath],
		responseKey: 'payment',
		sources: { path: 'Payments, Customer payments: "GET | /customerpayments/{payment_id}"' },
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many customer payments',
		description: 'List customer payments',
		kind: 'list',
		method: 'GET',
		path: '/customerpayments',
		scope: `${SCOPE}READ`,
		fields: listFilters,
		responseKey: 'customerpayments',
		pagination: 'pageContext',
		inferred: true,
		inferredNote: GUESSED_PAGING,
		notice: PAGING_NOTICE,
		notes:
			'Inferred pagination: not shown (the document shows none for payments); accounting lists in the Accounting document page with page / per_page and answer page_context, so the same is assumed here. Inferred parameter: the payment-mode filter is sent as filter_by (name not shown). Sorting is not documented and is left out.',
		sources: { pagination: `guess: ${GUESSED_PAGING}` },
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update customer payment',
		description:
			"Update a customer payment, sending only the fields you set; the service may require 'Customer ID' and 'Amount' on every update (code 3004: the customer is blank or incorrect), so set them if it refuses the update",
		kind: 'update',
		method: 'PUT',
		path: '/customerpayments/{payment_id}',
		scope: `${SCOPE}UPDATE`,
		fields: updateFields,
		responseKey: 'payment',
		notes:
			'Update input is the same set as create, with no field marked required on update: only the fields the user set are sent (nothing is read first). Error 3004 (customer field blank or incorrect) may mean the service wants customer_id on every update; its message tells the user to set Customer ID. Error 9523: the amount paid to a retainer invoice cannot be changed; delete the payment and add it again.',
		sources: { path: 'Payments, Customer payments: "PUT | /customerpayments/{payment_id}"' },
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete customer payment',
		description: 'Delete a customer payment',
		kind: 'delete',
		method: 'DELETE',
		path: '/customerpayments/{payment_id}',
		scope: `${SCOPE}DELETE`,
		fields: [paymentIdPath],
		sources: { path: 'Payments, Customer payments: "DELETE | /customerpayments/{payment_id}"' },
	},
];

export const payment: Resource = {
	value: 'payment',
	name: 'Payment',
	idField: 'payment_id',
	nameField: 'payment_number',
	listOperation: GET_MANY,
	operations,
	/** Simplify: the fields kept (payment record and list entry fields of the documents). */
	simplify: [
		'payment_id',
		'payment_number',
		'invoice_number',
		'customer_id',
		'customer_name',
		'payment_mode',
		'date',
		'reference_number',
		'amount',
		'currency_code',
	],
};
