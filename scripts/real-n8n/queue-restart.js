#!/usr/bin/env node
/**
 * `npm run check:n8n:queue`: a trigger that stays alive, on a real n8n in queue mode. It
 * proves that a Vendor Books Trigger activated during an outage, then n8n restarted (queue
 * mode, n8n 2.41.1: main + 2 workers, PostgreSQL, Redis), polls again and emits an invoice
 * created while n8n was down, exactly once.
 *
 *  1. n8n (2.41.1 unless --n8n) installed the way check.js does (install-n8n.sh into
 *     .real-n8n/<version>, reused when present); Redis and PostgreSQL from Debian (apt-get when
 *     absent) started on free loopback ports in a temporary folder (queue-services.js)
 *  2. the package built, packed and installed n8n's way; the emulator with demo data; n8n main
 *     (`n8n start`) and 2 workers (`n8n worker --concurrency=10`) in queue mode on that
 *     database, Redis and one encryption key (queue-n8n.js); the owner logged in; the Vendor
 *     OAuth2 credential created and connected (the steps of n8n-session.js)
 *  3. a workflow Vendor Books Trigger (Invoice Created, every minute) -> No Operation; every
 *     Books API call answered 503 (POST /__admin/faults), the workflow activated through n8n's
 *     REST API: done within 30 s, active; the 503s counted; the fault cleared
 *  4. main and workers stopped; an invoice created in the emulator through its API meanwhile
 *  5. main and workers started again (same database, Redis, key); within about 4 minutes an
 *     execution emits that invoice; after one more poll it has been emitted exactly once over
 *     every execution (GET /rest/executions, paged by cursor); n8n's logs hold no "exceeded its
 *     deadline" / "Abandoned workflow publication"; the publication status is reported
 *  6. with --durable-cursors every process also gets n8n 2.41's durable poll cursors:
 *     N8N_POLLER_DURABLE_CURSORS_ENABLED=true, which n8n honours only together with
 *     N8N_SCHEDULER_ENABLED=true and N8N_SCHEDULER_POLL_TRIGGERS_ENABLED=true (and the
 *     publication service, on by default): n8n's dist/workflows/triggers/poll-cursor.service.js.
 *     --durable-cursors-flag-only sets the one variable alone (n8n then logs that it stays off)
 *  7. cleanup always (also on failure and Ctrl+C): n8n, the emulator, Redis and PostgreSQL
 *     stopped, the temporary folders removed (the n8n install is kept)
 *
 * At each stage the trigger's saved state is printed: the workflow's static data
 * (workflow_entity."staticData", key vendorPoll) and n8n's durable cursor (poller_state).
 *
 * Usage: npm run check:n8n:queue [-- --durable-cursors] [--n8n <version>] [--keep] [--skip-build] [--fresh]
 * Runs as root (apt-get, PostgreSQL as the postgres user); about 3 minutes after the install
 * (up to 7 when the invoice is never emitted). The client secret and tokens are never printed.
 *
 * Verified 2026-11-29 on n8n 2.41.1: passes with n8n's defaults and with the cursor variable
 * alone; fails with --durable-cursors. There n8n runs the poll at activation as a test poll whose
 * state it never commits (n8n-core PollTriggerExecutor commits the staged cursor only when not
 * testing), so the since-time the trigger writes at a failed activation poll is lost, and the
 * first poll after the restart takes a baseline that already holds the invoice.
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
	parseOptions,
	step,
	stepsRun,
	check,
	reportFailure,
	secs,
	freePort,
	onStopSignal,
	isStopping,
	Session,
	N8nClient,
	connectCredential,
	createWorkflow,
	cleanup,
} = require('./n8n-session');
const { installStep, buildStep, packStep } = require('./install');
const { emulatorStep, sleep, tmpFolder } = require('./start');
const { loginStep, credentialStep } = require('./connect');
const { ensurePackages, startServices, stopServices } = require('./queue-services');
const { stampArrivals } = require('./ai-steps');
const {
	planQueue,
	startQueue,
	stopQueue,
	allLogs,
	activate,
	publicationStatus,
	emissionsOf,
	nodeState,
	describeState,
	emulatorAdmin,
} = require('./queue-n8n');

const USAGE =
	'usage: npm run check:n8n:queue -- [--durable-cursors | --durable-cursors-flag-only] [--n8n <version>] [--keep] [--skip-build] [--fresh]';
const options = parseOptions(process.argv.slice(2), {
	command: 'check:n8n:queue',
	usage: USAGE,
	flags: ['--durable-cursors', '--durable-cursors-flag-only', '--fresh', '--keep', '--skip-build'],
	values: ['--n8n'],
});
/** The variant: n8n's defaults, its durable poll cursors (with the scheduler they need), or the cursor variable alone. */
const VARIANT = options.flags.has('--durable-cursors')
	? 'durable'
	: options.flags.has('--durable-cursors-flag-only')
		? 'flag-only'
		: 'defaults';
