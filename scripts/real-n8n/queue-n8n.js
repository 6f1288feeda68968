/**
 * n8n in queue mode for queue-restart.js: the main instance (`n8n start`, through start.js's
 * startN8n) and workers (`n8n worker --concurrency=10`, spawned here the same way), all on the
 * same PostgreSQL, Redis and encryption key (queue-services.js), each with a task broker port
 * of its own and the workers with their own health-check port; stopped with start.js's stopN8n.
 * Also the REST calls the scenario needs that the other helpers do not export: activation (with
 * 2.41's publication status), the executions of a workflow (2.41 pages by cursor, at most 100),
 * one execution's data; and what the trigger checks (queue-restart.js, queue-429.js,
 * reactivate.js, durable.js) read of a trigger: what each execution emitted, the node's saved
 * state in PostgreSQL, the emulator's admin routes.
 */
'use strict';

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { check, secs } = require('./steps');
const { startN8n, stopN8n, freePort, sleep, tmpFolder } = require('./start');
const { serviceEnv, psql } = require('./queue-services');
const { isStopping, outputOf } = require('./n8n-session');

/** No n8n process is started once a stop signal came (cleanup may have run already: it would stay behind). */
const notStopping = () => check(!isStopping(), 'not started: stopping (a stop signal came)');

const WORKERS = 2;

/**
 * What every n8n process of the scenario shares: queue mode, the services, one encryption key
 * (made once per run and kept in `s.queue`), and `extraEnv` (the durable-cursor variables).
 */
function sharedEnv(s) {
	return {
		EXECUTIONS_MODE: 'queue',
		N8N_ENCRYPTION_KEY: s.queue.encryptionKey,
		...serviceEnv(s.services),
		...s.queue.extraEnv,
	};
}

/** Ports, the key and the log files of the main and the workers; made once, reused at the restart. */
async function planQueue(s, extraEnv) {
	s.queue = {
		encryptionKey: crypto.randomBytes(24).toString('hex'),
		extraEnv,
		brokerPort: await freePort(),
		workers: [],
	};
	for (let i = 1; i <= WORKERS; i++) {
		s.queue.workers.push({
			name: `worker ${i}`,
			healthPort: await freePort(),
			brokerPort: await freePort(),
			logFile: path.join(s.userFolder, `worker-${i}.log`),
		});
	}
}

/** The environment of a worker: as startN8n builds the main's (start.js), plus the worker's own ports. */
function workerEnv(s, w) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(
			([k]) =>
				!k.startsWith('N8N_') &&
				!k.startsWith('DB_') &&
				!k.startsWith('QUEUE_') &&
				k !== 'NODE_OPTIONS' &&
				k !== 'NODE_PATH' &&
				!k.startsWith('npm_'),
		),
	);
	return Object.assign(env, {
		PATH: `${s.nodeBin}:${process.env.PATH}`,
		N8N_USER_FOLDER: s.userFolder,
		TMPDIR: tmpFolder(s.userFolder),
		N8N_RUNNERS_BROKER_PORT: String(w.brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(w.healthPort),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		...sharedEnv(s),
	});
}

/** Starts one worker (its own process group, like the main); resolves once its /healthz and /healthz/readiness answer 200. */
async function startWorker(s, w) {
	const t0 = Date.now();
	notStopping();
	const log = fs.openSync(w.logFile, 'a');
	w.proc = spawn(path.join(s.nodeBin, 'node'), [s.n8nBin, 'worker', '--concurrency=10'], {
		cwd: s.userFolder,
		env: workerEnv(s, w),
		stdio: ['ignore', log, log],
		detached: true,
	});
	fs.closeSync(log);
	let exited;
	w.proc.once(
		'exit',
		(code, signal) => (exited = `${w.name} exited (${code ?? signal}); log ${w.logFile}`),
	);
	const deadline = Date.now() + 240_000;
	for (const route of ['/healthz', '/healthz/readiness']) {
		for (;;) {
			check(!exited, exited);
			const status = await fetch(`http://127.0.0.1:${w.healthPort}${route}`).then(
				async (res) => (await res.arrayBuffer(), res.status),
				() => 0,
			);
			if (status === 200) break;
			check(Date.now() < deadline, `${w.name} did not answer ${route} with 200 within 240 s`);
			await sleep(500);
		}
	}
	return `${w.name} pid ${w.proc.pid} ready after ${secs(Date.now() - t0)} (health port ${w.healthPort})`;
}

