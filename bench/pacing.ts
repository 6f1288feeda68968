/**
 * Pacing figures: runs workflows of the Vendor Projects node against the emulator with the
 * documented rule scaled down (same logic), and prints per run the requests, the 429s, the
 * most requests the server saw within one window, the time taken and the least time the rule
 * allows, with their ratio. These are the speed claims the tests do not make (test/api/pacing.test.ts
 * asserts only what holds on any machine: zero 429s, never more than the limit per window,
 * never sooner than the minimum; and, with a clock it controls, that the pacer lets requests
 * through as soon as the rule allows).
 *
 * Two tables:
 * - the scenarios of test/api/pacing.test.ts (3x the limit): input items, input items with 50
 *   requests in flight and 100 ms server latency, Return All over many pages, a batch trash.
 *   "span" is the first to the last request as the server received them (what the rule
 *   limits), "run" the whole workflow run; "minimum" the least span the rule allows (request
 *   k*limit+1 a window after request (k-1)*limit+1), "ideal" the pacer's own schedule with
 *   instant answers (the minimum plus, per window, the margin, 1 ms and the latency: a request
 *   counts from its answer); the ratio is span / minimum. "close" is the claim "in close to
 *   the minimum time" the tests used to assert: span below the minimum + the margin per
 *   window + 1500 ms;
 * - input items at 1x, 2x, 3x and 5x the limit (run time / minimum).
 *
 *   npm run build:tools && node build/bench/pacing.js [limit] [windowMs]     (default 10 1000)
 */
import type { IDataObject } from 'n8n-workflow';

import { DOCUMENTED_RULE, marginMs, setPacingRule } from '../nodes/shared/api/pacing';
import type { RecordedRequest } from '../emulator/server';
import { steps, WorkflowEnv } from '../harness/workflows';
import type { Step } from '../harness/workflows';
import { console, process } from '../host/globals';
import { mostInOneWindow } from './support';

interface Scenario {
	name: string;
	/** Sets up the data, returns the workflow's steps and input items. */
	prepare: () => { steps: Step[]; input?: IDataObject[] };
	latencyMs?: number;
}

const ratio = (took: number, minimum: number) =>
	minimum ? `${(took / minimum).toFixed(2)}x` : '-';
const row = (values: Array<string | number>, widths: number[]) =>
	values
		.map((v, i) => (i === 0 ? String(v).padEnd(widths[0]) : String(v).padStart(widths[i])))
		.join(' ');

