/**
 * CPU per request of the HTTP helpers n8n-core gives a node's execute(), on the project's
 * own n8n-core engine (harness/ runWorkflow), against the emulator in a process of its
 * own: 1,000 items, each the same GET of one item
 * (`GET /us/api/books/v3/items/<id>?organization_id=…`, `Authorization: Vendor-oauthtoken
 * <token>`), made by a bench-only node (below) with one helper, 10 requests in flight (a
 * simple promise pool that stops starting requests once the execution's cancel signal is
 * aborted), `{ json }` parsed from each body.
 *
 * Prints, per helper and options: CPU ms per request (this process's user + system CPU
 * during the workflow / items; median of `repeats` runs after a warm-up, GC before each
 * with --expose-gc), the same less the engine's floor (the node making no request at all),
 * the ratio to the package's call of today without a signal (row 1), and then, per helper:
 * - abort: with the emulator at 5 s latency, 1,000 items started, the execution cancelled
 *   300 ms later (10 requests in flight): whether the requests in flight settle within
 *   1 s of the cancel ("yes") or run on to the server's answer ("no");
 * - non-2xx: a GET of an item that does not exist (404), whether the status comes back in
 *   the response or is thrown;
 * - binary: a GET of an estimate's PDF (bytes that are not UTF-8) from a second emulator
 *   seeded with demo data, what the body is (Buffer, string, object) and whether its bytes
 *   are the file's (compared with a plain fetch).
 *
 *   npm run build:tools && node --expose-gc build/bench/request-helpers.js [items] [repeats]     (default 1000 3)
 */
import type { ChildProcess } from '../host/child_process';
import type { Readable } from '../host/stream';
import {
	NodeConnectionTypes,
	type IConnections,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { DEMO } from '../emulator/demo-data';
import { runWorkflow } from '../harness';
import type { HarnessWorkflow } from '../harness';
import { collectGarbage, fixture } from './peers';
import type { Fixture } from './peers';
import { admin, emulatorProcess, median } from './support';
import { console, process, globalThis, setTimeout } from '../host/globals';

/** The options of the legacy `this.helpers.request` this bench measures (n8n-workflow's IRequestOptions, a name n8n's lint refuses as deprecated). */
type RequestOptions = Exclude<Parameters<IExecuteFunctions['helpers']['request']>[0], string>;

const IN_FLIGHT = 10;

type Helper = 'none' | 'httpRequest' | 'request';

interface Variant {
	label: string;
	helper: Helper;
	/** Passes `abortSignal: this.getExecutionCancelSignal()` to the helper. */
	signal: boolean;
	/** Options added to the helper's call (after the common ones). */
	options: IDataObject;
}

const VARIANTS: Variant[] = [
	{
		label: 'httpRequest, arraybuffer, json:false (today)',
		helper: 'httpRequest',
		signal: false,
		options: { encoding: 'arraybuffer', json: false },
	},
	{
		label: 'httpRequest, arraybuffer, json:false + signal',
		helper: 'httpRequest',
		signal: true,
		options: { encoding: 'arraybuffer', json: false },
	},
	{
		label: 'request, encoding:null (HTTP Request)',
		helper: 'request',
		signal: false,
		options: { encoding: null },
	},
	{
		label: 'request, encoding:null + signal',
		helper: 'request',
		signal: true,
		options: { encoding: null },
	},
	{
		label: 'httpRequest, json:true (n8n parses)',
		helper: 'httpRequest',
		signal: false,
		options: { json: true },
	},
	{
		label: 'httpRequest, json:true + signal',
		helper: 'httpRequest',
		signal: true,
		options: { json: true },
	},
	{
		label: 'httpRequest, text, json:false + signal',
		helper: 'httpRequest',
		signal: true,
		options: { encoding: 'text', json: false },
	},
	{
		label: 'httpRequest, stream, json:false + signal',
		helper: 'httpRequest',
		signal: true,
		options: { encoding: 'stream', json: false },
	},
	{
		label: 'request, json:true (n8n parses)',
		helper: 'request',
		signal: false,
		options: { json: true },
	},
	{ label: 'no request (engine floor)', helper: 'none', signal: false, options: {} },
];

/** What the bench node does in the next run (set before each runWorkflow; the node has no parameters). */
interface Job {
	variant: Variant;
	/** Base URL and path of the GET, its query and token. */
	url: string;
	path: string;
	qs: IDataObject;
	token: string;
	/** Probe: one request, the answer described instead of parsed. */
	probe?: boolean;
	/** Filled by the node: when the cancel signal fired, when every request had settled, what the requests ended with. */
	abortedAt?: number;
	settledAt?: number;
	settled?: Promise<void>;
	ends?: Record<string, number>;
}

let job: Job | undefined;

interface Answer {
	status: number;
	body: unknown;
}

async function readStream(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** One GET with the variant's helper; the status and the body as the helper gives them. */
async function call(ctx: IExecuteFunctions, j: Job): Promise<Answer> {
	const { variant } = j;
	const headers = { Authorization: `Vendor-oauthtoken ${j.token}` };
	const signal = variant.signal ? { abortSignal: ctx.getExecutionCancelSignal() } : {};
	if (variant.helper === 'httpRequest') {
		const options = {
			method: 'GET',
			url: `${j.url}${j.path}`,
			qs: j.qs,
			headers,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			...variant.options,
			...signal,
		} as IHttpRequestOptions;
		const response = (await ctx.helpers.httpRequest(options)) as {
			statusCode: number;
			body: unknown;
		};
		return { status: response.statusCode, body: response.body };
	}
	const options = {
		method: 'GET',
		uri: `${j.url}${j.path}`,
		qs: j.qs,
		headers,
		resolveWithFullResponse: true,
		simple: false,
		...variant.options,
		...signal,
	} as RequestOptions;
	const response = (await ctx.helpers.request(options)) as { statusCode: number; body: unknown };
	return { status: response.statusCode, body: response.body };
}

function parse(body: unknown): IDataObject {
	if (Buffer.isBuffer(body)) return JSON.parse(body.toString('utf8')) as IDataObject;
	if (typeof body === 'string') return JSON.parse(body) as IDataObject;
	return body as IDataObject;
}

function kind(body: unknown): string {
	if (Buffer.isBuffer(body)) return 'Buffer';
	if (body instanceof ArrayBuffer) return 'ArrayBuffer';
	if (body !== null && typeof body === 'object' && typeof (body as Readable).pipe === 'function')
		return 'stream';
	return body === null ? 'null' : typeof body;
}

/** Runs `work(i)` for i in 0..count-1, at most `limit` at once; starts no more once `signal` is aborted; settles when all started ones have. */
async function pool<T>(
	count: number,
	limit: number,
	signal: AbortSignal | undefined,
	work: (i: number) => Promise<T>,
): Promise<T[]> {
	const results: T[] = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count && !signal?.aborted) {
			const i = next++;
			results[i] = await work(i);
		}
	};
	const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, count) }, worker));
	const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
	if (failed) throw failed.reason;
	return results;
}

