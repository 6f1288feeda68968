import { areaNodeClass } from '../shared/node';
import { invoiceArea } from './spec';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorInvoice extends areaNodeClass(invoiceArea, {
	name: 'vendorInvoice',
	icon: 'vendorInvoice',
	description: 'Customer payments and refunds of the Vendor API',
}) {}
