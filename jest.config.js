/**
 * `npm test` runs every suite (what CI runs). `npm run test:fast` (VENDOR_TEST_FAST=1, two
 * workers) leaves out the suites in SLOW: the version matrix, which installs n8n releases, and
 * the generated suites that take longest. The rest took 88 s with the build on this 2-core
 * machine, warm (2026-11-28); each suite's CPU time measured alone with /usr/bin/time.
 */
const fast = process.env.VENDOR_TEST_FAST === '1';

/** Left out by test:fast: what each costs (seconds alone on one core, warm) and what covers its class meanwhile. */
const SLOW = [
	'<rootDir>/test/matrix/', // the version matrix: n8n releases installed and run, 99 s
	// generated cases, each through n8n's engine
	'<rootDir>/test/workflows/trigger-costs.test.ts', // every trigger over 10,000-record accounts and a simulated day: 32 s
	'<rootDir>/test/workflows/trigger-resume.test.ts', // every full read over 10,000-record accounts, several polls each: 19 s (n8n-features' long list over several polls covers the class meanwhile)
	'<rootDir>/test/inputs/expression-types.test.ts', // every field x the types an expression can give: 12 s
	'<rootDir>/test/workflows/answer-variants.test.ts', // every operation x every answer variant: 9 s
	'<rootDir>/test/workflows/every-operation-settings.test.ts', // every operation x Retry On Fail and the error output, a fresh emulator each (retry-on-fail and error-output cover the class meanwhile): 4 s
	'<rootDir>/test/repo/literal-lint.test.ts', // every node's description written out and linted by n8n's rules: 17 s
	// written from the promises by a tester who did not write the package
	'<rootDir>/test/workflows/trigger-service-clock.test.ts', // the triggers on a service clock running in real time: 29 s
	'<rootDir>/test/workflows/budget-and-rate-limits.test.ts', // trigger budgets and rate limits over two simulated days: 12 s
	'<rootDir>/test/workflows/only-what-the-api-showed.test.ts', // the actions against answers a real service may give: 10 s
	'<rootDir>/test/workflows/options-and-ai-tools.test.ts', // options, Custom API Call, Simplify, AI tools: 6 s
];

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', ...(fast ? SLOW : [])],
	transform: { '^.+\\.ts$': '<rootDir>/test/transform.js' },
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	testTimeout: 60000,
};
