/**
 * The emulator's accounting rate limit (limits.ts): off by default; when asked for, at most
 * `limit` requests per sliding window per region and organization across the accounting areas,
 * 429 past it without a block, Retry-After only with the option.
 * Run: npx jest test/emulator/limits
 */
import { Clock } from '../../emulator/clock';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';

let em: Emulator;
let call: ReturnType<typeof apiClient>;
const OTHER_ORG = '600000002';

afterEach(async () => em.close());

test('off by default: more than 100 accounting requests within a minute are all answered', async () => {
	em = await startEmulator({ clock: new Clock() });
	call = apiClient(em, { token: em.issueToken().access_token });
	for (let i = 0; i < 105; i++) expect((await call('GET', 'books', '/items')).status).toBe(200);
});

test('per organization across the accounting areas, sliding, no block, no Retry-After unless asked for (frozen clock)', async () => {
	const clock = new Clock();
	em = await startEmulator({ clock, accountingRateLimit: { limit: 3, windowMs: 1000 } });
	em.store.addOrg('us', OTHER_ORG, 'Other Org');
	call = apiClient(em, { token: em.issueToken().access_token });
	// Books (query), Payments (header), Billing (header): one count for the organization
	expect((await call('GET', 'books', '/items')).status).toBe(200);
	clock.advance(400);
	expect((await call('GET', 'invoice', '/customerpayments')).status).toBe(200);
	expect((await call('GET', 'billing', '/projects')).status).toBe(200);
	const limited = await call('GET', 'books', '/items');
	expect(limited.status).toBe(429);
	expect(limited.body).toEqual({
		code: 429,
		message: 'Too many requests: at most 3 per 1 s per organization',
	});
	expect(limited.headers['retry-after']).toBeUndefined();
	// another organization has its own count; the project area is not counted here
	expect((await call('GET', 'books', '/items', { org: OTHER_ORG })).status).toBe(200);
	expect((await call('GET', 'projects', '/portals')).status).toBe(200);
	// a refused request does not count, and there is no block: the first request leaves the window after 1000 ms
	clock.advance(599);
	expect((await call('GET', 'books', '/items')).status).toBe(429);
	clock.advance(1);
	expect((await call('GET', 'books', '/items')).status).toBe(200);
	expect((await call('GET', 'books', '/items')).status).toBe(429);
	em.resetRateLimits();
	expect((await call('GET', 'books', '/items')).status).toBe(200);
});

test('with retryAfter: the seconds until the oldest counted request leaves the window, rounded up', async () => {
	const clock = new Clock();
	em = await startEmulator({
		clock,
		accountingRateLimit: { limit: 2, windowMs: 60_000, retryAfter: true },
	});
	call = apiClient(em, { token: em.issueToken().access_token });
	expect((await call('GET', 'books', '/items')).status).toBe(200);
	clock.advance(45_000);
	expect((await call('GET', 'books', '/items')).status).toBe(200);
	clock.advance(500);
	const limited = await call('GET', 'books', '/items');
	expect(limited.status).toBe(429);
	expect(limited.headers['retry-after']).toBe('15');
	clock.advance(14_500);
	expect((await call('GET', 'books', '/items')).status).toBe(200);
});
