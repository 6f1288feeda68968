/**
 * The form a person fills in, over every property of every node (collections, fixed-collection
 * entries and their Additional Fields included): no field shows an issue when it is added
 * untouched, and a list entry shows at most ten members before its Additional Fields.
 */
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { ENTRY_MORE, ENTRY_SHOWN_MAX } from '../../nodes/shared/tables/naming';
import type { Area, Operation } from '../../nodes/shared/tables/spec';
import { checkValues } from '../../nodes/shared/tables/validate';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { NODE_TYPES } from '../../harness/workflows';

interface Seen {
	where: string;
	prop: INodeProperties;
}

/** Every property of a description, with where it sits. */
function everyProperty(props: INodeProperties[], where: string): Seen[] {
	return props.flatMap((prop) => {
		const here = `${where} > ${prop.displayName}`;
		const inner = (
			(prop.options ?? []) as Array<
				INodeProperties | INodePropertyCollection | INodePropertyOptions
			>
		).flatMap((o) => {
			if ('values' in o && Array.isArray(o.values))
				return everyProperty(o.values, `${here} > ${o.displayName}`);
			if ('type' in o && 'displayName' in o) return everyProperty([o], here);
			return [];
		});
		return [{ where: here, prop }, ...inner];
	});
}

const described: Array<[string, Seen[]]> = NODE_TYPES.map((Type) => {
	const description = (new Type() as INodeType).description;
	return [description.displayName, everyProperty(description.properties, description.displayName)];
});

test.each(described)(
	'%s: no field shows an issue when added untouched (every choice starts at one of its options; a required one at Not Set, so n8n says it is required)',
	(_name, seen) => {
		const choices = seen.filter((s) => s.prop.type === 'options');
		expect(choices.length).toBeGreaterThan(0);
		const bad = choices
			.filter(({ prop }) => !/^=/.test(String(prop.default)))
			.filter(
				({ prop }) =>
					!(prop.options as INodePropertyOptions[]).some((o) => o.value === prop.default),
			)
			.map(({ where, prop }) => `${where}: default ${JSON.stringify(prop.default)}`);
		expect(bad).toEqual([]);
	},
);

test.each(described)(
	'%s: a list entry shows at most ten members; the rest sit in its Additional Fields',
	(_name, seen) => {
		const entries = seen
			.filter((s) => s.prop.type === 'fixedCollection')
			.flatMap(({ where, prop }) =>
				(prop.options as INodePropertyCollection[]).map((o) => ({ where, values: o.values })),
			);
		for (const { where, values } of entries) {
			const shown = values.filter((v) => v.name !== ENTRY_MORE);
			expect({ where, shown: shown.length <= ENTRY_SHOWN_MAX }).toEqual({ where, shown: true });
		}
	},
);

test('a plain invoice, estimate or bill line needs no Additional Fields: item, name, description, rate, quantity, unit and tax are shown', () => {
	const lines = described
		.flatMap(([, seen]) => seen)
		.filter((s) => s.prop.name === 'line_items' && s.prop.type === 'fixedCollection');
	expect(lines.length).toBeGreaterThanOrEqual(3);
	for (const { where, prop } of lines) {
		const values = (prop.options as INodePropertyCollection[])[0].values;
		const shown = values.filter((v) => v.name !== ENTRY_MORE).map((v) => v.name);
		for (const name of ['name', 'description', 'rate', 'quantity', 'unit', 'tax_id'])
			expect({ where, name, shown: shown.includes(name) }).toEqual({ where, name, shown: true });
		expect({ where, more: values.some((v) => v.name === ENTRY_MORE) }).toEqual({
			where,
			more: true,
		});
	}
	// in Books the line's item is picked from the item list, as elsewhere
	const books = lines.filter((l) => l.where.startsWith('Vendor Books'));
	for (const { prop } of books)
		expect(
			(prop.options as INodePropertyCollection[])[0].values.find((v) => v.name === 'item_id')?.type,
		).toBe('resourceLocator');
});

