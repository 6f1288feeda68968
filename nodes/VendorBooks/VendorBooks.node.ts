import { areaNodeClass } from '../shared/execute';
import { booksArea } from './spec';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorBooks extends areaNodeClass(booksArea, {
	name: 'vendorBooks',
	icon: 'vendorBooks',
	description: 'Items, estimates and invoices of the Vendor accounting API',
}) {}
