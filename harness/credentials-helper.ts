import './env';

import { Credentials, getAdditionalKeys } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialsExpressionResolveValues,
	type ICredentialType,
	type IDataObject,
	type IExecuteData,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IWorkflowDataProxyAdditionalKeys,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { noteAdaptation } from './compat';
import { OAuth2Api } from './oauth2-api.credentials';

/** One stored credential (what n8n keeps in its `credentials_entity` table, decrypted). */
export interface HarnessCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

type CredentialTypeClass = new () => ICredentialType;

/** Known credential types, by name; `oAuth2Api` is always present. Mirrors n8n's `CredentialTypes`. */
export class HarnessCredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	constructor(classes: CredentialTypeClass[] = []) {
		for (const Cls of [OAuth2Api, ...classes]) {
			const instance = new Cls();
			this.types.set(instance.name, instance);
		}
	}

	recognizes(name: string): boolean {
		return this.types.has(name);
	}

	getByName(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type)
			throw new UnexpectedError(`Unknown credential type "${name}" (not given to the harness)`);
		return type;
	}

	/** All ancestors, nearest first (same algorithm as n8n's CredentialTypes.getParentTypes). */
	getParentTypes(name: string): string[] {
		const direct = this.types.get(name)?.extends ?? [];
		const result = [...direct];
		for (const parent of direct) result.push(...this.getParentTypes(parent));
		return result;
	}
}

/** Mock node/node types used to resolve credential expressions outside a node's context (as n8n does). */
const mockNode: INode = {
	id: 'harness-credential-mock',
	name: 'mock',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const mockNodeType = { description: { properties: [] } } as unknown as INodeType;
const mockNodeTypes: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: () => mockNodeType,
	getByNameAndVersion: () => mockNodeType,
};

