/**
 * The version matrix: the packed package on each n8n release's OWN engine (releases.ts).
 *
 * For each release: its n8n-core, n8n-workflow and zod are installed once into
 * `.cache/n8n-matrix/<release>/` (install.ts; about a minute and 300 MB each, reused after);
 * the package is packed and installed the way n8n installs a community package (once, for
 * all releases); a child process with NODE_PATH = that release's node_modules, and nothing of
 * this project's node_modules but `typescript` (matrix-child.js), loads the installed package
 * with the release's PackageDirectoryLoader and runs workflows on the release's
 * WorkflowExecute (the test harness, adapting to the release by feature detection) against
 * the emulator, which runs here, in the jest process, where each scenario sets it up and
 * reads what reached it:
 *
 *   modules  the child runs on the release's n8n-core, n8n-workflow and zod (harness and package)
 *   a        the loader loads 10 nodes and 1 credential; Books Item -> Get Many returns the emulator's items
 *   b        a stale token: refreshed with exactly one token call, the new token stored by n8n's credentials helper
 *   c        a 503 once: the read waits, is retried and succeeds (the emulator saw it twice)
 *   d        Vendor Projects over the (scaled-down) pacing rule: every request succeeds, none gets a 429
 *   e        a stop during a 20-minute Retry-After wait ends the run as canceled, long before the wait would
 *   f        Books Trigger activated during an outage (every call 503) with the release's own ActiveWorkflows:
 *            the activation returns at once and keeps the trigger; n8n stops, an invoice is made, n8n starts
 *            again ('init', the kept state): the invoice made while n8n was down is emitted once
 *   g        Retry On Fail (Max Tries 3) around three Item Creates, item 1 refused on every try: n8n runs the
 *            node three times on the release's engine, item 0's create is sent once, the report names it
 *   h        On Error "Continue (using error output)": a record not found goes to the error output, paired,
 *            the found one stays on the main output
 *
 * MATRIX_COMPILE_SOURCES=1 compiles this checkout's nodes/ and credentials/ over the installed
 * package's dist/ (for a run without a fresh `npm run build`; `npm test` builds dist/ first).
 * MATRIX_RELEASES=2.41.1,2.40.7 runs only those releases.
 *
 * One line per release sums it up on stdout at the end (release, n8n-core, n8n-workflow, zod,
 * Node, results). Needs `dist/` (`npm test` builds it before jest).
 */
import { mkdtempSync, realpathSync, rmSync } from '../../host/fs';
import { tmpdir } from '../../host/os';
import { join, sep } from '../../host/path';

import type { IDataObject } from 'n8n-workflow';

import { until } from '../tools/fake-timers';
import type { RecordedRequest } from '../../emulator/server';
import {
	assertDistBuilt,
	packAndInstallLikeN8n,
	PROJECT_ROOT,
	readPackageJson,
} from '../packaging/n8n-install';
import { chain, connectedCredential } from '../../harness/workflows';
import { WorkflowEnv } from '../workflows/support';
import { ensureReleaseInstalled, type ReleaseInstall } from './install';
import { N8N_RELEASES as ALL_RELEASES, type N8nRelease } from './releases';
import { datedByServiceClock } from '../workflows/trigger-service';
import { execFileSync } from '../../host/child_process';
import { TargetProcess } from './target-process';
import type { RunnerReady, RunnerRunResult } from './target-runner';
import { process } from '../../host/globals';

/** Installs may take minutes each on a cold cache (two at a time). */
const INSTALL_TIMEOUT_MS = 30 * 60_000;
const SCENARIO_TIMEOUT_MS = 120_000;
/** The pacing rule scaled down (documented: 100 per 2 minutes, 30 minutes blocked), for the package's pacer and the emulator alike. */
const PACING_RULE = { limit: 2, windowMs: 1_500, blockMs: 3_000 };
/** Scenario e: a Retry-After far longer than any test may take; the stop must end the wait. */
const RETRY_AFTER_SECONDS = 20 * 60;

