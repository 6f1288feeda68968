import { areaNodeClass } from '../shared/node';
import { customFieldProperties } from './customFields';
import { projectsArea } from './spec';
import { projectsSpecials } from './specials';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorProjects extends areaNodeClass(
	projectsArea,
	{
		name: 'vendorProjects',
		icon: 'vendorProjects',
		description: 'Portals, projects, trash, search and tasks of the Vendor project-management API',
		trailingProperties: customFieldProperties,
	},
	projectsSpecials,
) {}
