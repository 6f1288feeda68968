/**
 * The project's own lint, run by `npm run lint` beside `n8n-node lint` (eslint.config.mjs is
 * n8n's config, unchanged, as `n8n-node cloud-support` requires): the published sources
 * (nodes/, credentials/) and package.json with
 * - eslint-plugin-n8n-nodes-base's community, credentials and nodes rule sets (written for
 *   the legacy config format, applied here as flat config blocks; n8n's config turns a few of
 *   the nodes and credentials rules off, this one keeps them);
 * - @n8n/eslint-plugin-community-nodes' `recommended` config (what `n8n-node lint` and n8n's
 *   package scanner run), here also on the nodes' codex JSON;
 * - no import of test/, harness/, bench/, emulator/ or host/ from the published code: those take Node's
 *   modules and globals from host/ (see host/globals.js), which n8n's Cloud rules would refuse
 *   in a node.
 * Inline `eslint-disable` comments are not honoured (n8n's scanner ignores them too), so
 * every finding has to be fixed in the code.
 * Run: eslint -c eslint.legacy.config.mjs --max-warnings 0 nodes credentials package.json
 */
import n8n from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';

const rules = (name) => n8n.configs[name].rules;
const published = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const json = ['package.json', 'nodes/**/*.json', 'credentials/**/*.json'];

export default [
	{
		ignores: [
			'dist/**',
			'build/**',
			'node_modules/**',
			'test/**',
			'harness/**',
			'bench/**',
			'emulator/**',
			'host/**',
			'scripts/**',
			'*.js',
			'*.mjs',
		],
	},
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		// JSON (package.json, the nodes' codex files) through the TypeScript parser, as n8n's
		// scanner reads it: a top-level object literal, which both plugins' package rules walk
		// (with a JSON parser's tree the community-nodes package rules find nothing to check).
		files: json,
		languageOptions: { parser: tsParser },
	},
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8n },
		rules: rules('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
		plugins: { 'n8n-nodes-base': n8n },
		rules: {
			...rules('credentials'),
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, sourceType: 'module' },
		plugins: { 'n8n-nodes-base': n8n },
		rules: rules('nodes'),
	},
	{
		// n8n's community-nodes rules: the published sources, their JSON and package.json.
		...n8nCommunityNodesPlugin.configs.recommended,
		files: [...published, ...json],
	},
	{
		// n8n's scanner adds this to the recommended rules.
		files: published,
		rules: {
			'no-console': 'error',
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '(^|/)(test|harness|bench|emulator|host)(/|$)',
							message:
								"test/, harness/, bench/, emulator/ and the host's modules in host/ are not part of the package",
						},
					],
				},
			],
		},
	},
];
