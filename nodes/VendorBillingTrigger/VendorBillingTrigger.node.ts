import { ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { triggerNodeClass } from '../shared/node';
import { billingArea } from '../VendorBilling/tables';
import { billingEvents } from './events';

/** Thin: polls the billing-project list named in ./events. */
export class VendorBillingTrigger extends triggerNodeClass(billingArea, billingEvents, {
	name: 'vendorBillingTrigger',
	icon: 'vendorBillingTrigger',
	description: 'Starts the workflow when a Vendor Billing project is created',
	builderHint: {
		message:
			'Polling trigger for Vendor Billing: starts a workflow when a billing project is created in a Vendor organization. To act on billing projects, their tasks or users, use Vendor Billing.',
		relatedNodes: [
			related('vendorBilling', 'Reads or updates the billing projects this trigger reports'),
		],
	},
	propertyHints: { organizationId: ORGANIZATION_HINT },
}) {}
