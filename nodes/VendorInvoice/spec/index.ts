import type { Area } from '../../shared/spec';
import { payment } from './payment';
import { refund } from './refund';

/** Vendor Invoice: customer payments and their refunds (`{api_url}/invoice/v3`). */
export const invoiceArea: Area = {
	value: 'invoice',
	name: 'Vendor Invoice',
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
