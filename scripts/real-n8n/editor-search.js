/**
 * check:n8n's editor step: the node panel of the real n8n editor, searched as a user does.
 *
 * A headless Chromium (Debian's, /usr/bin/chromium, driven by the devDependency playwright-core,
 * which downloads no browser) signs in as the owner through n8n's sign-in page, opens a new
 * workflow, opens the node panel ("Add first step", or Tab), types each search term into the
 * panel's search box and reads the result list. Each term must list its node: the package's
 * codex files (nodes/<Node>/<Node>.node.json) carry `alias` keywords, which n8n's panel search
 * matches besides the display name.
 *
 * Screenshots go to <user folder>/editor-search/: on success the one of the first term (its path
 * is printed; the folder is removed at the end unless --keep); on failure one per term (or one of
 * the page where it stopped), and the user folder is kept.
 *
 * The browser is not installed by this script. check.js looks for it before n8n starts
 * (`browserCheck`: named in one line, or "no browser found" with the command that installs it);
 * without it this step fails with that sentence, and n8n's log is not printed (n8n is not at
 * fault). REAL_N8N_CHROMIUM=<path> names another Chromium binary.
 *
 * Only scripts/ may require playwright-core (a devDependency): published code must not.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { PACKAGE, step, check } = require('./n8n-session');

/** What a user types, and the node (type name in the package) the panel must list for it. */
const SEARCHES = [
	{ term: 'estimate', node: 'vendorBooks' },
	{ term: 'invoice', node: 'vendorBooks' },
	{ term: 'payment', node: 'vendorInvoice' },
	{ term: 'bill', node: 'vendorInventory' },
	{ term: 'task', node: 'vendorProjects' },
];
/** How many results are printed per term. */
const SHOWN = 5;
/** Where a Chromium is looked for, unless REAL_N8N_CHROMIUM names one: Debian's, Ubuntu's deb (a snap shim) and snap. */
const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];
const INSTALL_CHROMIUM = 'sudo apt-get update && sudo apt-get install -y chromium';
const INSTALL_CHROMIUM_UBUNTU = 'sudo snap install chromium';
/** Debian's Chromium, headless, with a new empty profile (the recipe: CONTRIBUTING, Real n8n). */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

