import type { Area } from '../../shared/spec';
import { bill } from './bill';

/** Vendor Inventory: purchase bills (`{api_url}/inventory/v1`). */
export const inventoryArea: Area = {
	value: 'inventory',
	name: 'Vendor Inventory',
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
