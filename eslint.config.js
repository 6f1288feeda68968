/**
 * Lint: eslint-plugin-n8n-nodes-base's community, credentials and nodes rule sets
 * (written for the legacy config format, applied here as flat config blocks).
 */
const n8n = require('eslint-plugin-n8n-nodes-base');
const tsParser = require('@typescript-eslint/parser');
const jsonParser = require('jsonc-eslint-parser');

const rules = (name) => n8n.configs[name].rules;

module.exports = [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', '*.js'] },
	{
		files: ['package.json'],
		languageOptions: { parser: jsonParser },
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
		// Field tables are data, not node parameters: a resource's `listOperation: 'getAll'`
		// is not an option named "Get Many".
		files: ['nodes/*/spec/**/*.ts'],
		rules: { 'n8n-nodes-base/node-param-option-name-wrong-for-get-many': 'off' },
	},
];
