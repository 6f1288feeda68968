#!/usr/bin/env node
/**
 * `npm run screenshots`: the README's pictures of the nodes (docs/images/*.png), taken from the
 * real n8n editor in a headless Chromium, so that they can be renewed with this one command when
 * the form changes.
 *
 * The same session as `npm run check:n8n` (n8n-session.js: n8n from the per-version cache, the
 * package packed and installed the way n8n installs a community package, the emulator with demo
 * data and n8n on 127.0.0.1, the credential connected through n8n's OAuth2 round trip) and the
 * same browser as its editor step (editor-search.js: Debian's Chromium driven by playwright-core,
 * signed in as the owner through n8n's sign-in page). Then three workflows are created through
 * n8n's REST API and each picture is taken from the node's panel in the editor:
 *
 *  - vendor-books-invoice-create.png   the form of Vendor Books, Invoice -> Create (a customer
 *                                      and one line filled in)
 *  - vendor-books-trigger.png          the form of Vendor Books Trigger (Invoice Created)
 *  - vendor-books-get-many-output.png  the output panel after Vendor Books, Item -> Get Many
 *                                      ran ("Execute step"): the emulator's demo items
 *
 * Each is cropped to its panel and scaled to at most WIDTH pixels wide (by the same browser, on
 * a blank page), then written over the file of the same name. Before each picture the page's
 * text is checked for the client secret and the tokens: a picture that would show one fails
 * the run and nothing of it is written. n8n, the emulator and the browser are stopped and the
 * user folder removed at the end, also on Ctrl+C.
 *
 * Options, e.g. `npm run screenshots -- --n8n 2.40.7`:
 *   --n8n <version> / REAL_N8N_VERSION   the n8n release (default 2.41.1), as check:n8n
 *   --keep / REAL_N8N_KEEP=1             keep the user folder (n8n's database and log)
 *   --fresh / REAL_N8N_FRESH=1           install that n8n release again
 *   --skip-build                         use dist/ as it is
 *   REAL_N8N_CHROMIUM=<path>             another Chromium binary (see editor-search.js)
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const {
	ROOT,
	PACKAGE,
	CREDENTIAL_NAME,
	parseOptions,
	step,
	check,
	reportFailure,
	freePort,
	onStopSignal,
	isStopping,
	Session,
	setUp,
	createWorkflow,
	createItemsWorkflow,
	ITEMS_WORKFLOW,
	cleanup,
} = require('./n8n-session');
const { launchEditorBrowser, signInEditor } = require('./editor-search');
const { CLIENT } = require('./steps');

const USAGE = 'usage: npm run screenshots -- [--n8n <version>] [--keep] [--fresh] [--skip-build]';
const options = parseOptions(process.argv.slice(2), {
	command: 'screenshots',
	usage: USAGE,
	flags: ['--keep', '--fresh', '--skip-build'],
	values: ['--n8n'],
});
const session = new Session(options);

/** Where the pictures go (the README shows them from there). */
const OUT = path.join(ROOT, 'docs', 'images');
/** The widest a picture may be, in pixels (the README shows them side by side or one a line). */
const WIDTH = 640;
/** The tallest a picture may be on the page, in pixels (a longer form is cut between two fields). */
const MAX_HEIGHT = 820;
/** The editor's window: wide enough for the output panel to show several columns, tall enough for a whole form. */
const VIEWPORT = { width: 1600, height: 1000 };
/** n8n's toasts ("Node executed successfully") would cover the panel: hidden in the pictures. */
const HIDE_TOASTS = '.el-notification { display: none !important; }';

