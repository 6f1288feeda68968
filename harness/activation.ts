/**
 * Activating a polling trigger as n8n does: n8n-core's own `ActiveWorkflows` (with its
 * ScheduledTaskManager, TriggersAndPollers, ErrorReporter and Tracing) adds a one-node
 * workflow, which runs the poll at activation with a new PollContext (an error there fails
 * the activation) and registers the same poll function with the cron. The node type gets
 * n8n's "Poll Times" parameter as n8n's node loader adds it to polling nodes; unless the
 * node sets Poll Times, the cron is once a year, so it never fires during a test: the test
 * runs the scheduled poll itself (`poll()`), exactly as the cron's tick would.
 *
 * Runs on the installed n8n-core (2.11.1) and, in the version matrix's child process
 * (test/matrix/target-runner.ts), on each release's own: the scheduler, the pollers and
 * ActiveWorkflows come from n8n's dependency container (each release wires its own
 * constructor arguments); what n8n-core does not export is read from its file beside its
 * main module.
 */
import * as core from 'n8n-core';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { dirname, join } from '../host/path';
import { singleNode, type SingleNodeOptions } from './index';
import { Container } from './setup';

/** An n8n-core export, or (not exported by this release) the named export of its file under n8n-core's dist/. */
function coreInternal<T>(name: string, file: string): T {
	const exported = (core as unknown as Record<string, unknown>)[name];
	if (exported !== undefined) return exported as T;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const loaded = require(join(dirname(require.resolve('n8n-core')), file)) as Record<
		string,
		unknown
	>;
	if (loaded[name] === undefined)
		throw new Error(`n8n-core has no ${name} (looked in its exports and in dist/${file})`);
	return loaded[name] as T;
}

/** The scheduler's registration: `registerCron` (n8n up to 2.40), `register` (2.41); the tick is the last argument of both. */
interface ScheduledTasks {
	registerCron?(...args: unknown[]): unknown;
	register?(...args: unknown[]): unknown;
}

/** n8n's holder of active triggers: `ActiveWorkflows.add` (up to 2.40), `ActiveWorkflowTriggers.addAllTriggers` (2.41). */
interface ActiveTriggers {
	isActive(id: string): boolean;
	remove(id: string): Promise<unknown>;
	add?(...args: unknown[]): Promise<void>;
	addAllTriggers?(...args: unknown[]): Promise<void>;
}

function activeTriggers(): ActiveTriggers {
	const exported = core as unknown as Record<string, unknown>;
	const Type = (exported.ActiveWorkflowTriggers ??
		exported.ActiveWorkflows) as Service<ActiveTriggers>;
	return Container.get(Type as never);
}

/** A class the container builds (its constructor's arguments are the container's business). */
type Service<T> = new (...args: never[]) => T;

/** n8n's ScheduledTaskManager: one per process, as n8n has it. */
function scheduler(): ScheduledTasks {
	return Container.get(
		coreInternal<Service<ScheduledTasks>>(
			'ScheduledTaskManager',
			'execution-engine/scheduled-task-manager',
		) as never,
	);
}

/** Once a year (1 January, 00:00): registered for real, never due while a test runs. */
const YEARLY_POLL = { item: [{ mode: 'custom', cronExpression: '0 0 1 1 *' }] };

interface ActivationOptions extends SingleNodeOptions {
	/** How n8n activates the workflow (default 'activate'; 'init' at a start of n8n, 'update' on saving an active workflow). */
	activation?: WorkflowActivateMode;
}

export interface ActiveTrigger {
	/** Whether n8n-core's ActiveWorkflows holds the workflow as active. */
	isActive(): boolean;
	/** How many poll functions n8n registered with the cron. */
	scheduled: number;
	/** Runs the poll function n8n registered with the cron, as a tick of the cron does (resolves when it is done). */
	poll(): Promise<void>;
	/** What the polls emitted (one entry per `__emit`, n8n then starts an execution with it). */
	emitted: INodeExecutionData[][][];
	/** What the later polls reported through `__emitError` (n8n then saves an error execution). */
	errors: Error[];
	/** The workflow's static data now (plain object). */
	staticData(): IDataObject;
	/** Deactivates the workflow (ActiveWorkflows.remove: its crons stop). */
	deactivate(): Promise<void>;
}

/** Each node type as loaded by n8n, made once (n8n loads a package once per process). */
const loadedTypes = new WeakMap<new () => INodeType, new () => INodeType>();

/** The node type as n8n's loader hands it to the engine: a polling node gets "Poll Times" first. */
function asLoadedByN8n(Type: new () => INodeType): new () => INodeType {
	let Loaded = loadedTypes.get(Type);
	if (!Loaded) {
		Loaded = class extends Type {
			constructor() {
				super();
				if (this.description.polling)
					this.description = {
						...this.description,
						properties: [
							...coreInternal<INodeProperties[]>(
								'commonPollingParameters',
								'nodes-loader/constants',
							),
							...this.description.properties,
						],
					};
			}
		};
		loadedTypes.set(Type, Loaded);
	}
	return Loaded;
}

/**
 * Activates a one-node workflow with the polling trigger through n8n-core's ActiveWorkflows.
 * Rejects as n8n's activation does (a WorkflowActivationError whose cause is the poll's error).
 */
export async function activateTrigger(opts: ActivationOptions): Promise<ActiveTrigger> {
	const node = { ...opts.node, parameters: { pollTimes: YEARLY_POLL, ...opts.node.parameters } };
	const { workflow, additionalData } = singleNode(
		{ ...opts, node, nodeType: asLoadedByN8n(opts.nodeType as new () => INodeType) },
		'trigger',
	);
	const tasks = scheduler();
	const ticks: Array<() => void> = [];
	// the cron's tick is the last argument of every release's registration
	const method = typeof tasks.register === 'function' ? 'register' : 'registerCron';
	const register = tasks[method] as (...args: unknown[]) => unknown;
	tasks[method] = (...args: unknown[]) => {
		ticks.push(args[args.length - 1] as () => void);
		return register.apply(tasks, args);
	};
	const active = activeTriggers();
	const emitted: INodeExecutionData[][][] = [];
	const errors: Error[] = [];
	const id = String(workflow.id);
	const activation = opts.activation ?? 'activate';
	const getPollFunctions = (
		...[wf, n, data, mode, how]: ConstructorParameters<typeof core.PollContext>
	) =>
		new core.PollContext(
			wf,
			n,
			data,
			mode,
			how,
			(data) => emitted.push(data),
			(error) => errors.push(error),
		);
	const noTriggerFunctions = () => {
		throw new Error('the harness activates polling triggers only');
	};
	const add = (active.addAllTriggers ?? active.add) as (...args: unknown[]) => Promise<void>;
	await add
		.call(
			active,
			id,
			workflow,
			additionalData,
			'trigger',
			activation,
			noTriggerFunctions,
			getPollFunctions,
		)
		.finally(() => {
			tasks[method] = register;
		});
	return {
		isActive: () => active.isActive(id),
		scheduled: ticks.length,
		poll: async () => {
			if (ticks.length !== 1)
				throw new Error(`expected one scheduled poll, n8n registered ${ticks.length}`);
			// the poll function n8n hands the cron returns its promise, though the cron does not wait for it
			await (ticks[0] as () => Promise<void>)();
		},
		emitted,
		errors,
		staticData: () => JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
		deactivate: async () => {
			// its crons stop with it
			await active.remove(id);
		},
	};
}
