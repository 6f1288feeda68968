/**
 * What `npm run check:n8n` (check.js) and `npm run demo:editor` (demo-editor.js) share: one
 * session of a real n8n with this package in it, composed of:
 *
 *  - options.js    the options both take (--n8n <version>, --fresh, --keep, --skip-build and the
 *                  REAL_N8N_* environment)
 *  - steps.js      how they report: `step` (one PASS or FAIL line each), `check`, secrets masked
 *  - install.js    the per-version n8n install (install-n8n.sh, reused when present); the package
 *                  built, `npm pack`ed and installed from the tarball the way n8n installs a
 *                  community package, into an isolated n8n user folder
 *  - start.js      the emulator with demo data on 127.0.0.1 (in this process), its demo client
 *                  accepting this n8n's callback `http://localhost:<port>/rest/oauth2-credential/callback`
 *                  as redirect URI; n8n started on 127.0.0.1 (Node 24, that user folder) until
 *                  /healthz and /healthz/readiness answer, and stopped
 *  - connect.js    the owner set up and logged in; a "Vendor OAuth2 API" credential created and
 *                  connected through n8n's OAuth2 round trip
 *  - workflows.js  workflows imported (the examples, with that credential) and run; the smoke
 *                  step: Manual Trigger -> Vendor Books Item -> Get Many run through n8n's REST
 *                  API and its output compared with the emulator's demo items
 *
 * and here: the Session (what the steps fill in and cleanup stops), setUp (install to connected
 * credential, in order), the stop signals and cleanup (n8n and the emulator stopped, the user
 * folder removed, also on Ctrl+C / SIGTERM). The client secret and tokens are never printed.
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, DEFAULT_N8N_VERSION, PACKAGE, parseOptions } = require('./options');
const { step, stepsRun, Reported, check, redact, reportFailure, secs } = require('./steps');
const { installStep, buildStep, packStep, installed } = require('./install');
const {
	emulatorStep,
	n8nStep,
	startN8n,
	stopN8n,
	freePort,
	portFree,
	tmpFolder,
} = require('./start');
const {
	CREDENTIAL_NAME,
	N8nClient,
	signIn,
	loginStep,
	credentialStep,
	oauthStep,
	tokensStep,
} = require('./connect');
const {
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
} = require('./workflows');

// ------------------------------------------------------------------ the session

/**
 * One n8n with the package, the emulator and what cleanup must stop and remove. Made from
 * parseOptions' result; the steps below fill it in.
 */
class Session {
	constructor(options) {
		this.version = options.version;
		this.cache = options.cache;
		this.cacheLabel = path.relative(ROOT, options.cache) || options.cache;
		this.fresh = options.fresh;
		this.keep = options.keep;
		this.skipBuild = options.skipBuild;
		this.nodeBin = path.join(this.cache, 'node_modules', 'node', 'bin');
		this.n8nBin = path.join(this.cache, 'node_modules', 'n8n', 'bin', 'n8n');
		/** What the installed release brings, read from its own files (not from a table of versions). */
		this.release = {};
		this.seen = { separator: undefined };
		// what cleanup stops and removes
		this.n8n = this.n8nCustom = this.em = this.userFolder = this.logFile = this.browser = undefined;
	}

	/** The emulator's API calls since the last `em.clearRequests()` (not the accounts server). */
	apiCalls() {
		return this.em.requests.filter((r) => r.area && r.area !== 'accounts');
	}
}

/**
 * install, build, pack; emulator and n8n on `await port()`; owner (`owner`: setup and login
 * body), then `afterLogin()` if given; the credential created and connected.
 */
async function setUp(s, { owner, port, afterLogin }) {
	await installStep(s);
	s.userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'real-n8n-'));
	s.logFile = path.join(s.userFolder, 'n8n.log');
	// this process's own temporary files (the browser's, npm's) inside the user folder too
	process.env.TMPDIR = tmpFolder(s.userFolder);
	await buildStep(s);
	await packStep(s);
	await emulatorStep(s, await port());
	await n8nStep(s);
	s.owner = owner;
	await loginStep(s);
	if (afterLogin) await afterLogin();
	await credentialStep(s);
	await connectCredential(s);
}

/** The credential connected (again): n8n's OAuth2 round trip, then the tokens on both sides. */
async function connectCredential(s) {
	await oauthStep(s);
	await tokensStep(s);
}

let stopping = false;
/** Calls `handler(signal)` once on the first SIGINT, SIGTERM or SIGHUP (later ones are ignored). */
function onStopSignal(handler) {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(signal, () => {
			if (stopping) return;
			stopping = true;
			handler(signal);
		});
	}
}
const isStopping = () => stopping;

/** Stops both n8n processes and the emulator, removes the user folder unless kept; what it did. */
async function cleanup(s) {
	const done = [];
	const { n8n, n8nCustom, em, userFolder, browser } = s;
	s.n8n = s.n8nCustom = s.em = s.userFolder = s.browser = undefined; // once, even if a signal comes during it
	if (browser) {
		// the headless Chromium of check.js's editor step, if a stop signal came during it
		await browser.close().catch(() => {});
		done.push('Chromium closed');
	}
	for (const proc of [n8n, n8nCustom]) {
		const stopped = await stopN8n(proc);
		if (stopped) done.push(stopped);
	}
	if (em) {
		await em.close();
		done.push('emulator stopped');
	}
	if (userFolder) {
		if (s.keep) done.push(`user folder kept: ${userFolder}`);
		else {
			fs.rmSync(userFolder, { recursive: true, force: true });
			done.push('user folder removed');
		}
	}
	if (installed(s.cache, s.version)) done.push(`n8n install kept in ${s.cacheLabel}`);
	else done.push(`no n8n install left in ${s.cacheLabel}`);
	return done.join('; ');
}

module.exports = {
	// constants and options
	ROOT,
	DEFAULT_N8N_VERSION,
	PACKAGE,
	CREDENTIAL_NAME,
	EXAMPLES,
	ITEMS_WORKFLOW,
	parseOptions,
	// output and processes
	step,
	stepsRun,
	Reported,
	check,
	redact,
	reportFailure,
	secs,
	freePort,
	portFree,
	onStopSignal,
	isStopping,
	// the session: set up, workflows, n8n processes, cleanup
	N8nClient,
	Session,
	setUp,
	connectCredential,
	signIn,
	createWorkflow,
	importExample,
	createItemsWorkflow,
	itemsStep,
	runAndWait,
	outputOf,
	assertSucceeded,
	checkCallsAuthorized,
	startN8n,
	stopN8n,
	cleanup,
};
