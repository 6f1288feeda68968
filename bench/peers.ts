/**
 * The two peers of bench/vs-http-request.ts and bench/cpu-profile.ts: the same request per
 * item to the emulator, made by Vendor Books or by n8n's HTTP Request node with the same
 * `Authorization: Vendor-oauthtoken <token>` header and `organization_id` query, each in a
 * workflow "Manual Trigger -> Input (n items, pinned) -> Get" run by n8n-core's engine
 * (harness/), the node types loaded once per process as n8n loads them. The request is
 * the GET of one item (Item → Get) or the POST of a new item `{"name":"Bench widget","rate":1}`
 * (Item → Create).
 *
 * Imports only the node and credential classes, the harness and the emulator: nothing of
 * nodes/shared (Requests in Flight's default and maximum come from the node's description).
 */
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';

import { DEFAULT_SCOPES, VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { VendorBooks } from '../nodes/VendorBooks/VendorBooks.node';
import { DEFAULT_CLIENT, DEFAULT_ORGANIZATION_ID } from '../emulator/server';
import { runWorkflow, UNPACED_PER_MINUTE } from '../harness';
import type { HarnessCredential, HarnessWorkflow } from '../harness';
import { loadHttpRequestNode } from './setup-http-request';
import { admin } from './support';
import { process, globalThis } from '../host/globals';
import { createRequire } from '../host/module';

const CREDENTIAL = { id: 'bench-vendor', name: 'Vendor (emulator)' };

/** The emulator's side of the comparison: one item to read, a connected credential and its token. */
export interface Fixture {
	url: string;
	token: string;
	organizationId: string;
	itemId: string;
	credentials: HarnessCredential[];
}

export async function fixture(
	url: string,
	credential: { id: string; name: string } = CREDENTIAL,
): Promise<Fixture> {
	const tokens = await admin(url, 'POST', 'tokens', { region: 'us' });
	const token = String(tokens.access_token);
	const created = await fetch(
		`${url}/us/api/books/v3/items?organization_id=${DEFAULT_ORGANIZATION_ID}`,
		{
			method: 'POST',
			headers: { Authorization: `Vendor-oauthtoken ${token}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: 'Bench widget', rate: 1 }),
		},
	);
	const itemId = String(((await created.json()) as { item: IDataObject }).item.item_id);
	const credentials: HarnessCredential[] = [
		{
			...credential,
			type: 'vendorOAuth2Api',
			data: {
				region: 'custom',
				accountsUrl: `${url}/us`,
				apiUrl: `${url}/us/api`,
				projectsUrl: `${url}/us/projects`,
				clientId: DEFAULT_CLIENT.clientId,
				clientSecret: DEFAULT_CLIENT.clientSecret,
				scope: DEFAULT_SCOPES,
				accountingRequestsPerMinute: UNPACED_PER_MINUTE,
				oauthTokenData: tokens,
			},
		},
	];
	return { url, token, organizationId: DEFAULT_ORGANIZATION_ID, itemId, credentials };
}

/** Options → Requests in Flight of Vendor Books: default and maximum, from the node's description. */
export function requestsInFlightLimits(): { default: number; max: number } {
	const options = new VendorBooks().description.properties.find(
		(p) =>
			p.name === 'options' &&
			p.options?.some((o) => (o as INodeProperties).name === 'requestsInFlight'),
	);
	const rif = options?.options?.find((o) => (o as INodeProperties).name === 'requestsInFlight') as
		| INodeProperties
		| undefined;
	if (!rif) throw new Error('Vendor Books has no Options → Requests in Flight');
	return { default: Number(rif.default), max: Number(rif.typeOptions?.maxValue) };
}

export type PeerName = 'vendor' | 'httpRequest';

/** What each item sends: the GET of the fixture's item, or the POST of a new item. */
export type BenchOperation = 'get' | 'create';

/** The body of every Create. */
export const CREATE_BODY = { name: 'Bench widget', rate: 1 };

/** How the peer is configured: the operation (Get when absent), Vendor's Requests in Flight, HTTP Request's Options → Batching (off when absent). */
interface PeerConfig {
	operation?: BenchOperation;
	requestsInFlight?: number;
	batch?: { batchSize: number; batchInterval: number };
}

function workflow(get: INode, items: number): HarnessWorkflow {
	const nodes: INode[] = [
		{
			id: 'trigger',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'input',
			name: 'Input',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
		{ ...get, id: 'get', name: 'Get', position: [400, 0] },
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
		Input: { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
	};
	const input: INodeExecutionData[] = Array.from({ length: items }, (_, i) => ({ json: { i } }));
	return { nodes, connections, pinData: { Input: input } };
}

let httpRequest:
	| { HttpRequest: new () => IVersionedNodeType | INodeType; version: string; typeVersion: number }
	| undefined;

/** n8n's HTTP Request node class and the version a new node gets in the editor (its default version). */
export function httpRequestNode(): NonNullable<typeof httpRequest> {
	if (!httpRequest) {
		const { HttpRequest, version } = loadHttpRequestNode();
		const typeVersion = Number(
			(new HttpRequest() as IVersionedNodeType).description.defaultVersion,
		);
		httpRequest = { HttpRequest, version, typeVersion };
	}
	return httpRequest;
}

/** Vendor Books → Item → Get of the fixture's item (or Create of a new one), Organization By ID. */
function vendorGet(fx: Fixture, config: PeerConfig): INode {
	const what =
		config.operation === 'create'
			? {
					operation: 'create',
					name: CREATE_BODY.name,
					additionalFields: { rate: CREATE_BODY.rate },
				}
			: { operation: 'get', item_id: { __rl: true, mode: 'id', value: fx.itemId } };
	const parameters = {
		organizationId: { __rl: true, mode: 'id', value: fx.organizationId },
		resource: 'item',
		...what,
		options:
			config.requestsInFlight === undefined ? {} : { requestsInFlight: config.requestsInFlight },
	};
	return {
		id: '',
		name: '',
		type: 'n8n-nodes-vendor.vendorBooks',
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INodeParameters,
		credentials: { vendorOAuth2Api: CREDENTIAL },
	};
}

/** HTTP Request GET of the same URL (or POST of the same JSON body), Authentication None, the token as a header and the organisation as a query parameter. */
function httpRequestGet(fx: Fixture, config: PeerConfig): INode {
	const create = config.operation === 'create';
	const parameters = {
		method: create ? 'POST' : 'GET',
		url: create
			? `${fx.url}/us/api/books/v3/items`
			: `${fx.url}/us/api/books/v3/items/${fx.itemId}`,
		...(create
			? {
					sendBody: true,
					contentType: 'json',
					specifyBody: 'json',
					jsonBody: JSON.stringify(CREATE_BODY),
				}
			: {}),
		authentication: 'none',
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: { parameters: [{ name: 'organization_id', value: fx.organizationId }] },
		sendHeaders: true,
		specifyHeaders: 'keypair',
		headerParameters: {
			parameters: [{ name: 'Authorization', value: `Vendor-oauthtoken ${fx.token}` }],
		},
		options: config.batch ? { batching: { batch: config.batch } } : {},
	};
	return {
		id: '',
		name: '',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: httpRequestNode().typeVersion,
		position: [0, 0],
		parameters: parameters as INodeParameters,
	};
}

export interface Measured {
	/** Wall time of the workflow, ms. */
	took: number;
	/** CPU time (user + system) of this process during the workflow, ms. */
	cpuMs: number;
	/** Times the process waited (voluntary context switches: mostly the event loop waiting for the network). */
	waits?: number;
}

/** Runs `items` GETs through one peer's workflow; checks every item came back with the fixture's item. */
export async function runPeer(
	peer: PeerName,
	fx: Fixture,
	items: number,
	config: PeerConfig = {},
): Promise<Measured> {
	const run =
		peer === 'vendor'
			? () =>
					runWorkflow({
						workflow: workflow(vendorGet(fx, config), items),
						nodeTypes: [VendorBooks],
						credentialTypes: [VendorOAuth2Api],
						credentials: fx.credentials,
						loadOnce: true,
					})
			: () =>
					runWorkflow({
						workflow: workflow(httpRequestGet(fx, config), items),
						nodeTypes: [httpRequestNode().HttpRequest],
						packageName: 'n8n-nodes-base',
						loadOnce: true,
					});
	const cpu = process.cpuUsage();
	const waited = process.resourceUsage().voluntaryContextSwitches;
	const started = performance.now();
	const result = await run();
	const took = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const waits = process.resourceUsage().voluntaryContextSwitches - waited;
	const error = result.error('Get') ?? result.error();
	if (error) throw error;
	const output = result.output('Get');
	if (output.length !== items)
		throw new Error(`${peer}: expected ${items} items, got ${output.length}`);
	for (const at of [0, items - 1]) {
		const json = output[at].json;
		const item = (peer === 'vendor' ? json : json.item) as IDataObject | undefined;
		const expected =
			config.operation === 'create'
				? item?.name === CREATE_BODY.name && item?.item_id !== fx.itemId
				: item?.item_id === fx.itemId;
		if (!expected)
			throw new Error(
				`${peer}: item ${at} is not the ${config.operation === 'create' ? 'new' : "fixture's"} item: ${JSON.stringify(json).slice(0, 200)}`,
			);
	}
	return { took, cpuMs: (used.user + used.system) / 1000, waits };
}

/** Runs the garbage collector when node was started with --expose-gc, so that one run's garbage is not charged to the next. */
export function collectGarbage(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

/**
 * Requests in flight as n8n's side sees them, whichever node sends them: both peers' requests
 * go through n8n-core's axios, whose interceptors count each from its start to its answer's
 * headers. `reset()` before a run, `max()` after it.
 */
export function inFlightCounter(): { reset: () => void; max: () => number } {
	type Interceptors = {
		request: { use: (f: (c: unknown) => unknown) => void };
		response: { use: (ok: (r: unknown) => unknown, failed: (e: unknown) => unknown) => void };
	};
	const axios = createRequire(require.resolve('n8n-core'))('axios') as {
		interceptors: Interceptors;
	};
	let active = 0;
	let most = 0;
	axios.interceptors.request.use((config) => {
		most = Math.max(most, ++active);
		return config;
	});
	axios.interceptors.response.use(
		(response) => {
			active--;
			return response;
		},
		(error) => {
			active--;
			throw error;
		},
	);
	return {
		reset: () => {
			active = 0;
			most = 0;
		},
		max: () => most,
	};
}