async function main(): Promise<void> {
	const limit = Number(process.argv[2] ?? 10);
	const windowMs = Number(process.argv[3] ?? 1000);
	const rule = {
		limit,
		windowMs,
		blockMs: windowMs * (DOCUMENTED_RULE.blockMs / DOCUMENTED_RULE.windowMs),
	};
	const env = await new WorkflowEnv().start({ demo: true, rateLimit: rule });
	const portal = env.em.portalId;
	const projects = steps('vendorProjects', {
		portal_id: { __rl: true, mode: 'id', value: portal },
	});
	const minimumSpan = (n: number) => Math.floor((n - 1) / limit) * windowMs;
	const n = 3 * limit;
	const tenant = env.em.store.portal('us', portal)!;
	let trashRun = 0;

	const scenarios: Scenario[] = [
		{
			name: `${n} input items`,
			prepare: () => ({
				steps: [projects('Portal', { resource: 'portal', operation: 'get' })],
				input: Array.from({ length: n }, (_, i) => ({ i })),
			}),
		},
		{
			name: `${n} items, 50 in flight, 100 ms latency`,
			latencyMs: 100,
			prepare: () => ({
				steps: [
					projects('Portal', {
						resource: 'portal',
						operation: 'get',
						options: { requestsInFlight: 50 },
					}),
				],
				input: Array.from({ length: n }, (_, i) => ({ i })),
			}),
		},
		{
			name: `Return All over ${n} pages`,
			prepare: () => {
				for (let i = tenant.all('projects').length; i < n * 200 - 10; i++) {
					const id = String(5400000000000 + i);
					tenant.put('projects', id, { id, name: `Paced ${i}` });
				}
				return {
					steps: [projects('List', { resource: 'project', operation: 'getAll', returnAll: true })],
				};
			},
		},
		{
			name: `batch trash of ${n * 100} ids (${n} calls)`,
			prepare: () => {
				const ids = Array.from({ length: n * 100 }, (_, i) =>
					String(5500000000000 + trashRun * 1_000_000 + i),
				);
				trashRun++;
				for (const id of ids) tenant.put('issues', id, { id, name: `Issue ${id}` });
				return {
					steps: [
						projects('Trash', {
							resource: 'trash',
							operation: 'moveToTrash',
							module: 'issues',
							items: ids.join(','),
						}),
					],
				};
			},
		},
	];

	/** Runs one workflow on fresh pacers and a fresh server count; returns its requests and run time. */
	const measure = async (
		prepared: { steps: Step[]; input?: IDataObject[] },
		latencyMs = 0,
	): Promise<{ requests: RecordedRequest[]; took: number }> => {
		setPacingRule(rule);
		env.em.resetRateLimits();
		env.em.setLatency(latencyMs);
		env.em.clearRequests();
		const started = Date.now();
		try {
			const result = await env.run(prepared.steps, prepared.input);
			const error = result.error();
			if (error) throw error;
		} finally {
			env.em.setLatency(0);
		}
		return { requests: env.apiRequests(), took: Date.now() - started };
	};

	console.log(
		`rule: ${limit} requests per ${windowMs} ms (documented: ${DOCUMENTED_RULE.limit} per ${DOCUMENTED_RULE.windowMs} ms), margin ${marginMs(rule)} ms`,
	);
	try {
		const widths = [40, 9, 5, 11, 8, 7, 11, 9, 6, 6];
		console.log(
			row(
				[
					'scenario',
					'requests',
					'429s',
					'per window',
					'span ms',
					'run ms',
					'minimum ms',
					'ideal ms',
					'span',
					'close',
				],
				widths,
			),
		);
		for (const scenario of scenarios) {
			const { requests, took } = await measure(scenario.prepare(), scenario.latencyMs);
			const times = requests.map((r) => r.time);
			const span = times.length ? times[times.length - 1] - times[0] : 0;
			const windows = Math.floor((requests.length - 1) / limit);
			const minimum = minimumSpan(requests.length);
			const ideal = minimum + windows * (marginMs(rule) + 1 + (scenario.latencyMs ?? 0));
			const close = span < minimum + windows * marginMs(rule) + 1500;
			const refused = requests.filter((r) => r.status === 429).length;
			console.log(
				row(
					[
						scenario.name,
						requests.length,
						refused,
						`${mostInOneWindow(times, windowMs)}/${limit}`,
						span,
						took,
						minimum,
						ideal,
						ratio(span, minimum),
						close ? 'yes' : 'NO',
					],
					widths,
				),
			);
		}

		console.log('');
		console.log('items  requests  429s  time ms  minimum ms  overhead');
		for (const multiple of [1, 2, 3, 5]) {
			const items = multiple * limit;
			const { requests, took } = await measure({
				steps: [projects('Portal', { resource: 'portal', operation: 'get' })],
				input: Array.from({ length: items }, (_, i) => ({ i })),
			});
			const minimum = minimumSpan(items);
			const values = [
				items,
				requests.length,
				requests.filter((r) => r.status === 429).length,
				took,
				minimum,
				ratio(took, minimum),
			];
			console.log(values.map((v, i) => String(v).padStart([5, 9, 5, 8, 11, 9][i])).join(' '));
		}
	} finally {
		setPacingRule(DOCUMENTED_RULE);
		await env.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
