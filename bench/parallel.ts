/**
 * Parallel items: 1,000 items through Vendor Books Item -> Get with the emulator (in a
 * process of its own) answering after a fixed latency, at several Options → Requests in
 * Flight settings. Prints the time per item, the ideal (latency / requests in flight),
 * their ratio and the most requests the emulator saw at once. Goal: within 1.3x of the
 * ideal at the default setting.
 *
 *   npm run build && node build/bench/parallel.js [items] [latencyMs]     (default 1000 20)
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_SCOPES, VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { DEFAULT_REQUESTS_IN_FLIGHT } from '../nodes/shared/options';
import { DEFAULT_CLIENT, DEFAULT_ORGANIZATION_ID } from '../test/emulator/server';
import { runWorkflow } from '../test/harness';
import type { HarnessCredential } from '../test/harness';
import { chain, CREDENTIAL_ID, CREDENTIAL_NAME, expectNoError, NODE_TYPES, steps } from '../test/workflows/support';

async function admin(url: string, method: string, route: string, body?: unknown): Promise<IDataObject> {
	const res = await fetch(`${url}/__admin/${route}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
	return (await res.json()) as IDataObject;
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const latencyMs = Number(process.argv[3] ?? 20);
	const child = fork(path.join(__dirname, 'emulator-process.js'), [JSON.stringify({})]);
	const url = await new Promise<string>((resolve, reject) => {
		child.once('message', (m) => resolve((m as { url: string }).url));
		child.once('error', reject);
	});
	try {
		const tokens = await admin(url, 'POST', 'tokens', { region: 'us' });
		const credentials: HarnessCredential[] = [
			{
				id: CREDENTIAL_ID,
				name: CREDENTIAL_NAME,
				type: 'vendorOAuth2Api',
				data: {
					region: 'custom',
					accountsUrl: `${url}/us`,
					apiUrl: `${url}/us/api`,
					projectsUrl: `${url}/us/projects`,
					clientId: DEFAULT_CLIENT.clientId,
					clientSecret: DEFAULT_CLIENT.clientSecret,
					scope: DEFAULT_SCOPES,
					oauthTokenData: tokens,
				},
			},
		];
		const created = await fetch(`${url}/us/api/books/v3/items?organization_id=${DEFAULT_ORGANIZATION_ID}`, {
			method: 'POST',
			headers: { Authorization: `Vendor-oauthtoken ${String(tokens.access_token)}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: 'Bench widget', rate: 1 }),
		});
		const id = String(((await created.json()) as { item: IDataObject }).item.item_id);
		const get = steps('vendorBooks', { organizationId: DEFAULT_ORGANIZATION_ID, resource: 'item', operation: 'get', item_id: { __rl: true, mode: 'id', value: id } });
		const input = Array.from({ length: items }, (_, i) => ({ i }));
		let cpuMs = 0;
		const run = async (requestsInFlight: number): Promise<number> => {
			await admin(url, 'DELETE', 'requests');
			const cpu = process.cpuUsage();
			const started = performance.now();
			const result = await runWorkflow({ workflow: chain([get('Get', { options: { requestsInFlight } })], input), nodeTypes: NODE_TYPES, credentialTypes: [VendorOAuth2Api], credentials });
			const took = performance.now() - started;
			const used = process.cpuUsage(cpu);
			cpuMs = (used.user + used.system) / 1000;
			expectNoError(result);
			if (result.output('Get').length !== items) throw new Error(`expected ${items} outputs, got ${result.output('Get').length}`);
			return took;
		};
		await admin(url, 'POST', 'latency', { ms: 0 });
		await run(DEFAULT_REQUESTS_IN_FLIGHT); // warm-up (JIT), not reported
		await admin(url, 'POST', 'latency', { ms: latencyMs });
		console.log(`parallel items: ${items} x Item -> Get, server latency ${latencyMs} ms (emulator in its own process)`);
		console.log('(cpu ms/item: CPU time of the n8n side, this process, per item: with one core per process, ms/item cannot go below it)');
		console.log('in flight  total ms  ms/item  ideal ms/item  ratio  max seen at once  cpu ms/item');
		for (const inFlight of [...new Set([1, DEFAULT_REQUESTS_IN_FLIGHT, 25, 50])].sort((a, b) => a - b)) {
			const took = await run(inFlight);
			const perItem = took / items;
			const ideal = latencyMs / inFlight;
			const seen = (await admin(url, 'GET', 'in-flight')).max;
			const mark = inFlight === DEFAULT_REQUESTS_IN_FLIGHT ? '  <- default (goal: within 1.30x)' : '';
			const row = [inFlight, took.toFixed(0), perItem.toFixed(3), ideal.toFixed(3), `${(perItem / ideal).toFixed(2)}x`, seen, (cpuMs / items).toFixed(3)];
			console.log(row.map((v, i) => String(v).padStart([9, 9, 8, 14, 6, 17, 12][i])).join(' ') + mark);
		}
	} finally {
		child.disconnect();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
