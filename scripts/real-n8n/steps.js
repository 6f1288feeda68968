/**
 * How the real-n8n scripts report: every stage is a `step` that prints its title, then one PASS
 * (with details) or FAIL (with the reason) line; `check` fails a step. Nothing secret leaves
 * them: the emulator's client secret (CLIENT, set when the emulator starts) and token-shaped
 * values are masked in what they print. Part of the session of n8n-session.js.
 */
'use strict';

const fs = require('node:fs');

/** The emulator's default (demo) client, as `npm run demo` offers it; set when the emulator starts. */
const CLIENT = { clientId: '', clientSecret: '\u0000' };

let stepNo = 0;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one step: prints its title, then PASS (with details) or FAIL (with the reason). */
async function step(title, fn) {
	stepNo += 1;
	const label = `[${String(stepNo).padStart(2)}] ${title}`;
	console.log(`${label} ...`);
	const t0 = Date.now();
	try {
		const details = await fn();
		console.log(`PASS ${label} (${secs(Date.now() - t0)})`);
		for (const line of [].concat(details ?? [])) console.log(`       ${line}`);
		return details;
	} catch (error) {
		console.log(`FAIL ${label} (${secs(Date.now() - t0)})`);
		console.log(
			`       ${redact(String(error && error.stack ? error.message : error))
				.split('\n')
				.join('\n       ')}`,
		);
		throw new Reported(error);
	}
}
/** A failure a step has printed; `n8nLog` false when n8n's log would not explain it (set on the step's error). */
class Reported extends Error {
	constructor(cause) {
		super('reported');
		this.n8nLog = !(cause && cause.n8nLog === false);
	}
}
const stepsRun = () => stepNo;

function check(condition, message) {
	if (!condition) throw new Error(message);
}

/** Nothing secret leaves these scripts: the client secret and any token-shaped values are masked. */
function redact(text) {
	return text
		.split(CLIENT.clientSecret)
		.join('<client secret>')
		.replace(
			/("?(?:access_token|refresh_token|client_secret)"?\s*[:=]\s*"?)[^"&\s,}]+/g,
			'$1<redacted>',
		)
		.replace(/([?&]code=)[^&\s"]+/g, '$1<redacted>');
}

function redactObj(body) {
	if (!body || typeof body !== 'object') return body;
	const out = { ...body };
	for (const k of ['client_secret', 'code', 'refresh_token', 'access_token'])
		if (k in out) out[k] = '<redacted>';
	return out;
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/**
 * After a failure: the reason of an unexpected error (a failed step printed its own) and the end
 * of n8n's log, unless the failing step said that n8n's log does not explain it (no browser, an
 * n8n release that cannot be installed).
 */
function reportFailure(s, error) {
	if (!(error instanceof Reported))
		console.log(`FAIL unexpected: ${redact(String(error && error.stack ? error.stack : error))}`);
	if (s.logFile && !(error instanceof Reported && !error.n8nLog))
		console.log(`\nLast lines of the n8n log (${s.logFile}):\n${redact(tail(s.logFile))}\n`);
}

module.exports = {
	CLIENT,
	step,
	stepsRun,
	Reported,
	check,
	redact,
	redactObj,
	reportFailure,
	secs,
};
