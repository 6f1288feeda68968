/**
 * Vendor Projects -> Portal, My Task and the portal / project pickers, end to end on n8n's
 * engine against the emulator.
 */
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { DEMO } from '../emulator/demo-data';
import type { RecordedRequest } from '../emulator/server';
import { listSearch } from '../harness';
import { expectNoError, json, steps, WorkflowEnv } from './support';

const env = new WorkflowEnv();
let portal: string;
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const fromList = (value: string) => ({ __rl: true, mode: 'list', value, cachedResultName: 'picked' });
const ROOT = '/us/projects/api/v3';
const projects = steps('vendorProjects', {});

beforeAll(async () => {
	await env.start({ demo: true });
	portal = env.em.portalId;
});
afterAll(async () => await env.stop());
beforeEach(() => env.em.clearRequests());

function summary(r: RecordedRequest) {
	return { method: r.method, path: r.path, query: r.query, body: r.body };
}

function expectSigned(requests: RecordedRequest[]): void {
	const token = String(env.storedToken.access_token);
	expect(requests.length).toBeGreaterThan(0);
	for (const r of requests) expect(r.headers.authorization).toBe(`Vendor-oauthtoken ${token}`);
}

test('portals: get many, then get the first one (picked from the list)', async () => {
	const result = await env.run([
		projects('Portals', { resource: 'portal', operation: 'getAll', returnAll: true }),
		projects('Portal', { resource: 'portal', operation: 'get', portal_id: fromList('={{ $json.id }}') }),
	]);
	expectNoError(result);
	expect(json(result, 'Portals')).toEqual([expect.objectContaining({ id: portal, name: 'Zylker Demo Portal' })]);
	expect(json(result, 'Portal')[0]).toMatchObject({ id: portal, name: 'Zylker Demo Portal' });
	expect(env.apiRequests().map(summary)).toEqual([
		{ method: 'GET', path: `${ROOT}/portals`, query: {}, body: undefined },
		{ method: 'GET', path: `${ROOT}/portal/${portal}`, query: {}, body: undefined },
	]);
	expectSigned(env.apiRequests());
});

test('my tasks: a list of the signed-in user\'s tasks, one output item per task, with a limit', async () => {
	const all = await env.run([projects('Tasks', { resource: 'myTasks', operation: 'get', portal_id: byId(portal), returnAll: true })]);
	expectNoError(all);
	expect(json(all, 'Tasks').map((t) => t.id).sort()).toEqual([DEMO.tasks.homepage, DEMO.tasks.checkout, DEMO.tasks.appStore].sort());
	expect(all.output('Tasks').every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
	const two = await env.run([projects('Tasks', { resource: 'myTasks', operation: 'get', portal_id: byId(portal), returnAll: false, limit: 2 })]);
	expect(json(two, 'Tasks')).toHaveLength(2);
	// no pagination is documented: one plain call each time
	expect(env.apiRequests().map(summary)).toEqual([
		{ method: 'GET', path: `${ROOT}/portal/${portal}/mytasks`, query: {}, body: undefined },
		{ method: 'GET', path: `${ROOT}/portal/${portal}/mytasks`, query: {}, body: undefined },
	]);
	expectSigned(env.apiRequests());
});

test('the portal and project pickers list names and IDs from the list calls, and search by name', async () => {
	const node = (parameters: Record<string, unknown>) => ({
		id: 'p',
		name: 'Projects',
		type: 'n8n-nodes-vendor.vendorProjects',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: parameters as never,
		credentials: { vendorOAuth2Api: { id: env.credentials[0].id, name: env.credentials[0].name } },
	});
	const common = { nodeType: VendorProjects, credentials: env.credentials, credentialTypes: [VendorOAuth2Api] };
	const portals = await listSearch({ ...common, node: node({ resource: 'portal', operation: 'get', portal_id: fromList('') }), method: 'searchPortals' });
	expect(portals.results).toEqual([{ name: 'Zylker Demo Portal', value: portal }]);

	const params = { resource: 'project', operation: 'get', portal_id: fromList(portal), project_id: fromList('') };
	const found = await listSearch({ ...common, node: node(params), method: 'searchProjects', filter: 'mobile' });
	expect(found.results).toEqual([{ name: 'Mobile App', value: DEMO.projects.mobile }]);
	const every = await listSearch({ ...common, node: node(params), method: 'searchProjects' });
	expect(every.results.map((r) => r.name)).toEqual(expect.arrayContaining(['Website Relaunch', 'Mobile App', 'Onboarding Template', 'Old Intranet']));
	expect(every.paginationToken).toBeUndefined();
	expect(env.apiRequests().map(summary)).toEqual([
		{ method: 'GET', path: `${ROOT}/portals`, query: {}, body: undefined },
		{ method: 'GET', path: `${ROOT}/portal/${portal}/projects`, query: { page: '1', per_page: '200' }, body: undefined },
		{ method: 'GET', path: `${ROOT}/portal/${portal}/projects`, query: { page: '1', per_page: '200' }, body: undefined },
	]);
	expectSigned(env.apiRequests());
});

test('an unknown portal is an API error naming it; with continue-on-fail it is an error item', async () => {
	const result = await env.run([projects('Portal', { resource: 'portal', operation: 'get', portal_id: byId('7999999999999') }, { onError: 'continueRegularOutput' })]);
	const out = json(result, 'Portal');
	expect(out).toHaveLength(1);
	expect(JSON.stringify(out[0])).toContain('7999999999999');
	expect(out[0].error).toBeDefined();
	expect(JSON.stringify(out[0])).not.toContain(String(env.storedToken.access_token));
});
