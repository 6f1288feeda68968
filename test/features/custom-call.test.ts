/**
 * Every action node offers the package's own Custom API Call as the last option of its
 * resource list and of every operation list, so n8n appends none of its own (whose HTTP
 * Request node signs `Bearer` and skips the organisation).
 */
import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { CUSTOM_CALL, CUSTOM_CALL_NAME, customPath } from '../../nodes/shared/features/customCall';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { projectsArea } from '../../nodes/VendorProjects/tables';

const nodes: Array<[string, INodeType]> = [
	['Vendor Books', new VendorBooks()],
	['Vendor Projects', new VendorProjects()],
	['Vendor Invoice', new VendorInvoice()],
	['Vendor Billing', new VendorBilling()],
	['Vendor Inventory', new VendorInventory()],
];

describe.each(nodes)('%s', (_name, node) => {
	const props = node.description.properties;
	const lists = props.filter((p) => p.name === 'resource' || p.name === 'operation');

	test('the resource list and every operation list end with the package\'s own "Custom API Call"', () => {
		expect(lists.filter((p) => p.name === 'resource')).toHaveLength(1);
		expect(lists.length).toBeGreaterThan(2);
		for (const list of lists) {
			const options = list.options as INodePropertyOptions[];
			const last = options[options.length - 1];
			expect({
				list: list.name,
				shownFor: list.displayOptions?.show?.resource,
				last: last.name,
				value: last.value,
			}).toEqual({
				list: list.name,
				shownFor: list.displayOptions?.show?.resource,
				last: CUSTOM_CALL_NAME,
				value: CUSTOM_CALL,
			});
			// n8n's editor swaps in the HTTP Request node for any value containing its key
			expect(options.some((o) => String(o.value).includes('__CUSTOM_API_CALL__'))).toBe(false);
			expect(options.filter((o) => o.name === CUSTOM_CALL_NAME)).toHaveLength(1);
		}
	});

	test('as n8n injects its option (only where the last option is not named "Custom API Call"), nothing is added', () => {
		const injected = lists.filter(
			(p) => (p.options as INodePropertyOptions[]).at(-1)?.name !== 'Custom API Call',
		);
		expect(injected).toEqual([]);
	});

	test('the custom call is described for AI agents and its fields show only when it is chosen', () => {
		const operation = lists.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(CUSTOM_CALL),
		);
		const option = (operation?.options as INodePropertyOptions[])[0];
		expect(option.action).toBe('Make custom API call');
		expect(option.description).toMatch(
			/^Send any request of the Vendor [\w ]+ API, signed.*; needs a method and a path relative to \{(api|base)_url\}\/\w+\/v\d$/,
		);
		const names = [
			'customMethod',
			'customPath',
			'customQuery',
			'customBodyType',
			'customBody',
			'customInputBinaryField',
			'customFileField',
			'customReturnAll',
			'customOutputBinaryField',
		];
		const custom = props.filter((p: INodeProperties) => names.includes(p.name));
		expect(custom.map((p) => p.name)).toEqual(names);
		for (const p of custom) expect(p.displayOptions?.show?.operation).toEqual([CUSTOM_CALL]);
		const path = custom.find((p) => p.name === 'customPath');
		// said once (it repeated the root), and what a path looks like for an agent filling it
		expect(path?.hint).toMatch(/^Relative to \{(api|base)_url\}\/\w+\/v\d$/);
		expect(path?.description).toMatch(
			/^The path below \{(api|base)_url\}\/\w+\/v\d, starting with \/ \(e\.g\. \/\S+\)\. Not a URL/,
		);
	});
});

test('paths: relative, encoded, the base path dropped, the portal placed; URLs and dot segments refused', () => {
	expect(customPath(booksArea, 'items/1 2'.replace(' ', '%20'))).toBe('/items/1%202');
	expect(customPath(booksArea, '/books/v3/invoices/7/attachment/')).toBe('/invoices/7/attachment');
	expect(customPath(projectsArea, '/api/v3/portal/{portal_id}/projects', '42')).toBe(
		'/portal/42/projects',
	);
	for (const bad of [
		'http://127.0.0.1/x',
		'HTTPS://host/books/v3/items',
		'//host/items',
		'javascript:alert(1)',
		'/a/./b',
		'/a/%2E%2E/b',
		'/a/%2Fetc',
		'/items\\x',
		'/a b',
	]) {
		expect(() => customPath(booksArea, bad)).toThrow(/^Path must /);
	}
});
