/**
 * Vendor Projects -> Search, end to end on n8n's engine against the emulator: portal-wide
 * (search_term, module, status) and within one project (no status).
 */
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { PROJECTS_ROOT as ROOT, sentRequest, useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const search = env.portalSteps({ resource: 'search' });
let portal: string;
beforeAll(() => (portal = env.portal));

test('portal-wide search sends search_term, module and status; the extra parameters go in the query when set', async () => {
	const result = await env.run([
		search('Search', {
			operation: 'search',
			search_term: 'launch',
			module: 'all',
			status: 'active',
			returnAll: true,
		}),
		search(
			'Projects only',
			{
				operation: 'search',
				search_term: 'o',
				module: 'projects',
				status: 'template',
				returnAll: false,
				limit: 10,
				filters: { sortbyfield: 'name' },
			},
			{ executeOnce: true },
		),
	]);
	expectNoError(result);
	expect(json(result, 'Search').map((r) => [r.module, r.name])).toEqual(
		expect.arrayContaining([
			['projects', 'Website Relaunch'],
			['tasklists', 'Launch checklist'],
		]),
	);
	expect(json(result, 'Projects only')).toEqual([
		expect.objectContaining({ id: DEMO.projects.template, module: 'projects' }),
	]);
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/search`,
			query: { search_term: 'launch', module: 'all', status: 'active', page: '1', per_page: '200' },
			body: undefined,
		},
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/search`,
			query: {
				search_term: 'o',
				module: 'projects',
				status: 'template',
				sortbyfield: 'name',
				page: '1',
				per_page: '10',
			},
			body: undefined,
		},
	]);
	env.expectSigned();
});

test("search within a project sends no status and finds only that project's records", async () => {
	const result = await env.run([
		search('In project', {
			operation: 'searchInProject',
			project_id: byId(DEMO.projects.website),
			search_term: 'home',
			module: 'tasks',
			returnAll: true,
		}),
	]);
	expectNoError(result);
	expect(json(result, 'In project')).toEqual([
		expect.objectContaining({
			id: DEMO.tasks.homepage,
			module: 'tasks',
			project: { id: DEMO.projects.website, name: 'Website Relaunch' },
		}),
	]);
	expect(env.apiRequests().map(sentRequest)).toEqual([
		{
			method: 'GET',
			path: `${ROOT}/portal/${portal}/projects/${DEMO.projects.website}/search`,
			query: { search_term: 'home', module: 'tasks', page: '1', per_page: '200' },
			body: undefined,
		},
	]);
});

test('a missing search term or a module outside the documented values is refused before sending', async () => {
	const result = await env.run(
		[
			search(
				'Search',
				{
					operation: 'searchInProject',
					project_id: byId(DEMO.projects.website),
					search_term: '={{ $json.term }}',
					module: '={{ $json.module }}',
				},
				{ onError: 'continueRegularOutput' },
			),
		],
		[
			{ term: '', module: 'tasks' },
			{ term: 'x', module: 'projects' },
		],
	);
	expect(json(result, 'Search').map((o) => o.error)).toEqual([
		'Invalid input: Search Term is required [item 0]',
		'Invalid input: Module must be one of: all, milestones, tasklists, tasks, bugs, forums, events, status (got "projects") [item 1]',
	]);
	expect(env.apiRequests()).toHaveLength(0);
});
