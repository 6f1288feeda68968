import { areaNodeClass } from '../shared/execute';
import { projectsArea } from './spec';

/** Thin: description, pickers and execute are derived from the field tables in ./spec. */
export class VendorProjects extends areaNodeClass(projectsArea, {
	name: 'vendorProjects',
	icon: 'vendorProjects',
	description: 'Portals, projects, trash, search and tasks of the Vendor project-management API',
}) {}
