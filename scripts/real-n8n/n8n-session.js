/**
 * What `npm run check:n8n` (check.js) and `npm run demo:editor` (demo-editor.js) share: one
 * session of a real n8n with this package in it.
 *
 *  - the options both take (--n8n <version>, --fresh, --keep, --skip-build and the REAL_N8N_*
 *    environment), and the per-version n8n install (install-n8n.sh, reused when present)
 *  - the package built, `npm pack`ed and installed from the tarball the way n8n installs a
 *    community package, into an isolated n8n user folder
 *  - the emulator with demo data on 127.0.0.1 (in this process), its demo client accepting this
 *    n8n's callback `http://localhost:<port>/rest/oauth2-credential/callback` as redirect URI
 *  - n8n started on 127.0.0.1 (Node 24, that user folder) until /healthz and /healthz/readiness
 *    answer; the owner set up and logged in; a "Vendor OAuth2 API" credential created and
 *    connected through n8n's OAuth2 round trip; the example workflows imported with it
 *  - a workflow Manual Trigger -> Vendor Books Item -> Get Many run through n8n's REST API and
 *    its output compared with the emulator's demo items
 *  - n8n and the emulator stopped, the user folder removed (also on Ctrl+C / SIGTERM)
 *
 * Every stage is a `step`: it prints its title, then one PASS or FAIL line. The client secret
 * and tokens are never printed.
 */
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_N8N_VERSION = '2.20.12';
const PACKAGE = require(path.join(ROOT, 'package.json'));
const CREDENTIAL_NAME = 'Vendor account';
/** The emulator's default (demo) client, as `npm run demo` offers it; set when the emulator starts. */
const CLIENT = { clientId: '', clientSecret: '\u0000' };

// ------------------------------------------------------------------ options

function fatal(command, message) {
	console.error(`${command}: ${message}`);
	process.exit(2);
}

/**
 * The command line: `flags` (e.g. --keep) and options with a value (`--n8n <version>` or
 * `--n8n=<version>`), then what both scripts derive from them and the REAL_N8N_* environment.
 */
function parseOptions(argv, { command, usage, flags = [], values = [] }) {
	const fail = (message) => fatal(command, `${message}\n${usage}`);
	const given = new Set();
	const value = {};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const option = values.find((v) => a === v || a.startsWith(`${v}=`));
		if (option) {
			const key = option.slice(2);
			value[key] = a === option ? argv[++i] : a.slice(option.length + 1);
			if (!value[key]) fail(`${option} needs a value`);
		} else if (flags.includes(a)) given.add(a);
		else fail(`unknown option ${a}`);
	}
	/** The n8n release: --n8n, else REAL_N8N_VERSION, else 2.20.12. */
	const version = value.n8n || process.env.REAL_N8N_VERSION || DEFAULT_N8N_VERSION;
	if (!/^\d+\.\d+\.\d+$/.test(version)) fail(`the n8n version must be exact (x.y.z), got "${version}"`);
	/** One install per n8n version: <REAL_N8N_DIR or <project>/.real-n8n>/<version>. */
	const cacheParent = path.resolve(process.env.REAL_N8N_DIR || path.join(ROOT, '.real-n8n'));
	return {
		flags: given,
		value,
		fail,
		version,
		versionFrom: value.n8n ? '--n8n' : process.env.REAL_N8N_VERSION ? 'REAL_N8N_VERSION' : 'the default',
		cacheParent,
		cache: path.join(cacheParent, version),
		fresh: given.has('--fresh') || process.env.REAL_N8N_FRESH === '1',
		keep: given.has('--keep') || process.env.REAL_N8N_KEEP === '1',
		skipBuild: given.has('--skip-build'),
	};
}

// ------------------------------------------------------------------ output

let stepNo = 0;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one step: prints its title, then PASS (with details) or FAIL (with the reason). */
async function step(title, fn) {
	stepNo += 1;
	const label = `[${String(stepNo).padStart(2)}] ${title}`;
	console.log(`${label} ...`);
	const t0 = Date.now();
	try {
		const details = await fn();
		console.log(`PASS ${label} (${secs(Date.now() - t0)})`);
		for (const line of [].concat(details ?? [])) console.log(`       ${line}`);
		return details;
	} catch (error) {
		console.log(`FAIL ${label} (${secs(Date.now() - t0)})`);
		console.log(`       ${redact(String(error && error.stack ? error.message : error)).split('\n').join('\n       ')}`);
		throw new Reported();
	}
}
class Reported extends Error {}
const stepsRun = () => stepNo;

