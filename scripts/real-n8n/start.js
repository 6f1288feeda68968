/**
 * Start and stop: the emulator with demo data on 127.0.0.1 (in this process; its demo client
 * accepting this n8n's callback `http://localhost:<port>/rest/oauth2-credential/callback` as
 * redirect URI) and n8n (Node 24, an isolated user folder, 127.0.0.1) until /healthz and
 * /healthz/readiness answer; stopping n8n with its task runner. Part of the session of
 * n8n-session.js.
 */
'use strict';

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const { ROOT } = require('./options');
const { CLIENT, step, check, secs } = require('./steps');
const { N8nClient } = require('./connect');

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

function portFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The emulator with demo data; n8n's port decides the redirect URI its demo client accepts.
 * `options`: more of the emulator's options (e.g. `accountingRateLimit`, the service's pace).
 */
async function emulatorStep(s, port, options = {}) {
	check(await portFree(port), `port ${port} is in use`);
	s.port = port;
	s.brokerPort = await freePort(); // n8n's task broker (default 5679)
	s.base = `http://127.0.0.1:${port}`;
	s.redirectUri = `http://localhost:${port}/rest/oauth2-credential/callback`;
	return step('emulator with demo data on 127.0.0.1', async () => {
		const { startEmulator } = require(path.join(ROOT, 'build', 'emulator', 'server.js'));
		const { Clock } = require(path.join(ROOT, 'build', 'emulator', 'clock.js'));
		// As `npm run demo -- --redirect-uri <n8n's callback>`: the demo data, and the default
		// client accepting the callback of this n8n (its port need not be 5678).
		s.em = await startEmulator({
			demo: true,
			clock: new Clock({ realTime: true }),
			redirectUri: s.redirectUri,
			...options,
		});
		Object.assign(CLIENT, {
			clientId: s.em.defaultClient.clientId,
			clientSecret: s.em.defaultClient.clientSecret,
		});
		check(
			s.em.defaultClient.redirectUri === s.redirectUri,
			`the emulator's client accepts ${s.em.defaultClient.redirectUri}, not ${s.redirectUri}`,
		);
		s.urls = s.em.regionUrls('us');
		s.tenant = s.em.store.org('us', s.em.organizationId);
		check(s.tenant, `no organisation ${s.em.organizationId} in the emulator`);
		return [`${s.em.url}; demo client ${CLIENT.clientId}, redirect URI ${s.redirectUri}`];
	});
}

function n8nStep(s) {
	return step(`n8n start on ${s.base} (isolated user folder)`, async () => {
		const times = await startN8n(s, 'n8n', {
			userFolder: s.userFolder,
			port: s.port,
			brokerPort: s.brokerPort,
		});
		s.api = new N8nClient(s.base);
		return [
			`pid ${s.n8n.pid}; /healthz 200 after ${times['/healthz']}, /healthz/readiness 200 after ${times['/healthz/readiness']}; log ${s.keep ? s.logFile : '(removed at the end)'}`,
		];
	});
}

// ------------------------------------------------------------------ n8n processes

/**
 * The temporary folder n8n (and its task runner) gets through TMPDIR: `<user folder>/tmp`, so
 * what n8n puts in the system's temporary folder (n8n 2.41's `n8nDataTableUploads`, which
 * n8n's config places in `os.tmpdir()` with no setting of its own) goes with the user folder.
 */
function tmpFolder(userFolder) {
	const dir = path.join(userFolder, 'tmp');
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

/**
 * Starts n8n (Node 24) with its own user folder and port (`opts.env`: more environment);
 * `s[key]` holds the process, which cleanup stops. Resolves once /healthz and
 * /healthz/readiness answer 200, with how long each took.
 */
async function startN8n(s, key, opts) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(
			([k]) =>
				!k.startsWith('N8N_') &&
				!k.startsWith('DB_') &&
				k !== 'NODE_OPTIONS' &&
				k !== 'NODE_PATH' &&
				!k.startsWith('npm_'),
		),
	);
	Object.assign(env, {
		PATH: `${s.nodeBin}:${process.env.PATH}`,
		N8N_USER_FOLDER: opts.userFolder,
		TMPDIR: tmpFolder(opts.userFolder),
		N8N_PORT: String(opts.port),
		N8N_RUNNERS_BROKER_PORT: String(opts.brokerPort),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
		N8N_LOG_LEVEL: 'info',
		EXECUTIONS_MODE: 'regular',
		...(opts.env ?? {}),
	});
	const t0 = Date.now();
	const log = fs.openSync(s.logFile, 'a');
	const proc = spawn(path.join(s.nodeBin, 'node'), [s.n8nBin, 'start'], {
		cwd: opts.userFolder,
		env,
		stdio: ['ignore', log, log],
		detached: true,
	});
	fs.closeSync(log);
	s[key] = proc;
	let exited;
	proc.once('exit', (code, signal) => (exited = `n8n exited (${code ?? signal})`));
	// /healthz answers as soon as the server listens; /healthz/readiness once the database is
	// migrated and n8n is fully started (nodes loaded).
	const deadline = Date.now() + 240_000;
	const times = {};
	for (const route of ['/healthz', '/healthz/readiness']) {
		for (;;) {
			check(!exited, exited);
			try {
				const res = await fetch(`http://127.0.0.1:${opts.port}${route}`);
				await res.arrayBuffer();
				if (res.status === 200) break;
			} catch {
				/* not listening yet */
			}
			check(Date.now() < deadline, `n8n did not answer ${route} with 200 within 240 s`);
			await sleep(500);
		}
		times[route] = secs(Date.now() - t0);
	}
	return times;
}

/** Stops an n8n process and its task runner (its own process group); SIGKILL after 20 s. */
async function stopN8n(n8n) {
	if (!n8n || n8n.exitCode !== null || n8n.signalCode !== null) return undefined;
	const exited = new Promise((r) => n8n.once('exit', r));
	const signalGroup = (sig) => {
		try {
			process.kill(-n8n.pid, sig);
		} catch {
			/* already gone */
		}
	};
	signalGroup('SIGTERM');
	const stopped = await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)]);
	if (!stopped) {
		signalGroup('SIGKILL');
		await Promise.race([exited, sleep(5_000)]);
	}
	return `n8n stopped${stopped ? '' : ' (killed after 20 s)'}`;
}

module.exports = { emulatorStep, n8nStep, startN8n, stopN8n, freePort, portFree, sleep, tmpFolder };
