import { idHint, ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { invoiceArea } from './tables';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorInvoice extends areaNodeClass(invoiceArea, {
	name: 'vendorInvoice',
	icon: 'vendorInvoice',
	description: 'Customer payments and refunds of the Vendor API',
	builderHint: {
		message:
			'Vendor Payments: customer payments (money received against invoices) and their refunds in a Vendor organization. Use it to record, read, list, update or delete a payment or a refund. To start a workflow when a payment is recorded, use the Vendor Payments trigger.',
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
