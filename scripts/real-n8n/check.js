#!/usr/bin/env node
/**
 * `npm run check:n8n`: the package in a real n8n, end to end (not part of `npm test`: it
 * downloads n8n, about 2.5 GB, on the first run).
 *
 *  1. n8n (2.41.1 unless --n8n says another) with a Node 24 runtime in a cache folder of its
 *     own version (install-n8n.sh; reused when present). Verified with 2.20.12, 2.40.7 and 2.41.1.
 *  2. the package built, `npm pack`ed and installed from the tarball the way n8n installs a
 *     community package, into an isolated n8n user folder
 *  3. the emulator with demo data on 127.0.0.1 (in this process), its demo client accepting
 *     this n8n's callback `http://localhost:<port>/rest/oauth2-credential/callback` as redirect URI
 *  4. n8n started on 127.0.0.1 (a free port) with that user folder; /healthz and
 *     /healthz/readiness answer
 *  5. through n8n's REST API (/rest/owner/setup, /rest/login, /rest/settings, /types/nodes.json,
 *     /types/credentials.json, /rest/credentials, /rest/oauth2-credential/auth and /callback):
 *     the running n8n is the version under test and announces the OAuth2 callback the emulator
 *     accepts; the 10 node types (and n8n's AI-tool variants, checked with the release's own
 *     n8n-workflow), the credential type and every icon loaded;
 *     a Vendor OAuth2 API credential created and connected through n8n's OAuth2 round trip
 *     (n8n's auth URL -> the emulator's consent page, Accept -> n8n's callback -> token call);
 *     the scopes n8n sends must be comma-separated
 *  6. a workflow Manual Trigger -> Vendor Books Item -> Get Many run through n8n's REST API
 *     (POST /rest/workflows/:id/run): it returns the emulator's demo items (the same check as
 *     `npm run demo:editor -- --smoke`)
 *  7. both example workflows imported (POST /rest/workflows) with that credential, run from their
 *     trigger (POST /rest/workflows/:id/run, then GET /rest/executions/:id), and their outputs
 *     and effects checked against the emulator
 *  8. an AI Agent with a scripted model (ai-steps.js, scripted-model.js): a small
 *     OpenAI-compatible server on 127.0.0.1 (POST /v1/chat/completions, tool calls) behind n8n's
 *     OpenAI Chat Model (an OpenAI credential with that Base URL, responsesApiEnabled false);
 *     Manual Trigger -> AI Agent with the Vendor Books Tool (Invoice -> Get Many, status from
 *     `$fromAI`) as its tool. The model is offered the tool with the `$fromAI` parameter, calls
 *     it with status overdue; the emulator gets that call with the OAuth token, and the agent's
 *     answer names exactly the emulator's overdue invoices. The agent also has the Vendor Books
 *     Tool's Invoice -> Create (Customer ID and Line Items (JSON) filled by the model, as the
 *     editor's "let the model define this" writes them): its tool schema is printed, and Line
 *     Items (JSON) must have a JSON-schema type and a description. Then the same agent while the Books
 *     API answers 503: with the tool's On Error set to continue, the model gets the error text
 *     and the run succeeds with its answer about it; with the default On Error, what this n8n
 *     does is reported (2.20 ends the run with the tool's error, 2.40 hands the model the error)
 *  9. MCP Server Trigger (ai-steps.js) with the Vendor Books Tool (Estimate -> Get Many, customer
 *     from `$fromAI`), activated; the client of @modelcontextprotocol/sdk (Streamable HTTP at
 *     <n8n>/mcp/<path>) lists the tool with that parameter in its input schema and calls it:
 *     the emulator's estimates of that customer come back
 * 10. a Vendor Books Trigger (Estimate Created, every minute) activated while the emulator
 *     answers the Books area 503 (POST /__admin/faults): the activation succeeds within seconds,
 *     its read (n8n's first call: one attempt, no retry) answered 503 and any later call (n8n's scheduled poll may come right
 *     after) 200, the workflow is
 *     active with no activation error and n8n's log has the package's warning; an estimate
 *     created then is emitted by the next scheduled poll (up to about 2 minutes of real
 *     waiting) in exactly one execution. Then the refresh token is revoked and the access tokens
 *     expired (POST /__admin/tokens/revoke, /tokens/expire): activating again fails with
 *     "The access token could not be refreshed (invalid_code)" and leaves it inactive
 * 11. the editor, as a user uses it (editor-search.js): a headless Chromium (Debian's
 *     /usr/bin/chromium, driven by the devDependency playwright-core; not installed by this
 *     script: it is looked for before n8n starts, and without it the step fails with the
 *     command that installs it, without n8n's log) signs in as the owner, opens a
 *     new workflow and its node panel (Add first step), and types "estimate", "invoice",
 *     "payment", "bill", "task" into the panel's search: each lists its node (Vendor Books,
 *     Vendor Books, Vendor Invoice, Vendor Inventory, Vendor Projects), found by the codex
 *     `alias` keywords; the first results per term are printed. Screenshots in
 *     <user folder>/editor-search/: the "estimate" one on success (path printed), one per term
 *     on failure (the user folder is then kept)
 * 12. the README's local-build way: a second n8n (user folder of its own) with
 *     N8N_CUSTOM_EXTENSIONS=dist/ loads exactly the 10 nodes as CUSTOM.* and the one credential
 * 13. n8n and the emulator stopped, the user folder removed (the n8n install is kept)
 *
 * Every step prints one PASS or FAIL line; the exit code is 1 on the first failure. Steps 1-6
 * and the cleanup are n8n-session.js (install.js, start.js, connect.js, workflows.js), which
 * `npm run demo:editor` (demo-editor.js) shares.
 *
 * Options (flags or environment), e.g. `npm run check:n8n -- --n8n 2.40.7`:
 *   --n8n <version> / REAL_N8N_VERSION=<version>
 *                                  the n8n release to check, exact (default 2.41.1); each
 *                                  version is installed once into <REAL_N8N_DIR>/<version>
 *   --fresh   / REAL_N8N_FRESH=1   remove the cached install of that version and install again
 *   --keep    / REAL_N8N_KEEP=1    keep the n8n user folder and log (its path is printed)
 *   REAL_N8N_DIR=<dir>             the parent of the per-version installs (default
 *                                  <project>/.real-n8n, so .real-n8n/2.41.1, .real-n8n/2.40.7)
 *   REAL_N8N_PORT=<port>           n8n's port (default: a free one)
 *   --skip-build                   use dist/ and build/ as they are
 *   --trigger-runs <n>             after the set-up (steps 1-9), only the trigger step of 10,
 *                                  n times (the credential connected again before each
 *                                  further run); prints how many runs passed
 *   REAL_N8N_CHROMIUM=<path>       the Chromium of the editor step (default: /usr/bin/chromium,
 *                                  /usr/bin/chromium-browser or /snap/bin/chromium, from
 *                                  `sudo apt-get install -y chromium` or `sudo snap install chromium`)
 *
 * The client secret and tokens are never printed.
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const {
	ROOT,
	PACKAGE,
	parseOptions,
	step,
	stepsRun,
	Reported,
	check,
	reportFailure,
	secs,
	freePort,
	onStopSignal,
	isStopping,
	N8nClient,
	Session,
	setUp,
	connectCredential,
	signIn,
	importExample,
	itemsStep,
	runAndWait,
	outputOf,
	assertSucceeded,
	checkCallsAuthorized,
	startN8n,
	stopN8n,
	cleanup,
} = require('./n8n-session');
const { nodePanelSearchStep, browserLine } = require('./editor-search');
const {
	agentStep,
	agentToolSchemaStep,
	agentToolErrorStep,
	mcpStep,
	outageStep,
	deactivate,
} = require('./ai-steps');

const USAGE =
	'usage: npm run check:n8n -- [--n8n <version>] [--fresh] [--keep] [--skip-build] [--trigger-runs <n>]';
const options = parseOptions(process.argv.slice(2), {
	command: 'check:n8n',
	usage: USAGE,
	flags: ['--fresh', '--keep', '--skip-build'],
	values: ['--n8n', '--trigger-runs'],
});
/** --trigger-runs <n>: after the set-up, only the trigger step (outageStep), n times. */
const triggerRuns =
	options.value['trigger-runs'] === undefined ? undefined : Number(options.value['trigger-runs']);