/** Main (start.js's startN8n with the queue environment), then the workers; what each took. */
async function startQueue(s) {
	notStopping();
	const times = await startN8n(s, 'n8n', {
		userFolder: s.userFolder,
		port: s.port,
		brokerPort: s.queue.brokerPort,
		env: sharedEnv(s),
	});
	const lines = [
		`main pid ${s.n8n.pid}: /healthz after ${times['/healthz']}, /healthz/readiness after ${times['/healthz/readiness']}`,
	];
	// one after the other: both would otherwise run the same start-up work at once on 2 cores
	for (const w of s.queue.workers) lines.push(await startWorker(s, w));
	return lines;
}

/** Stops the workers, then the main (SIGTERM to each process group, SIGKILL after 20 s); what it did. */
async function stopQueue(s) {
	const done = [];
	for (const w of (s.queue && s.queue.workers) || []) {
		const stopped = await stopN8n(w.proc);
		w.proc = undefined;
		if (stopped) done.push(stopped.replace('n8n', w.name));
	}
	const main = s.n8n;
	s.n8n = undefined;
	const stopped = await stopN8n(main);
	if (stopped) done.push(stopped.replace('n8n', 'n8n main'));
	return done;
}

/** Every log of the scenario (main, workers) as one text, each line prefixed by its process. */
function allLogs(s) {
	const files = [
		['main', s.logFile],
		...((s.queue && s.queue.workers) || []).map((w) => [w.name, w.logFile]),
	];
	return files
		.filter(([, f]) => f && fs.existsSync(f))
		.flatMap(([name, f]) =>
			fs
				.readFileSync(f, 'utf8')
				.split('\n')
				.map((l) => `${name}: ${l}`),
		)
		.join('\n');
}

/**
 * POST /rest/workflows/:id/activate (with the workflow's versionId), then n8n 2.41's
 * publication status until it is no longer in progress (at most 60 s). Returns { status (HTTP),
 * ms (until the outcome was known), publication } (as ai-steps.js's activate, which it does not export).
 */
async function activate(s, id) {
	const t0 = Date.now();
	const wf = await s.api.json('GET', `/rest/workflows/${id}`);
	const res = await s.api.raw('POST', `/rest/workflows/${id}/activate`, {
		versionId: wf.versionId,
	});
	const text = await res.text();
	check(
		res.ok,
		`POST /rest/workflows/${id}/activate answered ${res.status}: ${text.slice(0, 400)}`,
	);
	const answeredMs = Date.now() - t0;
	for (;;) {
		const publication = await publicationStatus(s, id);
		if (!publication || publication.status !== 'in_progress')
			return { status: res.status, answeredMs, ms: Date.now() - t0, publication };
		check(Date.now() - t0 < 60_000, `publication of workflow ${id} still in progress after 60 s`);
		await sleep(250);
	}
}

/** GET /rest/workflows/:id/publication-status (undefined where n8n has no publication service). */
async function publicationStatus(s, id) {
	const r = await s.api.raw('GET', `/rest/workflows/${id}/publication-status`);
	const t = await r.text();
	if (r.status === 404 && !/"status"/.test(t)) return undefined;
	check(
		r.ok,
		`GET /rest/workflows/${id}/publication-status answered ${r.status}: ${t.slice(0, 300)}`,
	);
	return JSON.parse(t).data;
}

/** Every execution of a workflow, newest first: GET /rest/executions, 100 a page, following nextCursor. */
async function executionsOf(s, workflowId) {
	const all = [];
	let cursor;
	for (let page = 0; page < 100; page++) {
		const q = new URLSearchParams({
			filter: JSON.stringify({ workflowId }),
			limit: '100',
			...(cursor ? { cursor } : {}),
		});
		const list = await s.api.json('GET', `/rest/executions?${q}`);
		all.push(...((list && list.results) || []));
		cursor = list && list.nextCursor;
		if (!cursor) return all;
	}
	throw new Error('more than 100 pages of executions');
}

/** GET /rest/executions/:id with its data parsed (n8n sends it flatted). */
async function executionData(s, id) {
	const ex = await s.api.json('GET', `/rest/executions/${id}`);
	const data = typeof ex.data === 'string' ? s.release.require('flatted').parse(ex.data) : ex.data;
	return { ex, data };
}

/**
 * Every execution of a workflow with what the trigger node `nodeName` emitted (the `idField` of
 * each item), oldest first: { id, status, mode, startedAt, stoppedAt, done, ids, error }.
 */
