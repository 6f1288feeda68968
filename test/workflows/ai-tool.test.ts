/**
 * The action nodes used as AI tools, on n8n's own tool path: the node type is turned into its
 * tool variant the way n8n does for a `usableAsTool` node when it loads it, an agent (a test
 * node standing in for n8n's AI Agent) asks n8n-core for its connected tool
 * (`getInputConnectionData('ai_tool')`, which wraps the node with `createNodeAsTool`) and
 * invokes it; n8n-core runs the node's `execute` in a SupplyDataContext. The parameters are
 * the ones n8n's Workflow fills in from the tool variant's description, so Simplify's
 * "on for tools" default is what n8n itself resolves.
 */
import type { IConnections, IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { DEMO } from '../../emulator/demo-data';
import { runWorkflow } from '../harness';
import type { RunResult } from '../harness';
import { byId, CREDENTIAL_ID, CREDENTIAL_NAME, expectNoError, PROJECTS_ROOT, useWorkflowEnv } from './support';
import { toolVariant } from './tool-variant';

const env = useWorkflowEnv({ demo: true });


/** Stands in for n8n's AI Agent: takes its one connected tool from n8n-core and calls it with the item's `args`. */
// Typed as INodeType where it is used, not `implements INodeType`: n8n's lint would hold this test node to the rules for a published one.
class ToolCaller {
	description: INodeTypeDescription = {
		displayName: 'Tool Caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls the connected tool once per item (test harness)',
		defaults: { name: 'Tool Caller' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, maxConnections: 1, required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tool = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as { name: string; description: string; invoke: (args: IDataObject) => Promise<string> };
		const out: INodeExecutionData[] = [];
		for (const [i, item] of this.getInputData().entries()) {
			let response: unknown;
			try {
				response = JSON.parse(await tool.invoke((item.json.args as IDataObject) ?? {}));
			} catch (error) {
				response = { thrown: (error as Error).message };
			}
			out.push({ json: { name: tool.name, description: tool.description, response } as IDataObject, pairedItem: { item: i } });
		}
		return [out];
	}
}

const TOOL_TYPES = [toolVariant(VendorBooks), toolVariant(VendorProjects), ToolCaller];

/** Manual Trigger -> Tool Caller, with the tool node (type `<package>.<name>Tool`) on its ai_tool input. */
async function callTool(type: string, parameters: IDataObject, args: IDataObject[] = [{}]): Promise<RunResult> {
	const nodes: INode[] = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'input', name: 'Input', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [100, 0], parameters: {} },
		{ id: 'agent', name: 'Agent', type: 'n8n-nodes-vendor.toolCaller', typeVersion: 1, position: [200, 0], parameters: {} },
		{
			id: 'tool',
			name: 'Vendor Tool',
			type: `n8n-nodes-vendor.${type}`,
			typeVersion: 1,
			position: [200, 200],
			parameters: parameters as INode['parameters'],
			credentials: { vendorOAuth2Api: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
		},
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
		Input: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
		'Vendor Tool': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
	};
	const result = await runWorkflow({
		workflow: { nodes, connections, pinData: { Input: args.map((a) => ({ json: { args: a } })) } },
		nodeTypes: TOOL_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials: env.credentials,
	});
	expectNoError(result);
	return result;
}

const itemFields = booksArea.resources.find((r) => r.value === 'item')?.simplify ?? [];

test('Item → Get as a tool: Simplify is on without being set (n8n fills the tool variant\'s default), the answer reaches the agent', async () => {
	const result = await callTool('vendorBooksTool', { organizationId: env.org, resource: 'item', operation: 'get', item_id: byId(DEMO.items.hosting) });
	const [called] = result.output('Agent').map((i) => i.json);
	expect(called.description).toBe('Get item in Vendor Books');
	const [record] = called.response as IDataObject[];
	expect(record.item_id).toBe(DEMO.items.hosting);
	expect(Object.keys(record).length).toBeGreaterThan(3);
	expect(Object.keys(record).filter((k) => !itemFields.includes(k))).toEqual([]);
	env.expectSigned({ org: 'query', ok: true });
});

test('as a tool, Simplify turned off gives the whole record', async () => {
	const result = await callTool('vendorBooksTool', { organizationId: env.org, resource: 'item', operation: 'get', item_id: byId(DEMO.items.hosting), simplify: false });
	const [record] = result.output('Agent')[0].json.response as IDataObject[];
	expect(record.item_id).toBe(DEMO.items.hosting);
	expect(Object.keys(record).filter((k) => !itemFields.includes(k)).length).toBeGreaterThan(0);
});

test('as a tool, Output: Raw gives the whole record, Selected Fields the ID and the fields chosen', async () => {
	const get = { organizationId: env.org, resource: 'item', operation: 'get', item_id: byId(DEMO.items.hosting) };
	const raw = (await callTool('vendorBooksTool', { ...get, output: 'raw' })).output('Agent')[0].json.response as IDataObject[];
	expect(Object.keys(raw[0]).filter((k) => !itemFields.includes(k)).length).toBeGreaterThan(0);
	const chosen = (await callTool('vendorBooksTool', { ...get, output: 'selectedFields', outputFields: ['rate', 'name'] })).output('Agent')[0].json.response as IDataObject[];
	expect(chosen).toEqual([{ item_id: DEMO.items.hosting, rate: raw[0].rate, name: raw[0].name }]);
});

test('Custom API Call as a tool: the path from the agent ($fromAI), signed, the organization ID in the query', async () => {
	const result = await callTool(
		'vendorBooksTool',
		{ organizationId: env.org, resource: 'customApiCall', operation: 'customApiCall', customMethod: 'GET', customPath: "={{ $fromAI('path', 'Path below the Books API root') }}" },
		[{ path: `/items/${DEMO.items.design}` }, { path: '/items/../invoices' }],
	);
	const [ok, refused] = result.output('Agent').map((i) => i.json);
	expect(ok.description).toBe('Make custom API call in Vendor Books');
	expect(((ok.response as IDataObject[])[0].item as IDataObject).item_id).toBe(DEMO.items.design);
	expect(String((refused.response as IDataObject).thrown)).toMatch(/Path must not contain "\." or "\.\." segments/);
	expect(env.apiRequests().map((r) => [r.method, r.path, r.query.organization_id])).toEqual([['GET', `/us/api/books/v3/items/${DEMO.items.design}`, env.org]]);
	env.expectSigned({ org: 'query', ok: true });
});

test('Vendor Projects Custom API Call as a tool: paced, signed, the portal in the path', async () => {
	const result = await callTool('vendorProjectsTool', { resource: 'customApiCall', operation: 'customApiCall', customMethod: 'GET', customPath: '/portal/{portal_id}/projects', portal_id: byId(env.portal) });
	expect(JSON.stringify(result.output('Agent')[0].json.response)).toContain(DEMO.projects.website);
	expect(env.apiRequests().map((r) => [r.method, r.path])).toEqual([['GET', `${PROJECTS_ROOT}/portal/${env.portal}/projects`]]);
	env.expectSigned({ ok: true });
});
