#!/usr/bin/env node
/**
 * `npm run check:n8n`: the package in a real n8n, end to end (not part of `npm test`: it
 * downloads n8n, about 2.5 GB, on the first run).
 *
 *  1. n8n (2.20.12 unless --n8n says another) with a Node 24 runtime in a cache folder of its
 *     own version (install-n8n.sh; reused when present). Verified with 2.20.12 and 2.40.7.
 *  2. the package built, `npm pack`ed and installed from the tarball the way n8n installs a
 *     community package, into an isolated n8n user folder
 *  3. the emulator with demo data on 127.0.0.1 (in this process), its demo client accepting
 *     this n8n's callback `http://localhost:<port>/rest/oauth2-credential/callback` as redirect URI
 *  4. n8n started on 127.0.0.1 (a free port) with that user folder; /healthz and
 *     /healthz/readiness answer
 *  5. through n8n's REST API (/rest/owner/setup, /rest/login, /rest/settings, /types/nodes.json,
 *     /types/credentials.json, /rest/credentials, /rest/oauth2-credential/auth and /callback):
 *     the running n8n is the version under test and announces the OAuth2 callback the emulator
 *     accepts; the 10 node types (and n8n's AI-tool variants, checked with the release's own
 *     n8n-workflow), the credential type and every icon loaded;
 *     a Vendor OAuth2 API credential created and connected through n8n's OAuth2 round trip
 *     (n8n's auth URL -> the emulator's consent page, Accept -> n8n's callback -> token call);
 *     the scopes n8n sends must be comma-separated
 *  6. both example workflows imported (POST /rest/workflows) with that credential, run from their
 *     trigger (POST /rest/workflows/:id/run, then GET /rest/executions/:id), and their outputs
 *     and effects checked against the emulator
 *  7. the README's local-build way: a second n8n (user folder of its own) with
 *     N8N_CUSTOM_EXTENSIONS=dist/ loads exactly the 10 nodes as CUSTOM.* and the one credential
 *  8. n8n and the emulator stopped, the user folder removed (the n8n install is kept)
 *
 * Every step prints one PASS or FAIL line; the exit code is 1 on the first failure.
 *
 * Options (flags or environment), e.g. `npm run check:n8n -- --n8n 2.40.7`:
 *   --n8n <version> / REAL_N8N_VERSION=<version>
 *                                  the n8n release to check, exact (default 2.20.12); each
 *                                  version is installed once into <REAL_N8N_DIR>/<version>
 *   --fresh   / REAL_N8N_FRESH=1   remove the cached install of that version and install again
 *   --keep    / REAL_N8N_KEEP=1    keep the n8n user folder and log (its path is printed)
 *   REAL_N8N_DIR=<dir>             the parent of the per-version installs (default
 *                                  <project>/.real-n8n, so .real-n8n/2.20.12, .real-n8n/2.40.7)
 *   REAL_N8N_PORT=<port>           n8n's port (default: a free one)
 *   --skip-build                   use dist/ and build/ as they are
 *
 * The client secret and tokens are never printed.
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
const USAGE = 'usage: npm run check:n8n -- [--n8n <version>] [--fresh] [--keep] [--skip-build]';
/** The command line: the flags, and `--n8n <version>` (or `--n8n=<version>`). */
function parseArgs(argv) {
	const flags = new Set();
	let version;
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--n8n' || a.startsWith('--n8n=')) {
			version = a === '--n8n' ? argv[++i] : a.slice('--n8n='.length);
			if (!version) fatal(`--n8n needs a version\n${USAGE}`);
		} else if (['--fresh', '--keep', '--skip-build'].includes(a)) flags.add(a);
		else fatal(`unknown option ${a}\n${USAGE}`);
	}
	return { flags, version };
}
function fatal(message) {
	console.error(`check:n8n: ${message}`);
	process.exit(2);
}
const { flags: args, version: versionArg } = parseArgs(process.argv.slice(2));
const FRESH = args.has('--fresh') || process.env.REAL_N8N_FRESH === '1';
const KEEP = args.has('--keep') || process.env.REAL_N8N_KEEP === '1';
const SKIP_BUILD = args.has('--skip-build');
/** The n8n release under test: --n8n, else REAL_N8N_VERSION, else 2.20.12. */
const N8N_VERSION = versionArg || process.env.REAL_N8N_VERSION || DEFAULT_N8N_VERSION;
const VERSION_FROM = versionArg ? '--n8n' : process.env.REAL_N8N_VERSION ? 'REAL_N8N_VERSION' : 'the default';
if (!/^\d+\.\d+\.\d+$/.test(N8N_VERSION)) fatal(`the n8n version must be exact (x.y.z), got "${N8N_VERSION}"\n${USAGE}`);
/** One install per n8n version: <REAL_N8N_DIR or <project>/.real-n8n>/<version>. */
const CACHE_PARENT = path.resolve(process.env.REAL_N8N_DIR || path.join(ROOT, '.real-n8n'));
const CACHE = path.join(CACHE_PARENT, N8N_VERSION);
const PACKAGE = require(path.join(ROOT, 'package.json'));
const ORG = '600000001';
/** The emulator's default (demo) client, as `npm run demo` offers it; set when the emulator starts. */
const CLIENT = { clientId: '', clientSecret: '\u0000' };
const CREDENTIAL_NAME = 'Vendor account';

