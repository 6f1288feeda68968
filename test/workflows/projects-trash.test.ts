/**
 * Vendor Projects -> Trash / Bin, end to end on n8n's engine against the emulator:
 * batch trash (250 ids -> 3 calls), the bin list with sort and filter (fields or raw JSON),
 * restore and delete of several modules at once, empty bin.
 */
import { DEMO } from '../../emulator/demo-data';
import { expectNoError, json } from '../../harness/workflows';
import { PROJECTS_ROOT as ROOT, sentRequest, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const trash = env.portalSteps({ resource: 'trash' });
let portal: string;
beforeAll(() => (portal = env.portal));

const ids: string[] = [];

test('moving 250 tasks to the trash sends the fewest calls of at most 100 ids: 3', async () => {
	for (let i = 0; i < 250; i++) {
		const id = String(5100000000000 + i);
		env.portalTenant().put('tasks', id, {
			id,
			name: `Bulk task ${String(i).padStart(3, '0')}`,
			project_id: DEMO.projects.website,
		});
		ids.push(id);
	}
	const result = await env.run([
		trash('Trash', { operation: 'moveToTrash', module: 'tasks', items: ids.join(',') }),
	]);
	expectNoError(result);
	const requests = env.apiRequests();
	expect(requests.map(sentRequest)).toEqual([
		{
			method: 'POST',
			path: `${ROOT}/portal/${portal}/trash`,
			query: {},
			body: { module: 'tasks', items: ids.slice(0, 100) },
		},
		{
			method: 'POST',
			path: `${ROOT}/portal/${portal}/trash`,
			query: {},
			body: { module: 'tasks', items: ids.slice(100, 200) },
		},
		{
			method: 'POST',
			path: `${ROOT}/portal/${portal}/trash`,
			query: {},
			body: { module: 'tasks', items: ids.slice(200) },
		},
	]);
	env.expectSigned();
	expect(
		requests.every((r) => r.status === 200 && r.headers['content-type'] === 'application/json'),
	).toBe(true);
	// one output item per call, each paired with the one input item
	expect(json(result, 'Trash').map((o) => o.count)).toEqual([100, 100, 50]);
	expect(result.output('Trash').map((o) => o.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 0 },
		{ item: 0 },
	]);
	expect(env.portalTenant().get('tasks', ids[0])).toBeUndefined();
	expect(env.portalTenant().bin.has(`tasks:${ids[249]}`)).toBe(true);
});

test('the bin list sends sort as asc(field) and the filter built from fields as a JSON string, paging with Return All', async () => {
	const result = await env.run([
		trash('Bin', {
			operation: 'getBin',
			returnAll: true,
			filters: {
				sort_by: { values: { field: 'name', direction: 'asc' } },
				filter: {
					values: {
						criteria: {
							values: [
								{ cfid: 'module', criteria_condition: 'is', value: 'tasks' },
								{ cfid: 'name', criteria_condition: 'starts_with', value: 'Bulk, Obsolete' },
							],
						},
						pattern: '1 AND 2',
					},
				},
			},
		}),
	]);
	expectNoError(result);
	const filter = JSON.stringify({
		criteria: [
			{ cfid: 'module', criteria_condition: 'is', value: ['tasks'] },
			{ cfid: 'name', criteria_condition: 'starts_with', value: ['Bulk', 'Obsolete'] },
		],
		pattern: '1 AND 2',
	});
	const requests = env.apiRequests();
	expect(requests.map(sentRequest)).toEqual(
		[1, 2].map((page) => ({
			method: 'GET',
			path: `${ROOT}/portal/${portal}/bin`,
			query: { sort_by: 'asc(name)', filter, page: String(page), per_page: '200' },
			body: undefined,
		})),
	);
	env.expectSigned();
	const out = json(result, 'Bin');
	expect(out).toHaveLength(251); // 250 bulk tasks + the demo's trashed task
	expect(out.map((e) => e.name)).toEqual(
		[...out.map((e) => String(e.name))].sort((a, b) => a.localeCompare(b)),
	);
	expect(out.every((e) => e.module === 'tasks')).toBe(true);
});

