'use strict';
/**
 * Entry of a version-matrix child process (matrix.test.ts): one n8n release's own n8n-core,
 * n8n-workflow and zod, never this project's.
 *
 * Started with NODE_PATH = `.cache/n8n-matrix/<release>/node_modules` (MATRIX_N8N_MODULES names
 * the same folder): the installed package reaches n8n-workflow and zod through NODE_PATH, as in
 * a running n8n. The harness (harness/*) and the packaging helpers are this
 * repository's TypeScript sources; they import `n8n-core`, `n8n-workflow`, `@n8n/di`,
 * `@n8n/backend-common` by bare name, which normal resolution would find in this project's
 * node_modules (the folder walk from test/ reaches it first). So module resolution is patched:
 *
 *  - a bare request made by a file under test/ or harness/ resolves in the release's folder only;
 *  - any request that would land in this project's node_modules fails as "not found" (so the
 *    release's n8n-core cannot silently pick up a module of the project's tree, e.g. because
 *    `.cache/` lies inside the project and Node's folder walk reaches the project's
 *    node_modules from there), except `typescript`, taken from the project before the patch
 *    to transpile the test sources.
 *
 * Then it runs test/matrix/target-runner.ts, which talks to the parent over the IPC channel.
 *
 * Native modules: the releases are installed with `--ignore-scripts`, so isolated-vm (a
 * dependency of @n8n/expression-runtime from n8n 1.12x on) is not built, and it has no prebuild
 * for Node 20. Nothing loads it unless n8n's VM expression engine is switched on (the CLI does
 * that from its config; n8n-workflow's default is the legacy engine), so nothing needs working
 * around: the 'modules' scenario checks that no native addon was loaded.
 */
const { realpathSync } = require('node:fs');
const Module = require('node:module');
const { isAbsolute, join, sep } = require('node:path');
const ts = require('typescript'); // the project's, before resolution is redirected

const { compileTestSources } = require('../packaging/compile-test-sources');

const projectRoot = realpathSync(join(__dirname, '..', '..'));
const ownSources = ['test', 'harness'].map((folder) => join(projectRoot, folder) + sep);
const projectModules = join(projectRoot, 'node_modules') + sep;
const target = process.env.MATRIX_N8N_MODULES;
if (!target || !isAbsolute(target))
	throw new Error(
		"matrix-child.js needs MATRIX_N8N_MODULES: the absolute path of the release's node_modules",
	);
const targetModules = realpathSync(target);
if (targetModules.startsWith(projectModules))
	throw new Error(
		`MATRIX_N8N_MODULES must not be the project's own node_modules (${targetModules})`,
	);

/** A module standing in a file of the release's folder: bare requests of the test sources resolve as if made there. */
const fromTarget = new Module(join(targetModules, '[matrix-resolver].js'), null);
fromTarget.filename = fromTarget.id;
fromTarget.paths = [targetModules];

const isBare = (request) =>
	!request.startsWith('.') && !isAbsolute(request) && !Module.isBuiltin(request);

const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolveInRelease(request, parent, isMain, options) {
	const fromOwnSources =
		isBare(request) &&
		typeof parent?.filename === 'string' &&
		ownSources.some((folder) => parent.filename.startsWith(folder));
	const resolved = fromOwnSources
		? originalResolve.call(this, request, fromTarget, isMain)
		: originalResolve.call(this, request, parent, isMain, options);
	if (resolved.startsWith(projectModules)) {
		const error = new Error(
			`Cannot find module '${request}' (required by ${parent?.filename ?? '?'}): the version-matrix child loads nothing from the project's node_modules, and the release's folder ${targetModules} does not have it`,
		);
		error.code = 'MODULE_NOT_FOUND';
		throw error;
	}
	return resolved;
};

compileTestSources(ts, ownSources, 'matrix-child.js');

require('./target-runner.ts').serve({ projectRoot, targetModules });
