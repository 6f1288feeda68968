/**
 * Only documented defaults are preselected: Search's Module and Status (the Conventions document:
 * "`module` (string, required)", "`status` (string, required for the portal-wide search
 * only ...)", no default given) and Update Attachment's Can Send In Mail (required, its default
 * not documented) start unset and show as required. Get Bin's descending sort, which the Conventions document
 * does not show (only "asc(field)"), says on the form what the user notices if it is wrong; the
 * bin trigger keeps reading newest first with it.
 */
import type { INodeProperties } from 'n8n-workflow';

import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { projectsEvents } from '../../nodes/VendorProjectsTrigger/events';

/** The property `name` shown for `resource` / `operation`, at the top or inside one of its collections (Additional Fields, Filters). */
function property(
	props: INodeProperties[],
	name: string,
	resource: string,
	operation: string,
): INodeProperties {
	const shown = props.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
	const inside = shown.flatMap((p) =>
		p.type === 'collection' ? ((p.options ?? []) as INodeProperties[]) : [p],
	);
	const found = inside.find((p) => p.name === name);
	if (!found) throw new Error(`no ${name} on ${resource}.${operation}`);
	return found;
}

test('Search: Module and Status start unset and are required, on both searches', () => {
	const props = new VendorProjects().description.properties;
	for (const [name, operation] of [
		['module', 'search'],
		['status', 'search'],
		['module', 'searchInProject'],
	]) {
		const p = property(props, name, 'search', operation);
		expect([name, operation, p.type, p.default, p.required]).toEqual([
			name,
			operation,
			'options',
			'',
			true,
		]);
		// "all" is still offered, just not chosen for the user
		expect((p.options as Array<{ value: unknown }>).map((o) => o.value)).toContain('all');
	}
});

test('Update Attachment: Can Send In Mail starts unset and is required; a workflow that set true or false keeps its value', () => {
	const p = property(
		new VendorBooks().description.properties,
		'can_send_in_mail',
		'invoice',
		'updateAttachment',
	);
	expect([p.default, p.required]).toEqual(['', true]);
	expect((p.options as Array<{ value: unknown }>).map((o) => o.value)).toEqual(
		expect.arrayContaining([true, false]),
	);
});

test('Get Bin: the descending sort is a listed guess whose description says what to do if it is wrong; the bin trigger still reads desc(trashed_time)', () => {
	const getBin = projectsArea.resources
		.find((r) => r.value === 'trash')
		?.operations.find((o) => o.value === 'getBin');
	const sortBy = getBin?.fields.find((f) => f.name === 'sort_by');
	expect(sortBy?.inferredRule).toMatch(/desc\(field\)/);
	expect(sortBy?.description).toMatch(
		/If the service refuses Descending or the records come in the wrong order, choose Ascending/,
	);
	const form = property(new VendorProjects().description.properties, 'sort_by', 'trash', 'getBin');
	expect(form.description).toMatch(/choose Ascending/);
	expect(projectsEvents.find((e) => e.value === 'recordTrashed')?.sort).toEqual({
		sort_by: 'desc(trashed_time)',
	});
});
