/**
 * The README's manual install ("Install in n8n") is what n8n's community-package installer
 * runs for a tarball, and adds no package: the README's own lines run here, after the first
 * (`npm ci && npm run build && npm pack`, which this test replaces by one `npm pack` of the
 * built project), with HOME a temp folder (so `~/.n8n/nodes` is n8n's download folder in it).
 * Its `npm install` line must be exactly the arguments n8n 2.x passes (N8N_NPM_INSTALL_ARGS,
 * the ones package.test.ts installs with).
 *
 * Needs `dist/` (`npm test` builds it before jest). No network: npm runs offline with a private cache.
 */
import { execFile } from '../../host/child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
} from '../../host/fs';
import { tmpdir } from '../../host/os';
import { basename, join, sep } from '../../host/path';
import { promisify } from '../../host/util';

import {
	assertDistBuilt,
	N8N_NPM_INSTALL_ARGS,
	npmEnv,
	packProject,
	PROJECT_ROOT,
	readPackageJson,
} from './n8n-install';

const run = promisify(execFile);
const README = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const pkg = readPackageJson(PROJECT_ROOT);

/** The lines of the first bash block of the README's "Install in n8n" section. */
function installBlock(): string[] {
	const section = README.indexOf('\n## Install in n8n\n');
	if (section < 0) throw new Error('README has no "## Install in n8n" section');
	const start = README.indexOf('```bash\n', section);
	const end = README.indexOf('\n```', start);
	return README.slice(start + '```bash\n'.length, end).split('\n');
}

/** Every file below `dir`, relative to it, with `/` separators. */
function filesBelow(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => statSync(join(dir, file)).isFile())
		.map((file) => file.split(sep).join('/'))
		.sort();
}

/** Folders below `dir` holding a package.json: the packages installed there. */
function packagesBelow(dir: string): string[] {
	return filesBelow(dir)
		.filter((file) => file === 'package.json' || file.endsWith('/package.json'))
		.map((file) => file.slice(0, -'package.json'.length).replace(/\/$/, ''));
}

let home: string;
let packedFiles: string[];
let output: string;

beforeAll(async () => {
	assertDistBuilt();
	home = realpathSync(mkdtempSync(join(tmpdir(), 'n8n-readme-install-')));
	const checkout = join(home, 'checkout');
	mkdirSync(checkout);
	const cacheDir = join(home, 'npm-cache');
	const packed = await packProject(checkout, cacheDir);
	packedFiles = packed.files;

	const [, ...lines] = installBlock();
	// `~` is HOME (n8n's user folder by default); the README names the tarball by its pattern
	const script = lines.join('\n').split(`${pkg.name}-<version>.tgz`).join(basename(packed.tarball));
	const result = await run('bash', ['-euo', 'pipefail', '-c', script], {
		cwd: checkout,
		env: npmEnv(cacheDir, { HOME: home, npm_config_offline: 'true' }),
		maxBuffer: 16 * 1024 * 1024,
	}).catch((error: unknown) => {
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(
			`the README's install lines failed: ${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`,
		);
	});
	output = `${result.stdout}${result.stderr}`;
}, 120_000);

afterAll(() => {
	if (home) rmSync(home, { recursive: true, force: true });
});

test("the README's block builds and packs, then installs with exactly n8n's npm arguments", () => {
	const lines = installBlock();
	expect(lines[0]).toMatch(/^npm ci && npm run build && npm pack\b/);
	expect(lines).toContain(`npm ${N8N_NPM_INSTALL_ARGS.join(' ')}`);
	// n8n deletes these from the extracted package.json before its npm install
	expect(lines.join('\n')).toMatch(
		/npm pkg delete devDependencies peerDependencies optionalDependencies/,
	);
	expect(lines.join('\n')).toMatch(/--strip-components=1/);
});

test('the package lands where n8n loads community packages from, with what the tarball held and nothing else', () => {
	const nodesFolder = join(home, '.n8n', 'nodes');
	const packageDir = join(nodesFolder, 'node_modules', pkg.name);
	expect(filesBelow(packageDir)).toEqual([...packedFiles].sort());
	expect(filesBelow(packageDir)).toEqual(
		expect.arrayContaining([...pkg.n8n.nodes, ...pkg.n8n.credentials]),
	);
	// npm installed no package: the only package.json below n8n's download folder is the package's own
	expect(packagesBelow(nodesFolder)).toEqual([`node_modules/${pkg.name}`]);
	expect(existsSync(join(packageDir, 'node_modules'))).toBe(false);
	expect(existsSync(join(packageDir, 'package-lock.json'))).toBe(false);
	expect(output).not.toMatch(/\badded [1-9]\d* packages?\b/);
});

test("the installed package.json has no dev, peer or optional dependencies and none of its own, as n8n's installer leaves it", () => {
	const installed = readPackageJson(join(home, '.n8n', 'nodes', 'node_modules', pkg.name));
	expect(installed.name).toBe(pkg.name);
	expect(installed.version).toBe(pkg.version);
	expect(installed).not.toHaveProperty('devDependencies');
	expect(installed).not.toHaveProperty('peerDependencies');
	expect(installed).not.toHaveProperty('optionalDependencies');
	expect(Object.keys(installed.dependencies ?? {})).toEqual([]);
});
