/**
 * Vendor Books against n8n's HTTP Request node, in one run: 1,000 items, each the same
 * GET of one item from the emulator (in a process of its own) with the same
 * `Authorization: Vendor-oauthtoken <token>` header and `organization_id` query, through
 * n8n-core's engine (test/harness), at 0, 20 and 100 ms server latency. Prints wall time
 * and this process's CPU time per item for each peer and configuration, and the ratios
 * to HTTP Request at its default.
 *
 * How each runs:
 * - Vendor Books, Item -> Get, Organization By ID, Options → Requests in Flight at the
 *   default (10) and the maximum (50): at most that many requests at once.
 * - HTTP Request (n8n-nodes-base, the node version a new node gets), GET, Authentication
 *   None, the header and the query parameter as key/value pairs. With Options → Batching
 *   off (its default) it sends every item's request at once (1,000 in flight). Batching,
 *   its only other control ("n items, then wait m ms"), paces; it does not limit requests
 *   in flight. "10 items / <latency> ms" keeps about 10 to 20 in flight, the nearest to
 *   Vendor's default; at 0 ms "10 items / 1 ms" (the least wait) still has hundreds in
 *   flight at times, since an answer takes longer than the wait.
 *
 * Then a busy worker: 4 executions of the same workflow at once (as n8n runs several), at 0
 * and 100 ms, HTTP Request at its default against Vendor Books at its default and maximum;
 * CPU and wall per item of all four.
 *
 * "most in flight" is counted on n8n's side (inFlightCounter: n8n-core's axios, from a
 * request's start to its answer's headers), for both peers and every latency.
 *
 * Needs the HTTP Request node set up (bench/setup-http-request.ts; done here if missing).
 * Run with --expose-gc to collect garbage between runs (npm run bench does).
 *
 *   npm run build:tools && node --expose-gc build/bench/vs-http-request.js [items] [repeats]     (default 1000 3)
 */
import type { RecordedRequest } from '../test/emulator/server';
import { collectGarbage, fixture, httpRequestNode, inFlightCounter, requestsInFlightLimits, runPeer } from './peers';
import type { Fixture, Measured, PeerConfig, PeerName } from './peers';
import { admin, emulatorProcess, median } from './support';
import { console, process } from '../test/host/globals';

interface Row {
	label: string;
	peer: PeerName;
	config: PeerConfig;
	/** Requests in flight the configuration allows or paces to, for the ideal time (latency / in flight). */
	inFlight?: number;
	runs: Measured[];
	maxSeen: number;
}

/** What the emulator recorded of the first API GET since the last clear. */
async function firstGet(url: string): Promise<RecordedRequest> {
	const requests = (await (await fetch(`${url}/__admin/requests`)).json()) as RecordedRequest[];
	const get = requests.find((r) => r.method === 'GET' && r.area === 'books');
	if (!get) throw new Error('the emulator recorded no GET');
	return get;
}

/** The GET as the emulator saw it (it redacts the token in its log; both peers' tokens were accepted). */
function shape(r: RecordedRequest): string {
	const auth = /^Vendor-oauthtoken \S+$/.test(r.headers.authorization ?? '') ? 'Vendor-oauthtoken <token>' : String(r.headers.authorization);
	return `${r.method} ${r.path}?${new URLSearchParams(r.query).toString()}, Authorization: ${auth}, answered ${r.status}`;
}

/** Executions run at once in the busy-worker rows. */
const BUSY_EXECUTIONS = 4;

function row(label: string, peer: PeerName, config: PeerConfig, inFlight?: number): Row {
	return { label, peer, config, inFlight, runs: [], maxSeen: 0 };
}

