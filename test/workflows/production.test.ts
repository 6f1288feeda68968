/**
 * Production behaviour of the transport on n8n's engine against the emulator: a write whose
 * answer is lost or 5xx says in its headline that the outcome is unknown (and is sent once),
 * a stopped execution does not wait out a hanging server, and many executions starting
 * together on an expired token share one refresh.
 */
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { until, useFakeTimersOnly } from '../tools/fake-timers';
import { runWorkflow } from '../../harness';
import { chain, NODE_TYPES } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const items = env.orgSteps('vendorBooks', { resource: 'item' });
const create = () =>
	items(
		'Create',
		{ operation: 'create', name: 'Widget', rate: 5 },
		{ onError: 'continueRegularOutput' },
	);

test('a create whose connection drops after the server committed: headline "Outcome unknown", sent once, never repeated', async () => {
	env.em.faults.next(1, { kind: 'dropAfterCommit' });
	const result = await env.run([create()]);
	const out = result.output('Create');
	expect(out).toHaveLength(1);
	expect(String(out[0].json.error)).toMatch(/^Outcome unknown: the write may have been processed/);
	expect(String(out[0].json.error)).not.toMatch(/retry the request/i);
	expect(env.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
});

test('a create answered 500: headline "Outcome unknown", sent once', async () => {
	env.em.faults.next(1, { kind: 'status', status: 500 });
	const result = await env.run([create()]);
	expect(String(result.output('Create')[0].json.error)).toMatch(
		/^Outcome unknown: the write may have been processed/,
	);
	expect(env.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
});

test('a read answered 500 is retried and still succeeds (reads are safe to repeat)', async () => {
	env.em.faults.next(1, { kind: 'status', status: 500 });
	const result = await env.run([
		items('List', { operation: 'getAll', returnAll: false, limit: 1 }),
	]);
	expect(result.output('List')).toHaveLength(1);
	expect(env.apiRequests().map((r) => r.status)).toEqual([500, 200]);
});

test('a stopped execution does not wait out a server that hangs for 30 s', async () => {
	// fake timers (only they): the emulator's hang and the harness's stop are timers, so the stop comes
	// exactly while the server holds the request, however slowly the run started
	useFakeTimersOnly();
	try {
		const hangMs = 30_000;
		env.em.faults.next(1, { kind: 'hang', ms: hangMs });
		const run = runWorkflow({
			workflow: chain([items('List', { operation: 'getAll', returnAll: false, limit: 1 })]),
			nodeTypes: NODE_TYPES,
			credentialTypes: [VendorOAuth2Api],
			credentials: env.credentials,
			timeoutMs: 500,
		});
		// the request reached the server, which took the fault: it holds the request
		await until(() => env.em.faults.pending().length === 0);
		await jest.advanceTimersByTimeAsync(500); // the stop; the hang has 29.5 s to go
		const result = await run;
		// the run ended while the server still held the request: it was never answered (status 0 until the server answers)
		expect(env.apiRequests().map((r) => r.status)).toEqual([0]);
		expect(['canceled', 'error']).toContain(result.run.status);
		expect(result.output('List')).toHaveLength(0);
		expect(String(result.error('List')?.message ?? result.error()?.message ?? '')).toMatch(
			/stopped|cancel|abort/i,
		);
	} finally {
		jest.useRealTimers();
	}
});

test('50 executions starting together on an expired token make at most 2 refresh calls and all succeed', async () => {
	env.em.accounts.expireAllAccessTokens();
	env.em.clearRequests();
	const runs = await Promise.all(
		Array.from(
			{ length: 50 },
			async () =>
				await env.run([items('List', { operation: 'getAll', returnAll: false, limit: 1 })]),
		),
	);
	for (const result of runs) expect(result.output('List')).toHaveLength(1);
	const refreshes = env
		.tokenRequests()
		.filter((r) => JSON.stringify(r.body ?? '').includes('refresh_token'));
	expect(refreshes.length).toBeGreaterThanOrEqual(1);
	expect(refreshes.length).toBeLessThanOrEqual(2);
});

test.each([
	['HTTP 500', { kind: 'status', status: 500 } as const],
	['a dropped connection', { kind: 'drop' } as const],
])(
	'a token endpoint failing with %s: the error says to reconnect and carries no secret',
	async (_label, fault) => {
		env.em.accounts.expireAllAccessTokens();
		// the redirect check before the refresh, and the refresh
		env.em.faults.next(
			2,
			fault,
			(r) => r.area === 'accounts' && r.path.includes('/oauth/v2/token'),
		);
		const result = await env.run([
			items(
				'List',
				{ operation: 'getAll', returnAll: false, limit: 1 },
				{ onError: 'continueRegularOutput' },
			),
		]);
		const out = result.output('List');
		expect(out).toHaveLength(1);
		expect(String(out[0].json.error)).toMatch(/could not be refreshed/);
		expect(String(out[0].json.description)).toMatch(/Reconnect the Vendor credential/);
		const text = JSON.stringify(out);
		expect(text).not.toContain(env.em.defaultClient.clientSecret);
		expect(text).not.toContain(String(env.storedToken.refresh_token));
	},
);

test('50 executions on a refused refresh make one token call; the refusal is remembered until the credential is reconnected', async () => {
	env.em.accounts.revokeRefreshToken(String(env.storedToken.refresh_token));
	env.em.accounts.expireAllAccessTokens();
	env.em.clearRequests();
	const list = () =>
		items(
			'List',
			{ operation: 'getAll', returnAll: false, limit: 1 },
			{ onError: 'continueRegularOutput' },
		);
	const runs = await Promise.all(Array.from({ length: 50 }, async () => await env.run([list()])));
	for (const result of runs) {
		const out = result.output('List');
		expect(out).toHaveLength(1);
		expect(out[0].json.error).toBe(
			'The access token could not be refreshed (invalid_code) [item 0]',
		);
	}
	expect(env.tokenRequests()).toHaveLength(1);
	// a later execution in the same process: still no new token call
	const later = await env.run([list()]);
	expect(String(later.output('List')[0].json.description)).toMatch(
		/No new token call is made with this credential for 2 minutes, unless it is reconnected/,
	);
	expect(env.tokenRequests()).toHaveLength(1);
	// Reconnect stores new tokens: the memory does not apply to them
	const reconnected = env.em.issueToken({ region: 'us' });
	env.credentials[0].data.oauthTokenData = { ...reconnected } as never;
	const after = await env.run([list()]);
	expect(after.output('List')[0].json.error).toBeUndefined();
	expect(after.output('List')).toHaveLength(1);
});
