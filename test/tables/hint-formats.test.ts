/**
 * Hints, descriptions and the tables agree on formats: every format a property's
 * builderHint (what n8n's AI workflow builder reads) or a table field's description claims
 * ("digits only", "a string of digits", "yyyy-mm-dd", "HH:MM") is the rule the tables apply
 * to that field, in every operation of the node's area that has it. A claim about a property
 * no table field rules (the Organization ID, whose format the documents never give, per
 * docs/ASSUMPTIONS.md) fails too. Canaries show a wrong claim failing.
 * Run: npx jest test/tables/hint-formats --maxWorkers=1
 */
import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { idHint, ORGANIZATION_HINT } from '../../nodes/shared/tables/hints';
import type { Area, Field } from '../../nodes/shared/tables/spec';
import { NODE_TYPES } from '../../harness/workflows';

const AREAS: readonly Area[] = [booksArea, invoiceArea, billingArea, inventoryArea, projectsArea];

/** A format a text may claim, and whether a field's rule is that format. */
interface Claim {
	name: string;
	words: RegExp;
	ruled: (f: Field) => boolean;
}

const CLAIMS: readonly Claim[] = [
	{
		name: 'digits',
		words: /\bdigits only\b|\bmade of digits\b|\bstring of digits\b|\b\d+ digits\b/i,
		ruled: (f) => f.numeric === true,
	},
	{ name: 'yyyy-mm-dd', words: /\byyyy-mm-dd\b/i, ruled: (f) => f.type === 'date' },
	{ name: 'HH:MM', words: /\bHH:MM\b/, ruled: (f) => f.type === 'time' },
];

/** Every field of an area named `name`, at the top of an operation or inside a member. */
function fieldsNamed(area: Area, name: string): Field[] {
	const walk = (fields: readonly Field[]): Field[] =>
		fields.flatMap((f) => [
			...(f.name === name ? [f] : []),
			...walk(f.fields ?? []),
			...(f.of ? walk([f.of]) : []),
		]);
	return area.resources.flatMap((r) => r.operations.flatMap((op) => walk(op.fields)));
}

/** The members (at any depth) of the fields named `name`: what a "(JSON)" property's shape describes. */
function membersOf(area: Area, name: string): Field[] {
	const walk = (fields: readonly Field[]): Field[] =>
		fields.flatMap((f) => [f, ...walk(f.fields ?? []), ...(f.of ? walk([f.of]) : [])]);
	return fieldsNamed(area, name).flatMap((f) =>
		walk([...(f.fields ?? []), ...(f.of ? [f.of] : [])]),
	);
}

/**
 * What is wrong with the format claims of `text` about the field(s) named `name` of `area`: a
 * claim about a field holds when the tables apply it to every field of that name; a claim in the
 * shape of a "(JSON)" property (`line_itemsJson`) holds when a member of its list applies it.
 */
function claimProblems(area: Area, name: string, text: string, where: string): string[] {
	const json = /Json$/.test(name) ? membersOf(area, name.replace(/Json$/, '')) : undefined;
	const fields = json ?? fieldsNamed(area, name);
	return CLAIMS.filter((c) => c.words.test(text)).flatMap((c) => {
		if (!fields.length)
			return [
				`${where}: claims ${c.name}, but no table field ${name} of ${area.name} has a rule for it`,
			];
		const holds = json ? fields.some(c.ruled) : fields.every(c.ruled);
		return holds
			? []
			: [
					`${where}: claims ${c.name}, but the tables do not apply it to ${json ? 'any member of' : 'every'} ${name} of ${area.name}`,
				];
	});
}

/** Properties, and the options of collections and fixed collections, with their hints. */
function allProperties(properties: readonly INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => {
		const nested = (p.options ?? []).flatMap((o) =>
			'values' in o
				? allProperties(o.values as INodeProperties[])
				: 'displayName' in o && 'type' in o
					? allProperties([o as INodeProperties])
					: [],
		);
		return [p, ...nested];
	});
}

