// Describing (describe/): owns the node description built from the field tables; features plug in as DescriptionParts; imports tables/ and api/options.
/**
 * n8n properties derived from the field tables: resources, operations, required fields
 * at the top, optional ones in "Additional Fields" / "Update Fields" / "Filters"
 * collections, enums as sorted options, objects and arrays as fixed collections, IDs of
 * listable things as resource locators, Return All + Limit on lists.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type { IBuilderHint, INodeProperties, INodePropertyOptions, INodeTypeDescription, IParameterBuilderHint } from 'n8n-workflow';

import { operationDescription } from './aiTool';
import { mergeRepeatedProperties } from './compact';
import { inputProperty, jsonAlternativeProperty, locatorProperty } from './fields';
import { polishProperties } from './texts';
import { RUN_OPTIONS_PROPERTY } from '../api/options';
import { FORM_VERSION, jsonAlternativeLabel, label, placement, SORT } from '../tables/naming';
import type { Area, Field, Operation, Resource } from '../tables/spec';
import { ORGANIZATION } from '../tables/organizations';

const COLLECTION_NAMES: Record<string, { displayName: string; placeholder: string }> = {
	filters: { displayName: 'Filters', placeholder: 'Add Filter' },
	[SORT]: { displayName: 'Sort', placeholder: 'Add Sort Rule' },
	updateFields: { displayName: 'Update Fields', placeholder: 'Add Field' },
	additionalFields: { displayName: 'Additional Fields', placeholder: 'Add Field' },
};

/** The collections of an operation's regional groups (collection name -> group), for those not entered at the top. */
function regionalCollections(op: Operation): Map<string, string> {
	const groups = new Map<string, string>();
	for (const field of op.fields) {
		if (field.readOnly || !field.group) continue;
		const where = placement(field, op);
		if (where !== 'top') groups.set(where, field.group);
	}
	return groups;
}

/** A field as an operation of this kind offers it: the members only an update takes (`updateOnly`) left out elsewhere. */
function forKind(field: Field, op: Operation): Field {
	if (op.kind === 'update' || !field.fields?.some((m) => m.updateOnly || m.fields)) return field;
	return { ...field, fields: field.fields.filter((m) => !m.updateOnly).map((m) => forKind(m, op)) };
}

/** The `show` of an operation's properties: its resource and operation. */
type Show = Record<string, string[]>;

/** An operation's form: its notice, its fields at the top, the file and list settings, the regional choice, then its collections. */
function operationProperties(area: Area, resource: Resource, op: Operation): INodeProperties[] {
	const show = { resource: [resource.value], operation: [op.value] };
	const { top, collections, collectionsV1 } = placedFields(area, op, show);
	const regional = regionalCollections(op);
	return [
		...(op.notice ? [operationNotice(op, show)] : []),
		...top,
		...binaryInputProperties(op, show),
		...listProperties(op, show),
		...binaryOutputProperties(op, show),
		...(regional.size ? [regionalFieldsProperty(regional, show)] : []),
		...collectionProperties(collections, collectionsV1, regional, show),
	];
}

/** An operation's fields where they go: at the top, or by collection name in each version's collections. */
interface PlacedFields {
	top: INodeProperties[];
	collections: Map<string, INodeProperties[]>;
	collectionsV1: Map<string, INodeProperties[]>;
}

function placedFields(area: Area, op: Operation, show: Show): PlacedFields {
	const top: INodeProperties[] = [];
	// the collections of the current version, and of version 1 where a field sat elsewhere (sorting under Filters)
	const collections = new Map<string, INodeProperties[]>();
	const collectionsV1 = new Map<string, INodeProperties[]>();
	for (const tableField of op.fields) {
		if (tableField.readOnly) continue;
		const field = forKind(tableField, op);
		const where = placement(field, op);
		// a field the API needs that an update reads first is optional in the form
		const prop = withGuess(inputProperty(area, where === 'top' ? field : { ...field, required: false }), field, op);
		if (where === 'top') {
			top.push(...topProperties(field, prop, show));
		} else {
			const entered = field.jsonAlternative ? [prop, jsonAlternativeProperty(field)] : [prop];
			const list = collections.get(where) ?? [];
			collections.set(where, [...list, ...entered]);
			const whereV1 = placement(field, op, 1);
			collectionsV1.set(whereV1, [...(collectionsV1.get(whereV1) ?? []), ...entered]);
		}
	}
	return { top, collections, collectionsV1 };
}

