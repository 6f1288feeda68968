import { triggerNodeClass } from '../shared/node';
import { invoiceArea } from '../VendorInvoice/spec';
import { invoiceEvents } from './events';

/** Thin: polls the customer-payment list named in ./events. */
export class VendorInvoiceTrigger extends triggerNodeClass(invoiceArea, invoiceEvents, {
	name: 'vendorInvoiceTrigger',
	icon: 'vendorInvoiceTrigger',
	description: 'Starts the workflow when a customer payment is recorded in Vendor Payments',
}) {}
