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
import { choice, enumOptions, NOT_SET } from './choices';
import { mergeRepeatedProperties } from './compact';
import { jsonShape, jsonShapeHint } from './jsonShape';
import { polishProperties } from './texts';
import { RUN_OPTIONS_PROPERTY } from '../api/options';
import { ENTRY_MORE, entryLayout, FORM_VERSION, jsonAlternativeLabel, jsonAlternativeName, label, placement, searchMethodName, SORT, withArticle, wrapperMember } from '../tables/naming';
import type { Area, Field, Operation, Resource } from '../tables/spec';
import { ORGANIZATION } from '../tables/organizations';

const COLLECTION_NAMES: Record<string, { displayName: string; placeholder: string }> = {
	filters: { displayName: 'Filters', placeholder: 'Add Filter' },
	[SORT]: { displayName: 'Sort', placeholder: 'Add Sort Rule' },
	updateFields: { displayName: 'Update Fields', placeholder: 'Add Field' },
	additionalFields: { displayName: 'Additional Fields', placeholder: 'Add Field' },
};

function describeField(field: Field): string | undefined {
	const notes: string[] = [];
	if (field.description) notes.push(field.description.replace(/\.$/, ''));
	// the format once: not again where the table's text already names it ("Due date (yyyy-mm-dd)")
	if (field.type === 'date' && !field.description?.includes('yyyy-mm-dd')) notes.push('Format yyyy-mm-dd');
	if (field.type === 'time' && !field.description?.includes('HH:MM')) notes.push('Format HH:MM');
	if (field.type === 'dateTime') notes.push('ISO 8601, e.g. 2026-01-31T09:30:00Z');
	if (field.type === 'array' && !field.fields) notes.push('Comma-separated list (or an array from an expression)');
	if (field.maxLength) notes.push(`At most ${field.maxLength} characters`);
	if (field.maxItems) notes.push(`At most ${field.maxItems} entries`);
	return notes.length ? notes.join('. ') : undefined;
}

/**
 * An object of one member entered as that member: says what the value is, in words ("Project
 * owner: User ID of the owner"); how it travels (`{ zpuid }`) is the request builder's business,
 * not the user's.
 */
function wrapperDescription(field: Field, member: Field): string | undefined {
	const outer = describeField(field);
	const inner = describeField(member);
	if (!outer) return inner;
	return inner ? `${outer}: ${inner}` : outer;
}

/** One field as an n8n property (name = API name). Nested shapes deeper than one level are JSON; with `area`, entry members that are IDs of listable things are pickers. */
export function fieldProperty(field: Field, nested = false, area?: Area): INodeProperties {
	const base = {
		displayName: field.label ?? label(field.name),
		name: field.name,
		description: describeField(field),
	};
	if (field.sortFields) return sortProperty(field, base);
	const wrapped = wrapperMember(field);
	if (wrapped) {
		return { ...fieldProperty({ ...wrapped, name: field.name, label: field.label ?? label(field.name) }, nested, area), description: wrapperDescription(field, wrapped) };
	}
	switch (field.type) {
		case 'number':
		case 'integer':
			// starts empty: an untouched number is not sent (not as 0), an entered 0 is
			return { ...base, type: 'number', default: null, ...(field.type === 'integer' ? { typeOptions: { numberPrecision: 0 } } : {}) } as INodeProperties;
		case 'boolean':
			// a required true/false without a documented default is a choice the user makes: it starts unset
			if (field.required && field.default === undefined) {
				return { ...base, type: 'options', options: [NOT_SET, { name: 'Yes', value: true }, { name: 'No', value: false }], default: '' } as INodeProperties;
			}
			return { ...base, type: 'boolean', default: false };
		case 'enum':
			return { ...base, type: 'options', ...choice(field, enumOptions(field)) } as INodeProperties;
		case 'date':
			// an example in the field; the format itself is in the description
			return { ...base, type: 'string', default: '', placeholder: 'e.g. 2026-01-31' };
		case 'json':
			return { ...base, type: 'json', default: '{}' };
		case 'object':
		case 'array': {
			const members = field.fields;
			if (!members) return { ...base, type: 'string', default: '' };
			if (field.type === 'object' && field.pickMembers && !nested) {
				const options = members.map((m) => fieldProperty(m, true, area)).sort(byName);
				return { ...base, type: 'collection', placeholder: 'Add Field', default: {}, options };
			}
			if (nested) {
				return { ...base, type: 'json', default: field.type === 'array' ? '[]' : '{}', description: [describeField(field), jsonShape(field)].filter(Boolean).join('. ') };
			}
			return {
				...base,
				type: 'fixedCollection',
				placeholder: field.type === 'array' ? `Add ${VERBS.has(field.name) ? 'Entry' : label(singular(field.name))}` : `Add ${label(field.name)}`,
				typeOptions: { multipleValues: field.type === 'array' },
				default: {},
				options: [
					{
						name: 'values',
						displayName: label(field.type === 'array' ? singular(field.name) : field.name),
						values: entryProperties(field, members, area),
					},
				],
			};
		}
		default:
			return {
				...base,
				type: 'string',
				default: '',
				...(field.multiline ? { typeOptions: { rows: 4 } } : {}),
				...(field.type === 'email' ? { placeholder: 'e.g. name@email.com' } : {}),
			};
	}
}