// ------------------------------------------------------------------ output

let stepNo = 0;
const started = Date.now();
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

function check(condition, message) {
	if (!condition) throw new Error(message);
}

/** Nothing secret leaves this script: the client secret and any token-shaped values are masked. */
function redact(text) {
	return text
		.split(CLIENT.clientSecret)
		.join('<client secret>')
		.replace(/("?(?:access_token|refresh_token|client_secret)"?\s*[:=]\s*"?)[^"&\s,}]+/g, '$1<redacted>')
		.replace(/([?&]code=)[^&\s"]+/g, '$1<redacted>');
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
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

// ------------------------------------------------------------------ the steps

/** What to clean up (also on Ctrl+C / SIGTERM). */
const state = { n8n: undefined, n8nCustom: undefined, em: undefined, userFolder: undefined, logFile: undefined, tarball: undefined, accessToken: undefined };

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		if (stopping) return;
		stopping = true;
		console.log(`\nFAIL interrupted (${signal})`);
		cleanup(state)
			.catch((e) => console.log(`FAIL cleanup: ${e.message}`))
			.finally(() => process.exit(130));
	});
}

async function main() {
	let failed = false;
	console.log(`Real-n8n check: ${PACKAGE.name}@${PACKAGE.version} in n8n ${N8N_VERSION} (${VERSION_FROM}; install ${path.relative(ROOT, CACHE) || CACHE})`);
	const oldLayout = ['node_modules', `.installed-n8n-${DEFAULT_N8N_VERSION}`].filter((f) => fs.existsSync(path.join(CACHE_PARENT, f)));
	if (oldLayout.length) console.log(`note: ${path.relative(ROOT, CACHE_PARENT) || CACHE_PARENT} also holds an install of the old one-version layout (${oldLayout.join(', ')}), now unused: remove it to free about 2.5 GB`);
	try {
		await steps(state);
	} catch (error) {
		failed = true;
		if (!(error instanceof Reported)) console.log(`FAIL unexpected: ${redact(String(error && error.stack ? error.stack : error))}`);
		if (state.logFile) console.log(`\nLast lines of the n8n log (${state.logFile}):\n${redact(tail(state.logFile))}\n`);
	} finally {
		if (stopping) return;
		await cleanup(state).catch((e) => {
			failed = true;
			console.log(`FAIL cleanup: ${e.message}`);
		});
	}
	console.log(failed ? `\nREAL-N8N CHECK FAILED (${secs(Date.now() - started)})` : `\nREAL-N8N CHECK PASSED: ${stepNo} steps (${secs(Date.now() - started)})`);
	process.exitCode = failed ? 1 : 0;
}

