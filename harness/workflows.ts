/**
 * The package's nodes on the harness against the emulator, for the tests, the benchmarks and the
 * demo: the node types, a credential connected to an emulator (Custom region), workflows
 * "Manual Trigger -> node -> node ..." run by n8n's engine, and an emulator with that credential.
 */
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';

import { DEFAULT_SCOPES, VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { VendorBilling } from '../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../nodes/VendorProjects/VendorProjects.node';
import { VendorBillingTrigger } from '../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import type { Emulator, EmulatorOptions, RecordedRequest } from '../emulator/server';
import { apiClient, startEmulator } from '../emulator/server';
import type { Tenant } from '../emulator/store';
import { listSearch, runWorkflow, UNPACED_PER_MINUTE } from './index';
import type { HarnessCredential, RunResult } from './index';

const TRIGGER_TYPES = [
	VendorBooksTrigger,
	VendorInvoiceTrigger,
	VendorProjectsTrigger,
	VendorBillingTrigger,
	VendorInventoryTrigger,
];
export const NODE_TYPES = [
	VendorBooks,
	VendorProjects,
	VendorInvoice,
	VendorBilling,
	VendorInventory,
	...TRIGGER_TYPES,
];
export const CREDENTIAL_ID = 'vendor-cred-1';
export const CREDENTIAL_NAME = 'Vendor (emulator)';

/** A token-endpoint request carrying no grant: the package's check that the endpoint does not redirect. */
export function isRedirectCheck(r: { path: string; body?: unknown }): boolean {
	const body = (r.body ?? {}) as IDataObject;
	return (
		r.path.endsWith('/oauth/v2/token') &&
		body.refresh_token === undefined &&
		body.code === undefined
	);
}

/** The credential a user would create for the emulator: region Custom, connected (tokens stored). */
export function connectedCredential(em: Emulator, region = 'us'): HarnessCredential {
	const urls = em.regionUrls(region);
	const tokens = em.issueToken({ region });
	return {
		id: CREDENTIAL_ID,
		name: CREDENTIAL_NAME,
		type: 'vendorOAuth2Api',
		data: {
			region: 'custom',
			accountsUrl: urls.accounts,
			apiUrl: urls.api,
			projectsUrl: urls.projects,
			clientId: em.defaultClient.clientId,
			clientSecret: em.defaultClient.clientSecret,
			scope: DEFAULT_SCOPES,
			accountingRequestsPerMinute: UNPACED_PER_MINUTE,
			oauthTokenData: { ...tokens } as unknown as IDataObject,
		},
	};
}

/** How a node references the emulator credential. */
const CREDENTIAL_REF = { vendorOAuth2Api: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } };

type VendorNodeType = new () => INodeType | IVersionedNodeType;

/** Each node type's name, read once: `new` builds the whole description from the tables. */
const typeNames = new WeakMap<VendorNodeType, string>();

function typeName(nodeType: VendorNodeType): string {
	let typeName = typeNames.get(nodeType);
	if (typeName === undefined) {
		typeName = new nodeType().description.name;
		typeNames.set(nodeType, typeName);
	}
	return typeName;
}

