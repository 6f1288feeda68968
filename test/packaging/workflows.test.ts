/**
 * The GitHub workflows as GitHub reads them (parsed YAML, not text): publish.yml publishes a
 * pushed version tag the way n8n requires (provenance through the OIDC token, trusted
 * publishing with a token fallback, `n8n-node release`) after everything CI runs, and ci.yml
 * runs what .ci/run runs on every pull request. The tag check is run as the workflow runs it.
 */
import { parse } from 'yaml';

import { spawnSync } from '../../host/child_process';
import { readFileSync } from '../../host/fs';
import { join } from '../../host/path';
import { process } from '../../host/globals';

const ROOT = join(module.path, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
	scripts: Record<string, string>;
	publishConfig?: Record<string, unknown>;
};

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<
		string,
		{
			permissions?: Record<string, string>;
			strategy?: { matrix?: Record<string, unknown> };
			steps: Step[];
		}
	>;
}

const workflow = (name: string): Workflow =>
	parse(readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
const onlyJob = (w: Workflow) => {
	expect(Object.keys(w.jobs)).toHaveLength(1);
	return Object.values(w.jobs)[0];
};
const indexOf = (steps: Step[], test: (s: Step) => boolean): number => {
	const i = steps.findIndex(test);
	expect(i).toBeGreaterThanOrEqual(0);
	return i;
};
const runs = (command: RegExp) => (s: Step) => command.test(s.run ?? '');

describe('publish.yml', () => {
	const w = workflow('publish.yml');
	const job = onlyJob(w);
	const steps = job.steps;

	test('runs on a pushed version tag (v1.2.3), and on nothing else', () => {
		expect(Object.keys(w.on)).toEqual(['push']);
		expect(w.on.push).toEqual({ tags: ['v*.*.*'] });
	});

	test('may mint the OIDC token (provenance, trusted publishing) and only read the repository', () => {
		expect({ ...w.permissions, ...job.permissions }).toEqual({
			'id-token': 'write',
			contents: 'read',
		});
	});

	test('Node 20 with npm 11 (trusted publishing needs npm >= 11.5.1), then npm ci, npm test, and only then the release', () => {
		const node = indexOf(steps, (s) => s.uses?.startsWith('actions/setup-node@') ?? false);
		expect(steps[node].with?.['node-version']).toBe(20);
		const npm11 = indexOf(steps, runs(/^npm install -g npm@11\.\d+\.\d+$/));
		const install = indexOf(steps, runs(/^npm ci\b/));
		const test = indexOf(steps, runs(/^npm test$/));
		const release = indexOf(steps, runs(/^npm run release$/m));
		expect(indexOf(steps, (s) => s.uses?.startsWith('actions/checkout@') ?? false)).toBe(0);
		expect([node, npm11, install, test, release]).toEqual(
			[...[node, npm11, install, test, release]].sort((a, b) => a - b),
		);
		expect(release).toBe(steps.length - 1);
	});

	test("the release is n8n's: `npm run release` is `n8n-node release` (lint, build, npm publish), with provenance, the NPM_TOKEN secret only as a fallback", () => {
		expect(pkg.scripts.release).toMatch(/ && n8n-node release$/);
		const release = steps[steps.length - 1];
		expect(release.env).toEqual({
			NPM_TOKEN: '${{ secrets.NPM_TOKEN }}',
			NPM_CONFIG_PROVENANCE: 'true',
		});
		expect(release.run).toMatch(
			/^if \[ -n "\$NPM_TOKEN" \]; then npm config set \/\/registry\.npmjs\.org\/:_authToken "\$NPM_TOKEN"; fi$/m,
		);
		expect(steps.some((s) => /npm publish/.test(s.run ?? ''))).toBe(false);
	});

	test("the tag check accepts the tag of package.json's version and refuses any other, before anything is installed", () => {
		const check = indexOf(steps, runs(/GITHUB_REF_NAME/));
		expect(check).toBeLessThan(indexOf(steps, runs(/^npm ci\b/)));
		const run = (tag: string) =>
			spawnSync('bash', ['-e', '-c', steps[check].run!], {
				cwd: ROOT,
				env: { ...process.env, GITHUB_REF_NAME: tag },
			}).status;
		expect(run(`v${pkg.version}`)).toBe(0);
		expect(run(pkg.version)).not.toBe(0);
		expect(run(`v${pkg.version}.1`)).not.toBe(0);
		expect(run('v9.9.9')).not.toBe(0);
	});
});

describe('publishing outside the release workflow', () => {
	const [guard] = pkg.scripts.release.split(' && n8n-node release');
	/** The guard of `npm run release` alone (never `n8n-node release` itself), with GITHUB_ACTIONS as given. */
	const runGuard = (githubActions: string | undefined) => {
		const env = { ...process.env };
		delete env.GITHUB_ACTIONS;
		if (githubActions !== undefined) env.GITHUB_ACTIONS = githubActions;
		return spawnSync('bash', ['-c', guard], { cwd: ROOT, env, encoding: 'utf8' });
	};

	test('`npm run release` outside GitHub Actions stops before n8n-node release, saying where releases happen', () => {
		const outside = runGuard(undefined);
		expect(outside.status).toBe(1);
		expect(outside.stderr).toMatch(/GitHub Actions only/);
		expect(outside.stderr).toMatch(
			/npm version patch \(or minor, major\) && git push --follow-tags/,
		);
		expect(runGuard('true').status).toBe(0);
	});

	test("`npm publish` runs n8n's guard (n8n-node prerelease) although .npmrc turns install scripts off, and refuses outside `n8n-node release`", () => {
		expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^ignore-scripts=true$/m);
		expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).not.toMatch(/^yes=/m);
		expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
		// npm skips prepublishOnly under ignore-scripts; publishConfig turns scripts back on for the pack step of a publish
		expect(pkg.scripts.prepack).toBe('n8n-node prerelease');
		expect(pkg.publishConfig).toEqual({ 'ignore-scripts': false });
		const env: Record<string, string | undefined> = {};
		for (const [key, value] of Object.entries(process.env))
			if (!/^(npm_|RELEASE_MODE$|GITHUB_ACTIONS$)/i.test(key)) env[key] = value;
		const publish = spawnSync(
			process.platform === 'win32' ? 'npm.cmd' : 'npm',
			['publish', '--dry-run'],
			{
				cwd: ROOT,
				env: { ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
				encoding: 'utf8',
			},
		);
		expect(publish.status).not.toBe(0);
		expect(`${publish.stdout}${publish.stderr}`).toMatch(
			/Run `npm run release` to publish the package/,
		);
	}, 60_000);
});

