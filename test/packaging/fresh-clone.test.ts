/**
 * The tests read only the repository: a clone of its own, a fork or CI has no API
 * reference beside it (../shared/api). The repository's files (`git ls-files`, what a clone
 * holds, plus files not yet committed and not ignored) are copied into a folder of the
 * system's temporary folder with nothing beside it, with this checkout's node_modules linked
 * in (what `npm ci` gives a clone). There jest finds every suite, and every suite that checks
 * sources (the ones comparing them with the reference among them) passes: their structural checks run, the comparison is
 * skipped and the summary says so in one line.
 * Run: npx jest test/packaging/fresh-clone
 */
import { execFileSync, spawnSync } from '../../host/child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	rmSync,
	symlinkSync,
} from '../../host/fs';
import { process } from '../../host/globals';
import { tmpdir } from '../../host/os';
import { dirname, join, relative } from '../../host/path';

const ROOT = join(module.path, '..', '..');
/** One folder per checkout, the same on every run (so jest's transform cache stays warm); removed at the end. */
const PARENT = join(
	tmpdir(),
	`n8n-nodes-vendor-fresh-clone-${ROOT.replace(/[^a-z0-9]+/gi, '-').slice(-40)}`,
);
const CLONE = join(PARENT, 'n8n-nodes-vendor');
/** Every suite that checks sources (it imports test/tools/doc-sources.ts): the class, not two named files. */
const suitesWith = (words: string): string[] =>
	execFileSync('git', ['grep', '-l', '--untracked', words, '--', 'test/*.test.ts'], {
		cwd: ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter((f) => f && f !== 'test/packaging/fresh-clone.test.ts')
		.sort();
const REFERENCE_SUITES = suitesWith("from '../tools/doc-sources'");
/** Those with checks that need the documents themselves (describeWithReference): the skipped line names them. */
const SKIPPING_SUITES = suitesWith('describeWithReference(');

/** The repository's files: tracked, and new ones git does not ignore. */
function repositoryFiles(): string[] {
	const out = execFileSync(
		'git',
		['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	return out.split('\0').filter((f) => f && existsSync(join(ROOT, f)));
}

/** Runs this checkout's jest in the clone; its exit status and output. */
function jestInClone(args: string[]): { status: number | null; output: string } {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !k.startsWith('JEST_') && k !== 'VENDOR_TEST_FAST'),
	);
	const r = spawnSync(
		process.execPath,
		[join(CLONE, 'node_modules', 'jest', 'bin', 'jest.js'), ...args],
		{ cwd: CLONE, env, encoding: 'utf8', timeout: 240_000 },
	);
	return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
	rmSync(PARENT, { recursive: true, force: true });
	for (const file of repositoryFiles()) {
		mkdirSync(dirname(join(CLONE, file)), { recursive: true });
		copyFileSync(join(ROOT, file), join(CLONE, file));
	}
	symlinkSync(join(ROOT, 'node_modules'), join(CLONE, 'node_modules'), 'dir');
});

afterAll(() => rmSync(PARENT, { recursive: true, force: true }));

describe('a clone with nothing beside it', () => {
	test('has no API reference beside it, and the copy holds what the suites read', () => {
		expect(readdirSync(PARENT)).toEqual(['n8n-nodes-vendor']);
		expect(existsSync(join(CLONE, '..', 'shared', 'api'))).toBe(false);
		for (const f of [
			'jest.config.js',
			'docs/ASSUMPTIONS.md',
			'test/tools/doc-sources.ts',
			...REFERENCE_SUITES,
		])
			expect([f, existsSync(join(CLONE, f))]).toEqual([f, true]);
	});

	test("jest's file discovery finds every suite of the repository there", () => {
		const { status, output } = jestInClone(['--listTests']);
		expect(status).toBe(0);
		const inClone = output
			.split('\n')
			.filter(Boolean)
			.map((f) => relative(CLONE, f))
			.sort();
		expect(inClone).toEqual(expect.arrayContaining(REFERENCE_SUITES));
		expect(inClone).toEqual(
			repositoryFiles()
				.filter((f) => /^test\/.*\.test\.ts$/.test(f))
				.sort(),
		);
	});

	test('the suites that compare sources with the API reference pass there, and one line says what was skipped', () => {
		const { status, output } = jestInClone([...REFERENCE_SUITES, '--ci', '--maxWorkers=1']);
		expect([status, output.slice(-3000)]).toEqual([0, expect.stringContaining('0 failed')]);
		const lines = output
			.split('\n')
			.filter((l) => l.includes('API reference, which is not beside the repository'));
		expect(lines).toEqual([
			`skipped: ${lines[0]?.match(/skipped: (\d+)/)?.[1]} checks comparing sources with the API reference, which is not beside the repository (../shared/api): ${SKIPPING_SUITES.join(', ')}`,
		]);
		expect(Number(lines[0].match(/skipped: (\d+)/)?.[1])).toBeGreaterThanOrEqual(5);
		expect(output).not.toMatch(/ENOENT/);
	});
});
