/**
 * Import and run: workflows created through n8n's REST API with the session's credential and the
 * emulator's organization (the examples/ files, a Manual Trigger -> Vendor Books Item -> Get Many
 * workflow), run from their trigger and waited for; their outputs read from the execution. The
 * smoke step of both scripts (itemsStep) is here. Part of the session of n8n-session.js.
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { ROOT, PACKAGE } = require('./options');
const { step, check } = require('./steps');
const { CREDENTIAL_NAME } = require('./connect');
const { sleep } = require('./start');

/** The example files, in the order the checks run them. */
const EXAMPLES = ['estimate-accepted-to-invoice.json', 'overdue-reminders.json'];

/**
 * POST /rest/workflows: `wf` with the session's credential on every node that takes it and the
 * emulator's organization id on every node of this package that has one.
 */
async function createWorkflow(s, wf) {
	for (const node of wf.nodes) {
		if (node.credentials && node.credentials.vendorOAuth2Api)
			node.credentials.vendorOAuth2Api = { id: s.credential.id, name: CREDENTIAL_NAME };
		// the organization: a resource locator ({ __rl, mode, value }) or, in older workflows, a plain ID
		const org = node.parameters && node.parameters.organizationId;
		if (node.type.startsWith(`${PACKAGE.name}.`) && org !== undefined)
			node.parameters.organizationId =
				org && typeof org === 'object'
					? { ...org, value: s.em.organizationId }
					: s.em.organizationId;
	}
	// No `active`: the CreateWorkflowDto of n8n 2.20 and 2.40 has none (it was dropped unread);
	// a new workflow is inactive, and a manual run needs no activation.
	const created = await s.api.json('POST', '/rest/workflows', {
		name: wf.name,
		nodes: wf.nodes,
		connections: wf.connections,
		settings: wf.settings,
		pinData: wf.pinData ?? {},
	});
	check(created && created.id, `no workflow id in ${JSON.stringify(created).slice(0, 200)}`);
	return created.id;
}

/** Imports examples/<file> (see createWorkflow). */
async function importExample(s, file) {
	const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
	return { wf, id: await createWorkflow(s, wf) };
}

/** POST /rest/workflows/:id/run from the trigger, then the execution until it is done. */
async function runAndWait(s, id, triggerName) {
	const started = await s.api.json('POST', `/rest/workflows/${id}/run`, {
		triggerToStartFrom: { name: triggerName },
	});
	check(started && started.executionId, `run answered ${JSON.stringify(started).slice(0, 300)}`);
	const flatted = s.release.require('flatted');
	const deadline = Date.now() + 120_000;
	for (;;) {
		// n8n 2.20 answers 500 for an execution whose data is not written yet: ask again
		const ex = await s.api.json('GET', `/rest/executions/${started.executionId}`).catch((e) => {
			if (Date.now() > deadline) throw e;
			return undefined;
		});
		if (
			ex &&
			ex.finished !== undefined &&
			(ex.stoppedAt || ['success', 'error', 'crashed', 'canceled'].includes(ex.status))
		) {
			const data = typeof ex.data === 'string' ? flatted.parse(ex.data) : ex.data;
			return { execution: ex, data, id: started.executionId };
		}
		check(
			Date.now() < deadline,
			`execution ${started.executionId} not finished after 120 s (status ${ex && ex.status})`,
		);
		await sleep(500);
	}
}

function outputOf(data, nodeName) {
	const runs = data.resultData.runData[nodeName];
	check(runs && runs.length, `node "${nodeName}" did not run`);
	const last = runs[runs.length - 1];
	check(!last.error, `node "${nodeName}" failed: ${last.error && last.error.message}`);
	return ((last.data && last.data.main && last.data.main[0]) || []).map((i) => i.json);
}

