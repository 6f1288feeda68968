/**
 * Accounting pacing figures: Vendor Books Item -> Get runs against the emulator (in a process of
 * its own) enforcing a limit per organization (emulator/limits.ts: 429 past it), with the
 * package's accounting rule set to the same numbers. Prints per run the calls, the 429s, the most
 * requests the server saw within one window, the wall time, the limit's minimum (items / limit
 * windows: 1,000 items at 100 a minute take 10 minutes) and their ratio. The test
 * (test/workflows/accounting-pacing.test.ts) asserts the same on its own clock; this is real time.
 *
 * Three runs:
 * - the items alone;
 * - two executions of half the items each at once (they share the organization's figure);
 * - the items after another client of the organization used up the window just before (the
 *   first requests meet 429s and hold the organization until the window allows again; with
 *   `retry-after` as the fifth argument the emulator says how long in Retry-After).
 *
 * The service's figure is 100 per minute (a 1,000-item run then takes 10 minutes); by default
 * the bench scales the window down tenfold (100 per 6 s: the same logic, a minute's run):
 *
 *   npm run build:tools && node build/bench/accounting-pacing.js [items] [limit] [windowMs] [latencyMs] [retry-after]
 *                                                                  (default 1000 100 6000 20)
 *   node build/bench/accounting-pacing.js 1000 100 60000           the service's figure, 10 minutes a run
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { ACCOUNTING_RULE, marginMs, setPacingRule } from '../nodes/shared/api/pacing';
import { DEFAULT_ORGANIZATION_ID } from '../emulator/server';
import { runWorkflow } from '../harness';
import type { HarnessCredential } from '../harness';
import {
	chain,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	expectNoError,
	NODE_TYPES,
	steps,
} from '../harness/workflows';
import { fixture } from './peers';
import { admin, emulatorProcess, mostInOneWindow } from './support';
import { console, process } from '../host/globals';

interface Recorded {
	status: number;
	time: number;
	area?: string;
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 1000);
	const limit = Number(process.argv[3] ?? 100);
	const windowMs = Number(process.argv[4] ?? 6000);
	const latencyMs = Number(process.argv[5] ?? 20);
	const retryAfter = process.argv[6] === 'retry-after';
	const rule = { limit, windowMs };
	setPacingRule(rule, 'accounting');
	const { url, child } = await emulatorProcess({
		accountingRateLimit: { ...rule, retryAfter },
		latencyMs,
	});
	try {
		const { credentials, itemId, token } = await fixture(url, {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
		});
		// the credential's figure at the service's default: the pacer keeps to the whole (scaled) limit
		const credential: HarnessCredential[] = credentials.map((c) => ({
			...c,
			data: { ...c.data, accountingRequestsPerMinute: ACCOUNTING_RULE.limit },
		}));
		const get = steps('vendorBooks', {
			organizationId: DEFAULT_ORGANIZATION_ID,
			resource: 'item',
			operation: 'get',
			item_id: { __rl: true, mode: 'id', value: itemId },
		})('Get', {});
		const input = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
		const execute = async (n: number): Promise<void> => {
			const result = await runWorkflow({
				workflow: chain([get], input(n)),
				nodeTypes: NODE_TYPES,
				credentialTypes: [VendorOAuth2Api],
				credentials: credential,
			});
			expectNoError(result);
			if (result.output('Get').length !== n)
				throw new Error(`expected ${n} outputs, got ${result.output('Get').length}`);
		};
		/** Another client of the organization: `limit` calls (within the window), then the organization's minute is used up. */
		const anotherClient = async (): Promise<void> => {
			const call = async () =>
				await fetch(
					`${url}/us/api/books/v3/items/${itemId}?organization_id=${DEFAULT_ORGANIZATION_ID}`,
					{ headers: { Authorization: `Vendor-oauthtoken ${token}` } },
				);
			for (let i = 0; i < limit; i++) await (await call()).arrayBuffer();
		};
		const minimum = (items / limit) * windowMs;
		const runs: Array<{
			name: string;
			before?: () => Promise<void>;
			body: () => Promise<unknown>;
		}> = [
			{ name: `${items} items`, body: async () => await execute(items) },
			{
				name: `2 executions x ${items / 2} items at once`,
				body: async () => await Promise.all([execute(items / 2), execute(items / 2)]),
			},
			{
				name: `${items} items after another client used the window`,
				before: anotherClient,
				body: async () => await execute(items),
			},
		];
		console.log(
			`accounting pacing: Vendor Books Item -> Get against the emulator enforcing ${limit} per ${windowMs} ms per organization (the service: 100 per 60000 ms), ${retryAfter ? 'with' : 'without'} Retry-After, server latency ${latencyMs} ms, margin ${marginMs(rule)} ms a window; minimum = items / limit windows = ${minimum} ms`,
		);
		console.log(
			'run                                                  calls  429s  per window   wall ms  minimum ms  ratio',
		);
		for (const run of runs) {
			setPacingRule(rule, 'accounting'); // fresh pacers
			await admin(url, 'POST', 'rate-limit/reset');
			await run.before?.();
			await admin(url, 'DELETE', 'requests');
			const started = Date.now();
			await run.body();
			const wall = Date.now() - started;
			const recorded = (await admin(url, 'GET', 'requests')) as unknown as Recorded[];
			const calls = recorded.filter((r) => r.area === 'books');
			const refused = calls.filter((r) => r.status === 429).length;
			const most = mostInOneWindow(
				calls.filter((r) => r.status !== 429).map((r) => r.time),
				windowMs,
			);
			const row = [
				run.name,
				calls.length,
				refused,
				`${most}/${limit}`,
				wall,
				minimum,
				`${(wall / minimum).toFixed(2)}x`,
			];
			console.log(
				row
					.map((v, i) =>
						i === 0 ? String(v).padEnd(50) : String(v).padStart([0, 7, 5, 11, 9, 11, 6][i]),
					)
					.join(' '),
			);
		}
	} finally {
		setPacingRule(ACCOUNTING_RULE, 'accounting');
		child.disconnect();
	}
}

main().catch((error: IDataObject) => {
	console.error(error);
	process.exit(1);
});
