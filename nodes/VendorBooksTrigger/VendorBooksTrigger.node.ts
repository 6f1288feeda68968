import { triggerNodeClass } from '../shared/node';
import { booksArea } from '../VendorBooks/spec';
import { booksEvents } from './events';

/** Thin: polls the Books lists named in ./events. */
export class VendorBooksTrigger extends triggerNodeClass(booksArea, booksEvents, {
	name: 'vendorBooksTrigger',
	icon: 'vendorBooksTrigger',
	description: 'Starts the workflow when estimates, invoices or items of Vendor Books are created or change status',
}) {}