function check(condition, message) {
	if (!condition) throw new Error(message);
}

/** Nothing secret leaves these scripts: the client secret and any token-shaped values are masked. */
function redact(text) {
	return text
		.split(CLIENT.clientSecret)
		.join('<client secret>')
		.replace(/("?(?:access_token|refresh_token|client_secret)"?\s*[:=]\s*"?)[^"&\s,}]+/g, '$1<redacted>')
		.replace(/([?&]code=)[^&\s"]+/g, '$1<redacted>');
}

function redactObj(body) {
	if (!body || typeof body !== 'object') return body;
	const out = { ...body };
	for (const k of ['client_secret', 'code', 'refresh_token', 'access_token']) if (k in out) out[k] = '<redacted>';
	return out;
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/** After a failure: the reason of an unexpected error (a failed step printed its own) and the end of n8n's log. */
function reportFailure(s, error) {
	if (!(error instanceof Reported)) console.log(`FAIL unexpected: ${redact(String(error && error.stack ? error.stack : error))}`);
	if (s.logFile) console.log(`\nLast lines of the n8n log (${s.logFile}):\n${redact(tail(s.logFile))}\n`);
}

// ------------------------------------------------------------------ processes

function run(cmd, argv, opts = {}) {
	const r = spawnSync(cmd, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
	if (r.status !== 0) {
		throw new Error(`${cmd} ${argv.join(' ')} exited with ${r.status ?? r.signal}\n${(r.stdout || '').slice(-3000)}${(r.stderr || '').slice(-3000)}`);
	}
	return r.stdout;
}

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

// ------------------------------------------------------------------ HTTP with n8n's session

class N8nClient {
	constructor(base) {
		this.base = base;
		this.cookies = new Map();
		this.browserId = crypto.randomUUID();
	}

	cookieHeader() {
		return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
	}

	keepCookies(res) {
		for (const c of res.headers.getSetCookie?.() ?? []) {
			const [pair] = c.split(';');
			const i = pair.indexOf('=');
			this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
		}
	}

	async raw(method, url, body, headers = {}) {
		const res = await fetch(url.startsWith('http') ? url : `${this.base}${url}`, {
			method,
			redirect: 'manual',
			headers: {
				'browser-id': this.browserId,
				...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...headers,
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		this.keepCookies(res);
		return res;
	}

	/** A REST call that must answer 2xx; returns the `data` of n8n's envelope (or the body). */
	async json(method, url, body) {
		const res = await this.raw(method, url, body);
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
		let parsed;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			throw new Error(`${method} ${url} answered ${res.status} with no JSON: ${text.slice(0, 300)}`);
		}
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}
}

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
	await buildStep(s);
	await packStep(s);
	await emulatorStep(s, await port());
	await n8nStep(s);
	s.owner = owner;
	await loginStep(s);
	if (afterLogin) await afterLogin();
	await credentialStep(s);
	await oauthStep(s);
	await tokensStep(s);
}

function installStep(s) {
	return step(`n8n ${s.version} with Node 24 in ${s.cacheLabel}${s.fresh ? ' (fresh install)' : ''}`, async () => {
		const r = spawnSync('bash', [path.join(__dirname, 'install-n8n.sh'), s.cache, s.version, ...(s.fresh ? ['--fresh'] : [])], { stdio: 'inherit' });
		check(r.status === 0, `install-n8n.sh exited with ${r.status}`);
		const n8nPackage = path.join(s.cache, 'node_modules', 'n8n', 'package.json');
		const n8nJson = JSON.parse(fs.readFileSync(n8nPackage, 'utf8'));
		check(n8nJson.version === s.version, `n8n ${n8nJson.version} installed, expected ${s.version}`);
		// n8n's own module resolution: the n8n-core, n8n-workflow and zod a community package gets
		const release = s.release;
		release.require = createRequire(n8nPackage);
		const versionOf = (name) => JSON.parse(fs.readFileSync(release.require.resolve(`${name}/package.json`), 'utf8')).version;
		release.core = versionOf('n8n-core');
		release.workflow = versionOf('n8n-workflow');
		const nodeVersion = run(path.join(s.nodeBin, 'node'), ['--version']).trim();
		const engines = (n8nJson.engines && n8nJson.engines.node) || '*';
		check(release.require('semver').satisfies(nodeVersion, engines), `n8n ${s.version} needs Node ${engines}; the install brings ${nodeVersion}`);
		const wf = release.require('n8n-workflow');
		const has = (name) => (typeof wf[name] === 'function' ? 'yes' : 'no');
		return [
			`n8n ${n8nJson.version} (n8n-core ${release.core}, n8n-workflow ${release.workflow}: sleepWithAbort ${has('sleepWithAbort')}, sleep ${has('sleep')}); node ${nodeVersion} (n8n needs ${engines})`,
		];
	});
}

function buildStep(s) {
	return step('build the package and the emulator (npm run build, npm run build:tools)', async () => {
		if (s.skipBuild) return ['skipped (--skip-build)'];
		run('npm', ['run', 'build']);
		run('npm', ['run', 'build:tools']);
		return undefined;
	});
}

function packStep(s) {
	const nodesDir = path.join(s.userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE.name);
	return step(`npm pack, and install the tarball n8n's way into <user folder>/.n8n/nodes`, async () => {
		const packOut = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', s.userFolder]));
		const tarball = path.join(s.userFolder, packOut[0].filename);
		const files = packOut[0].files.map((f) => f.path);
		check(!files.some((f) => /(^|\/)(test|build|bench)\//.test(f)), `the tarball holds test/build files: ${files.filter((f) => /test|build|bench/.test(f)).join(', ')}`);
		fs.mkdirSync(pkgDir, { recursive: true });
		// n8n: npm pack into nodes/, extract into nodes/node_modules/<package>
		run('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
		const pj = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
		const dropped = ['devDependencies', 'peerDependencies', 'optionalDependencies'].filter((k) => k in pj);
		for (const k of dropped) delete pj[k];
		fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(pj, null, 2));
		// n8n's install inside the package folder (npm run by Node 24, as under n8n)
		run('npm', ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'], {
			cwd: pkgDir,
			env: { ...process.env, PATH: `${s.nodeBin}:${process.env.PATH}` },
		});
		const installed = fs.existsSync(path.join(pkgDir, 'node_modules')) ? fs.readdirSync(path.join(pkgDir, 'node_modules')).filter((d) => !d.startsWith('.')) : [];
		check(installed.length === 0, `npm install put dependencies into the package: ${installed.join(', ')}`);
		fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE.name]: PACKAGE.version } }, null, 2));
		return [`${packOut[0].filename}: ${files.length} files, ${(packOut[0].size / 1024).toFixed(0)} kB; dropped ${dropped.join(', ') || 'nothing'}; no dependencies installed`];
	});
}

