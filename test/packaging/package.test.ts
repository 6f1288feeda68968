/**
 * The package as n8n installs and loads it: `npm pack`, installed into a temp user folder
 * (`<tmp>/.n8n/nodes/node_modules/n8n-nodes-vendor`) the way n8n 2.x installs a community
 * package (n8n-install.ts), loaded by n8n-core's own PackageDirectoryLoader in a process whose
 * only way to `n8n-workflow` and `zod` is NODE_PATH (this project's node_modules standing in for
 * n8n's), and one workflow run by n8n-core's WorkflowExecute with the node and credential
 * instances that loader made, against the emulator (load-and-run.ts).
 *
 * Needs `dist/` (`npm test` builds it before jest). No network: npm runs offline with a private cache.
 */
import { spawn } from '../../host/child_process';
import {
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
} from '../../host/fs';
import { tmpdir } from '../../host/os';
import { basename, join, relative, sep } from '../../host/path';

import { byId, chain } from '../../harness/workflows';
import { apiCall, WorkflowEnv } from '../workflows/support';
import type { ChildInput, ChildResult, LoadedNode } from './load-and-run';
import {
	assertDistBuilt,
	packAndInstallLikeN8n,
	PROJECT_ROOT,
	readPackageJson,
	RESULT_MARKER,
	type Installed,
} from './n8n-install';
import { process } from '../../host/globals';

const CHILD = join(module.path, 'n8n-child.js');
/** What n8n's community lint allows published code to import (crypto is a built-in, not a module file). */
const ALLOWED_IMPORTS = ['n8n-workflow', 'zod', 'p-limit', 'lodash', 'luxon', 'moment'];
/** Folder names of test code, the emulator, benchmarks, the host's modules or their compiled output. */
const FORBIDDEN_FOLDERS = [
	'test',
	'tests',
	'__tests__',
	'build',
	'bench',
	'emulator',
	'host',
	'harness',
	'fixtures',
];

const pkg = readPackageJson(PROJECT_ROOT);
/** `dist/nodes/VendorBooks/VendorBooks.node.js` -> `VendorBooks`. */
const classOf = (file: string) => basename(file).split('.')[0];
/** n8n's type name of a node or credential class file: `VendorBooks` -> `vendorBooks`. */
const typeNameOf = (file: string) => classOf(file).replace(/^./, (c) => c.toLowerCase());

interface ChildRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs `node <script args>` with `env`, feeding `stdin`; never blocks the event loop (the emulator lives in it). */
async function runNode(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<ChildRun> {
	return await new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stdout, stderr }));
		child.stdin.end(stdin);
	});
}

/** Our environment without NODE_PATH (and with `extra`). */
function envWithout(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env.NODE_PATH;
	return { ...env, ...extra };
}

function parseResult(run: ChildRun): ChildResult {
	const line = run.stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
	if (run.code !== 0 || !line)
		throw new Error(`the loader process failed (exit ${run.code}):\n${run.stderr}\n${run.stdout}`);
	return JSON.parse(line.slice(RESULT_MARKER.length)) as ChildResult;
}

/** Every file below `dir`, relative to it, with `/` separators. */
function filesBelow(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => statSync(join(dir, file)).isFile())
		.map((file) => file.split(sep).join('/'))
		.sort();
}

function mtimeOf(file: string): number | undefined {
	return existsSync(file) ? statSync(file).mtimeMs : undefined;
}

let userFolder: string;
let installed: Installed;
let packageDir: string;
let loaded: ChildResult;
let withoutNodePath: ChildRun;
const env = new WorkflowEnv();
const projectLock = join(PROJECT_ROOT, 'node_modules', '.package-lock.json');
let projectLockBefore: number | undefined;

beforeAll(async () => {
	assertDistBuilt();
	projectLockBefore = mtimeOf(projectLock);
	userFolder = realpathSync(mkdtempSync(join(tmpdir(), 'n8n-user-')));
	installed = await packAndInstallLikeN8n(userFolder);
	packageDir = installed.packageDir;

	await env.start();
	const books = env.orgSteps('vendorBooks', { resource: 'item' });
	const input: ChildInput = {
		packageDir,
		workflow: chain([
			books('Create', {
				operation: 'create',
				name: 'Packaged widget',
				additionalFields: { rate: 7.5, sku: 'PKG-1' },
			}),
			books('Get', { operation: 'get', item_id: byId('={{ $json.item_id }}') }),
		]),
		credentials: env.credentials,
	};
	const childEnv = envWithout({
		NODE_PATH: join(PROJECT_ROOT, 'node_modules'),
		NODE_ENV: 'production', // n8n-core then loads each class in a vm context, as in a running n8n
		N8N_USER_FOLDER: userFolder,
	});
	loaded = parseResult(await runNode([CHILD], childEnv, JSON.stringify(input)));

	// the same package without NODE_PATH: nothing of its own brings n8n-workflow or zod along
	const node = join(packageDir, pkg.n8n.nodes[0]);
	withoutNodePath = await runNode(
		['-e', `require(${JSON.stringify(node)})`],
		envWithout({ NODE_ENV: 'production' }),
	);
}, 180_000);