/** A field entered at the top (`prop`), with its raw-JSON alternative when it has one. */
function topProperties(field: Field, prop: INodeProperties, show: Show): INodeProperties[] {
	if (field.required && field.jsonAlternative) {
		// Either one is enough: neither is marked required; the run refuses the item when both are left empty.
		const either = `Give either '${prop.displayName}' or '${jsonAlternativeLabel(field)}'`;
		const json = jsonAlternativeProperty(field);
		return [
			{ ...prop, description: [prop.description, either].filter(Boolean).join('. '), displayOptions: { show } },
			{ ...json, description: `${json.description}. ${either}`, displayOptions: { show } },
		];
	}
	const entered: INodeProperties = { ...prop, required: field.required ? true : undefined, displayOptions: { show } };
	return field.jsonAlternative ? [entered, { ...jsonAlternativeProperty(field), displayOptions: { show } }] : [entered];
}

/** The input binary field of an operation that uploads a file. */
function binaryInputProperties(op: Operation, show: Show): INodeProperties[] {
	if (!op.binaryInput) return [];
	const defaultBinaryField = op.binaryInput.required === false ? '' : 'data';
	return [
		{
			displayName: 'Input Data Field Name',
			name: 'binaryPropertyName',
			type: 'string',
			default: defaultBinaryField,
			...(op.binaryInput.required !== false ? { required: true } : {}),
			hint: `The name of the input binary field holding the file (${op.binaryInput.extensions.join(', ')})${op.binaryInput.required === false ? '; leave empty to send none' : ''}`,
			displayOptions: { show },
		},
	];
}

/** Return All and Limit of a list. */
function listProperties(op: Operation, show: Show): INodeProperties[] {
	if (op.kind !== 'list') return [];
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

/** The output binary field of an operation that downloads a file. */
function binaryOutputProperties(op: Operation, show: Show): INodeProperties[] {
	if (!op.binaryOutput) return [];
	return [
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the output binary field to put the file in',
			displayOptions: { show },
		},
	];
}

/** The choice of region whose fields to add (`regional`: collection name -> group), in the current version only. */
function regionalFieldsProperty(regional: Map<string, string>, show: Show): INodeProperties {
	return {
		displayName: 'Regional Fields',
		name: 'regionalFields',
		type: 'options',
		options: [{ name: 'None', value: '' }, ...[...regional].map(([name, group]) => ({ name: group, value: name })).sort((a, b) => a.name.localeCompare(b.name))],
		default: '',
		description: "Fields that apply only to organizations of one region (tax and e-invoicing details): pick the region to add its fields",
		displayOptions: { show: { ...show, '@version': [FORM_VERSION] } },
	};
}

/** One collection of an operation's optional fields, shown in the versions `versionShow` names. */
function collectionProperty(name: string, values: INodeProperties[], show: Show, versionShow: Record<string, unknown[]>): INodeProperties {
	const meta = COLLECTION_NAMES[name] ?? { displayName: `${label(name.replace(/Fields$/, ''))} Fields`, placeholder: 'Add Field' };
	return {
		displayName: meta.displayName,
		name,
		type: 'collection',
		placeholder: meta.placeholder,
		default: {},
		options: [...values].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions: { show: { ...show, ...versionShow } as NonNullable<INodeProperties['displayOptions']>['show'] },
	};
}

/** The collections of both versions: one property where the versions share it, else one per version. */
function collectionProperties(collections: Map<string, INodeProperties[]>, collectionsV1: Map<string, INodeProperties[]>, regional: Map<string, string>, show: Show): INodeProperties[] {
	const collection = (name: string, values: INodeProperties[], versionShow: Record<string, unknown[]>): INodeProperties => collectionProperty(name, values, show, versionShow);
	const props: INodeProperties[] = [];
	const v1Only = { '@version': [1] };
	const current = { '@version': [FORM_VERSION] };
	// Sort last, below Filters; a collection the versions share is one property
	const names = [...new Set([...collections.keys(), ...collectionsV1.keys()])].sort((a, b) => Number(a === SORT) - Number(b === SORT));
	for (const name of names) {
		const now = collections.get(name);
		const before = collectionsV1.get(name);
		const same = now && before && now.length === before.length && now.every((p, i) => p === before[i]);
		if (regional.has(name) && now) {
			// version 1: always shown (stored workflows keep their values); from 1.1: when picked under Regional Fields
			props.push(collection(name, now, v1Only), collection(name, now, { ...current, regionalFields: [name] }));
		} else if (same && now) {
			props.push(collection(name, now, {}));
		} else {
			if (before) props.push(collection(name, before, v1Only));
			if (now) props.push(collection(name, now, current));
		}
	}
	return props;
}

