/**
 * The options of `npm run check:n8n` and `npm run demo:editor`: --n8n <version>, --fresh, --keep,
 * --skip-build and the REAL_N8N_* environment, and where the per-version n8n install goes
 * (<REAL_N8N_DIR or <project>/.real-n8n>/<version>). Part of the session of n8n-session.js.
 */
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
/** The newest n8n that installs whole from the registry (verified 2026-11-27; 2.41.3 lacks its n8n-core 2.41.2). */
const DEFAULT_N8N_VERSION = '2.41.1';
const PACKAGE = require(path.join(ROOT, 'package.json'));

function fatal(command, message) {
	console.error(`${command}: ${message}`);
	process.exit(2);
}

/**
 * The command line: `flags` (e.g. --keep) and options with a value (`--n8n <version>` or
 * `--n8n=<version>`), then what both scripts derive from them and the REAL_N8N_* environment.
 */
function parseOptions(argv, { command, usage, flags = [], values = [] }) {
	const fail = (message) => fatal(command, `${message}\n${usage}`);
	const given = new Set();
	const value = {};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const option = values.find((v) => a === v || a.startsWith(`${v}=`));
		if (option) {
			const key = option.slice(2);
			value[key] = a === option ? argv[++i] : a.slice(option.length + 1);
			if (!value[key]) fail(`${option} needs a value`);
		} else if (flags.includes(a)) given.add(a);
		else fail(`unknown option ${a}`);
	}
	/** The n8n release: --n8n, else REAL_N8N_VERSION, else DEFAULT_N8N_VERSION. */
	const version = value.n8n || process.env.REAL_N8N_VERSION || DEFAULT_N8N_VERSION;
	if (!/^\d+\.\d+\.\d+$/.test(version))
		fail(`the n8n version must be exact (x.y.z), got "${version}"`);
	/** One install per n8n version: <REAL_N8N_DIR or <project>/.real-n8n>/<version>. */
	const cacheParent = path.resolve(process.env.REAL_N8N_DIR || path.join(ROOT, '.real-n8n'));
	return {
		flags: given,
		value,
		fail,
		version,
		versionFrom: value.n8n
			? '--n8n'
			: process.env.REAL_N8N_VERSION
				? 'REAL_N8N_VERSION'
				: 'the default',
		cacheParent,
		cache: path.join(cacheParent, version),
		fresh: given.has('--fresh') || process.env.REAL_N8N_FRESH === '1',
		keep: given.has('--keep') || process.env.REAL_N8N_KEEP === '1',
		skipBuild: given.has('--skip-build'),
	};
}

module.exports = { ROOT, DEFAULT_N8N_VERSION, PACKAGE, parseOptions };