afterAll(async () => {
	await env.stop();
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});

describe('installed the way n8n installs a community package', () => {
	test('the package folder holds what the tarball held: dist/nodes, dist/credentials, package.json, README, LICENSE, index.js', () => {
		expect(packageDir).toBe(join(userFolder, '.n8n', 'nodes', 'node_modules', pkg.name));
		const files = filesBelow(packageDir);
		expect(files).toEqual([...installed.packedFiles].sort());
		for (const file of files) {
			expect(file).toMatch(
				/^(dist\/(nodes|credentials)\/.+|package\.json|README\.md|LICENSE|index\.js)$/,
			);
		}
		expect(files).toEqual(
			expect.arrayContaining(['LICENSE', 'package.json', ...pkg.n8n.nodes, ...pkg.n8n.credentials]),
		);
	});

	test('no test, emulator, benchmark or harness file, and no node or credential class beyond those package.json names', () => {
		const files = filesBelow(packageDir);
		const offending = files.filter(
			(file) =>
				file.split('/').some((part) => FORBIDDEN_FOLDERS.includes(part)) ||
				/\.(test|spec)\.[jt]s$|(^|\/)Fixture/.test(file),
		);
		expect(offending).toEqual([]);
		// what a folder scan (N8N_CUSTOM_EXTENSIONS) would load: exactly the listed classes
		expect(files.filter((f) => f.endsWith('.node.js'))).toEqual([...pkg.n8n.nodes].sort());
		expect(files.filter((f) => f.endsWith('.credentials.js'))).toEqual(
			[...pkg.n8n.credentials].sort(),
		);
	});

	test("its package.json lost dev, peer and optional dependencies and has none of its own; npm installed nothing; the project's node_modules untouched", () => {
		const installedPkg = readPackageJson(packageDir);
		expect(installedPkg.name).toBe(pkg.name);
		expect(installedPkg).not.toHaveProperty('devDependencies');
		expect(installedPkg).not.toHaveProperty('peerDependencies');
		expect(installedPkg).not.toHaveProperty('optionalDependencies');
		expect(Object.keys(installedPkg.dependencies ?? {})).toEqual([]);
		expect(
			existsSync(join(packageDir, 'node_modules'))
				? filesBelow(join(packageDir, 'node_modules'))
				: [],
		).toEqual([]);
		expect(readPackageJson(installed.downloadFolder).dependencies).toEqual({
			[pkg.name]: pkg.version,
		});
		expect(existsSync(join(installed.downloadFolder, `${pkg.name}-${pkg.version}.tgz`))).toBe(
			false,
		);
		expect(mtimeOf(projectLock)).toBe(projectLockBefore);
	});
});

