/**
 * In-process workflow harness over n8n-core's real engine (WorkflowExecute), for the tests, the
 * benchmarks and the demo.
 * See test/harness/harness.test.ts for usage; README-style notes are in the module docs of each file.
 */
import './env';

import {
	BinaryDataService,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	BINARY_ENCODING,
	UnexpectedError,
	Workflow,
	type IBinaryData,
	type IConnections,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeType,
	type IPinData,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessNodeTypes, type NodeTypeClass } from './builtin-nodes';
import { noteAdaptation } from './compat';
import {
	HarnessCredentialsHelper,
	HarnessCredentialTypes,
	type HarnessCredential,
} from './credentials-helper';
import { Container, ensureHarnessSetup, externalSecretsProxy } from './setup';
import { setTimeout, clearTimeout } from '../host/globals';

export {
	HarnessCredentialsHelper,
	HarnessCredentialTypes,
	UNPACED_PER_MINUTE,
} from './credentials-helper';
export type { HarnessCredential } from './credentials-helper';
export { ensureHarnessSetup } from './setup';
export { harnessAdaptations } from './compat';

export interface HarnessWorkflow {
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
	pinData?: IPinData;
	name?: string;
}

interface RunOptions {
	workflow: HarnessWorkflow;
	/** The package's node classes (manual trigger, noOp and harness.binaryFixture are always there). */
	nodeTypes: Array<new () => INodeType | IVersionedNodeType>;
	/** Credential type classes; n8n's `oAuth2Api` is always there. */
	credentialTypes?: Array<new () => ICredentialType>;
	/** Credential store; mutated in place by token refreshes. */
	credentials?: HarnessCredential[];
	/** Node to start from (default: n8n's choice, i.e. the trigger). */
	startNode?: string;
	/** Execution mode (default 'manual', as when clicking "Execute workflow"). */
	mode?: WorkflowExecuteMode;
	/** Prefix for bare node description names (default 'n8n-nodes-vendor'). */
	packageName?: string;
	/** Aborts (cancels) the run after this many ms (default: none). */
	timeoutMs?: number;
	/** Cancels the run when this settles (the user's stop, at a moment the test chooses). */
	cancel?: Promise<unknown>;
	/** Node type instances made once per process and kept for later runs, as n8n loads them (the default); false: new ones for this run. */
	loadOnce?: boolean;
}

export interface RunResult {
	run: IRun;
	/** Items of a node's main output (empty array if the node did not run or output nothing there). */
	output(nodeName: string, runIndex?: number, outputIndex?: number): INodeExecutionData[];
	/** The node's execution error (last run), or without a name the run's error. */
	error(nodeName?: string): Error | undefined;
	/** Names of the nodes that ran, in execution order. */
	executedNodes: string[];
	/** The credential store after the run (same array as passed in). */
	credentials: HarnessCredential[];
	/** Workflow static data after the run (plain object). */
	staticData: IDataObject;
	credentialsHelper: HarnessCredentialsHelper;
}

const DEFAULT_PACKAGE = 'n8n-nodes-vendor';
let executionCounter = 0;

function toPlain<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}

function buildAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	executionId: string,
	hooks: ExecutionLifecycleHooks,
	settings: IWorkflowSettings,
): IWorkflowExecuteAdditionalData {
	const base = 'http://127.0.0.1:5678';
	return {
		credentialsHelper,
		executionId,
		hooks,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: base,
		formWaitingBaseUrl: `${base}/form-waiting`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		variables: {},
		workflowSettings: settings,
		// every release the harness runs on has one so far; feature-detected all the same (setup.ts)
		externalSecretsProxy:
			externalSecretsProxy() as IWorkflowExecuteAdditionalData['externalSecretsProxy'],
		executeWorkflow: async () => {
			throw new UnexpectedError('The test harness does not support sub-workflows');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new UnexpectedError('The test harness has no task runner (Code node)');
		},
	};
}

function makeWorkflow(
	wf: HarnessWorkflow,
	nodeTypes: HarnessNodeTypes,
): { workflow: Workflow; settings: IWorkflowSettings } {
	for (const node of wf.nodes) {
		if (!nodeTypes.recognizes(node.type)) nodeTypes.getByName(node.type); // throws a clear error
	}
	const settings: IWorkflowSettings = { executionOrder: 'v1', ...wf.settings };
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: wf.name ?? 'Harness workflow',
		nodes: toPlain(wf.nodes),
		connections: wf.connections,
		active: false,
		nodeTypes,
		staticData: toPlain(wf.staticData ?? {}),
		settings,
		pinData: wf.pinData,
	});
	return { workflow, settings };
}