/** The bench-only node: for each input item, the GET of `job` with its helper, `IN_FLIGHT` at once. */
// Typed as INodeType where it is used, not `implements INodeType`: n8n's lint would hold this bench node to the rules for a published one.
class RequestHelperBench {
	description: INodeTypeDescription = {
		displayName: 'Request Helper Bench',
		name: 'requestHelperBench',
		group: ['transform'],
		version: 1,
		description: 'Bench only: one GET per item with one of n8n-core’s HTTP helpers',
		defaults: { name: 'Request Helper Bench' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const j = job!;
		const items = this.getInputData();
		const signal = this.getExecutionCancelSignal();
		signal?.addEventListener('abort', () => (j.abortedAt = performance.now()), { once: true });
		const ends: Record<string, number> = (j.ends = {});
		const note = (end: string) => (ends[end] = (ends[end] ?? 0) + 1);
		let done: () => void = () => {};
		j.settled = new Promise<void>((resolve) => (done = resolve));
		try {
			const out = await pool(
				items.length,
				IN_FLIGHT,
				signal,
				async (i): Promise<INodeExecutionData> => {
					if (j.variant.helper === 'none') return { json: { i }, pairedItem: { item: i } };
					if (j.probe) {
						try {
							const answer = await call(this, j);
							const body =
								kind(answer.body) === 'stream'
									? await readStream(answer.body as Readable)
									: answer.body;
							return {
								json: {
									status: answer.status,
									body: kind(answer.body),
									bytes: Buffer.isBuffer(body)
										? body.toString('base64')
										: typeof body === 'string'
											? Buffer.from(body, 'utf8').toString('base64')
											: null,
								},
							};
						} catch (error) {
							const e = error as {
								name?: string;
								message?: string;
								statusCode?: number;
								status?: number;
								httpCode?: string;
							};
							return {
								json: {
									thrown: `${e.name}: ${String(e.message).slice(0, 80)}`,
									status: e.statusCode ?? e.status ?? e.httpCode ?? null,
								},
							};
						}
					}
					const get = async () => {
						const answer = await call(this, j);
						const body =
							kind(answer.body) === 'stream'
								? await readStream(answer.body as Readable)
								: answer.body;
						note(`HTTP ${answer.status}`);
						return { json: parse(body), pairedItem: { item: i } };
					};
					return await get().catch((error: unknown) => {
						const e = error as { name?: string; code?: string };
						note(`${e.name ?? 'Error'}${e.code ? ` ${e.code}` : ''}`);
						throw error;
					});
				},
			);
			return [out];
		} finally {
			j.settledAt = performance.now();
			done();
		}
	}
}

function workflow(items: number): HarnessWorkflow {
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
		{
			id: 'get',
			name: 'Get',
			type: 'n8n-nodes-vendor.requestHelperBench',
			typeVersion: 1,
			position: [400, 0],
			parameters: {},
		},
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
		Input: { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
	};
	return {
		nodes,
		connections,
		pinData: { Input: Array.from({ length: items }, (_, i) => ({ json: { i } })) },
	};
}

function itemJob(fx: Fixture, variant: Variant): Job {
	return {
		variant,
		url: fx.url,
		path: `/us/api/books/v3/items/${fx.itemId}`,
		qs: { organization_id: fx.organizationId },
		token: fx.token,
	};
}

/** One timed run of `items` GETs; checks every item came back with the fixture's item. Returns CPU ms. */
async function timedRun(fx: Fixture, variant: Variant, items: number): Promise<number> {
	job = itemJob(fx, variant);
	const cpu = process.cpuUsage();
	const result = await runWorkflow({ workflow: workflow(items), nodeTypes: [RequestHelperBench] });
	const used = process.cpuUsage(cpu);
	const error = result.error('Get') ?? result.error();
	if (error) throw new Error(`${variant.label}: ${error.message}`);
	const output = result.output('Get');
	if (output.length !== items)
		throw new Error(`${variant.label}: expected ${items} items, got ${output.length}`);
	if (variant.helper !== 'none') {
		for (const at of [0, items - 1]) {
			const item = output[at].json.item as IDataObject | undefined;
			if (item?.item_id !== fx.itemId)
				throw new Error(
					`${variant.label}: item ${at} is not the fixture's item: ${JSON.stringify(output[at].json).slice(0, 200)}`,
				);
		}
	}
	return (used.user + used.system) / 1000;
}

/** The abort check: 5 s latency, cancel 300 ms in; how long after the cancel the node's requests had all settled, and the run. */
async function abortCheck(
	fx: Fixture,
	variant: Variant,
	items: number,
): Promise<{ settleMs: number; runMs: number; ends: string }> {
	job = itemJob(fx, variant);
	const j = job;
	const started = runWorkflow({
		workflow: workflow(items),
		nodeTypes: [RequestHelperBench],
		timeoutMs: 300,
	});
	let runEndedAt = Number.NaN;
	const run = started.then(
		() => void (runEndedAt = performance.now()),
		() => void (runEndedAt = performance.now()),
	);
	// the node's requests settle at the latest when the server answers (5 s); a little more than that is the cap
	const cap = new Promise<void>((resolve) => setTimeout(resolve, 7000));
	while (!j.settled) await new Promise((r) => setTimeout(r, 10));
	await Promise.race([j.settled, cap]);
	await Promise.race([run, cap]);
	const abortedAt = j.abortedAt ?? Number.NaN;
	return {
		settleMs: (j.settledAt ?? Number.NaN) - abortedAt,
		runMs: runEndedAt - abortedAt,
		ends: Object.entries(j.ends ?? {})
			.map(([k, n]) => `${n} ${k}`)
			.join(', '),
	};
}

/** One request of a probe job; the node's description of the answer. */
async function probe(
	variant: Variant,
	url: string,
	path: string,
	qs: IDataObject,
	token: string,
): Promise<IDataObject> {
	job = { variant, url, path, qs, token, probe: true };
	const result = await runWorkflow({ workflow: workflow(1), nodeTypes: [RequestHelperBench] });
	const error = result.error('Get') ?? result.error();
	if (error) return { thrown: `${error.name}: ${error.message}` };
	return result.output('Get')[0].json;
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const repeats = Number(process.argv[3] ?? 3);
	const children: ChildProcess[] = [];
	try {
		const { url, child } = await emulatorProcess();
		children.push(child);
		const fx = await fixture(url);
		await admin(url, 'POST', 'latency', { ms: 0, jitterMs: 0 });

		// CPU per request: warm-up of each, then `repeats` rounds taking the variants in turn (rotated)
		for (const variant of VARIANTS) await timedRun(fx, variant, items);
		const cpu = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
		for (let round = 0; round < repeats; round++) {
			// each round starts one variant later, so that no variant always runs first (or right after the floor)
			for (let k = 0; k < VARIANTS.length; k++) {
				const variant = VARIANTS[(round + k) % VARIANTS.length];
				collectGarbage();
				cpu.get(variant)!.push(await timedRun(fx, variant, items));
			}
		}

		// Abort: 5 s latency, cancel once the first requests are in flight
		await admin(url, 'POST', 'latency', { ms: 5000, jitterMs: 0 });
		const aborts = new Map<Variant, { settleMs: number; runMs: number; ends: string }>();
		for (const variant of VARIANTS.filter((v) => v.helper !== 'none'))
			aborts.set(variant, await abortCheck(fx, variant, items));
		await admin(url, 'POST', 'latency', { ms: 0, jitterMs: 0 });

		// Non-2xx and binary bodies: a second emulator with demo data (an estimate to print)
		const demo = await emulatorProcess({ demo: true });
		children.push(demo.child);
		const demoToken = String(
			(await admin(demo.url, 'POST', 'tokens', { region: 'us' })).access_token,
		);
		const pdfPath = '/us/api/books/v3/estimates/pdf';
		const pdfQs = { organization_id: fx.organizationId, estimate_ids: DEMO.estimates.sent };
		const pdfRes = await fetch(`${demo.url}${pdfPath}?${new URLSearchParams(pdfQs).toString()}`, {
			headers: { Authorization: `Vendor-oauthtoken ${demoToken}` },
		});
		const pdf = Buffer.from(await pdfRes.arrayBuffer());
		if (pdfRes.status !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-')
			throw new Error(
				`the emulator's PDF: HTTP ${pdfRes.status}, ${pdf.subarray(0, 40).toString()}`,
			);
		const probes = new Map<Variant, { notFound: string; binary: string }>();
		for (const variant of VARIANTS.filter((v) => v.helper !== 'none')) {
			const nf = await probe(
				variant,
				demo.url,
				'/us/api/books/v3/items/1999999999999',
				{ organization_id: fx.organizationId },
				demoToken,
			);
			const notFound = nf.thrown
				? `thrown (${String(nf.thrown).slice(0, 60)}${nf.status ? `, status ${nf.status}` : ''})`
				: `in the response (statusCode ${nf.status}, body ${nf.body})`;
			const bin = await probe(variant, demo.url, pdfPath, pdfQs, demoToken);
			const bytes = typeof bin.bytes === 'string' ? Buffer.from(bin.bytes, 'base64') : undefined;
			const binary = bin.thrown
				? `thrown (${String(bin.thrown).slice(0, 60)})`
				: `${bin.body}${bytes ? (bytes.equals(pdf) ? ', the exact bytes' : `, NOT the bytes (${bytes.length} vs ${pdf.length} bytes)`) : ''}`;
			probes.set(variant, { notFound, binary });
		}

		const floor = median(cpu.get(VARIANTS[VARIANTS.length - 1])!) / items;
		const base = median(cpu.get(VARIANTS[0])!) / items;
		console.log(
			`\nn8n-core's HTTP helpers for nodes: ${items} GETs of one item, ${IN_FLIGHT} in flight, n8n-core's engine, emulator in its own process at 0 ms`,
		);
		console.log(
			`cpu: this process's CPU (user + system) during the workflow / items, median of ${repeats} runs after a warm-up, GC before each (${(globalThis as { gc?: unknown }).gc ? 'on' : 'off: run with --expose-gc'})`,
		);
		console.log(
			"less floor: minus the same workflow whose node makes no request. ratio: against row 1 (the package's call today, without the signal)",
		);
		console.log(
			'abort: 5 s latency, cancelled 300 ms in; "yes" when the requests in flight settled within 1 s of the cancel (ms after the cancel: node settled / run ended)',
		);
		console.log(
			`${'helper, options'.padEnd(46)} cpu ms/req  less floor  ratio  abort  settled/run ms  in-flight requests ended with`,
		);
		for (const variant of VARIANTS) {
			const c = median(cpu.get(variant)!) / items;
			const a = aborts.get(variant);
			const cells = [
				variant.label.padEnd(46),
				c.toFixed(3).padStart(10),
				(variant.helper === 'none' ? '' : (c - floor).toFixed(3)).padStart(11),
				`${(c / base).toFixed(2)}x`.padStart(6),
				(a ? (a.settleMs < 1000 ? 'yes' : 'no') : '').padStart(6),
				(a ? `${a.settleMs.toFixed(0)} / ${a.runMs.toFixed(0)}` : '').padStart(15),
				' ' + (a?.ends ?? ''),
			];
			console.log(cells.join(' '));
		}
		console.log(
			`\nnon-2xx (GET of an item that does not exist) and binary body (GET ${pdfPath}, a ${pdf.length}-byte PDF with non-UTF-8 bytes):`,
		);
		for (const [variant, p] of probes) {
			console.log(`${variant.label}\n  non-2xx: ${p.notFound}\n  binary:  ${p.binary}`);
		}
	} finally {
		for (const child of children) child.disconnect();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
