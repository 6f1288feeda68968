/** Rules every field table and every derived node description must keep. */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { DEFAULT_SCOPES } from '../../credentials/VendorOAuth2Api.credentials';
import { FORM_VERSION, placement } from '../../nodes/shared/tables/naming';
import type { Area, Field } from '../../nodes/shared/tables/spec';
import { locationOf } from '../../nodes/shared/tables/location';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { projectsArea } from '../../nodes/VendorProjects/tables';

const nodes: Array<[string, Area, INodeType]> = [
	['Vendor Books', booksArea, new VendorBooks()],
	['Vendor Projects', projectsArea, new VendorProjects()],
	['Vendor Invoice', invoiceArea, new VendorInvoice()],
	['Vendor Billing', billingArea, new VendorBilling()],
	['Vendor Inventory', inventoryArea, new VendorInventory()],
];

function walk(fields: Field[], visit: (f: Field) => void): void {
	for (const f of fields) {
		visit(f);
		if (f.fields) walk(f.fields, visit);
		if (f.of) visit(f.of);
	}
}

/** `Service.module.OP` is granted by `Service.module.OP` or `Service.module.ALL`. */
function granted(scope: string): boolean {
	const [service, module] = scope.split('.');
	return DEFAULT_SCOPES.split(',').some((g) => g === scope || g === `${service}.${module}.ALL`);
}

describe.each(nodes)('%s', (_name, area, node) => {
	const ops = area.resources.flatMap((r) => r.operations.map((op) => ({ r, op })));

	test('operation values are unique per resource and resource values unique', () => {
		expect(new Set(area.resources.map((r) => r.value)).size).toBe(area.resources.length);
		for (const r of area.resources)
			expect(new Set(r.operations.map((o) => o.value)).size).toBe(r.operations.length);
	});

	test('every path parameter has a required field that travels in the path', () => {
		for (const { op } of ops) {
			for (const [, param] of op.path.matchAll(/\{([^}]+)\}/g)) {
				const field = op.fields.find((f) => f.name === param);
				expect({ op: op.value, param, found: !!field, required: field?.required }).toEqual({
					op: op.value,
					param,
					found: true,
					required: true,
				});
				expect(locationOf(field!, op)).toBe('path');
			}
		}
	});

	test('enums list values, locators point at listable resources, shapes are complete', () => {
		for (const { op } of ops) {
			walk(op.fields, (f) => {
				if (f.type === 'enum') expect(f.values?.length).toBeGreaterThan(0);
				if (f.type === 'object') expect(f.fields?.length).toBeGreaterThan(0);
				if (f.type === 'array') expect(!!f.fields || !!f.of).toBe(true);
				if (f.maxLength !== undefined) expect(f.maxLength).toBeGreaterThan(0);
			});
			for (const f of op.fields.filter((x) => x.locator)) {
				const target = area.resources.find((r) => r.value === f.locator);
				expect({ field: f.name, target: target?.value, list: !!target?.listOperation }).toEqual({
					field: f.name,
					target: f.locator,
					list: true,
				});
			}
		}
	});

	test('lists page, batches name an array field, at most one body root', () => {
		for (const { op } of ops) {
			if (op.kind === 'list') expect(op.pagination).toBeDefined();
			if (op.batch) expect(op.fields.find((f) => f.name === op.batch?.field)?.type).toBe('array');
			expect(op.fields.filter((f) => f.bodyRoot).length).toBeLessThanOrEqual(1);
		}
	});

	test("every stated scope is in the area's list and granted by the credential's default scope", () => {
		for (const { op } of ops) {
			for (const scope of [op.scope ?? []].flat()) {
				expect(area.scopes).toContain(scope);
				expect({ scope, granted: granted(scope) }).toEqual({ scope, granted: true });
			}
		}
	});

	test('derived properties: no two visible at once under one name; lists have Return All and Limit', () => {
		const props = node.description.properties;
		// as a node and as an AI tool (the `@tool` display condition), in each node version (`@version`: 1 for stored workflows, FORM_VERSION)
		for (const [{ r, op }, tool, version] of ops.flatMap((o) =>
			[1, FORM_VERSION].flatMap(
				(v) =>
					[
						[o, false, v],
						[o, true, v],
					] as const,
			),
		)) {
			const visible = props.filter((p: INodeProperties) => {
				const show = p.displayOptions?.show;
				if (!show) return true;
				return (
					(show.resource?.includes(r.value) ?? true) &&
					(show.operation?.includes(op.value) ?? true) &&
					!show.returnAll &&
					(show['@tool']?.includes(tool) ?? true) &&
					(show['@version']?.includes(version) ?? true)
				);
			});
			// a regional group's collection shows for its choice of Regional Fields only: one at a time
			const names = visible
				.filter((p) => !p.displayOptions?.show?.regionalFields)
				.map((p) => p.name);
			expect({
				op: `${r.value}.${op.value}`,
				dupes: names.filter((n, i) => names.indexOf(n) !== i),
			}).toEqual({ op: `${r.value}.${op.value}`, dupes: [] });
			if (op.kind === 'list') expect(names).toContain('returnAll');
			for (const f of op.fields.filter((x) => placement(x, op) === 'top'))
				expect(names).toContain(f.name);
			// an ID of a listable resource is a picker wherever it is entered: at the top or in a collection
			const entered = [
				...visible,
				...visible.flatMap((p) =>
					p.type === 'collection' ? ((p.options ?? []) as INodeProperties[]) : [],
				),
			];
			for (const f of op.fields.filter(
				(x) => !x.readOnly && area.resources.find((t) => t.value === x.locator)?.listOperation,
			)) {
				expect({
					op: `${r.value}.${op.value}`,
					field: f.name,
					type: entered.find((p) => p.name === f.name)?.type,
				}).toEqual({ op: `${r.value}.${op.value}`, field: f.name, type: 'resourceLocator' });
			}
		}
	});

	test('node description is an n8n tool and matches its snapshot', () => {
		expect(node.description.usableAsTool).toBe(true);
		expect(node.description.credentials).toEqual([{ name: 'vendorOAuth2Api', required: true }]);
		expect(node.description).toMatchSnapshot();
	});
});