const SEL = {
	ndv: '[data-test-id="ndv"]',
	parameters: '[data-test-id="node-parameters"]',
	execute: '[data-test-id="ndv"] [data-test-id="node-execute-button"]',
	output: '[data-test-id="ndv"] [data-test-id="output-panel"]',
	outputRows: '[data-test-id="ndv"] [data-test-id="output-panel"] table tbody tr',
	displayMode:
		'[data-test-id="ndv"] [data-test-id="output-panel"] [data-test-id="ndv-run-data-display-mode"]',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A node of this package at its newest version, with the session's credential and the demo organization picked From List. */
function vendorNode(s, type, name, parameters, position) {
	const versions = [].concat(s.nodeTypes.get(`${PACKAGE.name}.${type}`)?.version ?? 1);
	return {
		parameters: {
			organizationId: {
				__rl: true,
				mode: 'list',
				value: s.em.organizationId,
				cachedResultName: s.tenant.name,
			},
			...parameters,
		},
		id: crypto.randomUUID(),
		name,
		type: `${PACKAGE.name}.${type}`,
		typeVersion: Math.max(...versions),
		position,
		credentials: { vendorOAuth2Api: { name: CREDENTIAL_NAME } },
	};
}

/** A workflow of a Manual Trigger and `node` (the node the picture shows); `{ id, nodeId }`. */
async function withManualTrigger(s, name, node) {
	const trigger = {
		parameters: {},
		id: crypto.randomUUID(),
		name: 'When clicking ‘Execute workflow’',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
	};
	const id = await createWorkflow(s, {
		name,
		nodes: [trigger, node],
		connections: { [trigger.name]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	return { id, nodeId: node.id };
}

/** The pictures: what each shows (the README's alt text says the same), and how it is taken. */
const SHOTS = [
	{
		file: 'vendor-books-invoice-create.png',
		shows: 'the form of Vendor Books, Invoice -> Create',
		async workflow(s) {
			// the demo data's first customer (build/emulator: built by the session's build step)
			const { DEMO } = require(path.join(ROOT, 'build', 'emulator', 'demo-data.js'));
			const customer = DEMO.customers.acme;
			return withManualTrigger(
				s,
				'Vendor Books: create an invoice (screenshot)',
				vendorNode(
					s,
					'vendorBooks',
					'Create Invoice',
					{
						resource: 'invoice',
						operation: 'create',
						customer_id: customer,
						line_items: {
							values: [
								{
									name: 'Consulting hour',
									description: 'Workflow review, March',
									rate: 120,
									quantity: 8,
								},
							],
						},
					},
					[260, 0],
				),
			);
		},
		panel: 'parameters',
	},
	{
		file: 'vendor-books-trigger.png',
		shows: 'the form of Vendor Books Trigger',
		async workflow(s) {
			const node = vendorNode(
				s,
				'vendorBooksTrigger',
				'When an Invoice Is Created',
				{ pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'invoiceCreated' },
				[0, 0],
			);
			const id = await createWorkflow(s, {
				name: 'Vendor Books Trigger: invoice created (screenshot)',
				nodes: [node],
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			return { id, nodeId: node.id };
		},
		panel: 'parameters',
	},
	{
		file: 'vendor-books-get-many-output.png',
		shows: 'the output of Vendor Books, Item -> Get Many',
		async workflow(s) {
			const id = await createItemsWorkflow(s);
			const wf = await s.api.json('GET', `/rest/workflows/${id}`);
			const node = wf.nodes.find((n) => n.name === ITEMS_WORKFLOW.node);
			check(node, `no node "${ITEMS_WORKFLOW.node}" in workflow ${id}`);
			return { id, nodeId: node.id };
		},
		panel: 'output',
	},
];

onStopSignal((signal) => {
	console.log(`\n${signal}: stopping n8n, the emulator and the browser ...`);
	cleanup(session)
		.then((done) => console.log(`Stopped: ${done}`))
		.catch((e) => console.log(`FAIL cleanup: ${e.message}`))
		.finally(() => process.exit(130));
});

/** The size of a PNG, from its header: `{ width, height }`. */
function pngSize(png) {
	return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** `png` scaled to at most `width` pixels wide, drawn by the browser on a blank page (no n8n page, no page of the web). */
async function scaled(context, png, width) {
	if (pngSize(png).width <= width) return png;
	const blank = await context.newPage();
	try {
		const b64 = await blank.evaluate(
			async ({ data, max }) => {
				const img = new Image();
				img.src = `data:image/png;base64,${data}`;
				await img.decode();
				const canvas = document.createElement('canvas');
				canvas.width = max;
				canvas.height = Math.round((img.height * max) / img.width);
				const g = canvas.getContext('2d');
				g.imageSmoothingEnabled = true;
				g.imageSmoothingQuality = 'high';
				g.drawImage(img, 0, 0, canvas.width, canvas.height);
				return canvas.toDataURL('image/png').split(',')[1];
			},
			{ data: png.toString('base64'), max: width },
		);
		return Buffer.from(b64, 'base64');
	} finally {
		await blank.close();
	}
}

/** Fails if the page shows the client secret or a token of this session (nothing secret in a picture). */
async function checkNoSecrets(s, page, what) {
	const text = `${await page.locator('body').innerText()}\n${await page.content()}`;
	// every token the emulator issued to the client (n8n holds the latest), and the client secret
	const { access, refresh } = s.em.accounts.issuedTo(CLIENT.clientId);
	const secrets = [
		['the client secret', CLIENT.clientSecret],
		...access.map((t) => ['an access token', t.token]),
		...refresh.map((t) => ['a refresh token', t.token]),
	];
	check(
		secrets.length >= 3 &&
			secrets.every(([, value]) => typeof value === 'string' && value.length >= 8),
		'the client secret and the tokens are not known to check the page against',
	);
	for (const [name, value] of secrets)
		check(!text.includes(value), `${what}: the page shows ${name}; no picture is written`);
}

/**
 * The box of the picture on the page: the column of the node's form (its name's tabs, Execute
 * step and the parameters) or the output panel, down to the end of what it shows (the last
 * parameter, the table's last row) rather than the empty rest of the window.
 */
async function panelBox(page, panel) {
	const selector = panel === 'output' ? SEL.output : SEL.parameters;
	const box = await page
		.locator(selector)
		.first()
		.evaluate(
			(el, { which, max }) => {
				let column = el;
				if (which !== 'output') {
					// the first ancestor that also holds the Execute step (or Fetch Test Event) button
					while (
						column.parentElement &&
						!column.parentElement.querySelector(
							'[data-test-id="node-execute-button"], [data-test-id="trigger-execute-button"]',
						)
					)
						column = column.parentElement;
					column = column.parentElement || column;
				}
				const r = column.getBoundingClientRect();
				const limit = Math.min(r.bottom, window.innerHeight, r.y + max);
				// the end of the table, or of the last parameter that fits whole (a form is cut between two fields)
				const content =
					which === 'output'
						? [...el.querySelectorAll('table')]
						: [...el.querySelectorAll('[data-test-id="parameter-item"]')];
				const bottoms = content
					.map((c) => c.getBoundingClientRect())
					.filter((c) => c.height > 0 && c.width > 0 && c.bottom <= limit)
					.map((c) => c.bottom);
				const bottom = bottoms.length ? Math.min(limit, Math.max(...bottoms) + 16) : limit;
				return {
					x: Math.max(0, r.x),
					y: Math.max(0, r.y),
					width: Math.min(r.width, window.innerWidth - Math.max(0, r.x)),
					height: bottom - Math.max(0, r.y),
				};
			},
			{ which: panel, max: MAX_HEIGHT },
		);
	check(
		box.width > 100 && box.height > 100,
		`the ${panel} panel is ${Math.round(box.width)} x ${Math.round(box.height)} px`,
	);
	return box;
}

/** Opens the node's window in the editor (`/workflow/<id>/<node id>`) and waits for its form. */
async function openNode(s, page, { id, nodeId }) {
	await page.goto(`${s.base}/workflow/${id}/${nodeId}`, { waitUntil: 'domcontentloaded' });
	await page.locator(SEL.ndv).first().waitFor({ state: 'visible', timeout: 30_000 });
	await page.locator(SEL.parameters).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/** Runs the open node ("Execute step") and waits for its rows in the output panel, shown as a table. */
async function executeStep(page) {
	await page.locator(SEL.execute).first().click();
	const mode = page.locator(SEL.displayMode).first();
	await mode.waitFor({ state: 'visible', timeout: 60_000 });
	const table = mode.getByText('Table', { exact: true });
	if (await table.count()) await table.first().click();
	await page.locator(SEL.outputRows).first().waitFor({ state: 'visible', timeout: 30_000 });
	return page.locator(SEL.outputRows).count();
}

async function main() {
	let failed = false;
	console.log(
		`Screenshots of the nodes: ${PACKAGE.name}@${PACKAGE.version} in n8n ${options.version} (${options.versionFrom}; install ${session.cacheLabel}), into ${path.relative(ROOT, OUT)}/`,
	);
	const owner = {
		email: 'owner@example.com',
		firstName: 'Screen',
		lastName: 'Shots',
		password: `Shots-${crypto.randomBytes(6).toString('hex')}1A`,
	};
	try {
		await setUp(session, {
			owner,
			port: async () => Number(process.env.REAL_N8N_PORT || 0) || (await freePort()),
		});
		const s = session;
		const flows = [];
		await step("the workflows of the pictures, created through n8n's REST API", async () => {
			s.nodeTypes = new Map((await s.api.json('GET', '/types/nodes.json')).map((t) => [t.name, t]));
			for (const shot of SHOTS) flows.push({ shot, ...(await shot.workflow(s)) });
			return flows.map(({ shot, id }) => `workflow ${id}: for ${shot.file}`);
		});
		await step(
			`the pictures, from the editor in headless Chromium (${VIEWPORT.width} x ${VIEWPORT.height}): ${SHOTS.map((x) => x.file).join(', ')}`,
			async () => {
				const { context, page, version } = await launchEditorBrowser(s, { viewport: VIEWPORT });
				const lines = [`Chromium ${version}`];
				try {
					await signInEditor(s, page);
					fs.mkdirSync(OUT, { recursive: true });
					for (const { shot, id, nodeId } of flows) {
						await openNode(s, page, { id, nodeId });
						await page.addStyleTag({ content: HIDE_TOASTS });
						let rows = 0;
						if (shot.panel === 'output') rows = await executeStep(page);
						// no tooltip or hover outline in the picture; the panel settled
						await page.mouse.move(0, 0);
						await sleep(1000);
						await checkNoSecrets(s, page, shot.file);
						const box = await panelBox(page, shot.panel);
						const png = await scaled(context, await page.screenshot({ clip: box }), WIDTH);
						const file = path.join(OUT, shot.file);
						fs.writeFileSync(file, png);
						const { width, height } = pngSize(png);
						lines.push(
							`${path.relative(ROOT, file)}: ${shot.shows}${rows ? ` (${rows} rows)` : ''}; ${width} x ${height} px, ${Math.round(png.length / 1024)} KB`,
						);
					}
				} finally {
					s.browser = undefined;
					await context.close().catch(() => {});
				}
				return lines;
			},
		);
	} catch (error) {
		failed = true;
		if (!isStopping()) reportFailure(session, error);
	} finally {
		if (!isStopping()) {
			await cleanup(session)
				.then((done) => console.log(`PASS cleanup: ${done}`))
				.catch((e) => {
					failed = true;
					console.log(`FAIL cleanup: ${e.message}`);
				});
		}
	}
	if (isStopping()) return;
	console.log(
		failed
			? '\nSCREENSHOTS FAILED (docs/images/ may hold some new pictures and some old ones)'
			: `\nSCREENSHOTS WRITTEN: ${SHOTS.map((x) => path.join(path.relative(ROOT, OUT), x.file)).join(', ')}`,
	);
	process.exitCode = failed ? 1 : 0;
}

main();
