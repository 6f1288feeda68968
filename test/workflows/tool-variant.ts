/**
 * A node's AI-tool variant, made the way n8n makes it for a `usableAsTool` node when it loads it
 * (shared by the suites that run the nodes as tools: ai-tool, independent-options).
 */
import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

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
					{ name: 'Set Automatically', value: 'auto', description: 'Automatically set based on resource and operation' },
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
			return Object.assign(Object.create(Object.getPrototypeOf(node) as object) as INodeType, node, { description });
		}
	} as unknown as NodeClass;
}
