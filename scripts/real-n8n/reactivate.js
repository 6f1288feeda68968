#!/usr/bin/env node
/**
 * `npm run check:n8n:reactivate`: what a real n8n (2.41.1, regular mode on PostgreSQL: the stack
 * of trigger-stack.js) keeps of a Vendor Books Trigger's state across deactivate, edit, activate,
 * republish and a changed node id, and whether an invoice made meanwhile is emitted, once.
 *
 * For each variant (n8n restarted with its environment on the same database):
 *   legacy     n8n's defaults (the cron of n8n-core's ActiveWorkflowTriggers, state in memory)
 *   scheduler  N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 *              N8N_USE_WORKFLOW_PUBLICATION_SERVICE (the durable scheduler, no cursors)
 *   durable    the same and N8N_POLLER_DURABLE_CURSORS_ENABLED (the node's state in poller_state)
 * a workflow Vendor Books Trigger (Invoice Created, every minute, Max API Calls per Day 5,000 so
 * that the budget does not space the polls) -> No Operation, and:
 *  1. activated: the poll at activation takes the baseline; one scheduled poll after it
 *  2. deactivated; edited as the editor saves (No Operation moved and renamed, the trigger's Max
 *     API Calls per Day changed: not the event or filters); invoice A made while inactive;
 *     activated again; the polls that follow (the activation's, one scheduled)
 *  3. invoice B; republished (saved with a node moved, then published again: POST activate with
 *     the new version); the polls that follow
 *  4. invoice C; saved with the trigger node's id changed and published; the polls that follow
 *  5. deactivated
 * At each stage the node's saved state is printed (workflow_entity."staticData" under
 * `node:<name>`, and poller_state keyed by node id); at the end a table of how many executions
 * emitted A, B and C in each variant. Checked: each emitted exactly once.
 *
 * Usage: npm run check:n8n:reactivate [-- --variant legacy|scheduler|durable] [--n8n <version>] [--keep] [--skip-build] [--fresh]
 * Runs as root (apt-get, PostgreSQL as the postgres user); about 5 minutes a variant after the install.
 *
 * Verified 2026-12-04 on n8n 2.41.1, the same before and after the one-poll-at-a-time change:
 * legacy and scheduler emit A, B and C once each; durable emits A and B once and never C (the new
 * node id gets an empty poller_state row, the poll at activation commits nothing unless it
 * emits, and the first scheduled poll takes a baseline that holds C).
 */
'use strict';

const crypto = require('node:crypto');

const { parseOptions, Session, step, check, secs } = require('./n8n-session');
const { sleep } = require('./start');
const { psql } = require('./queue-services');
const { activate, emissionsOf, nodeState, describeState } = require('./queue-n8n');
const {
	SCHEDULER,
	DURABLE,
	prepare,
	restartStep,
	runChecks,
	triggerWorkflow,
	activateChecked,
	deactivate,
	saveWorkflow,
	n8nCalls,
	createInvoice,
	emittedBy,
	executionsText,
} = require('./trigger-stack');

const VARIANTS = { legacy: {}, scheduler: SCHEDULER, durable: DURABLE };
const USAGE =
	'usage: npm run check:n8n:reactivate -- [--variant legacy|scheduler|durable] [--n8n <version>] [--keep] [--skip-build] [--fresh]';
const options = parseOptions(process.argv.slice(2), {
	command: 'check:n8n:reactivate',
	usage: USAGE,
	flags: ['--fresh', '--keep', '--skip-build'],
	values: ['--n8n', '--variant'],
});
const chosen = options.value.variant ? [options.value.variant] : Object.keys(VARIANTS);
if (!chosen.every((v) => v in VARIANTS)) options.fail(`unknown variant ${options.value.variant}`);

const TRIGGER = 'When an Invoice Is Created';
const LIST = 'books.invoice.getAll';
const s = new Session(options);
s.results = [];

/**
 * Waits for n8n's next read of the invoice list that began at or after `since` and was answered
 * (then 8 s for its execution to be saved); at most `ms`. The read, or undefined.
 */