if (triggerRuns !== undefined && !(Number.isInteger(triggerRuns) && triggerRuns > 0))
	options.fail(
		`--trigger-runs needs a whole number of runs, got "${options.value['trigger-runs']}"`,
	);
const session = new Session(options);
const started = Date.now();
/** The package's node types as n8n names them once installed: <package>.<camelCase name>. */
const expectedNodes = PACKAGE.n8n.nodes
	.map((p) => path.basename(p, '.node.js'))
	.map((n) => `${PACKAGE.name}.${n[0].toLowerCase()}${n.slice(1)}`)
	.sort();

/** Stops what runs and removes the user folder (see n8n-session.js). */
const stopAll = () => cleanup(session).then((done) => console.log(`PASS cleanup: ${done}`));

onStopSignal((signal) => {
	console.log(`\nFAIL interrupted (${signal})`);
	stopAll()
		.catch((e) => console.log(`FAIL cleanup: ${e.message}`))
		.finally(() => process.exit(130));
});

async function main() {
	let failed = false;
	console.log(
		`Real-n8n check: ${PACKAGE.name}@${PACKAGE.version} in n8n ${options.version} (${options.versionFrom}; install ${session.cacheLabel})`,
	);
	const oldLayout = fs.existsSync(options.cacheParent)
		? fs
				.readdirSync(options.cacheParent)
				.filter((f) => f === 'node_modules' || f.startsWith('.installed-n8n-'))
		: [];
	if (!triggerRuns) console.log(browserLine());
	if (oldLayout.length)
		console.log(
			`note: ${path.relative(ROOT, options.cacheParent) || options.cacheParent} also holds an install of the old one-version layout (${oldLayout.join(', ')}), now unused: remove it to free about 2.5 GB`,
		);
	try {
		if (triggerRuns) failed = !(await triggerStepRuns(session, triggerRuns));
		else await steps(session);
	} catch (error) {
		failed = true;
		reportFailure(session, error);
	} finally {
		if (isStopping()) return;
		await stopAll().catch((e) => {
			failed = true;
			console.log(`FAIL cleanup: ${e.message}`);
		});
	}
	console.log(
		failed
			? `\nREAL-N8N CHECK FAILED (${secs(Date.now() - started)})`
			: `\nREAL-N8N CHECK PASSED: ${stepsRun()} steps (${secs(Date.now() - started)})`,
	);
	process.exitCode = failed ? 1 : 0;
}

