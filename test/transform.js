'use strict';
/**
 * jest's transform of the TypeScript sources: sucrase strips the types and turns the imports into
 * `require` calls, file by file, with no type check (`npm run lint` type-checks the tests with
 * tsc), and hoists `jest.mock` above the imports. Exports stay plain assignments, as tsc writes
 * them, so `jest.spyOn` on a module's exports reaches its callers (the suites spy on api/wait.ts).
 *
 * Class fields keep JavaScript's own semantics (defined on the instance after `super()`), where
 * the build's tsc assigns them: the two differ only for a field declared without a value in a
 * subclass whose base constructor sets it; write such a field with `declare`.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { transform } = require('sucrase');
const { version } = require('sucrase/package.json');

const SELF = readFileSync(__filename, 'utf8');

module.exports = {
	getCacheKey(source, filename) {
		return createHash('sha1')
			.update(SELF)
			.update(version)
			.update(filename)
			.update('\0')
			.update(source)
			.digest('hex');
	},
	process(source, filename) {
		const { code, sourceMap } = transform(source, {
			transforms: ['imports', 'typescript', 'jest'],
			disableESTransforms: true,
			filePath: filename,
			sourceMapOptions: { compiledFilename: filename },
		});
		const inline = Buffer.from(JSON.stringify(sourceMap)).toString('base64');
		// split so that source-map-support does not read this file's own text as a map comment
		return {
			code:
				`${code}\n//# sourceMapping` + `URL=data:application/json;charset=utf-8;base64,${inline}`,
			map: sourceMap,
		};
	},
};
