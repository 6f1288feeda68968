import { idHint, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { customFieldProperties } from './customFields';
import { projectsArea } from './tables';
import { projectsSpecials } from './specials';

/** Thin: description, pickers and execute are derived from the field tables in ./tables. */
export class VendorProjects extends areaNodeClass(
	projectsArea,
	{
		name: 'vendorProjects',
		icon: 'vendorProjects',
		description: 'Portals, projects, trash, search and tasks of the Vendor project-management API',
		trailingProperties: customFieldProperties,
		builderHint: {
			message:
				'Vendor Projects (project management, not accounting): portals, projects, trash, search and tasks. Use it to create, read, list, update, trash or search projects of a portal. There is no organization here: records belong to a portal. To start a workflow when a project is created or updated, or a record is trashed, use the Vendor Projects Trigger.',
			relatedNodes: [
				related(
					'vendorProjectsTrigger',
					'Starts a workflow when projects are created or updated, or records are moved to trash',
				),
			],
		},
		propertyHints: {
			portal_id: idHint('portal', 'portal_id'),
			project_id: idHint('project', 'project_id'),
		},
	},
	projectsSpecials,
) {}