type Execution = ReturnType<WorkflowExecute['run']>;
/** `run(workflow, startNode, destinationNode, pinData)`: WorkflowExecute.run of the n8n-core releases before the options object (1.x). */
type PositionalRun = (
	workflow: Workflow,
	startNode?: INode,
	destinationNode?: string,
	pinData?: IPinData,
) => Execution;

/**
 * Starts WorkflowExecute.run in the form the release's n8n-core takes: one options object
 * (`run({ workflow, startNode, pinData })`, 2.x), or positional arguments (1.x), told apart by
 * the number of parameters `run` declares.
 */
function startExecution(
	engine: WorkflowExecute,
	workflow: Workflow,
	startNode: INode | undefined,
	pinData: IPinData | undefined,
): Execution {
	if (engine.run.length > 1) {
		noteAdaptation(
			'WorkflowExecute.run takes positional arguments (workflow, startNode, destinationNode, pinData)',
		);
		return (engine.run as unknown as PositionalRun).call(
			engine,
			workflow,
			startNode,
			undefined,
			pinData,
		);
	}
	return engine.run({ workflow, startNode, pinData });
}

/** Runs a workflow through n8n-core's WorkflowExecute and returns the run data. */
export async function runWorkflow(opts: RunOptions): Promise<RunResult> {
	ensureHarnessSetup();
	const mode = opts.mode ?? 'manual';
	const nodeTypes = new HarnessNodeTypes(
		opts.nodeTypes as NodeTypeClass[],
		opts.packageName ?? DEFAULT_PACKAGE,
		opts.loadOnce,
	);
	const store = opts.credentials ?? [];
	const credentialsHelper = new HarnessCredentialsHelper(
		new HarnessCredentialTypes(opts.credentialTypes),
		store,
	);
	const { workflow, settings } = makeWorkflow(opts.workflow, nodeTypes);

	const executionId = String(++executionCounter);
	const workflowData: IWorkflowBase = {
		id: workflow.id,
		name: workflow.name ?? '',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: opts.workflow.nodes,
		connections: opts.workflow.connections,
		settings,
		activeVersionId: null,
	} as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executedNodes: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executedNodes.push(nodeName);
	});
	const additionalData = buildAdditionalData(credentialsHelper, executionId, hooks, settings);

	let startNode: INode | undefined;
	if (opts.startNode !== undefined) {
		startNode = workflow.getNode(opts.startNode) ?? undefined;
		if (!startNode)
			throw new UnexpectedError(`Start node "${opts.startNode}" is not in the workflow`);
	}

	const execution = startExecution(
		new WorkflowExecute(additionalData, mode),
		workflow,
		startNode,
		opts.workflow.pinData,
	);
	let timer: NodeJS.Timeout | undefined;
	if (opts.timeoutMs !== undefined) timer = setTimeout(() => execution.cancel(), opts.timeoutMs);
	void opts.cancel?.then(() => execution.cancel());
	let run: IRun;
	try {
		run = await execution;
	} finally {
		if (timer) clearTimeout(timer);
	}

	const runData = run.data.resultData.runData;
	return {
		run,
		executedNodes,
		credentials: store,
		credentialsHelper,
		staticData: toPlain(workflow.staticData),
		output(nodeName, runIndex = 0, outputIndex = 0) {
			return runData[nodeName]?.[runIndex]?.data?.main?.[outputIndex] ?? [];
		},
		error(nodeName) {
			if (nodeName === undefined) return run.data.resultData.error;
			const runs = runData[nodeName];
			return runs?.[runs.length - 1]?.error;
		},
	};
}

