import { triggerNodeClass } from '../shared/node';
import { projectsArea } from '../VendorProjects/spec';
import { projectsEvents } from './events';

/** Thin: polls the project-management lists named in ./events. */
export class VendorProjectsTrigger extends triggerNodeClass(projectsArea, projectsEvents, {
	name: 'vendorProjectsTrigger',
	icon: 'vendorProjectsTrigger',
	description: 'Starts the workflow when Vendor Projects projects are created or updated, or records are moved to trash',
}) {}
