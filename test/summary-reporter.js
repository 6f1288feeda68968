/**
 * Prints jest's totals as one plain closing line: "N passed, N failed, N skipped", and before it
 * one line when the checks against the API reference were skipped (no ../shared/api beside the
 * repository; test/tools/doc-sources.ts `describeWithReference` marks them in their titles) and
 * one when `npm run test:fast` left suites out (jest.config.js).
 */
const path = require('node:path');

/** The words doc-sources.ts puts in the title of a skipped block (its REFERENCE_SKIPPED). */
const REFERENCE_SKIPPED = 'skipped: no API reference at ../shared/api';

/** The one line naming the skipped reference checks and their files, or undefined if none were skipped. */
function referenceLine(results, rootDir) {
	const files = new Set();
	let count = 0;
	for (const file of results.testResults) {
		for (const t of file.testResults) {
			if (
				t.status !== 'pending' ||
				!t.ancestorTitles.some((title) => title.includes(REFERENCE_SKIPPED))
			)
				continue;
			count += 1;
			files.add(path.relative(rootDir, file.testFilePath));
		}
	}
	if (!count) return undefined;
	return `skipped: ${count} checks comparing sources with the API reference, which is not beside the repository (../shared/api): ${[...files].sort().join(', ')}`;
}

class SummaryReporter {
	constructor(globalConfig) {
		this.rootDir = (globalConfig && globalConfig.rootDir) || process.cwd();
	}

	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const reference = referenceLine(results, this.rootDir);
		const fast =
			process.env.VENDOR_TEST_FAST === '1'
				? '\ntest:fast: the version matrix and the slowest generated suites were left out (jest.config.js SLOW); npm test runs every suite'
				: '';
		process.stdout.write(
			`${reference ? `\n${reference}` : ''}${fast}\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}
module.exports = SummaryReporter;
module.exports.referenceLine = referenceLine;
module.exports.REFERENCE_SKIPPED = REFERENCE_SKIPPED;