/** The emulator with demo data; n8n's port decides the redirect URI its demo client accepts. */
async function emulatorStep(s, port) {
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
		s.em = await startEmulator({ demo: true, clock: new Clock({ realTime: true }), redirectUri: s.redirectUri });
		Object.assign(CLIENT, { clientId: s.em.defaultClient.clientId, clientSecret: s.em.defaultClient.clientSecret });
		check(s.em.defaultClient.redirectUri === s.redirectUri, `the emulator's client accepts ${s.em.defaultClient.redirectUri}, not ${s.redirectUri}`);
		s.urls = s.em.regionUrls('us');
		s.tenant = s.em.store.org('us', s.em.organizationId);
		check(s.tenant, `no organisation ${s.em.organizationId} in the emulator`);
		return [`${s.em.url}; demo client ${CLIENT.clientId}, redirect URI ${s.redirectUri}`];
	});
}

function n8nStep(s) {
	return step(`n8n start on ${s.base} (isolated user folder)`, async () => {
		const times = await startN8n(s, 'n8n', { userFolder: s.userFolder, port: s.port, brokerPort: s.brokerPort });
		s.api = new N8nClient(s.base);
		return [`pid ${s.n8n.pid}; /healthz 200 after ${times['/healthz']}, /healthz/readiness 200 after ${times['/healthz/readiness']}; log ${s.keep ? s.logFile : '(removed at the end)'}`];
	});
}

function loginStep(s) {
	return step('POST /rest/owner/setup, POST /rest/login; GET /rest/settings: the version under test, its OAuth2 callback', async () => {
		const me = await signIn(s.api, s.owner);
		const settings = await s.api.json('GET', '/rest/settings');
		check(settings && settings.versionCli === s.version, `the running n8n says it is ${settings && settings.versionCli}, expected ${s.version}`);
		// the OAuth2 callback this n8n announces must be the redirect URI the emulator's client accepts
		const callbackUrl = settings.oauthCallbackUrls && settings.oauthCallbackUrls.oauth2;
		check(!callbackUrl || callbackUrl === s.redirectUri, `n8n's OAuth2 callback is ${callbackUrl}; the emulator's client accepts ${s.redirectUri}`);
		return [`logged in as ${me.email} (role ${me.role}); n8n answers versionCli ${settings.versionCli}, OAuth2 callback ${callbackUrl || '(not announced)'}`];
	});
}

