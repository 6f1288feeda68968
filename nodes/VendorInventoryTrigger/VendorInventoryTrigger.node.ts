import { triggerNodeClass } from '../shared/node';
import { inventoryArea } from '../VendorInventory/spec';
import { inventoryEvents } from './events';

/** Thin: polls the bill list named in ./events. */
export class VendorInventoryTrigger extends triggerNodeClass(inventoryArea, inventoryEvents, {
	name: 'vendorInventoryTrigger',
	icon: 'vendorInventoryTrigger',
	description: 'Starts the workflow when a purchase bill is created in Vendor Purchase Bills',
}) {}
