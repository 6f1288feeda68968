import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { areaNodeDescription } from '../shared/describe';
import { executeArea, listSearchMethods } from '../shared/execute';
import { booksArea } from './spec';

/** Thin: everything is derived from the field tables in ./spec. */
export class VendorBooks implements INodeType {
	description = areaNodeDescription(booksArea, {
		name: 'vendorBooks',
		icon: 'vendorBooks',
		description: 'Items, estimates and invoices of the Vendor accounting API',
	});

	methods = { listSearch: listSearchMethods(booksArea) };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, booksArea);
	}
}
