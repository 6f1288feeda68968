/**
 * The canary of `npm run lint`'s literal-description lint (scripts/literal-lint.mjs): n8n's rules
 * see the built descriptions, so a fault there fails the lint. Each case lints a copy of the
 * package (package.json, nodes/, credentials/, node_modules linked) with one fault put in:
 * - an icon the node names but the package lacks (@n8n/community-nodes/icon-validation);
 * - a label that is not title case (n8n-nodes-base/node-param-display-name-miscased);
 * - in one copy, a fault for each of the checks written in scripts/literal-lint.mjs for n8n's rules
 *   that the installed @n8n/eslint-plugin-community-nodes lacks (HAND_WRITTEN_RULES), each found.
 * And the package as it is passes.
 */
import {
	cpSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	unlinkSync,
	writeFileSync,
} from '../../host/fs';
import { tmpdir } from '../../host/os';
import { join } from '../../host/path';
import { spawnSync } from '../../host/child_process';
import { process } from '../../host/globals';

const ROOT = join(module.path, '..', '..');
/** One lint run loads every node and lints eleven generated classes: some seconds, more on a busy machine. */
const LINT_TIME = 240_000;
const SCRIPT = join(ROOT, 'scripts', 'literal-lint.mjs');

function lint(root: string): { status: number | null; output: string } {
	const run = spawnSync(process.execPath, [SCRIPT, '--root', root], {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A copy of the package to put a fault in; removed after `use`. */
function withCopy(fault: (root: string) => void, use: (root: string) => void): void {
	const root = mkdtempSync(join(tmpdir(), 'n8n-nodes-vendor-canary-'));
	try {
		for (const part of ['package.json', 'nodes', 'credentials'])
			cpSync(join(ROOT, part), join(root, part), { recursive: true });
		symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
		fault(root);
		use(root);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

test(
	'the package as it is: clean',
	() => {
		const { status, output } = lint(ROOT);
		expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('clean') });
	},
	LINT_TIME,
);

test(
	'a missing icon fails the lint',
	() => {
		withCopy(
			(root) => unlinkSync(join(root, 'nodes', 'VendorBooks', 'vendorBooks.dark.svg')),
			(root) => {
				const { status, output } = lint(root);
				expect(status).toBe(1);
				expect(output).toMatch(
					/VendorBooks\.node\.ts:\d+ +@n8n\/community-nodes\/icon-validation +Icon file "vendorBooks\.dark\.svg" does not exist/,
				);
			},
		);
	},
	LINT_TIME,
);

test(
	'a miscased label fails the lint',
	() => {
		withCopy(
			(root) => {
				const file = join(root, 'nodes', 'shared', 'describe', 'operationForm.ts');
				const source = readFileSync(file, 'utf8');
				expect(source).toContain("displayName: 'Return All'");
				writeFileSync(
					file,
					source.replace("displayName: 'Return All'", "displayName: 'Return all'"),
				);
			},
			(root) => {
				const { status, output } = lint(root);
				expect(status).toBe(1);
				expect(output).toMatch(/n8n-nodes-base\/node-param-display-name-miscased/);
				expect(output).toContain("displayName: 'Return all'");
			},
		);
	},
	LINT_TIME,
);

/** One edit of a copied file: `from` must be in it (so a changed source fails here, not silently). */
function edit(root: string, file: string, from: string, to: string): void {
	const full = join(root, file);
	const source = readFileSync(full, 'utf8');
	expect(source).toContain(from);
	writeFileSync(full, source.replace(from, to));
}

test(
	"n8n's newer review rules, written here until the registry has them: each fault is found",
	() => {
		withCopy(
			(root) => {
				const describe = 'nodes/shared/describe/describe.ts';
				// options-sorted-alphabetically: the generator no longer sorts the top-level choices
				edit(
					root,
					'nodes/shared/describe/texts.ts',
					'.map(polishProperty).map(sortedChoices)',
					'.map(polishProperty)',
				);
				// hint-max-length: a hint of 130 characters
				edit(
					root,
					'nodes/shared/describe/operationForm.ts',
					"hint: 'The name of the output binary field to put the file in'",
					`hint: '${'A hint much too long. '.repeat(6)}Long'`,
				);
				// require-param-default: an operation's notice without its default
				edit(
					root,
					'nodes/shared/describe/operationForm.ts',
					"type: 'notice',\n\t\tdefault: '',\n",
					"type: 'notice',\n",
				);
				// non-required-fields-in-collection: the organisation no longer required, at the top
				edit(root, describe, '\trequired: true,\n};', '};');
				// open-ended-node-fields: Limit as an optional JSON field
				edit(
					root,
					'nodes/shared/describe/operationForm.ts',
					"name: 'limit',\n\t\t\ttype: 'number',",
					"name: 'limit',\n\t\t\ttype: 'json',",
				);
				// valid-codex-categories and valid-node-categories: a category n8n does not know
				edit(
					root,
					'nodes/VendorBooks/VendorBooks.node.json',
					'"Finance & Accounting", "Productivity"',
					'"Finance & Accounting", "Bananas"',
				);
				// require-mit-license
				edit(root, 'package.json', '"license": "MIT"', '"license": "ISC"');
				// no-hardcoded-ids, in the shared sources the node classes are built from
				edit(
					root,
					'nodes/shared/describe/texts.ts',
					'function sentenceCount',
					"export const partnerId = 'acme-partner';\n\nfunction sentenceCount",
				);
				// no-duplicate-param-options: a sort direction named twice
				edit(
					root,
					'nodes/shared/describe/fields.ts',
					"{ name: 'Descending', value: 'desc' }",
					"{ name: 'Ascending', value: 'desc' }",
				);
				// no-asterisk-in-option-names
				edit(
					root,
					'nodes/shared/describe/operationForm.ts',
					"{ name: 'None', value: '' },",
					"{ name: '* None', value: '' },",
				);
				// node-class-description-non-core-color: n8n's own colour
				edit(
					root,
					describe,
					'defaults: { name: area.name },',
					"defaults: { name: area.name, color: '#FF6D5A' },",
				);
				// single-credential-per-node: two credentials at once
				edit(
					root,
					describe,
					"credentials: [{ name: 'vendorOAuth2Api', required: true }],",
					"credentials: [{ name: 'vendorOAuth2Api', required: true }, { name: 'senderProfileApi', required: true }],",
				);
				// node-class-description-name-camelcase and node-filename-against-convention
				edit(
					root,
					'nodes/VendorInventory/VendorInventory.node.ts',
					"name: 'vendorInventory',",
					"name: 'vendor-inventory',",
				);
				// cred-class-name-field-conventions: a credential name that is not an identifier ending in Api
				edit(
					root,
					'credentials/VendorOAuth2Api.credentials.ts',
					"name = 'vendorOAuth2Api';",
					"name = 'VendorOAuth2';",
				);
				// no-ai-codex-category, no-codex-subcategories, no-logic-or-flow-nodes
				edit(
					root,
					'nodes/VendorBilling/VendorBilling.node.json',
					'"categories": ["Finance & Accounting", "Productivity"],',
					'"categories": ["AI", "Finance & Accounting"],\n\t"subcategories": { "Core Nodes": ["Flow"] },',
				);
				// no-monorepo and require-community-node-keyword
				edit(
					root,
					'package.json',
					'n8n-nodes-vendor.git"',
					'n8n-nodes-vendor.git",\n    "directory": "packages/vendor"',
				);
				edit(root, 'package.json', '"n8n-community-node-package",', '');
				// icon-contrast: a dark icon drawn in the dark theme's own background colour
				writeFileSync(
					join(root, 'nodes', 'VendorBooks', 'vendorBooks.dark.svg'),
					'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 60"><rect width="60" height="60" fill="#2b2b2b"/></svg>',
				);
			},
			(root) => {
				const { status, output } = lint(root);
				expect(status).toBe(1);
				for (const finding of [
					/VendorBooks\.node\.ts:\d+ +@n8n\/community-nodes\/options-sorted-alphabetically +Options in "Attach to Email" are not sorted alphabetically/,
					/@n8n\/community-nodes\/hint-max-length +The "hint" of "binaryPropertyName" is \d+ characters long/,
					/@n8n\/community-nodes\/require-param-default +Node parameter '\w+Notice' is missing a `default` value/,
					/@n8n\/community-nodes\/non-required-fields-in-collection +"organizationId" is not required/,
					/@n8n\/community-nodes\/open-ended-node-fields +Optional JSON field "limit"/,
					/VendorBooks\.node\.json:\d+ +@n8n\/community-nodes\/valid-codex-categories +Codex category "Bananas"/,
					/VendorBooks\.node\.json:\d+ +@n8n\/community-nodes\/valid-node-categories +"Bananas" is not a supported community node category/,
					/package\.json:\d+ +@n8n\/community-nodes\/require-mit-license/,
					/nodes\/shared\/describe\/texts\.ts:\d+ +@n8n\/community-nodes\/no-hardcoded-ids +Hardcoded `partnerId`/,
					/@n8n\/community-nodes\/no-duplicate-param-options +"Direction" has the option name "Ascending" more than once/,
					/@n8n\/community-nodes\/no-asterisk-in-option-names +Option name "\* None" contains "\*"/,
					/@n8n\/community-nodes\/node-class-description-non-core-color +#FF6D5A is n8n's core node colour/,
					/@n8n\/community-nodes\/single-credential-per-node +The node can use several credentials at once/,
					/VendorInventory\.node\.ts:\d+ +@n8n\/community-nodes\/node-class-description-name-camelcase +Node name "vendor-inventory" must be camelCase/,
					/VendorInventory\.node\.ts:\d+ +@n8n\/community-nodes\/node-filename-against-convention +The file of node "vendor-inventory" must be named Vendor-inventory\.node\.ts/,
					/VendorOAuth2Api\.credentials\.ts:\d+ +@n8n\/community-nodes\/cred-class-name-field-conventions +Credential name "VendorOAuth2" must end with "Api"/,
					/VendorOAuth2Api\.credentials\.ts:\d+ +@n8n\/community-nodes\/cred-class-name-field-conventions +Credential name "VendorOAuth2" must start with a lowercase letter/,
					/VendorBilling\.node\.json:\d+ +@n8n\/community-nodes\/no-ai-codex-category/,
					/VendorBilling\.node\.json:\d+ +@n8n\/community-nodes\/no-codex-subcategories/,
					/VendorBilling\.node\.json:\d+ +@n8n\/community-nodes\/no-logic-or-flow-nodes +Community nodes may not be "Flow" nodes/,
					/package\.json:\d+ +@n8n\/community-nodes\/no-monorepo/,
					/package\.json:\d+ +@n8n\/community-nodes\/require-community-node-keyword/,
					/VendorBooks\.node\.ts:\d+ +@n8n\/community-nodes\/icon-contrast +Icon "vendorBooks\.dark\.svg" has a contrast of 1\.00:1 on the dark background/,
				]) {
					expect(output).toMatch(finding);
				}
			},
		);
	},
	LINT_TIME,
);
