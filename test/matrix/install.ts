/**
 * Each matrix release's n8n-core, n8n-workflow and zod, installed once into
 * `.cache/n8n-matrix/<n8n version>/` (ignored by git) and reused:
 *
 *   npm install --no-save --legacy-peer-deps --ignore-scripts --no-audit --no-fund \
 *     n8n-core@X n8n-workflow@Y zod@Z
 *
 * in a folder holding only a minimal package.json, with an environment cleared of the `npm_*`
 * variables of an enclosing `npm test` and npm's normal cache (the registry is reachable).
 * `--ignore-scripts`: no native module is built (isolated-vm); nothing the matrix runs loads one.
 *
 * A complete install has a marker file (MARKER) naming what it holds. A folder without the
 * marker (an install made by hand, or one interrupted) is checked: the three packages at their
 * versions, and every package npm's own record (`node_modules/.package-lock.json`, written
 * when npm finishes) lists present at its version; if that holds the marker is written, else
 * the folder is installed afresh. A fresh install goes into a temporary folder renamed into
 * place when complete, so an interrupted one never looks complete.
 *
 * Safe when several processes (jest workers, two jest runs) want the same release at once: a
 * lock folder per release (`<version>.lock`, created atomically by mkdir) is held while
 * checking or installing; a lock whose owner process is gone is taken over.
 */
import { execFile } from '../../host/child_process';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from '../../host/fs';
import { hostname } from '../../host/os';
import { join } from '../../host/path';

import { PROJECT_ROOT } from '../packaging/n8n-install';
import { packagesOf, type N8nRelease } from './releases';
import { process, setTimeout } from '../../host/globals';

/** `.cache/n8n-matrix` of the project. */
const MATRIX_CACHE = join(PROJECT_ROOT, '.cache', 'n8n-matrix');
const MARKER = '.matrix-install-complete.json';
/** How long one `npm install` may take. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** How long to wait for another process's lock before giving up. */
const LOCK_WAIT_MS = 20 * 60_000;

export interface ReleaseInstall {
	release: N8nRelease;
	/** `.cache/n8n-matrix/<n8n version>`. */
	dir: string;
	/** Its node_modules: the child's NODE_PATH. */
	nodeModules: string;
	/** What this call did: found a marked install, checked an unmarked one and marked it, or installed. */
	how: 'reused' | 'checked' | 'installed';
	durationMs: number;
}

interface Marker {
	n8n: string;
	packages: string[];
	how: 'checked' | 'installed';
	node: string;
	at: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Our environment without the `npm_*` variables of an enclosing `npm test` (they would point npm at this project). */
function npmEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
	return { ...env, npm_config_update_notifier: 'false' };
}

function readJson<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

function versionOf(nodeModules: string, name: string): string | undefined {
	return readJson<{ version?: string }>(join(nodeModules, name, 'package.json'))?.version;
}

/** Why `dir` is not a complete install of `release` (empty: it is). `deep` also checks every package npm recorded. */
function installProblems(dir: string, release: N8nRelease, deep: boolean): string[] {
	const nodeModules = join(dir, 'node_modules');
	const problems: string[] = [];
	for (const [name, wanted] of [
		['n8n-core', release.n8nCore],
		['n8n-workflow', release.n8nWorkflow],
		['zod', release.zod],
	]) {
		const found = versionOf(nodeModules, name);
		if (found !== wanted) problems.push(`${name}: ${found ?? 'missing'} instead of ${wanted}`);
	}
	if (!deep || problems.length > 0) return problems;
	const record = readJson<{ packages?: Record<string, { version?: string; link?: boolean }> }>(
		join(nodeModules, '.package-lock.json'),
	);
	if (!record?.packages)
		return [...problems, 'no node_modules/.package-lock.json: npm did not finish'];
	const entries = Object.entries(record.packages).filter(([path]) =>
		path.startsWith('node_modules/'),
	);
	if (entries.length < 50) problems.push(`npm recorded only ${entries.length} packages`);
	for (const [path, entry] of entries) {
		if (entry.link) continue;
		const found = readJson<{ version?: string }>(join(dir, path, 'package.json'))?.version;
		if (found === undefined) problems.push(`${path}: missing`);
		else if (entry.version !== undefined && found !== entry.version)
			problems.push(`${path}: ${found} instead of ${entry.version}`);
		if (problems.length > 10) break;
	}
	return problems;
}

function markerMatches(dir: string, release: N8nRelease): boolean {
	const marker = readJson<Marker>(join(dir, MARKER));
	return (
		marker?.n8n === release.n8n &&
		JSON.stringify(marker.packages) === JSON.stringify(packagesOf(release))
	);
}

