// Describing (describe/): one field as n8n properties: a plain value, a choice, entries, a sort, a picker, a raw-JSON alternative; imports tables/.
import type { INodeProperties } from 'n8n-workflow';

import { choice, enumOptions, NOT_SET } from './choices';
import { jsonShape, jsonShapeHint } from './jsonShape';
import {
	ENTRY_MORE,
	entryLayout,
	jsonAlternativeLabel,
	jsonAlternativeName,
	label,
	searchMethodName,
	withArticle,
	wrapperMember,
} from '../tables/naming';
import type { Area, Field } from '../tables/spec';

function describeField(field: Field): string | undefined {
	const notes: string[] = [];
	if (field.description) notes.push(field.description.replace(/\.$/, ''));
	// the format once: not again where the table's text already names it ("Due date (yyyy-mm-dd)")
	if (field.type === 'date' && !field.description?.includes('yyyy-mm-dd'))
		notes.push('Format yyyy-mm-dd');
	if (field.type === 'time' && !field.description?.includes('HH:MM')) notes.push('Format HH:MM');
	if (field.type === 'dateTime') notes.push('ISO 8601, e.g. 2026-01-31T09:30:00Z');
	if (field.type === 'array' && !field.fields)
		notes.push('Comma-separated list (or an array from an expression)');
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
		return {
			...fieldProperty(
				{ ...wrapped, name: field.name, label: field.label ?? label(field.name) },
				nested,
				area,
			),
			description: wrapperDescription(field, wrapped),
		};
	}
	switch (field.type) {
		case 'number':
		case 'integer':
			// starts empty: an untouched number is not sent (not as 0), an entered 0 is
			return {
				...base,
				type: 'number',
				default: null,
				...(field.type === 'integer' ? { typeOptions: { numberPrecision: 0 } } : {}),
			} as INodeProperties;
		case 'boolean':
			// a required true/false without a documented default is a choice the user makes: it starts unset
			if (field.required && field.default === undefined) {
				return {
					...base,
					type: 'options',
					options: [NOT_SET, { name: 'Yes', value: true }, { name: 'No', value: false }],
					default: '',
				} as INodeProperties;
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
				return {
					...base,
					type: 'json',
					default: field.type === 'array' ? '[]' : '{}',
					description: [describeField(field), jsonShape(field)].filter(Boolean).join('. '),
				};
			}
			return {
				...base,
				type: 'fixedCollection',
				placeholder:
					field.type === 'array'
						? `Add ${VERBS.has(field.name) ? 'Entry' : label(singular(field.name))}`
						: `Add ${label(field.name)}`,
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

const byName = (a: INodeProperties, b: INodeProperties): number =>
	a.displayName.localeCompare(b.displayName);

/**
 * The members of one entry (a line, a task): what a plain entry needs shown, the rest under
 * the entry's Additional Fields (`entryLayout`); IDs of listable things as pickers.
 */
function entryProperties(field: Field, members: Field[], area?: Area): INodeProperties[] {
	// With `membersAsFields`, the built form has every nested member as fields.
	const property = (m: Field): INodeProperties => ({
		...(area && m.locator
			? inputProperty(area, m)
			: fieldProperty(m, !field.membersAsFields, area)),
		...entryMemberDefaults(m),
	});
	const { shown, more } = entryLayout(members);
	const props = shown.map(property);
	if (more.length)
		props.push({
			displayName: 'Additional Fields',
			name: ENTRY_MORE,
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: more.map(property).sort(byName),
		});
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
			options: [NOT_SET, { name: 'Yes', value: true }, { name: 'No', value: false }],
			default: '',
		};
	}
	return {};
}

/** A `direction(field)` sort: which field and which direction, as one fixed collection. */
function sortProperty(
	field: Field,
	base: Pick<INodeProperties, 'displayName' | 'name' | 'description'>,
): INodeProperties {
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
export function jsonAlternativeProperty(field: Field): INodeProperties {
	const name = field.label ?? label(field.name);
	const emptyJson = field.type === 'array' ? '[]' : '{}';
	return {
		displayName: jsonAlternativeLabel(field),
		name: jsonAlternativeName(field),
		type: 'json',
		default: emptyJson,
		description: [
			`${name} as raw JSON, instead of the fields of '${name}'`,
			jsonShape(field),
			field.description?.replace(/\.$/, ''),
		]
			.filter(Boolean)
			.join('. '),
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
				...(field.numeric
					? {
							validation: [
								{
									type: 'regex',
									properties: { regex: '^[0-9]+$', errorMessage: 'An ID is made of digits' },
								},
							],
						}
					: {}),
			},
		],
	};
}

/** A field as entered: a picker when it is the ID of a listable resource, else its plain property. */
export function inputProperty(area: Area, field: Field): INodeProperties {
	const target = field.locator ? area.resources.find((r) => r.value === field.locator) : undefined;
	return target?.listOperation
		? locatorProperty(field, target.name)
		: fieldProperty(field, false, area);
}
