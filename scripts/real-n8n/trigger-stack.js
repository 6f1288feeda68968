/**
 * What the trigger checks of a real n8n share (queue-429.js, reactivate.js, durable.js): one
 * stack on 127.0.0.1, set up once, stopped at the end (also on failure and Ctrl+C):
 *
 *  - n8n (2.41.1 unless --n8n) installed the way check.js does (install-n8n.sh, reused);
 *    PostgreSQL and Redis from Debian on free loopback ports in a temporary folder
 *    (queue-services.js); the package built, packed and installed n8n's way; the emulator
 *  - n8n on that PostgreSQL: queue mode (main + 2 workers, queue-n8n.js) or regular mode (one
 *    process; restarted with other environment variables on the same database and encryption
 *    key, e.g. the durable scheduler's flags); the owner logged in, the Vendor OAuth2 credential
 *    created and connected (the steps of n8n-session.js)
 *  - workflows of one trigger node -> No Operation; activate (queue-n8n.js), deactivate, save as
 *    the editor does (no static data sent); records made through the emulator's API with a token
 *    of its own, so that the trigger's calls (n8n's token) can be told apart from this script's
 *
 * What each execution emitted and the node's saved state are queue-n8n.js's emissionsOf and
 * nodeState. The client secret and tokens are never printed.
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {
	ROOT,
	PACKAGE,
	CREDENTIAL_NAME,
	step,
	stepsRun,
	check,
	reportFailure,
	secs,
	freePort,
	onStopSignal,
	isStopping,
	N8nClient,
	connectCredential,
	createWorkflow,
	cleanup,
} = require('./n8n-session');
const { installStep, buildStep, packStep } = require('./install');
const { emulatorStep, startN8n, stopN8n, sleep, tmpFolder } = require('./start');
const { loginStep, credentialStep } = require('./connect');
const { ensurePackages, startServices, stopServices, serviceEnv } = require('./queue-services');
const { stampArrivals } = require('./ai-steps');
const { planQueue, startQueue, stopQueue, activate, publicationStatus } = require('./queue-n8n');

/** n8n 2.41's durable scheduler for poll triggers (n8n honours the cursor flag only with all three). */
const SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};
/** The scheduler with durable poll cursors: the node's static data a snapshot committed with each execution (poller_state). */
const DURABLE = { ...SCHEDULER, N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true' };

const envText = (env) =>
	Object.keys(env).length
		? Object.entries(env)
				.map(([k, v]) => `${k}=${v}`)
				.join(' ')
		: "n8n's defaults";

/**
 * Everything up to a connected credential: install, services, package, emulator (`emulator`:
 * more of its options), n8n (`queue`: main + 2 workers; else regular mode) with `env`.
 */
async function prepare(s, { queue = false, env = {}, emulator = {} }) {
	s.services = s.services || {};
	await installStep(s);
	await step(
		'PostgreSQL and Redis (Debian) on free loopback ports in a temporary folder',
		async () => {
			const packages = ensurePackages();
			await startServices(s.services);
			return [
				packages,
				`PostgreSQL 127.0.0.1:${s.services.pg.port}, Redis 127.0.0.1:${s.services.redis.port} (in ${s.services.dir})`,
			];
		},
	);
	s.userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'real-n8n-trigger-'));
	s.logFile = path.join(s.userFolder, 'n8n.log');
	process.env.TMPDIR = tmpFolder(s.userFolder);
	await buildStep(s);
	await packStep(s);
	await emulatorStep(s, await freePort(), emulator);
	s.encryptionKey = crypto.randomBytes(24).toString('hex');
	if (queue) {
		await planQueue(s, env);
		await step(
			`n8n main + 2 workers in queue mode on PostgreSQL and Redis (${envText(env)})`,
			async () => {
				const lines = await startQueue(s);
				s.api = new N8nClient(s.base);
				return lines;
			},
		);
	} else {
		await step(`n8n in regular mode on PostgreSQL (${envText(env)})`, async () =>
			startRegular(s, env),
		);
	}
	s.owner = {
		email: 'owner@example.com',
		firstName: 'Trigger',
		lastName: 'Check',
		password: `Check-${crypto.randomBytes(6).toString('hex')}1A`,
	};
	await loginStep(s);
	await credentialStep(s);
	await connectCredential(s);
	stampArrivals(s);
	// this script's own calls to the emulator: a token of their own, not n8n's
	s.uiToken = s.em.issueToken({ region: 'us' }).access_token;
}