/** Sets up the owner of a new n8n and logs in as it. */
async function signIn(api, owner) {
	await api.json('POST', '/rest/owner/setup', owner);
	api.cookies.clear();
	const me = await api.json('POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	check(me.email === owner.email, `login answered ${JSON.stringify(me).slice(0, 200)}`);
	check(api.cookies.has('n8n-auth'), 'no n8n-auth cookie after login');
	return me;
}

function credentialStep(s) {
	return step(`POST /rest/credentials: "${CREDENTIAL_NAME}" (vendorOAuth2Api, region Custom, the emulator's URLs)`, async () => {
		const { urls } = s;
		s.credential = await s.api.json('POST', '/rest/credentials', {
			name: CREDENTIAL_NAME,
			type: 'vendorOAuth2Api',
			data: { region: 'custom', accountsUrl: urls.accounts, apiUrl: urls.api, projectsUrl: urls.projects, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret },
		});
		check(s.credential && s.credential.id, `no credential id in ${JSON.stringify(s.credential).slice(0, 200)}`);
		return [`id ${s.credential.id}; accounts ${urls.accounts}, api ${urls.api}, projects ${urls.projects}`];
	});
}

function oauthStep(s) {
	return step("OAuth2 round trip: n8n's auth URL -> emulator consent (Accept) -> n8n's callback", async () => {
		const { api, em, urls, redirectUri } = s;
		const authUrl = await api.json('GET', `/rest/oauth2-credential/auth?id=${encodeURIComponent(s.credential.id)}`);
		const u = new URL(authUrl);
		const q = u.searchParams;
		check(`${u.origin}${u.pathname}` === `${urls.accounts}/oauth/v2/auth`, `auth URL ${u.origin}${u.pathname}, expected ${urls.accounts}/oauth/v2/auth`);
		const rawScope = (authUrl.match(/[?&]scope=([^&]*)/) || [])[1] || '';
		const scope = q.get('scope') || '';
		s.seen.separator = scope.includes(',') ? 'comma' : /\s/.test(scope) ? 'space' : 'none (one scope)';
		check(q.get('redirect_uri') === redirectUri, `redirect_uri ${q.get('redirect_uri')}, expected ${redirectUri}`);
		check(q.get('client_id') === CLIENT.clientId && q.get('response_type') === 'code', 'client_id / response_type');
		check(q.get('access_type') === 'offline' && q.get('prompt') === 'consent', `access_type=${q.get('access_type')} prompt=${q.get('prompt')}`);
		check(s.seen.separator === 'comma', `n8n separated the scopes by ${s.seen.separator}: ${scope}`);
		// the emulator's consent page
		const page = await fetch(authUrl, { redirect: 'manual' });
		const html = await page.text();
		check(page.status === 200, `consent page answered ${page.status}: ${html.slice(0, 300)}`);
		const requestId = (html.match(/name="request_id" value="([^"]+)"/) || [])[1];
		const action = (html.match(/<form id="consent" method="POST" action="([^"]+)"/) || [])[1];
		check(requestId && action, 'no consent form on the page');
		const scopesShown = [...html.matchAll(/<li class="scope">([^<]+)<\/li>/g)].map((m) => m[1]);
		// Accept
		const decision = await fetch(new URL(action, em.url).toString(), {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ request_id: requestId, decision: 'accept' }).toString(),
		});
		await decision.text();
		const location = decision.headers.get('location');
		check(decision.status >= 300 && decision.status < 400 && location, `Accept answered ${decision.status} without a redirect`);
		const cb = new URL(location);
		check(`${cb.origin}${cb.pathname}` === redirectUri, `Accept redirected to ${cb.origin}${cb.pathname}`);
		check(cb.searchParams.get('code') && cb.searchParams.get('state') === q.get('state'), 'redirect without code or with another state');
		// n8n's callback (the browser would follow the redirect with n8n's session cookie)
		const callback = await api.raw('GET', `${s.base}${cb.pathname}${cb.search}`);
		const body = await callback.text();
		check(callback.status === 200, `callback answered ${callback.status}: ${redact(body.slice(0, 400))}`);
		const errorShown = (body.match(/<h4>Error: ([^<]*)<\/h4>/) || [])[1];
		check(!errorShown, `n8n's callback page says: Error: ${redact(errorShown || '')}`);
		check(/Connection successful/.test(body), `n8n's callback page is not "Connection successful": ${redact(body.slice(0, 300))}`);
		// the token call n8n made
		const tokenCalls = em.requests.filter((r) => r.path.endsWith('/oauth/v2/token'));
		check(tokenCalls.length === 1, `${tokenCalls.length} token calls reached the emulator`);
		const tc = tokenCalls[0];
		check(tc.status === 200 && tc.body && tc.body.grant_type === 'authorization_code', `token call: ${tc.status} ${JSON.stringify(redactObj(tc.body))}`);
		return [
			`n8n sent scope=${rawScope.slice(0, 56)}...: ${scope.split(',').length} scopes separated by commas (%2C encoded), e.g. "${scope.split(',').slice(0, 2).join(',')},..."`,
			`consent page listed ${scopesShown.length} scopes; Accept -> 302 to n8n's callback with code and state`,
			`callback 200 "Connection successful"; n8n's token call: POST ${tc.path} grant_type=authorization_code (client id/secret in the ${tc.body.client_secret ? 'body' : 'header'}) -> ${tc.status}`,
		];
	});
}

