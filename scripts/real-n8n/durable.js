#!/usr/bin/env node
/**
 * `npm run check:n8n:durable`: the five Vendor triggers under n8n 2.41's durable scheduler with
 * durable poll cursors (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE, N8N_POLLER_DURABLE_CURSORS_ENABLED; regular mode on
 * PostgreSQL: the stack of trigger-stack.js) on large accounts. The scheduler abandons a poll
 * that takes longer than N8N_SCHEDULER_POLL_TIMEOUT (45 s by default) and records nothing for it.
 *
 * The emulator paces like the service: 100 accounting requests a minute per organization (429
 * past it) and the project area's 100 per 2 minutes. Its account gets N records of each kind a
 * trigger watches, put straight into its store (emulator/seed.ts, as
 * bench/trigger-costs.ts does), for each N of --sizes (default 1000,10000; records are added to
 * reach the next N). For each N, one event of each trigger (whole-list `scan` events but one):
 * Books Item Created, Payments Payment Recorded, Projects Project Created (scan), Billing Project
 * Created (newest), Bills Bill Created (scan); Poll Times every minute, Max API Calls per Day
 * 1,000,000 (the budget out of the way: the poll itself is measured). Each trigger:
 *  1. activated: the poll at activation (its calls and duration)
 *  2. a scheduled poll with nothing new (quiet): its calls and duration, whether n8n abandoned it
 *     (its log "Poll exceeded its timeout and was abandoned"; poller_state's consecutiveErrors and
 *     backoffUntil), whether its state was kept (the node's saved state, static data or poller_state, changed)
 *  3. one record made right after that poll; the next polls until one emits it (at most
 *     --wait seconds, default 150): emitted, and how many times
 * At the smallest N the five run at once (each its own area: their calls tell them apart); at the
 * larger ones one after the other (the four accounting areas share the organization's pace), the
 * Projects trigger beside the first. A table per N, and the per-page cost with what it makes of
 * 100,000 records (computed, not measured, unless 100000 is among --sizes).
 *
 * Usage: npm run check:n8n:durable [-- --no-cursors] [--sizes 1000,10000] [--only books,invoice,projects,billing,inventory] [--wait <s>] [--n8n <version>] [--keep] [--skip-build] [--fresh]
 * Runs as root; about 3 minutes for 1,000 and 12 for 10,000 after the install.
 *
 * Verified 2026-12-04 on n8n 2.41.1. Before one-poll-at-a-time: at 1,000 every trigger polls in
 * under 22 s and emits its record once; at 10,000 the accounting scans take 30-33 s a poll (51-55
 * calls at the package's 100-a-minute pace) and emit once, while Projects Project Created never
 * completes a poll (the project area's 100 calls per 2 minutes): each abandoned at 45 s, nothing
 * emitted. With it (polls stop at 30 s, a read goes on at the next): no poll abandoned, Projects
 * emits; Item Created and Payment Recorded miss a record made before the baseline's pass is
 * complete (here the second scheduled poll: the state of the poll at activation is not kept).
 * --no-cursors (Bills and Projects at 10,000): each record emitted once; a quiet poll saves no
 * state there (a read's progress is saved only at publication and by a poll that emits).
 */
'use strict';

const path = require('node:path');

const { ROOT, parseOptions, Session, step, check, secs } = require('./n8n-session');
const { sleep } = require('./start');
const { emissionsOf, nodeState, describeState, allLogs } = require('./queue-n8n');
const {
	SCHEDULER,
	DURABLE,
	prepare,
	runChecks,
	triggerWorkflow,
	activateChecked,
	deactivate,
	n8nCalls,
	executionsText,
} = require('./trigger-stack');

const USAGE =
	'usage: npm run check:n8n:durable -- [--no-cursors] [--sizes 1000,10000] [--only books,invoice,projects,billing,inventory] [--wait <s>] [--n8n <version>] [--keep] [--skip-build] [--fresh]';
const options = parseOptions(process.argv.slice(2), {
	command: 'check:n8n:durable',
	usage: USAGE,
	flags: ['--fresh', '--keep', '--skip-build', '--no-cursors'],
	values: ['--n8n', '--sizes', '--only', '--wait'],
});
/** --no-cursors: the scheduler's three flags without durable cursors (a poll that emits nothing then saves no state: n8n builds each scheduled poll's workflow from the database). */
const ENV = options.flags.has('--no-cursors') ? SCHEDULER : DURABLE;
const SIZES = (options.value.sizes || '1000,10000').split(',').map(Number);
if (
	!SIZES.every((n) => Number.isInteger(n) && n > 0) ||
	SIZES.some((n, i) => i && n <= SIZES[i - 1])
)
	options.fail('--sizes: increasing whole numbers');