async function steps(s) {
	// 1-5: n8n installed, the package packed and installed n8n's way, the emulator, n8n started,
	// the owner logged in, the node types checked, the credential created and connected
	const owner = {
		email: 'owner@example.com',
		firstName: 'Real',
		lastName: 'Check',
		password: `Check-${crypto.randomBytes(6).toString('hex')}1A`,
	};
	const port = async () => Number(process.env.REAL_N8N_PORT || 0) || (await freePort());
	await setUp(s, { owner, port, afterLogin: () => typesStep(s) });

	// 6. Vendor Books Item -> Get Many run by n8n: the demo items
	await itemsStep(s);

	// 7. the example workflows
	await step(
		'example estimate-accepted-to-invoice.json: import, run (Fetch Test Event of the Books trigger), check',
		async () => {
			const { wf, id } = await importExample(s, 'estimate-accepted-to-invoice.json');
			const names = wf.nodes.map((n) => n.name);
			const invoicesBefore = s.tenant.all('invoices').length;
			const mailsBefore = s.tenant.mails.length;
			s.em.clearRequests();
			const result = await runAndWait(s, id, names[0]);
			assertSucceeded(result, names);
			const [emitted] = outputOf(result.data, names[0]);
			check(
				emitted && emitted.status === 'accepted',
				`the trigger emitted ${JSON.stringify(emitted).slice(0, 200)}`,
			);
			const estimateId = String(emitted.estimate_id);
			const [invoice] = outputOf(result.data, names[1]);
			check(invoice && invoice.invoice_id, `no invoice from ${names[1]}`);
			const stored = s.tenant.get('invoices', String(invoice.invoice_id));
			check(stored, `invoice ${invoice.invoice_id} is not in the emulator`);
			check(s.tenant.all('invoices').length === invoicesBefore + 1, 'not exactly one new invoice');
			check(
				String(stored.invoiced_estimate_id) === estimateId,
				`invoiced_estimate_id ${stored.invoiced_estimate_id}, expected ${estimateId}`,
			);
			check(
				stored.status === 'sent',
				`the invoice is ${stored.status} after e-mailing, expected sent`,
			);
			const mails = s.tenant.mails.slice(mailsBefore);
			check(
				mails.length === 1 &&
					mails[0].kind === 'invoice' &&
					mails[0].invoiceId === String(invoice.invoice_id),
				`mails: ${JSON.stringify(mails.map((m) => [m.kind, m.invoiceId]))}`,
			);
			check(
				mails[0].subject === `Invoice ${stored.invoice_number} for your accepted estimate`,
				`subject ${mails[0].subject}`,
			);
			const calls = s
				.apiCalls()
				.map((r) => `${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')} -> ${r.status}`);
			check(
				s.apiCalls().every((r) => r.status === 200 || r.status === 201),
				`calls: ${calls.join('; ')}`,
			);
			checkCallsAuthorized(
				s,
				'the access token of the OAuth round trip (Authorization: Vendor-oauthtoken <token>)',
			);
			return [
				`workflow ${id}, execution ${result.id}: ${result.execution.status}`,
				`trigger emitted accepted estimate ${emitted.estimate_number || estimateId}; invoice ${stored.invoice_number} created from it (invoiced_estimate_id ${estimateId}), status sent`,
				`e-mail "${mails[0].subject}"`,
				`API calls: ${calls.join('; ')}`,
			];
		},
	);

	await step('example overdue-reminders.json: import, run (Schedule Trigger), check', async () => {
		const { wf, id } = await importExample(s, 'overdue-reminders.json');
		const names = wf.nodes.map((n) => n.name);
		const overdue = s.tenant
			.all('invoices')
			.filter((i) => i.status === 'overdue')
			.map((i) => String(i.invoice_id))
			.sort();
		check(overdue.length > 0, 'no overdue invoices in the demo data');
		const mailsBefore = s.tenant.mails.length;
		s.em.clearRequests();
		const result = await runAndWait(s, id, names[0]);
		assertSucceeded(result, names);
		const listedItems = outputOf(result.data, names[1]);
		const listed = listedItems.map((i) => String(i.invoice_id)).sort();
		const numberOf = Object.fromEntries(
			listedItems.map((i) => [String(i.invoice_id), i.invoice_number]),
		);
		check(
			JSON.stringify(listed) === JSON.stringify(overdue),
			`listed ${listed.join(',')}; overdue ${overdue.join(',')}`,
		);
		const out = outputOf(result.data, names[2]);
		check(
			JSON.stringify(out.map((o) => String(o.invoice_id)).sort()) === JSON.stringify(overdue) &&
				out.every((o) => o.sent === true),
			`reminder output: ${JSON.stringify(out).slice(0, 300)}`,
		);
		const reminded = s.tenant.mails
			.slice(mailsBefore)
			.filter((m) => m.kind === 'reminder')
			.map((m) => m.invoiceId)
			.sort();
		check(
			JSON.stringify(reminded) === JSON.stringify(overdue),
			`reminders sent for ${reminded.join(',')}`,
		);
		const calls = s
			.apiCalls()
			.map(
				(r) =>
					`${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')}${r.query.status ? `?status=${r.query.status}` : ''} -> ${r.status}`,
			);
		check(
			s.apiCalls().every((r) => r.status === 200),
			`calls: ${calls.join('; ')}`,
		);
		checkCallsAuthorized(s);
		return [
			`workflow ${id}, execution ${result.id}: ${result.execution.status}`,
			`${listed.length} overdue invoices listed; ${out.length} reminders sent (${out.map((o) => numberOf[String(o.invoice_id)] || o.invoice_id).join(', ')})`,
			`API calls: ${calls.join('; ')}`,
		];
	});

	// 8-10. real clients (ai-steps.js): an AI Agent with a scripted model, an MCP client through the
	// MCP Server Trigger, a polling trigger activated during an outage (last: it revokes the token)
	await agentStep(s);
	await agentToolSchemaStep(s);
	await agentToolErrorStep(s);
	await mcpStep(s);
	await outageStep(s);

	// 11. the editor's node panel, searched in a headless Chromium (editor-search.js)
	await nodePanelSearchStep(s);

	// The README's local-build way: N8N_CUSTOM_EXTENSIONS at dist/ (n8n names the types CUSTOM.*).
	// A second n8n with a user folder of its own; the first one is stopped first.
	const distDir = path.join(ROOT, 'dist');
	await step(
		`N8N_CUSTOM_EXTENSIONS=${path.relative(ROOT, distDir)}: a second n8n loads exactly the 10 nodes (CUSTOM.*) and the credential`,
		async () => {
			await stopN8n(s.n8n);
			s.n8n = undefined;
			const userFolder = path.join(s.userFolder, 'custom-extensions');
			fs.mkdirSync(userFolder);
			const customPort = await freePort();
			const times = await startN8n(s, 'n8nCustom', {
				userFolder,
				port: customPort,
				brokerPort: await freePort(),
				env: { N8N_CUSTOM_EXTENSIONS: distDir },
			});
			const custom = new N8nClient(`http://127.0.0.1:${customPort}`);
			await signIn(custom, s.owner);
			const nodes = await custom.json('GET', '/types/nodes.json');
			const expectedCustom = expectedNodes
				.map((n) => `CUSTOM.${n.slice(PACKAGE.name.length + 1)}`)
				.sort();
			const loaded = [
				...new Set(
					nodes
						.map((n) => n.name)
						.filter(
							(n) =>
								n.startsWith('CUSTOM.') &&
								!(n.endsWith('Tool') && expectedCustom.includes(n.slice(0, -4))),
						),
				),
			].sort();
			check(
				JSON.stringify(loaded) === JSON.stringify(expectedCustom),
				`CUSTOM.* node types: ${loaded.join(', ') || 'none'}; expected ${expectedCustom.join(', ')}`,
			);
			check(
				!nodes.some((n) => n.name.startsWith(`${PACKAGE.name}.`)),
				'the installed package is loaded too',
			);
			const creds = await custom.json('GET', '/types/credentials.json');
			const vendorCreds = creds
				.filter((c) => /vendor/i.test(c.name) || /test|harness|fixture/i.test(c.name))
				.map((c) => c.name);
			check(
				JSON.stringify(vendorCreds) === JSON.stringify(['vendorOAuth2Api']),
				`credential types from dist/: ${vendorCreds.join(', ') || 'none'}; expected vendorOAuth2Api`,
			);
			return [
				`readiness after ${times['/healthz/readiness']}; ${loaded.length} node types: ${loaded.join(', ')}; credential type vendorOAuth2Api`,
			];
		},
	);

	console.log(`\nScope separator n8n sent: ${s.seen.separator}`);
}

