import {
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type ITriggerFunctions,
	type ITriggerResponse,
	type IVersionedNodeType,
} from 'n8n-workflow';

/** Stand-in for n8n's Manual Trigger (`n8n-nodes-base.manualTrigger`): emits one empty item. */
class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		eventTriggerDescription: '',
		maxNodes: 1,
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

/**
 * Stand-in for n8n's Schedule Trigger (`n8n-nodes-base.scheduleTrigger`, versions 1 to 1.2):
 * accepts its `rule` parameter as n8n stores it and, when the workflow runs, emits one item
 * shaped like the real node's (timestamp, readable date and time parts) for "now".
 */
class ScheduleTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Schedule Trigger',
		name: 'scheduleTrigger',
		group: ['trigger', 'schedule'],
		version: [1, 1.1, 1.2],
		description: 'Triggers the workflow on a given schedule',
		eventTriggerDescription: '',
		defaults: { name: 'Schedule Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Trigger Rules', name: 'rule', type: 'json', default: '{}' }],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			const now = new Date();
			const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
			this.emit([
				this.helpers.returnJsonArray([
					{
						timestamp: now.toISOString(),
						'Readable date': now.toUTCString(),
						'Day of week': days[now.getUTCDay()],
						Hour: String(now.getUTCHours()).padStart(2, '0'),
						Minute: String(now.getUTCMinutes()).padStart(2, '0'),
						Timezone: 'UTC',
					},
				]),
			]);
		};
		return { manualTriggerFunction };
	}
}

/** Stand-in for n8n's No Operation node (`n8n-nodes-base.noOp`): passes its input through. */
// Typed as INodeType where it is used, not `implements INodeType`: n8n's lint would hold this stand-in for n8n's own node to the rules for a published one.
class NoOp {
	description: INodeTypeDescription = {
		displayName: 'No Operation, do nothing',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * Harness-only node (`harness.binaryFixture`): for every input item, outputs an item with a binary
 * property made by `this.helpers.prepareBinaryData` from base64 (parameters may be expressions).
 */
// Typed as INodeType where it is used, not `implements INodeType`: n8n's lint would hold this harness node to the rules for a published one.
class BinaryFixture {
	description: INodeTypeDescription = {
		displayName: 'Binary Fixture',
		name: 'binaryFixture',
		group: ['transform'],
		version: 1,
		description: 'Creates a binary property from base64 (test harness)',
		defaults: { name: 'Binary Fixture' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Base64 Data', name: 'base64', type: 'string', default: '' },
			{ displayName: 'File Name', name: 'fileName', type: 'string', default: 'file.bin' },
			{
				displayName: 'MIME Type',
				name: 'mimeType',
				type: 'string',
				default: 'application/octet-stream',
			},
			{
				displayName: 'Binary Property',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
			},
			{ displayName: 'JSON', name: 'json', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const buffer = Buffer.from(this.getNodeParameter('base64', i) as string, 'base64');
			const fileName = this.getNodeParameter('fileName', i) as string;
			const mimeType = this.getNodeParameter('mimeType', i) as string;
			const property = this.getNodeParameter('binaryPropertyName', i) as string;
			const rawJson = this.getNodeParameter('json', i) as string | IDataObject;
			const json =
				typeof rawJson === 'string' ? (JSON.parse(rawJson || '{}') as IDataObject) : rawJson;
			out.push({
				json,
				binary: { [property]: await this.helpers.prepareBinaryData(buffer, fileName, mimeType) },
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

export type NodeTypeClass = new () => INodeType | IVersionedNodeType;

/** Types always available, by full type name. */
const BUILTIN_NODE_TYPES: Record<string, NodeTypeClass> = {
	'n8n-nodes-base.manualTrigger': ManualTrigger,
	'n8n-nodes-base.noOp': NoOp,
	'n8n-nodes-base.scheduleTrigger': ScheduleTrigger,
	'harness.binaryFixture': BinaryFixture,
};

/** Instances kept for later runs (`loadOnce`, the default): n8n makes one per node type per process, when it loads the package. */
const loaded = new WeakMap<NodeTypeClass, INodeType | IVersionedNodeType>();

function loadedOnce(Cls: NodeTypeClass): INodeType | IVersionedNodeType {
	let instance = loaded.get(Cls);
	if (!instance) {
		instance = new Cls();
		loaded.set(Cls, instance);
	}
	return instance;
}

/**
 * INodeTypes over a fixed set of classes. A package node whose description name is `vendorBooks` is
 * reachable as `vendorBooks`, and as `<packageName>.vendorBooks` (how n8n names community nodes).
 */
export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	constructor(classes: NodeTypeClass[], packageName: string, loadOnce = true) {
		const make = (Cls: NodeTypeClass) => (loadOnce ? loadedOnce(Cls) : new Cls());
		for (const [typeName, Cls] of Object.entries(BUILTIN_NODE_TYPES))
			this.types.set(typeName, make(Cls));
		for (const Cls of classes) {
			const instance = make(Cls);
			const name = instance.description.name;
			this.types.set(name, instance);
			if (!name.includes('.')) this.types.set(`${packageName}.${name}`, instance);
		}
	}

	recognizes(type: string): boolean {
		return this.types.has(type);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) {
			throw new UnexpectedError(
				`Unknown node type "${nodeType}" (known: ${[...this.types.keys()].join(', ')})`,
			);
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			[...this.types.keys()].map((k) => [k, { className: k, sourcePath: '' }]),
		);
	}
}
