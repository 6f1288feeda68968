import type { Area } from '../../shared/tables/spec';
import { bill } from './bill';

/**
 * The vendor's inventory API (`{api_url}/inventory/v1`): purchase bills. Named after the API
 * product, like its type `vendorInventory`, base path and scopes; the node's description and
 * codex aliases say what it holds (purchase bills, not stock).
 */
export const inventoryArea: Area = {
	value: 'inventory',
	name: 'Vendor Inventory',
	basePath: '/inventory/v1',
	org: { in: 'query', name: 'organization_id' },
	family: 'accounting',
	scopes: [
		'VendorInventory.bills.CREATE',
		'VendorInventory.bills.READ',
		'VendorInventory.bills.UPDATE',
	],
	resources: [bill],
};

export { bill };