const VARIANT_ENV = {
	defaults: {},
	durable: {
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	},
	'flag-only': { N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true' },
}[VARIANT];
const TRIGGER = 'When an Invoice Is Created';
const BOOKS_TRIGGER = `${PACKAGE.name}.vendorBooksTrigger`;
const DISABLED_WARNING = 'durable poll cursors stay disabled';

const session = new Session(options);
session.services = {};
const started = Date.now();

/** n8n (workers, main), the emulator and the user folder (n8n-session.js's cleanup), then Redis and PostgreSQL: each tried even if one before failed. */
async function stopAll(s) {
	const done = [];
	const failures = [];
	for (const part of [
		async () => (await stopQueue(s)).join(', '),
		() => cleanup(s),
		() => stopServices(s.services),
	]) {
		const text = await Promise.resolve()
			.then(part)
			.catch((e) => failures.push(e.message));
		if (typeof text === 'string' && text) done.push(text);
	}
	console.log(`PASS cleanup: ${done.join('; ')}`);
	if (failures.length) throw new Error(failures.join('; '));
}

onStopSignal((signal) => {
	console.log(`\nFAIL interrupted (${signal})`);
	stopAll(session)
		.catch((e) => console.log(`FAIL cleanup: ${e.message}`))
		.finally(() => process.exit(130));
});

async function main() {
	let failed = false;
	console.log(
		`Queue-mode restart check: ${PACKAGE.name}@${PACKAGE.version} in n8n ${options.version}, variant: ${VARIANT}${
			Object.keys(VARIANT_ENV).length
				? ` (${Object.entries(VARIANT_ENV)
						.map(([k, v]) => `${k}=${v}`)
						.join(' ')})`
				: " (n8n's defaults)"
		}`,
	);
	try {
		await scenario(session);
	} catch (error) {
		failed = true;
		reportFailure(session, error);
		if (session.workflowId && session.services.pg)
			console.log(`Trigger state at the failure: ${savedState(session)}`);
	} finally {
		if (isStopping()) return;
		await stopAll(session).catch((e) => {
			failed = true;
			console.log(`FAIL cleanup: ${e.message}`);
		});
	}
	console.log(
		failed
			? `\nQUEUE RESTART CHECK FAILED (${VARIANT}; ${secs(Date.now() - started)})`
			: `\nQUEUE RESTART CHECK PASSED (${VARIANT}): ${stepsRun()} steps (${secs(Date.now() - started)})`,
	);
	process.exitCode = failed ? 1 : 0;
}

async function scenario(s) {
	// 1-2: n8n, the services, the package, the emulator, n8n in queue mode, owner, credential
	await installStep(s);
	await step(
		'Redis and PostgreSQL (Debian) on free loopback ports in a temporary folder',
		async () => {
			const packages = ensurePackages();
			await startServices(s.services);
			return [
				packages,
				`Redis 127.0.0.1:${s.services.redis.port}; PostgreSQL 127.0.0.1:${s.services.pg.port} (socket and data in ${s.services.dir}), role and database n8n`,
			];
		},
	);
	s.userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'real-n8n-queue-'));
	s.logFile = path.join(s.userFolder, 'n8n.log');
	process.env.TMPDIR = tmpFolder(s.userFolder);
	await buildStep(s);
	await packStep(s);
	await emulatorStep(s, Number(process.env.REAL_N8N_PORT || 0) || (await freePort()));
	await planQueue(s, VARIANT_ENV);
	await step(
		'n8n main + 2 workers in queue mode (PostgreSQL, Redis, one encryption key)',
		async () => startQueueAndClient(s),
	);
	s.owner = {
		email: 'owner@example.com',
		firstName: 'Queue',
		lastName: 'Check',
		password: `Check-${crypto.randomBytes(6).toString('hex')}1A`,
	};
	await loginStep(s);
	await credentialStep(s);
	await connectCredential(s);
	// 3-5
	await outageActivationStep(s);
	await downtimeStep(s);
	await restartStep(s);
	await emittedOnceStep(s);
	await logsStep(s);
}

