import { triggerNodeClass } from '../shared/node';
import { billingArea } from '../VendorBilling/spec';
import { billingEvents } from './events';

/** Thin: polls the billing-project list named in ./events. */
export class VendorBillingTrigger extends triggerNodeClass(billingArea, billingEvents, {
	name: 'vendorBillingTrigger',
	icon: 'vendorBillingTrigger',
	description: 'Starts the workflow when a Vendor Billing project is created',
}) {}
