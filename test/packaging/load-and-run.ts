/**
 * Runs in the child process of package.test.ts (entry: n8n-child.js), started with NODE_PATH =
 * this project's node_modules, as n8n runs with its own module folders on NODE_PATH.
 *
 * Reads from stdin `{ packageDir, workflow?, credentials? }`, loads the installed package with
 * n8n-core's PackageDirectoryLoader exactly as n8n does for a community package
 * (`new PackageDirectoryLoader(dir)`, `loadAll()`), optionally runs `workflow` through n8n-core's
 * WorkflowExecute (the test harness) with the node and credential instances the loader made, and
 * prints one line `PACKAGING_RESULT <json>` on stdout: what the loader holds, which modules the
 * package's code pulled in from outside itself, and the run's outputs.
 *
 * The parts are exported for the version matrix's child (test/matrix/): `loadInstalledPackage`
 * (the loader and what it holds) and `asClass`; `runFromStdin` is what n8n-child.js runs.
 */
import {
	ensureHarnessSetup,
	runWorkflow,
	type HarnessCredential,
	type HarnessWorkflow,
} from '../../harness';

import { PackageDirectoryLoader } from 'n8n-core';
import type {
	ICredentialType,
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { readFileSync } from '../../host/fs';
import { createRequire } from '../../host/module';
import { join, resolve, sep } from '../../host/path';

import { RESULT_MARKER } from './n8n-install';
import { process } from '../../host/globals';

export interface ChildInput {
	/** `<user folder>/.n8n/nodes/node_modules/<package>`. */
	packageDir: string;
	workflow?: HarnessWorkflow;
	credentials?: HarnessCredential[];
}

export interface LoadedNode {
	name: string;
	displayName: string;
	/** Class name the loader recorded in `known.nodes`. */
	className: string;
	/** Source path as package.json names it (relative to the package folder). */
	sourcePath: string;
	/** The file the loader resolved it to, and whether that file is what Node loaded. */
	file: string;
	loaded: boolean;
	codex: INodeTypeDescription['codex'];
	icon: unknown;
	iconUrl: unknown;
	credentials: string[];
}

interface LoadedCredential {
	name: string;
	className: string;
	sourcePath: string;
	file: string;
	loaded: boolean;
	icon: unknown;
	iconUrl: unknown;
	extends: string[];
	supportedNodes: string[];
}

export interface ChildResult {
	packageName: string;
	nodes: LoadedNode[];
	credentials: LoadedCredential[];
	knownNodes: string[];
	knownCredentials: string[];
	typeNames: { nodes: string[]; credentials: string[] };
	/** Where `require(x)` from inside the package resolves. */
	resolved: Record<string, string>;
	/** Modules outside the package that the package's code loaded: package name -> files. */
	external: Record<string, string[]>;
	/** Files of this project's own dist/, nodes/ or credentials/ loaded in this process (must be none). */
	projectModules: string[];
	run?: {
		executedNodes: string[];
		outputs: Record<string, Array<{ json: IDataObject; pairedItem: unknown }>>;
		error?: string;
	};
}

/** The package name of a file under some `node_modules` (`zod`, `@n8n/di`, ...). */
function moduleName(file: string): string {
	const after = file.split(`${sep}node_modules${sep}`).pop() ?? file;
	const parts = after.split(sep);
	return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function externalModules(packageDir: string): Record<string, string[]> {
	const inside = (file: string) => file.startsWith(packageDir + sep);
	const external: Record<string, Set<string>> = {};
	for (const mod of Object.values(require.cache)) {
		if (!mod || !inside(mod.filename)) continue;
		for (const child of mod.children) {
			if (inside(child.filename)) continue;
			(external[moduleName(child.filename)] ??= new Set()).add(child.filename);
		}
	}
	return Object.fromEntries(
		Object.entries(external).map(([name, files]) => [name, [...files].sort()]),
	);
}

/** A constructor n8n-core's harness can `new`, giving back the loader's instance (n8n uses those instances). */
export function asClass<T extends object>(instance: T): new () => T {
	return function loaded() {
		return instance;
	} as unknown as new () => T;
}

interface LoadedPackage {
	loader: PackageDirectoryLoader;
	/** What the loader holds and where the package's imports come from (a ChildResult without its run). */
	facts: Omit<ChildResult, 'run'>;
}

/** Loads an installed package with n8n-core's PackageDirectoryLoader, as n8n does, and describes what it loaded. */
export async function loadInstalledPackage(installedDir: string): Promise<LoadedPackage> {
	ensureHarnessSetup(); // n8n's DI container: the loader gets its Logger from it
	const loader = new PackageDirectoryLoader(installedDir);
	await loader.loadAll();
	const packageDir = loader.directory; // realpath, as the loader uses it
	const loadedFrom = (sourcePath: string) => {
		const file = resolve(packageDir, sourcePath); // as the loader's resolvePath
		return { file, loaded: require.cache[file] !== undefined };
	};

	const nodes: LoadedNode[] = Object.entries(loader.nodeTypes).map(
		([name, { type, sourcePath }]) => {
			const { description } = type as INodeType;
			return {
				name,
				displayName: description.displayName,
				className: loader.known.nodes[name].className,
				sourcePath,
				...loadedFrom(sourcePath),
				codex: description.codex,
				icon: description.icon,
				iconUrl: description.iconUrl,
				credentials: (description.credentials ?? []).map((c) => c.name),
			};
		},
	);
	const credentials: LoadedCredential[] = Object.entries(loader.credentialTypes).map(
		([name, { type, sourcePath }]) => ({
			name,
			className: loader.known.credentials[name].className,
			sourcePath,
			...loadedFrom(sourcePath),
			icon: type.icon,
			iconUrl: type.iconUrl,
			extends: type.extends ?? [],
			supportedNodes: type.supportedNodes ?? [],
		}),
	);

	const fromPackage = createRequire(join(packageDir, 'package.json'));
	const resolved = Object.fromEntries(
		['n8n-workflow', 'zod/v3'].map((id) => [id, fromPackage.resolve(id)]),
	);

	const projectRoot = join(module.path, '..', '..');
	const projectOwn = ['dist', 'nodes', 'credentials'].map((dir) => join(projectRoot, dir) + sep);
	const facts: Omit<ChildResult, 'run'> = {
		packageName: loader.packageName,
		nodes,
		credentials,
		knownNodes: Object.keys(loader.known.nodes),
		knownCredentials: Object.keys(loader.known.credentials),
		typeNames: {
			nodes: loader.types.nodes.map((d) => d.name),
			credentials: loader.types.credentials.map((c) => c.name),
		},
		resolved,
		external: externalModules(packageDir),
		projectModules: Object.keys(require.cache).filter((file) =>
			projectOwn.some((dir) => file.startsWith(dir)),
		),
	};
	return { loader, facts };
}

async function main(input: ChildInput): Promise<ChildResult> {
	const { loader, facts } = await loadInstalledPackage(input.packageDir);
	let run: ChildResult['run'];
	if (input.workflow) {
		const result = await runWorkflow({
			workflow: input.workflow,
			nodeTypes: Object.values(loader.nodeTypes).map(({ type }) =>
				asClass<INodeType | IVersionedNodeType>(type),
			),
			credentialTypes: Object.values(loader.credentialTypes).map(({ type }) =>
				asClass<ICredentialType>(type),
			),
			credentials: input.credentials ?? [],
			packageName: loader.packageName,
		});
		const error = result.error();
		run = {
			executedNodes: result.executedNodes,
			outputs: Object.fromEntries(
				result.executedNodes.map((node) => [
					node,
					result.output(node).map(({ json, pairedItem }) => ({ json, pairedItem })),
				]),
			),
			error: error
				? `${error.message} ${(error as { description?: string }).description ?? ''}`.trim()
				: undefined,
		};
	}

	// taken again after the run: running may load more of the package's modules
	const projectRoot = join(module.path, '..', '..');
	const projectOwn = ['dist', 'nodes', 'credentials'].map((dir) => join(projectRoot, dir) + sep);
	return {
		...facts,
		external: externalModules(loader.directory),
		projectModules: Object.keys(require.cache).filter((file) =>
			projectOwn.some((dir) => file.startsWith(dir)),
		),
		run,
	};
}

/** Reads a ChildInput from stdin, runs it and prints `PACKAGING_RESULT <json>` (the entry n8n-child.js calls). */
export function runFromStdin(): void {
	main(JSON.parse(readFileSync(0, 'utf8')) as ChildInput).then(
		(result) =>
			process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`, () => process.exit(0)),
		(error: Error) => {
			process.stderr.write(`${error.stack ?? String(error)}\n`);
			process.exit(1);
		},
	);
}