/** Starts main and workers (queue-n8n.js); the session's client of n8n's REST API (made once: its cookie outlives a restart). */
async function startQueueAndClient(s) {
	const lines = await startQueue(s);
	s.api = s.api || new N8nClient(s.base);
	return lines;
}

/**
 * What n8n's logs say of the durable poll cursors: with --durable-cursors they must be on (no
 * "stay disabled" warning), with the cursor variable alone n8n must say they stay off (checked
 * when `strict`).
 */
function cursorsLine(s, { strict = false } = {}) {
	if (VARIANT === 'defaults') return 'durable poll cursors: off (the default)';
	const disabled = allLogs(s)
		.split('\n')
		.filter((l) => l.includes(DISABLED_WARNING));
	if (strict && VARIANT === 'durable')
		check(
			disabled.length === 0,
			`n8n says the durable poll cursors stay disabled:\n${disabled.slice(0, 3).join('\n')}`,
		);
	if (strict && VARIANT === 'flag-only')
		check(
			disabled.length > 0,
			`no log of n8n says "${DISABLED_WARNING}" with N8N_POLLER_DURABLE_CURSORS_ENABLED alone`,
		);
	return `durable poll cursors: ${
		disabled.length
			? `n8n says "${disabled[0]
					.replace(/^\w[\w ]*: /, '')
					.trim()
					.slice(0, 200)}" (${disabled.length} time(s))`
			: `on (no "${DISABLED_WARNING}" in any log)`
	}`;
}

/** GET /rest/settings (logged in): n8n must say it runs in queue mode. */
async function checkQueueMode(s) {
	const settings = await s.api.json('GET', '/rest/settings');
	check(
		settings.executionMode === 'queue',
		`n8n's /rest/settings says executionMode ${settings.executionMode}`,
	);
	return `/rest/settings: executionMode ${settings.executionMode}`;
}

// ------------------------------------------------------------------ the trigger's saved state

/** The trigger's state as n8n saved it in PostgreSQL (queue-n8n.js's nodeState). */
const readState = (s) => nodeState(s, s.workflowId, TRIGGER);

/** readState in words. */
const savedState = (s) => describeState(readState(s));

// ------------------------------------------------------------------ the emulator's record of n8n's calls (arrivals stamped by ai-steps.js's stampArrivals)

/** n8n's reads of the invoice list (not this script's calls), from `since` on. */
const n8nPolls = (s, since = 0) =>
	s.em.requests.filter(
		(r) =>
			r.operation === 'books.invoice.getAll' &&
			r.at >= since &&
			r.headers.authorization !== `Vendor-oauthtoken ${s.uiToken}`,
	);
const pollLine = (r, t0) =>
	`+${((r.at - t0) / 1000).toFixed(1)} s -> ${r.status ?? '(no answer yet)'}`;

