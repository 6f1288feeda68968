/**
 * Read-first updates: the fields an update must resend are filled from the record
 * the read answered, never over a value the user gave (blank included), and what the write's
 * answer can show of a change made by someone else between the read and the write is told
 * (`readFirstNote`), while what it cannot show gives no note.
 */
import type { IDataObject } from 'n8n-workflow';

import { currentValues, readFirstNote } from '../../nodes/shared/run/current';
import type { Area, Operation } from '../../nodes/shared/tables/spec';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';

function operation(area: Area, resource: string, value: string): Operation {
	const op = area.resources
		.find((r) => r.value === resource)
		?.operations.find((o) => o.value === value);
	if (!op) throw new Error(`no ${resource}.${value}`);
	return op;
}

const paymentUpdate = operation(invoiceArea, 'payment', 'update');
const projectUpdate = operation(billingArea, 'project', 'update');

/** A billing project as the read (Get) answers it (the Payments document: the rate is a number in responses). */
const READ: IDataObject = {
	project_id: '1001',
	project_name: 'Site',
	customer_id: '42',
	billing_type: 'based_on_staff_hours',
	rate: 0,
	budget_type: 'total_project_cost',
	description: 'old text',
	total_amount: 0,
	last_modified_time: '2026-03-01T10:00:00.000Z',
};
const LATER = '2026-03-01T10:00:05.000Z';
const KEPT = { project_name: 'Site', customer_id: '42', billing_type: 'based_on_staff_hours' };

/** A description-only update, filled from the read (a staff-hours project needs no rate). */
const descriptionOnly = (): IDataObject =>
	currentValues(projectUpdate, { project_id: '1001', description: 'typo fix' }, READ);

test('the fields left out are taken from the record; fields given, and fields not read first, stay as given', () => {
	expect(descriptionOnly()).toEqual({ project_id: '1001', description: 'typo fix', ...KEPT });
});

test('Payment → Update reads nothing: no field is required on its update, so its values are sent as given', () => {
	expect(paymentUpdate.keepCurrent).toBeUndefined();
	expect(
		currentValues(
			paymentUpdate,
			{ payment_id: '1001', description: 'typo fix' },
			{ customer_id: '42', amount: 100 },
		),
	).toEqual({ payment_id: '1001', description: 'typo fix' });
});

test('a kept field given blank is not replaced by the record, and a blank value in the record is never taken', () => {
	expect(
		currentValues(projectUpdate, { project_id: '1001', customer_id: '\u00a0\u200b' }, READ),
	).toEqual({ project_id: '1001', ...KEPT, customer_id: '\u00a0\u200b' });
	const rest: IDataObject = { ...KEPT };
	delete rest.customer_id;
	expect(
		currentValues(projectUpdate, { project_id: '1001' }, { ...READ, customer_id: ' \u200b' }),
	).toEqual({ project_id: '1001', ...rest });
});

test('a field the update did not send that the answer shows changed: someone wrote in between; the note names it, the values sent as read and both modified times', () => {
	const values = descriptionOnly();
	const answer = {
		...READ,
		description: 'typo fix',
		budget_type: 'total_project_hours',
		last_modified_time: LATER,
	};
	expect(readFirstNote(values, answer)).toEqual({
		readFirstWarning: {
			message:
				'Changed by someone else between this node\'s read and its write: budget_type (read "total_project_cost", now "total_project_hours"), not sent by this update. ' +
				'The fields sent as read (project_name, customer_id, billing_type) may have overwritten part of that change: check them. The API offers no conditional update.',
			changed: { budget_type: { read: 'total_project_cost', now: 'total_project_hours' } },
			sentAsRead: KEPT,
			readLastModifiedTime: READ.last_modified_time,
			answerLastModifiedTime: LATER,
		},
	});
});

test('what the answer cannot show gives no note: the name changed elsewhere and sent back as read, a field the update sent, a later modified time', () => {
	const values = descriptionOnly();
	// the race: "Site" -> "Site 2" by someone else, then this write resends "Site"; the answer looks untouched
	expect(
		readFirstNote(values, { ...READ, description: 'typo fix', last_modified_time: LATER }),
	).toBeUndefined();
	// computed members and the record's own fields the update sent are no evidence
	expect(
		readFirstNote(values, {
			...READ,
			description: 'typo fix',
			project_name: 'Site',
			total_amount: 5,
			last_modified_time: LATER,
		}),
	).toBeUndefined();
	// a record without last_modified_time: the same evidence, no times in the note
	const untimed = Object.fromEntries(
		Object.entries(READ).filter(([name]) => name !== 'last_modified_time'),
	);
	const note = readFirstNote(currentValues(projectUpdate, { project_id: '1001' }, untimed), {
		...untimed,
		description: 'new text',
	});
	expect(note?.readFirstWarning).toEqual(
		expect.objectContaining({ changed: { description: { read: 'old text', now: 'new text' } } }),
	);
	expect(Object.keys(note?.readFirstWarning as IDataObject)).toEqual([
		'message',
		'changed',
		'sentAsRead',
	]);
});

test("nothing read, nothing told: values the user gave in full, values that are not the read's object, no answer", () => {
	const given = { project_id: '1001', ...KEPT };
	expect(readFirstNote(given, { ...READ, budget_type: 'hours_per_task' })).toBeUndefined();
	expect(
		readFirstNote({ ...descriptionOnly() }, { ...READ, budget_type: 'hours_per_task' }),
	).toBeUndefined();
	expect(readFirstNote(descriptionOnly(), undefined)).toBeUndefined();
});

test('billing project: a rate answered as a number is the rate read as text; a changed budget type is named, the kept fields listed', () => {
	const record = {
		project_id: '7',
		project_name: 'Site',
		customer_id: '42',
		billing_type: 'fixed_cost_for_project',
		rate: 500,
		budget_type: 'total_project_cost',
		description: 'd',
	};
	const values = currentValues(projectUpdate, { project_id: '7', description: 'new' }, record);
	expect(values).toEqual({
		project_id: '7',
		description: 'new',
		project_name: 'Site',
		customer_id: '42',
		billing_type: 'fixed_cost_for_project',
		rate: '500',
	});
	expect(readFirstNote(values, { ...record, description: 'new', rate: '500' })).toBeUndefined();
	const note = readFirstNote(values, {
		...record,
		description: 'new',
		budget_type: 'total_project_hours',
	})?.readFirstWarning as IDataObject;
	expect(note.changed).toEqual({
		budget_type: { read: 'total_project_cost', now: 'total_project_hours' },
	});
	expect(note.sentAsRead).toEqual({
		project_name: 'Site',
		customer_id: '42',
		billing_type: 'fixed_cost_for_project',
		rate: '500',
	});
});
