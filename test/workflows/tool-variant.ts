/**
 * A node's AI-tool variant, made the way n8n makes it for a `usableAsTool` node when it loads it
 * (shared by the suites that run the nodes as tools: ai-tool, options-and-ai-tools).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { runWorkflow } from '../../harness';
import type { RunResult } from '../../harness';
import { CREDENTIAL_ID, CREDENTIAL_NAME, fedByInput } from '../../harness/workflows';
import type { WorkflowEnv } from './support';

export type NodeClass = new () => INodeType;

/**
 * The tool variant n8n makes of a node with `usableAsTool` (n8n's `convertNodeToAiTool`, in
 * the n8n application, not in n8n-core; compared with n8n 2.20.12's
 * `dist/tool-generation/ai-tools.js`): `<name>Tool` / `<displayName> Tool`, no inputs, one
 * `ai_tool` output, `usableAsTool` removed, and the tool-description choice put after the
 * last `callout` property (our nodes have none, so first).
 */
export function toolVariant(Node: NodeClass): NodeClass {
	return class {
		constructor() {
			const node = new Node();
			const base = node.description;
			expect(base.usableAsTool).toBe(true);
			const descriptionType: INodeProperties = {
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Set Automatically',
						value: 'auto',
						description: 'Automatically set based on resource and operation',
					},
					{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
				],
				default: 'auto',
			};
			const toolDescription: INodeProperties = {
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: base.description,
				required: true,
				typeOptions: { rows: 2 },
				displayOptions: { show: { descriptionType: ['manual'] } },
			};
			const rest = { ...base };
			delete rest.usableAsTool;
			const description: INodeTypeDescription = {
				...rest,
				name: `${base.name}Tool`,
				displayName: `${base.displayName} Tool`,
				inputs: [],
				outputs: [NodeConnectionTypes.AiTool],
				properties: [descriptionType, toolDescription, ...base.properties],
			};
			return Object.assign(
				Object.create(Object.getPrototypeOf(node) as object) as INodeType,
				node,
				{ description },
			);
		}
	} as unknown as NodeClass;
}

interface SeenTool {
	name: string;
	description: string;
	invoke: (args: IDataObject) => Promise<string>;
	schema?: { shape?: Record<string, unknown>; properties?: Record<string, unknown> };
}

/**
 * Stands in for n8n's AI Agent: takes its one connected tool from n8n-core, reports what the
 * model would see (name, description, parameters) and calls it with the item's `args`.
 */
// Typed as INodeType where it is used, not `implements INodeType`: n8n's lint would hold this test node to the rules for a published one.
class ToolCaller {
	description: INodeTypeDescription = {
		displayName: 'Tool Caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls the connected tool once per item (test harness)',
		defaults: { name: 'Tool Caller' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, maxConnections: 1, required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tool = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as SeenTool;
		const shape = tool.schema?.shape ?? tool.schema?.properties ?? {};
		const out: INodeExecutionData[] = [];
		for (const [i, item] of this.getInputData().entries()) {
			let response: unknown;
			try {
				const text = await tool.invoke((item.json.args as IDataObject) ?? {});
				try {
					response = JSON.parse(text);
				} catch {
					response = text;
				}
			} catch (error) {
				response = { thrown: (error as Error).message };
			}
			out.push({
				json: {
					name: tool.name,
					description: tool.description,
					parameters: Object.keys(shape),
					response,
				} as IDataObject,
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

/**
 * Runs Manual Trigger -> Input (the `args`, one item each) -> Tool Caller, with the tool node
 * (type `<package>.<name>Tool`, one of `nodeTypes`) on its ai_tool input; `node` adds to the tool
 * node (its settings).
 */
export async function runToolCall(
	env: WorkflowEnv,
	nodeTypes: NodeClass[],
	type: string,
	parameters: IDataObject,
	args: IDataObject[] = [{}],
	node: Partial<INode> = {},
): Promise<RunResult> {
	const agent: INode[] = [
		{
			id: 'agent',
			name: 'Agent',
			type: 'n8n-nodes-vendor.toolCaller',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
	];
	const tool: INode[] = [
		{
			id: 'tool',
			name: 'Vendor Tool',
			type: `n8n-nodes-vendor.${type}`,
			typeVersion: 1,
			position: [200, 200],
			parameters: parameters as INode['parameters'],
			credentials: { vendorOAuth2Api: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			...node,
		},
	];
	const workflow = fedByInput(
		args.map((a) => ({ json: { args: a } })),
		agent,
		tool,
	);
	workflow.connections['Vendor Tool'] = {
		ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]],
	};
	return await runWorkflow({
		workflow,
		nodeTypes: [...nodeTypes, ToolCaller],
		credentialTypes: [VendorOAuth2Api],
		credentials: env.credentials,
	});
}
