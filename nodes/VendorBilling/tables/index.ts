import type { Area } from '../../shared/tables/spec';
import { comment } from './comment';
import { project } from './project';

/**
 * Billing project error codes (the Payments document, "Errors"): what went wrong and what to do. The
 * document gives no other code for billing projects (3004 is a payment code).
 */
export const BILLING_ERROR_CODES: NonNullable<Area['errorCodes']> = {
	1002: {
		meaning: 'The billing project does not exist',
		resolution: 'Check the Project ID (pick it from the list)',
	},
	20004: {
		meaning: 'The amount must not be negative',
		resolution:
			'Enter zero or a positive value for the rate and budget of the project and of its tasks and users',
	},
	20077: {
		meaning: 'An expense is recorded for the billing project, so it cannot be deleted',
		resolution: "Remove the project's expenses first",
	},
};

/** Vendor Billing: billing projects, their users, comments and invoices (`{api_url}/billing/v1`). */
export const billingArea: Area = {
	value: 'billing',
	name: 'Vendor Billing',
	basePath: '/billing/v1',
	org: { in: 'header', name: 'X-com-vendor-subscriptions-organizationid' },
	family: 'accounting',
	errorCodes: BILLING_ERROR_CODES,
	scopes: [
		'VendorSubscriptions.projects.CREATE',
		'VendorSubscriptions.projects.READ',
		'VendorSubscriptions.projects.UPDATE',
		'VendorSubscriptions.projects.DELETE',
	],
	resources: [project, comment],
};

export { comment, project };
