/**
 * Vendor Books against n8n's HTTP Request node, in one run: the same request per item to
 * the emulator (in a process of its own), with the same `Authorization: Vendor-oauthtoken
 * <token>` header and `organization_id` query, through n8n-core's engine (harness/),
 * both nodes at their defaults:
 *
 * - Item → Get against HTTP Request GET of the same URL; Item → Create against HTTP Request
 *   POST of the same JSON body (each item creates an item);
 * - at 0, 20 and 100 ms server latency (the same for every answer);
 * - one execution of `items` items; a busy worker: 4 executions of `items` items at once;
 *   and n8n's default worker concurrency: 10 executions of `items` / 2.5 items at once.
 *
 * Vendor Books keeps to Options → Requests in Flight (default 10 per execution); HTTP
 * Request sends every item's request at once (Batching off, its default). On the busy
 * worker Vendor Books also runs at the most Requests in Flight the option allows (50: not
 * its default; a row of its own below the setting's), taken in turn with the other two: the
 * same code with more requests at once, so the cost of the bound shows apart from the cost
 * of the code. Prints, per
 * setting, this process's CPU time per item and wall time per item for each (median of
 * `repeats` runs, taken in turn: HTTP Request, Vendor, HTTP Request, ...), the CPU ratio
 * Vendor / HTTP Request as the median of the runs' ratios (each Vendor run against the
 * HTTP Request run just before it, so both saw the machine alike) with their lowest and
 * highest (the spread), and the most requests in flight (counted on n8n's side: n8n-core's
 * axios, from a request's start to its answer's headers).
 *
 * Needs the HTTP Request node set up (bench/setup-http-request.ts; done here if missing).
 * Run with --expose-gc to collect garbage between runs (npm run bench does).
 *
 *   npm run build:tools && node --expose-gc build/bench/vs-http-request.js [items] [repeats] [latencies]     (default 1000 4 0,20,100)
 */
import type { RecordedRequest } from '../emulator/server';
import {
	collectGarbage,
	CREATE_BODY,
	fixture,
	httpRequestNode,
	inFlightCounter,
	requestsInFlightLimits,
	runPeer,
} from './peers';
import type { BenchOperation, Fixture, Measured, PeerName } from './peers';
import { admin, emulatorProcess, median } from './support';
import { console, process } from '../host/globals';

/** What the emulator recorded of the first API request since the last clear. */
async function firstRequest(url: string): Promise<RecordedRequest> {
	const requests = (await (await fetch(`${url}/__admin/requests`)).json()) as RecordedRequest[];
	const sent = requests.find((r) => r.area === 'books');
	if (!sent) throw new Error('the emulator recorded no request');
	return sent;
}

/** The request as the emulator saw it (it redacts the token in its log; both peers' tokens were accepted). */
function shape(r: RecordedRequest): string {
	const auth = /^Vendor-oauthtoken \S+$/.test(r.headers.authorization ?? '')
		? 'Vendor-oauthtoken <token>'
		: String(r.headers.authorization);
	const body = r.body === undefined || r.body === '' ? '' : `, body ${JSON.stringify(r.body)}`;
	return `${r.method} ${r.path}?${new URLSearchParams(r.query).toString()}, Authorization: ${auth}${body}, answered ${r.status}`;
}

interface Setting {
	label: string;
	executions: number;
	/** Items per execution. */
	items: number;
	/** Vendor Books also runs at the most Requests in Flight the option allows. */
	lifted?: boolean;
}

/** The most Requests in Flight the option allows (its maximum, not its default). */
const LIFTED_IN_FLIGHT = requestsInFlightLimits().max;
type Run = PeerName | 'lifted';

interface Side {
	runs: Measured[];
	maxInFlight: number;
}

/** `executions` runs of the peer's workflow at once, measured together (wall and this process's CPU). */
async function runAtOnce(
	run: Run,
	fx: Fixture,
	operation: BenchOperation,
	setting: Setting,
): Promise<Measured> {
	const peer: PeerName = run === 'lifted' ? 'vendor' : run;
	const config =
		run === 'lifted' ? { operation, requestsInFlight: LIFTED_IN_FLIGHT } : { operation };
	if (setting.executions === 1) return await runPeer(peer, fx, setting.items, config);
	const cpu = process.cpuUsage();
	const waited = process.resourceUsage().voluntaryContextSwitches;
	const started = performance.now();
	await Promise.all(
		Array.from(
			{ length: setting.executions },
			async () => await runPeer(peer, fx, setting.items, config),
		),
	);
	const used = process.cpuUsage(cpu);
	return {
		took: performance.now() - started,
		cpuMs: (used.user + used.system) / 1000,
		waits: process.resourceUsage().voluntaryContextSwitches - waited,
	};
}