/**
 * --trigger-runs <n>: the set-up (steps 1-9), then the trigger step alone n times (it revokes the
 * credential's refresh token at its end: the credential is connected again before each further
 * run, through n8n's OAuth2 round trip). Resolves to whether every run passed; prints the tally.
 */
async function triggerStepRuns(s, runs) {
	const owner = {
		email: 'owner@example.com',
		firstName: 'Real',
		lastName: 'Check',
		password: `Check-${crypto.randomBytes(6).toString('hex')}1A`,
	};
	await setUp(s, {
		owner,
		port: async () => Number(process.env.REAL_N8N_PORT || 0) || (await freePort()),
	});
	const failedRuns = [];
	for (let run = 1; run <= runs && !isStopping(); run++) {
		console.log(`\n--- trigger step, run ${run} of ${runs}`);
		if (run > 1) {
			await reconnect(s);
		}
		try {
			await outageStep(s);
		} catch (error) {
			if (!(error instanceof Reported)) throw error;
			failedRuns.push(run);
		}
	}
	console.log(
		`\nTrigger step: ${runs - failedRuns.length} of ${runs} runs passed${failedRuns.length ? ` (failed: run ${failedRuns.join(', ')})` : ''}`,
	);
	return failedRuns.length === 0;
}

/**
 * Between two runs of the trigger step: the workflows it left published deactivated (none may
 * poll with the new token), every refresh token of the emulator's client revoked (a failed run
 * may have left n8n's), then the credential connected again (n8n's OAuth2 round trip).
 */
