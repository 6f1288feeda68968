import type { Field, Operation, Resource } from '../../shared/tables/spec';
import { GET_MANY } from '../../shared/tables/spec';

/**
 * Refunds of customer payments (the Payments document, "Customer payments"): the excess of a payment
 * paid back to the customer. Paths are relative to `{api_url}/invoice/v3`.
 */

const SCOPE = 'VendorInvoice.customerpayments.';

const paymentIdPath: Field = {
	name: 'payment_id',
	type: 'id',
	required: true,
	locator: 'payment',
	description: 'ID of the customer payment',
};

const refundInput: Field[] = [
	{
		name: 'amount',
		type: 'number',
		required: true,
		inferredRule:
			"required (not marked required in the vendor's API reference; a refund needs an amount)",
		description: 'Amount refunded',
		sources:
			"guess: required (not marked required in the vendor's API reference; a refund needs an amount)",
	},
	{
		name: 'date',
		type: 'date',
		top: true,
		description: 'Date of the refund (yyyy-mm-dd)',
		sources: 'Payments, Customer payment: "Refund input: date (`yyyy-mm-dd`)"',
	},
	{
		name: 'refund_mode',
		type: 'string',
		maxLength: 50,
		top: true,
		description: 'How the refund was paid, e.g. cash, check or banktransfer (left empty: not sent)',
		sources: 'Payments, Customer payment: "refund_mode (max 50)"',
	},
	{
		name: 'reference_number',
		type: 'string',
		maxLength: 100,
		description: 'Reference number of the refund',
		sources: 'Payments, Customer payment: "reference_number (max 100)"',
	},
	{ name: 'exchange_rate', type: 'number', description: 'Exchange rate of the refund currency' },
	{ name: 'payment_form', type: 'string', description: 'Form of the refund payment' },
	{
		name: 'description',
		type: 'string',
		multiline: true,
		description: 'Description of the refund',
	},
];

const operations: Operation[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Refund customer payment',
		description: 'Refund the excess amount of a customer payment',
		kind: 'create',
		method: 'POST',
		path: '/customerpayments/{payment_id}/refunds',
		scope: `${SCOPE}CREATE`,
		fields: [paymentIdPath, ...refundInput],
		responseKey: 'payment_refunds',
		notes:
			'The answer holds payment_refunds as an array. For payments of mode autotransaction the refund goes to the card the customer supplied.',
		sources: {
			path: 'Payments, Customer payments: "POST | /customerpayments/{payment_id}/refunds"',
		},
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many customer payment refunds',
		description: 'List the refunds of a customer payment',
		kind: 'list',
		method: 'GET',
		path: '/customerpayments/{payment_id}/refunds',
		scope: `${SCOPE}READ`,
		fields: [paymentIdPath],
		responseKey: 'payment_refunds',
		pagination: 'none',
		inferred: true,
		inferredNote:
			"this list is not in the vendor's API reference; it is read from GET /customerpayments/{payment_id}/refunds, the path of refund create.",
		notice:
			'If this fails with "not found", the account does not list refunds here: read the payment instead (Payment → Get). If it fails saying the answer came without payment_refunds, the refunds are under another key: the message names the members the answer has; read them with Custom API Call.',
		notes:
			'Inferred operation: path not shown; implied by the create path (POST /customerpayments/{payment_id}/refunds). Inferred response key: the answer is documented only as "refund records"; payment_refunds is the key of the create answer. Pagination is not shown; the refunds of one payment are taken in one call.',
		sources: {
			pagination:
				"guess: this list is not in the vendor's API reference; it is read from GET /customerpayments/{payment_id}/refunds, the path of refund create.",
			path: "guess: this list is not in the vendor's API reference; it is read from GET /customerpayments/{payment_id}/refunds, the path of refund create.",
		},
	},
];

export const refund: Resource = {
	value: 'refund',
	name: 'Refund',
	idField: 'payment_refund_id',
	listOperation: GET_MANY,
	operations,
};
