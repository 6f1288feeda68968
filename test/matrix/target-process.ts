/**
 * The parent's side of a version-matrix child (matrix-child.js + target-runner.ts): starts it
 * with one release's modules on NODE_PATH, waits for what it loaded, and sends it requests
 * over the IPC channel. Never blocks the event loop (the emulator runs in this process).
 */
import { spawn, type ChildProcess } from '../../host/child_process';
import { join } from '../../host/path';

import type { HarnessCredential, HarnessWorkflow } from '../../harness';
import type {
	PacingRule,
	RunnerAnswer,
	RunnerReady,
	RunnerRequest,
	RunnerRunResult,
	SerializedError,
	TriggerActivation,
	TriggerState,
} from './target-runner';
import { process, setTimeout, clearTimeout } from '../../host/globals';

const ENTRY = join(module.path, 'matrix-child.js');

/** Distributes Omit over a union (each request without its id). */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

class TargetProcessError extends Error {
	constructor(
		message: string,
		readonly serialized?: SerializedError,
	) {
		super(message);
	}
}

interface TargetOptions {
	/** `.cache/n8n-matrix/<release>/node_modules`. */
	n8nModules: string;
	/** The installed package (`<user folder>/.n8n/nodes/node_modules/<name>`). */
	packageDir: string;
	/** `N8N_USER_FOLDER` of the child (as n8n has one). */
	userFolder: string;
	/** How long loading may take before the child counts as failed. */
	readyTimeoutMs?: number;
}

export class TargetProcess {
	private child!: ChildProcess;
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ resolve: (value: unknown) => void; reject: (error: Error) => void }
	>();
	private stderr = '';
	private stdout = '';
	private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	ready!: RunnerReady;

	/** Output of the child so far (for failure messages). */
	get output(): string {
		return `${this.stderr}${this.stdout}`.trim();
	}

	async start(options: TargetOptions): Promise<RunnerReady> {
		const env: NodeJS.ProcessEnv = { ...process.env };
		for (const key of Object.keys(env))
			if (/^(npm_|NODE_OPTIONS$|JEST_|N8N_)/i.test(key)) delete env[key];
		Object.assign(env, {
			NODE_PATH: options.n8nModules,
			MATRIX_N8N_MODULES: options.n8nModules,
			MATRIX_PACKAGE_DIR: options.packageDir,
			NODE_ENV: 'production', // n8n-core loads each class in a vm context, as in a running n8n
			N8N_USER_FOLDER: options.userFolder,
		});
		this.child = spawn(process.execPath, [ENTRY], {
			env,
			stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
		});
		this.child
			.stdout!.setEncoding('utf8')
			.on('data', (chunk: string) => (this.stdout = (this.stdout + chunk).slice(-20_000)));
		this.child
			.stderr!.setEncoding('utf8')
			.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-20_000)));
		const readyTimeout = options.readyTimeoutMs ?? 120_000;
		this.ready = await new Promise<RunnerReady>((resolve, reject) => {
			const timer = setTimeout(
				() =>
					reject(
						new TargetProcessError(
							`the child did not load within ${readyTimeout} ms:\n${this.output}`,
						),
					),
				readyTimeout,
			);
			this.child.on('message', (message: RunnerReady | RunnerAnswer) => {
				if ('type' in message && message.type === 'ready') {
					clearTimeout(timer);
					resolve(message);
					return;
				}
				const answer = message as RunnerAnswer;
				const waiting = this.pending.get(answer.id);
				if (!waiting) return;
				this.pending.delete(answer.id);
				if (answer.ok) waiting.resolve(answer.value);
				else
					waiting.reject(
						new TargetProcessError(
							`${answer.error.className ?? answer.error.name}: ${answer.error.message}\n${answer.error.stack ?? ''}`,
							answer.error,
						),
					);
			});
			this.child.on('error', (error) => {
				clearTimeout(timer);
				reject(error);
			});
			this.child.on('exit', (code, signal) => {
				clearTimeout(timer);
				this.exited = { code, signal };
				const error = new TargetProcessError(
					`the child exited (code ${code}, signal ${signal}):\n${this.output}`,
				);
				reject(error);
				for (const waiting of this.pending.values()) waiting.reject(error);
				this.pending.clear();
			});
		});
		return this.ready;
	}

	private async request<T>(request: WithoutId<RunnerRequest>): Promise<T> {
		if (this.exited)
			throw new TargetProcessError(
				`the child has exited (code ${this.exited.code}):\n${this.output}`,
			);
		const id = this.nextId++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.child.send({ ...request, id } as RunnerRequest, (error) => {
				if (error) {
					this.pending.delete(id);
					reject(error);
				}
			});
		});
	}

	/** Runs a workflow on the release's WorkflowExecute; `timeoutMs` cancels it (the harness's stop). */
	async run(
		workflow: HarnessWorkflow,
		credentials: HarnessCredential[],
		timeoutMs?: number,
	): Promise<RunnerRunResult> {
		return await this.request<RunnerRunResult>({ cmd: 'run', workflow, credentials, timeoutMs });
	}

	/** Stops the workflow running now, as a user's stop does (handled at once, beside the run). */
	async cancel(): Promise<{ cancelled: boolean }> {
		return await this.request({ cmd: 'cancel' });
	}

	/** Sets the pacing rule in the installed package's own pacing module (the instance its nodes use). */
	async setPacingRule(
		rule: PacingRule,
	): Promise<{ file: string; wasLoadedByTheNodes: boolean; rule: PacingRule }> {
		return await this.request({ cmd: 'setPacingRule', rule });
	}

	/** Activates a polling trigger of the installed package through the release's own ActiveWorkflows (harness/activation.ts). */
	async activate(activation: TriggerActivation): Promise<TriggerState> {
		return await this.request({ cmd: 'activate', activation });
	}

	/** Runs the poll the release registered with its cron for that trigger, as a tick does. */
	async poll(key: string): Promise<TriggerState> {
		return await this.request({ cmd: 'poll', key });
	}

	/** Deactivates that trigger (its crons stop), as n8n does when it stops. */
	async deactivate(key: string): Promise<void> {
		await this.request({ cmd: 'deactivate', key });
	}

	/** Asks the child to exit; kills it if it does not within a few seconds. */
	async stop(): Promise<void> {
		if (!this.child || this.exited) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.request({ cmd: 'exit' }).catch(() => undefined);
		const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
		await exited;
		clearTimeout(timer);
	}
}