/** Reads a binary property of an output item (works for in-memory and filesystem binary data). */
export async function readBinary(item: INodeExecutionData, property = 'data'): Promise<Buffer> {
	const binary = item.binary?.[property];
	if (!binary) {
		throw new UnexpectedError(
			`Item has no binary property "${property}" (has: ${Object.keys(item.binary ?? {}).join(', ') || 'none'})`,
		);
	}
	ensureHarnessSetup();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

/** Builds an item with in-memory binary data, e.g. for `workflow.pinData`. */
export function binaryItem(
	buffer: Buffer | string,
	fileName: string,
	mimeType: string,
	json: IDataObject = {},
	property = 'data',
): INodeExecutionData {
	const data = Buffer.isBuffer(buffer) ? buffer : Buffer.from(buffer);
	const dot = fileName.lastIndexOf('.');
	const binary: IBinaryData = {
		data: data.toString(BINARY_ENCODING),
		mimeType,
		fileName,
		fileSize: `${data.length} B`,
		bytes: data.length,
		...(dot > 0 ? { fileExtension: fileName.slice(dot + 1) } : {}),
	};
	return { json, binary: { [property]: binary } };
}

interface PollOptions {
	nodeType: new () => INodeType | IVersionedNodeType;
	node: INode;
	credentials?: HarnessCredential[];
	credentialTypes?: Array<new () => ICredentialType>;
	/** Workflow static data before the poll (node data lives under `node:<node name>`). */
	staticData?: IDataObject;
	mode?: 'manual' | 'trigger';
	packageName?: string;
	/** The workflow's settings (its time zone, ...). */
	settings?: IWorkflowSettings;
}

interface PollResult {
	items: INodeExecutionData[][] | null;
	/** Workflow static data after the poll (plain object; feed it to the next pollOnce). */
	staticData: IDataObject;
	credentials: HarnessCredential[];
}

export interface SingleNodeOptions {
	nodeType: new () => INodeType | IVersionedNodeType;
	node: INode;
	credentials?: HarnessCredential[];
	credentialTypes?: Array<new () => ICredentialType>;
	staticData?: IDataObject;
	packageName?: string;
	/** The workflow's settings (its time zone, ...). */
	settings?: IWorkflowSettings;
	/** As RunOptions.loadOnce. */
	loadOnce?: boolean;
}

/** A one-node workflow with its node type and the additional data a context needs (also used by ./activation.ts). */
export function singleNode(opts: SingleNodeOptions, mode: WorkflowExecuteMode) {
	ensureHarnessSetup();
	const nodeTypes = new HarnessNodeTypes(
		[opts.nodeType as NodeTypeClass],
		opts.packageName ?? DEFAULT_PACKAGE,
		opts.loadOnce,
	);
	const credentialsHelper = new HarnessCredentialsHelper(
		new HarnessCredentialTypes(opts.credentialTypes),
		opts.credentials ?? [],
	);
	const { workflow, settings } = makeWorkflow(
		{ nodes: [opts.node], connections: {}, staticData: opts.staticData, settings: opts.settings },
		nodeTypes,
	);
	const nodeType = nodeTypes.getByNameAndVersion(
		opts.node.type,
		opts.node.typeVersion,
	) as INodeType;
	const executionId = String(++executionCounter);
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name ?? '',
		nodes: [opts.node],
		connections: {},
		settings,
	} as IWorkflowBase);
	const additionalData = buildAdditionalData(credentialsHelper, executionId, hooks, settings);
	return { workflow, nodeType, additionalData, node: workflow.getNode(opts.node.name)! };
}

/** Builds a real PollContext (as n8n's ActiveWorkflows / manual "fetch test event" do) and calls poll(). */
export async function pollOnce(opts: PollOptions): Promise<PollResult> {
	const mode = opts.mode ?? 'trigger';
	const { workflow, nodeType, additionalData, node } = singleNode(opts, mode);
	if (!nodeType.poll) throw new UnexpectedError(`Node type "${opts.node.type}" has no poll()`);
	const context = new PollContext(
		workflow,
		node,
		additionalData,
		mode,
		mode === 'manual' ? 'manual' : 'activate',
	);
	const items = await nodeType.poll.call(context);
	return { items, staticData: toPlain(workflow.staticData), credentials: opts.credentials ?? [] };
}

interface ListSearchOptions {
	nodeType: new () => INodeType | IVersionedNodeType;
	/** The node as configured in the editor (its parameters feed `getCurrentNodeParameter`). */
	node: INode;
	method: string;
	filter?: string;
	paginationToken?: string;
	credentials?: HarnessCredential[];
	credentialTypes?: Array<new () => ICredentialType>;
	packageName?: string;
}

/** Calls a node's `listSearch` method in a real LoadOptionsContext, as the editor does for a resource locator. */
export async function listSearch(opts: ListSearchOptions): Promise<INodeListSearchResult> {
	const { workflow, nodeType, additionalData, node } = singleNode(opts, 'internal');
	const method = nodeType.methods?.listSearch?.[opts.method];
	if (!method)
		throw new UnexpectedError(
			`Node type "${opts.node.type}" has no listSearch method "${opts.method}"`,
		);
	// The editor sends the node's current parameters along with the request.
	additionalData.currentNodeParameters = opts.node.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await method.call(context, opts.filter, opts.paginationToken);
}
