import { ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { triggerNodeClass } from '../shared/node';
import { booksArea } from '../VendorBooks/tables';
import { booksEvents } from './events';

/** Thin: polls the Books lists named in ./events. */
export class VendorBooksTrigger extends triggerNodeClass(booksArea, booksEvents, {
	name: 'vendorBooksTrigger',
	icon: 'vendorBooksTrigger',
	description:
		'Starts the workflow when estimates, invoices or items of Vendor Books are created or change status',
	builderHint: {
		message:
			'Polling trigger for Vendor Books: starts a workflow when an estimate, invoice or item of a Vendor organization is created or changes status (for example an invoice becomes overdue or paid). To act on these records, use Vendor Books.',
		relatedNodes: [
			related('vendorBooks', 'Reads, updates, sends or reminds the records this trigger reports'),
		],
	},
	propertyHints: { organizationId: ORGANIZATION_HINT },
}) {}