const WAIT_MS = Number(options.value.wait || 150) * 1000;

/** The five triggers: the case of harness/trigger-events.ts (by label), the area its calls go to, the node type. */
const TRIGGERS = [
	{ key: 'books', label: 'Books: Item Created', area: 'books', type: 'vendorBooksTrigger' },
	{
		key: 'invoice',
		label: 'Payments: Payment Recorded',
		area: 'invoice',
		type: 'vendorInvoiceTrigger',
	},
	{
		key: 'projects',
		label: 'Projects: Project Created',
		area: 'projects',
		type: 'vendorProjectsTrigger',
	},
	{
		key: 'billing',
		label: 'Billing: Billing Project Created',
		area: 'billing',
		type: 'vendorBillingTrigger',
	},
	{
		key: 'inventory',
		label: 'Purchase Bills: Bill Created',
		area: 'inventory',
		type: 'vendorInventoryTrigger',
	},
].filter((t) => !options.value.only || options.value.only.split(',').includes(t.key));
const TRIGGER = 'Vendor Trigger';
const ABANDONED = 'Poll exceeded its timeout and was abandoned';
/** Calls more than this far apart belong to different polls. */
const POLL_GAP_MS = 8_000;

const s = new Session(options);
s.rows = [];

/** n8n's calls to one area from `since`, grouped into polls (a gap of POLL_GAP_MS or more between two); [{ start, end, calls, statuses }]. */
function polls(area, since) {
	const out = [];
	for (const r of s.em.requests.filter(
		(x) =>
			x.area === area &&
			x.at >= since &&
			x.headers.authorization !== `Vendor-oauthtoken ${s.uiToken}`,
	)) {
		const last = out[out.length - 1];
		if (last && r.at - last.end < POLL_GAP_MS) {
			last.end = r.at;
			last.calls.push(r);
		} else out.push({ start: r.at, end: r.at, calls: [r] });
	}
	return out;
}
const pollText = (p, t0) =>
	`${p.calls.length} call(s) at +${secs(p.start - t0)} for ${secs(p.end - p.start)}${p.calls.some((r) => r.status !== 200) ? ` (answers ${[...new Set(p.calls.map((r) => r.status))].join('/')})` : ''}`;
const abandonedSince = (logFrom) =>
	allLogs(s)
		.slice(logFrom)
		.split('\n')
		.filter((l) => l.includes(ABANDONED)).length;

