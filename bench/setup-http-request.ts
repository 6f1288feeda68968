/**
 * Bench set-up: n8n's HTTP Request node (from n8n-nodes-base), the peer of
 * bench/vs-http-request.ts and bench/cpu-profile.ts, in a bench-only folder.
 *
 * n8n-nodes-base cannot be installed whole here (hundreds of dependencies, native builds),
 * so this unpacks its tarball without dependencies into `.cache/bench-nodes-base/unpacked/node_modules/` (ignored
 * by git) and adds only the modules HTTP Request needs to load, found by requiring
 * `dist/nodes/HttpRequest/V3/HttpRequestV3.node.js` (and the versioned
 * `HttpRequest.node.js`) and installing whatever is missing (`npm install --no-save
 * --ignore-scripts`, at the version n8n-nodes-base pins). For 2.11.2 that is
 * @mozilla/readability, cheerio, html-to-text and jsdom (about 16 MB; the unpacked
 * package is about 150 MB). n8n-workflow and n8n-core are not installed there: Node
 * resolves them up the folders from the project's node_modules, so the node runs on the
 * same n8n as the harness (checked).
 *
 * The version is the n8n-nodes-base of n8n 2.11.x (n8n 2.11.2 and 2.11.4 both depend on
 * n8n-nodes-base 2.11.2, n8n-core 2.11.1 and n8n-workflow 2.11.1: the project's
 * devDependencies). When the project moves to another n8n line, set NODES_BASE_VERSION
 * below (`npm view n8n@<version> dependencies` names it); the set-up refuses a
 * n8n-nodes-base built on another n8n-workflow than the project's.
 * `BENCH_NODES_BASE_VERSION=<version>` overrides it for one run.
 *
 * Cached: once `.cache/bench-nodes-base/ready.json` names the version, nothing is fetched
 * (the first run needs the npm registry: about 25 MB, 20 s). Delete the folder to redo it.
 *
 *   npm run build:tools && node build/bench/setup-http-request.js
 */
import { execFileSync } from '../host/child_process';
import fs from '../host/fs';
import path from '../host/path';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';
import { console, process } from '../host/globals';

const NODES_BASE_VERSION = process.env.BENCH_NODES_BASE_VERSION ?? '2.11.2';

const ROOT = path.resolve(module.path, '..', '..');
const CACHE_DIR = path.join(ROOT, '.cache', 'bench-nodes-base');
// in a node_modules/ folder (lint tools, n8n-node lint among them, leave it alone) of its
// own (npm, installing the modules it needs beside it, leaves it alone)
const PACKAGE_DIR = path.join(CACHE_DIR, 'unpacked', 'node_modules', 'n8n-nodes-base');
const READY = path.join(CACHE_DIR, 'ready.json');
const ENTRY = path.join(PACKAGE_DIR, 'dist', 'nodes', 'HttpRequest', 'V3', 'HttpRequestV3.node.js');
const VERSIONED = path.join(PACKAGE_DIR, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');

interface Ready {
	version: string;
	n8nWorkflow: string;
	modules: string[];
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], cwd: string): string {
	return execFileSync(command, args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		shell: process.platform === 'win32',
	});
}

/** The package a missing specifier belongs to: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageOf(specifier: string): string {
	const parts = specifier.split('/');
	return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Requires the node in a fresh process: the package it misses, or undefined once it loads. */
function missingModule(): string | undefined {
	const probe = `
		try { require(${JSON.stringify(ENTRY)}); require(${JSON.stringify(VERSIONED)}); console.log(JSON.stringify({ ok: true })); }
		catch (e) {
			if (e.code !== 'MODULE_NOT_FOUND') throw e;
			console.log(JSON.stringify({ missing: /Cannot find module '([^']+)'/.exec(e.message)[1], from: (e.requireStack || [])[0] }));
		}`;
	const result = JSON.parse(
		run(process.execPath, ['-e', probe], CACHE_DIR).trim().split('\n').pop() ?? '{}',
	) as { ok?: boolean; missing?: string; from?: string };
	if (result.ok) return undefined;
	if (!result.missing) throw new Error('HTTP Request probe: no answer');
	if (result.from && !result.from.startsWith(CACHE_DIR)) {
		throw new Error(
			`HTTP Request probe: ${result.missing} is missing for ${result.from}, outside the bench folder (is the project installed? npm ci)`,
		);
	}
	return packageOf(result.missing);
}

function projectVersion(name: string): string {
	return (
		module.require(require.resolve(`${name}/package.json`, { paths: [ROOT] })) as {
			version: string;
		}
	).version;
}

function readReady(): Ready | undefined {
	try {
		return JSON.parse(fs.readFileSync(READY, 'utf8')) as Ready;
	} catch {
		return undefined;
	}
}