const admin = emulatorAdmin;

// ------------------------------------------------------------------ 3. activation during an outage

function outageActivationStep(s) {
	return step(
		'Vendor Books Trigger (Invoice Created, every minute) -> No Operation, activated while every Books API call answers 503: done within 30 s, active',
		async () => {
			const mode = await checkQueueMode(s);
			s.workflowId = await createWorkflow(s, {
				name: 'Vendor: invoice created (activated during an outage, then n8n restarted)',
				nodes: [
					{
						parameters: {
							pollTimes: { item: [{ mode: 'everyMinute' }] },
							organizationId: { __rl: true, mode: 'id', value: s.em.organizationId },
							event: 'invoiceCreated',
						},
						id: crypto.randomUUID(),
						name: TRIGGER,
						type: BOOKS_TRIGGER,
						typeVersion: 1,
						position: [0, 0],
						credentials: { vendorOAuth2Api: { name: CREDENTIAL_NAME } },
					},
					{
						parameters: {},
						id: crypto.randomUUID(),
						name: 'No Operation',
						type: 'n8n-nodes-base.noOp',
						typeVersion: 1,
						position: [260, 0],
					},
				],
				connections: { [TRIGGER]: { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			});
			await admin(s, 'POST', 'faults', {
				count: 1_000_000,
				scope: 'books',
				fault: { kind: 'status', status: 503 },
			});
			stampArrivals(s);
			const logStart = fs.statSync(s.logFile).size;
			const t0 = Date.now();
			const activated = await activate(s, s.workflowId);
			await sleep(3_000); // anything n8n sends right after (a retry, a re-publication) is counted too
			const books = s.em.requests.filter((r) => r.area === 'books' && r.at >= t0);
			const outage503 = books.filter((r) => r.status === 503).length;
			await admin(s, 'DELETE', 'faults');
			s.faultClearedAt = Date.now();
			const pub = activated.publication;
			check(activated.ms < 30_000, `the activation took ${secs(activated.ms)} (limit 30 s)`);
			check(!pub || pub.status === 'published', `publication status ${JSON.stringify(pub)}`);
			const wf = await s.api.json('GET', `/rest/workflows/${s.workflowId}`);
			check(wf.active === true, `the workflow reads active: ${wf.active}`);
			check(
				(await s.api.json('GET', '/rest/active-workflows')).includes(s.workflowId),
				'GET /rest/active-workflows lacks the workflow',
			);
			check(
				!(await s.api.json('GET', `/rest/active-workflows/error/${s.workflowId}`)),
				'the workflow has an activation error',
			);
			check(
				outage503 >= 1 && books.every((r) => r.status === 503),
				`the Books API calls since the activation: ${books.map((r) => pollLine(r, t0)).join(', ')}`,
			);
			const warning = fs
				.readFileSync(s.logFile, 'utf8')
				.slice(logStart)
				.split('\n')
				.find((l) => l.includes(`The first poll of "${TRIGGER}"`));
			s.activatedAt = t0;
			s.activationState = savedState(s);
			return [
				mode,
				`workflow ${s.workflowId}: POST /activate answered ${activated.status} after ${secs(activated.answeredMs)}; publication ${pub ? `${pub.status} (triggers ${(pub.triggers || []).map((t) => t.status).join(', ')})` : '(no publication service)'} after ${secs(activated.ms)}; active, no activation error`,
				`the emulator answered ${outage503} Books API call(s) 503 (n8n's calls: ${books.map((r) => `${r.method} ${r.operation} ${pollLine(r, t0)}`).join(', ')}); fault cleared ${secs(s.faultClearedAt - t0)} after the activation began`,
				`n8n's log: ${warning ? warning.trim().slice(0, 240) : '(no warning of the package)'}`,
				`saved state: ${s.activationState}`,
			];
		},
	);
}

// ------------------------------------------------------------------ 4. n8n down, an invoice created

function downtimeStep(s) {
	return step(
		'main and both workers stopped; an invoice created in the emulator meanwhile (its API, a token it issued)',
		async () => {
			const stopped = await stopQueue(s);
			s.stoppedAt = Date.now();
			const before = n8nPolls(s, s.faultClearedAt);
			const down = await fetch(`${s.base}/healthz`).then(
				() => false,
				() => true,
			);
			check(down, `n8n still answers on ${s.base}`);
			const { apiClient } = require(path.join(ROOT, 'build', 'emulator', 'server.js'));
			s.uiToken = s.em.issueToken({ region: 'us' }).access_token;
			const ui = apiClient(s.em, { token: s.uiToken });
			const customerId = String(s.tenant.all('customers')[0].customer_id);
			const created = await ui('POST', 'books', '/invoices', {
				json: {
					customer_id: customerId,
					line_items: [{ name: 'Work done while n8n was down', rate: 120, quantity: 1 }],
				},
			});
			check(
				created.status === 201 || created.status === 200,
				`creating the invoice answered ${created.status}: ${JSON.stringify(created.body).slice(0, 300)}`,
			);
			s.invoice = created.body.invoice;
			check(
				s.invoice && s.invoice.invoice_id,
				`no invoice in ${JSON.stringify(created.body).slice(0, 300)}`,
			);
			return [
				stopped.join(', '),
				`n8n's reads of the invoice list between clearing the fault and stopping: ${before.length ? before.map((r) => pollLine(r, s.activatedAt)).join(', ') : 'none'} (times from the activation)`,
				`invoice ${s.invoice.invoice_number} (id ${s.invoice.invoice_id}) created ${secs(Date.now() - s.stoppedAt)} after n8n stopped, created_time ${s.invoice.created_time}`,
				`saved state: ${savedState(s)}`,
			];
		},
	);
}

// ------------------------------------------------------------------ 5. restart and the emission

function restartStep(s) {
	return step(
		'main and both workers started again (same PostgreSQL, Redis, encryption key); the owner logs in again',
		async () => {
			await sleep(5_000); // n8n down for a moment longer than the invoice's own second
			s.restartedAt = Date.now();
			const lines = await startQueueAndClient(s);
			s.api.cookies.clear();
			const me = await s.api.json('POST', '/rest/login', {
				emailOrLdapLoginId: s.owner.email,
				password: s.owner.password,
			});
			check(me.email === s.owner.email, 'login after the restart failed');
			lines.push(await checkQueueMode(s), cursorsLine(s));
			const wf = await s.api.json('GET', `/rest/workflows/${s.workflowId}`);
			check(wf.active === true, `after the restart the workflow reads active: ${wf.active}`);
			return [...lines, `down for ${secs(s.restartedAt - s.stoppedAt)}; the workflow reads active`];
		},
	);
}

/** Every execution of the workflow with what its trigger emitted (invoice ids), oldest first. */
const emissions = (s) => emissionsOf(s, s.workflowId, TRIGGER, 'invoice_id');

/** Why an invoice was never emitted, when the saved state shows it: a baseline that already holds it. */
function swallowed(s, invoiceId) {
	const { node, cursors } = readState(s);
	const polls = [
		node && node.vendorPoll,
		...cursors.map((c) => c.vendorPoll || c.cursor.vendorPoll),
	].filter(Boolean);
	if (!polls.some((p) => (p.keys || []).includes(invoiceId))) return '';
	return `\nDiagnosis: a poll after the restart found no pending since-time and took its baseline with the invoice already in it, so the invoice is not new to the trigger. The since-time the poll at activation writes (it logged its 503 warning) was not in the database after the activation: ${s.activationState}.`;
}

function emittedOnceStep(s) {
	return step(
		'after the restart: an execution emits the invoice created while n8n was down; after one more poll, it was emitted exactly once',
		async () => {
			const invoiceId = String(s.invoice.invoice_id);
			const t0 = s.restartedAt;
			let execs = [];
			let found;
			while (!found) {
				execs = await emissions(s);
				found = execs.find((e) => e.done && e.status === 'success' && e.ids.includes(invoiceId));
				if (found) break;
				check(
					Date.now() - t0 < 240_000,
					`no execution emitted invoice ${invoiceId} within 240 s of the restart; executions: ${JSON.stringify(execs)}; n8n's invoice-list reads since the restart: ${
						n8nPolls(s, t0)
							.map((r) => pollLine(r, t0))
							.join(', ') || 'none'
					}; saved state: ${savedState(s)}${swallowed(s, invoiceId)}`,
				);
				await sleep(3_000);
			}
			const emittedAfter = Date.now() - t0;
			// one more poll: a read of the invoice list that began after the emission was seen, answered, plus time for its execution
			const seen = Date.now();
			for (;;) {
				const later = n8nPolls(s, seen).filter((r) => r.status !== undefined);
				if (later.length) break;
				check(
					Date.now() - seen < 150_000,
					`no further poll within 150 s after the emission; reads since the restart: ${n8nPolls(
						s,
						t0,
					)
						.map((r) => pollLine(r, t0))
						.join(', ')}`,
				);
				await sleep(2_000);
			}
			await sleep(8_000);
			execs = await emissions(s);
			const times = execs.reduce((n, e) => n + e.ids.filter((id) => id === invoiceId).length, 0);
			const polls = n8nPolls(s, t0);
			const startedAt = Date.parse(found.startedAt);
			const read = n8nPolls(s, t0)
				.filter((r) => r.at <= startedAt)
				.pop();
			const lines = [
				`invoice ${s.invoice.invoice_number} (id ${invoiceId}) emitted by execution ${found.id} (mode ${found.mode}), started +${secs(startedAt - t0)} after the restart began${read ? `, from n8n's read at ${pollLine(read, t0)}` : ''}; seen by this script at +${secs(emittedAfter)}`,
				`n8n's reads of the invoice list after the restart (from the restart): ${polls.map((r) => pollLine(r, t0)).join(', ')}`,
				`executions of the workflow: ${execs.map((e) => `${e.id} ${e.status}${e.mode ? `/${e.mode}` : ''} emitted [${e.ids.join(', ')}]${e.error ? ` error "${e.error}"` : ''}`).join('; ')}`,
				`the invoice was emitted ${times} time(s) over ${execs.length} execution(s)`,
				`saved state: ${savedState(s)}`,
			];
			check(times === 1, `the invoice was emitted ${times} times:\n${lines.join('\n')}`);
			check(
				execs.every((e) => e.status === 'success'),
				`not every execution succeeded:\n${lines.join('\n')}`,
			);
			return lines;
		},
	);
}

function logsStep(s) {
	return step(
		`n8n's logs (main, 2 workers): no "exceeded its deadline", no "Abandoned workflow publication"; the publication status`,
		async () => {
			const logs = allLogs(s);
			const bad = logs
				.split('\n')
				.filter((l) => /exceeded its deadline|Abandoned workflow publication/.test(l));
			const related = logs
				.split('\n')
				.filter(
					(l) =>
						/publication|deadline|durable|cursor|poll/i.test(l) &&
						!/The first poll of|migration/i.test(l),
				);
			const pub = await publicationStatus(s, s.workflowId);
			check(bad.length === 0, `n8n's logs say:\n${bad.slice(0, 10).join('\n')}`);
			return [
				cursorsLine(s, { strict: true }),
				`publication status: ${pub ? JSON.stringify(pub).slice(0, 300) : '(no publication service)'}`,
				`log lines about publication / deadline / durable / cursor / poll: ${related.length ? '' : 'none'}`,
				...related.slice(0, 12).map((l) => `  ${l.trim().slice(0, 220)}`),
			];
		},
	);
}

main();
