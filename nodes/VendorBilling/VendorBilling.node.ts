import { areaNodeClass } from '../shared/node';
import { billingArea } from './spec';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorBilling extends areaNodeClass(billingArea, {
	name: 'vendorBilling',
	icon: 'vendorBilling',
	description: 'Billing projects, their tasks, users, comments and invoices in the Vendor API',
}) {}