function assertSucceeded(result, nodeNames) {
	const { execution, data } = result;
	const err = data.resultData.error;
	check(
		execution.status === 'success' && !err,
		`execution ${result.id} status ${execution.status}${err ? `: ${err.message}${err.description ? ` (${err.description})` : ''}` : ''}`,
	);
	const ran = Object.keys(data.resultData.runData);
	check(
		nodeNames.every((n) => ran.includes(n)),
		`ran ${ran.join(', ')}; expected ${nodeNames.join(', ')}`,
	);
}

/** Every API call the emulator saw carried the access token of the OAuth round trip. */
function checkCallsAuthorized(s, what = 'the access token of the OAuth round trip') {
	check(
		s.apiCalls().every((r) => r.headers.authorization === `Vendor-oauthtoken ${s.accessToken}`),
		`a call without ${what}`,
	);
}

const ITEMS_WORKFLOW = {
	name: 'Vendor Books: Get Many items (demo)',
	trigger: 'When clicking ‘Execute workflow’',
	node: 'Get Many Items',
};

/** Manual Trigger -> Vendor Books, Item -> Get Many (Return All), created in n8n; its id. */
async function createItemsWorkflow(s) {
	const { name, trigger, node } = ITEMS_WORKFLOW;
	s.itemsWorkflowId = await createWorkflow(s, {
		name,
		nodes: [
			{
				parameters: {},
				id: crypto.randomUUID(),
				name: trigger,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					organizationId: { __rl: true, mode: 'id', value: s.em.organizationId },
					resource: 'item',
					operation: 'getAll',
					returnAll: true,
				},
				id: crypto.randomUUID(),
				name: node,
				type: `${PACKAGE.name}.vendorBooks`,
				typeVersion: 1,
				position: [260, 0],
				credentials: { vendorOAuth2Api: { name: CREDENTIAL_NAME } },
			},
		],
		connections: { [trigger]: { main: [[{ node, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	return s.itemsWorkflowId;
}

/**
 * The smoke test of both scripts: n8n runs Vendor Books Item -> Get Many (the workflow of
 * createItemsWorkflow, created first if need be) and it returns the emulator's demo items
 * (the active ones: the item list's default), fetched with the credential's access token.
 */
function itemsStep(s) {
	return step(
		`n8n runs Vendor Books Item -> Get Many (workflow "${ITEMS_WORKFLOW.name}"): it returns the demo items`,
		async () => {
			const { trigger, node } = ITEMS_WORKFLOW;
			const id = s.itemsWorkflowId ?? (await createItemsWorkflow(s));
			s.em.clearRequests();
			const result = await runAndWait(s, id, trigger);
			assertSucceeded(result, [trigger, node]);
			const got = outputOf(result.data, node);
			const demo = s.tenant.all('items').filter((i) => i.status === 'active');
			const list = (items) => items.map((i) => `${i.item_id} ${i.name}`).sort();
			check(demo.length > 0, 'no active items in the demo data');
			check(
				JSON.stringify(list(got)) === JSON.stringify(list(demo)),
				`Get Many returned ${got.length} items (${list(got).join(', ')}); the emulator's active demo items are ${demo.length} (${list(demo).join(', ')})`,
			);
			const calls = s
				.apiCalls()
				.map((r) => `${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')} -> ${r.status}`);
			check(
				s.apiCalls().length > 0 && s.apiCalls().every((r) => r.status === 200),
				`calls: ${calls.join('; ') || 'none'}`,
			);
			checkCallsAuthorized(s);
			return [
				`workflow ${id}, execution ${result.id}: ${result.execution.status}`,
				`${got.length} items, the emulator's active demo items: ${got.map((i) => i.name).join(', ')}`,
				`API calls: ${calls.join('; ')}`,
			];
		},
	);
}

module.exports = {
	EXAMPLES,
	ITEMS_WORKFLOW,
	createWorkflow,
	importExample,
	runAndWait,
	outputOf,
	assertSucceeded,
	checkCallsAuthorized,
	createItemsWorkflow,
	itemsStep,
};
