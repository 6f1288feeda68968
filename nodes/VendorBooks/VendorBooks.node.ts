import { areaNodeClass } from '../shared/node';
import { booksArea } from './spec';
import { booksSpecials } from './specials';

/** Thin: derived from the field tables in ./spec; irregular operations in ./specials. */
export class VendorBooks extends areaNodeClass(booksArea, {
	name: 'vendorBooks',
	icon: 'vendorBooks',
	description: 'Items, estimates and invoices of the Vendor accounting API',
}, booksSpecials) {}
