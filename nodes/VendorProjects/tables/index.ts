import type { Area } from '../../shared/tables/spec';
import { myTasks } from './myTasks';
import { portal } from './portal';
import { project } from './project';
import { search } from './search';
import { trash } from './trash';

export {
	CUSTOM_FIELD_MODULES_SOURCE,
	customFieldModules,
	customFieldTypes,
} from './customFieldTypes';
export type { CustomFieldShape, CustomFieldType } from './customFieldTypes';

/**
 * Vendor Projects: the project-management area (`{base_url}/api/v3`, document 000).
 * No `org`: the portal id travels in the path as the `portal_id` field.
 */
export const projectsArea: Area = {
	value: 'projects',
	name: 'Vendor Projects',
	basePath: '/api/v3',
	family: 'projects',
	scopes: [
		'VendorProjects.portals.READ',
		'VendorProjects.portals.CREATE',
		'VendorProjects.projects.READ',
		'VendorProjects.projects.CREATE',
		'VendorProjects.projects.UPDATE',
		'VendorSearch.securesearch.READ',
	],
	resources: [portal, trash, search, project, myTasks],
};
