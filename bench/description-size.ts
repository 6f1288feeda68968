/**
 * Description sizes: the JSON of each node's description, as n8n sends it to every editor
 * that opens (bytes of `JSON.stringify(description)`; KB = 1,000 bytes), with its number of
 * properties, and for the action nodes the size before repeated properties are merged
 * (`nodes/shared/compact.ts`).
 *
 *   npm run build && node build/bench/description-size.js
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { areaProperties } from '../nodes/shared/node';
import type { Area } from '../nodes/shared/tables/spec';
import { billingArea } from '../nodes/VendorBilling/tables';
import { booksArea } from '../nodes/VendorBooks/tables';
import { inventoryArea } from '../nodes/VendorInventory/tables';
import { invoiceArea } from '../nodes/VendorInvoice/tables';
import { customFieldProperties } from '../nodes/VendorProjects/customFields';
import { projectsArea } from '../nodes/VendorProjects/tables';

import { VendorBilling } from '../nodes/VendorBilling/VendorBilling.node';
import { VendorBillingTrigger } from '../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooks } from '../nodes/VendorBooks/VendorBooks.node';
import { VendorBooksTrigger } from '../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventory } from '../nodes/VendorInventory/VendorInventory.node';
import { VendorInventoryTrigger } from '../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoice } from '../nodes/VendorInvoice/VendorInvoice.node';
import { VendorInvoiceTrigger } from '../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjects } from '../nodes/VendorProjects/VendorProjects.node';
import { VendorProjectsTrigger } from '../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { console } from '../host/globals';

const NODES: Array<new () => INodeType> = [
	VendorBooks,
	VendorProjects,
	VendorInvoice,
	VendorBilling,
	VendorInventory,
	VendorBooksTrigger,
	VendorProjectsTrigger,
	VendorInvoiceTrigger,
	VendorBillingTrigger,
	VendorInventoryTrigger,
];

/** The action nodes' properties before merging, by node name. */
const UNMERGED: Record<string, [Area, INodeProperties[]]> = {
	vendorBooks: [booksArea, []],
	vendorProjects: [projectsArea, customFieldProperties],
	vendorInvoice: [invoiceArea, []],
	vendorBilling: [billingArea, []],
	vendorInventory: [inventoryArea, []],
};

function main(): void {
	console.log('node                      bytes      KB  properties  unmerged KB');
	let total = 0;
	for (const Node of NODES) {
		const description = new Node().description;
		const bytes = Buffer.byteLength(JSON.stringify(description));
		total += bytes;
		const unmerged = UNMERGED[description.name];
		const before = unmerged
			? (
					Buffer.byteLength(
						JSON.stringify({ ...description, properties: areaProperties(...unmerged) }),
					) / 1000
				).toFixed(1)
			: '';
		console.log(
			`${description.displayName.padEnd(24)} ${String(bytes).padStart(7)} ${(bytes / 1000).toFixed(1).padStart(7)} ${String(description.properties.length).padStart(11)} ${before.padStart(12)}`,
		);
	}
	console.log(
		`${'all'.padEnd(24)} ${String(total).padStart(7)} ${(total / 1000).toFixed(1).padStart(7)}`,
	);
}

main();