const SCENARIOS = ['modules', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] as const;
/** The releases to run (MATRIX_RELEASES: a comma-separated list of n8n versions), all by default. */
const RELEASES = process.env.MATRIX_RELEASES
	? ALL_RELEASES.filter((r) => process.env.MATRIX_RELEASES!.split(',').includes(r.n8n))
	: ALL_RELEASES;
type Scenario = (typeof SCENARIOS)[number];

const pkg = readPackageJson(PROJECT_ROOT);
const results = new Map<string, Map<Scenario, string>>(RELEASES.map((r) => [r.n8n, new Map()]));
const seen = new Map<string, RunnerReady>();
/** How the harness adapted to each release (feature detection), for the report. */
const adapted = new Map<string, Set<string>>(RELEASES.map((r) => [r.n8n, new Set()]));

let userFolder: string;
let packageDir: string;
const installs = new Map<string, Promise<ReleaseInstall>>();

/** Runs `task` over `items` with at most `limit` at once; one promise per item. */
function limited<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T) => Promise<R>,
): Array<Promise<R>> {
	let running = 0;
	const waiting: Array<() => void> = [];
	return items.map(async (item) => {
		if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
		running++;
		try {
			return await task(item);
		} finally {
			running--;
			waiting.shift()?.();
		}
	});
}

beforeAll(async () => {
	assertDistBuilt();
	// the releases' installs start now, two at a time, while the package is packed
	limited(RELEASES, 2, ensureReleaseInstalled).forEach((promise, i) => {
		promise.catch(() => undefined); // awaited (and reported) by the release's own beforeAll
		installs.set(RELEASES[i].n8n, promise);
	});
	userFolder = realpathSync(mkdtempSync(join(tmpdir(), 'n8n-matrix-user-')));
	packageDir = (await packAndInstallLikeN8n(userFolder)).packageDir;
	if (process.env.MATRIX_COMPILE_SOURCES === '1') {
		const out = join(packageDir, 'dist');
		execFileSync(
			process.execPath,
			[
				join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
				'-p',
				join(PROJECT_ROOT, 'tsconfig.json'),
				'--outDir',
				out,
				'--tsBuildInfoFile',
				join(out, '.tsbuildinfo'),
			],
			{ cwd: PROJECT_ROOT },
		);
	}
}, INSTALL_TIMEOUT_MS);

