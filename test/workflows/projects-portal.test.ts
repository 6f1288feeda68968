/**
 * Vendor Projects -> Portal, My Task and the portal / project pickers, end to end on n8n's
 * engine against the emulator.
 */
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json, steps } from '../../harness/workflows';
import { fromList, PROJECTS_ROOT as ROOT, sentRequest, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const projects = steps('vendorProjects', {});
let portal: string;
beforeAll(() => (portal = env.portal));
/** A resource-locator value picked from the list in the editor. */
const picked = (value: string) => fromList(value, 'picked');

test('portals: get many, then get the first one (picked from the list)', async () => {
	const result = await env.run([
		projects('Portals', { resource: 'portal', operation: 'getAll', returnAll: true }),
		projects('Portal', {
			resource: 'portal',
			operation: 'get',
			portal_id: picked('={{ $json.id }}'),
		}),
	]);
	expectNoError(result);
	expect(json(result, 'Portals')).toEqual([
		expect.objectContaining({ id: portal, name: 'Zylker Demo Portal' }),
	]);
	expect(json(result, 'Portal')[0]).toMatchObject({ id: portal, name: 'Zylker Demo Portal' });
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{ method: 'GET', path: `${ROOT}/portals`, query: {}, body: undefined },
		{ method: 'GET', path: `${ROOT}/portal/${portal}`, query: {}, body: undefined },
	]);
	env.expectSigned();
});

test("my tasks: a list of the signed-in user's tasks, one output item per task, with a limit", async () => {
	const all = await env.run([
		projects('Tasks', {
			resource: 'myTasks',
			operation: 'get',
			portal_id: byId(portal),
			returnAll: true,
		}),
	]);
	expectNoError(all);
	expect(
		json(all, 'Tasks')
			.map((t) => t.id)
			.sort(),
	).toEqual([DEMO.tasks.homepage, DEMO.tasks.checkout, DEMO.tasks.appStore].sort());
	expect(all.output('Tasks').every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(
		true,
	);
	const two = await env.run([
		projects('Tasks', {
			resource: 'myTasks',
			operation: 'get',
			portal_id: byId(portal),
			returnAll: false,
			limit: 2,
		}),
	]);
	expect(json(two, 'Tasks')).toHaveLength(2);
	// no pagination is documented: one plain call each time
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{ method: 'GET', path: `${ROOT}/portal/${portal}/mytasks`, query: {}, body: undefined },
		{ method: 'GET', path: `${ROOT}/portal/${portal}/mytasks`, query: {}, body: undefined },
	]);
	env.expectSigned();
});

test('the portal and project pickers list names and IDs from the list calls, and search by name', async () => {
	const portalPicker = env.picker(VendorProjects, 'searchPortals', {
		resource: 'portal',
		operation: 'get',
		portal_id: picked(''),
	});
	const portals = await portalPicker();
	expect(portals.results).toEqual([{ name: 'Zylker Demo Portal', value: portal }]);

	const projectPicker = env.picker(VendorProjects, 'searchProjects', {
		resource: 'project',
		operation: 'get',
		portal_id: picked(portal),
		project_id: picked(''),
	});
	const found = await projectPicker({ filter: 'mobile' });
	expect(found.results).toEqual([{ name: 'Mobile App', value: DEMO.projects.mobile }]);
	const every = await projectPicker();
	expect(every.results.map((r) => r.name)).toEqual(
		expect.arrayContaining([
			'Website Relaunch',
			'Mobile App',
			'Onboarding Template',
			'Old Intranet',
		]),
	);
	expect(every.paginationToken).toBeUndefined();
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{ method: 'GET', path: `${ROOT}/portals`, query: {}, body: undefined },
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/projects`,
			query: { page: '1', per_page: '200' },
			body: undefined,
		},
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/projects`,
			query: { page: '1', per_page: '200' },
			body: undefined,
		},
	]);
	env.expectSigned();
});

test('an unknown portal is an API error naming it; with continue-on-fail it is an error item', async () => {
	const result = await env.run([
		projects(
			'Portal',
			{ resource: 'portal', operation: 'get', portal_id: byId('7999999999999') },
			{ onError: 'continueRegularOutput' },
		),
	]);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(1);
	expect(JSON.stringify(out[0])).toContain('7999999999999');
	expect(out[0].error).toBeDefined();
	expect(JSON.stringify(out[0])).not.toContain(String(env.storedToken.access_token));
});
