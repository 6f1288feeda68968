/**
 * Shared set-up of workflow tests: an emulator, a credential connected to it (Custom
 * region), and workflows "Manual Trigger -> node -> node ..." run by n8n's engine.
 */
import type { IConnections, IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { DEFAULT_SCOPES } from '../../credentials/VendorOAuth2Api.credentials';
import type { Emulator, EmulatorOptions, RecordedRequest } from '../emulator/server';
import { startEmulator } from '../emulator/server';
import { runWorkflow } from '../harness';
import type { HarnessCredential, RunResult } from '../harness';

export const TRIGGER_TYPES = [VendorBooksTrigger, VendorInvoiceTrigger, VendorProjectsTrigger, VendorBillingTrigger, VendorInventoryTrigger];
export const NODE_TYPES = [VendorBooks, VendorProjects, VendorInvoice, VendorBilling, VendorInventory, ...TRIGGER_TYPES];
export const CREDENTIAL_ID = 'vendor-cred-1';

/** The credential a user would create for the emulator: region Custom, connected (tokens stored). */
export function connectedCredential(em: Emulator, region = 'us'): HarnessCredential {
	const urls = em.regionUrls(region);
	const tokens = em.issueToken({ region });
	return {
		id: CREDENTIAL_ID,
		name: 'Vendor (emulator)',
		type: 'vendorOAuth2Api',
		data: {
			region: 'custom',
			accountsUrl: urls.accounts,
			apiUrl: urls.api,
			projectsUrl: urls.projects,
			clientId: em.defaultClient.clientId,
			clientSecret: em.defaultClient.clientSecret,
			scope: DEFAULT_SCOPES,
			oauthTokenData: { ...tokens } as unknown as IDataObject,
		},
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

/** A linear workflow: Manual Trigger -> steps..., optionally with pinned input items for the first step. */
export function chain(steps: Step[], input?: Array<IDataObject | INodeExecutionData>): { nodes: INode[]; connections: IConnections; pinData?: Record<string, INodeExecutionData[]> } {
	const trigger: INode = { id: 'trigger', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const nodes: INode[] = [trigger];
	let previous = 'Start';
	const connections: IConnections = {};
	if (input) {
		nodes.push({ id: 'input', name: 'Input', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [100, 0], parameters: {} });
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
			credentials: { vendorOAuth2Api: { id: CREDENTIAL_ID, name: 'Vendor (emulator)' } },
			...step.settings,
		});
		connections[previous] = { main: [[{ node: step.name, type: 'main', index: 0 }]] };
		previous = step.name;
	});
	return { nodes, connections, pinData: input ? { Input: input.map((i) => (isExecutionData(i) ? i : { json: i })) } : undefined };
}

function isExecutionData(item: IDataObject | INodeExecutionData): item is INodeExecutionData {
	return typeof item.json === 'object' && item.json !== null;
}

export class WorkflowEnv {
	em!: Emulator;

	credentials: HarnessCredential[] = [];

	async start(opts: EmulatorOptions = {}): Promise<this> {
		this.em = await startEmulator(opts);
		this.credentials = [connectedCredential(this.em)];
		return this;
	}

	async stop(): Promise<void> {
		await this.em?.close();
	}

	async run(steps: Step[], input?: Array<IDataObject | INodeExecutionData>): Promise<RunResult> {
		return await runWorkflow({
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

	tokenRequests(): RecordedRequest[] {
		return this.em.requests.filter((r) => r.area === 'accounts');
	}

	get storedToken(): IDataObject {
		return this.credentials[0].data.oauthTokenData as IDataObject;
	}
}

export function json(result: RunResult, node: string): IDataObject[] {
	return result.output(node).map((i) => i.json);
}

/**
 * A recorded API request as the tests compare it: method, path below `/{region}/api`,
 * query, body, and the organisation header of the areas that send it in a header
 * (`org`, undefined for the others).
 */
export function apiCall(r: RecordedRequest): IDataObject {
	const org = r.headers['x-com-vendor-invoice-organizationid'] ?? r.headers['x-com-vendor-subscriptions-organizationid'];
	return { method: r.method, path: r.path.replace(/^\/[a-z]+\/api(?=\/)/, ''), query: r.query, org, body: r.body as IDataObject };
}

/** Fails with the node's error message if a node failed. */
export function expectNoError(result: RunResult): void {
	const error = result.error();
	if (error) throw new Error(`workflow failed: ${error.message} ${(error as { description?: string }).description ?? ''}`);
}

/** A resource-locator value in "By ID" mode. */
export const byId = (value: string): IDataObject => ({ __rl: true, mode: 'id', value });