afterAll(() => {
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	const lines = RELEASES.map((release) => {
		const ready = seen.get(release.n8n);
		const version = (name: string, wanted: string) =>
			ready?.harnessModules[name]?.version ?? `${wanted}?`;
		const outcome = SCENARIOS.map(
			(s) => `${s}:${results.get(release.n8n)?.get(s) ?? 'not run'}`,
		).join(' ');
		return `n8n ${release.n8n} | n8n-core ${version('n8n-core', release.n8nCore)} | n8n-workflow ${version('n8n-workflow', release.n8nWorkflow)} | zod ${version('zod', release.zod)} | Node ${ready?.node ?? process.version} | ${outcome}`;
	});
	const adaptations = RELEASES.map(
		(release) =>
			`n8n ${release.n8n}: ${[...(adapted.get(release.n8n) ?? [])].join('; ') || 'none'}`,
	);
	process.stdout.write(
		`\nversion matrix (test/matrix):\n${lines.join('\n')}\nharness adaptations:\n${adaptations.join('\n')}\n`,
	);
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Books Item -> Get Many in the emulator's organisation. */
function booksList(env: WorkflowEnv, parameters: IDataObject = {}) {
	return chain([
		env.orgSteps('vendorBooks', { resource: 'item' })('Items', {
			operation: 'getAll',
			returnAll: true,
			...parameters,
		}),
	]);
}

function statuses(requests: RecordedRequest[]): number[] {
	return requests.map((r) => r.status);
}

/** The run's error as one line (for failure messages). */
function errorOf(run: RunnerRunResult): string | undefined {
	if (!run.error) return undefined;
	const { className, name, message, description, causes } = run.error;
	// errors in the run data may be plain objects: their class says nothing then
	const label = className && className !== 'Object' ? className : name;
	return [`${label}: ${message}`, description, ...causes].filter(Boolean).join(' | ');
}

/** Fails with the run's own error when it did not succeed. */
function expectSucceeded(run: RunnerRunResult): void {
	if (run.error) throw new Error(`the run failed (${run.status}): ${errorOf(run)}`);
}

/** A failure message as one short line for the summary: the message's first lines without jest's matcher hint. */
function summaryOf(error: Error): string {
	const lines = error.message
		.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line && !/^expect\(/.test(line));
	const text = lines.slice(0, 6).join(' ').replace(/\s+/g, ' ');
	return text.length > 200 ? `${text.slice(0, 197)}...` : text || 'failed';
}

describe.each(RELEASES.map((release) => [release.n8n, release] as const))(
	'n8n %s',
	(_name, release: N8nRelease) => {
		const env = new WorkflowEnv();
		const child = new TargetProcess();
		/** A workflow on the release's engine (the harness's adaptations noted for the report). */
		const runOnRelease = async (
			...args: Parameters<TargetProcess['run']>
		): Promise<RunnerRunResult> => {
			const run = await child.run(...args);
			for (const what of run.adaptations) adapted.get(release.n8n)!.add(what);
			return run;
		};
		let install: ReleaseInstall;
		let ready: RunnerReady;
		let setupError: Error | undefined;

		beforeAll(async () => {
			try {
				install = await installs.get(release.n8n)!;
				await env.start({ demo: true, rateLimit: PACING_RULE });
				ready = await child.start({
					n8nModules: install.nodeModules,
					packageDir,
					userFolder: join(userFolder, `n8n-${release.n8n}`),
				});
				seen.set(release.n8n, ready);
				for (const what of ready.adaptations) adapted.get(release.n8n)!.add(what);
			} catch (error) {
				setupError = error as Error;
			}
		}, INSTALL_TIMEOUT_MS);

		afterAll(async () => {
			await child.stop();
			await env.stop();
		});

		beforeEach(() => {
			if (!env.em) return;
			env.em.clearRequests();
			env.em.faults.clear();
			// each scenario starts connected with a fresh token, whatever the one before left behind
			env.credentials = [connectedCredential(env.em)];
		});

		/** A scenario: its outcome is recorded for the summary line, its failure fails the test. */
		function scenario(key: Scenario, title: string, body: () => Promise<void>): void {
			test(
				`${key}. ${title}`,
				async () => {
					const run = async () => {
						if (setupError) throw new Error(`set-up failed: ${setupError.message}`);
						await body();
					};
					await run().then(
						() => results.get(release.n8n)!.set(key, 'pass'),
						(error: unknown) => {
							results.get(release.n8n)!.set(key, `FAIL (${summaryOf(error as Error)})`);
							throw error;
						},
					);
				},
				SCENARIO_TIMEOUT_MS,
			);
		}

		scenario(
			'modules',
			"the child runs on this release's own n8n-core, n8n-workflow and zod, not the project's",
			async () => {
				const inRelease = install.nodeModules + sep;
				expect(
					Object.fromEntries(
						Object.entries(ready.harnessModules).map(([name, m]) => [
							name,
							m.file.startsWith(inRelease),
						]),
					),
				).toEqual({
					'n8n-core': true,
					'n8n-workflow': true,
					zod: true,
					'@n8n/di': true,
					'@n8n/backend-common': true,
				});
				expect({
					'n8n-core': ready.harnessModules['n8n-core'].version,
					'n8n-workflow': ready.harnessModules['n8n-workflow'].version,
					zod: ready.harnessModules.zod.version,
				}).toEqual({
					'n8n-core': release.n8nCore,
					'n8n-workflow': release.n8nWorkflow,
					zod: release.zod,
				});
				// the installed package gets the same n8n-workflow and zod, through NODE_PATH
				expect(ready.packageModules['n8n-workflow']).toEqual(ready.harnessModules['n8n-workflow']);
				expect(
					ready.packageModules['zod/v3'].file.startsWith(join(install.nodeModules, 'zod') + sep),
				).toBe(true);
				for (const files of Object.values(ready.facts.external))
					for (const file of files) expect(file.startsWith(inRelease)).toBe(true);
				// of the project's node_modules only typescript (to transpile the test sources), nothing of its dist/ or sources
				expect(
					ready.projectNodeModules.filter(
						(file) => !file.startsWith(join(PROJECT_ROOT, 'node_modules', 'typescript') + sep),
					),
				).toEqual([]);
				expect(ready.facts.projectModules).toEqual([]);
				// no native addon: the installs skip install scripts, so isolated-vm (n8n's VM expression engine,
				// loaded only when that engine is switched on) is not built, and has no prebuild for Node 20
				expect(ready.nativeAddons).toEqual([]);
			},
		);

		scenario(
			'a',
			"the loader loads the 10 nodes and 1 credential; Books Item -> Get Many returns the emulator's items",
			async () => {
				const { facts } = ready;
				expect(facts.packageName).toBe(pkg.name);
				expect(facts.nodes.map((n) => n.sourcePath).sort()).toEqual([...pkg.n8n.nodes].sort());
				expect(facts.nodes).toHaveLength(10);
				expect(facts.credentials.map((c) => [c.name, c.sourcePath])).toEqual([
					['vendorOAuth2Api', pkg.n8n.credentials[0]],
				]);
				// each class from the installed package's file, loaded there (not from this project's dist/)
				for (const { file, loaded } of [...facts.nodes, ...facts.credentials])
					expect({ file, loaded }).toEqual({
						file: expect.stringMatching(new RegExp(`^${escapeRegExp(packageDir + sep)}dist/`)),
						loaded: true,
					});

				// what the emulator lists (its active items), asked directly
				const listed = (await env.call('GET', 'books', '/items')).body as { items: IDataObject[] };
				expect(listed.items.length).toBeGreaterThan(0);
				env.em.clearRequests();
				const run = await runOnRelease(booksList(env), env.credentials);
				expectSucceeded(run);
				expect(run.outputs.Items.map((i) => [String(i.item_id), i.name]).sort()).toEqual(
					listed.items.map((i) => [String(i.item_id), i.name]).sort(),
				);
				expect(statuses(env.apiRequests())).toEqual([200]);
				expect(run.nativeAddons).toEqual([]); // expressions (the credential's URLs) ran on n8n's default engine
			},
		);

		scenario(
			'b',
			'a stale token: the run succeeds after exactly one token call, and the new token is stored in the credential store',
			async () => {
				const before = String(env.storedToken.access_token);
				env.em.accounts.expireAllAccessTokens();
				const run = await runOnRelease(
					booksList(env, { returnAll: false, limit: 1 }),
					env.credentials,
				);
				expectSucceeded(run);
				expect(run.outputs.Items).toHaveLength(1);
				expect(env.tokenRequests().map((r) => [r.method, r.path, r.status])).toEqual([
					['POST', '/us/oauth/v2/token', 200],
				]);
				const stored = run.credentials[0].data.oauthTokenData as IDataObject;
				expect(stored.access_token).toEqual(expect.any(String));
				expect(stored.access_token).not.toBe(before);
				// n8n's credentials helper got the new token (updateCredentials), and the API call that succeeded carried it
				expect(
					run.updates.map((u) => (u.data.oauthTokenData as IDataObject | undefined)?.access_token),
				).toContain(stored.access_token);
				const books = env.apiRequests();
				expect(books[books.length - 1]).toMatchObject({
					status: 200,
					headers: expect.objectContaining({
						authorization: `Vendor-oauthtoken ${String(stored.access_token)}`,
					}),
				});
			},
		);

		scenario(
			'c',
			'a 503 once: the read waits, is retried and succeeds; the emulator saw it twice',
			async () => {
				env.em.faults.next(1, { kind: 'status', status: 503 }, 'books');
				const run = await runOnRelease(
					booksList(env, { returnAll: false, limit: 1 }),
					env.credentials,
				);
				expectSucceeded(run);
				expect(run.outputs.Items).toHaveLength(1);
				expect(statuses(env.apiRequests())).toEqual([503, 200]);
			},
		);

		scenario(
			'd',
			"Vendor Projects over the pacing rule (scaled down in the installed package's own pacer): all succeed, no 429",
			async () => {
				const pacing = await child.setPacingRule(PACING_RULE);
				expect(pacing).toMatchObject({ wasLoadedByTheNodes: true, rule: PACING_RULE });
				env.em.resetRateLimits();
				const requests = 2 * PACING_RULE.limit + 1; // the limit twice over, then one more: some must wait a window
				const items = Array.from({ length: requests }, (_, i) => ({ i }));
				const workflow = chain(
					[env.portalSteps({ resource: 'portal', operation: 'get' })('Portal', {})],
					items,
				);
				const run = await runOnRelease(workflow, env.credentials);
				expectSucceeded(run);
				expect(run.outputs.Portal).toHaveLength(requests);
				const projects = env.apiRequests().filter((r) => r.area === 'projects');
				expect(statuses(projects)).toEqual(Array.from({ length: requests }, () => 200));
			},
		);

		scenario(
			'f',
			'a trigger activated during an outage stays active and, after n8n starts again, emits the invoice made while n8n was down, once',
			async () => {
				const proxy = await datedByServiceClock(env, env.em.clock);
				try {
					const customer = String(env.orgTenant().all('customers')[0].customer_id);
					const newInvoice = async () => String((await env.newInvoice(customer, 10)).id);
					await newInvoice();
					// activation begins in a later second of the service's clock (the emulator's clock stands still)
					env.em.clock.advance(2_000);
					env.em.clearRequests();
					const trigger = {
						nodeName: 'vendorBooksTrigger',
						parameters: { organizationId: env.org, event: 'invoiceCreated' },
						credentials: env.credentials,
					};
					env.em.faults.next(100, { kind: 'status', status: 503 }, 'books');
					const activated = await child.activate(trigger);
					expect(activated).toMatchObject({ active: true, scheduled: 1, emitted: [], errors: [] });
					// the poll at activation made one call, no retry and no wait, on each release's own engine (n8n
					// 2.41 gives the activation 84 s); the 30-s bound is proven on the test's clock for every
					// trigger and answer in test/workflows/trigger-fail-fast.test.ts, not on this machine's time
					expect(statuses(env.apiRequests())).toEqual([503]);
					// n8n stops; an invoice is made; the outage is over; n8n starts again with the kept state
					await child.deactivate(activated.key);
					env.em.faults.clear();
					env.em.clock.advance(2_000);
					const whileDown = await newInvoice();
					const restarted = await child.activate({
						...trigger,
						staticData: activated.staticData,
						activation: 'init',
					});
					expect(restarted).toMatchObject({ active: true, scheduled: 1, errors: [] });
					env.em.clock.advance(5 * 60_000);
					const polled = await child.poll(restarted.key);
					expect(polled.errors).toEqual([]);
					expect(polled.emitted.map((r) => String(r.invoice_id))).toEqual([whileDown]);
					await child.deactivate(restarted.key);
				} finally {
					await proxy.close();
				}
			},
		);

		scenario(
			'g',
			"Retry On Fail: item 1 refused on every try, item 0's create sent once and named in the report",
			async () => {
				const names = ['Matrix retry 0', 'Matrix retry 1', 'Matrix retry 2'].map(
					(n) => `${n} ${release.n8n}`,
				);
				const refusal = {
					kind: 'html',
					status: 400,
					contentType: 'application/json',
					body: JSON.stringify({ code: 1, message: 'Refused for this test.' }),
				} as const;
				env.em.faults.next(
					100,
					refusal,
					(r) => r.method === 'POST' && (r.body as IDataObject | undefined)?.name === names[1],
				);
				const step = env.orgSteps('vendorBooks', { resource: 'item' })(
					'Create',
					{ operation: 'create', name: '={{ $json.name }}', options: { requestsInFlight: 1 } },
					{ retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
				);
				const run = await runOnRelease(
					chain(
						[step],
						names.map((name) => ({ name })),
					),
					env.credentials,
				);
				const creates = env
					.apiRequests()
					.filter((r) => r.method === 'POST' && /\/items$/.test(r.path));
				const sentFor = (name: string) =>
					creates.filter((r) => (r.body as IDataObject).name === name).map((r) => r.status);
				// three tries on the release's engine (item 1 refused each time); item 0 made once; item 2 never reached
				expect(sentFor(names[1])).toEqual([400, 400, 400]);
				expect(sentFor(names[0])).toEqual([201]);
				expect(sentFor(names[2])).toEqual([]);
				const made = env
					.orgTenant()
					.all('items')
					.find((i) => i.name === names[0]);
				expect(run.error?.message).toMatch(/\[item 1; 1 of 3 items done, 1 not sent\]$/);
				expect(run.error?.description).toContain(`item 0: item_id ${String(made?.item_id)}`);
			},
		);

		scenario(
			'h',
			'the error output: a record not found goes there, paired; the found one stays on the main output',
			async () => {
				const known = String(env.orgTenant().all('items')[0].item_id);
				const step = env.orgSteps('vendorBooks', { resource: 'item' })(
					'Get',
					{ operation: 'get', item_id: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
					{ onError: 'continueErrorOutput' },
				);
				const run = await runOnRelease(
					chain([step], [{ id: known }, { id: '1999999999999' }]),
					env.credentials,
				);
				expectSucceeded(run);
				expect(run.outputs.Get.map((o) => String(o.item_id))).toEqual([known]);
				expect(run.errorOutputs.Get.map((o) => o.item)).toEqual([1]);
				expect(String((run.errorOutputs.Get[0].json.error as IDataObject).message)).toMatch(
					/\[item 1\]$/,
				);
			},
		);

		scenario(
			'e',
			'a stop during a 20-minute Retry-After wait ends the run as canceled, long before the wait would',
			async () => {
				env.em.faults.next(
					1,
					{ kind: 'status', status: 429, retryAfter: RETRY_AFTER_SECONDS },
					'books',
				);
				const running = runOnRelease(
					booksList(env, { options: { onRateLimitBlock: 'wait' } }),
					env.credentials,
				);
				// the stop comes once the 429 has been answered (the wait has begun), however slow the machine
				await until(() => env.apiRequests().some((r) => r.status === 429));
				expect(await child.cancel()).toEqual({ cancelled: true });
				const run = await running;
				// the wait began (one 429, nothing retried) and the stop ended it: canceled, not failed with an error of the package's own
				if (run.status !== 'canceled')
					throw new Error(
						`the run ended "${run.status}", not canceled: ${errorOf(run) ?? 'no error'}`,
					);
				expect(statuses(env.apiRequests())).toEqual([429]);
				expect(errorOf(run)).toMatch(/cancel|stop/i);
				expect(errorOf(run)).not.toMatch(/TypeError|is not a function/);
				expect(run.durationMs).toBeLessThan((RETRY_AFTER_SECONDS * 1000) / 4);
			},
		);
	},
);