async function reconnect(s) {
	for (const id of await s.api.json('GET', '/rest/active-workflows')) await deactivate(s, id);
	for (const r of s.em.accounts.issuedTo(s.em.defaultClient.clientId).refresh)
		s.em.accounts.revokeRefreshToken(r.token);
	s.em.clearRequests();
	await connectCredential(s);
}

/** GET /types/nodes.json, /types/credentials.json as the owner (step 5, after the login). */
function typesStep(s) {
	return step(
		'GET /types/nodes.json, /types/credentials.json: the 10 nodes and the credential are loaded',
		async () => {
			const nodes = await s.api.json('GET', '/types/nodes.json');
			const all = nodes.filter((n) => n.name.startsWith(`${PACKAGE.name}.`));
			// n8n adds a "<name>Tool" variant of every node that is usableAsTool (the AI Agent's tools)
			const ours = all.filter(
				(n) => !expectedNodes.includes(n.name.replace(/Tool$/, '')) || !n.name.endsWith('Tool'),
			);
			const tools = all.filter((n) => !ours.includes(n));
			const names = [...new Set(ours.map((n) => n.name))].sort();
			check(
				JSON.stringify(names) === JSON.stringify(expectedNodes),
				`node types of the package: ${names.join(', ') || 'none'}; expected ${expectedNodes.join(', ')}`,
			);
			const expectedTools = ours
				.filter((n) => n.usableAsTool)
				.map((n) => `${n.name}Tool`)
				.sort();
			const toolNames = [...new Set(tools.map((n) => n.name))].sort();
			check(
				toolNames.length > 0 || expectedTools.length === 0,
				`this n8n lists no "<name>Tool" variants in /types/nodes.json (expected ${expectedTools.join(', ')}): it exposes the AI-tool variants some other way, which this check does not know yet`,
			);
			check(
				JSON.stringify(toolNames) === JSON.stringify(expectedTools),
				`tool variants ${toolNames.join(', ')}; expected ${expectedTools.join(', ')}`,
			);
			const toolLines = checkToolVariants(s, tools, ours);
			const creds = await s.api.json('GET', '/types/credentials.json');
			const cred = creds.find((c) => c.name === 'vendorOAuth2Api');
			check(cred, 'credential type vendorOAuth2Api not loaded');
			check(
				!creds.some((c) => c.name !== 'vendorOAuth2Api' && /vendor/i.test(c.name)),
				`unexpected credential types: ${creds.filter((c) => /vendor/i.test(c.name)).map((c) => c.name)}`,
			);
			check(
				!nodes.some((n) => n.name.startsWith('CUSTOM.')),
				"CUSTOM.* node types loaded (test code in n8n's path?)",
			);
			// icons: every node and the credential name one that n8n serves
			const iconUrls = [
				...ours.flatMap((n) =>
					n.iconUrl && typeof n.iconUrl === 'object'
						? [n.iconUrl.light, n.iconUrl.dark]
						: [n.iconUrl],
				),
			];
			iconUrls.push(
				...(cred.iconUrl && typeof cred.iconUrl === 'object'
					? [cred.iconUrl.light, cred.iconUrl.dark]
					: [cred.iconUrl]),
			);
			const missing = [];
			for (const u of new Set(iconUrls)) {
				if (!u) {
					missing.push('(no iconUrl)');
					continue;
				}
				const res = await s.api.raw('GET', `/${u}`);
				if (res.status !== 200 || !/svg/.test(res.headers.get('content-type') || ''))
					missing.push(`${u} -> ${res.status}`);
				await res.arrayBuffer();
			}
			check(missing.length === 0, `icons not served: ${missing.join(', ')}`);
			const codex = ours.filter(
				(n) => n.codex && n.codex.categories && n.codex.categories.length,
			).length;
			return [
				`${names.length} node types: ${names.map((n) => n.slice(PACKAGE.name.length + 1)).join(', ')}`,
				`and n8n's AI-tool variants of the ${toolNames.length} action nodes: ${toolNames.map((n) => n.slice(PACKAGE.name.length + 1)).join(', ')}`,
				...toolLines,
				`credential type vendorOAuth2Api ("${cred.displayName}", extends ${cred.extends})`,
				`${new Set(iconUrls).size} icons served as SVG; ${codex} of ${ours.length} node descriptions carry codex categories`,
			];
		},
	);
}

