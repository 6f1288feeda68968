/**
 * Accounting pacing across processes, as queue-mode workers share an organization: 1, 2 and 3
 * child processes (each its own n8n engine and its own pacer, knowing nothing of the others) run
 * Vendor Books Item -> Get for `items` items each, at once, at default settings (Accounting
 * Requests per Minute left at its default), against one emulator (a process of its own) enforcing
 * the organization's limit (emulator/limits.ts: `limit` per `windowMs`, 429 past it, no
 * Retry-After). Prints per case: the 429s, the most successful requests within any window, the
 * average per window (successful requests over the run, first to last), the wall time (with the
 * children's start), the run (first request to last) against the limit's minimum (all items /
 * limit windows), and the items that ended with an error.
 *
 * Real time: at the service's figure (100 a minute) the three cases take about 1.5 + 3 + 4.5
 * minutes. A scaled run (the same logic, the window shortened) for a quick look:
 *
 *   npm run build:tools && node build/bench/multi-process-pacing.js [items] [limit] [windowMs] [processes...]
 *                                                                     (default 150 100 60000 1 2 3)
 *   node build/bench/multi-process-pacing.js 150 100 6000        the window scaled down tenfold
 */
import type { IDataObject } from 'n8n-workflow';

import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { ACCOUNTING_RULE, setPacingRule } from '../nodes/shared/api/pacing';
import { DEFAULT_ORGANIZATION_ID } from '../emulator/server';
import { runWorkflow } from '../harness';
import type { HarnessCredential } from '../harness';
import { chain, CREDENTIAL_ID, CREDENTIAL_NAME, NODE_TYPES, steps } from '../harness/workflows';
import { fixture } from './peers';
import { admin, emulatorProcess, mostInOneWindow } from './support';
import { fork } from '../host/child_process';
import { console, process } from '../host/globals';

interface Recorded {
	status: number;
	time: number;
	area?: string;
}

/** What the parent hands each child. */
interface Job {
	credentials: HarnessCredential[];
	itemId: string;
	items: number;
	rule: { limit: number; windowMs: number };
}

/** A child: one execution of `items` Item -> Get (continue on fail: an item that ends with an error is counted, not the run's end). */
async function child(job: Job): Promise<void> {
	setPacingRule(job.rule, 'accounting');
	const get = steps('vendorBooks', {
		organizationId: DEFAULT_ORGANIZATION_ID,
		resource: 'item',
		operation: 'get',
		item_id: { __rl: true, mode: 'id', value: job.itemId },
	})('Get', {}, { onError: 'continueRegularOutput' });
	const input = Array.from({ length: job.items }, (_, i) => ({ i }));
	const result = await runWorkflow({
		workflow: chain([get], input),
		nodeTypes: NODE_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials: job.credentials,
	});
	const out = result.output('Get');
	const failed =
		job.items -
		out.filter(
			(o) =>
				(o.json as IDataObject).error === undefined &&
				(o.json as IDataObject).item_id !== undefined,
		).length;
	process.send?.({ failed });
}

/** Starts a child with its job; resolves with the items that ended with an error. */
async function runChild(job: Job): Promise<number> {
	const proc = fork(module.filename, ['child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
	proc.send(job);
	return await new Promise<number>((resolve, reject) => {
		proc.once('message', (m) => {
			resolve((m as { failed: number }).failed);
			proc.disconnect();
		});
		proc.once('error', reject);
		proc.once('exit', (code) =>
			code ? reject(new Error(`a child exited with ${code}`)) : undefined,
		);
	});
}

async function main(): Promise<void> {
	const items = Number(process.argv[2] ?? 150);
	const limit = Number(process.argv[3] ?? 100);
	const windowMs = Number(process.argv[4] ?? 60_000);
	const cases = process.argv.length > 5 ? process.argv.slice(5).map(Number) : [1, 2, 3];
	const rule = { limit, windowMs };
	const { url, child: emulator } = await emulatorProcess({
		accountingRateLimit: rule,
		latencyMs: 20,
	});
	try {
		const { credentials, itemId } = await fixture(url, {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
		});
		// default settings: the credential's Accounting Requests per Minute left unset (its default, 100)
		const atDefault: HarnessCredential[] = credentials.map((c) => {
			const data = { ...c.data };
			delete data.accountingRequestsPerMinute;
			return { ...c, data };
		});
		console.log(
			`multi-process accounting pacing: N processes x ${items} Vendor Books Item -> Get at once, default settings, one emulator enforcing ${limit} per ${windowMs} ms per organization (no Retry-After), latency 20 ms`,
		);
		console.log(
			'processes  items  429s  busiest window  per window avg   wall s    run s  minimum s  ratio  items failed',
		);
		for (const n of cases) {
			await admin(url, 'POST', 'rate-limit/reset');
			await admin(url, 'DELETE', 'requests');
			const started = Date.now();
			const failed = await Promise.all(
				Array.from(
					{ length: n },
					async () => await runChild({ credentials: atDefault, itemId, items, rule }),
				),
			);
			const wall = Date.now() - started;
			const calls = ((await admin(url, 'GET', 'requests')) as unknown as Recorded[]).filter(
				(r) => r.area === 'books',
			);
			const ok = calls.filter((r) => r.status !== 429).map((r) => r.time);
			const refused = calls.length - ok.length;
			const average =
				ok.length > 1 ? ((ok.length - 1) / (ok[ok.length - 1] - ok[0])) * windowMs : 0;
			const minimum = ((n * items) / limit) * windowMs;
			// the run: first request to last answer (the wall time adds the children's start, a few seconds)
			const run = calls.length ? calls[calls.length - 1].time - calls[0].time : 0;
			const row = [
				n,
				n * items,
				refused,
				`${mostInOneWindow(ok, windowMs)}/${limit}`,
				average.toFixed(1),
				(wall / 1000).toFixed(1),
				(run / 1000).toFixed(1),
				(minimum / 1000).toFixed(1),
				`${(run / minimum).toFixed(2)}x`,
				failed.reduce((a, b) => a + b, 0),
			];
			console.log(
				row.map((v, i) => String(v).padStart([9, 6, 5, 15, 15, 8, 8, 10, 6, 13][i])).join(' '),
			);
		}
	} finally {
		setPacingRule(ACCOUNTING_RULE, 'accounting');
		emulator.disconnect();
	}
}

if (process.argv[2] === 'child') {
	process.once('message', (job) => {
		child(job as Job).catch((error: IDataObject) => {
			console.error(error);
			process.exit(1);
		});
	});
} else {
	main().catch((error: IDataObject) => {
		console.error(error);
		process.exit(1);
	});
}