/** One trigger at one N: activation, a quiet poll, a record made, the poll that emits it. */
async function runTrigger(t, n, account, cases) {
	const c = cases.find((x) => x.label === t.label);
	check(c, `no case ${t.label} in harness/trigger-events.ts`);
	const row = { n, trigger: t.label };
	s.rows.push(row);
	const wid = await triggerWorkflow(s, {
		name: `Vendor: ${t.label} on ${n} records`,
		type: t.type,
		triggerName: TRIGGER,
		parameters: { ...c.parameters, maxCallsPerDay: 1_000_000 },
	});
	row.workflowId = wid;
	const logFrom = allLogs(s).length;
	const t0 = Date.now();
	const activated = await activateChecked(s, wid);
	const atActivation = polls(t.area, t0);
	row.activation = atActivation[0]
		? { calls: atActivation.reduce((k, p) => k + p.calls.length, 0), ms: Date.now() - t0 }
		: { calls: 0, ms: Date.now() - t0 };
	const savedAfterActivation = JSON.stringify(nodeState(s, wid, TRIGGER));
	// the first scheduled poll: calls after the activation's have ended
	const firstAfter = t0 + row.activation.ms + 1_000;
	let quiet;
	for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline && !quiet; ) {
		const ps = polls(t.area, firstAfter);
		// a poll is over when no call came for POLL_GAP_MS (or n8n abandoned it)
		if (ps[0] && Date.now() - ps[0].end >= POLL_GAP_MS) quiet = ps[0];
		else await sleep(1_000);
	}
	row.quiet = quiet
		? {
				calls: quiet.calls.length,
				ms: quiet.end - quiet.start,
				statuses: [...new Set(quiet.calls.map((r) => r.status))],
			}
		: undefined;
	await sleep(3_000); // the cursor commit after the poll
	const stateAfterQuiet = nodeState(s, wid, TRIGGER);
	row.kept = quiet ? JSON.stringify(stateAfterQuiet) !== savedAfterActivation : undefined;
	row.abandonedQuiet = abandonedSince(logFrom);
	// a record made now: the next polls until one emits it
	const id = c.change(account);
	const madeAt = Date.now();
	let execs = [];
	for (const deadline = madeAt + WAIT_MS; Date.now() < deadline; ) {
		execs = await emissionsOf(s, wid, TRIGGER, c.idField);
		if (execs.some((e) => e.ids.includes(id))) break;
		await sleep(3_000);
	}
	const later = polls(t.area, madeAt);
	row.after = later.map((p) => ({ calls: p.calls.length, ms: p.end - p.start }));
	row.emitted = execs.reduce((k, e) => k + e.ids.filter((x) => x === id).length, 0);
	row.emittedAfterMs = execs.find((e) => e.ids.includes(id))
		? Date.parse(execs.find((e) => e.ids.includes(id)).startedAt) - madeAt
		: undefined;
	row.abandoned = abandonedSince(logFrom);
	const finalState = nodeState(s, wid, TRIGGER);
	row.backoff =
		finalState.cursors
			.map((x) => `consecutiveErrors ${x.errors}, backoffUntil ${x.backoff}`)
			.join(' | ') || 'no poller_state row';
	row.executions = execs.map((e) => e.status);
	await deactivate(s, wid);
	return [
		`${t.label} (workflow ${wid}): ${activated}; the poll at activation ${row.activation.calls} call(s) in ${secs(row.activation.ms)} (activation included)`,
		`  quiet poll: ${quiet ? pollText(quiet, t0) : `none within ${secs(WAIT_MS)}`}; state kept (the saved state changed): ${row.kept === undefined ? '-' : row.kept ? 'yes' : 'no'}; "${ABANDONED}" logged ${row.abandonedQuiet} time(s) by then`,
		`  state after the quiet poll: ${describeState(stateAfterQuiet)}`,
		`  record ${id} made: polls after it: ${later.map((p) => pollText(p, madeAt)).join('; ') || 'none'}; emitted ${row.emitted} time(s)${row.emittedAfterMs !== undefined ? `, by an execution started ${secs(row.emittedAfterMs)} after` : ''}; abandoned polls logged in all: ${row.abandoned}`,
		`  executions: ${executionsText(execs)}; poller_state: ${row.backoff}`,
	];
}

function table(n) {
	const rows = s.rows.filter((r) => r.n === n);
	const fmt = (x) => (x === undefined ? '-' : x);
	return [
		`N = ${n.toLocaleString('en-US')}:`,
		'| trigger | activation poll: calls, s | quiet poll: calls, s | under 45 s | abandoned (log) | quiet state kept | record emitted (times) | emitted after, s |',
		'|---|---|---|---|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${r.trigger} | ${r.activation ? `${r.activation.calls}, ${(r.activation.ms / 1000).toFixed(1)}` : '-'} | ${r.quiet ? `${r.quiet.calls}, ${(r.quiet.ms / 1000).toFixed(1)}` : 'none'} | ${r.quiet ? (r.quiet.ms < 45_000 ? 'yes' : 'no') : '-'} | ${fmt(r.abandoned)} | ${r.kept === undefined ? '-' : r.kept ? 'yes' : 'no'} | ${fmt(r.emitted)} | ${r.emittedAfterMs === undefined ? '-' : (r.emittedAfterMs / 1000).toFixed(0)} |`,
		),
	];
}

/** The service's pace per area (the emulator's, as set above): at most `limit` calls a `windowMs`. */
const PACE = {
	projects: { limit: 100, windowMs: 120_000 },
	accounting: { limit: 100, windowMs: 60_000 },
};

/**
 * Per-call cost from the largest N measured, and what a quiet poll of 100,000 records would take
 * (computed, not measured): the calls scale with the records (one page each), the time is the
 * larger of the measured time per call and the service's pace (its window's worth of calls at
 * once, then `limit` a window): a lower bound, since the package may pace more carefully.
 */