function tokensStep(s) {
	return step('the credential holds the tokens (n8n: GET /rest/credentials/:id; emulator: tokens issued to the client)', async () => {
		const c = await s.api.json('GET', `/rest/credentials/${encodeURIComponent(s.credential.id)}?includeData=true`);
		const data = c.data || {};
		check(data.oauthTokenData === true || (data.oauthTokenData && typeof data.oauthTokenData === 'object'), `n8n shows no oauthTokenData on the credential: keys ${Object.keys(data).join(', ')}`);
		check(!JSON.stringify(c).includes(CLIENT.clientSecret), 'n8n answered the client secret in clear');
		// The emulator answers token errors with HTTP 200, so n8n's "connected" alone proves nothing:
		// the emulator must have issued an access and a refresh token to this client.
		const access = [...s.em.accounts.accessTokens.values()].filter((a) => a.info.clientId === CLIENT.clientId);
		const refresh = [...s.em.accounts.refreshTokens.values()].filter((r) => r.clientId === CLIENT.clientId);
		check(access.length === 1 && refresh.length === 1, `the emulator issued ${access.length} access and ${refresh.length} refresh tokens to the client`);
		s.accessToken = access[0].token;
		return [`n8n: oauthTokenData set (shown redacted as ${JSON.stringify(data.oauthTokenData)}); emulator: 1 access token (${access[0].info.scopes.length} scopes, region ${access[0].info.region}) and 1 refresh token issued (access_type=offline)`];
	});
}

// ------------------------------------------------------------------ workflows

/** The example files, in the order the checks run them. */
const EXAMPLES = ['estimate-accepted-to-invoice.json', 'overdue-reminders.json'];

/**
 * POST /rest/workflows: `wf` with the session's credential on every node that takes it and the
 * emulator's organization id on every node of this package that has one.
 */
