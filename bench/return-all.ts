/**
 * Return All over many pages, Vendor Books against n8n's HTTP Request node: the same
 * records (the emulator, in a process of its own, holds `records` items), read page after
 * page of 200 through n8n-core's engine.
 *
 * - Vendor Books: Item → Get Many, Return All (one output item per record).
 * - HTTP Request: GET of the items list with `per_page=200` and Options → Pagination
 *   "Update a Parameter in Each Request" (`page` = `{{ $pageCount + 1 }}`), complete when
 *   `{{ $response.body.page_context.has_more_page === false }}` (one output item per page),
 *   what a user of HTTP Request sets up for this API.
 *
 * Each run is a child process of its own (so one run's memory is not charged to the next),
 * after two warm-up runs of 4,000 records by each node (both loaded, as in n8n). Per run: wall time, CPU time, the calls the emulator
 * received, the peak RSS growth during the run (the process's highest RSS less its RSS
 * before the run; both are printed too) and the heap kept after it with the output still held (after garbage
 * collection), both per byte of the records' JSON. Runs alternate between the two; the
 * medians and their ratios are printed, with each run's figures.
 *
 *   npm run build:tools && node build/bench/return-all.js [records] [repeats]     (default 20000 7)
 */
import type { IConnections, IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { VendorBooks } from '../nodes/VendorBooks/VendorBooks.node';
import { runWorkflow } from '../harness';
import type { HarnessWorkflow } from '../harness';
import { spawnSync } from '../host/child_process';
import fs from '../host/fs';
import { console, globalThis, process } from '../host/globals';
import { fixture, httpRequestNode } from './peers';
import type { Fixture, PeerName } from './peers';
import { setupHttpRequest } from './setup-http-request';
import { admin, emulatorProcess, median } from './support';

const PAGE = 200;
/** Records of each of the two warm-up runs (well below the measured run, whose peak RSS is read). */
const WARM_UP = 4000;

interface Figures {
	wallMs: number;
	cpuMs: number;
	calls: number;
	records: number;
	jsonBytes: number;
	/** Highest RSS during the run less the RSS before it, bytes. */
	rssGrowth: number;
	/** RSS before the run and the process's highest RSS, bytes. */
	rssBefore: number;
	peakRss: number;
	/** Heap used after the run (output held, after GC) less before it, bytes. */
	heapKept: number;
	/** The same with only the records held (the output's items and pages let go), bytes. */
	recordsKept: number;
}

function workflow(get: INode): HarnessWorkflow {
	const nodes: INode[] = [
		{
			id: 'trigger',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{ ...get, id: 'list', name: 'List', position: [200, 0] },
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'List', type: 'main', index: 0 }]] },
	};
	return { nodes, connections };
}

function vendorList(fx: Fixture, limit?: number): INode {
	const parameters = {
		organizationId: { __rl: true, mode: 'id', value: fx.organizationId },
		resource: 'item',
		operation: 'getAll',
		returnAll: limit === undefined,
		...(limit === undefined ? {} : { limit }),
	};
	return {
		id: '',
		name: '',
		type: 'n8n-nodes-vendor.vendorBooks',
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { vendorOAuth2Api: { id: 'bench-vendor', name: 'Vendor (emulator)' } },
	};
}

function httpRequestList(fx: Fixture, maxPages?: number): INode {
	const parameters = {
		method: 'GET',
		url: `${fx.url}/us/api/books/v3/items`,
		authentication: 'none',
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: {
			parameters: [
				{ name: 'organization_id', value: fx.organizationId },
				{ name: 'per_page', value: String(PAGE) },
			],
		},
		sendHeaders: true,
		specifyHeaders: 'keypair',
		headerParameters: {
			parameters: [{ name: 'Authorization', value: `Vendor-oauthtoken ${fx.token}` }],
		},
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
					},
					paginationCompleteWhen: 'other',
					completeExpression: '={{ $response.body.page_context.has_more_page === false }}',
					...(maxPages === undefined ? {} : { limitPagesFetched: true, maxRequests: maxPages }),
				},
			},
		},
	};
	return {
		id: '',
		name: '',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: httpRequestNode().typeVersion,
		position: [0, 0],
		parameters,
	};
}

/** The records of a run's output: one per item (Vendor), or the `items` of each page (HTTP Request). */
function recordsOf(peer: PeerName, output: INodeExecutionData[]): IDataObject[] {
	if (peer === 'vendor') return output.map((o) => o.json);
	return output.flatMap((o) => (o.json.items as IDataObject[] | undefined) ?? []);
}

async function runList(peer: PeerName, fx: Fixture, limit?: number): Promise<INodeExecutionData[]> {
	const result =
		peer === 'vendor'
			? await runWorkflow({
					workflow: workflow(vendorList(fx, limit)),
					nodeTypes: [VendorBooks],
					credentialTypes: [VendorOAuth2Api],
					credentials: fx.credentials,
					loadOnce: true,
				})
			: await runWorkflow({
					workflow: workflow(httpRequestList(fx, limit === undefined ? undefined : limit / PAGE)),
					nodeTypes: [httpRequestNode().HttpRequest],
					packageName: 'n8n-nodes-base',
					loadOnce: true,
				});
	const error = result.error('List') ?? result.error();
	if (error) throw error;
	return result.output('List');
}

/**
 * Sets the kernel's peak RSS of this process (VmHWM) to its RSS now (Linux: `5` written to
 * /proc/self/clear_refs), so the peak read after the run is the run's own, not one reached
 * before it. False where that cannot be done: the peak is then the process's lifetime peak.
 */