describe('ci.yml', () => {
	const w = workflow('ci.yml');
	const ciJob = onlyJob(w);
	const steps = ciJob.steps;

	test('runs on every pull request and every push to main', () => {
		expect(w.on).toEqual({ pull_request: null, push: { branches: ['main'] } });
	});

	test('runs what .ci/run runs, on Node 20, 22 and 24 with the npm each ships: npm ci, npm test', () => {
		const node = indexOf(steps, (s) => s.uses?.startsWith('actions/setup-node@') ?? false);
		expect(steps[node].with?.['node-version']).toBe('${{ matrix.node-version }}');
		expect(ciJob.strategy?.matrix?.['node-version']).toEqual([20, 22, 24]);
		expect(steps.some(runs(/npm install -g npm/))).toBe(false);
		const install = indexOf(steps, runs(/^npm ci\b/));
		const test = indexOf(steps, runs(/^npm test$/));
		expect(node).toBeLessThan(install);
		expect(install).toBeLessThan(test);
		const ciRun = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		expect(ciRun).toMatch(/^npm ci --no-audit --no-fund$/m);
		expect(ciRun).toMatch(/^npm test$/m);
		// the lock file is checked with the npm of Node 22 and 24 too, by npm ci's own check (--dry-run)
		expect(ciRun).toMatch(/^for version in 10\.9\.\d+ 11\.\d+\.\d+; do$/m);
		expect(ciRun).toMatch(/npx --yes "npm@\$version" ci --dry-run /);
		expect(ciRun).toMatch(/^NPM_10_8=10\.8\.\d+ /m);
	});
});
