/**
 * The canary of `npm run lint`'s literal-description lint (scripts/literal-lint.mjs): n8n's rules
 * see the built descriptions, so a fault there fails the lint. Each case lints a copy of the
 * package (package.json, nodes/, credentials/, node_modules linked) with one fault put in:
 * - an icon the node names but the package lacks (@n8n/community-nodes/icon-validation);
 * - a label that is not title case (n8n-nodes-base/node-param-display-name-miscased).
 * And the package as it is passes.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from '../host/fs';
import { tmpdir } from '../host/os';
import { join } from '../host/path';
import { spawnSync } from '../host/child_process';
import { process } from '../host/globals';

const ROOT = join(module.path, '..', '..');
/** One lint run loads every node and lints eleven generated classes: some seconds, more on a busy machine. */
const LINT_TIME = 240_000;
const SCRIPT = join(ROOT, 'scripts', 'literal-lint.mjs');

function lint(root: string): { status: number | null; output: string } {
	const run = spawnSync(process.execPath, [SCRIPT, '--root', root], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A copy of the package to put a fault in; removed after `use`. */
function withCopy(fault: (root: string) => void, use: (root: string) => void): void {
	const root = mkdtempSync(join(tmpdir(), 'n8n-nodes-vendor-canary-'));
	try {
		for (const part of ['package.json', 'nodes', 'credentials']) cpSync(join(ROOT, part), join(root, part), { recursive: true });
		symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
		fault(root);
		use(root);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

test('the package as it is: clean', () => {
	const { status, output } = lint(ROOT);
	expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('clean') });
}, LINT_TIME);

test('a missing icon fails the lint', () => {
	withCopy(
		(root) => unlinkSync(join(root, 'nodes', 'VendorBooks', 'vendorBooks.dark.svg')),
		(root) => {
			const { status, output } = lint(root);
			expect(status).toBe(1);
			expect(output).toMatch(/VendorBooks\.node\.ts:\d+ +@n8n\/community-nodes\/icon-validation +Icon file "vendorBooks\.dark\.svg" does not exist/);
		},
	);
}, LINT_TIME);

test('a miscased label fails the lint', () => {
	withCopy(
		(root) => {
			const file = join(root, 'nodes', 'shared', 'describe', 'describe.ts');
			const source = readFileSync(file, 'utf8');
			expect(source).toContain("displayName: 'Return All'");
			writeFileSync(file, source.replace("displayName: 'Return All'", "displayName: 'Return all'"));
		},
		(root) => {
			const { status, output } = lint(root);
			expect(status).toBe(1);
			expect(output).toMatch(/n8n-nodes-base\/node-param-display-name-miscased/);
			expect(output).toContain("displayName: 'Return all'");
		},
	);
}, LINT_TIME);