function deepCopy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * In-memory replacement for n8n's CredentialsHelper (packages/cli/src/credentials-helper.ts).
 * Reads and writes the given `store` array in place.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Every write made through updateCredentials / updateCredentialsOauthTokenData, in order. */
	readonly updates: Array<{ id: string; type: string; data: ICredentialDataDecryptedObject }> = [];

	constructor(
		readonly credentialTypes: HarnessCredentialTypes,
		readonly store: HarnessCredential[],
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	/** Finds the stored credential by id (as n8n does); falls back to the name when the node gives no id. */
	findStored(nodeCredentials: INodeCredentialsDetails, type: string): HarnessCredential {
		const found = nodeCredentials.id
			? this.store.find((c) => c.id === nodeCredentials.id && c.type === type)
			: this.store.find((c) => c.name === nodeCredentials.name && c.type === type);
		if (!found) {
			throw new UnexpectedError(
				`Credential with ID "${nodeCredentials.id ?? ''}" / name "${nodeCredentials.name}" and type "${type}" is not in the harness store`,
			);
		}
		return found;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const stored = this.findStored(nodeCredentials, type);
		const credentials = new Credentials({ id: stored.id, name: stored.name }, type);
		// synchronous in some n8n-core releases, a promise in others (2.20+): awaiting covers both
		const set: unknown = credentials.setData(deepCopy(stored.data));
		if (set instanceof Promise) {
			noteAdaptation("n8n-core's Credentials.setData / getData are async: awaited");
			await set;
		}
		return credentials;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (credentialType.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				// n8n adds this special property that holds the tokens
				return [
					...credentialType.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialType.properties;
		}
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		// properties defined on the child take precedence
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentials = await this.getCredentials(nodeCredentials, type);
		// `await` also takes the plain object of the releases where getData is synchronous
		const original = (await (credentials.getData() as
			| ICredentialDataDecryptedObject
			| Promise<ICredentialDataDecryptedObject>)) as ICredentialDataDecryptedObject;
		if (raw === true) return original;
		return this.applyDefaultsAndResolve(
			additionalData,
			original,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** n8n's `applyDefaultsAndOverwrites` (minus overwrites and external secrets). */
	applyDefaultsAndResolve(
		additionalData: IWorkflowExecuteAdditionalData,
		original: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
		let decrypted = (NodeHelpers.getNodeParameters(
			properties,
			deepCopy(original) as INodeParameters,
			true,
			false,
			null,
			null,
		) ?? {}) as ICredentialDataDecryptedObject;
		if (original.oauthTokenData !== undefined) {
			// not a declared property, so getNodeParameters drops it: put it back
			decrypted.oauthTokenData = original.oauthTokenData;
		}
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { secretsEnabled: false });
		if (expressionResolveValues) {
			let failure: unknown;
			try {
				decrypted = expressionResolveValues.workflow.expression.getParameterValue(
					decrypted as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decrypted,
				) as ICredentialDataDecryptedObject;
			} catch (e) {
				failure = e;
			}
			if (failure) {
				(failure as Error).message += ' [Error resolving credentials]';
				throw failure;
			}
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decrypted = workflow.expression.getComplexParameterValue(
				mockNode,
				decrypted as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decrypted,
			) as ICredentialDataDecryptedObject;
		}
		return decrypted;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.findStored(nodeCredentials, type);
		// n8n replaces the whole stored data with what it is given (already defaulted and resolved)
		stored.data = deepCopy(data);
		this.updates.push({ id: stored.id, type, data: deepCopy(data) });
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		await this.updateCredentials(nodeCredentials, type, data);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (typeof authenticate === 'object' && authenticate.type === 'generic') {
			if (requestOptions.headers === undefined) requestOptions.headers = {};
			const target = requestOptions as unknown as Record<string, IDataObject | undefined>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as IDataObject)) {
					const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = this.resolveValue(
						value as string,
						{ $credentials: credentials },
						workflow,
						node,
					);
					target[outerKey] = target[outerKey] ?? {};
					target[outerKey]![keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (typeof parameterValue !== 'string' || parameterValue.charAt(0) !== '=')
			return parameterValue;
		const value = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		return value ? String(value) : '';
	}

	/**
	 * n8n's runPreAuthentication (called by the n8n-core releases that have it, 2.20+, around an
	 * OAuth2 request): the credential type's preAuthentication(), if it has one, on the credentials
	 * as they are; its output, or undefined. Releases that do not call it never reach it.
	 */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		noteAdaptation("n8n-core calls the credentials helper's runPreAuthentication");
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		return (
			((await credentialType.preAuthentication.call(helpers, credentials)) as
				| ICredentialDataDecryptedObject
				| undefined) ?? undefined
		);
	}

	/**
	 * n8n's isCredentialUsableByNode (asked by the n8n-core releases that have it, 2.40+, before a
	 * node reads a credential): true unless the type restricts itself to its supported nodes.
	 */
	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		noteAdaptation("n8n-core asks the credentials helper's isCredentialUsableByNode");
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const type = this.credentialTypes.getByName(credentialType) as ICredentialType & {
			restrictToSupportedNodes?: boolean;
		};
		if (!type.restrictToSupportedNodes) return true;
		const supported = type.supportedNodes ?? [];
		return supported.includes(nodeType) || supported.some((name) => nodeType.endsWith(`.${name}`));
	}

	/** n8n's preAuthentication: refreshes a `hidden` + `expirable` property via the type's preAuthentication(). */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined || typeof credentialType.preAuthentication !== 'function')
			return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) {
			throw new UnexpectedError(
				'The property returned by pre-authentication is not the expirable property',
			);
		}
		const nodeCredentials = node.credentials?.[credentialType.name];
		if (!nodeCredentials) return undefined;
		await this.updateCredentials(
			nodeCredentials,
			credentialType.name,
			Object.assign(credentials, output),
		);
		return Object.assign(credentials, output);
	}
}

/** Accounting Requests per Minute for tests and benchmarks that do not measure pacing: far above any run's rate (test/workflows/accounting-pacing.test.ts and bench/accounting-pacing.ts set the real figure). */
export const UNPACED_PER_MINUTE = 1_000_000;