/** Unpacks n8n-nodes-base and installs what HTTP Request misses; a no-op once cached. */
export function setupHttpRequest(log: (line: string) => void = console.log): Ready {
	const n8nWorkflow = projectVersion('n8n-workflow');
	const cached = readReady();
	if (
		cached &&
		cached.version === NODES_BASE_VERSION &&
		cached.n8nWorkflow === n8nWorkflow &&
		fs.existsSync(ENTRY)
	)
		return cached;

	const started = Date.now();
	log(
		`bench set-up: n8n-nodes-base ${NODES_BASE_VERSION} (HTTP Request node) into ${path.relative(ROOT, CACHE_DIR)}/, without its dependencies`,
	);
	fs.rmSync(CACHE_DIR, { recursive: true, force: true });
	fs.mkdirSync(CACHE_DIR, { recursive: true });
	// A package of its own, so that `npm install` installs here and not into the project.
	fs.writeFileSync(
		path.join(CACHE_DIR, 'package.json'),
		JSON.stringify(
			{
				name: 'bench-nodes-base',
				private: true,
				description: 'bench only: n8n-nodes-base HTTP Request node (bench/setup-http-request.ts)',
			},
			null,
			2,
		),
	);

	const tarball = run(
		npm,
		['pack', `n8n-nodes-base@${NODES_BASE_VERSION}`, '--silent', '--pack-destination', CACHE_DIR],
		CACHE_DIR,
	)
		.trim()
		.split('\n')
		.pop()!;
	const unpack = path.join(CACHE_DIR, 'unpack');
	fs.mkdirSync(unpack);
	run('tar', ['-xzf', path.join(CACHE_DIR, tarball), '-C', unpack], CACHE_DIR);
	fs.mkdirSync(path.dirname(PACKAGE_DIR), { recursive: true });
	fs.renameSync(path.join(unpack, 'package'), PACKAGE_DIR);
	fs.rmSync(unpack, { recursive: true });
	fs.rmSync(path.join(CACHE_DIR, tarball));

	const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
		version: string;
		dependencies: Record<string, string>;
	};
	if (manifest.dependencies['n8n-workflow'] !== n8nWorkflow) {
		throw new Error(
			`n8n-nodes-base ${manifest.version} is built on n8n-workflow ${manifest.dependencies['n8n-workflow']}, the project has ${n8nWorkflow}: ` +
				'set NODES_BASE_VERSION in bench/setup-http-request.ts to the n8n-nodes-base of the same n8n release (npm view n8n@<version> dependencies)',
		);
	}

	const modules: string[] = [];
	for (let missing = missingModule(); missing !== undefined; missing = missingModule()) {
		if (modules.some((m) => m.startsWith(`${missing}@`)))
			throw new Error(`${missing} is still missing after installing it`);
		if (missing === 'n8n-workflow' || missing === 'n8n-core')
			throw new Error(`${missing} must come from the project (npm ci), not the bench folder`);
		const version = manifest.dependencies[missing];
		if (!version)
			throw new Error(
				`HTTP Request needs ${missing}, which n8n-nodes-base ${manifest.version} does not list`,
			);
		modules.push(`${missing}@${version}`);
		log(`  HTTP Request needs ${missing}: npm install ${missing}@${version}`);
		// every time the whole list: --no-save removes what an earlier --no-save install added
		run(
			npm,
			[
				'install',
				'--no-save',
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				'--legacy-peer-deps',
				'--loglevel=error',
				...modules,
			],
			CACHE_DIR,
		);
	}

	// The node must run on the project's n8n-workflow (one instance: errors, expressions).
	const resolved = fs.realpathSync(
		require.resolve('n8n-workflow', { paths: [path.dirname(ENTRY)] }),
	);
	const project = fs.realpathSync(require.resolve('n8n-workflow', { paths: [ROOT] }));
	if (resolved !== project)
		throw new Error(
			`HTTP Request resolves n8n-workflow to ${resolved}, not the project's ${project}`,
		);

	const ready: Ready = { version: manifest.version, n8nWorkflow, modules };
	fs.writeFileSync(READY, JSON.stringify(ready, null, 2));
	log(
		`  ready in ${((Date.now() - started) / 1000).toFixed(0)} s: n8n-nodes-base ${manifest.version} + ${modules.join(', ') || 'nothing'}`,
	);
	return ready;
}

/** n8n's HTTP Request node class (all versions, `n8n-nodes-base.httpRequest`), set up if needed. */
export function loadHttpRequestNode(): {
	HttpRequest: new () => IVersionedNodeType | INodeType;
	version: string;
} {
	const ready = setupHttpRequest();
	const { HttpRequest } = module.require(VERSIONED) as {
		HttpRequest: new () => IVersionedNodeType;
	};
	return { HttpRequest, version: ready.version };
}

if (require.main === module) {
	try {
		const ready = setupHttpRequest();
		console.log(
			`bench set-up: n8n-nodes-base ${ready.version} HTTP Request node ready in ${path.relative(ROOT, CACHE_DIR)}/ (with ${ready.modules.join(', ') || 'no extra modules'})`,
		);
	} catch (error) {
		console.error(error);
		process.exit(1);
	}
}
