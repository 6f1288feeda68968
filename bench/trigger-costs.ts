/**
 * What the polling triggers cost in API calls: for every event of the five trigger
 * nodes, on an account holding N records of each kind the triggers watch (put straight into the
 * emulator's store, emulator/seed.ts: a quarter of the estimates accepted, a
 * quarter of the invoices overdue, payments dated over three years), the calls of
 *
 * - the poll at activation (it takes the baseline),
 * - a quiet poll (nothing changed since the last one),
 * - the poll after one change (one record made, or one status changed),
 *
 * and the calls a day a quiet poll every minute (n8n's default Poll Times) would make, before
 * the trigger's Max API Calls per Day spaces the polls (the figures are measured with the
 * budget out of the way). Calls are the requests the emulator received (it dates its answers
 * by its own clock, the service's time); the pacing of the areas is set out of the way too (the count is what is measured, not the time). Prints one
 * markdown table per N, then one with the quiet-poll column of every N.
 *
 *   npm run build:tools && node build/bench/trigger-costs.js [N ...]     (default 1000 10000 100000)
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { setPacingRule } from '../nodes/shared/api/pacing';
import { Clock } from '../emulator/clock';
import { pollOnce } from '../harness';
import { console, process } from '../host/globals';
import { vendorNode, WorkflowEnv } from '../harness/workflows';
import { type Account, seedAccount } from '../emulator/seed';
import { eventCases } from '../harness/trigger-events';

interface Row {
	label: string;
	activation: number;
	quiet: number;
	afterChange: number;
	/** The change was emitted, once, by the poll after it. */
	found: boolean;
}

const fmt = (n: number) => n.toLocaleString('en-US');

async function measure(n: number): Promise<Row[]> {
	// the emulator's clock starts at n8n's (real) now: the date window reads today's dates
	const clock = new Clock();
	const env = await new WorkflowEnv().start({
		clock,
		rateLimit: { limit: 1_000_000_000, windowMs: 120_000, blockMs: 1 },
	});
	try {
		const account: Account = {
			store: env.em.store,
			clock,
			org: env.orgTenant(),
			portal: env.portalTenant(),
		};
		seedAccount(account, n);
		const rows: Row[] = [];
		for (const event of eventCases(env.org, env.portal)) {
			let staticData: IDataObject = {};
			const poll = async () => {
				env.em.clearRequests();
				const result = await pollOnce({
					nodeType: event.nodeType,
					node: vendorNode(
						event.nodeType,
						{ ...event.parameters, maxCallsPerDay: 1_000_000_000 },
						'Trigger',
					),
					credentials: env.credentials,
					credentialTypes: [VendorOAuth2Api],
					staticData,
				});
				staticData = result.staticData;
				return {
					calls: env.apiRequests().length,
					ids: (result.items?.[0] ?? []).map((i) => String(i.json[event.idField])),
				};
			};
			clock.advance(1000);
			const activation = await poll();
			clock.advance(60_000);
			const quiet = await poll();
			clock.advance(1000);
			const changed = event.change(account);
			const after = await poll();
			rows.push({
				label: event.label,
				activation: activation.calls,
				quiet: quiet.calls,
				afterChange: after.calls,
				found: after.ids.length === 1 && after.ids[0] === changed,
			});
			process.stderr.write(`N = ${fmt(n)}: ${event.label} done\n`);
		}
		return rows;
	} finally {
		await env.stop();
	}
}

async function main(): Promise<void> {
	const sizes = process.argv
		.slice(2)
		.map(Number)
		.filter((v) => Number.isInteger(v) && v > 0);
	const ns = sizes.length ? sizes : [1000, 10_000, 100_000];
	setPacingRule({ limit: 1_000_000_000, windowMs: 60_000 }, 'accounting');
	setPacingRule({ limit: 1_000_000_000, windowMs: 120_000, blockMs: 1_800_000 });
	const all = new Map<number, Row[]>();
	for (const n of ns) {
		const rows = await measure(n);
		all.set(n, rows);
		console.log(`\nN = ${fmt(n)} records of each kind\n`);
		console.log(
			'| event | activation | quiet poll | poll after one change | change emitted once | calls a day, quiet, every minute |',
		);
		console.log('|---|---|---|---|---|---|');
		for (const r of rows)
			console.log(
				`| ${r.label} | ${fmt(r.activation)} | ${fmt(r.quiet)} | ${fmt(r.afterChange)} | ${r.found ? 'yes' : 'NO'} | ${fmt(r.quiet * 1440)} |`,
			);
	}
	console.log(`\nCalls per quiet poll\n`);
	console.log(
		`| event | ${ns.map((n) => `N = ${fmt(n)}`).join(' | ')} | calls a day at every minute, N = ${fmt(ns[ns.length - 1])} |`,
	);
	console.log(`|---|${ns.map(() => '---|').join('')}---|`);
	const labels = (all.get(ns[0]) ?? []).map((r) => r.label);
	for (const label of labels) {
		const quiet = ns.map((n) => all.get(n)?.find((r) => r.label === label)?.quiet ?? 0);
		console.log(
			`| ${label} | ${quiet.map(fmt).join(' | ')} | ${fmt(quiet[quiet.length - 1] * 1440)} |`,
		);
	}
	if ([...all.values()].some((rows) => rows.some((r) => !r.found))) process.exitCode = 1;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
