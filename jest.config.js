/**
 * `npm test` runs every suite (what CI runs). `npm run test:fast` (VENDOR_TEST_FAST=1) leaves out
 * the suites in SLOW: the version matrix, which installs n8n releases, and the suites that cost
 * most alone. Three workers on two cores: the real waits left (pacing's among them) overlap the
 * others' work. In a fresh clone (`git clone`, `npm ci`, cold caches) it took 65 s with the build
 * on this 2-core machine while a busy loop kept one core at 100% (2026-12-04; 72 s in a working
 * checkout, where it had taken 91 s before the six suites after every-operation-settings below
 * joined SLOW); 144 s, busy, before the harness loaded each node type once and sucrase replaced
 * ts-jest.
 *
 * The transform is test/transform.js (sucrase: types stripped file by file, no type check; the
 * lint's tsc type-checks the tests). ts-jest with diagnostics off (already a transpile per file
 * here: tsconfig's isolatedModules) ran TypeScript's transpiler, ten times slower, on every file
 * of a fresh clone in every worker; @swc/jest and esbuild write exports as getters, which
 * jest.spyOn cannot replace (the suites spy on api/wait.ts).
 */
const fast = process.env.VENDOR_TEST_FAST === '1';

/** Left out by test:fast: what each costs (seconds alone on one core, warm) and what covers its class meanwhile. */
const SLOW = [
	'<rootDir>/test/matrix/', // the version matrix: n8n releases run, 38 s (their install adds a minute on a first run)
	// generated cases, each through n8n's engine
	'<rootDir>/test/workflows/trigger-costs.test.ts', // every trigger over 10,000-record accounts and a simulated day: 32 s
	'<rootDir>/test/workflows/trigger-resume.test.ts', // every full read over 10,000-record accounts, several polls each: 19 s (n8n-features' long list over several polls covers the class meanwhile)
	'<rootDir>/test/inputs/expression-types.test.ts', // every field x the types an expression can give: 12 s
	'<rootDir>/test/workflows/answer-variants.test.ts', // every operation x every answer variant: 9 s
	'<rootDir>/test/workflows/every-operation-settings.test.ts', // every operation x Retry On Fail and the error output, a fresh emulator each (retry-on-fail and error-output cover the class meanwhile): 4 s
	'<rootDir>/test/workflows/trigger-overlap.test.ts', // every trigger event x overlapping polls under 429s, 503s and slow answers (n8n-features' overlapping polls cover the class meanwhile): 4 s
	'<rootDir>/test/inputs/number-text.test.ts', // every number field x the texts a number may be written in (n8n-features' number text covers the class meanwhile): 2.5 s
	'<rootDir>/test/inputs/date-fields.test.ts', // every date field x offsets and moments in a workflow's time zone (n8n-features' dates cover the class meanwhile): 1.7 s
	'<rootDir>/test/workflows/blank-values.test.ts', // every field x the blank characters (inputs-and-items' blank values cover the class meanwhile): 2.4 s
	'<rootDir>/test/workflows/list-no-content.test.ts', // every list, picker and trigger read x a 204 (n8n-features' 204 to a list read covers the class meanwhile): 2.2 s
	// one promise at a size
	'<rootDir>/test/workflows/accounting-pacing.test.ts', // 1,000 items paced by count over ten simulated minutes (api/pacing.test's pacer and custom-call-pacing's paced run cover the class meanwhile): 5.4 s
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
