/**
 * Runs in a version-matrix child process (entry: matrix-child.js), where `n8n-core`,
 * `n8n-workflow`, `zod` and the other n8n modules are those of one n8n release
 * (`.cache/n8n-matrix/<release>/node_modules`), for the test harness through the redirected
 * resolution and for the installed package through NODE_PATH.
 *
 * Loads the installed package (MATRIX_PACKAGE_DIR) once with that release's
 * PackageDirectoryLoader, tells the parent what it loaded and which modules it runs on, then
 * serves the parent's requests over the IPC channel, one at a time:
 *
 *   { id, cmd: 'run', workflow, credentials, timeoutMs? }  a workflow on that release's WorkflowExecute
 *   { id, cmd: 'setPacingRule', rule }                      the installed package's own pacer module
 *   { id, cmd: 'exit' }
 *
 * and answers `{ id, ok: true, value }` or `{ id, ok: false, error }`.
 */
import {
	harnessAdaptations,
	runWorkflow,
	type HarnessCredential,
	type HarnessWorkflow,
} from '../../harness';
import { activateTrigger, type ActiveTrigger } from '../../harness/activation';
import { asClass, loadInstalledPackage, type ChildResult } from '../packaging/load-and-run';

import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { readFileSync } from '../../host/fs';
import { createRequire } from '../../host/module';
import { join, sep } from '../../host/path';
import { process } from '../../host/globals';

export interface PacingRule {
	limit: number;
	windowMs: number;
	blockMs: number;
}

export type RunnerRequest =
	| {
			id: number;
			cmd: 'run';
			workflow: HarnessWorkflow;
			credentials: HarnessCredential[];
			timeoutMs?: number;
	  }
	| { id: number; cmd: 'setPacingRule'; rule: PacingRule }
	| { id: number; cmd: 'activate'; activation: TriggerActivation }
	| { id: number; cmd: 'poll'; key: string }
	| { id: number; cmd: 'deactivate'; key: string }
	| { id: number; cmd: 'cancel' }
	| { id: number; cmd: 'exit' };

export type RunnerAnswer =
	| { id: number; ok: true; value: unknown }
	| { id: number; ok: false; error: SerializedError };

export interface SerializedError {
	/** `error.name`, and the class name (they differ for n8n's errors). */
	name: string;
	className?: string;
	message: string;
	description?: string;
	httpCode?: string;
	/** The cause chain's class names and messages (a TypeError wrapped by n8n shows here). */
	causes: string[];
	stack?: string;
}

/** Where a module resolves from, and its version. */
interface ModuleOrigin {
	file: string;
	version: string;
}

export interface RunnerReady {
	type: 'ready';
	node: string;
	/** Modules as the harness (this repository's test sources) gets them. */
	harnessModules: Record<string, ModuleOrigin>;
	/** Modules as the installed package gets them (NODE_PATH). */
	packageModules: Record<string, ModuleOrigin>;
	/** Files of this project's node_modules loaded in this process (only `typescript`, to transpile the test sources). */
	projectNodeModules: string[];
	/** What the loader holds (as in the packaging test). */
	facts: Omit<ChildResult, 'run'>;
	/** How the harness adapted to this release's n8n-core (feature detection). */
	adaptations: string[];
	/** Native addons (`*.node`) loaded in this process (none expected: installs skip install scripts). */
	nativeAddons: string[];
}

/** A polling trigger of the installed package activated on the release's own engine (harness/activation.ts). */
export interface TriggerActivation {
	/** The node type's name, e.g. `vendorBooksTrigger`. */
	nodeName: string;
	parameters: IDataObject;
	credentials: HarnessCredential[];
	staticData?: IDataObject;
	/** 'activate' (default) or 'init' (a start of n8n). */
	activation?: 'activate' | 'init';
}

/** What an activation or a scheduled poll left: n8n holds the workflow active, the emitted records, the errors, the state. */
export interface TriggerState {
	key: string;
	active: boolean;
	scheduled: number;
	emitted: IDataObject[];
	errors: string[];
	staticData: IDataObject;
}