/** n8n in regular mode on the stack's PostgreSQL with `env` (the same key every time); what it took. */
async function startRegular(s, env) {
	s.env = env;
	const times = await startN8n(s, 'n8n', {
		userFolder: s.userFolder,
		port: s.port,
		brokerPort: s.brokerPort,
		env: { ...serviceEnv(s.services), N8N_ENCRYPTION_KEY: s.encryptionKey, ...env },
	});
	s.api = s.api || new N8nClient(s.base);
	return [
		`pid ${s.n8n.pid}: /healthz after ${times['/healthz']}, /healthz/readiness after ${times['/healthz/readiness']}; ${envText(env)}`,
	];
}

/** Regular-mode n8n stopped and started again with `env` (same database and key), the owner logged in again. */
function restartStep(s, env) {
	return step(
		`n8n restarted in regular mode with ${envText(env)} (same PostgreSQL and encryption key)`,
		async () => {
			const stopped = await stopN8n(s.n8n);
			s.n8n = undefined;
			const lines = await startRegular(s, env);
			s.api.cookies.clear();
			const me = await s.api.json('POST', '/rest/login', {
				emailOrLdapLoginId: s.owner.email,
				password: s.owner.password,
			});
			check(me.email === s.owner.email, 'login after the restart failed');
			return [stopped || 'n8n was not running', ...lines];
		},
	);
}

/** n8n (workers, main), the emulator and the user folder, then PostgreSQL and Redis: each tried even if one before failed. */
async function stopAll(s) {
	const done = [];
	const failures = [];
	for (const part of [
		async () => (await stopQueue(s)).join(', '),
		() => cleanup(s),
		() => stopServices(s.services || {}),
	]) {
		const text = await Promise.resolve()
			.then(part)
			.catch((e) => failures.push(e.message));
		if (typeof text === 'string' && text) done.push(text);
	}
	console.log(`PASS cleanup: ${done.join('; ')}`);
	if (failures.length) throw new Error(failures.join('; '));
}

/**
 * Runs `scenario(s)` with the stack's cleanup after it (and on a stop signal); prints
 * `<title> PASSED` / `FAILED` and sets the exit code. `summary(s)`, if given, prints what was
 * measured either way (a failed check still leaves its numbers).
 */
function runChecks(s, title, scenario, summary) {
	const started = Date.now();
	onStopSignal((signal) => {
		console.log(`\nFAIL interrupted (${signal})`);
		stopAll(s)
			.catch((e) => console.log(`FAIL cleanup: ${e.message}`))
			.finally(() => process.exit(130));
	});
	(async () => {
		let failed = false;
		try {
			await scenario(s);
		} catch (error) {
			failed = true;
			reportFailure(s, error);
		} finally {
			if (!isStopping()) {
				if (summary) {
					try {
						summary(s);
					} catch (e) {
						console.log(`(summary failed: ${e.message})`);
					}
				}
				await stopAll(s).catch((e) => {
					failed = true;
					console.log(`FAIL cleanup: ${e.message}`);
				});
			}
		}
		if (isStopping()) return;
		console.log(
			failed
				? `\n${title} FAILED (${secs(Date.now() - started)})`
				: `\n${title} PASSED: ${stepsRun()} steps (${secs(Date.now() - started)})`,
		);
		process.exitCode = failed ? 1 : 0;
	})();
}

// ------------------------------------------------------------------ workflows

