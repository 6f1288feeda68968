/**
 * How requests are started changes what each costs: the same GET of one item from the
 * emulator (in a process of its own, at 0 ms latency or the one given), made with n8n-core's `httpRequest`
 * helper exactly as the package's transport makes it (arraybuffer, an abort signal of its
 * own, the Timeout), with no workflow around it, started in six patterns:
 *
 * - "pool of 10, next from the answer": 10 workers, each sending its next request from the
 *   continuation of its previous answer (what the package's limiter did until it handed
 *   slots on by turns);
 * - "the package's limiter, 10" and "... 50": `Limiter` (nodes/shared/api/limit.ts), which
 *   hands the slots freed in a turn on together on the next turn;
 * - "4 limiters of 10": four such limiters at once, as a worker running four executions;
 * - "20 item tasks through the limiter, 10": as the node runs items (twice Requests in
 *   Flight item tasks, each sending from its previous answer, through the limiter);
 * - "10, then 1 ms, answers not awaited": what n8n's HTTP Request node does with Options →
 *   Batching 10 items / 1 ms;
 * - "all at once": what HTTP Request does by default (every item's request at once).
 *
 * Prints this process's CPU per request (user + system; median of `repeats` rounds taking
 * the patterns in turn, after a warm-up of each) and the wall time per request. On a
 * 2-core machine against a local server, starting requests in bunches costs less CPU per
 * request than starting each from an answer: the figures say by how much.
 *
 *   npm run build:tools && node --expose-gc build/bench/request-pattern.js [requests] [repeats] [latency ms]     (default 3000 5 0)
 */
import { httpRequest } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions';
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { Limiter } from '../nodes/shared/api/limit';
import { DEFAULT_TIMEOUT_SECONDS } from '../nodes/shared/api/options';
import { collectGarbage, fixture } from './peers';
import { admin, emulatorProcess, median } from './support';
import { console, process, setTimeout } from '../host/globals';

type Pattern = (count: number, one: () => Promise<void>) => Promise<void>;

const pool =
	(width: number): Pattern =>
	async (count, one) => {
		let next = 0;
		const worker = async () => {
			while (next < count) {
				next++;
				await one();
			}
		};
		await Promise.all(Array.from({ length: width }, worker));
	};

const limiter =
	(size: number): Pattern =>
	async (count, one) => {
		const limit = new Limiter(size);
		await Promise.all(Array.from({ length: count }, async () => await limit.run(one)));
	};

/** `executions` limiters of `size` at once, the requests dealt among them: a worker running that many executions of a node. */
const limiters =
	(executions: number, size: number): Pattern =>
	async (count, one) => {
		const limits = Array.from({ length: executions }, () => new Limiter(size));
		await Promise.all(
			Array.from({ length: count }, async (_, i) => await limits[i % executions].run(one)),
		);
	};

/** `workers` tasks, each sending its next request from its previous answer, through the package's limiter (as the node's item tasks: twice Requests in Flight). */
const workersThroughLimiter =
	(workers: number, size: number): Pattern =>
	async (count, one) => {
		const limit = new Limiter(size);
		await pool(workers)(count, async () => await limit.run(one));
	};

const batching =
	(size: number, everyMs: number): Pattern =>
	async (count, one) => {
		const sent: Array<Promise<void>> = [];
		for (let i = 0; i < count; i++) {
			if (i > 0 && i % size === 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
			sent.push(one());
		}
		await Promise.all(sent);
	};

const PATTERNS: Array<[string, Pattern]> = [
	['pool of 10, next from the answer', pool(10)],
	["the package's limiter, 10", limiter(10)],
	["the package's limiter, 50", limiter(50)],
	['4 limiters of 10 (a busy worker)', limiters(4, 10)],
	['20 item tasks through the limiter, 10', workersThroughLimiter(20, 10)],
	['10, then 1 ms, answers not awaited', batching(10, 1)],
	[
		'all at once',
		async (count, one) =>
			await Promise.all(Array.from({ length: count }, one)).then(() => undefined),
	],
];

async function main(): Promise<void> {
	const count = Number(process.argv[2] ?? 3000);
	const repeats = Number(process.argv[3] ?? 5);
	const latencyMs = Number(process.argv[4] ?? 0);
	const { url, child } = await emulatorProcess();
	try {
		await admin(url, 'POST', 'latency', { ms: 0, jitterMs: 0 });
		const fx = await fixture(url);
		const one = async () => {
			const controller = new AbortController();
			const options: IHttpRequestOptions = {
				method: 'GET',
				url: `${url}/us/api/books/v3/items/${fx.itemId}`,
				qs: { organization_id: fx.organizationId },
				headers: { Authorization: `Vendor-oauthtoken ${fx.token}` },
				returnFullResponse: true,
				timeout: DEFAULT_TIMEOUT_SECONDS * 1000,
				ignoreHttpStatusErrors: true,
				encoding: 'arraybuffer',
				json: false,
				abortSignal: controller.signal,
			};
			const response = (await httpRequest(options)) as IN8nHttpFullResponse;
			const item = (
				JSON.parse((response.body as Buffer).toString('utf8')) as { item?: { item_id?: string } }
			).item;
			if (response.statusCode !== 200 || item?.item_id !== fx.itemId)
				throw new Error(`unexpected answer: HTTP ${response.statusCode}`);
		};
		const cpu = new Map<string, number[]>(PATTERNS.map(([name]) => [name, []]));
		const wall = new Map<string, number[]>(PATTERNS.map(([name]) => [name, []]));
		for (const [, pattern] of PATTERNS) await pattern(Math.min(count, 500), one);
		await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs: 0 });
		for (let round = 0; round < repeats; round++) {
			for (const [name, pattern] of PATTERNS) {
				collectGarbage();
				const started = performance.now();
				const before = process.cpuUsage();
				await pattern(count, one);
				const used = process.cpuUsage(before);
				wall.get(name)!.push((performance.now() - started) / count);
				cpu.get(name)!.push((used.user + used.system) / 1000 / count);
			}
		}
		const base = median(cpu.get(PATTERNS[0][0])!);
		const all = median(cpu.get('all at once')!);
		console.log(
			`\nn8n-core's httpRequest, the package's GET, ${count} requests, emulator in its own process at ${latencyMs} ms; median of ${repeats} rounds`,
		);
		console.log(
			'pattern                                  cpu ms/request  vs first  vs all at once  wall ms/request',
		);
		for (const [name] of PATTERNS) {
			const c = median(cpu.get(name)!);
			console.log(
				`${name.padEnd(40)} ${c.toFixed(3).padStart(14)} ${`${(c / base).toFixed(2)}x`.padStart(9)} ${`${(c / all).toFixed(2)}x`.padStart(15)} ${median(wall.get(name)!).toFixed(3).padStart(16)}`,
			);
		}
	} finally {
		child.disconnect();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
