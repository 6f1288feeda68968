/**
 * Parallel items: 1,000 items through Vendor Books Item -> Get with the emulator answering
 * after a fixed latency, at several Options → Requests in Flight settings. Prints the time
 * per item, the ideal (latency / requests in flight), their ratio and the most requests the
 * emulator saw at once. Goal: within 1.3x of the ideal at the default setting.
 *
 *   npm run build && node dist/bench/parallel.js [items] [latencyMs]     (default 1000 20)
 */
import { DEFAULT_REQUESTS_IN_FLIGHT } from '../nodes/shared/options';
import { expectNoError, WorkflowEnv } from '../test/workflows/support';

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const latencyMs = Number(process.argv[3] ?? 20);
	const env = await new WorkflowEnv().start();
	try {
		const created = await env.call('POST', 'books', '/items', { json: { name: 'Bench widget', rate: 1 } });
		const id = String(created.body.item.item_id);
		const get = env.orgSteps('vendorBooks', { resource: 'item', operation: 'get', item_id: { __rl: true, mode: 'id', value: id } });
		const input = Array.from({ length: items }, (_, i) => ({ i }));
		const run = async (requestsInFlight: number): Promise<number> => {
			env.em.clearRequests();
			const started = performance.now();
			const result = await env.run([get('Get', { options: { requestsInFlight } })], input);
			const took = performance.now() - started;
			expectNoError(result);
			if (result.output('Get').length !== items) throw new Error(`expected ${items} outputs, got ${result.output('Get').length}`);
			return took;
		};
		env.em.setLatency(0);
		await run(DEFAULT_REQUESTS_IN_FLIGHT); // warm-up (JIT, connections), not reported
		env.em.setLatency(latencyMs);
		console.log(`parallel items: ${items} x Item -> Get, server latency ${latencyMs} ms (default Requests in Flight: ${DEFAULT_REQUESTS_IN_FLIGHT})`);
		console.log('in flight  total ms  ms/item  ideal ms/item  ratio  max seen at once');
		for (const inFlight of [1, DEFAULT_REQUESTS_IN_FLIGHT, 25, 50].filter((v, i, all) => all.indexOf(v) === i).sort((a, b) => a - b)) {
			const took = await run(inFlight);
			const perItem = took / items;
			const ideal = latencyMs / inFlight;
			const mark = inFlight === DEFAULT_REQUESTS_IN_FLIGHT ? ' (default, goal <= 1.30x)' : '';
			const row = [inFlight, took.toFixed(0), perItem.toFixed(3), ideal.toFixed(3), `${(perItem / ideal).toFixed(2)}x`, env.em.inFlight.max];
			console.log(row.map((v, i) => String(v).padStart([9, 9, 8, 14, 6, 17][i])).join(' ') + mark);
		}
	} finally {
		await env.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
