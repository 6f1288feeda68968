/**
 * Packs this project and installs the tarball the way n8n 2.x installs a community package
 * (its community-packages service):
 *
 *   1. the tarball lands in the download folder `<user folder>/.n8n/nodes`;
 *   2. it is extracted into `nodes/node_modules/<package>` (the tarball's `package/` prefix stripped);
 *   3. `devDependencies`, `peerDependencies` and `optionalDependencies` are deleted from its package.json;
 *   4. inside it: `npm install --audit=false --fund=false --bin-links=false --install-strategy=shallow
 *      --ignore-scripts=true --package-lock=false`;
 *   5. the package is added to `nodes/package.json` and the tarball removed.
 *
 * npm runs with an environment cleared of the `npm_*` variables `npm test` sets (so nothing
 * points it back at this project), a cache inside the temp folder and `offline` (the package
 * has no dependencies, so nothing needs fetching; a dependency added by mistake fails here
 * instead of being downloaded).
 */
import { execFile } from '../../host/child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from '../../host/fs';
import { join } from '../../host/path';
import { promisify } from '../../host/util';
import { process } from '../../host/globals';

const run = promisify(execFile);

/** Starts the line the child process prints its result on (load-and-run.ts). */
export const RESULT_MARKER = 'PACKAGING_RESULT ';

/** The project root (this file is test/packaging/n8n-install.ts). */
export const PROJECT_ROOT = join(module.path, '..', '..');

/** The exact arguments n8n 2.x passes to `npm install` inside an extracted community package. */
export const N8N_NPM_INSTALL_ARGS = [
	'install',
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

interface PackageJson {
	name: string;
	version: string;
	n8n: { n8nNodesApiVersion?: number; nodes: string[]; credentials: string[] };
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	[key: string]: unknown;
}

export function readPackageJson(dir: string): PackageJson {
	return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Fails with a clear message when `dist/` lacks a file package.json's n8n section names. */
export function assertDistBuilt(): void {
	const pkg = readPackageJson(PROJECT_ROOT);
	const missing = [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter(
		(file) => !existsSync(join(PROJECT_ROOT, file)),
	);
	if (missing.length > 0) {
		throw new Error(
			`dist/ is not built (missing ${missing.join(', ')}): run \`npm run build\` first (\`npm test\` builds before jest)`,
		);
	}
}

/** The environment for npm: ours without the `npm_*` variables of an enclosing `npm test`, with a private cache. */
export function npmEnv(cacheDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^npm_/i.test(key)) env[key] = value;
	}
	return { ...env, npm_config_cache: cacheDir, npm_config_update_notifier: 'false', ...extra };
}

async function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
	const npmCommand = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const { stdout } = await run(npmCommand, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }).catch(
		(error: unknown) => {
			const { stdout, stderr } = error as { stdout?: string; stderr?: string };
			throw new Error(
				`npm ${args.join(' ')} (in ${cwd}) failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`,
			);
		},
	);
	return stdout;
}

interface PackResult {
	tarball: string;
	/** Paths inside the tarball, as `npm pack --json` lists them. */
	files: string[];
}

/** `npm pack` of the project into `destination`. */
export async function packProject(destination: string, cacheDir: string): Promise<PackResult> {
	mkdirSync(destination, { recursive: true });
	const stdout = await npm(
		['pack', '--pack-destination', destination, '--json'],
		PROJECT_ROOT,
		npmEnv(cacheDir),
	);
	// `--json` prints an array after anything a lifecycle script may print
	const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
		filename: string;
		files: Array<{ path: string }>;
	}>;
	return { tarball: join(destination, packed.filename), files: packed.files.map((f) => f.path) };
}

export interface Installed {
	/** `<user folder>/.n8n/nodes`. */
	downloadFolder: string;
	/** `<user folder>/.n8n/nodes/node_modules/<package>`. */
	packageDir: string;
	/** What `npm pack` put into the tarball. */
	packedFiles: string[];
}

/**
 * Packs the project into `<userFolder>/.n8n/nodes` and installs it there as n8n 2.x does
 * (see the module comment).
 */
export async function packAndInstallLikeN8n(userFolder: string): Promise<Installed> {
	const downloadFolder = join(userFolder, '.n8n', 'nodes');
	const cacheDir = join(userFolder, 'npm-cache');
	const { name } = readPackageJson(PROJECT_ROOT);
	mkdirSync(downloadFolder, { recursive: true });
	// n8n keeps a package.json in its download folder listing the installed packages
	const nodesPackageJson = join(downloadFolder, 'package.json');
	writeFileSync(
		nodesPackageJson,
		JSON.stringify({ name: 'installed-nodes', private: true }, null, 2),
	);

	const { tarball, files } = await packProject(downloadFolder, cacheDir);

	const packageDir = join(downloadFolder, 'node_modules', name);
	mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

	const pkg = readPackageJson(packageDir);
	delete pkg.devDependencies;
	delete pkg.peerDependencies;
	delete pkg.optionalDependencies;
	writeFileSync(join(packageDir, 'package.json'), JSON.stringify(pkg, null, 2));

	await npm(N8N_NPM_INSTALL_ARGS, packageDir, npmEnv(cacheDir, { npm_config_offline: 'true' }));

	const nodes = JSON.parse(readFileSync(nodesPackageJson, 'utf8')) as {
		dependencies?: Record<string, string>;
	};
	nodes.dependencies = { ...nodes.dependencies, [name]: pkg.version };
	writeFileSync(nodesPackageJson, JSON.stringify(nodes, null, 2));
	rmSync(tarball);

	return { downloadFolder, packageDir, packedFiles: files };
}
