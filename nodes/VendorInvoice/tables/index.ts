import type { Area } from '../../shared/tables/spec';
import { payment } from './payment';
import { refund } from './refund';

/**
 * Payment error codes (the Payments document, "Errors"): what went wrong and what to do. An answer with
 * one of these codes becomes an error that says so, e.g. "The amount entered exceeds the
 * balance due on the invoice (code 24016). Lower Amount Applied ...".
 */
export const PAYMENT_ERROR_CODES: NonNullable<Area['errorCodes']> = {
	3004: {
		meaning: 'The customer field is blank or incorrect',
		resolution: 'Set Customer ID to the ID of an existing customer',
	},
	9521: {
		meaning: 'A retainer invoice cannot be paid partially',
		resolution: 'Record the full payment of the retainer invoice',
	},
	9523: {
		meaning: 'The amount paid to a retainer invoice cannot be changed',
		resolution: 'Delete the payment and record it again',
	},
	24016: {
		meaning: 'The amount entered exceeds the balance due on the invoice',
		resolution:
			"Lower Amount Applied to at most the invoice's balance due; the rest of the payment stays unused and can be refunded",
	},
};

/**
 * The vendor's invoice API (`{api_url}/invoice/v3`): customer payments and their refunds.
 * Named after the API product, like its type `vendorInvoice`, base path, organization header
 * and scopes; the node's description and codex aliases say what it holds (payments, refunds;
 * invoices themselves are in Vendor Books).
 */
export const invoiceArea: Area = {
	value: 'invoice',
	name: 'Vendor Invoice',
	basePath: '/invoice/v3',
	org: { in: 'header', name: 'X-com-vendor-invoice-organizationid' },
	family: 'accounting',
	errorCodes: PAYMENT_ERROR_CODES,
	scopes: [
		'VendorInvoice.customerpayments.CREATE',
		'VendorInvoice.customerpayments.READ',
		'VendorInvoice.customerpayments.UPDATE',
		'VendorInvoice.customerpayments.DELETE',
	],
	resources: [payment, refund],
};

export { payment, refund };
