/**
 * n8n's package scanner (@n8n/scan-community-package), run on this checkout instead of the
 * registry. Before verifying a package n8n checks its npm provenance, then lints two things
 * with the scanner's own ESLint set-up (@n8n/eslint-plugin-community-nodes' recommended
 * rules, eslint-plugin-n8n-nodes-base's community/credentials/nodes rules, `no-console`,
 * inline eslint-disable comments ignored):
 *   - the source leg: the attested source checkout's package.json and nodes/ + credentials/;
 *   - the tarball leg: the published tarball's compiled *.js and its package.json.
 * This script runs both legs with the scanner's own `analyzePackage`: the source leg on this
 * working tree, the tarball leg on what `npm pack` makes of it (run `npm run build` first:
 * `npm run scan` does). The provenance check needs a published version and is not run.
 * No network: everything is local.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-scan-'));
// The scanner makes a temporary folder when it is loaded: keep it inside ours.
process.env.TMPDIR = work;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	'@n8n/scan-community-package/scanner/scanner.mjs'
);

const legs = [];
try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	)[0];
	const packageDir = path.join(work, 'package');
	fs.mkdirSync(packageDir);
	execFileSync('tar', [
		'-xzf',
		path.join(work, packed.filename),
		'-C',
		packageDir,
		'--strip-components=1',
	]);
	const jsFiles = packed.files.filter((f) => f.path.endsWith('.js')).length;

	legs.push({
		name: `source leg (${SOURCE_FILE_PATTERNS.join(', ')} of this checkout)`,
		result: await analyzePackage(root, SOURCE_FILE_PATTERNS),
	});
	legs.push({
		name: `tarball leg (${packed.filename}: ${jsFiles} .js files and package.json)`,
		result: await analyzePackage(packageDir, ['**/*.js', 'package.json']),
	});
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}

let failed = false;
for (const { name, result } of legs) {
	console.log(
		`${result.passed ? 'passed' : 'FAILED'}: ${name}${result.message ? ` - ${result.message}` : ''}`,
	);
	if (result.details) console.log(result.details);
	failed ||= !result.passed;
}
process.exit(failed ? 1 : 0);
