#!/usr/bin/env node
/**
 * `npm run check:n8n:queue:429`: a Vendor Books Trigger in a real n8n in queue mode (n8n 2.41.1:
 * main + 2 workers, PostgreSQL, Redis; the stack of trigger-stack.js) while every read of the
 * invoice list is answered 429 for several Poll Times intervals. n8n's cron fires a poll every
 * minute whether or not the last one ended, and a poll that waits out 429 holds outlasts the
 * minute: this checks that each invoice made during the outage is still emitted by exactly one
 * execution once the service answers again.
 *
 *  1. the stack in queue mode (n8n's defaults); a workflow Vendor Books Trigger (Invoice
 *     Created, Poll Times every minute, default options) -> No Operation, activated: the poll at
 *     activation takes the baseline (a read of the invoice list answered 200)
 *  2. every read of the invoice list answered 429 (the emulator's fault queue, no Retry-After:
 *     the accounting areas' minute) for --outage seconds (default 180); two invoices made through
 *     the emulator's API meanwhile (15 s in and 60 % in); n8n's executions list sampled every 15 s
 *  3. the fault cleared; until both invoices are emitted and --tail seconds (default 150) have
 *     passed since, the executions sampled again
 *  4. reported: how many executions emitted each invoice, n8n's reads of the invoice list (by
 *     answer; during and after the outage), the executions n8n listed during the outage (by
 *     status); checked: each invoice emitted exactly once
 *
 * Usage: npm run check:n8n:queue:429 [-- --outage <s>] [--tail <s>] [--n8n <version>] [--keep] [--skip-build] [--fresh]
 * Runs as root (apt-get, PostgreSQL as the postgres user); about 9 minutes after the install.
 *
 * Verified 2026-12-04 on n8n 2.41.1: before one-poll-at-a-time each invoice was emitted by three
 * executions (no execution listed during the outage); with it, by one (two error executions
 * listed during the outage, one for each poll that met a 429 hold).
 */
'use strict';

const { parseOptions, Session, step, check, secs } = require('./n8n-session');
const { sleep } = require('./start');
const { emissionsOf, nodeState, describeState, emulatorAdmin, allLogs } = require('./queue-n8n');
const {
	prepare,
	runChecks,
	triggerWorkflow,
	activateChecked,
	n8nCalls,
	createInvoice,
	emittedBy,
	executionsText,
} = require('./trigger-stack');

const USAGE =
	'usage: npm run check:n8n:queue:429 -- [--outage <s>] [--tail <s>] [--n8n <version>] [--keep] [--skip-build] [--fresh]';
const options = parseOptions(process.argv.slice(2), {
	command: 'check:n8n:queue:429',
	usage: USAGE,
	flags: ['--fresh', '--keep', '--skip-build'],
	values: ['--n8n', '--outage', '--tail'],
});
const OUTAGE_MS = Number(options.value.outage || 180) * 1000;
const TAIL_MS = Number(options.value.tail || 150) * 1000;
if (!(OUTAGE_MS >= 60_000 && TAIL_MS >= 30_000))
	options.fail('--outage must be at least 60 s and --tail at least 30 s');

const TRIGGER = 'When an Invoice Is Created';
const LIST = 'books.invoice.getAll';
const s = new Session(options);

const emissions = () => emissionsOf(s, s.workflowId, TRIGGER, 'invoice_id');
const state = () => describeState(nodeState(s, s.workflowId, TRIGGER));
const at = (t) => `+${((t - s.outageAt) / 1000).toFixed(1)} s`;

/** The executions list now, counted by status (with the running ones), kept in `s.samples`. */
async function sample(phase) {
	const execs = await emissions();
	const by = {};
	for (const e of execs) by[e.status] = (by[e.status] || 0) + 1;
	s.samples.push({ phase, t: Date.now(), total: execs.length, by });
	s.lastExecs = execs;
	return execs;
}