function writeMarker(dir: string, release: N8nRelease, how: Marker['how']): void {
	const marker: Marker = {
		n8n: release.n8n,
		packages: packagesOf(release),
		how,
		node: process.version,
		at: new Date().toISOString(),
	};
	writeFileSync(join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Takes the release's lock folder, waiting for another live owner; returns the release function. */
async function lock(cacheRoot: string, name: string): Promise<() => void> {
	const lockDir = join(cacheRoot, `${name}.lock`);
	const owner = join(lockDir, 'owner.json');
	const deadline = Date.now() + LOCK_WAIT_MS;
	for (;;) {
		let failure: unknown;
		try {
			mkdirSync(lockDir);
			writeFileSync(
				owner,
				JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }),
			);
			return () => rmSync(lockDir, { recursive: true, force: true });
		} catch (error) {
			failure = error;
		}
		if ((failure as NodeJS.ErrnoException).code !== 'EEXIST') throw failure;
		const held = readJson<{ pid: number; host: string }>(owner);
		let ageMs = 0;
		try {
			ageMs = Date.now() - statSync(lockDir).mtimeMs;
		} catch {
			continue; // released meanwhile
		}
		// an owner on this host that is gone, or a lock whose owner never wrote its name
		const stale = held ? held.host === hostname() && !processAlive(held.pid) : ageMs > 60_000;
		if (stale) {
			rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (Date.now() > deadline)
			throw new Error(`${lockDir} has been held by ${JSON.stringify(held)} for too long`);
		await sleep(1_000);
	}
}

async function npmInstall(dir: string, release: N8nRelease): Promise<void> {
	const args = [
		'install',
		'--no-save',
		'--legacy-peer-deps',
		'--ignore-scripts',
		'--no-audit',
		'--no-fund',
		...packagesOf(release),
	];
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	await new Promise<void>((resolve, reject) => {
		execFile(
			npm,
			args,
			{ cwd: dir, env: npmEnv(), timeout: INSTALL_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) => {
				writeFileSync(join(dir, 'install.log'), `$ npm ${args.join(' ')}\n${stdout}\n${stderr}\n`);
				if (error)
					reject(
						new Error(
							`npm ${args.join(' ')} (in ${dir}) failed: ${error.message}\n${stderr.slice(-4000)}`,
						),
					);
				else resolve();
			},
		);
	});
}

/** Makes sure `<cacheRoot>/<release>` (`.cache/n8n-matrix/<release>`) holds a complete install of the release's three packages. */
export async function ensureReleaseInstalled(
	release: N8nRelease,
	cacheRoot = MATRIX_CACHE,
): Promise<ReleaseInstall> {
	const started = Date.now();
	const dir = join(cacheRoot, release.n8n);
	// real paths: the child resolves modules to real paths, and the test compares against these
	const done = (how: ReleaseInstall['how']): ReleaseInstall => ({
		release,
		dir: realpathSync(dir),
		nodeModules: realpathSync(join(dir, 'node_modules')),
		how,
		durationMs: Date.now() - started,
	});
	mkdirSync(cacheRoot, { recursive: true });
	// the common case without waiting for a lock: marked, and the three packages in place
	if (markerMatches(dir, release) && installProblems(dir, release, false).length === 0)
		return done('reused');

	const unlock = await lock(cacheRoot, release.n8n);
	try {
		if (markerMatches(dir, release) && installProblems(dir, release, false).length === 0)
			return done('reused');
		if (existsSync(dir) && installProblems(dir, release, true).length === 0) {
			writeMarker(dir, release, 'checked');
			return done('checked');
		}
		// leftovers of interrupted installs of this release
		for (const entry of readdirSync(cacheRoot)) {
			if (entry.startsWith(`${release.n8n}.installing-`))
				rmSync(join(cacheRoot, entry), { recursive: true, force: true });
		}
		const fresh = join(cacheRoot, `${release.n8n}.installing-${process.pid}`);
		mkdirSync(fresh, { recursive: true });
		writeFileSync(
			join(fresh, 'package.json'),
			`${JSON.stringify({ name: `n8n-matrix-${release.n8n.replace(/\./g, '-')}`, private: true, description: `n8n ${release.n8n}'s n8n-core, n8n-workflow and zod (test/matrix)` }, null, 2)}\n`,
		);
		await npmInstall(fresh, release);
		const problems = installProblems(fresh, release, true);
		if (problems.length > 0)
			throw new Error(
				`npm installed an incomplete tree for n8n ${release.n8n}: ${problems.join('; ')}`,
			);
		writeMarker(fresh, release, 'installed');
		rmSync(dir, { recursive: true, force: true });
		renameSync(fresh, dir);
		return done('installed');
	} finally {
		unlock();
	}
}