const NAME: Record<BenchOperation, string> = {
	get: 'Get (HTTP Request: GET)',
	create: 'Create (HTTP Request: POST)',
};

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const repeats = Number(process.argv[3] ?? 4);
	const latencies = (process.argv[4] ?? '0,20,100').split(',').map(Number);
	const { version, typeVersion } = httpRequestNode();
	const { url, child } = await emulatorProcess();
	const counter = inFlightCounter();
	const settings: Setting[] = [
		{ label: 'one execution', executions: 1, items },
		{ label: 'busy worker, 4 executions', executions: 4, items, lifted: true },
		{
			label: 'worker at n8n default, 10 executions',
			executions: 10,
			items: Math.round(items / 2.5),
		},
	];
	try {
		const fx: Fixture = await fixture(url);
		console.log(
			`\nVendor Books vs n8n's HTTP Request node (n8n-nodes-base ${version}, node version ${typeVersion}), both at their defaults, n8n-core's engine, emulator in its own process`,
		);
		console.log(
			`cpu: this process's CPU time (user + system) per item; median of ${repeats} runs taken in turn after a warm-up of each`,
		);
		console.log(
			"cpu ratio: the median of the runs' ratios Vendor / HTTP Request (each Vendor run against the HTTP Request run just before it), lowest to highest in brackets",
		);
		console.log(
			"in flight: the most requests at once, counted on n8n's side (n8n-core's axios); waits: the process's voluntary context switches per item (mostly its event loop waiting for the network)",
		);
		for (const operation of ['get', 'create'] as const) {
			// Warm-up (JIT) of both at 0 ms, not reported; and the check that both send the same request.
			await admin(url, 'POST', 'latency', { ms: 0 });
			const sent: Partial<Record<PeerName, RecordedRequest>> = {};
			for (const peer of ['httpRequest', 'vendor'] as const) {
				await admin(url, 'DELETE', 'requests');
				await runPeer(peer, fx, items, { operation });
				sent[peer] = await firstRequest(url);
			}
			const [ours, theirs] = [shape(sent.vendor!), shape(sent.httpRequest!)];
			if (ours !== theirs)
				throw new Error(`not the same request: Vendor ${ours}; HTTP Request ${theirs}`);
			console.log(
				`\n${NAME[operation]}: both send ${ours}${operation === 'create' ? ` (${JSON.stringify(CREATE_BODY)})` : ''}`,
			);
			console.log(
				`${'server latency, setting'.padEnd(56)} ${'HTTP Request cpu, wall'.padStart(24)} ${'Vendor Books cpu, wall'.padStart(24)}  cpu ratio (spread)          wall ratio  in flight (HTTP, Vendor)  waits/item (HTTP, Vendor)`,
			);
			for (const latencyMs of latencies) {
				await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs: 0 });
				for (const setting of settings) {
					const sides: Record<Run, Side> = {
						httpRequest: { runs: [], maxInFlight: 0 },
						vendor: { runs: [], maxInFlight: 0 },
						lifted: { runs: [], maxInFlight: 0 },
					};
					const order: Run[] = setting.lifted
						? ['httpRequest', 'vendor', 'lifted']
						: ['httpRequest', 'vendor'];
					for (let round = 0; round < repeats; round++) {
						for (const run of order) {
							await admin(url, 'DELETE', 'requests');
							collectGarbage();
							counter.reset();
							sides[run].runs.push(await runAtOnce(run, fx, operation, setting));
							sides[run].maxInFlight = Math.max(sides[run].maxInFlight, counter.max());
						}
					}
					const count = setting.executions * setting.items;
					const cpu = (side: Side) => median(side.runs.map((r) => r.cpuMs)) / count;
					const wall = (side: Side) => median(side.runs.map((r) => r.took)) / count;
					const waits = (side: Side) =>
						(median(side.runs.map((r) => r.waits ?? 0)) / count).toFixed(2);
					const h = sides.httpRequest;
					const row = (label: string, v: Side) => {
						const ratios = v.runs.map((r, i) => r.cpuMs / h.runs[i].cpuMs);
						const cells = [
							label.padEnd(56),
							`${cpu(h).toFixed(3)}, ${wall(h).toFixed(3)}`.padStart(24),
							`${cpu(v).toFixed(3)}, ${wall(v).toFixed(3)}`.padStart(24),
							`  ${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`.padEnd(
								28,
							),
							`${(wall(v) / wall(h)).toFixed(2)}x`.padStart(10),
							`  ${h.maxInFlight}, ${v.maxInFlight}`.padEnd(22),
							`${waits(h)}, ${waits(v)}`,
						];
						console.log(cells.join(' '));
					};
					row(
						`${latencyMs} ms, ${setting.label} (${setting.executions} x ${setting.items})`,
						sides.vendor,
					);
					if (setting.lifted)
						row(`  the same, Vendor at Requests in Flight ${LIFTED_IN_FLIGHT}`, sides.lifted);
				}
			}
		}
	} finally {
		child.disconnect();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
