import type { Area } from '../../shared/tables/spec';
import { comment } from './comment';
import { project } from './project';

/** Vendor Billing: billing projects, their users, comments and invoices (`{api_url}/billing/v1`). */
export const billingArea: Area = {
	value: 'billing',
	name: 'Vendor Billing',
	root: 'api',
	basePath: '/billing/v1',
	org: { in: 'header', name: 'X-com-vendor-subscriptions-organizationid' },
	envelope: 'accounting',
	scopes: [
		'VendorSubscriptions.projects.CREATE',
		'VendorSubscriptions.projects.READ',
		'VendorSubscriptions.projects.UPDATE',
		'VendorSubscriptions.projects.DELETE',
	],
	resources: [project, comment],
};

export { comment, project };
