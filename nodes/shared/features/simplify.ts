// Features (features/): owns Simplify and the AI tool's Output, the features the composition root plugs into describe/ and run/; imports tables/, describe/ and run/ types.
/**
 * What Get and Get Many return of a resource's records, as n8n's UX guidelines for community
 * nodes ask:
 * - the node: "Simplify" (off by default), at most 10 fields the resource's table lists under
 *   `simplify` (ids, number, customer/vendor, status, dates, totals) instead of the whole record;
 * - the node used as an AI tool (n8n names the tool variant `<name>Tool`, which the `@tool`
 *   display condition tells): "Output", Simplified (the default: the same fields), Raw (the whole
 *   record) or Selected Fields (the record's ID and the fields chosen).
 * A tool saved before Output existed with Simplify off keeps giving whole records: its stored
 * `simplify: false` stays readable through a hidden `simplify` of the tool variant.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { DescriptionPart } from '../describe/describe';
import type { ItemPart, OperationRun } from '../run/types';
import { label } from '../tables/naming';
import type { Area, Field, Operation, Resource } from '../tables/spec';
import { locationOf } from '../tables/location';

/** The guidelines' limit on a simplified record. */
export const SIMPLIFY_MAX_FIELDS = 10;

/** n8n's description of Simplify (UX guidelines, "Simplifying output fields"). */
export const SIMPLIFY_DESCRIPTION =
	'Whether to return a simplified version of the response instead of the raw data';

/** The values of the tool's Output option. */
type OutputMode = 'simplified' | 'raw' | 'selectedFields';

/**
 * Get and Get Many of the resource's own records: `get` / `getAll`. Other reads of the
 * resource (a billing project's Get Invoices, an estimate's Get Comments) answer other
 * records, which the resource's fields do not describe.
 */
const SIMPLIFIED: ReadonlyArray<[value: string, kind: Operation['kind']]> = [
	['get', 'get'],
	['getAll', 'list'],
];

export function simplifiedOperations(resource: Resource): string[] {
	if (!resource.simplify) return [];
	return resource.operations
		.filter(
			(op) =>
				!op.binaryOutput &&
				SIMPLIFIED.some(([value, kind]) => op.value === value && op.kind === kind),
		)
		.map((op) => op.value);
}

/** A field's name in a list of fields to pick: its label, without the API's "Is" of a flag. */
function fieldOptionName(field: Pick<Field, 'name' | 'label'>): string {
	return (field.label ?? label(field.name)).replace(/^Is (?=[A-Z])/, '');
}

/**
 * The fields a record of the resource holds, as far as the tables tell: its ID, the Simplify
 * fields, and the body fields of its create and update (response-only members included). The
 * choices of Selected Fields, sorted by name.
 */
function recordFields(resource: Resource): INodePropertyOptions[] {
	const fields = new Map<string, Pick<Field, 'name' | 'label'>>();
	const add = (field: Pick<Field, 'name' | 'label'>) => {
		if (!fields.has(field.name)) fields.set(field.name, field);
	};
	if (resource.idField) add({ name: resource.idField });
	for (const name of resource.simplify ?? []) add({ name });
	for (const op of resource.operations) {
		if (op.kind !== 'create' && op.kind !== 'update') continue;
		for (const field of op.fields) {
			if (locationOf(field, op) === 'body' && !field.bodyRoot)
				add({ name: field.name, label: field.label });
		}
	}
	return [...fields.values()]
		.filter((field) => field.name !== resource.idField)
		.map((field) => ({ name: fieldOptionName(field), value: field.name }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Per resource with a `simplify` list: Simplify for the node (off), and for the tool variant
 * Output (Simplified by default), its Fields, and the hidden `simplify` that keeps a stored
 * choice readable.
 */
function simplifyProperties(area: Area): INodeProperties[] {
	const props: INodeProperties[] = [];
	for (const resource of area.resources) {
		const operations = simplifiedOperations(resource);
		if (!operations.length) continue;
		const shown = (tool: boolean, more: Record<string, string[]> = {}) => ({
			show: { resource: [resource.value], operation: operations, '@tool': [tool], ...more },
		});
		const noun = resource.name.toLowerCase();
		props.push(
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: false,
				description: SIMPLIFY_DESCRIPTION,
				displayOptions: shown(false),
			},
			// A tool saved before Output existed may hold `simplify: false` (Raw): kept, not shown.
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'hidden',
				default: true,
				displayOptions: shown(true),
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				default: 'simplified',
				description: `What to return of each ${noun}`,
				options: [
					{ name: 'Raw', value: 'raw', description: 'Return all the fields of the record' },
					{
						name: 'Selected Fields',
						value: 'selectedFields',
						description: "Return the record's ID and the fields chosen below",
					},
					{
						name: 'Simplified',
						value: 'simplified',
						description: `Return a simplified version of the record: at most ${SIMPLIFY_MAX_FIELDS} of its most used fields`,
					},
				],
				displayOptions: shown(true),
			},
			{
				displayName: 'Fields',
				name: 'outputFields',
				type: 'multiOptions',
				default: [],
				description: `The fields to return besides the ID of the ${noun}`,
				options: recordFields(resource),
				displayOptions: shown(true, { output: ['selectedFields'] }),
			},
		);
	}
	return props;
}

/** A record reduced to `fields` (in that order); fields it lacks are left out. */
function simplifyRecord(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (record[field] !== undefined) out[field] = record[field];
	return out;
}

/**
 * The fields an operation's records are reduced to, or undefined for the whole record. The node
 * has no Output (its `output` reads ''): Simplify says. The tool: its Output, where Simplified
 * with a stored `simplify: false` (a tool saved with Simplify off) stays Raw.
 */
function outputFields(run: OperationRun): readonly string[] | undefined {
	const { resource } = run;
	const fields = resource.simplify;
	if (!fields || !simplifiedOperations(resource).includes(run.op.value)) return undefined;
	const output = run.setting('output', '') as OutputMode | '';
	// null when not set: the node's Simplify is off unless true, the tool's hidden one on unless false
	const simplify = run.setting('simplify', null);
	if (output === '') return simplify === true ? fields : undefined;
	if (output === 'raw') return undefined;
	if (output === 'selectedFields') {
		const chosen = run.setting('outputFields', []);
		const names = (Array.isArray(chosen) ? chosen : String(chosen ?? '').split(','))
			.map((name) => String(name).trim())
			.filter(Boolean);
		return [...new Set([...(resource.idField ? [resource.idField] : []), ...names])];
	}
	return simplify === false ? undefined : fields;
}

/** The standard output of an operation, reduced as Simplify or Output say. */
function simplifyOutput(
	_ctx: IExecuteFunctions,
	run: OperationRun,
	out: INodeExecutionData[],
): INodeExecutionData[] {
	const fields = outputFields(run);
	if (!fields) return out;
	return out.map((item) => ({ ...item, json: simplifyRecord(item.json, fields) }));
}

/** Simplify and Output as the composition root plugs them in: their properties, and the standard output reduced. */
export const simplifyFeature: DescriptionPart & ItemPart = {
	properties: simplifyProperties,
	shapeOutput: simplifyOutput,
};
