/**
 * How the action nodes look as AI tools: n8n names and describes a tool node
 * "<action> in <node>" (NodeHelpers.makeNodeName / getToolDescriptionForNode on the tool
 * variant `<name>Tool`); every name is distinct and every operation's description is one
 * sentence that says what it needs.
 */
import type { INode, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';

const nodeTypes: INodeType[] = [
	new VendorBooks(),
	new VendorProjects(),
	new VendorInvoice(),
	new VendorBilling(),
	new VendorInventory(),
];

/** n8n's tool variant of a node type: named `<name>Tool`, with an AI-tool output. */
function asTool(nodeType: INodeType): INodeType {
	const description: INodeTypeDescription = {
		...nodeType.description,
		name: `${nodeType.description.name}Tool`,
		outputs: [{ type: 'ai_tool', displayName: 'Tool' }] as INodeTypeDescription['outputs'],
	};
	return { ...nodeType, description };
}

function operations(
	nodeType: INodeType,
): Array<{ resource: string; option: INodePropertyOptions }> {
	return nodeType.description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) =>
			(p.displayOptions?.show?.resource ?? []).flatMap((resource) =>
				(p.options as INodePropertyOptions[]).map((option) => ({
					resource: String(resource),
					option,
				})),
			),
		);
}

test('as tools, every operation of every node has its own name, "<action> in <node>", and the same description', () => {
	const names = new Map<string, string>();
	for (const nodeType of nodeTypes) {
		const tool = asTool(nodeType);
		for (const { resource, option } of operations(nodeType)) {
			const parameters = { resource, operation: String(option.value) };
			const name = NodeHelpers.makeNodeName(parameters, tool.description);
			expect(name).toBe(`${option.action} in ${nodeType.description.displayName}`);
			const node = {
				name,
				type: tool.description.name,
				typeVersion: 1,
				position: [0, 0],
				parameters: { ...parameters, descriptionType: 'auto' },
			} as unknown as INode;
			expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toBe(name);
			const what = `${nodeType.description.name} ${option.value === 'customApiCall' ? 'customApiCall' : `${resource}.${String(option.value)}`}`;
			expect({ name, usedBy: names.get(name) ?? what }).toEqual({ name, usedBy: what });
			names.set(name, what);
		}
	}
	expect(names.size).toBeGreaterThan(80);
});

test('every operation description is one sentence saying what it does and what it needs', () => {
	for (const nodeType of nodeTypes) {
		for (const { resource, option } of operations(nodeType)) {
			const text = String(option.description);
			const where = `${nodeType.description.name} ${resource}.${String(option.value)}: ${text}`;
			expect({
				where,
				sentences: text.split(/[.!?] /).length,
				endsWithPeriod: text.endsWith('.'),
				capitalised: /^[A-Z]/.test(text),
			}).toEqual({ where, sentences: 1, endsWithPeriod: false, capitalised: true });
		}
	}
	const [books] = nodeTypes;
	const described = (resource: string, operation: string) =>
		operations(books).find((o) => o.resource === resource && o.option.value === operation)?.option
			.description;
	// parameter names in single quotes, as n8n's guidelines write them
	expect(described('estimate', 'updateComment')).toBe(
		"Update a comment of an estimate; needs 'Estimate ID' and 'Comment ID', usually with 'Description'",
	);
	expect(described('invoice', 'uploadAttachment')).toMatch(
		/; needs 'Invoice ID' and a file \(in the binary field named by 'Input Data Field Name'\)$/,
	);
	expect(described('item', 'create')).toBe("Create an item, usually with 'Name'");
});
