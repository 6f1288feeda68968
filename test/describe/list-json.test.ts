/** Lists of objects: each has a "(JSON)" alternative beside its entry form, and the entry form is as before. */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import * as Billing from '../../nodes/VendorBilling/tables';
import * as Books from '../../nodes/VendorBooks/tables';
import * as Inventory from '../../nodes/VendorInventory/tables';
import * as Invoice from '../../nodes/VendorInvoice/tables';
import * as Projects from '../../nodes/VendorProjects/tables';
import type { Area } from '../../nodes/shared/tables/spec';

const areas = [Books, Inventory, Invoice, Billing, Projects].flatMap((m) =>
	Object.values(m).filter(
		(v): v is Area => typeof v === 'object' && v !== null && 'resources' in v,
	),
);

test('every input list of objects of an operation has a JSON alternative', () => {
	const lists = areas.flatMap((a) =>
		a.resources.flatMap((r) =>
			r.operations.flatMap((op) =>
				op.fields
					.filter((f) => !f.readOnly && f.type === 'array' && f.fields)
					.map((f) => ({
						at: `${a.name} ${r.value} ${op.value} ${f.name}`,
						json: f.jsonAlternative === true,
					})),
			),
		),
	);
	expect(lists.length).toBeGreaterThanOrEqual(28);
	expect(lists.filter((l) => !l.json).map((l) => l.at)).toEqual([]);
});

test('the entry form of a list stays as it was: nested members as JSON (invoice line tags), except where a table asks for them as fields', () => {
	const props = new VendorBooks().description.properties;
	const lineItems = props.find(
		(p) => p.name === 'line_items' && p.displayOptions?.show?.resource?.includes('invoice'),
	);
	const entry = (lineItems?.options as INodePropertyCollection[])[0].values as INodeProperties[];
	// a line's less common members (tags among them) sit in the entry's Additional Fields
	const more = entry.find((m) => m.name === 'additionalFields')?.options as INodeProperties[];
	expect(more.find((m) => m.name === 'tags')?.type).toBe('json');
	const alternative = props.find(
		(p) => p.name === 'line_itemsJson' && p.displayOptions?.show?.resource?.includes('invoice'),
	);
	expect([alternative?.displayName, alternative?.type, alternative?.displayOptions?.show]).toEqual([
		'Line Items (JSON)',
		'json',
		lineItems?.displayOptions?.show,
	]);
	const tags = areas
		.flatMap((a) => a.resources.flatMap((r) => r.operations.flatMap((op) => op.fields)))
		.filter((f) => f.membersAsFields);
	expect(tags.map((f) => f.name).sort()).toEqual([
		'filter',
		'tags',
		'trash_request_items',
		'trash_request_items',
	]);
});