const byName = (a: INodeProperties, b: INodeProperties): number => a.displayName.localeCompare(b.displayName);

/**
 * The members of one entry (a line, a task): what a plain entry needs shown, the rest under
 * the entry's Additional Fields (`entryLayout`); IDs of listable things as pickers.
 */
function entryProperties(field: Field, members: Field[], area?: Area): INodeProperties[] {
	// With `membersAsFields`, the built form has every nested member as fields.
	const property = (m: Field): INodeProperties => ({ ...(area && m.locator ? inputProperty(area, m) : fieldProperty(m, !field.membersAsFields, area)), ...entryMemberDefaults(m) });
	const { shown, more } = entryLayout(members);
	const props = shown.map(property);
	if (more.length) props.push({ displayName: 'Additional Fields', name: ENTRY_MORE, type: 'collection', placeholder: 'Add Field', default: {}, options: more.map(property).sort(byName) });
	return props;
}

/**
 * A member of a fixed-collection entry always has a value in n8n, so an optional value must
 * start empty or it is sent without the user setting it (a user's role as the first option):
 * optional choices start at "Not Set" (see `choice`), optional booleans become Not Set / Yes /
 * No; numbers start empty everywhere (see `fieldProperty`), so an entered 0 (a free line) is
 * sent and an untouched one is not. Empty is not sent.
 */
function entryMemberDefaults(member: Field): Partial<INodeProperties> {
	if (member.required) return { required: true };
	if (member.type === 'boolean') {
		return {
			type: 'options',
			options: [
				NOT_SET,
				{ name: 'Yes', value: true },
				{ name: 'No', value: false },
			],
			default: '',
		};
	}
	return {};
}

/** A `direction(field)` sort: which field and which direction, as one fixed collection. */
function sortProperty(field: Field, base: Pick<INodeProperties, 'displayName' | 'name' | 'description'>): INodeProperties {
	const firstSortField = field.sortFields?.[0] ?? '';
	return {
		...base,
		type: 'fixedCollection',
		placeholder: `Add ${base.displayName}`,
		default: {},
		options: [
			{
				name: 'values',
				displayName: base.displayName,
				values: [
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						options: (field.sortFields ?? []).map((value) => ({ name: label(value), value })),
						default: firstSortField,
						description: 'The field to sort by',
					},
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						options: [
							{ name: 'Ascending', value: 'asc' },
							{ name: 'Descending', value: 'desc' },
						],
						default: 'asc',
						description: 'Ascending or descending order',
					},
				],
			},
		],
	};
}

/**
 * The raw-JSON alternative of a list or object: what it holds (the shape of an entry, with each
 * member's type), and for n8n's AI workflow builder the same shape as the description of the
 * `$fromAI` call that lets a model fill it (see ./jsonShape.ts).
 */
function jsonAlternativeProperty(field: Field): INodeProperties {
	const name = field.label ?? label(field.name);
	const emptyJson = field.type === 'array' ? '[]' : '{}';
	return {
		displayName: jsonAlternativeLabel(field),
		name: jsonAlternativeName(field),
		type: 'json',
		default: emptyJson,
		description: [`${name} as raw JSON, instead of the fields of '${name}'`, jsonShape(field), field.description?.replace(/\.$/, '')].filter(Boolean).join('. '),
		builderHint: jsonShapeHint(field),
	};
}

/** Member names that are verbs (`add` / `remove` lists): "Add Entry", not "Add Add". */
const VERBS = new Set(['add', 'remove']);

function singular(name: string): string {
	return name.replace(/ies$/, 'y').replace(/s$/, '');
}

/** A resource locator for the ID of a listable resource: pick from the list, or enter the ID. */
export function locatorProperty(field: Field, resourceName: string): INodeProperties {
	return {
		displayName: field.label ?? label(field.name),
		name: field.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: field.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select ${withArticle(resourceName.toLowerCase())}...`,
				typeOptions: { searchListMethod: searchMethodName(field.locator ?? ''), searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 460000000026049',
				// only an ID the documents give as a number is checked for digits
				...(field.numeric ? { validation: [{ type: 'regex', properties: { regex: '^[0-9]+$', errorMessage: 'An ID is made of digits' } }] } : {}),
			},
		],
	};
}

/** A field as entered: a picker when it is the ID of a listable resource, else its plain property. */
export function inputProperty(area: Area, field: Field): INodeProperties {
	const target = field.locator ? area.resources.find((r) => r.value === field.locator) : undefined;
	return target?.listOperation ? locatorProperty(field, target.name) : fieldProperty(field, false, area);
}

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
