/**
 * Smaller descriptions lose nothing: merging repeated properties keeps, for every resource /
 * operation pair (and as an AI tool), exactly the same properties in the same order.
 */
import type { INodeProperties } from 'n8n-workflow';

import { mergeRepeatedProperties } from '../../nodes/shared/compact';
import { areaProperties } from '../../nodes/shared/describe';
import type { Area } from '../../nodes/shared/spec';
import { billingArea } from '../../nodes/VendorBilling/spec';
import { booksArea } from '../../nodes/VendorBooks/spec';
import { inventoryArea } from '../../nodes/VendorInventory/spec';
import { invoiceArea } from '../../nodes/VendorInvoice/spec';
import { customFieldProperties } from '../../nodes/VendorProjects/customFields';
import { projectsArea } from '../../nodes/VendorProjects/spec';

const areas: Array<[string, Area, INodeProperties[]]> = [
	['Vendor Books', booksArea, []],
	['Vendor Projects', projectsArea, customFieldProperties],
	['Vendor Invoice', invoiceArea, []],
	['Vendor Billing', billingArea, []],
	['Vendor Inventory', inventoryArea, []],
];

/** What a resource / operation pair shows, in order: each property without the resource / operation conditions. */
function seen(props: INodeProperties[], resource: string, operation: string, tool: boolean): string[] {
	return props
		.filter((p) => {
			const show = p.displayOptions?.show;
			return (
				(!show?.resource || show.resource.includes(resource)) &&
				(!show?.operation || show.operation.includes(operation)) &&
				(show?.['@tool']?.includes(tool) ?? true)
			);
		})
		.map((p) => {
			const { resource: _r, operation: _o, ...rest } = p.displayOptions?.show ?? {};
			return JSON.stringify({ ...p, displayOptions: p.displayOptions ? { ...p.displayOptions, show: rest } : undefined });
		});
}

describe.each(areas)('%s', (_name, area, trailing) => {
	const full = areaProperties(area, trailing);
	const merged = mergeRepeatedProperties(full);
	const pairs = [...area.resources.flatMap((r) => [...r.operations.map((o) => [r.value, o.value]), [r.value, 'customApiCall']]), ['customApiCall', 'customApiCall']];

	test('every operation sees the same properties in the same order, as a node and as a tool', () => {
		for (const [resource, operation] of pairs) {
			for (const tool of [false, true]) {
				expect({ resource, operation, tool, props: seen(merged, resource, operation, tool) }).toEqual({ resource, operation, tool, props: seen(full, resource, operation, tool) });
			}
		}
	});

	test('repeated properties are merged: fewer properties, fewer bytes', () => {
		expect(merged.length).toBeLessThan(full.length);
		expect(JSON.stringify(merged).length).toBeLessThan(JSON.stringify(full).length);
	});
});

test('Vendor Books: one ID picker per resource for all its operations, one copy of the estimate and invoice region fields', () => {
	const merged = mergeRepeatedProperties(areaProperties(booksArea));
	const invoiceIds = merged.filter((p) => p.name === 'invoice_id' && p.displayOptions?.show?.resource?.includes('invoice'));
	expect(invoiceIds).toHaveLength(1);
	const gcc = merged.filter((p) => p.name === 'gccFields');
	expect(gcc.map((p) => p.displayOptions?.show)).toEqual([{ resource: ['estimate', 'invoice'], operation: ['create', 'update'] }]);
});