describe("loaded by n8n-core's PackageDirectoryLoader with only n8n's modules on NODE_PATH", () => {
	const nodeByFile = (file: string): LoadedNode => {
		const node = loaded.nodes.find((n) => n.sourcePath === file);
		if (!node) throw new Error(`${file} was not loaded`);
		return node;
	};

	test('exactly the 10 nodes and 1 credential of package.json, each by its class, under the package name', () => {
		expect(loaded.packageName).toBe(pkg.name);
		expect(pkg.n8n.nodes).toHaveLength(10);
		expect(pkg.n8n.credentials).toHaveLength(1);
		expect(loaded.nodes.map((n) => n.sourcePath).sort()).toEqual([...pkg.n8n.nodes].sort());
		expect(loaded.credentials.map((c) => c.sourcePath)).toEqual(pkg.n8n.credentials);
		for (const { sourcePath, file, loaded: fromThere } of [
			...loaded.nodes,
			...loaded.credentials,
		]) {
			expect({ file, fromThere }).toEqual({ file: join(packageDir, sourcePath), fromThere: true });
		}
		for (const file of pkg.n8n.nodes) {
			expect(nodeByFile(file)).toMatchObject({
				name: typeNameOf(file),
				className: classOf(file),
				credentials: ['vendorOAuth2Api'],
			});
		}
		expect(loaded.credentials[0]).toMatchObject({
			name: 'vendorOAuth2Api',
			className: classOf(pkg.n8n.credentials[0]),
			extends: ['oAuth2Api'],
		});
		expect(loaded.credentials[0].supportedNodes.sort()).toEqual(
			pkg.n8n.nodes.map(typeNameOf).sort(),
		);
		expect(loaded.knownNodes.sort()).toEqual(pkg.n8n.nodes.map(typeNameOf).sort());
		expect(loaded.knownCredentials).toEqual(['vendorOAuth2Api']);
		expect(loaded.typeNames.nodes.sort()).toEqual(pkg.n8n.nodes.map(typeNameOf).sort());
		expect(loaded.typeNames.credentials).toEqual(['vendorOAuth2Api']);
	});

	test('every node has its codex (the shipped *.node.json, the same as in the repository): categories and documentation links', () => {
		for (const file of pkg.n8n.nodes) {
			const { codex } = nodeByFile(file);
			expect({ node: file, codexLoaded: codex !== undefined }).toEqual({
				node: file,
				codexLoaded: true,
			});
			const codexFile = `${file}on`; // VendorBooks.node.js -> VendorBooks.node.json, as the loader reads it
			const shipped = JSON.parse(readFileSync(join(packageDir, codexFile), 'utf8')) as Record<
				string,
				unknown
			> & {
				resources: Record<string, unknown>;
			};
			expect(shipped).toEqual(
				JSON.parse(readFileSync(join(PROJECT_ROOT, codexFile.replace(/^dist\//, '')), 'utf8')),
			);
			expect(shipped.node).toBe(`${pkg.name}.${typeNameOf(file)}`);
			expect(codex).toEqual({
				categories: shipped.categories,
				...(shipped.subcategories ? { subcategories: shipped.subcategories } : {}),
				...(shipped.alias ? { alias: shipped.alias } : {}),
				resources: {
					primaryDocumentation: shipped.resources.primaryDocumentation,
					credentialDocumentation: shipped.resources.credentialDocumentation,
				},
			});
			expect(codex?.categories?.length).toBeGreaterThan(0);
			expect(codex?.resources?.primaryDocumentation?.length).toBeGreaterThan(0);
		}
	});

	test('every node and the credential has a light and a dark icon the loader turned into icon URLs of files in the package', () => {
		const prefix = `icons/${pkg.name}/`;
		const owners = [...pkg.n8n.nodes.map(nodeByFile), ...loaded.credentials];
		expect(owners).toHaveLength(11);
		for (const owner of owners) {
			expect(owner.icon).toBeUndefined(); // every `file:` icon was resolved
			const iconUrl = owner.iconUrl as { light: string; dark: string };
			expect(Object.keys(iconUrl ?? {}).sort()).toEqual(['dark', 'light']);
			expect(iconUrl.light).not.toBe(iconUrl.dark);
			for (const url of [iconUrl.light, iconUrl.dark]) {
				expect(url.startsWith(prefix)).toBe(true);
				const file = join(packageDir, url.slice(prefix.length));
				expect(relative(packageDir, file).startsWith('dist/')).toBe(true);
				expect(existsSync(file) ? readFileSync(file, 'utf8') : `missing ${file}`).toMatch(
					/<svg[\s>]/,
				);
			}
		}
	});

	test("the package's code resolves n8n-workflow and zod from n8n's modules (NODE_PATH), imports nothing else, and fails to load without them", () => {
		const n8nModules = join(PROJECT_ROOT, 'node_modules') + sep;
		expect(loaded.resolved['n8n-workflow'].startsWith(`${n8nModules}n8n-workflow${sep}`)).toBe(
			true,
		);
		expect(loaded.resolved['zod/v3'].startsWith(`${n8nModules}zod${sep}`)).toBe(true);
		expect(Object.keys(loaded.external)).toEqual(expect.arrayContaining(['n8n-workflow', 'zod']));
		for (const [name, files] of Object.entries(loaded.external)) {
			expect({ name, allowed: ALLOWED_IMPORTS.includes(name) }).toEqual({ name, allowed: true });
			for (const file of files) expect(file.startsWith(n8nModules)).toBe(true);
		}
		expect(loaded.projectModules).toEqual([]); // the run used the installed package, not this project's dist/ or sources
		expect(withoutNodePath.code).not.toBe(0);
		expect(withoutNodePath.stderr).toMatch(/Cannot find module '(n8n-workflow|zod\/v3)'/);
	});

	test('a workflow through the loaded classes: Vendor Books Item -> Create, then Get by its id, against the emulator', () => {
		const run = loaded.run!;
		expect(run.error).toBeUndefined();
		expect(run.executedNodes).toEqual(['Start', 'Create', 'Get']);
		const created = run.outputs.Create.map((i) => i.json);
		expect(created).toEqual([
			expect.objectContaining({ name: 'Packaged widget', rate: 7.5, sku: 'PKG-1' }),
		]);
		const id = String(created[0].item_id);
		expect(id).toMatch(/^\d+$/);
		expect(run.outputs.Get).toEqual([
			{
				json: expect.objectContaining({ item_id: created[0].item_id, name: 'Packaged widget' }),
				pairedItem: { item: 0 },
			},
		]);

		const org = env.org;
		expect(env.apiRequests().map(apiCall)).toEqual([
			{
				method: 'POST',
				path: '/books/v3/items',
				query: { organization_id: org },
				org: undefined,
				body: { name: 'Packaged widget', rate: 7.5, sku: 'PKG-1' },
			},
			{
				method: 'GET',
				path: `/books/v3/items/${id}`,
				query: { organization_id: org },
				org: undefined,
				body: undefined,
			},
		]);
		env.expectSigned({ org: 'query', ok: true });
	});
});
