/**
 * Activating a polling trigger as n8n does: n8n-core's own `ActiveWorkflows` (with its
 * ScheduledTaskManager, TriggersAndPollers, ErrorReporter and Tracing) adds a one-node
 * workflow, which runs the poll at activation with a new PollContext (an error there fails
 * the activation) and registers the same poll function with the cron. The node type gets
 * n8n's "Poll Times" parameter as n8n's node loader adds it to polling nodes; unless the
 * node sets Poll Times, the cron is once a year, so it never fires during a test: the test
 * runs the scheduled poll itself (`poll()`), exactly as the cron's tick would.
 *
 * Written for the installed n8n-core (2.11.1): its ScheduledTaskManager and TriggersAndPollers
 * are not exported, so they are read from their files (this module is not loaded by the
 * version matrix).
 */
import { Logger } from '@n8n/backend-common';
import { ActiveWorkflows, ErrorReporter, InstanceSettings, PollContext, Tracing } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeProperties, INodeType, WorkflowActivateMode } from 'n8n-workflow';

import { singleNode, type SingleNodeOptions } from './index';
import { Container } from './setup';

/* eslint-disable @typescript-eslint/no-require-imports */
const { ScheduledTaskManager } = require('n8n-core/dist/execution-engine/scheduled-task-manager') as {
	ScheduledTaskManager: new (settings: InstanceSettings, logger: Logger, config: { activeInterval: number }, errorReporter: ErrorReporter) => ScheduledTasks;
};
const { TriggersAndPollers } = require('n8n-core/dist/execution-engine/triggers-and-pollers') as { TriggersAndPollers: new () => unknown };
const { commonPollingParameters } = require('n8n-core/dist/nodes-loader/constants') as { commonPollingParameters: INodeProperties[] };
/* eslint-enable @typescript-eslint/no-require-imports */

interface ScheduledTasks {
	registerCron(ctx: { workflowId: string; expression: string }, onTick: () => void): void;
	deregisterAllCrons(): void;
}

/** Once a year (1 January, 00:00): registered for real, never due while a test runs. */
export const YEARLY_POLL = { item: [{ mode: 'custom', cronExpression: '0 0 1 1 *' }] };

export interface ActivationOptions extends SingleNodeOptions {
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

/** The node type as n8n's loader hands it to the engine: a polling node gets "Poll Times" first. */
function asLoadedByN8n(Type: new () => INodeType): new () => INodeType {
	return class extends Type {
		constructor() {
			super();
			if (this.description.polling) this.description = { ...this.description, properties: [...commonPollingParameters, ...this.description.properties] };
		}
	};
}

/**
 * Activates a one-node workflow with the polling trigger through n8n-core's ActiveWorkflows.
 * Rejects as n8n's activation does (a WorkflowActivationError whose cause is the poll's error).
 */
export async function activateTrigger(opts: ActivationOptions): Promise<ActiveTrigger> {
	const node = { ...opts.node, parameters: { pollTimes: YEARLY_POLL, ...opts.node.parameters } };
	const { workflow, additionalData } = singleNode({ ...opts, node, nodeType: asLoadedByN8n(opts.nodeType as new () => INodeType) }, 'trigger');
	const logger = Container.get(Logger);
	const errorReporter = Container.get(ErrorReporter);
	const scheduler = new ScheduledTaskManager(Container.get(InstanceSettings), logger, { activeInterval: 0 }, errorReporter);
	const ticks: Array<() => void> = [];
	const register = scheduler.registerCron.bind(scheduler);
	scheduler.registerCron = (ctx, onTick) => {
		ticks.push(onTick);
		register(ctx, onTick);
	};
	const active = new ActiveWorkflows(logger, scheduler as never, new TriggersAndPollers() as never, errorReporter, Container.get(Tracing));
	const emitted: INodeExecutionData[][][] = [];
	const errors: Error[] = [];
	const id = String(workflow.id);
	const activation = opts.activation ?? 'activate';
	const getPollFunctions = (...[wf, n, data, mode, how]: ConstructorParameters<typeof PollContext>) =>
		new PollContext(wf, n, data, mode, how, (data) => emitted.push(data), (error) => errors.push(error));
	const noTriggerFunctions = () => {
		throw new Error('the harness activates polling triggers only');
	};
	await active.add(id, workflow, additionalData, 'trigger', activation, noTriggerFunctions, getPollFunctions).catch((error: unknown) => {
		scheduler.deregisterAllCrons();
		throw error;
	});
	return {
		isActive: () => active.isActive(id),
		scheduled: ticks.length,
		poll: async () => {
			if (ticks.length !== 1) throw new Error(`expected one scheduled poll, n8n registered ${ticks.length}`);
			// the poll function n8n hands the cron returns its promise, though the cron does not wait for it
			await (ticks[0] as () => Promise<void>)();
		},
		emitted,
		errors,
		staticData: () => JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
		deactivate: async () => {
			await active.remove(id);
			scheduler.deregisterAllCrons();
		},
	};
}
