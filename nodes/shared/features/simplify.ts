// Features (features/): owns Simplify, one of the features the composition root plugs into describe/ and run/; imports tables/, describe/ and run/ types.
/**
 * "Simplify" on Get and Get Many: only the fields the resource's table lists under
 * `simplify` (ids, number, customer/vendor, status, dates, totals, balance) instead of the
 * whole record. On by default where the node runs as an AI tool (n8n names the tool
 * variant `<name>Tool`, which the `@tool` display condition tells), off otherwise, as
 * n8n's own nodes do.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { DescriptionPart } from '../describe/describe';
import type { ItemPart, OperationRun } from '../run/types';
import type { Area, Operation, Resource } from '../tables/spec';

/**
 * Get and Get Many of the resource's own records: `get` / `getAll`. Other reads of the
 * resource (a billing project's Get Invoices, an estimate's Get Comments) answer other
 * records, which the resource's fields do not describe.
 */
const SIMPLIFIED: ReadonlyArray<[value: string, kind: Operation['kind']]> = [
	['get', 'get'],
	['getAll', 'list'],
];

function simplifiedOperations(resource: Resource): string[] {
	if (!resource.simplify) return [];
	return resource.operations.filter((op) => !op.binaryOutput && SIMPLIFIED.some(([value, kind]) => op.value === value && op.kind === kind)).map((op) => op.value);
}

/** The `simplify` switches of an area: per resource with a `simplify` list, one for AI-tool use (on) and one otherwise (off). */
export function simplifyProperties(area: Area): INodeProperties[] {
	const props: INodeProperties[] = [];
	for (const resource of area.resources) {
		const operations = simplifiedOperations(resource);
		if (!operations.length) continue;
		const base = {
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean' as const,
			description: `Whether to return only ${(resource.simplify ?? []).join(', ')} instead of the whole record`,
		};
		props.push(
			{ ...base, default: false, displayOptions: { show: { resource: [resource.value], operation: operations, '@tool': [false] } } },
			{ ...base, default: true, displayOptions: { show: { resource: [resource.value], operation: operations, '@tool': [true] } } },
		);
	}
	return props;
}

/** A record reduced to `fields` (in that order); fields it lacks are left out. */
export function simplifyRecord(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (record[field] !== undefined) out[field] = record[field];
	return out;
}

/** The standard output of an operation, simplified when the operation has Simplify and it is on. */
export function simplifyOutput(_ctx: IExecuteFunctions, run: OperationRun, out: INodeExecutionData[]): INodeExecutionData[] {
	const fields = run.resource.simplify;
	if (!fields || !simplifiedOperations(run.resource).includes(run.op.value)) return out;
	if (run.setting('simplify', false) !== true) return out;
	return out.map((item) => ({ ...item, json: simplifyRecord(item.json, fields) }));
}

/** Simplify as the composition root plugs it in: its switches, and the standard output reduced when on. */
export const simplifyFeature: DescriptionPart & ItemPart = {
	properties: simplifyProperties,
	shapeOutput: simplifyOutput,
};
