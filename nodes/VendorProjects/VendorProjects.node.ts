import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { areaNodeDescription } from '../shared/describe';
import { executeArea, listSearchMethods } from '../shared/execute';
import { projectsArea } from './spec';

/** Thin: everything is derived from the field tables in ./spec. */
export class VendorProjects implements INodeType {
	description = areaNodeDescription(projectsArea, {
		name: 'vendorProjects',
		icon: 'vendorProjects',
		description: 'Portals, projects, trash, search and tasks of the Vendor project-management API',
	});

	methods = { listSearch: listSearchMethods(projectsArea) };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeArea(this, projectsArea);
	}
}
