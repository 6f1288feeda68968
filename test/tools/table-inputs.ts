/**
 * Node parameters generated from the field tables: for every operation of every action node,
 * the values its required fields need (a value of their type, the emulator's demo ids where an
 * ID names a record), turned into the node's parameters the way the form holds them (pickers
 * "By ID", lists as comma-separated text, entries as fixed collections, the fields an update
 * reads first under Update Fields).
 */
import type { IDataObject } from 'n8n-workflow';

import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { inputProperty } from '../../nodes/shared/describe/fields';
import {
	ENTRY_MORE,
	entryLayout,
	placement,
	wrapperMember,
} from '../../nodes/shared/tables/naming';
import type { Area, Field, FieldType, Operation, Resource } from '../../nodes/shared/tables/spec';
import { missingConditional } from '../../nodes/shared/tables/problemText';

export const ACTION_AREAS: readonly Area[] = [
	booksArea,
	projectsArea,
	invoiceArea,
	billingArea,
	inventoryArea,
];

/** The node type of an area's action node (`vendorBooks`, ...). */
export const NODE_OF: Record<string, string> = {
	books: 'vendorBooks',
	projects: 'vendorProjects',
	invoice: 'vendorInvoice',
	billing: 'vendorBilling',
	inventory: 'vendorInventory',
};

export interface TableOperation {
	/** `books.invoice.bulkReminder` */
	id: string;
	area: Area;
	resource: Resource;
	op: Operation;
}

/** Every operation of every action node, in table order. */
export function tableOperations(): TableOperation[] {
	return ACTION_AREAS.flatMap((area) =>
		area.resources.flatMap((resource) =>
			resource.operations.map((op) => ({
				id: `${area.value}.${resource.value}.${op.value}`,
				area,
				resource,
				op,
			})),
		),
	);
}

/** The sample value of an ID field, by its name (a record the emulator's demo data holds). */
type IdSource = (field: Field, t: TableOperation) => string;

/** A value of the field's type that the field's checks accept. */
function sampleValue(field: Field, t: TableOperation, ids: IdSource): unknown {
	if (field.sortFields) return undefined;
	switch (field.type) {
		case 'id':
			return ids(field, t);
		case 'number':
		case 'integer':
			return Math.max(1, field.min ?? 1);
		case 'boolean':
			return true;
		case 'enum':
			return field.values?.[0] ?? 'value';
		case 'date':
			return '2026-01-15';
		case 'time':
			return '09:30';
		case 'dateTime':
			return '2026-01-15T09:30:00Z';
		case 'email':
			return 'test@example.com';
		case 'url':
			return 'https://example.com';
		case 'phone':
			return '+1 555 0100';
		case 'json':
			return { value: 1 };
		case 'object':
			return requiredMembers(field.fields ?? [], t, ids);
		case 'array':
			if (field.fields) return [requiredMembers(field.fields, t, ids)];
			return [sampleValue(field.of ?? { name: field.name, type: 'string' }, t, ids)];
		default: {
			if (field.numeric) return '10';
			const text = 'Test value';
			const min = field.minLength ?? 0;
			const padded = text.length >= min ? text : text.padEnd(min, 'x');
			return field.maxLength !== undefined ? padded.slice(0, field.maxLength) : padded;
		}
	}
}

/** The members an entry or object needs: the required ones, and those a sibling's value makes required. */
function requiredMembers(fields: Field[], t: TableOperation, ids: IdSource): IDataObject {
	const out: IDataObject = {};
	for (const f of fields.filter((m) => m.required && !m.readOnly))
		out[f.name] = sampleValue(f, t, ids) as IDataObject;
	for (const f of fields.filter(
		(m) => !m.required && !m.readOnly && missingConditional(m, out, fields),
	))
		out[f.name] = sampleValue(f, t, ids) as IDataObject;
	return out;
}

/** The API-shaped values of an operation's required fields (top level), before overrides. */
export function requiredValues(t: TableOperation, ids: IdSource): IDataObject {
	return requiredMembers(t.op.fields, t, ids);
}

