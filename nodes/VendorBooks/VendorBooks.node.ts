import { idHint, ORGANIZATION_HINT, related } from '../shared/tables/hints';
import { areaNodeClass } from '../shared/node';
import { booksArea } from './tables';
import { booksSpecials } from './specials';

/** Thin: derived from the field tables in ./tables; irregular operations in ./specials. */
export class VendorBooks extends areaNodeClass(
	booksArea,
	{
		name: 'vendorBooks',
		icon: 'vendorBooks',
		description: 'Items, estimates and invoices of the Vendor accounting API',
		builderHint: {
			message:
				'Vendor Books (accounting): items (products and services), estimates (quotes) and invoices of a Vendor organization. Use it to create, read, list, update or delete them, turn an estimate into an invoice, send or remind an invoice. To start a workflow when one is created or changes status, use the Vendor Books Trigger.',
			relatedNodes: [
				related(
					'vendorBooksTrigger',
					'Starts a workflow when estimates, invoices or items are created or change status',
				),
				related('vendorInvoice', 'Records the customer payments and refunds of these invoices'),
			],
		},
		propertyHints: {
			organizationId: ORGANIZATION_HINT,
			item_id: idHint('item', 'item_id'),
			estimate_id: idHint('estimate', 'estimate_id'),
			invoice_id: idHint('invoice', 'invoice_id'),
			template_id: idHint('template', 'template_id'),
			customer_id: idHint('customer', 'customer_id'),
		},
	},
	booksSpecials,
) {}