const SEL = {
	email: 'input[name="emailOrLdapLoginId"], input[name="email"], input[type="email"]',
	password: 'input[name="password"], input[type="password"]',
	addFirstStep:
		'[data-test-id="canvas-add-button"], [data-test-id="canvas-add-first-step-button"], [data-test-id="canvas-plus-button"]',
	creator: '[data-test-id="node-creator"]',
	search:
		'[data-test-id="node-creator"] [data-test-id="node-creator-search-bar"] input, [data-test-id="node-creator"] input[data-test-id="node-creator-search-bar"]',
	resultName: '[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]',
	noResults: '[data-test-id="node-creator"] [data-test-id="node-creator-no-results"]',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** playwright-core, or a failure that says how to get it. */
function loadPlaywright() {
	try {
		return require('playwright-core');
	} catch (error) {
		throw new Error(
			`playwright-core is not installed (${error.code || error.message}): run npm ci (it is a devDependency of ${PACKAGE.name})`,
		);
	}
}

/**
 * The browser of the editor step: `{ path, version }`, or `{ missing }`, the sentence that says
 * none was found and how to install one (nothing is installed here).
 */
function browserCheck() {
	const given = process.env.REAL_N8N_CHROMIUM;
	const where = given ? [given] : CHROMIUM_PATHS;
	const found = where.find((p) => fs.existsSync(p));
	const install = `install it with\n  ${INSTALL_CHROMIUM}\n(Debian; on Ubuntu: ${INSTALL_CHROMIUM_UBUNTU}), or set REAL_N8N_CHROMIUM=<path to a Chromium binary>. check:n8n installs no browser itself.`;
	if (!found)
		return {
			missing: `no browser found: the editor step needs Chromium (looked for ${where.join(', ')}); ${install}`,
		};
	const r = spawnSync(found, ['--version'], { encoding: 'utf8', timeout: 30_000 });
	if (r.status !== 0)
		return {
			missing: `no working browser: ${found} --version exited with ${r.status ?? r.signal}: ${(r.stderr || r.stdout || '').trim().slice(0, 300)}; ${install}`,
		};
	return { path: found, version: r.stdout.trim().split('\n')[0] };
}

/** The Chromium of the step, or a failure with the sentence of browserCheck (marked: n8n's log would not help). */
function findChromium() {
	const browser = browserCheck();
	if (browser.missing) throw Object.assign(new Error(browser.missing), { n8nLog: false });
	return browser;
}

/** One line for the start of check:n8n, before n8n starts: the browser found, or what to install. */
function browserLine() {
	const browser = browserCheck();
	return browser.missing
		? `note: ${browser.missing.replace(/\n\s*/g, ' ')} The other steps run first; the editor step will fail.`
		: `browser for the editor step: ${browser.version} (${browser.path})`;
}

/**
 * A headless Chromium with a new profile in the user folder, for the editor: `{ context, page,
 * version, path }`. It is `s.browser` until closed, so cleanup closes it after a stop signal;
 * the caller closes it (and clears `s.browser`) when done. `viewport` and `deviceScaleFactor`
 * as in playwright-core.
 */
async function launchEditorBrowser(
	s,
	{ viewport = { width: 1440, height: 900 }, deviceScaleFactor } = {},
) {
	const { chromium } = loadPlaywright();
	const found = findChromium();
	const profile = fs.mkdtempSync(path.join(s.userFolder, 'chromium-profile-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: found.path,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport,
		...(deviceScaleFactor ? { deviceScaleFactor } : {}),
		timeout: 60_000,
	});
	s.browser = context;
	context.setDefaultTimeout(30_000);
	const page = context.pages()[0] || (await context.newPage());
	return {
		context,
		page,
		version: context.browser() ? context.browser().version() : found.version,
		path: found.path,
	};
}

/** Signs in as the owner through n8n's sign-in page, as a user does; the path n8n then shows. */
async function signInEditor(s, page) {
	await page.goto(`${s.base}/signin`, { waitUntil: 'domcontentloaded' });
	await page.locator(SEL.email).first().fill(s.owner.email);
	await page.locator(SEL.password).first().fill(s.owner.password);
	await page.keyboard.press('Enter');
	await page
		.waitForURL((u) => !/\/signin/.test(u.pathname), { timeout: 30_000 })
		.catch(() => {
			throw new Error(
				`still on ${page.url()} 30 s after submitting the sign-in form as ${s.owner.email}`,
			);
		});
	return new URL(page.url()).pathname;
}

/**
 * The step. `s`: the session of n8n-session.js (n8n running, `s.owner` set up, `s.api` logged in).
 */
function nodePanelSearchStep(s) {
	const terms = SEARCHES.map((q) => `"${q.term}"`).join(', ');
	return step(
		`the editor's node panel in headless Chromium (sign in, new workflow, Add first step): searching ${terms} lists the nodes`,
		async () => {
			loadPlaywright();
			const { path: chromiumPath } = findChromium();
			// the display names n8n shows, from n8n itself; the aliases n8n serves, for a failure
			const types = await s.api.json('GET', '/types/nodes.json');
			const byName = new Map(types.map((t) => [t.name, t]));
			const searches = SEARCHES.map((q) => {
				const type = byName.get(`${PACKAGE.name}.${q.node}`);
				check(type, `node type ${PACKAGE.name}.${q.node} is not loaded`);
				return { ...q, expected: type.displayName, alias: (type.codex && type.codex.alias) || [] };
			});

			const shotDir = path.join(s.userFolder, 'editor-search');
			fs.mkdirSync(shotDir, { recursive: true });
			const shotPath = (name) => path.join(shotDir, `n8n-${s.version}-${name}.png`);
			let context;
			let page;
			let stage = 'start Chromium';
			const results = [];
			const t0 = Date.now();
			const took = {};
			const mark = (what) => (took[what] = `${((Date.now() - t0) / 1000).toFixed(1)} s`);
			try {
				const launched = await launchEditorBrowser(s);
				({ context, page } = launched);
				const browserVersion = launched.version;
				mark('Chromium started');

				// sign in as the owner, as a user does
				stage = 'sign in';
				const signedInAt = await signInEditor(s, page);
				mark('signed in');

				// a new workflow; the node panel through "Add first step" (Tab if there is no button)
				stage = 'open a new workflow';
				await page.goto(`${s.base}/workflow/new`, { waitUntil: 'domcontentloaded' });
				const addButton = page.locator(SEL.addFirstStep).first();
				let opened = 'Add first step';
				try {
					await addButton.waitFor({ state: 'visible', timeout: 30_000 });
					stage = 'open the node panel (Add first step)';
					await addButton.click();
				} catch {
					stage = 'open the node panel (Tab)';
					opened = 'Tab';
					await page.locator('body').press('Tab');
				}
				await page.locator(SEL.creator).first().waitFor({ state: 'visible', timeout: 15_000 });
				const panelTitle = (
					(await page.locator(SEL.creator).first().innerText()).split('\n')[0] || ''
				).trim();
				const search = page.locator(SEL.search).first();
				await search.waitFor({ state: 'visible', timeout: 15_000 });
				mark('node panel open');

				for (const q of searches) {
					stage = `search "${q.term}"`;
					// type it as a user does: clear the box, then key by key
					await search.click();
					await search.press('Control+A');
					await search.press('Backspace');
					await search.pressSequentially(q.term, { delay: 40 });
					const found = await readResults(page, q.expected);
					const shot = await page.screenshot();
					results.push({ ...q, ...found, shot });
				}

				mark(`${results.length} searches read`);
				const failed = results.filter((r) => !r.listed);
				const lines = [
					`Chromium ${browserVersion} (${chromiumPath}), playwright-core ${require('playwright-core/package.json').version}; signed in as ${s.owner.email} (-> ${signedInAt}); node panel opened by ${opened} in a new workflow: "${panelTitle}"`,
					`after ${Object.entries(took)
						.map(([k, v]) => `${v}: ${k}`)
						.join('; ')}`,
					...results.map(
						(r) =>
							`"${r.term}": ${r.listed ? `${r.expected} listed (#${r.names.indexOf(r.expected) + 1} of ${r.names.length})` : `${r.expected} NOT listed`}; first results: ${r.names.slice(0, SHOWN).join(' | ') || '(no results)'}`,
					),
				];
				if (failed.length) {
					for (const r of results) fs.writeFileSync(shotPath(r.term), r.shot);
					s.keep = true;
					throw new Error(
						[
							...lines,
							...failed.map(
								(r) =>
									`"${r.term}" does not list ${r.expected}; n8n serves its codex alias as ${JSON.stringify(r.alias)}`,
							),
							`screenshots, one per term: ${results.map((r) => shotPath(r.term)).join(', ')} (user folder kept)`,
						].join('\n'),
					);
				}
				fs.writeFileSync(shotPath(results[0].term), results[0].shot);
				return [
					...lines,
					`screenshot of "${results[0].term}": ${shotPath(results[0].term)}${s.keep ? '' : ' (removed with the user folder at the end: --keep keeps it)'}`,
				];
			} catch (error) {
				// a failure before the searches were all read: a screenshot of where it stopped
				if (page && !/screenshots, one per term/.test(error.message)) {
					const file = shotPath(
						`failed-${stage.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`,
					);
					const saved = await page
						.screenshot({ path: file })
						.then(() => true)
						.catch(() => false);
					for (const r of results) fs.writeFileSync(shotPath(r.term), r.shot);
					s.keep = true;
					error.message = `${stage}: ${error.message}${saved ? `\nscreenshot: ${file}` : ''}${results.length ? `\nscreenshots of the terms searched: ${results.map((r) => shotPath(r.term)).join(', ')}` : ''} (user folder kept)\npage: ${page.url()}`;
				}
				throw error;
			} finally {
				s.browser = undefined;
				if (context) await context.close().catch(() => {});
			}
		},
	);
}

/**
 * The node names the panel lists once the search has settled: the list (or "no results") the
 * same for 1 s once `expected` is in it, else for 2 s; at most 10 s after the last key.
 */
async function readResults(page, expected) {
	const t0 = Date.now();
	let last;
	let since = Date.now();
	for (;;) {
		const names = (await page.locator(SEL.resultName).allInnerTexts())
			.map((n) => n.trim())
			.filter(Boolean);
		const none = names.length === 0 && (await page.locator(SEL.noResults).count()) > 0;
		const key = JSON.stringify([names, none]);
		if (key !== last) {
			last = key;
			since = Date.now();
		}
		const listed = names.includes(expected);
		const stable = Date.now() - since >= (listed ? 1000 : 2000);
		if (stable || Date.now() - t0 > 10_000) return { names, listed, noResults: none };
		await sleep(250);
	}
}

module.exports = {
	nodePanelSearchStep,
	launchEditorBrowser,
	signInEditor,
	browserCheck,
	browserLine,
	SEARCHES,
	INSTALL_CHROMIUM,
};
