import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { areaNodeDescription } from '../shared/describe';
import { executeArea, listSearchMethods } from '../shared/execute';
import { inventoryArea } from './spec';

/** Thin: everything is derived from the field tables in ./spec. */
export class VendorInventory implements INodeType {
	description = areaNodeDescription(inventoryArea, {
		name: 'vendorInventory',
		icon: 'vendorInventory',
		description: 'Purchase bills of the Vendor API',
	});

	methods = { listSearch: listSearchMethods(inventoryArea) };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, inventoryArea);
	}
}
