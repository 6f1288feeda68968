import type { Area } from '../../shared/tables/spec';
import { payment } from './payment';
import { refund } from './refund';

/**
 * The vendor's invoice API (`{api_url}/invoice/v3`): customer payments and their refunds.
 * Shown as "Vendor Payments" (what a user finds inside; invoices are in Vendor Books).
 */
export const invoiceArea: Area = {
	value: 'invoice',
	name: 'Vendor Payments',
	root: 'api',
	basePath: '/invoice/v3',
	org: { in: 'header', name: 'X-com-vendor-invoice-organizationid' },
	envelope: 'accounting',
	scopes: [
		'VendorInvoice.customerpayments.CREATE',
		'VendorInvoice.customerpayments.READ',
		'VendorInvoice.customerpayments.UPDATE',
		'VendorInvoice.customerpayments.DELETE',
	],
	resources: [payment, refund],
};

export { payment, refund };
