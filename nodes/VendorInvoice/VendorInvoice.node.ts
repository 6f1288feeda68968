import { idHint, ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { invoiceArea } from './tables';

/** Thin: description, pickers and execute are derived from the field tables in ./tables. */
export class VendorInvoice extends areaNodeClass(invoiceArea, {
	name: 'vendorInvoice',
	icon: 'vendorInvoice',
	description:
		'Record, read, list, update and delete customer payments, refund them and list their refunds',
	builderHint: {
		message:
			'Vendor Invoice holds the customer payments (money received against invoices) of a Vendor organization and their refunds; the invoices themselves are in Vendor Books. Use it to record, read, list, update or delete a customer payment, to refund a payment or to list its refunds. To start a workflow when a payment is recorded, use the Vendor Invoice Trigger.',
		relatedNodes: [
			related('vendorInvoiceTrigger', 'Starts a workflow when a customer payment is recorded'),
			related('vendorBooks', 'The invoices these payments are applied to'),
		],
	},
	propertyHints: {
		organizationId: ORGANIZATION_HINT,
		payment_id: idHint('payment', 'payment_id'),
		customer_id: idHint('customer', 'customer_id'),
	},
}) {}
