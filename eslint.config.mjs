/**
 * Lint of the published sources (nodes/, credentials/) and package.json, with both of n8n's
 * rule sets:
 * - eslint-plugin-n8n-nodes-base's community, credentials and nodes rule sets (written for
 *   the legacy config format, applied here as flat config blocks);
 * - @n8n/eslint-plugin-community-nodes' `recommended` config (what `n8n-node lint` and n8n's
 *   package scanner run).
 * Inline `eslint-disable` comments are not honoured (n8n's scanner ignores them too), so
 * every finding has to be fixed in the code.
 */
import n8n from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';

const rules = (name) => n8n.configs[name].rules;
const published = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const json = ['package.json', 'nodes/**/*.json', 'credentials/**/*.json'];

export default [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'test/**', 'bench/**', 'scripts/**', '*.js', '*.mjs'] },
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
		rules: { ...rules('credentials'), 'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off' },
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
		rules: { 'no-console': 'error' },
	},
];
