import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { areaNodeDescription } from '../shared/describe';
import { executeArea, listSearchMethods } from '../shared/execute';
import { invoiceArea } from './spec';

/** Thin: everything is derived from the field tables in ./spec. */
export class VendorInvoice implements INodeType {
	description = areaNodeDescription(invoiceArea, {
		name: 'vendorInvoice',
		icon: 'vendorInvoice',
		description: 'Customer payments and refunds of the Vendor API',
	});

	methods = { listSearch: listSearchMethods(invoiceArea) };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, invoiceArea);
	}
}
