/**
 * Install: the n8n release with its Node 24 runtime (install-n8n.sh, one cache folder per
 * version, reused when present), and this package the way n8n installs a community package:
 * built, `npm pack`ed, the tarball extracted into <user folder>/.n8n/nodes/node_modules/<name>,
 * its dev / peer / optional dependencies dropped and `npm install` run inside it. Each is a
 * `step` of the session of n8n-session.js.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

const { ROOT, PACKAGE, DEFAULT_N8N_VERSION } = require('./options');
const { step, check } = require('./steps');

function run(cmd, argv, opts = {}) {
	const r = spawnSync(cmd, argv, {
		cwd: ROOT,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		...opts,
	});
	if (r.status !== 0) {
		throw new Error(
			`${cmd} ${argv.join(' ')} exited with ${r.status ?? r.signal}\n${(r.stdout || '').slice(-3000)}${(r.stderr || '').slice(-3000)}`,
		);
	}
	return r.stdout;
}

/** Whether `cache` holds a complete install of `version` (install-n8n.sh's marker). */
const installed = (cache, version) => fs.existsSync(path.join(cache, `.installed-n8n-${version}`));

/** What npm's log says the registry lacks (`<name>@<version>`), if it says so. */
function missingPackage(log) {
	const m =
		/No matching version found for (\S+?)\.?$/m.exec(log) ||
		/'([^']+)' is not in this registry/.exec(log) ||
		/404 Not Found - GET \S+\/([^/\s]+) /.exec(log);
	return m ? decodeURIComponent(m[1]) : undefined;
}

/**
 * After a failed install: what npm said is missing, and the incomplete install folder removed
 * (and the default parent .real-n8n, if that is left empty). Throws the step's failure.
 */
function failedInstall(s, status) {
	const logFile = path.join(s.cache, 'install.log');
	const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
	const code = (/^npm error code (\S+)/m.exec(log) || [])[1];
	const lacks = missingPackage(log);
	let removed = '';
	if (!installed(s.cache, s.version)) {
		fs.rmSync(s.cache, { recursive: true, force: true });
		const parent = path.dirname(s.cache);
		if (parent === path.join(ROOT, '.real-n8n') && fs.readdirSync(parent).length === 0)
			fs.rmdirSync(parent);
		removed = `; removed what it left (${s.cacheLabel})`;
	}
	const why = lacks
		? `the registry has no ${lacks} (npm ${code || 'error'}), which n8n ${s.version} needs`
		: `install-n8n.sh exited with ${status}`;
	const hint =
		s.version === DEFAULT_N8N_VERSION
			? ''
			: `. The newest release that installs from the registry here is ${DEFAULT_N8N_VERSION} (the default: run without --n8n)`;
	throw Object.assign(new Error(`n8n ${s.version} cannot be installed: ${why}${removed}${hint}`), {
		n8nLog: false,
	});
}

function installStep(s) {
	return step(
		`n8n ${s.version} with Node 24 in ${s.cacheLabel}${s.fresh ? ' (fresh install)' : ''}`,
		async () => {
			const r = spawnSync(
				'bash',
				[
					path.join(__dirname, 'install-n8n.sh'),
					s.cache,
					s.version,
					...(s.fresh ? ['--fresh'] : []),
				],
				{ stdio: 'inherit' },
			);
			if (r.status !== 0) failedInstall(s, r.status ?? r.signal);
			const n8nPackage = path.join(s.cache, 'node_modules', 'n8n', 'package.json');
			const n8nJson = JSON.parse(fs.readFileSync(n8nPackage, 'utf8'));
			check(
				n8nJson.version === s.version,
				`n8n ${n8nJson.version} installed, expected ${s.version}`,
			);
			// n8n's own module resolution: the n8n-core, n8n-workflow and zod a community package gets
			const release = s.release;
			release.require = createRequire(n8nPackage);
			const versionOf = (name) =>
				JSON.parse(fs.readFileSync(release.require.resolve(`${name}/package.json`), 'utf8'))
					.version;
			release.core = versionOf('n8n-core');
			release.workflow = versionOf('n8n-workflow');
			const nodeVersion = run(path.join(s.nodeBin, 'node'), ['--version']).trim();
			const engines = (n8nJson.engines && n8nJson.engines.node) || '*';
			check(
				release.require('semver').satisfies(nodeVersion, engines),
				`n8n ${s.version} needs Node ${engines}; the install brings ${nodeVersion}`,
			);
			const wf = release.require('n8n-workflow');
			const has = (name) => (typeof wf[name] === 'function' ? 'yes' : 'no');
			return [
				`n8n ${n8nJson.version} (n8n-core ${release.core}, n8n-workflow ${release.workflow}: sleepWithAbort ${has('sleepWithAbort')}, sleep ${has('sleep')}); node ${nodeVersion} (n8n needs ${engines})`,
			];
		},
	);
}

function buildStep(s) {
	return step(
		'build the package and the emulator (npm run build, npm run build:tools)',
		async () => {
			if (s.skipBuild) return ['skipped (--skip-build)'];
			run('npm', ['run', 'build']);
			run('npm', ['run', 'build:tools']);
			return undefined;
		},
	);
}

function packStep(s) {
	const nodesDir = path.join(s.userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE.name);
	return step(
		`npm pack, and install the tarball n8n's way into <user folder>/.n8n/nodes`,
		async () => {
			const packOut = JSON.parse(
				run('npm', ['pack', '--json', '--pack-destination', s.userFolder]),
			);
			const tarball = path.join(s.userFolder, packOut[0].filename);
			const files = packOut[0].files.map((f) => f.path);
			check(
				!files.some((f) => /(^|\/)(test|build|bench)\//.test(f)),
				`the tarball holds test/build files: ${files.filter((f) => /test|build|bench/.test(f)).join(', ')}`,
			);
			fs.mkdirSync(pkgDir, { recursive: true });
			// n8n: npm pack into nodes/, extract into nodes/node_modules/<package>
			run('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
			const pj = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
			const dropped = ['devDependencies', 'peerDependencies', 'optionalDependencies'].filter(
				(k) => k in pj,
			);
			for (const k of dropped) delete pj[k];
			fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(pj, null, 2));
			// n8n's install inside the package folder (npm run by Node 24, as under n8n)
			run(
				'npm',
				[
					'install',
					'--audit=false',
					'--fund=false',
					'--bin-links=false',
					'--install-strategy=shallow',
					'--ignore-scripts=true',
					'--package-lock=false',
				],
				{
					cwd: pkgDir,
					env: { ...process.env, PATH: `${s.nodeBin}:${process.env.PATH}` },
				},
			);
			const installed = fs.existsSync(path.join(pkgDir, 'node_modules'))
				? fs.readdirSync(path.join(pkgDir, 'node_modules')).filter((d) => !d.startsWith('.'))
				: [];
			check(
				installed.length === 0,
				`npm install put dependencies into the package: ${installed.join(', ')}`,
			);
			fs.writeFileSync(
				path.join(nodesDir, 'package.json'),
				JSON.stringify(
					{
						name: 'installed-nodes',
						private: true,
						dependencies: { [PACKAGE.name]: PACKAGE.version },
					},
					null,
					2,
				),
			);
			return [
				`${packOut[0].filename}: ${files.length} files, ${(packOut[0].size / 1024).toFixed(0)} kB; dropped ${dropped.join(', ') || 'nothing'}; no dependencies installed`,
			];
		},
	);
}

/** The emulator with demo data; n8n's port decides the redirect URI its demo client accepts. */
module.exports = { installStep, buildStep, packStep, installed, missingPackage };