/** What a user notices if a guessed parameter name is wrong, said in the field's description. */
function withGuess(prop: INodeProperties, field: Field, op: Operation): INodeProperties {
	if (!field.inferred) return prop;
	const guess =
		op.kind !== 'list'
			? 'If the service does not take this field, the call is refused'
			: /sort/.test(field.name)
				? 'If the service ignores it, the records come in its default order'
				: 'If the service ignores this filter, all records are returned';
	return { ...prop, description: [prop.description, guess].filter(Boolean).join('. ') };
}

/** The notice of an operation the documents do not show in full (`inferred`): what the user notices if the guess is wrong. */
function operationNotice(op: Operation, show: Record<string, string[]>): INodeProperties {
	return {
		displayName: op.notice ?? '',
		name: `${op.value}Notice`,
		type: 'notice',
		default: '',
		displayOptions: { show },
	};
}

/** The organisation of the accounting areas (the projects area has none): from the list, or by ID. */
export const ORGANIZATION_ID: INodeProperties = {
	...locatorProperty(
		{
			name: 'organizationId',
			type: 'string',
			label: 'Organization ID',
			locator: ORGANIZATION.value,
			description: 'The organization the records belong to. If the list stays empty or fails, enter the ID (By ID).',
		},
		ORGANIZATION.name,
	),
	required: true,
};

/**
 * What a feature (Custom API Call, Simplify) adds to a node's description, plugged in by the
 * composition root: an option ending the resource list and every operation list, and
 * properties after the operations' own.
 */
export interface DescriptionPart {
	lastOption?(area: Area): INodePropertyOptions;
	properties?(area: Area): INodeProperties[];
}

/** `options` with the parts' last options appended. */
function withLastOptions(area: Area, options: INodePropertyOptions[], parts: readonly DescriptionPart[]): INodePropertyOptions[] {
	return [...options, ...parts.flatMap((part) => (part.lastOption ? [part.lastOption(area)] : []))];
}

/** All properties of an area's node: organisation, resource, operations and their fields, then the parts'. */
export function describeProperties(area: Area, trailing: INodeProperties[] = [], parts: readonly DescriptionPart[] = []): INodeProperties[] {
	const props: INodeProperties[] = [];
	if (area.org) props.push(ORGANIZATION_ID);
	const firstResource = area.resources[0].value;
	props.push({
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: withLastOptions(area, area.resources.map((r) => ({ name: r.name, value: r.value })).sort((a, b) => a.name.localeCompare(b.name)), parts),
		default: firstResource,
	});
	for (const resource of area.resources) {
		const defaultOperation = resource.operations.find((o) => o.kind === 'list')?.value ?? resource.operations[0].value;
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: withLastOptions(
				area,
				resource.operations.map((op) => ({ name: op.name, value: op.value, action: op.action, description: operationDescription(op) })).sort((a, b) => a.name.localeCompare(b.name)),
				parts,
			),
			default: defaultOperation,
		});
	}
	for (const resource of area.resources) {
		for (const op of resource.operations) props.push(...operationProperties(area, resource, op));
	}
	for (const part of parts) if (part.properties) props.push(...part.properties(area));
	props.push(...trailing, RUN_OPTIONS_PROPERTY);
	return polishProperties(props);
}

export interface NodeMeta {
	/** Node type name, e.g. `vendorBooks`. */
	name: string;
	description: string;
	/** Icon base name in the node folder (without extension), e.g. `vendorBooks`. */
	icon: string;
	/** Node-specific properties shown after the derived ones (e.g. below an operation's fields). */
	trailingProperties?: INodeProperties[];
	/** What n8n's AI workflow builder reads about the node: when to use it, the related nodes. */
	builderHint?: IBuilderHint;
	/** n8n's AI workflow builder's hint per top-level property name, where a value's form is not obvious. */
	propertyHints?: Record<string, IParameterBuilderHint>;
}

/** The whole node description of an area, with the parts plugged in. */
export function describeNode(area: Area, meta: NodeMeta, parts: readonly DescriptionPart[] = []): INodeTypeDescription {
	return {
		displayName: area.name,
		name: meta.name,
		icon: { light: `file:${meta.icon}.svg`, dark: `file:${meta.icon}.dark.svg` },
		group: ['transform'],
		// 1.1: sorting in its own collection, regional groups behind a choice (see FORM_VERSION); 1 for stored workflows
		version: [1, FORM_VERSION],
		defaultVersion: FORM_VERSION,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: meta.description,
		defaults: { name: area.name },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		...(meta.builderHint && { builderHint: meta.builderHint }),
		credentials: [{ name: 'vendorOAuth2Api', required: true }],
		properties: mergeRepeatedProperties(describeProperties(area, meta.trailingProperties, parts)).map((p) =>
			meta.propertyHints?.[p.name] ? { ...p, builderHint: meta.propertyHints[p.name] } : p,
		),
	} as INodeTypeDescription;
}