async function steps(state) {
	const nodeBin = path.join(CACHE, 'node_modules', 'node', 'bin');
	const n8nBin = path.join(CACHE, 'node_modules', 'n8n', 'bin', 'n8n');

	// 1. n8n install (cached, one folder per version)
	/** What the installed release brings, read from its own files (not from a table of versions). */
	const release = {};
	await step(`n8n ${N8N_VERSION} with Node 24 in ${path.relative(ROOT, CACHE) || CACHE}${FRESH ? ' (fresh install)' : ''}`, async () => {
		const r = spawnSync('bash', [path.join(__dirname, 'install-n8n.sh'), CACHE, N8N_VERSION, ...(FRESH ? ['--fresh'] : [])], { stdio: 'inherit' });
		check(r.status === 0, `install-n8n.sh exited with ${r.status}`);
		const n8nPackage = path.join(CACHE, 'node_modules', 'n8n', 'package.json');
		const n8nJson = JSON.parse(fs.readFileSync(n8nPackage, 'utf8'));
		check(n8nJson.version === N8N_VERSION, `n8n ${n8nJson.version} installed, expected ${N8N_VERSION}`);
		// n8n's own module resolution: the n8n-core, n8n-workflow and zod a community package gets
		release.require = createRequire(n8nPackage);
		const versionOf = (name) => JSON.parse(fs.readFileSync(release.require.resolve(`${name}/package.json`), 'utf8')).version;
		release.core = versionOf('n8n-core');
		release.workflow = versionOf('n8n-workflow');
		const nodeVersion = run(path.join(nodeBin, 'node'), ['--version']).trim();
		const engines = (n8nJson.engines && n8nJson.engines.node) || '*';
		check(release.require('semver').satisfies(nodeVersion, engines), `n8n ${N8N_VERSION} needs Node ${engines}; the install brings ${nodeVersion}`);
		const wf = release.require('n8n-workflow');
		const has = (name) => (typeof wf[name] === 'function' ? 'yes' : 'no');
		return [
			`n8n ${n8nJson.version} (n8n-core ${release.core}, n8n-workflow ${release.workflow}: sleepWithAbort ${has('sleepWithAbort')}, sleep ${has('sleep')}); node ${nodeVersion} (n8n needs ${engines})`,
		];
	});

	// 2. build, pack, install the tarball the way n8n does
	state.userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'real-n8n-'));
	state.logFile = path.join(state.userFolder, 'n8n.log');
	const nodesDir = path.join(state.userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE.name);

	await step('build the package and the emulator (npm run build, npm run build:tools)', async () => {
		if (SKIP_BUILD) return ['skipped (--skip-build)'];
		run('npm', ['run', 'build']);
		run('npm', ['run', 'build:tools']);
		return undefined;
	});

	await step(`npm pack, and install the tarball n8n's way into <user folder>/.n8n/nodes`, async () => {
		const packOut = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', state.userFolder]));
		state.tarball = path.join(state.userFolder, packOut[0].filename);
		const files = packOut[0].files.map((f) => f.path);
		check(!files.some((f) => /(^|\/)(test|build|bench)\//.test(f)), `the tarball holds test/build files: ${files.filter((f) => /test|build|bench/.test(f)).join(', ')}`);
		fs.mkdirSync(pkgDir, { recursive: true });
		// n8n: npm pack into nodes/, extract into nodes/node_modules/<package>
		run('tar', ['-xzf', state.tarball, '-C', pkgDir, '--strip-components=1']);
		const pj = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
		const dropped = ['devDependencies', 'peerDependencies', 'optionalDependencies'].filter((k) => k in pj);
		for (const k of dropped) delete pj[k];
		fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(pj, null, 2));
		// n8n's install inside the package folder (npm run by Node 24, as under n8n)
		run('npm', ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'], {
			cwd: pkgDir,
			env: { ...process.env, PATH: `${nodeBin}:${process.env.PATH}` },
		});
		const installed = fs.existsSync(path.join(pkgDir, 'node_modules')) ? fs.readdirSync(path.join(pkgDir, 'node_modules')).filter((d) => !d.startsWith('.')) : [];
		check(installed.length === 0, `npm install put dependencies into the package: ${installed.join(', ')}`);
		fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE.name]: PACKAGE.version } }, null, 2));
		return [`${packOut[0].filename}: ${files.length} files, ${(packOut[0].size / 1024).toFixed(0)} kB; dropped ${dropped.join(', ') || 'nothing'}; no dependencies installed`];
	});

	// 3. emulator with demo data; the n8n port decides the redirect URI
	const port = Number(process.env.REAL_N8N_PORT || 0) || (await freePort());
	check(await portFree(port), `port ${port} is in use`);
	const brokerPort = await freePort(); // n8n's task broker (default 5679)
	const base = `http://127.0.0.1:${port}`;
	const redirectUri = `http://localhost:${port}/rest/oauth2-credential/callback`;

	await step('emulator with demo data on 127.0.0.1', async () => {
		const { startEmulator } = require(path.join(ROOT, 'build', 'test', 'emulator', 'server.js'));
		const { Clock } = require(path.join(ROOT, 'build', 'test', 'emulator', 'clock.js'));
		// As `npm run demo -- --redirect-uri <n8n's callback>`: the demo data, and the default
		// client accepting the callback of this n8n (its port is free-picked, not 5678).
		state.em = await startEmulator({ demo: true, clock: new Clock({ realTime: true }), redirectUri });
		Object.assign(CLIENT, { clientId: state.em.defaultClient.clientId, clientSecret: state.em.defaultClient.clientSecret });
		check(state.em.defaultClient.redirectUri === redirectUri, `the emulator's client accepts ${state.em.defaultClient.redirectUri}, not ${redirectUri}`);
		return [`${state.em.url}; demo client ${CLIENT.clientId}, redirect URI ${redirectUri}`];
	});
	const em = state.em;
	const urls = em.regionUrls('us');

	// 4. n8n
	await step(`n8n start on ${base} (isolated user folder)`, async () => {
		const times = await startN8n(state, 'n8n', { userFolder: state.userFolder, logFile: state.logFile, port, brokerPort, nodeBin, n8nBin });
		return [`pid ${state.n8n.pid}; /healthz 200 after ${times['/healthz']}, /healthz/readiness 200 after ${times['/healthz/readiness']}; log ${KEEP ? state.logFile : '(removed at the end)'}`];
	});

	/**
	 * The tool variants as n8n itself made them: an AI-tool output and no input, the tool
	 * description choice, every resource and operation list still ending with the package's
	 * own "Custom API Call" (n8n appended none of its own), and Simplify on by default when
	 * n8n-workflow resolves the tool's parameters (off in the plain node).
	 */
	function checkToolVariants(tools, nodes) {
		// the n8n-workflow of the release under test (the editor and the engine resolve with it)
		const { NodeHelpers } = release.require('n8n-workflow');
		const resolve = (description, parameters) =>
			NodeHelpers.getNodeParameters(description.properties, parameters, true, false, { typeVersion: 1, type: description.name, parameters }, description);
		let lists = 0;
		const simplified = [];
		for (const tool of tools) {
			check(JSON.stringify(tool.inputs) === '[]' && JSON.stringify(tool.outputs) === '["ai_tool"]', `${tool.name}: inputs ${JSON.stringify(tool.inputs)}, outputs ${JSON.stringify(tool.outputs)}`);
			check(tool.properties.some((p) => p.name === 'toolDescription'), `${tool.name}: no toolDescription property`);
			for (const p of tool.properties.filter((q) => q.name === 'resource' || q.name === 'operation')) {
				const last = p.options[p.options.length - 1];
				check(last.name === 'Custom API Call' && last.value === 'customApiCall', `${tool.name}: list ${p.name} ends with ${last.name} (${last.value})`);
				lists++;
			}
			const plain = nodes.find((n) => `${n.name}Tool` === tool.name);
			for (const p of tool.properties.filter((q) => q.name === 'simplify')) {
				for (const resource of p.displayOptions.show.resource) {
					for (const operation of p.displayOptions.show.operation) {
						const asTool = resolve(tool, { resource, operation });
						const asNode = resolve(plain, { resource, operation });
						check(asTool && asTool.simplify === true, `${tool.name} ${resource} ${operation}: Simplify resolves to ${asTool && asTool.simplify} as a tool`);
						check(asNode && asNode.simplify === false, `${plain.name} ${resource} ${operation}: Simplify resolves to ${asNode && asNode.simplify} as a node`);
						simplified.push(`${tool.name}.${resource}.${operation}`);
					}
				}
			}
		}
		check(simplified.length > 0, 'no Simplify property in the tool variants');
		return [
			`tool variants: ai_tool output, no input, a tool description; ${lists} resource / operation lists end with the package's own Custom API Call (none of n8n's added)`,
			`Simplify resolved by the release's n8n-workflow ${release.workflow} on ${new Set(simplified).size} Get / Get Many operations: on in the tool variant, off in the node`,
		];
	}

	// 5. REST: owner, types, credential, OAuth
	const api = new N8nClient(base);
	const owner = { email: 'owner@example.com', firstName: 'Real', lastName: 'Check', password: `Check-${crypto.randomBytes(6).toString('hex')}1A` };

	await step('POST /rest/owner/setup, POST /rest/login; GET /rest/settings: the version under test, its OAuth2 callback', async () => {
		const me = await signIn(api, owner);
		const settings = await api.json('GET', '/rest/settings');
		check(settings && settings.versionCli === N8N_VERSION, `the running n8n says it is ${settings && settings.versionCli}, expected ${N8N_VERSION}`);
		// the OAuth2 callback this n8n announces must be the redirect URI the emulator's client accepts
		const callbackUrl = settings.oauthCallbackUrls && settings.oauthCallbackUrls.oauth2;
		check(!callbackUrl || callbackUrl === redirectUri, `n8n's OAuth2 callback is ${callbackUrl}; the emulator's client accepts ${redirectUri}`);
		return [`logged in as ${me.email} (role ${me.role}); n8n answers versionCli ${settings.versionCli}, OAuth2 callback ${callbackUrl || '(not announced)'}`];
	});

	const expectedNodes = PACKAGE.n8n.nodes.map((p) => path.basename(p, '.node.js')).map((n) => `${PACKAGE.name}.${n[0].toLowerCase()}${n.slice(1)}`).sort();
	await step('GET /types/nodes.json, /types/credentials.json: the 10 nodes and the credential are loaded', async () => {
		const nodes = await api.json('GET', '/types/nodes.json');
		const all = nodes.filter((n) => n.name.startsWith(`${PACKAGE.name}.`));
		// n8n adds a "<name>Tool" variant of every node that is usableAsTool (the AI Agent's tools)
		const ours = all.filter((n) => !expectedNodes.includes(n.name.replace(/Tool$/, '')) || !n.name.endsWith('Tool'));
		const tools = all.filter((n) => !ours.includes(n));
		const names = [...new Set(ours.map((n) => n.name))].sort();
		check(JSON.stringify(names) === JSON.stringify(expectedNodes), `node types of the package: ${names.join(', ') || 'none'}; expected ${expectedNodes.join(', ')}`);
		const expectedTools = ours.filter((n) => n.usableAsTool).map((n) => `${n.name}Tool`).sort();
		const toolNames = [...new Set(tools.map((n) => n.name))].sort();
		check(toolNames.length > 0 || expectedTools.length === 0, `this n8n lists no "<name>Tool" variants in /types/nodes.json (expected ${expectedTools.join(', ')}): it exposes the AI-tool variants some other way, which this check does not know yet`);
		check(JSON.stringify(toolNames) === JSON.stringify(expectedTools), `tool variants ${toolNames.join(', ')}; expected ${expectedTools.join(', ')}`);
		const toolLines = checkToolVariants(tools, ours);
		const creds = await api.json('GET', '/types/credentials.json');
		const cred = creds.find((c) => c.name === 'vendorOAuth2Api');
		check(cred, 'credential type vendorOAuth2Api not loaded');
		check(!creds.some((c) => c.name !== 'vendorOAuth2Api' && /vendor/i.test(c.name)), `unexpected credential types: ${creds.filter((c) => /vendor/i.test(c.name)).map((c) => c.name)}`);
		check(!nodes.some((n) => n.name.startsWith('CUSTOM.')), 'CUSTOM.* node types loaded (test code in n8n\'s path?)');
		// icons: every node and the credential name one that n8n serves
		const iconUrls = [...ours.flatMap((n) => (n.iconUrl && typeof n.iconUrl === 'object' ? [n.iconUrl.light, n.iconUrl.dark] : [n.iconUrl]))];
		iconUrls.push(...(cred.iconUrl && typeof cred.iconUrl === 'object' ? [cred.iconUrl.light, cred.iconUrl.dark] : [cred.iconUrl]));
		const missing = [];
		for (const u of new Set(iconUrls)) {
			if (!u) {
				missing.push('(no iconUrl)');
				continue;
			}
			const res = await api.raw('GET', `/${u}`);
			if (res.status !== 200 || !/svg/.test(res.headers.get('content-type') || '')) missing.push(`${u} -> ${res.status}`);
			await res.arrayBuffer();
		}
		check(missing.length === 0, `icons not served: ${missing.join(', ')}`);
		const codex = ours.filter((n) => n.codex && n.codex.categories && n.codex.categories.length).length;
		return [
			`${names.length} node types: ${names.map((n) => n.slice(PACKAGE.name.length + 1)).join(', ')}`,
			`and n8n's AI-tool variants of the ${toolNames.length} action nodes: ${toolNames.map((n) => n.slice(PACKAGE.name.length + 1)).join(', ')}`,
			...toolLines,
			`credential type vendorOAuth2Api ("${cred.displayName}", extends ${cred.extends})`,
			`${new Set(iconUrls).size} icons served as SVG; ${codex} of ${ours.length} node descriptions carry codex categories`,
		];
	});

	let credential;
	await step(`POST /rest/credentials: "${CREDENTIAL_NAME}" (vendorOAuth2Api, region Custom, the emulator's URLs)`, async () => {
		credential = await api.json('POST', '/rest/credentials', {
			name: CREDENTIAL_NAME,
			type: 'vendorOAuth2Api',
			data: { region: 'custom', accountsUrl: urls.accounts, apiUrl: urls.api, projectsUrl: urls.projects, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret },
		});
		check(credential && credential.id, `no credential id in ${JSON.stringify(credential).slice(0, 200)}`);
		return [`id ${credential.id}; accounts ${urls.accounts}, api ${urls.api}, projects ${urls.projects}`];
	});

	const seen = { separator: undefined };
	await step("OAuth2 round trip: n8n's auth URL -> emulator consent (Accept) -> n8n's callback", async () => {
		const authUrl = await api.json('GET', `/rest/oauth2-credential/auth?id=${encodeURIComponent(credential.id)}`);
		const u = new URL(authUrl);
		const q = u.searchParams;
		check(`${u.origin}${u.pathname}` === `${urls.accounts}/oauth/v2/auth`, `auth URL ${u.origin}${u.pathname}, expected ${urls.accounts}/oauth/v2/auth`);
		const rawScope = (authUrl.match(/[?&]scope=([^&]*)/) || [])[1] || '';
		const scope = q.get('scope') || '';
		seen.separator = scope.includes(',') ? 'comma' : /\s/.test(scope) ? 'space' : 'none (one scope)';
		check(q.get('redirect_uri') === redirectUri, `redirect_uri ${q.get('redirect_uri')}, expected ${redirectUri}`);
		check(q.get('client_id') === CLIENT.clientId && q.get('response_type') === 'code', 'client_id / response_type');
		check(q.get('access_type') === 'offline' && q.get('prompt') === 'consent', `access_type=${q.get('access_type')} prompt=${q.get('prompt')}`);
		check(seen.separator === 'comma', `n8n separated the scopes by ${seen.separator}: ${scope}`);
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
		const callback = await api.raw('GET', `${base}${cb.pathname}${cb.search}`);
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

	await step('the credential holds the tokens (n8n: GET /rest/credentials/:id; emulator: tokens issued to the client)', async () => {
		const c = await api.json('GET', `/rest/credentials/${encodeURIComponent(credential.id)}?includeData=true`);
		const data = c.data || {};
		check(data.oauthTokenData === true || (data.oauthTokenData && typeof data.oauthTokenData === 'object'), `n8n shows no oauthTokenData on the credential: keys ${Object.keys(data).join(', ')}`);
		check(!JSON.stringify(c).includes(CLIENT.clientSecret), 'n8n answered the client secret in clear');
		// The emulator answers token errors with HTTP 200, so n8n's "connected" alone proves nothing:
		// the emulator must have issued an access and a refresh token to this client.
		const access = [...em.accounts.accessTokens.values()].filter((a) => a.info.clientId === CLIENT.clientId);
		const refresh = [...em.accounts.refreshTokens.values()].filter((r) => r.clientId === CLIENT.clientId);
		check(access.length === 1 && refresh.length === 1, `the emulator issued ${access.length} access and ${refresh.length} refresh tokens to the client`);
		state.accessToken = access[0].token;
		return [`n8n: oauthTokenData set (shown redacted as ${JSON.stringify(data.oauthTokenData)}); emulator: 1 access token (${access[0].info.scopes.length} scopes, region ${access[0].info.region}) and 1 refresh token issued (access_type=offline)`];
	});

	// 6. the example workflows
	const flatted = createRequire(path.join(CACHE, 'node_modules', 'n8n', 'package.json'))('flatted');
	const tenant = em.store.org('us', ORG);
	check(tenant, `no organisation ${ORG} in the emulator`);

	async function importExample(file) {
		const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
		for (const node of wf.nodes) {
			if (node.credentials && node.credentials.vendorOAuth2Api) node.credentials.vendorOAuth2Api = { id: credential.id, name: CREDENTIAL_NAME };
		}
		// No `active`: the CreateWorkflowDto of n8n 2.20 and 2.40 has none (it was dropped unread);
		// a new workflow is inactive, and a manual run needs no activation.
		const created = await api.json('POST', '/rest/workflows', { name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings, pinData: wf.pinData ?? {} });
		check(created && created.id, `no workflow id in ${JSON.stringify(created).slice(0, 200)}`);
		return { wf, id: created.id };
	}

	/** POST /rest/workflows/:id/run from the trigger, then the execution until it is done. */
	async function runAndWait(id, triggerName) {
		const started = await api.json('POST', `/rest/workflows/${id}/run`, { triggerToStartFrom: { name: triggerName } });
		check(started && started.executionId, `run answered ${JSON.stringify(started).slice(0, 300)}`);
		const deadline = Date.now() + 120_000;
		for (;;) {
			// n8n 2.20 answers 500 for an execution whose data is not written yet: ask again
			const ex = await api.json('GET', `/rest/executions/${started.executionId}`).catch((e) => {
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

	const apiCalls = () => em.requests.filter((r) => r.area && r.area !== 'accounts');

	await step('example estimate-accepted-to-invoice.json: import, run (Fetch Test Event of the Books trigger), check', async () => {
		const { wf, id } = await importExample('estimate-accepted-to-invoice.json');
		const names = wf.nodes.map((n) => n.name);
		const invoicesBefore = tenant.all('invoices').length;
		const mailsBefore = tenant.mails.length;
		em.clearRequests();
		const result = await runAndWait(id, names[0]);
		assertSucceeded(result, names);
		const [emitted] = outputOf(result.data, names[0]);
		check(emitted && emitted.status === 'accepted', `the trigger emitted ${JSON.stringify(emitted).slice(0, 200)}`);
		const estimateId = String(emitted.estimate_id);
		const [invoice] = outputOf(result.data, names[1]);
		check(invoice && invoice.invoice_id, `no invoice from ${names[1]}`);
		const stored = tenant.get('invoices', String(invoice.invoice_id));
		check(stored, `invoice ${invoice.invoice_id} is not in the emulator`);
		check(tenant.all('invoices').length === invoicesBefore + 1, 'not exactly one new invoice');
		check(String(stored.invoiced_estimate_id) === estimateId, `invoiced_estimate_id ${stored.invoiced_estimate_id}, expected ${estimateId}`);
		check(stored.status === 'sent', `the invoice is ${stored.status} after e-mailing, expected sent`);
		const mails = tenant.mails.slice(mailsBefore);
		check(mails.length === 1 && mails[0].kind === 'invoice' && mails[0].invoiceId === String(invoice.invoice_id), `mails: ${JSON.stringify(mails.map((m) => [m.kind, m.invoiceId]))}`);
		check(mails[0].subject === `Invoice ${stored.invoice_number} for your accepted estimate`, `subject ${mails[0].subject}`);
		const calls = apiCalls().map((r) => `${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')} -> ${r.status}`);
		check(apiCalls().every((r) => r.status === 200 || r.status === 201), `calls: ${calls.join('; ')}`);
		check(apiCalls().every((r) => r.headers.authorization === `Vendor-oauthtoken ${state.accessToken}`), 'a call without the access token of the OAuth round trip (Authorization: Vendor-oauthtoken <token>)');
		return [
			`workflow ${id}, execution ${result.id}: ${result.execution.status}`,
			`trigger emitted accepted estimate ${emitted.estimate_number || estimateId}; invoice ${stored.invoice_number} created from it (invoiced_estimate_id ${estimateId}), status sent`,
			`e-mail "${mails[0].subject}"`,
			`API calls: ${calls.join('; ')}`,
		];
	});

	await step('example overdue-reminders.json: import, run (Schedule Trigger), check', async () => {
		const { wf, id } = await importExample('overdue-reminders.json');
		const names = wf.nodes.map((n) => n.name);
		const overdue = tenant.all('invoices').filter((i) => i.status === 'overdue').map((i) => String(i.invoice_id)).sort();
		check(overdue.length > 0, 'no overdue invoices in the demo data');
		const mailsBefore = tenant.mails.length;
		em.clearRequests();
		const result = await runAndWait(id, names[0]);
		assertSucceeded(result, names);
		const listedItems = outputOf(result.data, names[1]);
		const listed = listedItems.map((i) => String(i.invoice_id)).sort();
		const numberOf = Object.fromEntries(listedItems.map((i) => [String(i.invoice_id), i.invoice_number]));
		check(JSON.stringify(listed) === JSON.stringify(overdue), `listed ${listed.join(',')}; overdue ${overdue.join(',')}`);
		const out = outputOf(result.data, names[2]);
		check(JSON.stringify(out.map((o) => String(o.invoice_id)).sort()) === JSON.stringify(overdue) && out.every((o) => o.sent === true), `reminder output: ${JSON.stringify(out).slice(0, 300)}`);
		const reminded = tenant.mails.slice(mailsBefore).filter((m) => m.kind === 'reminder').map((m) => m.invoiceId).sort();
		check(JSON.stringify(reminded) === JSON.stringify(overdue), `reminders sent for ${reminded.join(',')}`);
		const calls = apiCalls().map((r) => `${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')}${r.query.status ? `?status=${r.query.status}` : ''} -> ${r.status}`);
		check(apiCalls().every((r) => r.status === 200), `calls: ${calls.join('; ')}`);
		check(apiCalls().every((r) => r.headers.authorization === `Vendor-oauthtoken ${state.accessToken}`), 'a call without the access token of the OAuth round trip');
		return [
			`workflow ${id}, execution ${result.id}: ${result.execution.status}`,
			`${listed.length} overdue invoices listed; ${out.length} reminders sent (${out.map((o) => numberOf[String(o.invoice_id)] || o.invoice_id).join(', ')})`,
			`API calls: ${calls.join('; ')}`,
		];
	});

	// The README's local-build way: N8N_CUSTOM_EXTENSIONS at dist/ (n8n names the types CUSTOM.*).
	// A second n8n with a user folder of its own; the first one is stopped first.
	const distDir = path.join(ROOT, 'dist');
	await step(`N8N_CUSTOM_EXTENSIONS=${path.relative(ROOT, distDir)}: a second n8n loads exactly the 10 nodes (CUSTOM.*) and the credential`, async () => {
		await stopN8n(state.n8n);
		state.n8n = undefined;
		const userFolder = path.join(state.userFolder, 'custom-extensions');
		fs.mkdirSync(userFolder);
		const customPort = await freePort();
		const times = await startN8n(state, 'n8nCustom', { userFolder, logFile: state.logFile, port: customPort, brokerPort: await freePort(), nodeBin, n8nBin, env: { N8N_CUSTOM_EXTENSIONS: distDir } });
		const custom = new N8nClient(`http://127.0.0.1:${customPort}`);
		await signIn(custom, owner);
		const nodes = await custom.json('GET', '/types/nodes.json');
		const expectedCustom = expectedNodes.map((n) => `CUSTOM.${n.slice(PACKAGE.name.length + 1)}`).sort();
		const loaded = [...new Set(nodes.map((n) => n.name).filter((n) => n.startsWith('CUSTOM.') && !(n.endsWith('Tool') && expectedCustom.includes(n.slice(0, -4)))))].sort();
		check(JSON.stringify(loaded) === JSON.stringify(expectedCustom), `CUSTOM.* node types: ${loaded.join(', ') || 'none'}; expected ${expectedCustom.join(', ')}`);
		check(!nodes.some((n) => n.name.startsWith(`${PACKAGE.name}.`)), 'the installed package is loaded too');
		const creds = await custom.json('GET', '/types/credentials.json');
		const vendorCreds = creds.filter((c) => /vendor/i.test(c.name) || /test|harness|fixture/i.test(c.name)).map((c) => c.name);
		check(JSON.stringify(vendorCreds) === JSON.stringify(['vendorOAuth2Api']), `credential types from dist/: ${vendorCreds.join(', ') || 'none'}; expected vendorOAuth2Api`);
		return [`readiness after ${times['/healthz/readiness']}; ${loaded.length} node types: ${loaded.join(', ')}; credential type vendorOAuth2Api`];
	});

	console.log(`\nScope separator n8n sent: ${seen.separator}`);
}

function redactObj(body) {
	if (!body || typeof body !== 'object') return body;
	const out = { ...body };
	for (const k of ['client_secret', 'code', 'refresh_token', 'access_token']) if (k in out) out[k] = '<redacted>';
	return out;
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

/**
 * Starts n8n (Node 24) with its own user folder and port (`opts.env`: more environment);
 * `state[key]` holds the process, which cleanup stops. Resolves once /healthz and
 * /healthz/readiness answer 200, with how long each took.
 */
async function startN8n(state, key, opts) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('N8N_') && !k.startsWith('DB_') && k !== 'NODE_OPTIONS' && k !== 'NODE_PATH' && !k.startsWith('npm_')));
	Object.assign(env, {
		PATH: `${opts.nodeBin}:${process.env.PATH}`,
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
	const log = fs.openSync(opts.logFile, 'a');
	const proc = spawn(path.join(opts.nodeBin, 'node'), [opts.n8nBin, 'start'], { cwd: opts.userFolder, env, stdio: ['ignore', log, log], detached: true });
	fs.closeSync(log);
	state[key] = proc;
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

// ------------------------------------------------------------------ cleanup

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

async function cleanup(state) {
	const done = [];
	const { n8n, n8nCustom, em, userFolder } = state;
	state.n8n = state.n8nCustom = state.em = state.userFolder = undefined; // once, even if a signal comes during it
	for (const proc of [n8n, n8nCustom]) {
		const stopped = await stopN8n(proc);
		if (stopped) done.push(stopped);
	}
	if (em) {
		await em.close();
		done.push('emulator stopped');
	}
	if (userFolder) {
		if (KEEP) done.push(`user folder kept: ${userFolder}`);
		else {
			fs.rmSync(userFolder, { recursive: true, force: true });
			done.push('user folder removed');
		}
	}
	done.push(`n8n install kept in ${path.relative(ROOT, CACHE) || CACHE}`);
	console.log(`PASS cleanup: ${done.join('; ')}`);
}

main();