async function scenario() {
	console.log(
		`Queue-mode 429 check: n8n ${options.version}, every invoice-list read answered 429 for ${secs(OUTAGE_MS)}, then ${secs(TAIL_MS)} more`,
	);
	s.samples = [];
	await prepare(s, { queue: true });
	await step(
		'Vendor Books Trigger (Invoice Created, every minute, default options) -> No Operation, activated: the baseline taken',
		async () => {
			s.workflowId = await triggerWorkflow(s, {
				name: 'Vendor: invoices while the list answers 429',
				type: 'vendorBooksTrigger',
				triggerName: TRIGGER,
				parameters: {
					organizationId: { __rl: true, mode: 'id', value: s.em.organizationId },
					event: 'invoiceCreated',
				},
			});
			s.activatedAt = Date.now();
			const activated = await activateChecked(s, s.workflowId);
			await sleep(3_000);
			const reads = n8nCalls(s, LIST, s.activatedAt);
			check(
				reads.some((r) => r.status === 200),
				`no read of the invoice list answered 200 at activation: ${reads.map((r) => r.status).join(', ')}`,
			);
			return [
				`workflow ${s.workflowId}: ${activated}; n8n's reads of the invoice list: ${reads.map((r) => r.status).join(', ')}`,
				`saved state: ${state()}`,
			];
		},
	);
	await step(
		`every read of the invoice list answered 429 for ${secs(OUTAGE_MS)}; two invoices made meanwhile; the executions list sampled`,
		async () => {
			await emulatorAdmin(s, 'POST', 'faults', {
				count: 1_000_000,
				scope: LIST,
				fault: { kind: 'status', status: 429 },
			});
			s.outageAt = Date.now();
			const plan = [
				{ at: 15_000, label: 'first invoice during the outage' },
				{ at: Math.round(OUTAGE_MS * 0.6), label: 'second invoice during the outage' },
			];
			s.invoices = [];
			while (Date.now() - s.outageAt < OUTAGE_MS) {
				const next = plan[s.invoices.length];
				if (next && Date.now() - s.outageAt >= next.at) {
					const inv = await createInvoice(s, next.label);
					s.invoices.push({ ...inv, madeAt: Date.now() });
					continue;
				}
				await sample('outage');
				await sleep(
					Math.min(
						15_000,
						Math.max(0, OUTAGE_MS - (Date.now() - s.outageAt)),
						next ? Math.max(0, next.at - (Date.now() - s.outageAt)) : 15_000,
					),
				);
			}
			await emulatorAdmin(s, 'DELETE', 'faults');
			s.clearedAt = Date.now();
			const reads = n8nCalls(s, LIST, s.outageAt);
			return [
				`invoices: ${s.invoices.map((i) => `${i.number} (id ${i.id}) at ${at(i.madeAt)}`).join(', ')}`,
				`n8n's reads of the invoice list during the outage: ${reads.length} (${reads.filter((r) => r.status === 429).length} answered 429): ${reads.map((r) => `${at(r.at)} ${r.status}`).join(', ')}`,
				`executions listed during the outage: ${outageSamples()}`,
				`saved state: ${state()}`,
			];
		},
	);
	await step(
		`service answers again: both invoices emitted, and ${secs(TAIL_MS)} more for any poll still held; each invoice emitted by exactly one execution`,
		async () => {
			let execs;
			for (;;) {
				execs = await sample('after');
				const done = s.invoices.every((i) => emittedBy(execs, i.id).times > 0);
				if (done && Date.now() - s.clearedAt >= TAIL_MS && execs.every((e) => e.done)) break;
				check(
					Date.now() - s.clearedAt < TAIL_MS + 300_000,
					`not every invoice emitted ${secs(TAIL_MS + 300_000)} after the outage ended; executions: ${executionsText(execs)}`,
				);
				await sleep(10_000);
			}
			s.final = execs;
			const lines = resultLines();
			s.reported = true;
			for (const i of s.invoices)
				check(
					emittedBy(execs, i.id).times === 1,
					`invoice ${i.number} was emitted ${emittedBy(execs, i.id).times} times:\n${lines.join('\n')}`,
				);
			return lines;
		},
	);
}

function outageSamples() {
	const during = s.samples.filter((x) => x.phase === 'outage');
	const last = during[during.length - 1];
	const statuses = [...new Set(during.flatMap((x) => Object.keys(x.by)))];
	return `${during.length} samples; ${statuses.length ? statuses.map((st) => `${st}: up to ${Math.max(...during.map((x) => x.by[st] || 0))}`).join(', ') : 'no execution at all'}${last ? ` (last sample: ${last.total} execution(s))` : ''}`;
}

function resultLines() {
	const execs = s.final || s.lastExecs || [];
	const all = n8nCalls(s, LIST, s.activatedAt);
	const during = all.filter((r) => r.at >= s.outageAt && r.at < s.clearedAt);
	const after = all.filter((r) => r.at >= s.clearedAt);
	const statusCount = (rs) =>
		Object.entries(rs.reduce((m, r) => ({ ...m, [r.status]: (m[r.status] || 0) + 1 }), {}))
			.map(([k, v]) => `${v}x ${k}`)
			.join(', ') || 'none';
	const logs = allLogs(s)
		.split('\n')
		.filter(
			(l) =>
				/When an Invoice Is Created|Vendor trigger|Saving to failed executions|too many|429/i.test(
					l,
				) && !/migration/i.test(l),
		);
	return [
		...(s.invoices || []).map((i) => {
			const e = emittedBy(execs, i.id);
			const started = execs
				.filter((x) => x.ids.includes(i.id))
				.map((x) => at(Date.parse(x.startedAt)));
			return `invoice ${i.number} (id ${i.id}, made at ${at(i.madeAt)}): emitted ${e.times} time(s), by execution(s) ${e.executions.join(', ') || 'none'}${started.length ? ` (started ${started.join(', ')})` : ''}`;
		}),
		`n8n's reads of the invoice list since activation: ${all.length} (${statusCount(all)}); during the outage ${during.length} (${statusCount(during)}); after it ${after.length} (${statusCount(after)}${after.length ? `: ${after.map((r) => `${at(r.at)} ${r.status}`).join(', ')}` : ''})`,
		`all of n8n's API calls since activation: ${n8nCalls(s, undefined, s.activatedAt).length}`,
		`executions listed during the outage: ${outageSamples()}`,
		`executions at the end: ${executionsText(execs)}`,
		`saved state: ${s.workflowId ? state() : '-'}`,
		`n8n log lines about the trigger / failed executions / 429: ${logs.length}${logs.length ? '' : ' (none)'}`,
		...logs.slice(0, 8).map((l) => `  ${l.trim().slice(0, 260)}`),
	];
}

runChecks(s, 'QUEUE 429 CHECK', scenario, () => {
	if (!s.invoices || s.reported) return;
	console.log('\nWhat was measured:');
	for (const l of resultLines()) console.log(`       ${l}`);
});
