#!/usr/bin/env node
/**
 * `npm run demo:editor` (or `npm run demo -- --editor`): the package in a real n8n editor, ready
 * to use, against the Vendor API emulator with demo data.
 *
 * The same session as `npm run check:n8n` (n8n-session.js): n8n from the per-version cache
 * (installed by install-n8n.sh on first use, several minutes), this package `npm pack`ed and
 * installed the way n8n installs a community package into a temporary user folder, the
 * emulator with demo data, n8n on 127.0.0.1, an owner, the "Vendor OAuth2 API" credential
 * "Vendor account" connected through n8n's OAuth2 round trip, and the two examples plus a small
 * "Get Many items" workflow imported with that credential and the demo organization id. Then it
 * prints the editor address and the login, and serves until Ctrl+C (SIGINT / SIGTERM), which
 * stops n8n and the emulator and removes the user folder.
 *
 * Options, e.g. `npm run demo:editor -- --n8n 2.40.7 --port 5700`:
 *   --n8n <version> / REAL_N8N_VERSION   the n8n release (default 2.41.1), as check:n8n
 *   --port <port>                        n8n's port (default 5678 if free, else a free one)
 *   --smoke                              after start-up, n8n runs Vendor Books Item -> Get Many
 *                                        and it must return the demo items: PASS or FAIL, then
 *                                        everything stops; exit code 0 or 1
 *   --keep / REAL_N8N_KEEP=1             keep the user folder (n8n's database and log) at the end
 *   --fresh / REAL_N8N_FRESH=1           install that n8n release again
 *   --skip-build                         use dist/ and build/ as they are
 *
 * The owner's password is a demo password and is printed; the client secret and the tokens
 * are not.
 */
'use strict';

const {
	PACKAGE,
	CREDENTIAL_NAME,
	EXAMPLES,
	ITEMS_WORKFLOW,
	parseOptions,
	step,
	reportFailure,
	freePort,
	portFree,
	onStopSignal,
	isStopping,
	Session,
	setUp,
	importExample,
	createItemsWorkflow,
	itemsStep,
	cleanup,
} = require('./n8n-session');

const USAGE =
	'usage: npm run demo:editor -- [--n8n <version>] [--port <port>] [--smoke] [--keep] [--fresh] [--skip-build]';
const options = parseOptions(process.argv.slice(2), {
	command: 'demo:editor',
	usage: USAGE,
	flags: ['--smoke', '--keep', '--fresh', '--skip-build'],
	values: ['--n8n', '--port'],
});
const SMOKE = options.flags.has('--smoke');
const DEFAULT_PORT = 5678;
const askedPort = options.value.port === undefined ? undefined : Number(options.value.port);
if (askedPort !== undefined && !(Number.isInteger(askedPort) && askedPort > 0 && askedPort < 65536))
	options.fail(`--port needs a port number, got "${options.value.port}"`);
/** The owner of this throw-away n8n: a demo login, printed for whoever opens the editor. */
const OWNER = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'User',
	password: 'VendorDemo-1',
};

const session = new Session(options);
let ready = false;

/** Stops n8n and the emulator, removes the user folder (unless --keep), exits with `code`. */
async function finish(code, message) {
	try {
		console.log(`Stopped: ${await cleanup(session)}`);
	} catch (error) {
		console.log(`FAIL cleanup: ${error.message}`);
		code = 1;
	}
	if (message) console.log(`\n${message}`);
	process.exit(code);
}

onStopSignal((signal) => {
	console.log(`\n${signal}: stopping n8n and the emulator ...`);
	void finish(ready ? 0 : 130);
});
// Under `npm run` the parent is npm: if it goes away without passing a signal on (killed), this
// process is re-parented; stop then instead of serving on as an orphan.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 1000).unref();

async function main() {
	console.log(
		`Vendor nodes in the n8n editor: ${PACKAGE.name}@${PACKAGE.version} in n8n ${options.version} (${options.versionFrom}; install ${session.cacheLabel})${SMOKE ? '; smoke test' : ''}`,
	);
	if (askedPort !== undefined && !(await portFree(askedPort)))
		options.fail(`port ${askedPort} (--port) is in use`);
	const port = async () =>
		askedPort ?? ((await portFree(DEFAULT_PORT)) ? DEFAULT_PORT : freePort());
	const workflows = [];
	try {
		await setUp(session, { owner: OWNER, port });
		await step(
			`import the examples and "${ITEMS_WORKFLOW.name}" (credential "${CREDENTIAL_NAME}", organization ${session.em.organizationId})`,
			async () => {
				const lines = [];
				for (const file of EXAMPLES) {
					const { wf, id } = await importExample(session, file);
					workflows.push(wf.name);
					lines.push(`workflow ${id}: examples/${file}, "${wf.name}"`);
				}
				workflows.unshift(ITEMS_WORKFLOW.name);
				return [
					...lines,
					`workflow ${await createItemsWorkflow(session)}: "${ITEMS_WORKFLOW.name}" (Manual Trigger -> Vendor Books, Item, Get Many)`,
				];
			},
		);
		if (SMOKE) await itemsStep(session);
	} catch (error) {
		if (isStopping()) return;
		reportFailure(session, error);
		return finish(1, SMOKE ? 'DEMO SMOKE TEST FAILED' : 'DEMO FAILED TO START');
	}
	if (isStopping()) return;
	if (SMOKE) return finish(0, 'DEMO SMOKE TEST PASSED');
	ready = true;
	const em = session.em;
	const items = session.tenant.all('items').filter((i) => i.status === 'active').length;
	console.log(
		[
			'',
			`Ready: n8n ${options.version} with ${PACKAGE.name} ${PACKAGE.version}, connected to the Vendor API emulator.`,
			'',
			`  Editor        http://localhost:${session.port}`,
			`  E-mail        ${OWNER.email}`,
			`  Password      ${OWNER.password}   (a demo password of this throw-away n8n)`,
			`  Credential    "${CREDENTIAL_NAME}" (Vendor OAuth2 API), connected to the emulator`,
			`  Organization  ${em.organizationId} "${session.tenant.name}" (the demo organization, set in the workflows)`,
			`  Workflows     ${workflows.join('\n                ')}`,
			`  Emulator      ${em.url} (demo data; faults and tokens: ${em.url}/__admin)`,
			`  n8n log       ${session.logFile}`,
			'',
			`Try it: open "${ITEMS_WORKFLOW.name}" and click "Execute workflow": Get Many Items returns`,
			`the ${items} active demo items. Or add a node: Vendor Books -> Item -> Get Many, credential`,
			`"${CREDENTIAL_NAME}", Organization ID From List "${session.tenant.name}" or By ID ${em.organizationId}.`,
			'The examples are inactive: open one and run it.',
			'',
			`Ctrl+C stops n8n and the emulator and ${options.keep ? `keeps ${session.userFolder} (--keep)` : `removes ${session.userFolder}`}.`,
		].join('\n'),
	);
}

main();