async function createWorkflow(s, wf) {
	for (const node of wf.nodes) {
		if (node.credentials && node.credentials.vendorOAuth2Api) node.credentials.vendorOAuth2Api = { id: s.credential.id, name: CREDENTIAL_NAME };
		// the organization: a resource locator ({ __rl, mode, value }) or, in older workflows, a plain ID
		const org = node.parameters && node.parameters.organizationId;
		if (node.type.startsWith(`${PACKAGE.name}.`) && org !== undefined) node.parameters.organizationId = org && typeof org === 'object' ? { ...org, value: s.em.organizationId } : s.em.organizationId;
	}
	// No `active`: the CreateWorkflowDto of n8n 2.20 and 2.40 has none (it was dropped unread);
	// a new workflow is inactive, and a manual run needs no activation.
	const created = await s.api.json('POST', '/rest/workflows', { name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings, pinData: wf.pinData ?? {} });
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
	const started = await s.api.json('POST', `/rest/workflows/${id}/run`, { triggerToStartFrom: { name: triggerName } });
	check(started && started.executionId, `run answered ${JSON.stringify(started).slice(0, 300)}`);
	const flatted = s.release.require('flatted');
	const deadline = Date.now() + 120_000;
	for (;;) {
		// n8n 2.20 answers 500 for an execution whose data is not written yet: ask again
		const ex = await s.api.json('GET', `/rest/executions/${started.executionId}`).catch((e) => {
			if (Date.now() > deadline) throw e;
			return undefined;
		});
		if (ex && ex.finished !== undefined && (ex.stoppedAt || ['success', 'error', 'crashed', 'canceled'].includes(ex.status))) {
			const data = typeof ex.data === 'string' ? flatted.parse(ex.data) : ex.data;
			return { execution: ex, data, id: started.executionId };
		}
		check(Date.now() < deadline, `execution ${started.executionId} not finished after 120 s (status ${ex && ex.status})`);
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
	check(execution.status === 'success' && !err, `execution ${result.id} status ${execution.status}${err ? `: ${err.message}${err.description ? ` (${err.description})` : ''}` : ''}`);
	const ran = Object.keys(data.resultData.runData);
	check(nodeNames.every((n) => ran.includes(n)), `ran ${ran.join(', ')}; expected ${nodeNames.join(', ')}`);
}

/** Every API call the emulator saw carried the access token of the OAuth round trip. */
function checkCallsAuthorized(s, what = 'the access token of the OAuth round trip') {
	check(s.apiCalls().every((r) => r.headers.authorization === `Vendor-oauthtoken ${s.accessToken}`), `a call without ${what}`);
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
			{ parameters: {}, id: crypto.randomUUID(), name: trigger, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{
				parameters: { organizationId: { __rl: true, mode: 'id', value: s.em.organizationId }, resource: 'item', operation: 'getAll', returnAll: true },
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
	return step(`n8n runs Vendor Books Item -> Get Many (workflow "${ITEMS_WORKFLOW.name}"): it returns the demo items`, async () => {
		const { trigger, node } = ITEMS_WORKFLOW;
		const id = s.itemsWorkflowId ?? (await createItemsWorkflow(s));
		s.em.clearRequests();
		const result = await runAndWait(s, id, trigger);
		assertSucceeded(result, [trigger, node]);
		const got = outputOf(result.data, node);
		const demo = s.tenant.all('items').filter((i) => i.status === 'active');
		const list = (items) => items.map((i) => `${i.item_id} ${i.name}`).sort();
		check(demo.length > 0, 'no active items in the demo data');
		check(JSON.stringify(list(got)) === JSON.stringify(list(demo)), `Get Many returned ${got.length} items (${list(got).join(', ')}); the emulator's active demo items are ${demo.length} (${list(demo).join(', ')})`);
		const calls = s.apiCalls().map((r) => `${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')} -> ${r.status}`);
		check(s.apiCalls().length > 0 && s.apiCalls().every((r) => r.status === 200), `calls: ${calls.join('; ') || 'none'}`);
		checkCallsAuthorized(s);
		return [`workflow ${id}, execution ${result.id}: ${result.execution.status}`, `${got.length} items, the emulator's active demo items: ${got.map((i) => i.name).join(', ')}`, `API calls: ${calls.join('; ')}`];
	});
}

// ------------------------------------------------------------------ n8n processes

/**
 * Starts n8n (Node 24) with its own user folder and port (`opts.env`: more environment);
 * `s[key]` holds the process, which cleanup stops. Resolves once /healthz and
 * /healthz/readiness answer 200, with how long each took.
 */
async function startN8n(s, key, opts) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('N8N_') && !k.startsWith('DB_') && k !== 'NODE_OPTIONS' && k !== 'NODE_PATH' && !k.startsWith('npm_')));
	Object.assign(env, {
		PATH: `${s.nodeBin}:${process.env.PATH}`,
		N8N_USER_FOLDER: opts.userFolder,
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
	const proc = spawn(path.join(s.nodeBin, 'node'), [s.n8nBin, 'start'], { cwd: opts.userFolder, env, stdio: ['ignore', log, log], detached: true });
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
	done.push(`n8n install kept in ${s.cacheLabel}`);
	return done.join('; ');
}

module.exports = {
	// constants and options
	ROOT, DEFAULT_N8N_VERSION, PACKAGE, CREDENTIAL_NAME, EXAMPLES, ITEMS_WORKFLOW, parseOptions,
	// output and processes
	step, stepsRun, Reported, check, redact, reportFailure, secs, freePort, portFree, onStopSignal, isStopping,
	// the session: set up, workflows, n8n processes, cleanup
	N8nClient, Session, setUp, signIn, createWorkflow, importExample, createItemsWorkflow, itemsStep,
	runAndWait, outputOf, assertSucceeded, checkCallsAuthorized, startN8n, stopN8n, cleanup,
};
