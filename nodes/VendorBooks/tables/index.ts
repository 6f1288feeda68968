/**
 * Vendor Books (`{api_url}/books/v3`): items, estimates (and their PDF templates), invoices.
 * The organisation id travels as the query parameter `organization_id` on every call; the
 * engine adds it from the org setting, so no table lists it as a field.
 */
import type { Area } from '../../shared/tables/spec';
import { estimate, estimateTemplate } from './estimates';
import { invoice } from './invoices';
import { item } from './items';

export const booksArea: Area = {
	value: 'books',
	name: 'Vendor Books',
	basePath: '/books/v3',
	org: { in: 'query', name: 'organization_id' },
	family: 'accounting',
	scopes: [
		'VendorBooks.settings.CREATE',
		'VendorBooks.settings.READ',
		'VendorBooks.settings.UPDATE',
		'VendorBooks.settings.DELETE',
		'VendorBooks.estimates.CREATE',
		'VendorBooks.estimates.READ',
		'VendorBooks.estimates.UPDATE',
		'VendorBooks.invoices.CREATE',
		'VendorBooks.invoices.READ',
		'VendorBooks.invoices.UPDATE',
		'VendorBooks.invoices.DELETE',
	],
	resources: [item, estimate, estimateTemplate, invoice],
};

export { estimate, estimateTemplate, invoice, item };
