// Loads the package's TypeScript sources in this process, transpiled in memory (no build): shared by generate.mjs and literal-lint.mjs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ts = createRequire(path.join(here, '..', 'package.json'))('typescript');

/** A `require` of the package at `root` that loads `.ts` files transpiled to CommonJS (ES2021). */
export function sourceRequire(root) {
	const requireFromRoot = createRequire(path.join(root, 'package.json'));
	const Module = requireFromRoot('node:module');
	if (!Module._extensions['.ts']) {
		Module._extensions['.ts'] = function compileTs(module, filename) {
			const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
				fileName: filename,
				compilerOptions: {
					module: ts.ModuleKind.CommonJS,
					target: ts.ScriptTarget.ES2021,
					esModuleInterop: true,
				},
			});
			module._compile(outputText, filename);
		};
	}
	return requireFromRoot;
}

/** The source of an entry of package.json's `n8n` section: `dist/nodes/X/X.node.js` -> `nodes/X/X.node.ts`. */
export const sourceOf = (distPath) => distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');