test('the bin filter as raw JSON and desc(trashed_time) with a limit', async () => {
	const raw = {
		criteria: [{ cfid: 'module', criteria_condition: 'is', value: ['tasklists', 'projects'] }],
		pattern: '1',
	};
	const result = await env.run([
		trash('Bin', {
			operation: 'getBin',
			returnAll: false,
			limit: 5,
			filters: {
				sort_by: { values: { field: 'trashed_time', direction: 'desc' } },
				filterJson: JSON.stringify(raw),
			},
		}),
	]);
	expectNoError(result);
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/bin`,
			query: {
				sort_by: 'desc(trashed_time)',
				filter: JSON.stringify(raw),
				page: '1',
				per_page: '5',
			},
			body: undefined,
		},
	]);
	// demo: the tasklist trashed 10 days ago comes before the project trashed 40 days ago
	expect(json(result, 'Bin').map((e) => e.id)).toEqual([
		DEMO.trashed.tasklist,
		DEMO.trashed.oldProject,
	]);
});

test('a bad sort expression, or a filter given both ways, is refused before sending', async () => {
	const badSort = await env.run([
		trash(
			'Bin',
			{
				operation: 'getBin',
				filters: { sort_by: { values: { field: '={{ "size" }}', direction: 'asc' } } },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(json(badSort, 'Bin')[0].error).toBe(
		'Sort By must be written asc(field) or desc(field) with field one of: trashed_time, name (got "asc(size)") [item 0]',
	);
	const both = await env.run([
		trash(
			'Bin',
			{
				operation: 'getBin',
				filters: { filter: { values: { pattern: '1' } }, filterJson: '{"pattern":"1"}' },
			},
			{ onError: 'continueRegularOutput' },
		),
	]);
	expect(String(json(both, 'Bin')[0].error)).toContain(
		'Give Filter either as fields or as Filter (JSON), not both',
	);
	expect(env.apiRequests()).toHaveLength(0);
});

test('restore and delete permanently take several modules in one call; empty bin', async () => {
	const restore = await env.run([
		trash('Restore', {
			operation: 'restore',
			trash_request_items: {
				values: [
					{ module: 'tasks', items: `${ids[0]}, ${ids[1]}` },
					{ module: 'tasklists', items: DEMO.trashed.tasklist },
				],
			},
		}),
	]);
	expectNoError(restore);
	expect(json(restore, 'Restore')).toEqual([{ message: '3 record(s) restored', count: 3 }]);
	expect(env.portalTenant().get('tasks', ids[0])).toBeDefined();
	expect(env.portalTenant().get('tasklists', DEMO.trashed.tasklist)).toBeDefined();

	const remove = await env.run([
		trash('Delete', {
			operation: 'deletePermanently',
			trash_request_items: {
				values: [
					{ module: 'tasks', items: ids[2] },
					{ module: 'projects', items: DEMO.trashed.oldProject },
				],
			},
		}),
	]);
	expectNoError(remove);
	expect(json(remove, 'Delete')).toEqual([
		{ deleted: true, message: '2 record(s) deleted permanently', count: 2 },
	]);
	const empty = await env.run([trash('Empty', { operation: 'emptyBin' })]);
	expectNoError(empty);
	expect(json(empty, 'Empty')).toEqual([
		{ deleted: true, message: 'Bin emptied', count: expect.any(Number) },
	]);
	const requests = env.apiRequests();
	expect(requests.map(sentRequest)).toEqual([
		{
			method: 'POST',
			path: `${ROOT}/portal/${portal}/bin/restore`,
			query: {},
			body: [
				{ module: 'tasks', items: [ids[0], ids[1]] },
				{ module: 'tasklists', items: [DEMO.trashed.tasklist] },
			],
		},
		{
			method: 'DELETE',
			path: `${ROOT}/portal/${portal}/bin`,
			query: {},
			body: [
				{ module: 'tasks', items: [ids[2]] },
				{ module: 'projects', items: [DEMO.trashed.oldProject] },
			],
		},
		{ method: 'DELETE', path: `${ROOT}/portal/${portal}/empty-bin`, query: {}, body: undefined },
	]);
	env.expectSigned();
	expect(json(empty, 'Empty')[0]).toMatchObject({ count: 248 }); // 247 bulk tasks + the demo task
	expect(env.portalTenant().bin.size).toBe(0);
});

test('restore refuses more than 100 ids of one module and an unknown module before sending; API refusals become error items', async () => {
	const tooMany = Array.from({ length: 101 }, (_, i) => String(6100000000000 + i)).join(',');
	const result = await env.run(
		[
			trash(
				'Restore',
				{ operation: 'restore', trash_request_itemsJson: '={{ $json.records }}' },
				{ onError: 'continueRegularOutput' },
			),
		],
		[
			{ records: [{ module: 'tasks', items: tooMany.split(',') }] },
			{ records: [{ module: 'notes', items: ['1'] }] },
			{ records: [{ module: 'tasks', items: ['6999999999999'] }] },
		],
	);
	const out = json(result, 'Restore');
	expect(out[0].error).toBe(
		'Invalid input: Records (trash_request_items), entry 1: Record IDs (items) must hold at most 100 entries (got 101 entries) [item 0]',
	);
	expect(out[1].error).toContain(
		'Records (trash_request_items), entry 1: Module must be one of: projects, phases, tasklists, tasks, issues',
	);
	expect(String(out[2].error)).toMatch(/6999999999999/);
	expect(result.output('Restore').map((o) => o.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
	]);
	expect(env.apiRequests().map((r) => r.body)).toEqual([
		[{ module: 'tasks', items: ['6999999999999'] }],
	]);
});

test('records listed from the bin are restored item by item with expressions in the Records entry', async () => {
	const restoredIds = [ids[10], ids[11]];
	for (const id of restoredIds) env.portalTenant().put('tasks', id, { id, name: `Again ${id}` });
	const result = await env.run([
		trash('Trash', { operation: 'moveToTrash', module: 'tasks', items: restoredIds.join(',') }),
		trash('Bin', {
			operation: 'getBin',
			returnAll: true,
			filters: {
				filter: {
					values: {
						criteria: {
							values: [{ cfid: 'name', criteria_condition: 'starts_with', value: 'Again' }],
						},
					},
				},
			},
		}),
		trash('Restore', {
			operation: 'restore',
			trash_request_items: {
				values: [{ module: '={{ $json.module }}', items: '={{ $json.id }}' }],
			},
		}),
	]);
	expectNoError(result);
	expect(
		json(result, 'Bin')
			.map((e) => e.id)
			.sort(),
	).toEqual([...restoredIds].sort());
	const restores = env.apiRequests().filter((r) => r.operation === 'projects.trash.restore');
	expect(restores.map((r) => r.body)).toEqual(
		json(result, 'Bin').map((e) => [{ module: 'tasks', items: [e.id] }]),
	);
	expect(result.output('Restore').map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	for (const id of restoredIds) expect(env.portalTenant().get('tasks', id)).toBeDefined();
});