/** A node of the package (`n8n-nodes-vendor.<name>`) configured with `parameters`, using the emulator credential. */
export function vendorNode(
	nodeType: VendorNodeType,
	parameters: IDataObject,
	name = 'Node',
): INode {
	return {
		id: name,
		name,
		type: `n8n-nodes-vendor.${typeName(nodeType)}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INodeParameters,
		credentials: CREDENTIAL_REF,
	};
}

export interface Step {
	name: string;
	/** `vendorBooks`, `vendorProjects`, ... (package prefix added) or a full type. */
	type: string;
	parameters: INodeParameters;
	/** Node settings: `onError`, `executeOnce`, ... */
	settings?: Partial<INode>;
}

/** A maker of steps of one node type sharing base parameters (organisation, resource, ...). */
export function steps(type: string, base: IDataObject) {
	return (name: string, parameters: IDataObject, settings: Partial<INode> = {}): Step => ({
		name,
		type,
		parameters: { ...base, ...parameters } as INodeParameters,
		settings,
	});
}

/** n8n's Manual Trigger, named Start. */
function startNode(id: string): INode {
	return {
		id,
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/** A No Operation node named Input, which holds a workflow's pinned input items. */
function inputNode(): INode {
	return {
		id: 'input',
		name: 'Input',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [100, 0],
		parameters: {},
	};
}

/**
 * A workflow whose pinned input `items` go to every node of `fed` at once: Manual Trigger ->
 * Input -> each of `fed`; `others` are in the workflow but not fed (connect them in `connections`).
 */
export function fedByInput(
	items: INodeExecutionData[],
	fed: INode[],
	others: INode[] = [],
): { nodes: INode[]; connections: IConnections; pinData: Record<string, INodeExecutionData[]> } {
	return {
		nodes: [startNode('start'), inputNode(), ...fed, ...others],
		connections: {
			Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
			Input: { main: [fed.map((n) => ({ node: n.name, type: 'main' as const, index: 0 }))] },
		},
		pinData: { Input: items },
	};
}

/** A linear workflow: Manual Trigger -> steps..., optionally with pinned input items for the first step. */
export function chain(
	steps: Step[],
	input?: Array<IDataObject | INodeExecutionData>,
): { nodes: INode[]; connections: IConnections; pinData?: Record<string, INodeExecutionData[]> } {
	const nodes: INode[] = [startNode('trigger')];
	let previous = 'Start';
	const connections: IConnections = {};
	if (input) {
		nodes.push(inputNode());
		connections.Start = { main: [[{ node: 'Input', type: 'main', index: 0 }]] };
		previous = 'Input';
	}
	steps.forEach((step, i) => {
		nodes.push({
			id: `n${i}`,
			name: step.name,
			type: step.type.includes('.') ? step.type : `n8n-nodes-vendor.${step.type}`,
			typeVersion: 1,
			position: [200 * (i + 1), 0],
			parameters: step.parameters,
			credentials: CREDENTIAL_REF,
			...step.settings,
		});
		connections[previous] = { main: [[{ node: step.name, type: 'main', index: 0 }]] };
		previous = step.name;
	});
	return {
		nodes,
		connections,
		pinData: input
			? { Input: input.map((i) => (isExecutionData(i) ? i : { json: i })) }
			: undefined,
	};
}

function isExecutionData(item: IDataObject | INodeExecutionData): item is INodeExecutionData {
	return typeof item.json === 'object' && item.json !== null;
}

interface PickerCall {
	filter?: string;
	paginationToken?: string;
}

/** An emulator with the connected credential: runs steps as workflows, calls the API as a script would, reads what the emulator received. */
export class WorkflowEnv {
	em!: Emulator;

	credentials: HarnessCredential[] = [];

	/** Calls the API directly, as a script would (set-up and read-back around a workflow), with the stored access token. */
	call = async (...args: Parameters<ReturnType<typeof apiClient>>) =>
		await apiClient(this.em, { token: String(this.storedToken.access_token) })(...args);

	get org(): string {
		return this.em.organizationId;
	}

	get portal(): string {
		return this.em.portalId;
	}

	/** The emulator's data of its US organisation. */
	orgTenant(): Tenant {
		const tenant = this.em.store.org('us', this.org);
		if (!tenant) throw new Error(`no organisation ${this.org}`);
		return tenant;
	}

	/** The emulator's data of its US portal. */
	portalTenant(): Tenant {
		const tenant = this.em.store.portal('us', this.portal);
		if (!tenant) throw new Error(`no portal ${this.portal}`);
		return tenant;
	}

	/** A maker of steps of an organisation-scoped node (Books, Invoice, Billing, Inventory) in the emulator's organisation. */
	orgSteps(type: string, base: IDataObject): ReturnType<typeof steps> {
		return (name, parameters, settings) =>
			steps(type, { organizationId: this.org, ...base })(name, parameters, settings);
	}

	/** A maker of Vendor Projects steps in the emulator's portal (`portal_id` by ID). */
	portalSteps(base: IDataObject): ReturnType<typeof steps> {
		return (name, parameters, settings) =>
			steps('vendorProjects', { ...base, portal_id: byId(this.portal) })(
				name,
				parameters,
				settings,
			);
	}

	/** A maker of steps of any Vendor node: in the emulator's portal for Vendor Projects, in its organisation for the others. */
	areaSteps(type: string, base: IDataObject): ReturnType<typeof steps> {
		return type === 'vendorProjects' ? this.portalSteps(base) : this.orgSteps(type, base);
	}

	/**
	 * A resource-locator picker: the listSearch `method` of a node configured with `parameters`,
	 * called as the editor does, with the emulator credential.
	 */
	picker(
		nodeType: VendorNodeType,
		method: string,
		parameters: IDataObject,
	): (options?: PickerCall) => Promise<INodeListSearchResult> {
		const node = vendorNode(nodeType, parameters);
		return async (options = {}) =>
			await listSearch({
				nodeType,
				node,
				method,
				credentials: this.credentials,
				credentialTypes: [VendorOAuth2Api],
				...options,
			});
	}

	async start(opts: EmulatorOptions = {}): Promise<this> {
		this.em = await startEmulator(opts);
		this.credentials = [connectedCredential(this.em)];
		return this;
	}

	async stop(): Promise<void> {
		await this.em?.close();
	}

	/** Runs the steps; `timeoutMs` stops (cancels) the execution after that long. */
	async run(
		steps: Step[],
		input?: Array<IDataObject | INodeExecutionData>,
		{ timeoutMs }: { timeoutMs?: number } = {},
	): Promise<RunResult> {
		return await runWorkflow({
			timeoutMs,
			workflow: chain(steps, input),
			nodeTypes: NODE_TYPES,
			credentialTypes: [VendorOAuth2Api],
			credentials: this.credentials,
		});
	}

	/** Requests that reached an API area (not the accounts server). */
	apiRequests(): RecordedRequest[] {
		return this.em.requests.filter((r) => r.area && r.area !== 'accounts');
	}

	/** The token calls (a grant: a refresh token or a code), not the redirect checks before a refresh, which carry no secret. */
	tokenRequests(): RecordedRequest[] {
		return this.em.requests.filter((r) => r.area === 'accounts' && !isRedirectCheck(r));
	}

	get storedToken(): IDataObject {
		return this.credentials[0].data.oauthTokenData as IDataObject;
	}
}

export function json(result: RunResult, node: string): IDataObject[] {
	return result.output(node).map((i) => i.json);
}

/** Fails with the node's error message if a node failed. */
export function expectNoError(result: RunResult): void {
	const error = result.error();
	if (error)
		throw new Error(
			`workflow failed: ${error.message} ${(error as { description?: string }).description ?? ''}`,
		);
}

/** A resource-locator value in "By ID" mode. */
export const byId = (value: string): IDataObject => ({ __rl: true, mode: 'id', value });
