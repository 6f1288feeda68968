import type { Area } from '../../shared/tables/spec';
import { bill } from './bill';

/**
 * The vendor's inventory API (`{api_url}/inventory/v1`): purchase bills. Shown as "Vendor
 * Purchase Bills" (what a user finds inside: bills, not stock).
 */
export const inventoryArea: Area = {
	value: 'inventory',
	name: 'Vendor Purchase Bills',
	root: 'api',
	basePath: '/inventory/v1',
	org: { in: 'query', name: 'organization_id' },
	envelope: 'accounting',
	scopes: [
		'VendorInventory.bills.CREATE',
		'VendorInventory.bills.READ',
		'VendorInventory.bills.UPDATE',
	],
	resources: [bill],
};

export { bill };
