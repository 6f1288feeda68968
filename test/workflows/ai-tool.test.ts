/**
 * The action nodes used as AI tools, on n8n's own tool path: the node type is turned into its
 * tool variant the way n8n does for a `usableAsTool` node when it loads it, an agent (a test
 * node standing in for n8n's AI Agent) asks n8n-core for its connected tool
 * (`getInputConnectionData('ai_tool')`, which wraps the node with `createNodeAsTool`) and
 * invokes it; n8n-core runs the node's `execute` in a SupplyDataContext. The parameters are
 * the ones n8n's Workflow fills in from the tool variant's description, so Simplify's
 * "on for tools" default is what n8n itself resolves.
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { DEMO } from '../../emulator/demo-data';
import type { RunResult } from '../../harness';
import { byId, expectNoError } from '../../harness/workflows';
import { PROJECTS_ROOT, useWorkflowEnv } from './support';
import { runToolCall, toolVariant } from './tool-variant';

const env = useWorkflowEnv({ demo: true });

const TOOL_TYPES = [toolVariant(VendorBooks), toolVariant(VendorProjects)];

/** Manual Trigger -> Tool Caller, with the tool node (type `<package>.<name>Tool`) on its ai_tool input. */
async function callTool(
	type: string,
	parameters: IDataObject,
	args: IDataObject[] = [{}],
): Promise<RunResult> {
	const result = await runToolCall(env, TOOL_TYPES, type, parameters, args);
	expectNoError(result);
	return result;
}

const itemFields = booksArea.resources.find((r) => r.value === 'item')?.simplify ?? [];

test("Item → Get as a tool: Simplify is on without being set (n8n fills the tool variant's default), the answer reaches the agent", async () => {
	const result = await callTool('vendorBooksTool', {
		organizationId: env.org,
		resource: 'item',
		operation: 'get',
		item_id: byId(DEMO.items.hosting),
	});
	const [called] = result.output('Agent').map((i) => i.json);
	expect(called.description).toBe('Get item in Vendor Books');
	const [record] = called.response as IDataObject[];
	expect(record.item_id).toBe(DEMO.items.hosting);
	expect(Object.keys(record).length).toBeGreaterThan(3);
	expect(Object.keys(record).filter((k) => !itemFields.includes(k))).toEqual([]);
	env.expectSigned({ org: 'query', ok: true });
});

test('as a tool, Simplify turned off gives the whole record', async () => {
	const result = await callTool('vendorBooksTool', {
		organizationId: env.org,
		resource: 'item',
		operation: 'get',
		item_id: byId(DEMO.items.hosting),
		simplify: false,
	});
	const [record] = result.output('Agent')[0].json.response as IDataObject[];
	expect(record.item_id).toBe(DEMO.items.hosting);
	expect(Object.keys(record).filter((k) => !itemFields.includes(k)).length).toBeGreaterThan(0);
});

test('as a tool, Output: Raw gives the whole record, Selected Fields the ID and the fields chosen', async () => {
	const get = {
		organizationId: env.org,
		resource: 'item',
		operation: 'get',
		item_id: byId(DEMO.items.hosting),
	};
	const raw = (await callTool('vendorBooksTool', { ...get, output: 'raw' })).output('Agent')[0].json
		.response as IDataObject[];
	expect(Object.keys(raw[0]).filter((k) => !itemFields.includes(k)).length).toBeGreaterThan(0);
	const chosen = (
		await callTool('vendorBooksTool', {
			...get,
			output: 'selectedFields',
			outputFields: ['rate', 'name'],
		})
	).output('Agent')[0].json.response as IDataObject[];
	expect(chosen).toEqual([{ item_id: DEMO.items.hosting, rate: raw[0].rate, name: raw[0].name }]);
});

test('Custom API Call as a tool: the path from the agent ($fromAI), signed, the organization ID in the query', async () => {
	const result = await callTool(
		'vendorBooksTool',
		{
			organizationId: env.org,
			resource: 'customApiCall',
			operation: 'customApiCall',
			customMethod: 'GET',
			customPath: "={{ $fromAI('path', 'Path below the Books API root') }}",
		},
		[{ path: `/items/${DEMO.items.design}` }, { path: '/items/../invoices' }],
	);
	const [ok, refused] = result.output('Agent').map((i) => i.json);
	expect(ok.description).toBe('Make custom API call in Vendor Books');
	expect(((ok.response as IDataObject[])[0].item as IDataObject).item_id).toBe(DEMO.items.design);
	expect(String((refused.response as IDataObject).thrown)).toMatch(
		/Path must not contain "\." or "\.\." segments/,
	);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query.organization_id])).toEqual([
		['GET', `/us/api/books/v3/items/${DEMO.items.design}`, env.org],
	]);
	env.expectSigned({ org: 'query', ok: true });
});

test('Vendor Projects Custom API Call as a tool: paced, signed, the portal in the path', async () => {
	const result = await callTool('vendorProjectsTool', {
		resource: 'customApiCall',
		operation: 'customApiCall',
		customMethod: 'GET',
		customPath: '/portal/{portal_id}/projects',
		portal_id: byId(env.portal),
	});
	expect(JSON.stringify(result.output('Agent')[0].json.response)).toContain(DEMO.projects.website);
	expect(env.apiRequests().map((r) => [r.method, r.path])).toEqual([
		['GET', `${PROJECTS_ROOT}/portal/${env.portal}/projects`],
	]);
	env.expectSigned({ ok: true });
});