async function emissionsOf(s, workflowId, nodeName, idField) {
	const list = await executionsOf(s, workflowId);
	const out = [];
	for (const e of list.reverse()) {
		const done = e.stoppedAt || ['success', 'error', 'crashed', 'canceled'].includes(e.status);
		if (!done) {
			out.push({
				id: e.id,
				status: e.status,
				mode: e.mode,
				startedAt: e.startedAt,
				done: false,
				ids: [],
			});
			continue;
		}
		const { ex, data } = await executionData(s, e.id);
		const runs =
			data && data.resultData && data.resultData.runData && data.resultData.runData[nodeName];
		const ids =
			runs && runs.length && !runs[runs.length - 1].error
				? outputOf(data, nodeName).map((j) => String(j[idField]))
				: [];
		out.push({
			id: e.id,
			status: ex.status,
			mode: ex.mode,
			startedAt: ex.startedAt,
			stoppedAt: ex.stoppedAt,
			done: true,
			ids,
			error: data && data.resultData && data.resultData.error && data.resultData.error.message,
		});
	}
	return out;
}

/**
 * A trigger node's state as n8n saved it in PostgreSQL: its part of workflow_entity."staticData"
 * (key `node:<name>`) and the workflow's rows of poller_state (n8n 2.41's durable cursor and
 * the scheduler's back-off, keyed by node id). { node, cursors: [{ nodeId, cursor, errors, backoff }] }.
 */
function nodeState(s, workflowId, nodeName) {
	check(/^[A-Za-z0-9]+$/.test(workflowId), `unexpected workflow id ${workflowId}`);
	const raw = psql(
		s.services,
		`SELECT coalesce("staticData"::text, 'null') FROM workflow_entity WHERE id = '${workflowId}'`,
	);
	const node = (JSON.parse(raw || 'null') || {})[`node:${nodeName}`];
	const rows = psql(
		s.services,
		`SELECT "nodeId" || E'\\t' || coalesce("cursor"::text, 'null') || E'\\t' || "consecutiveErrors" || E'\\t' || coalesce("backoffUntil"::text, '-') FROM poller_state WHERE "workflowId" = '${workflowId}'`,
	);
	const cursors = (rows ? rows.split('\n') : [])
		.map((r) => r.split('\t'))
		.map(([nodeId, cursor, errors, backoff]) => ({
			nodeId,
			cursor: JSON.parse(cursor) || {},
			errors,
			backoff,
		}));
	return { node, cursors };
}

/** The package's poll state (nodes/shared/poll/strategies.ts PollState) in words. */
function describePoll(state) {
	if (!state) return 'no vendorPoll';
	const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
	if (state.since !== undefined)
		return `vendorPoll pending since ${iso(state.since)} (no baseline: the activation poll failed)`;
	if (state.t !== undefined)
		return `vendorPoll baseline: newest ${state.t === null ? 'none (empty list)' : iso(state.t)}, ids there ${JSON.stringify(state.keys || [])}`;
	if (Array.isArray(state.keys))
		return `vendorPoll scan: ${state.keys.length} keys known${state.at ? `, read at ${iso(state.at)}` : ''}`;
	return `vendorPoll ${JSON.stringify(state).slice(0, 200)}`;
}

/** nodeState in words. */
function describeState({ node, cursors }) {
	const keys = (o) => `keys [${Object.keys(o || {}).join(', ')}]`;
	const cursorText = cursors.map(
		({ nodeId, cursor, errors, backoff }) =>
			`node id ${nodeId.slice(0, 8)}: ${keys(cursor)}, ${describePoll(cursor.vendorPoll)} (consecutiveErrors ${errors}, backoffUntil ${backoff})`,
	);
	return `staticData of the node: ${node ? `${keys(node)}, ${describePoll(node.vendorPoll)}` : 'none'}; poller_state: ${cursorText.join(' | ') || 'no row'}`;
}

/** One of the emulator's admin routes (`/__admin/<route>`), which must answer 2xx; its JSON. */
async function emulatorAdmin(s, method, route, body) {
	const res = await fetch(`${s.em.url}/__admin/${route}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = await res.json();
	check(res.ok, `${method} /__admin/${route} answered ${res.status}: ${JSON.stringify(json)}`);
	return json;
}

module.exports = {
	WORKERS,
	planQueue,
	startQueue,
	stopQueue,
	allLogs,
	activate,
	publicationStatus,
	executionsOf,
	executionData,
	emissionsOf,
	nodeState,
	describePoll,
	describeState,
	emulatorAdmin,
};