/** `executions` runs of the row's workflow at once, measured together (wall and this process's CPU). */
async function runAtOnce(r: Row, fx: Fixture, items: number, executions: number): Promise<Measured> {
	const cpu = process.cpuUsage();
	const started = performance.now();
	await Promise.all(Array.from({ length: executions }, async () => await runPeer(r.peer, fx, items, r.config)));
	const used = process.cpuUsage(cpu);
	return { took: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** The rows' medians per item (`count` items a run), ratios against the first row. */
function printRows(title: string, rows: Row[], count: number, latencyMs: number): void {
	const baseCpu = median(rows[0].runs.map((r) => r.cpuMs)) / count;
	const baseWall = median(rows[0].runs.map((r) => r.took)) / count;
	console.log(`\n${title}`);
	console.log('peer, configuration                         most in flight  wall ms/item  cpu ms/item  cpu ratio  wall ratio  vs ideal');
	for (const r of rows) {
		const cpu = median(r.runs.map((m) => m.cpuMs)) / count;
		const wall = median(r.runs.map((m) => m.took)) / count;
		const ideal = latencyMs > 0 && r.inFlight ? `${(wall / (latencyMs / r.inFlight)).toFixed(2)}x` : '';
		const cells = [
			r.label.padEnd(46),
			String(r.maxSeen).padStart(14),
			wall.toFixed(3).padStart(13),
			cpu.toFixed(3).padStart(12),
			`${(cpu / baseCpu).toFixed(2)}x`.padStart(10),
			`${(wall / baseWall).toFixed(2)}x`.padStart(11),
			ideal.padStart(9),
		];
		console.log(cells.join(' '));
	}
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const repeats = Number(process.argv[3] ?? 3);
	const limits = requestsInFlightLimits();
	const { version, typeVersion } = httpRequestNode();
	const { url, child } = await emulatorProcess();
	const counter = inFlightCounter();
	try {
		const fx: Fixture = await fixture(url);

		// Warm-up (JIT) of both at 0 ms, not reported; and the check that both send the same GET.
		await admin(url, 'POST', 'latency', { ms: 0 });
		const sent: Partial<Record<PeerName, RecordedRequest>> = {};
		for (const peer of ['httpRequest', 'vendor'] as const) {
			await admin(url, 'DELETE', 'requests');
			await runPeer(peer, fx, items, { requestsInFlight: limits.default });
			sent[peer] = await firstGet(url);
		}
		const [ours, theirs] = [sent.vendor!, sent.httpRequest!];
		if (shape(ours) !== shape(theirs)) throw new Error(`not the same GET: Vendor ${shape(ours)}; HTTP Request ${shape(theirs)}`);
		const otherHeaders = (r: RecordedRequest) => Object.keys(r.headers).filter((h) => h !== 'authorization' && h !== 'host').sort().join(', ');

		console.log(`\nVendor Books vs n8n's HTTP Request node (n8n-nodes-base ${version}, node version ${typeVersion}): ${items} items, n8n-core's engine, emulator in its own process`);
		console.log(`both send: ${shape(ours)}`);
		console.log(`  other headers: Vendor ${otherHeaders(ours)}; HTTP Request ${otherHeaders(theirs)}`);
		console.log(`cpu: this process's CPU time (user + system) during the workflow. Median of ${repeats} runs taken in turn (one at 100 ms), after a warm-up of each`);
		console.log('cpu ratio, wall ratio: against HTTP Request with Batching off (its default). vs ideal: wall / (latency / requests in flight)');
		console.log('HTTP Request Batching "10 items / m ms": 10 requests, then a wait of m ms; it paces, it does not bound the requests in flight');
		console.log("most in flight: counted on n8n's side (n8n-core's axios), from a request's start to its answer's headers");

		for (const latencyMs of [0, 20, 100]) {
			await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs: 0 });
			const batchInterval = Math.max(1, latencyMs);
			const rows: Row[] = [
				row('HTTP Request, Batching off (default)', 'httpRequest', {}),
				row(`HTTP Request, Batching ${limits.default} items / ${batchInterval} ms`, 'httpRequest', { batch: { batchSize: limits.default, batchInterval } }, latencyMs ? limits.default : undefined),
				row(`Vendor Books, Requests in Flight ${limits.default} (default)`, 'vendor', { requestsInFlight: limits.default }, limits.default),
				row(`Vendor Books, Requests in Flight ${limits.max} (maximum)`, 'vendor', { requestsInFlight: limits.max }, limits.max),
			];
			// At 100 ms the limited configurations take 10 s a run: once there.
			const times = latencyMs >= 100 ? 1 : repeats;
			await measure(rows, times, 1);
			printRows(`${items} items, server latency ${latencyMs} ms, the same for every answer${times === 1 ? ', one run each' : ''}`, rows, items, latencyMs);
		}

		// A busy worker: several executions at once, as n8n runs them, so the process is rarely idle.
		for (const latencyMs of [0, 100]) {
			await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs: 0 });
			const rows: Row[] = [
				row('HTTP Request, Batching off (default)', 'httpRequest', {}),
				row(`Vendor Books, Requests in Flight ${limits.default} (default)`, 'vendor', { requestsInFlight: limits.default }, limits.default * BUSY_EXECUTIONS),
				row(`Vendor Books, Requests in Flight ${limits.max} (maximum)`, 'vendor', { requestsInFlight: limits.max }, limits.max * BUSY_EXECUTIONS),
			];
			const times = latencyMs >= 100 ? 1 : repeats;
			await measure(rows, times, BUSY_EXECUTIONS);
			printRows(`a busy worker: ${BUSY_EXECUTIONS} executions of ${items} items at once, server latency ${latencyMs} ms${times === 1 ? ', one run each' : ''}; per item of all`, rows, items * BUSY_EXECUTIONS, latencyMs);
		}

		async function measure(rows: Row[], times: number, executions: number): Promise<void> {
			for (let round = 0; round < times; round++) {
				for (const r of rows) {
					await admin(url, 'DELETE', 'requests');
					collectGarbage();
					counter.reset();
					r.runs.push(executions === 1 ? await runPeer(r.peer, fx, items, r.config) : await runAtOnce(r, fx, items, executions));
					r.maxSeen = Math.max(r.maxSeen, counter.max());
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