async function nextRead(since, ms = 150_000) {
	const t0 = Date.now();
	for (;;) {
		const read = n8nCalls(s, LIST, since).find((r) => r.status !== undefined);
		if (read) {
			await sleep(8_000);
			return read;
		}
		if (Date.now() - t0 > ms) return undefined;
		await sleep(1_000);
	}
}

/** After an activation at `t`: the poll at activation (if any), then a scheduled poll at least 5 s later; what was seen. */
async function pollsAfter(t) {
	const first = await nextRead(t, 20_000);
	const scheduled = await nextRead(Math.max(t + 5_000, first ? first.at + 5_000 : 0), 150_000);
	const reads = n8nCalls(s, LIST, t).filter((r) => r.status !== undefined);
	return `n8n's reads of the invoice list since: ${reads.map((r) => `+${secs(r.at - t)} ${r.status}`).join(', ') || 'none'}${scheduled ? '' : ' (no scheduled poll within 150 s)'}`;
}

/** The durable scheduler's jobs of a workflow (scheduled_job; none without the scheduler), in words. */
function jobs(workflowId) {
	try {
		const rows = psql(
			s.services,
			`SELECT "cronExpression" || ' node ' || left(coalesce(payload->>'nodeId', '-'), 8) || ' enabled ' || enabled FROM scheduled_job WHERE payload->>'workflowId' = '${workflowId}'`,
		);
		return `scheduled_job: ${rows ? rows.split('\n').join(' | ') : 'none'}`;
	} catch (e) {
		return `scheduled_job: (${e.message.split('\n')[0].slice(0, 120)})`;
	}
}

async function variant(name) {
	const env = VARIANTS[name];
	const v = { name, invoices: {} };
	s.results.push(v);
	if (s.n8n && JSON.stringify(s.env) !== JSON.stringify(env)) await restartStep(s, env);
	const state = () =>
		`${describeState(nodeState(s, v.workflowId, TRIGGER))}; ${jobs(v.workflowId)}`;
	const emissions = () => emissionsOf(s, v.workflowId, TRIGGER, 'invoice_id');
	await step(`[${name}] workflow activated: the baseline taken; one scheduled poll`, async () => {
		v.workflowId = await triggerWorkflow(s, {
			name: `Vendor: reactivated (${name})`,
			type: 'vendorBooksTrigger',
			triggerName: TRIGGER,
			parameters: {
				organizationId: { __rl: true, mode: 'id', value: s.em.organizationId },
				event: 'invoiceCreated',
				maxCallsPerDay: 5000,
			},
		});
		const t = Date.now();
		const activated = await activateChecked(s, v.workflowId);
		const atActivation = state();
		const polls = await pollsAfter(t);
		return [
			`workflow ${v.workflowId}: ${activated}`,
			`state after the activation: ${atActivation}`,
			polls,
			`state after a scheduled poll: ${state()}`,
		];
	});
	await step(
		`[${name}] deactivated, edited (a node moved and renamed, Max API Calls per Day changed), invoice A made, activated again`,
		async () => {
			const lines = [await deactivate(s, v.workflowId), `state after deactivating: ${state()}`];
			await saveWorkflow(s, v.workflowId, (wf) => {
				const done = wf.nodes.find((n) => n.type === 'n8n-nodes-base.noOp');
				const trigger = wf.nodes.find((n) => n.name === TRIGGER);
				const renamed = `${done.name} (renamed)`;
				wf.connections[TRIGGER].main[0][0].node = renamed;
				done.name = renamed;
				done.position = [done.position[0] + 120, done.position[1] + 80];
				trigger.parameters.maxCallsPerDay = 6000;
			});
			lines.push(`state after the edit: ${state()}`);
			v.invoices.A = await createInvoice(s, 'made while the workflow was inactive');
			const t = Date.now();
			lines.push(
				`invoice A ${v.invoices.A.number} (id ${v.invoices.A.id}) made`,
				await activateChecked(s, v.workflowId),
				`state after the activation: ${state()}`,
			);
			lines.push(await pollsAfter(t), `state after a scheduled poll: ${state()}`);
			return lines;
		},
	);
	await step(
		`[${name}] invoice B made; republished (saved with a node moved, published again)`,
		async () => {
			v.invoices.B = await createInvoice(s, 'made before a republication');
			const saved = await saveWorkflow(s, v.workflowId, (wf) => {
				const trigger = wf.nodes.find((n) => n.name === TRIGGER);
				trigger.position = [trigger.position[0], trigger.position[1] + 40];
			});
			const t = Date.now();
			const published = await activate(s, v.workflowId);
			check(
				!published.publication || published.publication.status === 'published',
				`publication ${JSON.stringify(published.publication)}`,
			);
			return [
				`invoice B ${v.invoices.B.number} (id ${v.invoices.B.id}); saved version ${String(saved.versionId).slice(0, 8)}, published in ${secs(published.ms)}`,
				`state after republishing: ${state()}`,
				await pollsAfter(t),
				`state after a scheduled poll: ${state()}`,
			];
		},
	);
	await step(
		`[${name}] invoice C made; saved with the trigger node's id changed, published`,
		async () => {
			v.invoices.C = await createInvoice(s, 'made before the node id changed');
			let ids;
			const saved = await saveWorkflow(s, v.workflowId, (wf) => {
				const trigger = wf.nodes.find((n) => n.name === TRIGGER);
				ids = [trigger.id, crypto.randomUUID()];
				trigger.id = ids[1];
			});
			const t = Date.now();
			const published = await activate(s, v.workflowId);
			check(
				!published.publication || published.publication.status === 'published',
				`publication ${JSON.stringify(published.publication)}`,
			);
			return [
				`invoice C ${v.invoices.C.number} (id ${v.invoices.C.id}); node id ${ids[0].slice(0, 8)} -> ${ids[1].slice(0, 8)}; saved version ${String(saved.versionId).slice(0, 8)}, published in ${secs(published.ms)}`,
				`state after publishing: ${state()}`,
				await pollsAfter(t),
				`state after a scheduled poll: ${state()}`,
			];
		},
	);
	await step(`[${name}] how often A, B and C were emitted; deactivated`, async () => {
		const execs = await emissions();
		v.execs = execs;
		v.counts = Object.fromEntries(
			Object.entries(v.invoices).map(([k, inv]) => [k, emittedBy(execs, inv.id)]),
		);
		const lines = [
			`executions: ${executionsText(execs)}`,
			...Object.entries(v.counts).map(
				([k, c]) =>
					`invoice ${k}: emitted ${c.times} time(s)${c.executions.length ? ` (executions ${c.executions.join(', ')})` : ''}`,
			),
		];
		lines.push(await deactivate(s, v.workflowId), `state at the end: ${state()}`);
		return lines;
	});
}