/**
 * The tool variants as n8n itself made them: an AI-tool output and no input, the tool
 * description choice, every resource and operation list still ending with the package's
 * own "Custom API Call" (n8n appended none of its own), and Simplify on by default when
 * n8n-workflow resolves the tool's parameters (off in the plain node).
 */
function checkToolVariants(s, tools, nodes) {
	// the n8n-workflow of the release under test (the editor and the engine resolve with it)
	const { NodeHelpers } = s.release.require('n8n-workflow');
	const resolve = (description, parameters) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			{ typeVersion: 1, type: description.name, parameters },
			description,
		);
	let lists = 0;
	const simplified = [];
	for (const tool of tools) {
		check(
			JSON.stringify(tool.inputs) === '[]' && JSON.stringify(tool.outputs) === '["ai_tool"]',
			`${tool.name}: inputs ${JSON.stringify(tool.inputs)}, outputs ${JSON.stringify(tool.outputs)}`,
		);
		check(
			tool.properties.some((p) => p.name === 'toolDescription'),
			`${tool.name}: no toolDescription property`,
		);
		for (const p of tool.properties.filter(
			(q) => q.name === 'resource' || q.name === 'operation',
		)) {
			const last = p.options[p.options.length - 1];
			check(
				last.name === 'Custom API Call' && last.value === 'customApiCall',
				`${tool.name}: list ${p.name} ends with ${last.name} (${last.value})`,
			);
			lists++;
		}
		const plain = nodes.find((n) => `${n.name}Tool` === tool.name);
		for (const p of tool.properties.filter((q) => q.name === 'simplify')) {
			for (const resource of p.displayOptions.show.resource) {
				for (const operation of p.displayOptions.show.operation) {
					const asTool = resolve(tool, { resource, operation });
					const asNode = resolve(plain, { resource, operation });
					check(
						asTool && asTool.simplify === true,
						`${tool.name} ${resource} ${operation}: Simplify resolves to ${asTool && asTool.simplify} as a tool`,
					);
					check(
						asNode && asNode.simplify === false,
						`${plain.name} ${resource} ${operation}: Simplify resolves to ${asNode && asNode.simplify} as a node`,
					);
					simplified.push(`${tool.name}.${resource}.${operation}`);
				}
			}
		}
	}
	check(simplified.length > 0, 'no Simplify property in the tool variants');
	return [
		`tool variants: ai_tool output, no input, a tool description; ${lists} resource / operation lists end with the package's own Custom API Call (none of n8n's added)`,
		`Simplify resolved by the release's n8n-workflow ${s.release.workflow} on ${new Set(simplified).size} Get / Get Many operations: on in the tool variant, off in the node`,
	];
}

main();