export interface RunnerRunResult {
	status: string;
	finished: boolean;
	executedNodes: string[];
	outputs: Record<string, IDataObject[]>;
	/** Each node's second output: the error output of a node set to On Error "Continue (using error output)" (else empty). */
	errorOutputs: Record<string, Array<{ json: IDataObject; item?: number }>>;
	/** The last executed node's error, else the run's. */
	error?: SerializedError;
	/** The credential store after the run (refreshed tokens written by n8n's credentials helper). */
	credentials: HarnessCredential[];
	/** Every write through the credentials helper's updateCredentials, in order. */
	updates: Array<{ id: string; type: string; data: ICredentialDataDecryptedObject }>;
	durationMs: number;
	/** How the harness has adapted to this release so far (some adaptations show only once a run needs them). */
	adaptations: string[];
	/** Native addons loaded in this process so far. */
	nativeAddons: string[];
}

function serializeError(error: unknown): SerializedError | undefined {
	if (error === undefined || error === null) return undefined;
	const e = error as Error & { description?: string; httpCode?: string; cause?: unknown };
	const causes: string[] = [];
	let cause: unknown = e.cause;
	for (let depth = 0; cause && depth < 5; depth++) {
		const c = cause as Error & { cause?: unknown };
		causes.push(`${c.constructor?.name ?? c.name}: ${c.message}`);
		cause = c.cause;
	}
	return {
		name: e.name,
		className: e.constructor?.name,
		message: e.message,
		description: e.description ?? undefined,
		httpCode: e.httpCode ?? undefined,
		causes,
		stack: e.stack?.split('\n').slice(0, 8).join('\n'),
	};
}

function origin(fromFile: string, request: string): ModuleOrigin {
	const req = createRequire(fromFile);
	let file: string;
	try {
		file = req.resolve(request);
	} catch (error) {
		return { file: `not found: ${(error as Error).message.split('\n')[0]}`, version: '' };
	}
	// the package.json of the package the file belongs to
	const name = request.startsWith('@')
		? request.split('/').slice(0, 2).join('/')
		: request.split('/')[0];
	const marker = `${sep}node_modules${sep}${name.split('/').join(sep)}${sep}`;
	const root = file.slice(0, file.lastIndexOf(marker) + marker.length);
	let version = '';
	try {
		version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
			.version;
	} catch {
		version = '?';
	}
	return { file, version };
}

const nativeAddons = (): string[] =>
	Object.keys(require.cache).filter((file) => file.endsWith('.node'));

const HARNESS_MODULES = ['n8n-core', 'n8n-workflow', 'zod', '@n8n/di', '@n8n/backend-common'];
const PACKAGE_MODULES = ['n8n-workflow', 'zod/v3'];

