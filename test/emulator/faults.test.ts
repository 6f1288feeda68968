/**
 * Fault switches, the admin routes and the project-management rate limit.
 * Run: npx jest test/emulator/faults
 */
import { Clock } from '../../emulator/clock';
import { until, useFakeTimersOnly } from '../tools/fake-timers';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';

let em: Emulator;
let call: ReturnType<typeof apiClient>;

async function itemNames(): Promise<string[]> {
	const r = await call('GET', 'books', '/items', { query: { filter_by: 'Status.All' } });
	return r.body.items.map((i: { name: string }) => i.name);
}

describe('faults on demand', () => {
	beforeEach(async () => {
		em = await startEmulator({ clock: new Clock() });
		call = apiClient(em, { token: em.issueToken().access_token });
	});
	afterEach(async () => em.close());

	test('status 500 / 503: answered at once in the area form, nothing processed; then normal again', async () => {
		em.faults.next(1, { kind: 'status', status: 500 });
		const r = await call('POST', 'books', '/items', { json: { name: 'Never stored' } });
		expect(r.status).toBe(500);
		expect(r.body).toEqual({ code: 500, message: 'Internal error.' });
		expect(await itemNames()).toEqual([]);
		em.faults.next(1, { kind: 'status', status: 503 });
		const p = await call('GET', 'projects', '/portals');
		expect(p.status).toBe(503);
		expect(p.body.errorCode).toBe('INTERNAL_SERVER_ERROR');
		expect((await call('GET', 'projects', '/portals')).status).toBe(200);
	});

	test('status 429 with Retry-After and a custom body', async () => {
		em.faults.next(1, { kind: 'status', status: 429, retryAfter: 7 });
		const r = await call('GET', 'projects', '/portals');
		expect(r.status).toBe(429);
		expect(r.headers['retry-after']).toBe('7');
		expect(r.body.errorCode).toBe('TOO_MANY_REQUESTS');
		em.faults.next(1, { kind: 'status', status: 429, body: { code: 44, message: 'custom' } });
		const c = await call('GET', 'books', '/items');
		expect(c.status).toBe(429);
		expect(c.body).toEqual({ code: 44, message: 'custom' });
		expect(c.headers['retry-after']).toBeUndefined();
	});

	test('n and scope: an operation id, an area, a predicate; other requests pass', async () => {
		em.faults.next(2, { kind: 'status', status: 503 }, 'books.item.create');
		expect((await call('GET', 'books', '/items')).status).toBe(200);
		expect((await call('POST', 'books', '/items', { json: { name: 'a' } })).status).toBe(503);
		expect((await call('POST', 'books', '/items', { json: { name: 'b' } })).status).toBe(503);
		expect((await call('POST', 'books', '/items', { json: { name: 'c' } })).status).toBe(201);
		em.faults.next(1, { kind: 'status', status: 500 }, 'billing');
		expect((await call('GET', 'books', '/items')).status).toBe(200);
		expect((await call('GET', 'billing', '/projects')).status).toBe(500);
		em.faults.next(
			1,
			{ kind: 'status', status: 500 },
			(t) => t.method === 'GET' && t.path.endsWith('/bills'),
		);
		expect((await call('GET', 'inventory', '/bills')).status).toBe(500);
		expect(em.faults.pending()).toEqual([]);
	});

	test('hang: the answer comes after ms, not before; a client that gives up early still gets the write processed', async () => {
		useFakeTimersOnly();
		try {
			em.faults.next(1, { kind: 'hang', ms: 300 });
			let answered = false;
			const slow = call('GET', 'books', '/items').then((r) => {
				answered = true;
				return r;
			});
			await until(() => jest.getTimerCount() === 1 || answered); // it reached the server, which holds it
			expect(answered).toBe(false);
			// a later request is answered meanwhile (the fault was for one request only)
			expect((await call('GET', 'books', '/items')).status).toBe(200);
			await jest.advanceTimersByTimeAsync(299);
			expect(jest.getTimerCount()).toBe(1); // 299 ms on: still held
			expect(answered).toBe(false);
			await jest.advanceTimersByTimeAsync(1);
			expect((await slow).status).toBe(200);

			em.faults.next(1, { kind: 'hang', ms: 300 });
			const url = `${em.regionUrls().api}/books/v3/items?organization_id=${em.organizationId}`;
			const giveUp = new AbortController();
			let settled = false;
			const aborted = fetch(url, {
				method: 'POST',
				headers: {
					Authorization: `Vendor-oauthtoken ${em.issueToken().access_token}`,
					'Content-Type': 'application/json',
				},
				body: JSON.stringify({ name: 'Slow write' }),
				signal: giveUp.signal,
			}).finally(() => (settled = true));
			await until(() => jest.getTimerCount() === 1 || settled); // the write reached the server, which holds it
			expect(settled).toBe(false);
			giveUp.abort();
			await expect(aborted).rejects.toThrow();
			expect(await itemNames()).toEqual([]); // not processed yet
			await jest.advanceTimersByTimeAsync(300);
			expect(await itemNames()).toEqual(['Slow write']);
		} finally {
			jest.useRealTimers();
		}
	});

	test('drop: the connection is cut, nothing is processed, the request is recorded with status 0', async () => {
		em.faults.next(1, { kind: 'drop' });
		await expect(call('POST', 'books', '/items', { json: { name: 'Dropped' } })).rejects.toThrow();
		expect(await itemNames()).toEqual([]);
		expect(em.requests.find((r) => r.operation === 'books.item.create')).toMatchObject({
			status: 0,
			body: { name: 'Dropped' },
		});
	});

	test('dropAfterCommit: the write is committed, then the connection is cut', async () => {
		em.faults.next(1, { kind: 'dropAfterCommit' }, 'books.item.create');
		await expect(
			call('POST', 'books', '/items', { json: { name: 'Committed' } }),
		).rejects.toThrow();
		expect(await itemNames()).toEqual(['Committed']);
		expect(em.requests.find((r) => r.operation === 'books.item.create')?.status).toBe(0);
	});

	test('the accounts server can be faulted with scope "accounts"; unscoped faults do not touch it', async () => {
		em.faults.next(1, { kind: 'status', status: 503 });
		const token = (rt: string) =>
			fetch(`${em.url}/us/oauth/v2/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({
					grant_type: 'refresh_token',
					refresh_token: rt,
					client_id: em.defaultClient.clientId,
					client_secret: em.defaultClient.clientSecret,
				}),
			});
		const rt = em.issueToken().refresh_token;
		expect((await token(rt)).status).toBe(200);
		em.faults.clear();
		em.faults.next(1, { kind: 'status', status: 503 }, 'accounts');
		expect((await token(rt)).status).toBe(503);
		expect((await token(rt)).status).toBe(200);
	});

	test('admin routes: queue a fault, expire tokens, revoke a refresh token, move the clock', async () => {
		const post = (path: string, body: unknown) =>
			fetch(`${em.url}/__admin/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		expect(
			(await post('faults', { count: 1, fault: { kind: 'status', status: 418 } })).status,
		).toBe(400);
		expect(
			(
				await post('faults', {
					count: 1,
					fault: { kind: 'status', status: 503 },
					scope: 'books.item.getAll',
				})
			).status,
		).toBe(200);
		expect((await call('GET', 'books', '/items')).status).toBe(503);
		expect((await call('GET', 'books', '/items')).status).toBe(200);

		expect((await post('tokens/expire', {})).status).toBe(200);
		expect((await call('GET', 'books', '/items')).status).toBe(401);

		const issued = (await (
			await post('tokens', { scopes: ['VendorBooks.settings.READ'] })
		).json()) as { access_token: string; refresh_token: string };
		expect((await call('GET', 'books', '/items', { token: issued.access_token })).status).toBe(200);
		await post('tokens/revoke', { refresh_token: issued.refresh_token });
		expect((await call('GET', 'books', '/items', { token: issued.access_token })).status).toBe(401);

		const before = em.clock.now();
		const clock = (await (await post('clock', { advanceMs: 5000 })).json()) as { now: number };
		expect(clock.now).toBe(before + 5000);
		const info = (await (await fetch(`${em.url}/__admin/info`)).json()) as Record<string, unknown>;
		expect(info).toMatchObject({
			url: em.url,
			organizationId: em.organizationId,
			portalId: em.portalId,
			clientId: em.defaultClient.clientId,
		});
		expect(JSON.stringify(info)).not.toContain(em.defaultClient.clientSecret);
	});
});

describe('project-management rate limit', () => {
	afterEach(async () => em.close());

	test('scaled to 5 per 500 ms with a 1 s block: 429 past the limit, the block outlasts the window and lifts when it ends (frozen clock)', async () => {
		const clock = new Clock();
		em = await startEmulator({ clock, rateLimit: { limit: 5, windowMs: 500, blockMs: 1000 } });
		call = apiClient(em, { token: em.issueToken().access_token });
		for (let i = 0; i < 5; i++)
			expect((await call('GET', 'projects', '/portals')).status).toBe(200);
		const limited = await call('GET', 'projects', '/portals');
		expect(limited.status).toBe(429);
		expect(limited.body.errorCode).toBe('TOO_MANY_REQUESTS');
		expect(limited.headers['retry-after']).toBeUndefined();
		// the accounting areas are not limited
		expect((await call('GET', 'books', '/items')).status).toBe(200);
		// the block holds beyond the window, to its last millisecond; a refused request does not prolong it
		clock.advance(600);
		expect((await call('GET', 'projects', '/portals')).status).toBe(429);
		clock.advance(399);
		expect((await call('GET', 'projects', '/portals')).status).toBe(429);
		clock.advance(1);
		expect((await call('GET', 'projects', '/portals')).status).toBe(200);
	});

	test('sliding window per client; Retry-After only with the option (frozen clock)', async () => {
		const clock = new Clock();
		em = await startEmulator({
			clock,
			rateLimit: { limit: 3, windowMs: 1000, blockMs: 10_000 },
			retryAfterHeader: true,
			clients: [
				{ clientId: '1000.OTHER', clientSecret: 's', redirectUris: ['http://x/cb'], name: 'Other' },
			],
		});
		call = apiClient(em, { token: em.issueToken().access_token });
		const other = em.accounts.issueTokens({
			clientId: '1000.OTHER',
			region: 'us',
			scopes: ['VendorProjects.portals.READ'],
		}).access_token;
		for (let i = 0; i < 3; i++) {
			expect((await call('GET', 'projects', '/portals')).status).toBe(200);
			clock.advance(400);
		}
		// a refused token is answered 401 and not counted
		expect((await call('GET', 'projects', '/portals', { token: 'bogus' })).status).toBe(401);
		// the first hit left the window 1000 ms after it: one more fits
		expect((await call('GET', 'projects', '/portals')).status).toBe(200);
		const limited = await call('GET', 'projects', '/portals');
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('10');
		// another client is counted separately; 401s do not count
		expect((await call('GET', 'projects', '/portals', { token: other })).status).toBe(200);
		clock.advance(9_000);
		expect((await call('GET', 'projects', '/portals')).headers['retry-after']).toBe('1');
		clock.advance(1_000);
		expect((await call('GET', 'projects', '/portals')).status).toBe(200);
		em.resetRateLimits();
	});
});
