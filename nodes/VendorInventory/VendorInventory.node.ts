import { idHint, ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { inventoryArea } from './tables';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorInventory extends areaNodeClass(inventoryArea, {
	name: 'vendorInventory',
	icon: 'vendorInventory',
	description: 'Purchase bills of the Vendor API',
	builderHint: {
		message:
			'Vendor Purchase Bills: the bills a Vendor organization receives from its vendors (suppliers). Use it to create, read, list, update or delete a purchase bill. To start a workflow when a bill is created, use the Vendor Purchase Bills trigger.',
		relatedNodes: [related('vendorInventoryTrigger', 'Starts a workflow when a purchase bill is created')],
	},
	propertyHints: {
		organizationId: ORGANIZATION_HINT,
		bill_id: idHint('bill', 'bill_id'),
		vendor_id: idHint('vendor', 'vendor_id'),
	},
}) {}
