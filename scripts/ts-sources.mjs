// Loads the package's TypeScript sources in this process, transpiled in memory by sucrase (no build; the tests' transform, test/transform.js, uses it too): shared by generate.mjs and literal-lint.mjs.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { transform } = createRequire(path.join(here, '..', 'package.json'))('sucrase');

/** A `require` of the package at `root` that loads `.ts` files with their types stripped and their imports made CommonJS. */
export function sourceRequire(root) {
	const requireFromRoot = createRequire(path.join(root, 'package.json'));
	const Module = requireFromRoot('node:module');
	if (!Module._extensions['.ts']) {
		Module._extensions['.ts'] = function compileTs(module, filename) {
			const { code } = transform(fs.readFileSync(filename, 'utf8'), {
				transforms: ['imports', 'typescript'],
				disableESTransforms: true,
				filePath: filename,
			});
			module._compile(code, filename);
		};
	}
	return requireFromRoot;
}

/** The source of an entry of package.json's `n8n` section: `dist/nodes/X/X.node.js` -> `nodes/X/X.node.ts`. */
export const sourceOf = (distPath) => distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts');
