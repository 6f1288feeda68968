/**
 * Smaller descriptions lose nothing: merging repeated properties keeps, for every resource /
 * operation pair (and as an AI tool), exactly the same properties in the same order.
 */
import type { INodeProperties } from 'n8n-workflow';

import { mergeRepeatedProperties } from '../../nodes/shared/describe/compact';
import { areaProperties } from '../../nodes/shared/node';
import { FORM_VERSION, wrapperMember } from '../../nodes/shared/tables/naming';
import type { Area, Field } from '../../nodes/shared/tables/spec';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { customFieldProperties } from '../../nodes/VendorProjects/customFields';
import { projectsArea } from '../../nodes/VendorProjects/tables';

const areas: Array<[string, Area, INodeProperties[]]> = [
	['Vendor Books', booksArea, []],
	['Vendor Projects', projectsArea, customFieldProperties],
	['Vendor Invoice', invoiceArea, []],
	['Vendor Billing', billingArea, []],
	['Vendor Inventory', inventoryArea, []],
];

/** What a resource / operation pair shows, in order: each property without the resource / operation conditions. */
function seen(
	props: INodeProperties[],
	resource: string,
	operation: string,
	tool: boolean,
): string[] {
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
			const rest = Object.fromEntries(
				Object.entries(p.displayOptions?.show ?? {}).filter(
					([key]) => key !== 'resource' && key !== 'operation',
				),
			);
			return JSON.stringify({
				...p,
				displayOptions: p.displayOptions ? { ...p.displayOptions, show: rest } : undefined,
			});
		});
}

describe.each(areas)('%s', (_name, area, trailing) => {
	const full = areaProperties(area, trailing);
	const merged = mergeRepeatedProperties(full);
	const pairs = [
		...area.resources.flatMap((r) => [
			...r.operations.map((o) => [r.value, o.value]),
			[r.value, 'customApiCall'],
		]),
		['customApiCall', 'customApiCall'],
	];

	test('every operation sees the same properties in the same order, as a node and as a tool', () => {
		for (const [resource, operation] of pairs) {
			for (const tool of [false, true]) {
				expect({
					resource,
					operation,
					tool,
					props: seen(merged, resource, operation, tool),
				}).toEqual({ resource, operation, tool, props: seen(full, resource, operation, tool) });
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
	const invoiceIds = merged.filter(
		(p) => p.name === 'invoice_id' && p.displayOptions?.show?.resource?.includes('invoice'),
	);
	expect(invoiceIds).toHaveLength(1);
	const gcc = merged.filter((p) => p.name === 'gccFields');
	// version 1 shows every regional group; from FORM_VERSION the group picked under Regional Fields
	expect(gcc.map((p) => p.displayOptions?.show)).toEqual([
		{ resource: ['estimate', 'invoice'], operation: ['create', 'update'], '@version': [1] },
		{
			resource: ['estimate', 'invoice'],
			operation: ['create', 'update'],
			'@version': [FORM_VERSION],
			regionalFields: ['gccFields'],
		},
	]);
});

test('no description says the same format twice ("Due date (yyyy-mm-dd). Format yyyy-mm-dd")', () => {
	const texts: string[] = [];
	const walk = (value: unknown): void => {
		if (Array.isArray(value)) value.forEach(walk);
		else if (value && typeof value === 'object') {
			const { description } = value as { description?: unknown };
			if (typeof description === 'string') texts.push(description);
			Object.values(value).forEach(walk);
		}
	};
	for (const [, area, trailing] of areas) walk(areaProperties(area, trailing));
	expect(texts.filter((t) => t.includes('yyyy-mm-dd')).length).toBeGreaterThan(10);
	expect(texts.filter((t) => /yyyy-mm-dd.*yyyy-mm-dd|HH:MM.*HH:MM/.test(t))).toEqual([]);
});

describe.each(areas)(
	'%s: every field of the tables in the node description',
	(_name, area, trailing) => {
		const props = mergeRepeatedProperties(areaProperties(area, trailing));
		/** The properties an operation shows, with the options of its collections, at every depth. */
		function shownTo(
			resource: string,
			operation: string,
		): Array<{ name?: string; description?: string }> {
			const out: Array<{ name?: string; description?: string }> = [];
			const walk = (value: unknown): void => {
				if (Array.isArray(value)) value.forEach(walk);
				else if (value && typeof value === 'object') {
					out.push(value as { name?: string });
					Object.values(value).forEach(walk);
				}
			};
			walk(seen(props, resource, operation, false).map((p) => JSON.parse(p) as unknown));
			return out;
		}
		test('each operation shows every field it takes and their members (at the top or in a collection), with its enum values and stated limits', () => {
			for (const resource of area.resources) {
				for (const op of resource.operations) {
					const shown = shownTo(resource.value, op.value);
					const text = JSON.stringify(shown);
					const check = (field: Field, parent?: Field): void => {
						const where = `${resource.value}.${op.value} ${parent ? `${parent.name}.` : ''}${field.name}`;
						const missing: string[] = [];
						// a member entered as its object's value (`wrapperMember`: owner -> { zpuid }) is the object's property
						const named =
							shown.some((p) => p.name === field.name) ||
							(!!parent &&
								wrapperMember(parent) === field &&
								shown.some((p) => p.name === parent.name));
						if (!named) missing.push('field');
						for (const value of field.values ?? [])
							if (!text.includes(`"value":"${value}"`)) missing.push(`value ${value}`);
						if (field.maxLength && !text.includes(`At most ${field.maxLength} characters`))
							missing.push(`maxLength ${field.maxLength}`);
						expect({ where, missing }).toEqual({ where, missing: [] });
					};
					for (const field of op.fields.filter((f) => !f.readOnly)) {
						check(field);
						// a member only an update takes (`updateOnly`: the ID of an existing line) is not offered elsewhere
						for (const member of (field.fields ?? []).filter(
							(m) => !m.readOnly && (op.kind === 'update' || !m.updateOnly),
						))
							check(member, field);
					}
				}
			}
		});
	},
);
