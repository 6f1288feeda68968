import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { areaNodeDescription } from '../shared/describe';
import { executeArea, listSearchMethods } from '../shared/execute';
import { billingArea } from './spec';

/** Thin: everything is derived from the field tables in ./spec. */
export class VendorBilling implements INodeType {
	description = areaNodeDescription(billingArea, {
		name: 'vendorBilling',
		icon: 'vendorBilling',
		description: 'Billing projects, their tasks, users, comments and invoices in the Vendor API',
	});

	methods = { listSearch: listSearchMethods(billingArea) };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, billingArea);
	}
}