function projection() {
	const top = Math.max(...s.rows.map((r) => r.n));
	if (top >= 100_000) return ['100,000 measured (above)'];
	return s.rows
		.filter((r) => r.n === top && r.quiet && r.quiet.calls > 1)
		.map((r) => {
			if (!r.kept && r.emitted !== 1)
				return `${r.trigger}: no poll completed at ${top.toLocaleString('en-US')} (each abandoned or failed): 100,000 cannot be read in one poll either`;
			const perCall = r.quiet.ms / (r.quiet.calls - 1);
			const calls = Math.round((r.quiet.calls * 100_000) / top);
			const pace =
				PACE[
					TRIGGERS.find((t) => t.label === r.trigger).area === 'projects'
						? 'projects'
						: 'accounting'
				];
			const paced = (Math.max(0, calls - pace.limit) / pace.limit) * pace.windowMs;
			const ms = Math.max(perCall * (calls - 1), paced);
			return `${r.trigger}: ${r.quiet.calls} calls in ${secs(r.quiet.ms)} at ${top.toLocaleString('en-US')} (${(perCall / 1000).toFixed(2)} s a call) -> computed for 100,000: ${calls} calls, at least ${secs(ms)} (measured rate ${secs(perCall * (calls - 1))}, the service's pace ${secs(paced)}): ${ms < 45_000 ? 'under' : 'over'} the 45-s poll timeout in one poll, or about ${Math.ceil(calls / r.quiet.calls)} polls of ${r.quiet.calls} calls (${secs(r.quiet.ms)}) where a read goes on at the next poll`;
		});
}

async function scenario() {
	console.log(
		`Durable-scheduler check: n8n ${options.version}, sizes ${SIZES.join(', ')}, triggers ${TRIGGERS.map((t) => t.key).join(', ')}`,
	);
	await prepare(s, {
		env: { ...ENV, N8N_LOG_LEVEL: 'debug' },
		emulator: { accountingRateLimit: { limit: 100, windowMs: 60_000 } },
	});
	const { seedAccount } = require(path.join(ROOT, 'build', 'emulator', 'seed.js'));
	const { eventCases } = require(path.join(ROOT, 'build', 'harness', 'trigger-events.js'));
	const account = {
		store: s.em.store,
		clock: s.em.clock,
		org: s.tenant,
		portal: s.em.store.portal('us', s.em.portalId),
	};
	check(account.portal, `no portal ${s.em.portalId}`);
	const cases = eventCases(s.em.organizationId, s.em.portalId);
	let seeded = 0;
	for (const [i, n] of SIZES.entries()) {
		await step(
			`${n.toLocaleString('en-US')} records of each kind in the emulator's account`,
			async () => {
				const t0 = Date.now();
				const added = n - seeded;
				seedAccount(account, added);
				seeded = n;
				return [`${added.toLocaleString('en-US')} of each kind added in ${secs(Date.now() - t0)}`];
			},
		);
		if (i === 0) {
			await step(
				`N = ${n.toLocaleString('en-US')}: the ${TRIGGERS.length} triggers at once`,
				async () =>
					(await Promise.all(TRIGGERS.map((t) => runTrigger(t, n, account, cases)))).flat(),
			);
		} else {
			const projects = TRIGGERS.find((t) => t.key === 'projects');
			const accounting = TRIGGERS.filter((t) => t.key !== 'projects');
			for (const [j, t] of accounting.entries()) {
				await step(
					`N = ${n.toLocaleString('en-US')}: ${t.label}${j === 0 && projects ? ` (and ${projects.label} beside it)` : ''}`,
					async () =>
						(
							await Promise.all([
								runTrigger(t, n, account, cases),
								...(j === 0 && projects ? [runTrigger(projects, n, account, cases)] : []),
							])
						).flat(),
				);
			}
			if (!accounting.length && projects)
				await step(`N = ${n}: ${projects.label}`, async () =>
					runTrigger(projects, n, account, cases),
				);
		}
	}
	await step('summary: each record emitted exactly once', async () => {
		const lines = [...SIZES.flatMap(table), 'Per page, and 100,000 records:', ...projection()];
		const bad = s.rows.filter((r) => r.emitted !== 1);
		s.summarized = true;
		check(
			bad.length === 0,
			`not emitted exactly once: ${bad.map((r) => `${r.trigger} at ${r.n} (${r.emitted})`).join(', ')}\n${lines.join('\n')}`,
		);
		return lines;
	});
}

runChecks(s, 'DURABLE SCHEDULER CHECK', scenario, () => {
	if (!s.rows.length || s.summarized) return;
	console.log('\nWhat was measured:');
	for (const l of [...SIZES.flatMap(table), ...projection()]) console.log(`       ${l}`);
});