export function serve({ projectRoot }: { projectRoot: string; targetModules: string }): void {
	const send = (message: unknown) =>
		new Promise<void>((resolve, reject) =>
			process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve())),
		);
	const packageDir = process.env.MATRIX_PACKAGE_DIR;
	if (!process.send) throw new Error('target-runner.ts needs an IPC channel to its parent');
	if (!packageDir) throw new Error('target-runner.ts needs MATRIX_PACKAGE_DIR');

	void (async () => {
		const { loader, facts } = await loadInstalledPackage(packageDir);
		const nodeTypes = Object.values(loader.nodeTypes).map(({ type }) =>
			asClass<INodeType | IVersionedNodeType>(type),
		);
		const credentialTypes = Object.values(loader.credentialTypes).map(({ type }) =>
			asClass<ICredentialType>(type),
		);
		const installedDir = loader.directory;
		const harnessFile = join(module.path, '..', '..', 'harness', 'index.ts');
		const packageFile = join(installedDir, 'package.json');
		const projectNodeModules = join(projectRoot, 'node_modules') + sep;
		const ready: RunnerReady = {
			type: 'ready',
			node: process.version,
			harnessModules: Object.fromEntries(HARNESS_MODULES.map((m) => [m, origin(harnessFile, m)])),
			packageModules: Object.fromEntries(PACKAGE_MODULES.map((m) => [m, origin(packageFile, m)])),
			projectNodeModules: Object.keys(require.cache).filter((f) =>
				f.startsWith(projectNodeModules),
			),
			facts,
			adaptations: harnessAdaptations(),
			nativeAddons: nativeAddons(),
		};
		await send(ready);

		// the running workflow's stop: a cancel is handled at once, not after the run it stops
		let cancelRun: (() => void) | undefined;
		let queue = Promise.resolve();
		process.on('message', (request: RunnerRequest) => {
			if (request.cmd === 'cancel') {
				const had = cancelRun !== undefined;
				cancelRun?.();
				void send({ id: request.id, ok: true, value: { cancelled: had } });
				return;
			}
			queue = queue.then(async () => {
				let answer: RunnerAnswer;
				try {
					answer = { id: request.id, ok: true, value: await handle(request) };
				} catch (error) {
					answer = { id: request.id, ok: false, error: serializeError(error)! };
				}
				await send(answer);
				if (request.cmd === 'exit') process.exit(0);
			});
		});

		const triggers = new Map<string, ActiveTrigger>();
		const stateOf = (key: string, trigger: ActiveTrigger): TriggerState => ({
			key,
			active: trigger.isActive(),
			scheduled: trigger.scheduled,
			emitted: trigger.emitted.flatMap((run) => run[0].map((item) => item.json)),
			errors: trigger.errors.map((e) => e.message),
			staticData: trigger.staticData(),
		});

		/** Activates the installed package's trigger as this release does; kept for 'poll' and 'deactivate'. */
		async function activate(a: TriggerActivation): Promise<TriggerState> {
			const nodeType = nodeTypes.find(
				(type) => (new type() as INodeType).description?.name === a.nodeName,
			);
			if (!nodeType) throw new Error(`the installed package has no node ${a.nodeName}`);
			const credential = a.credentials[0];
			const node = {
				id: 'trigger-node',
				name: 'Trigger',
				type: `${loader.packageName}.${a.nodeName}`,
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: a.parameters as INodeParameters,
				credentials: { vendorOAuth2Api: { id: credential.id, name: credential.name } },
			};
			const trigger = await activateTrigger({
				nodeType,
				node,
				credentials: a.credentials,
				credentialTypes,
				staticData: a.staticData,
				packageName: loader.packageName,
				activation: a.activation,
			});
			const key = String(triggers.size + 1);
			triggers.set(key, trigger);
			return stateOf(key, trigger);
		}

		async function handle(request: RunnerRequest): Promise<unknown> {
			switch (request.cmd) {
				case 'run': {
					const started = Date.now();
					const cancel = new Promise<void>((resolve) => (cancelRun = resolve));
					const result = await runWorkflow({
						workflow: request.workflow,
						nodeTypes,
						credentialTypes,
						credentials: request.credentials,
						packageName: loader.packageName,
						timeoutMs: request.timeoutMs,
						cancel,
					}).finally(() => {
						cancelRun = undefined;
					});
					const last = result.executedNodes[result.executedNodes.length - 1];
					const failed =
						[...result.executedNodes].reverse().find((node) => result.error(node)) ?? last;
					const value: RunnerRunResult = {
						status: String(result.run.status),
						finished: result.run.finished === true,
						executedNodes: result.executedNodes,
						outputs: Object.fromEntries(
							result.executedNodes.map((node) => [
								node,
								result.output(node).map((item) => item.json),
							]),
						),
						errorOutputs: Object.fromEntries(
							result.executedNodes.map((node) => [
								node,
								result.output(node, 0, 1).map((o) => ({
									json: o.json,
									item: (o.pairedItem as { item?: number } | undefined)?.item,
								})),
							]),
						),
						error: serializeError((failed ? result.error(failed) : undefined) ?? result.error()),
						credentials: result.credentials,
						updates: result.credentialsHelper.updates,
						durationMs: Date.now() - started,
						adaptations: harnessAdaptations(),
						nativeAddons: nativeAddons(),
					};
					return value;
				}
				case 'setPacingRule': {
					// the very module file the installed nodes loaded (one module instance per file)
					const pacingFile = join(installedDir, 'dist', 'nodes', 'shared', 'api', 'pacing.js');
					const loaded = require.cache[pacingFile] !== undefined;
					// eslint-disable-next-line @typescript-eslint/no-require-imports
					const pacing = require(pacingFile) as {
						setPacingRule(rule: PacingRule): void;
						getPacingRule(): PacingRule;
					};
					pacing.setPacingRule(request.rule);
					return { file: pacingFile, wasLoadedByTheNodes: loaded, rule: pacing.getPacingRule() };
				}
				case 'activate':
					return await activate(request.activation);
				case 'poll': {
					const trigger = triggers.get(request.key);
					if (!trigger) throw new Error(`no active trigger ${request.key}`);
					await trigger.poll();
					return stateOf(request.key, trigger);
				}
				case 'deactivate':
					await triggers.get(request.key)?.deactivate();
					triggers.delete(request.key);
					return { deactivated: request.key };
				case 'exit':
					return { exiting: true };
				case 'cancel':
					return { cancelled: false }; // answered beside the queue, never here
			}
		}
	})().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? String(error)}\n`);
		process.exit(1);
	});
}
