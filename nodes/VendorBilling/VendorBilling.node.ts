import { idHint, ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { billingArea } from './tables';

/** Thin: description, pickers and execute are derived from the field tables in ./tables. */
export class VendorBilling extends areaNodeClass(billingArea, {
	name: 'vendorBilling',
	icon: 'vendorBilling',
	description: 'Billing projects, their tasks, users, comments and invoices in the Vendor API',
	builderHint: {
		message:
			'Vendor Billing: billing projects (time and billing) of a Vendor organization with their tasks, users, comments and invoices. Use it to create, read, list, update or delete them. To start a workflow when a billing project is created, use the Vendor Billing trigger.',
		relatedNodes: [
			related('vendorBillingTrigger', 'Starts a workflow when a billing project is created'),
			related('vendorBooks', 'The invoices and customers of the accounting side'),
		],
	},
	propertyHints: {
		organizationId: ORGANIZATION_HINT,
		project_id: idHint('billing project', 'project_id'),
		customer_id: idHint('customer', 'customer_id'),
		user_id: idHint('user', 'user_id'),
		comment_id: idHint('comment', 'comment_id'),
	},
}) {}
