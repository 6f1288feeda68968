import { idHint, ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { inventoryArea } from './tables';

/** Thin: description, pickers and execute are derived from the field tables in ./tables. */
export class VendorInventory extends areaNodeClass(inventoryArea, {
	name: 'vendorInventory',
	icon: 'vendorInventory',
	description: 'Create, list and update purchase bills in Vendor Inventory',
	builderHint: {
		message:
			'Vendor Inventory holds the purchase bills a Vendor organization receives from its vendors (suppliers); it does not hold stock levels. Use it to create, list or update a purchase bill. To start a workflow when a bill is created, use the Vendor Inventory Trigger.',
		relatedNodes: [
			related('vendorInventoryTrigger', 'Starts a workflow when a purchase bill is created'),
		],
	},
	propertyHints: {
		organizationId: ORGANIZATION_HINT,
		bill_id: idHint('bill', 'bill_id'),
		vendor_id: idHint('vendor', 'vendor_id'),
	},
}) {}