test("filters start at the API's all-value where it has one, listed first", () => {
	const payments = described.find(([name]) => name === 'Vendor Invoice')?.[1] ?? [];
	const mode = payments.find((s) => s.prop.name === 'filter_by');
	expect((mode?.prop.options as INodePropertyOptions[])[0]).toEqual({
		name: 'All',
		value: 'PaymentMode.All',
	});
	expect(mode?.prop.default).toBe('PaymentMode.All');
	// a filter without an all-value starts at Not Set (nothing sent), not at its first status
	const books = described.find(([name]) => name === 'Vendor Books')?.[1] ?? [];
	const status = books.find((s) => s.prop.name === 'status' && s.where.includes('Filters'));
	expect(status?.prop.default).toBe('');
	expect((status?.prop.options as INodePropertyOptions[])[0]).toEqual({
		name: 'Not Set',
		value: '',
	});
});

describe("errors in the form's words: the label the user sees, the entry's position, one error per value", () => {
	const op = (area: Area, resource: string, operation: string): Operation => {
		const found = area.resources
			.find((r) => r.value === resource)
			?.operations.find((o) => o.value === operation);
		if (!found) throw new Error(`${resource}.${operation}`);
		return found;
	};
	const refusal = (o: Operation, values: Record<string, unknown>): string => {
		try {
			checkValues(o, values);
		} catch (error) {
			return (error as Error).message;
		}
		return 'accepted';
	};

	test('a line member: its list, its line, its label', () => {
		expect(
			refusal(op(booksArea, 'invoice', 'create'), {
				customer_id: '1',
				line_items: [{ name: 'Work' }, { item_id: 'ABC', name: 'More' }],
			}),
		).toBe('Invalid input: Line Items, line 2: Item ID must be an ID made of digits (got "ABC")');
	});

	test('a payment entry member', () => {
		expect(
			refusal(op(invoiceArea, 'payment', 'create'), {
				customer_id: '1',
				amount: 5,
				invoices: [{ invoice_id: '7' }],
			}),
		).toBe('Invalid input: Invoices, entry 1: Amount Applied is required');
	});

	test('a top-level field, with the API name where the label does not spell it', () => {
		expect(refusal(op(invoiceArea, 'payment', 'create'), { amount: 5 })).toBe(
			'Invalid input: Customer ID is required',
		);
		expect(
			refusal(op(invoiceArea, 'payment', 'getAll'), { filter_by: 'PaymentMode.Bitcoin' }),
		).toMatch(/^Invalid input: Payment Mode Filter \(filter_by\) must be one of: PaymentMode\.All/);
	});

	test('a date that breaks two rules gets one error', () => {
		expect(
			refusal(op(booksArea, 'invoice', 'create'), { customer_id: '1', due_date: '31/12/2026' }),
		).toBe('Invalid input: Due Date must be a date written yyyy-mm-dd (got "31/12/2026")');
		expect(
			refusal(op(booksArea, 'invoice', 'create'), { customer_id: '1', due_date: '2026-02-30' }),
		).toBe('Invalid input: Due Date must be a real calendar date (yyyy-mm-dd) (got "2026-02-30")');
	});
});

test('no text of any node or of the credential says where the knowledge came from (that is the README\'s "Not covered / assumptions")', () => {
	const PROVENANCE =
		/API reference|the documents|not shown|write-only|input only|inferred|documented|type not|as elsewhere in the API|API conventions/i;
	const shown: string[] = [];
	const collect = (props: unknown[]): void => {
		for (const p of props as Array<Record<string, unknown>>) {
			for (const key of ['displayName', 'description', 'hint', 'placeholder', 'action'])
				if (typeof p[key] === 'string') shown.push(p[key] as string);
			// an option's name is its label; a property's name is internal
			if (!('type' in p) && typeof p.name === 'string') shown.push(p.name);
			for (const inner of ['options', 'values', 'modes'])
				if (Array.isArray(p[inner])) collect(p[inner] as unknown[]);
		}
	};
	for (const Type of NODE_TYPES) collect((new Type() as INodeType).description.properties);
	collect(new VendorOAuth2Api().properties);
	expect(shown.length).toBeGreaterThan(1000);
	expect(shown.filter((text) => PROVENANCE.test(text))).toEqual([]);
});

test('the credential: named regions first and Custom last; its notice in separate sentences, no markup that n8n shows glued', () => {
	const props = new VendorOAuth2Api().properties;
	const region = props.find((p) => p.name === 'region');
	expect((region?.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
		'us',
		'eu',
		'in',
		'au',
		'cn',
		'custom',
	]);
	const notice = String(props.find((p) => p.type === 'notice')?.displayName);
	expect(notice).not.toMatch(/<br|\.[A-Z]/);
	expect(notice.split('. ').length).toBeGreaterThanOrEqual(2);
});