/** One field's value as the form holds it; `nested`: a member of an entry, whose lists and objects are JSON text. */
function uiValue(area: Area, field: Field, value: unknown, nested = false): unknown {
	if (value === undefined) return undefined;
	if (field.locator && inputProperty(area, field).type === 'resourceLocator')
		return { __rl: true, mode: 'id', value };
	const wrapped = wrapperMember(field);
	if (wrapped)
		return value && typeof value === 'object' ? (value as IDataObject)[wrapped.name] : value;
	switch (field.type) {
		case 'json':
			return JSON.stringify(value);
		case 'object':
			if (!field.fields) return JSON.stringify(value);
			if (field.pickMembers && !nested) return membersUi(area, field, value as IDataObject);
			return nested
				? JSON.stringify(value)
				: { values: membersUi(area, field, value as IDataObject) };
		case 'array':
			if (!field.fields) return Array.isArray(value) ? value.map(String).join(',') : value;
			if (nested) return JSON.stringify(value);
			return { values: (value as IDataObject[]).map((entry) => membersUi(area, field, entry)) };
		default:
			return value;
	}
}

/** An entry's members as the fixed collection holds them: the less common ones under its Additional Fields. */
function membersUi(area: Area, parent: Field, entry: IDataObject): IDataObject {
	const members = parent.fields ?? [];
	const { more } = entryLayout(members);
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(entry)) {
		const member = members.find((m) => m.name === name);
		if (!member) {
			out[name] = value;
			continue;
		}
		const ui = uiValue(area, member, value, !parent.membersAsFields) as IDataObject;
		if (more.includes(member))
			out[ENTRY_MORE] = { ...((out[ENTRY_MORE] as IDataObject) ?? {}), [name]: ui };
		else out[name] = ui;
	}
	return out;
}

/**
 * The node parameters of an operation for API-shaped `values`: resource, operation, each field
 * where the form places it; `extra` (Options, Return All, ...) added as given.
 */
export function nodeParameters(
	t: TableOperation,
	values: IDataObject,
	extra: IDataObject = {},
): IDataObject {
	const params: IDataObject = { resource: t.resource.value, operation: t.op.value };
	for (const field of t.op.fields) {
		if (field.readOnly || values[field.name] === undefined) continue;
		const ui = uiValue(t.area, field, values[field.name]);
		const where = placement(field, t.op);
		if (where === 'top') params[field.name] = ui as IDataObject;
		else
			params[where] = {
				...((params[where] as IDataObject) ?? {}),
				[field.name]: ui,
			} as IDataObject;
	}
	if (t.op.binaryInput)
		params.binaryPropertyName = t.op.binaryInput.required === false ? '' : 'data';
	if (t.op.binaryOutput) params.binaryPropertyName = 'data';
	return { ...params, ...extra };
}

/** A valid value of a field as the form takes it, so that a generated case's only problem is the one it gives. */
function sample(field: Field): unknown {
	if (field.values?.length) return field.values[0];
	const wrapped = wrapperMember(field);
	if (wrapped) return sample(wrapped);
	const scalars: Partial<Record<FieldType, unknown>> = {
		id: '1',
		number: 1,
		integer: 1,
		boolean: true,
		date: '2026-01-01',
		dateTime: '2026-01-01T09:00:00Z',
		time: '09:00',
		email: 'a@example.com',
		url: 'https://example.com',
		phone: '5551234',
		json: '{}',
	};
	if (field.type === 'string')
		return field.numeric ? '1' : 'x'.repeat(Math.max(1, field.minLength ?? 1));
	if (field.type === 'array') return field.fields ? { values: [sampleEntry(field.fields)] } : '1';
	if (field.type === 'object') return { values: sampleEntry(field.fields ?? []) };
	return scalars[field.type];
}

/** An entry with its required members, and a name where a line needs one to say what it is. */
export function sampleEntry(members: Field[]): IDataObject {
	return Object.fromEntries(
		members
			.filter((m) => !m.readOnly && (m.required || m.name === 'name'))
			.map((m) => [m.name, sample(m)]),
	) as IDataObject;
}

/** What the form (of `version`) shows at the top level, filled: the required fields, and those a sampled choice makes required. */
export function topSamples(
	op: Operation,
	byId: (id: string) => unknown,
	version?: number,
): IDataObject {
	const top = op.fields.filter(
		(f) => !f.readOnly && placement(f, op, version) === 'top' && (f.required || f.requiredWhen),
	);
	return Object.fromEntries(
		top.map((f) => [f.name, f.locator ? byId(String(sample(f))) : sample(f)]),
	) as IDataObject;
}
