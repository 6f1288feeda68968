'use strict';
/**
 * For the child processes of the packaging test and the version matrix (plain JS entries run
 * by plain `node`): compiles the repository's own TypeScript test sources on the fly with the
 * project's `typescript` (passed in, so a child can take it before it redirects module
 * resolution). Only files under `ownSources` (a folder or a list of folders) are compiled; the installed package is plain JS.
 */
const { readFileSync } = require('node:fs');
const Module = require('node:module');

function compileTestSources(ts, ownSources, entryName) {
	const folders = [].concat(ownSources);
	Module._extensions['.ts'] = function compileTypeScript(module, filename) {
		if (!folders.some((folder) => filename.startsWith(folder)))
			throw new Error(`${entryName} compiles only the repository's test sources, not ${filename}`);
		const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
			fileName: filename,
			compilerOptions: {
				module: ts.ModuleKind.CommonJS,
				target: ts.ScriptTarget.ES2021,
				esModuleInterop: true,
				isolatedModules: true,
				inlineSourceMap: true,
			},
		});
		module._compile(outputText, filename);
	};
}

module.exports = { compileTestSources };
