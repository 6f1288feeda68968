// Describing (describe/): an operation's form: its fields at the top or in collections, its file and list settings, the regional choice; imports tables/.
import type { INodeProperties } from 'n8n-workflow';

import { inputProperty, jsonAlternativeProperty } from './fields';
import { FORM_VERSION, jsonAlternativeLabel, label, placement, SORT } from '../tables/naming';
import type { Area, Field, Operation, Resource } from '../tables/spec';

/** The collections of optional fields by name (any other is "<Name> Fields"). */
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
export function operationProperties(
	area: Area,
	resource: Resource,
	op: Operation,
): INodeProperties[] {
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
		const prop = withGuess(
			inputProperty(area, where === 'top' ? field : { ...field, required: false }),
			field,
			op,
		);
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
			{
				...prop,
				description: [prop.description, either].filter(Boolean).join('. '),
				displayOptions: { show },
			},
			{ ...json, description: `${json.description}. ${either}`, displayOptions: { show } },
		];
	}
	const entered: INodeProperties = {
		...prop,
		required: field.required ? true : undefined,
		displayOptions: { show },
	};
	return field.jsonAlternative
		? [entered, { ...jsonAlternativeProperty(field), displayOptions: { show } }]
		: [entered];
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
		options: [
			{ name: 'None', value: '' },
			...[...regional]
				.map(([name, group]) => ({ name: group, value: name }))
				.sort((a, b) => a.name.localeCompare(b.name)),
		],
		default: '',
		description:
			'Fields that apply only to organizations of one region (tax and e-invoicing details): pick the region to add its fields',
		displayOptions: { show: { ...show, '@version': [FORM_VERSION] } },
	};
}

/** One collection of an operation's optional fields, shown in the versions `versionShow` names. */
function collectionProperty(
	name: string,
	values: INodeProperties[],
	show: Show,
	versionShow: Record<string, unknown[]>,
): INodeProperties {
	const meta = COLLECTION_NAMES[name] ?? {
		displayName: `${label(name.replace(/Fields$/, ''))} Fields`,
		placeholder: 'Add Field',
	};
	return {
		displayName: meta.displayName,
		name,
		type: 'collection',
		placeholder: meta.placeholder,
		default: {},
		options: [...values].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions: {
			show: { ...show, ...versionShow } as NonNullable<INodeProperties['displayOptions']>['show'],
		},
	};
}

/** The collections of both versions: one property where the versions share it, else one per version. */
function collectionProperties(
	collections: Map<string, INodeProperties[]>,
	collectionsV1: Map<string, INodeProperties[]>,
	regional: Map<string, string>,
	show: Show,
): INodeProperties[] {
	const collection = (
		name: string,
		values: INodeProperties[],
		versionShow: Record<string, unknown[]>,
	): INodeProperties => collectionProperty(name, values, show, versionShow);
	const props: INodeProperties[] = [];
	const v1Only = { '@version': [1] };
	const current = { '@version': [FORM_VERSION] };
	// Sort last, below Filters; a collection the versions share is one property
	const names = [...new Set([...collections.keys(), ...collectionsV1.keys()])].sort(
		(a, b) => Number(a === SORT) - Number(b === SORT),
	);
	for (const name of names) {
		const now = collections.get(name);
		const before = collectionsV1.get(name);
		const same =
			now && before && now.length === before.length && now.every((p, i) => p === before[i]);
		if (regional.has(name) && now) {
			// version 1: always shown (stored workflows keep their values); from 1.1: when picked under Regional Fields
			props.push(
				collection(name, now, v1Only),
				collection(name, now, { ...current, regionalFields: [name] }),
			);
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
