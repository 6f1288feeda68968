import { ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { triggerNodeClass } from '../shared/node';
import { inventoryArea } from '../VendorInventory/tables';
import { inventoryEvents } from './events';

/** Thin: polls the bill list named in ./events. */
export class VendorInventoryTrigger extends triggerNodeClass(inventoryArea, inventoryEvents, {
	name: 'vendorInventoryTrigger',
	icon: 'vendorInventoryTrigger',
	description: 'Starts the workflow when a purchase bill is created in Vendor Inventory',
	builderHint: {
		message:
			'Polling trigger for Vendor Inventory (purchase bills): starts a workflow when a purchase bill is created in a Vendor organization. To act on bills, use Vendor Inventory.',
		relatedNodes: [related('vendorInventory', 'Reads or updates the bills this trigger reports')],
	},
	propertyHints: { organizationId: ORGANIZATION_HINT },
}) {}
