/**
 * The floor under the parallel-items figures: the same 1,000 GETs from the same emulator
 * (in its own process) by a plain `node:http` client with no n8n at all, 10 at once, a new
 * connection per request (as n8n's HTTP helper makes), spending a given CPU time per
 * request (split before and after the call) in place of n8n's work. Identical answer
 * delays against delays spread ± 25 %: with identical ones, even a client with nothing to
 * do stays above the ideal, and each millisecond of CPU per request adds about k x cpu /
 * latency, which spread delays do not.
 *
 *   npm run build:tools && node build/bench/http-floor.js [items] [latencyMs]     (default 1000 20)
 */
import http from '../host/http';

import { DEFAULT_REQUESTS_IN_FLIGHT } from '../nodes/shared/api/options';
import { DEFAULT_ORGANIZATION_ID } from '../emulator/server';
import { admin, emulatorProcess } from './support';
import { console, process } from '../host/globals';

/** Keeps this thread busy for `ms` (a stand-in for the client's work per request). */
function busy(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until);
}

async function get(url: URL, token: string, cpuMs: number): Promise<void> {
	busy(cpuMs / 2);
	await new Promise<void>((resolve, reject) => {
		const req = http.get(
			url,
			{ agent: new http.Agent(), headers: { Authorization: `Vendor-oauthtoken ${token}` } },
			(res) => {
				res.resume();
				res.on('end', () =>
					res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
				);
			},
		);
		req.on('error', reject);
	});
	busy(cpuMs / 2);
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const latencyMs = Number(process.argv[3] ?? 20);
	const k = DEFAULT_REQUESTS_IN_FLIGHT;
	const { url, child } = await emulatorProcess();
	try {
		const token = String((await admin(url, 'POST', 'tokens', { region: 'us' })).access_token);
		const target = new URL(
			`${url}/us/api/books/v3/items?organization_id=${DEFAULT_ORGANIZATION_ID}`,
		);
		const run = async (cpuMs: number, count: number): Promise<number> => {
			let next = 0;
			const started = performance.now();
			await Promise.all(
				Array.from({ length: k }, async () => {
					while (next++ < count) await get(target, token, cpuMs);
				}),
			);
			return (performance.now() - started) / count;
		};
		await run(0, 200); // warm-up
		const ideal = latencyMs / k;
		console.log(
			`\nhttp floor: ${items} GETs by a plain node:http client (no n8n), ${k} at once, a new connection each; ideal ${ideal.toFixed(3)} ms/item`,
		);
		console.log(
			'client cpu ms/request  identical delays: ms/item  ratio   spread ± 25 %: ms/item  ratio',
		);
		for (const cpuMs of [0, 0.5, 1]) {
			const figures: string[] = [];
			for (const jitterMs of [0, Math.round(latencyMs / 4)]) {
				await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs });
				const perItem = await run(cpuMs, items);
				figures.push(
					perItem.toFixed(3).padStart(jitterMs ? 24 : 27),
					`${(perItem / ideal).toFixed(2)}x`.padStart(6),
				);
			}
			console.log(String(cpuMs).padStart(21) + figures.join(''));
		}
	} finally {
		child.disconnect();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
