/**
 * Parallel items: 1,000 items through Vendor Books Item -> Get with the emulator (in a
 * process of its own) answering after a fixed latency, at several Options → Requests in
 * Flight settings. Prints the time per item, the ideal (latency / requests in flight),
 * their ratio, the most requests the emulator saw at once and the n8n side's CPU time per
 * item; once with the same delay for every answer, once with delays spread ± 25 %. Goal:
 * within 1.3x of the ideal at the default setting.
 *
 *   npm run build && node build/bench/parallel.js [items] [latencyMs]     (default 1000 20)
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { DEFAULT_REQUESTS_IN_FLIGHT } from '../nodes/shared/api/options';
import { DEFAULT_ORGANIZATION_ID } from '../emulator/server';
import { runWorkflow } from '../harness';
import {
	chain,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	expectNoError,
	NODE_TYPES,
	steps,
} from '../harness/workflows';
import { fixture } from './peers';
import { admin, emulatorProcess } from './support';
import { console, process } from '../host/globals';

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const latencyMs = Number(process.argv[3] ?? 20);
	const { url, child } = await emulatorProcess();
	try {
		const { credentials, itemId: id } = await fixture(url, {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
		});
		const get = steps('vendorBooks', {
			organizationId: DEFAULT_ORGANIZATION_ID,
			resource: 'item',
			operation: 'get',
			item_id: { __rl: true, mode: 'id', value: id },
		});
		const input = Array.from({ length: items }, (_, i) => ({ i }));
		/** One run: wall time and this process's CPU time, ms. */
		const run = async (requestsInFlight: number): Promise<{ took: number; cpuMs: number }> => {
			await admin(url, 'DELETE', 'requests');
			const cpu = process.cpuUsage();
			const started = performance.now();
			const result = await runWorkflow({
				workflow: chain([get('Get', { options: { requestsInFlight } })], input),
				nodeTypes: NODE_TYPES,
				credentialTypes: [VendorOAuth2Api],
				credentials,
			});
			const took = performance.now() - started;
			const used = process.cpuUsage(cpu);
			const cpuMs = (used.user + used.system) / 1000;
			expectNoError(result);
			if (result.output('Get').length !== items)
				throw new Error(`expected ${items} outputs, got ${result.output('Get').length}`);
			return { took, cpuMs };
		};
		await admin(url, 'POST', 'latency', { ms: 0 });
		await run(DEFAULT_REQUESTS_IN_FLIGHT); // warm-up (JIT), not reported
		const table = async (jitterMs: number): Promise<void> => {
			await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs });
			const spread = jitterMs
				? ` ± ${jitterMs} ms (each answer's delay drawn evenly from that range)`
				: ' (the same for every answer)';
			console.log(
				`\nparallel items: ${items} x Item -> Get, server latency ${latencyMs} ms${spread}, emulator in its own process`,
			);
			console.log(
				'in flight  total ms  ms/item  ideal ms/item  ratio  max seen at once  cpu ms/item',
			);
			for (const inFlight of [...new Set([1, DEFAULT_REQUESTS_IN_FLIGHT, 25, 50])].sort(
				(a, b) => a - b,
			)) {
				const { took, cpuMs } = await run(inFlight);
				const perItem = took / items;
				const ideal = latencyMs / inFlight;
				const seen = (await admin(url, 'GET', 'in-flight')).max;
				const mark =
					inFlight === DEFAULT_REQUESTS_IN_FLIGHT ? '  <- default (goal: within 1.30x)' : '';
				const row = [
					inFlight,
					took.toFixed(0),
					perItem.toFixed(3),
					ideal.toFixed(3),
					`${(perItem / ideal).toFixed(2)}x`,
					seen,
					(cpuMs / items).toFixed(3),
				];
				console.log(
					row.map((v, i) => String(v).padStart([9, 9, 8, 14, 6, 17, 12][i])).join(' ') + mark,
				);
			}
		};
		console.log(
			'cpu ms/item: CPU time of the n8n side (this process) per item. With k requests in flight and',
		);
		console.log(
			'the same delay for every answer, answers come back in bunches of k that this one thread',
		);
		console.log(
			'handles one after another: a round then takes about latency + k x cpu, so the ratio is near',
		);
		console.log(
			'1 + k x cpu / latency. Delays that vary, as over a real network, spread the bunches out.',
		);
		await table(0);
		await table(Math.round(latencyMs / 4));
		// The same run with n8n's HTTP helper answering at once from memory: what is left is the
		// package's own work and n8n's engine per item.
		const canned = {
			statusCode: 200,
			headers: { 'content-type': 'application/json' },
			body: Buffer.from(
				JSON.stringify({
					code: 0,
					message: 'success',
					item: { item_id: id, name: 'Bench widget', rate: 1 },
				}),
			),
		};
		const helpers = module.require(
			'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions',
		) as { getRequestHelperFunctions: (...args: unknown[]) => IDataObject };
		const original = helpers.getRequestHelperFunctions;
		helpers.getRequestHelperFunctions = (...args: unknown[]) => ({
			...original(...args),
			httpRequest: async () => canned,
		});
		try {
			await run(DEFAULT_REQUESTS_IN_FLIGHT);
			const { took, cpuMs } = await run(DEFAULT_REQUESTS_IN_FLIGHT);
			console.log(
				`\nwithout the network: n8n's HTTP helper answering from memory, ${DEFAULT_REQUESTS_IN_FLIGHT} in flight: ${(took / items).toFixed(3)} ms/item, cpu ${(cpuMs / items).toFixed(3)} ms/item (the package and n8n's engine)`,
			);
		} finally {
			helpers.getRequestHelperFunctions = original;
		}
	} finally {
		child.disconnect();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