/** A workflow of one trigger node (its name `triggerName`) -> No Operation "Done"; its id. */
async function triggerWorkflow(s, { name, type, triggerName, parameters, everyMinute = true }) {
	const pollTimes = everyMinute ? { pollTimes: { item: [{ mode: 'everyMinute' }] } } : {};
	return createWorkflow(s, {
		name,
		nodes: [
			{
				parameters: { ...pollTimes, ...parameters },
				id: crypto.randomUUID(),
				name: triggerName,
				type: `${PACKAGE.name}.${type}`,
				typeVersion: 1,
				position: [0, 0],
				credentials: { vendorOAuth2Api: { name: CREDENTIAL_NAME } },
			},
			{
				parameters: {},
				id: crypto.randomUUID(),
				name: 'Done',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [260, 0],
			},
		],
		connections: { [triggerName]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
}

/** Activates (publishes) a workflow and checks it reads active without an activation error; what n8n answered. */
async function activateChecked(s, id) {
	const activated = await activate(s, id);
	const pub = activated.publication;
	check(!pub || pub.status === 'published', `publication status ${JSON.stringify(pub)}`);
	const wf = await s.api.json('GET', `/rest/workflows/${id}`);
	check(wf.active === true, `the workflow reads active: ${wf.active}`);
	const error = await s.api.json('GET', `/rest/active-workflows/error/${id}`);
	check(!error, `the workflow has an activation error: ${JSON.stringify(error).slice(0, 300)}`);
	return `activated in ${secs(activated.ms)}${pub ? ` (publication ${pub.status})` : ''}`;
}

/** POST /rest/workflows/:id/deactivate; waits until n8n's list of active workflows no longer holds it. */
async function deactivate(s, id) {
	const t0 = Date.now();
	await s.api.json('POST', `/rest/workflows/${id}/deactivate`, {});
	for (;;) {
		const active = await s.api.json('GET', '/rest/active-workflows');
		const pub = await publicationStatus(s, id);
		if (!active.includes(id) && (!pub || pub.status !== 'in_progress')) break;
		check(Date.now() - t0 < 60_000, `workflow ${id} still active 60 s after deactivating`);
		await sleep(250);
	}
	const wf = await s.api.json('GET', `/rest/workflows/${id}`);
	check(wf.active === false, `the workflow reads active after deactivating: ${wf.active}`);
	return `deactivated in ${secs(Date.now() - t0)}`;
}

/**
 * Saves the workflow as the editor does: GET it, `change(wf)` its nodes / connections, PATCH
 * name, nodes, connections, settings and versionId (no static data: the editor sends none).
 * Returns the saved workflow (its new versionId).
 */
async function saveWorkflow(s, id, change) {
	const wf = await s.api.json('GET', `/rest/workflows/${id}`);
	change(wf);
	return s.api.json('PATCH', `/rest/workflows/${id}`, {
		name: wf.name,
		nodes: wf.nodes,
		connections: wf.connections,
		settings: wf.settings,
		versionId: wf.versionId,
	});
}

// ------------------------------------------------------------------ the emulator

/** n8n's requests of one operation (not this script's), from `since` on; `r.at` is when each arrived. */
const n8nCalls = (s, operation, since = 0) =>
	s.em.requests.filter(
		(r) =>
			(operation === undefined ? r.area && r.area !== 'accounts' : r.operation === operation) &&
			r.at >= since &&
			r.headers.authorization !== `Vendor-oauthtoken ${s.uiToken}`,
	);

/** This script's call to the emulator's API (its own token); the answer's body. */
async function apiCall(s, method, area, route, json) {
	const { apiClient } = require(path.join(ROOT, 'build', 'emulator', 'server.js'));
	const res = await apiClient(s.em, { token: s.uiToken })(method, area, route, { json });
	check(
		res.status === 200 || res.status === 201,
		`${method} ${area} ${route} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
	);
	return res.body;
}

/** An invoice made through the emulator's Books API; { id, number, created }. */
async function createInvoice(s, label) {
	const customerId = String(s.tenant.all('customers')[0].customer_id);
	const { invoice } = await apiCall(s, 'POST', 'books', '/invoices', {
		customer_id: customerId,
		line_items: [{ name: label, rate: 100, quantity: 1 }],
	});
	check(invoice && invoice.invoice_id, 'no invoice in the answer');
	return {
		id: String(invoice.invoice_id),
		number: invoice.invoice_number,
		created: invoice.created_time,
	};
}

/** How many executions emitted `id`, and which. */
function emittedBy(execs, id) {
	const by = execs.filter((e) => e.ids.includes(id));
	return {
		times: execs.reduce((n, e) => n + e.ids.filter((x) => x === id).length, 0),
		executions: by.map((e) => e.id),
	};
}

const executionsText = (execs) =>
	execs
		.map(
			(e) =>
				`${e.id} ${e.status}${e.mode ? `/${e.mode}` : ''} [${e.ids.length > 6 ? `${e.ids.length} ids` : e.ids.join(', ')}]${e.error ? ` "${String(e.error).slice(0, 120)}"` : ''}`,
		)
		.join('; ') || 'none';

module.exports = {
	SCHEDULER,
	DURABLE,
	envText,
	prepare,
	startRegular,
	restartStep,
	stopAll,
	runChecks,
	triggerWorkflow,
	activateChecked,
	deactivate,
	saveWorkflow,
	n8nCalls,
	apiCall,
	createInvoice,
	emittedBy,
	executionsText,
};