function resetPeakRss(): boolean {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

/** The peak RSS since `resetPeakRss()` (VmHWM), or the lifetime peak where it could not be reset. */
function peakRss(reset: boolean): number {
	const hwm = reset ? /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8')) : null;
	return hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

function gc(): void {
	const collect = (globalThis as { gc?: () => void }).gc;
	if (!collect) throw new Error('run with --expose-gc');
	collect();
	collect();
}

/** In the child: the emulator, a warm-up, then the measured run; prints its figures as the last line. */
async function child(peer: PeerName, records: number): Promise<void> {
	const { url, child: emulator } = await emulatorProcess({ seedItems: records });
	try {
		const fx = await fixture(url);
		// both nodes loaded and warmed in every child, as n8n has both loaded: the same start for either
		for (let run = 0; run < 2; run++)
			for (const warm of ['httpRequest', 'vendor'] as const)
				recordsOf(warm, await runList(warm, fx, WARM_UP));
		await admin(url, 'DELETE', 'requests');
		gc();
		const rssBefore = process.memoryUsage().rss;
		const reset = resetPeakRss();
		const heapBefore = process.memoryUsage().heapUsed;
		const cpu = process.cpuUsage();
		const started = performance.now();
		const output = await runList(peer, fx);
		const wallMs = performance.now() - started;
		const used = process.cpuUsage(cpu);
		const peak = peakRss(reset);
		gc();
		const heapKept = process.memoryUsage().heapUsed - heapBefore;
		const got = recordsOf(peer, output);
		output.length = 0;
		gc();
		const recordsKept = process.memoryUsage().heapUsed - heapBefore;
		const calls = ((await admin(url, 'GET', 'requests')) as unknown as unknown[]).length;
		const figures: Figures = {
			wallMs,
			cpuMs: (used.user + used.system) / 1000,
			calls,
			records: got.length,
			jsonBytes: Buffer.byteLength(JSON.stringify(got)),
			rssGrowth: peak - rssBefore,
			rssBefore,
			peakRss: peak,
			heapKept,
			recordsKept,
		};
		console.log(JSON.stringify(figures));
	} finally {
		emulator.disconnect();
	}
}

const LABEL: Record<PeerName, string> = {
	httpRequest: 'HTTP Request, pagination',
	vendor: 'Vendor Books, Return All',
};

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	if (args[0] === '--child') return await child(args[1] as PeerName, Number(args[2]));
	const records = Number(args[0] ?? 20000);
	const repeats = Number(args[1] ?? 7);
	setupHttpRequest();
	const runs: Record<PeerName, Figures[]> = { httpRequest: [], vendor: [] };
	for (let round = 0; round < repeats; round++) {
		for (const peer of ['httpRequest', 'vendor'] as const) {
			const result = spawnSync(
				process.execPath,
				['--expose-gc', module.filename, '--child', peer, String(records)],
				{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
			);
			if (result.status !== 0)
				throw new Error(`${peer} run failed (${result.status}): ${result.stdout}`);
			const figures = JSON.parse(result.stdout.trim().split('\n').pop()!) as Figures;
			// the fixture adds one item of its own to the seeded ones
			if (figures.records !== records + 1)
				throw new Error(`${peer}: ${figures.records} records, expected ${records + 1}`);
			runs[peer].push(figures);
		}
	}
	const jsonBytes = runs.vendor[0].jsonBytes;
	console.log(
		`\nReturn All over ${records.toLocaleString('en-US')} records (${(jsonBytes / 1e6).toFixed(1)} MB of JSON), pages of ${PAGE}, emulator at 0 ms in its own process; each run a child process of its own; median of ${repeats} runs, taken in turn`,
	);
	console.log(
		'peer                       calls   wall ms    cpu ms   RSS growth / JSON byte   heap kept / JSON byte   RSS before, peak MB   (each run: wall, RSS growth / byte)',
	);
	const med = (peer: PeerName, f: (x: Figures) => number) => median(runs[peer].map(f));
	for (const peer of ['httpRequest', 'vendor'] as const) {
		const each = runs[peer]
			.map((x) => `${x.wallMs.toFixed(0)} ms ${(x.rssGrowth / x.jsonBytes).toFixed(2)}`)
			.join('; ');
		const cells = [
			LABEL[peer].padEnd(26),
			String(med(peer, (x) => x.calls)).padStart(5),
			med(peer, (x) => x.wallMs)
				.toFixed(0)
				.padStart(9),
			med(peer, (x) => x.cpuMs)
				.toFixed(0)
				.padStart(9),
			med(peer, (x) => x.rssGrowth / x.jsonBytes)
				.toFixed(2)
				.padStart(24),
			med(peer, (x) => x.heapKept / x.jsonBytes)
				.toFixed(2)
				.padStart(23),
			`${(med(peer, (x) => x.rssBefore) / 1e6).toFixed(0)}, ${(med(peer, (x) => x.peakRss) / 1e6).toFixed(0)}`.padStart(
				21,
			),
		];
		console.log(`${cells.join(' ')}   (${each})`);
	}
	const ratio = (f: (x: Figures) => number) =>
		`${(med('vendor', f) / med('httpRequest', f)).toFixed(2)}x`;
	console.log(
		`Vendor / HTTP Request: wall ${ratio((x) => x.wallMs)}, cpu ${ratio((x) => x.cpuMs)}, RSS growth per JSON byte ${ratio((x) => x.rssGrowth / x.jsonBytes)}, heap kept per JSON byte ${ratio((x) => x.heapKept / x.jsonBytes)}`,
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
