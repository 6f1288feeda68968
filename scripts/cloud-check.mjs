/**
 * n8n Cloud eligibility as n8n's own CLI (@n8n/node-cli) decides it, run by `npm run lint`
 * (and so by `npm test`, CI and `n8n-node release`):
 *   1. `n8n-node cloud-support` (the status) must say the package is "eligible for n8n Cloud
 *      verification": `"n8n": { "strict": true }` in package.json and eslint.config.mjs exactly
 *      n8n's config;
 *   2. `n8n-node lint` (n8n's config over every .ts of the repository, with the Cloud rules)
 *      must pass with no finding at all, warnings included;
 *   3. scripts/literal-lint.mjs: n8n's node and credential rules on the descriptions as n8n
 *      sees them (each node's built description written out as a literal class), no finding
 *      but the departures named in scripts/literal-lint.exceptions.mjs.
 * Fails (exit 1) with the tool's own output otherwise.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin', 'n8n-node');
// Plain text: no colour codes in what is matched below.
const env = { ...process.env, FORCE_COLOR: '0', CI: 'true' };

function run(command, args) {
	const r = spawnSync(command, args, {
		cwd: root,
		env,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	if (r.error) throw r.error;
	const output = `${r.stdout}${r.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
	return { status: r.status, output };
}

const failures = [];

const support = run(bin, ['cloud-support']);
if (
	support.status !== 0 ||
	!/Status: eligible for n8n Cloud verification/.test(support.output) ||
	/NOT eligible/.test(support.output)
) {
	failures.push(`n8n-node cloud-support does not report the package eligible:\n${support.output}`);
}

const lint = run(bin, ['lint']);
// eslint prints "✖ N problems (E errors, W warnings)" for any finding; n8n-node lint exits 0 on warnings.
if (lint.status !== 0 || /\d+ problems?\b/.test(lint.output)) {
	failures.push(`n8n-node lint is not clean (exit ${lint.status}):\n${lint.output}`);
}

// The descriptions are built by functions, so the rules above see none of them: lint them written out.
const literal = run(process.execPath, [path.join(root, 'scripts', 'literal-lint.mjs')]);
if (literal.status !== 0)
	failures.push(`n8n's lint on the literal descriptions is not clean:\n${literal.output}`);

if (failures.length) {
	console.error(failures.join('\n\n'));
	process.exit(1);
}
console.log('n8n Cloud: eligible (n8n-node cloud-support) and n8n-node lint clean');
console.log(literal.output.trim());
