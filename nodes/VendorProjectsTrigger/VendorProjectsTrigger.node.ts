import { idHint, related } from '../shared/tables/hints';
import { triggerNodeClass } from '../shared/node';
import { projectsArea } from '../VendorProjects/tables';
import { projectsEvents } from './events';

/** Thin: polls the project-management lists named in ./events. */
export class VendorProjectsTrigger extends triggerNodeClass(projectsArea, projectsEvents, {
	name: 'vendorProjectsTrigger',
	icon: 'vendorProjectsTrigger',
	description:
		'Starts the workflow when Vendor Projects projects are created or updated, or records are moved to trash',
	builderHint: {
		message:
			'Polling trigger for Vendor Projects (project management): starts a workflow when a project of a portal is created or updated, or a record is moved to trash. To act on projects or tasks, use Vendor Projects.',
		relatedNodes: [related('vendorProjects', 'Reads or updates the projects this trigger reports')],
	},
	propertyHints: { portal_id: idHint('portal', 'portal_id') },
}) {}
