import { areaNodeClass } from '../shared/node';
import { inventoryArea } from './spec';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorInventory extends areaNodeClass(inventoryArea, {
	name: 'vendorInventory',
	icon: 'vendorInventory',
	description: 'Purchase bills of the Vendor API',
}) {}
