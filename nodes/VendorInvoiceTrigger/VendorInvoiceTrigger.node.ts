import { ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { triggerNodeClass } from '../shared/node';
import { invoiceArea } from '../VendorInvoice/tables';
import { invoiceEvents } from './events';

/** Thin: polls the customer-payment list named in ./events. */
export class VendorInvoiceTrigger extends triggerNodeClass(invoiceArea, invoiceEvents, {
	name: 'vendorInvoiceTrigger',
	icon: 'vendorInvoiceTrigger',
	description: 'Starts the workflow when a customer payment is recorded in Vendor Invoice',
	builderHint: {
		message:
			'Polling trigger for Vendor Invoice (customer payments and refunds): starts a workflow when a customer payment is recorded in a Vendor organization. To act on payments or refunds, use Vendor Invoice.',
		relatedNodes: [
			related('vendorInvoice', 'Reads, updates or refunds the payments this trigger reports'),
		],
	},
	propertyHints: { organizationId: ORGANIZATION_HINT },
}) {}