async function scenario() {
	console.log(`Reactivation check: n8n ${options.version}, variants ${chosen.join(', ')}`);
	await prepare(s, { env: VARIANTS[chosen[0]] });
	for (const name of chosen) {
		try {
			await variant(name);
		} catch (error) {
			// one variant's failure is reported; the next variant still runs, with this one's workflow
			// inactive (its polls would be counted as the next one's)
			const v = s.results[s.results.length - 1];
			v.failed = error.message;
			if (v.workflowId)
				await deactivate(s, v.workflowId).catch((e) =>
					console.log(`       (could not deactivate ${v.workflowId}: ${e.message})`),
				);
		}
	}
	await step('each invoice emitted exactly once, in every variant', async () => {
		const lines = table();
		const bad = s.results.filter(
			(v) => v.failed || !v.counts || Object.values(v.counts).some((c) => c.times !== 1),
		);
		check(
			bad.length === 0,
			`not once in ${bad.map((v) => v.name).join(', ')}:\n${lines.join('\n')}`,
		);
		return lines;
	});
}

function table() {
	const cell = (v, k) => (v.counts && v.counts[k] ? String(v.counts[k].times) : '-');
	return [
		'| variant | A (made while inactive, after an edit) | B (before a republication) | C (before a node id change) |',
		'|---|---|---|---|',
		...s.results.map(
			(v) =>
				`| ${v.name}${v.failed ? ' (a step failed)' : ''} | ${cell(v, 'A')} | ${cell(v, 'B')} | ${cell(v, 'C')} |`,
		),
	];
}

runChecks(s, 'REACTIVATION CHECK', scenario);