const DESCRIPTIONS: INodeTypeDescription[] = NODE_TYPES.map(
	(Type) => (new Type() as INodeType).description,
);
const areaOf = (d: INodeTypeDescription): Area => {
	const area = AREAS.find((a) => d.displayName === a.name || d.displayName === `${a.name} Trigger`);
	if (!area) throw new Error(`no area for ${d.displayName}`);
	return area;
};

describe("format claims of hints and descriptions are the tables' rules", () => {
	test('every builderHint of every node claims only the format the tables apply to its field', () => {
		let hints = 0;
		const problems = DESCRIPTIONS.flatMap((d) =>
			allProperties(d.properties)
				.filter((p) => p.builderHint?.message)
				.flatMap((p) => {
					hints++;
					return claimProblems(
						areaOf(d),
						p.name,
						p.builderHint?.message ?? '',
						`${d.displayName} ${p.name} hint`,
					);
				}),
		);
		expect(hints).toBeGreaterThan(20);
		expect(problems).toEqual([]);
	});

	test("every table field's description claims only the format its own rule applies", () => {
		const problems = AREAS.flatMap((area) =>
			area.resources.flatMap((r) =>
				r.operations.flatMap((op) => {
					const walk = (fields: readonly Field[], at: string): string[] =>
						fields.flatMap((f) => [
							...CLAIMS.filter((c) => c.words.test(f.description ?? '') && !c.ruled(f)).map(
								(c) =>
									`${at}.${f.name}: its description claims ${c.name}, its rule does not apply it`,
							),
							...walk(f.fields ?? [], `${at}.${f.name}`),
						]);
					return walk(op.fields, `${area.value}.${r.value}.${op.value}`);
				}),
			),
		);
		expect(problems).toEqual([]);
	});

	test('the organization and record-ID hints claim no format (the documents give the organization ID none, most IDs as strings)', () => {
		for (const text of [ORGANIZATION_HINT.message, idHint('payment', 'payment_id').message])
			expect(CLAIMS.filter((c) => c.words.test(text))).toEqual([]);
	});
});

describe('canaries: a claim the tables do not back fails', () => {
	test('"digits only" on an ID documented as a string, or on the Organization ID, is reported', () => {
		expect(
			claimProblems(invoiceArea, 'payment_id', 'The payment ID: digits only', 'canary'),
		).toEqual([
			'canary: claims digits, but the tables do not apply it to every payment_id of Vendor Invoice',
		]);
		expect(
			claimProblems(
				booksArea,
				'organizationId',
				'as its ID: digits only (for example 60001234567)',
				'canary',
			),
		).toEqual([
			'canary: claims digits, but no table field organizationId of Vendor Books has a rule for it',
		]);
		expect(
			claimProblems(projectsArea, 'portal_id', 'ID of the portal (a string of digits)', 'canary'),
		).toEqual([]);
		// the GST number takes letters too: "15 digits" would claim a rule its table does not apply
		expect(claimProblems(inventoryArea, 'gst_no', 'GST number, 15 digits', 'canary')).toEqual([
			'canary: claims digits, but the tables do not apply it to every gst_no of Vendor Inventory',
		]);
		expect(
			claimProblems(inventoryArea, 'vendor_id', 'ID of the vendor, digits only', 'canary'),
		).toEqual([]);
		expect(claimProblems(inventoryArea, 'date', 'Bill date (yyyy-mm-dd)', 'canary')).toEqual([]);
		// a JSON shape: a member of the list must apply the claimed format
		expect(
			claimProblems(
				invoiceArea,
				'invoicesJson',
				"with the keys 'invoice_id' (text), 'date' (yyyy-mm-dd)",
				'canary',
			),
		).toEqual([]);
		expect(
			claimProblems(invoiceArea, 'invoicesJson', "with the keys 'invoice_id' (HH:MM)", 'canary'),
		).toEqual([
			'canary: claims HH:MM, but the tables do not apply it to any member of invoicesJson of Vendor Invoice',
		]);
	});
});
