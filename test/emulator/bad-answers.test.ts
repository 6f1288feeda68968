/**
 * The bad-answer faults (faults.ts): html, truncated, empty, drip, endlessPages, checked
 * with a plain `node:http` client on what goes over the wire.
 * Run: npx jest test/emulator/bad-answers
 */
import http from '../../host/http';
import zlib from '../../host/zlib';
import { Clock } from '../../emulator/clock';
import { until } from '../tools/fake-timers';
import { endlessId } from '../../emulator/faults';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';
import { globalThis, setTimeout } from '../../host/globals';

let em: Emulator;
let call: ReturnType<typeof apiClient>;
let token: string;
let closed: boolean;

beforeEach(async () => {
	em = await startEmulator({ clock: new Clock() });
	token = em.issueToken().access_token;
	call = apiClient(em, { token });
	closed = false;
});
afterEach(async () => {
	if (!closed) await em.close();
});

// ---------------------------------------------------------------- a plain client

interface Raw {
	status: number;
	headers: import('node:http').IncomingHttpHeaders;
	body: Buffer;
	/** Each `data` event: its size and the bytes received so far. */
	chunks: Array<{ bytes: number; total: number; at: number }>;
	/** When the request was sent, its headers came, its body ended (client clock). */
	startedAt: number;
	headersAt: number;
	endAt: number;
	/** Set when the answer did not end normally (connection cut). */
	error?: Error;
}

interface RawOptions {
	method?: string;
	headers?: Record<string, string>;
	json?: unknown;
	/** Called on every data event; may destroy the request. */
	onData?: (req: import('node:http').ClientRequest, got: Raw) => void;
}

/** One request on a fresh connection; the answer's bytes as they came (no decompression). */
function raw(url: string, opts: RawOptions = {}): Promise<Raw> {
	const startedAt = Date.now();
	return new Promise((resolve, reject) => {
		const body = opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json));
		const headers: Record<string, string | number> = {
			Authorization: `Vendor-oauthtoken ${token}`,
			...(opts.headers ?? {}),
		};
		if (body)
			Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': body.length });
		const req = http.request(
			url,
			{ method: opts.method ?? 'GET', headers, agent: false },
			(res) => {
				const got: Raw = {
					status: res.statusCode ?? 0,
					headers: res.headers,
					body: Buffer.alloc(0),
					chunks: [],
					startedAt,
					headersAt: Date.now(),
					endAt: 0,
				};
				const parts: Buffer[] = [];
				let settled = false;
				const finish = (error?: Error): void => {
					if (settled) return;
					settled = true;
					got.body = Buffer.concat(parts);
					got.endAt = Date.now();
					if (error) got.error = error;
					resolve(got);
				};
				res.on('data', (c: Buffer) => {
					parts.push(c);
					const total = got.chunks.reduce((n, x) => n + x.bytes, 0) + c.length;
					got.chunks.push({ bytes: c.length, total, at: Date.now() });
					opts.onData?.(req, got);
				});
				res.on('end', () => finish(res.complete ? undefined : new Error('incomplete')));
				res.on('error', (e) => finish(e));
				res.on('close', () =>
					finish(res.complete ? undefined : new Error('closed before the end')),
				);
			},
		);
		req.on('error', (e) =>
			(e as NodeJS.ErrnoException).code === 'ECONNRESET' && req.destroyed ? undefined : reject(e),
		);
		req.end(body);
	});
}

function url(area: string, path: string, query: Record<string, string | number> = {}): string {
	const a = em.router.areas.find((x) => x.value === area);
	if (!a) throw new Error(`unknown area ${area}`);
	const urls = em.regionUrls();
	const u = new URL(`${a.family === 'projects' ? urls.projects : urls.api}${a.basePath}${path}`);
	if (a.org?.in === 'query') u.searchParams.set(a.org.name, em.organizationId);
	for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
	return u.toString();
}

const itemsUrl = (query: Record<string, string | number> = {}) => url('books', '/items', query);
const items = () => em.store.org('us', em.organizationId)!.all('items');
const isJson = (b: Buffer): boolean => {
	try {
		JSON.parse(b.toString('utf8'));
		return true;
	} catch {
		return false;
	}
};
/**
 * The timers started through the global setTimeout (the emulator's only way: pending.ts)
 * from now on that are still running: neither fired nor cleared. Counted here rather than
 * with process.getActiveResourcesInfo(), which sees every timer of the jest worker, other
 * test files' included (a busy CI runner once saw one more there than the emulator started).
 */
function watchTimers(): { running: () => number; stop: () => void } {
	const g = globalThis as unknown as {
		setTimeout: typeof setTimeout;
		clearTimeout: (t: unknown) => void;
	};
	const [set, clear] = [g.setTimeout, g.clearTimeout];
	const running = new Set<unknown>();
	g.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
		const t = set(
			(...a: unknown[]) => {
				running.delete(t);
				fn(...a);
			},
			ms,
			...args,
		);
		running.add(t);
		return t;
	}) as typeof setTimeout;
	g.clearTimeout = (t: unknown) => {
		running.delete(t);
		clear(t);
	};
	return {
		running: () => running.size,
		stop: () => {
			g.setTimeout = set;
			g.clearTimeout = clear;
		},
	};
}
let timers: ReturnType<typeof watchTimers> | undefined;
afterEach(() => {
	timers?.stop();
	timers = undefined;
});
const admin = (body: unknown) =>
	fetch(`${em.url}/__admin/faults`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});

// ---------------------------------------------------------------- html

describe('html', () => {
	test('default: 200, text/html, a browser-check page with its Content-Length; nothing processed', async () => {
		em.faults.next(1, { kind: 'html' });
		const r = await raw(itemsUrl(), { method: 'POST', json: { name: 'Never stored' } });
		expect(r.error).toBeUndefined();
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe('text/html');
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
		expect(r.body.toString()).toMatch(
			/^<!DOCTYPE html><html[^>]*><head><title>Just a moment\.\.\.<\/title>/,
		);
		expect(isJson(r.body)).toBe(false);
		expect(items()).toEqual([]);
		expect(em.requests.find((x) => x.operation === 'books.item.create')?.status).toBe(200);
	});

	test('status 502: the proxy error page', async () => {
		em.faults.next(1, { kind: 'html', status: 502 }, 'projects');
		const r = await raw(url('projects', '/portals'));
		expect(r.status).toBe(502);
		expect(r.headers['content-type']).toBe('text/html');
		expect(r.body.toString()).toMatch(
			/^<!DOCTYPE html><html><head><title>502 Bad Gateway<\/title><\/head>/,
		);
		expect(r.body.toString()).toContain('<center><h1>502 Bad Gateway</h1></center>');
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
	});

	test('labelled application/json: the page is still HTML and fails to parse; a custom body', async () => {
		em.faults.next(1, { kind: 'html', contentType: 'application/json' });
		const r = await raw(itemsUrl());
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe('application/json');
		expect(r.body.toString()).toMatch(/^<!DOCTYPE html>/);
		expect(isJson(r.body)).toBe(false);
		// what fetch makes of it
		em.faults.next(1, { kind: 'html', contentType: 'application/json' });
		await expect(
			(
				await fetch(itemsUrl(), { headers: { Authorization: `Vendor-oauthtoken ${token}` } })
			).json(),
		).rejects.toThrow(/not valid JSON/);

		em.faults.next(1, {
			kind: 'html',
			status: 504,
			body: '<html><body>Gateway Timeout</body></html>',
		});
		const c = await raw(itemsUrl());
		expect(c.status).toBe(504);
		expect(c.body.toString()).toBe('<html><body>Gateway Timeout</body></html>');
		expect(Number(c.headers['content-length'])).toBe(c.body.length);
	});

	test('the accounts server: the token endpoint answers the page, no token issued', async () => {
		em.faults.next(1, { kind: 'html', status: 503 }, 'accounts');
		const r = await tokenRefresh();
		expect(r.status).toBe(503);
		expect(r.headers['content-type']).toBe('text/html');
		expect(r.body.toString()).toContain('<title>503 Service Unavailable</title>');
		expect(r.body.toString()).not.toContain('access_token');
	});
});

function tokenRefresh(): Promise<Raw> {
	const form = new URLSearchParams({
		grant_type: 'refresh_token',
		refresh_token: em.issueToken().refresh_token,
		client_id: em.defaultClient.clientId,
		client_secret: em.defaultClient.clientSecret,
	}).toString();
	return new Promise((resolve, reject) => {
		const req = http.request(
			`${em.url}/us/oauth/v2/token`,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					'content-length': Buffer.byteLength(form),
				},
				agent: false,
			},
			(res) => {
				const parts: Buffer[] = [];
				res.on('data', (c: Buffer) => parts.push(c));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(parts),
						chunks: [],
						startedAt: 0,
						headersAt: 0,
						endAt: 0,
					}),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(form);
	});
}

// ---------------------------------------------------------------- truncated

describe('truncated', () => {
	test('default: half of the normal answer, Content-Length of the cut part, normal status; the write is kept', async () => {
		em.faults.next(1, { kind: 'truncated' }, 'books.item.create');
		const r = await raw(itemsUrl(), { method: 'POST', json: { name: 'Half answered', rate: 12 } });
		expect(r.error).toBeUndefined();
		expect(r.status).toBe(201);
		expect(r.headers['content-type']).toBe('application/json;charset=UTF-8');
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
		expect(items()).toHaveLength(1);
		// the normal answer, rebuilt from the stored record: the body is exactly its first half
		const full = Buffer.from(
			JSON.stringify({ code: 0, message: 'Item has been created.', item: items()[0] }),
		);
		expect(r.body.length).toBe(Math.floor(full.length / 2));
		expect(r.body.equals(full.subarray(0, r.body.length))).toBe(true);
		expect(isJson(r.body)).toBe(false);
		expect(em.requests.find((x) => x.operation === 'books.item.create')?.status).toBe(201);
	});

	test('keep as a fraction and as a byte count; never the whole body', async () => {
		await call('POST', 'books', '/items', { json: { name: 'Listed' } });
		const full = (await raw(itemsUrl())).body;
		expect(isJson(full)).toBe(true);

		em.faults.next(1, { kind: 'truncated', keep: 0.25 });
		const quarter = await raw(itemsUrl());
		expect(quarter.status).toBe(200);
		expect(quarter.body.equals(full.subarray(0, Math.floor(full.length * 0.25)))).toBe(true);
		expect(Number(quarter.headers['content-length'])).toBe(quarter.body.length);

		em.faults.next(1, { kind: 'truncated', keep: 10 });
		const ten = await raw(itemsUrl());
		expect(ten.body.toString()).toBe('{"code":0,');
		expect(ten.headers['content-length']).toBe('10');

		em.faults.next(1, { kind: 'truncated', keep: 1_000_000 });
		const most = await raw(itemsUrl());
		expect(most.body.equals(full.subarray(0, full.length - 1))).toBe(true);
		expect(isJson(most.body)).toBe(false);
	});

	test('gzip: a gzip stream cut short (Content-Encoding gzip, Content-Length = cut bytes) fails to decompress', async () => {
		await call('POST', 'books', '/items', { json: { name: 'Zipped' } });
		const full = (await raw(itemsUrl())).body;
		em.faults.next(1, { kind: 'truncated', gzip: true });
		const r = await raw(itemsUrl());
		expect(r.error).toBeUndefined();
		expect(r.status).toBe(200);
		expect(r.headers['content-encoding']).toBe('gzip');
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
		const gz = zlib.gzipSync(full);
		expect(r.body.length).toBe(Math.floor(gz.length / 2));
		expect(r.body.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(true);
		expect(() => zlib.gunzipSync(r.body)).toThrow(/unexpected end of file/);
		// a lenient decompressor (what fetch and axios do) gets a strict prefix of the JSON
		const lenient = zlib.gunzipSync(r.body, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
		expect(lenient.length).toBeLessThan(full.length);
		expect(lenient.equals(full.subarray(0, lenient.length))).toBe(true);
		// fetch decompresses leniently: the text is not the JSON
		em.faults.next(1, { kind: 'truncated', gzip: true });
		const viaFetch = fetch(itemsUrl(), {
			headers: { Authorization: `Vendor-oauthtoken ${token}` },
		}).then((x) => x.json());
		await expect(viaFetch).rejects.toThrow();
	});

	test('gzip with keep close to 1: the cut is moved before the end of the data, even a lenient decompressor gets less', async () => {
		await call('POST', 'books', '/items', { json: { name: 'Almost whole' } });
		const full = (await raw(itemsUrl())).body;
		em.faults.next(1, { kind: 'truncated', gzip: true, keep: 0.999 });
		const r = await raw(itemsUrl());
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
		expect(() => zlib.gunzipSync(r.body)).toThrow();
		const lenient = zlib.gunzipSync(r.body, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
		expect(lenient.length).toBeLessThan(full.length);
		expect(isJson(lenient)).toBe(false);
	});

	test('the accounts server: the token answer is cut, the refresh was processed', async () => {
		em.faults.next(1, { kind: 'truncated' }, 'accounts');
		const r = await tokenRefresh();
		expect(r.status).toBe(200);
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
		expect(r.body.toString()).toMatch(/^\{"access_token":"/);
		expect(isJson(r.body)).toBe(false);
		expect(em.requests.find((x) => x.area === 'accounts')?.status).toBe(200);
	});
});

// ---------------------------------------------------------------- empty

describe('empty', () => {
	test('200 with an empty body, Content-Length 0, application/json; the write is kept', async () => {
		em.faults.next(1, { kind: 'empty' }, 'books.item.create');
		const r = await raw(itemsUrl(), { method: 'POST', json: { name: 'Silently stored' } });
		expect(r.error).toBeUndefined();
		expect(r.status).toBe(200);
		expect(r.headers['content-length']).toBe('0');
		expect(r.headers['content-type']).toBe('application/json');
		expect(r.body.length).toBe(0);
		expect(items().map((i) => i.name)).toEqual(['Silently stored']);
	});

	test('contentType option; an update is kept too', async () => {
		const created = await call('POST', 'books', '/items', { json: { name: 'Before' } });
		const id = created.body.item.item_id as string;
		em.faults.next(1, { kind: 'empty', contentType: 'text/plain' });
		const r = await raw(url('books', `/items/${id}`), { method: 'PUT', json: { name: 'After' } });
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe('text/plain');
		expect(r.headers['content-length']).toBe('0');
		expect(r.body.length).toBe(0);
		expect(items().map((i) => i.name)).toEqual(['After']);
	});
});

// ---------------------------------------------------------------- drip

describe('drip', () => {
	test('headers at once with the full Content-Length, then `bytes` every `everyMs`; the write is kept', async () => {
		em.faults.next(1, { kind: 'drip', bytes: 64, everyMs: 150 }, 'books.item.create');
		let storedWhenHeadersCame: number | undefined;
		const r = await raw(itemsUrl(), {
			method: 'POST',
			json: { name: 'Dripped', description: 'x'.repeat(100) },
			onData: (_req, got) => {
				if (got.chunks.length === 1) storedWhenHeadersCame = items().length;
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.status).toBe(201);
		const length = Number(r.headers['content-length']);
		expect(r.body.length).toBe(length);
		expect(isJson(r.body)).toBe(true);
		expect(JSON.parse(r.body.toString()).item.name).toBe('Dripped');
		// processed before the first byte of the body went out
		expect(storedWhenHeadersCame).toBe(1);
		expect(items().map((i) => i.name)).toEqual(['Dripped']);
		// the body came in pieces: not complete after the first
		const pieces = Math.ceil(length / 64);
		expect(pieces).toBeGreaterThanOrEqual(3);
		expect(r.chunks[0].bytes).toBeLessThan(length);
		expect(r.chunks.length).toBeGreaterThanOrEqual(2);
		// lower bound only: the last piece went out after (pieces - 1) waits of 150 ms (slack for timer rounding)
		expect(r.endAt - r.startedAt).toBeGreaterThanOrEqual((pieces - 1) * 150 - 20);
		expect(em.requests.find((x) => x.operation === 'books.item.create')?.status).toBe(201);
	});

	test('a client that goes away leaves no timer running', async () => {
		timers = watchTimers();
		em.faults.next(1, { kind: 'drip', everyMs: 30 });
		const r = await raw(itemsUrl(), {
			onData: (req, got) => {
				if (got.chunks.length === 3) req.destroy();
			},
		});
		expect(r.status).toBe(200);
		expect(r.chunks[0].bytes).toBeLessThan(Number(r.headers['content-length']));
		expect(r.chunks.length).toBeGreaterThanOrEqual(3);
		expect(r.body.length).toBeLessThan(Number(r.headers['content-length']));
		// the server sees the close and stops its timer (however long seeing it takes: no deadline but the test's)
		await until(() => timers!.running() === 0);
		expect(timers!.running()).toBe(0);
		expect(em.requests.find((x) => x.operation === 'books.item.getAll')?.status).toBe(0);
	});

	test('defaults: 1 byte, then 1 byte 500 ms later', async () => {
		em.faults.next(1, { kind: 'drip' });
		const r = await raw(itemsUrl(), {
			onData: (req, got) => {
				if (got.chunks.length === 2) req.destroy();
			},
		});
		expect(r.chunks.slice(0, 2).map((c) => c.bytes)).toEqual([1, 1]);
		expect(r.chunks[1].total).toBeLessThan(Number(r.headers['content-length']));
		// lower bound only: the second byte went out 500 ms after the first (slack for timer rounding)
		expect(r.chunks[1].at - r.startedAt).toBeGreaterThanOrEqual(490);
	});

	test('stop() ends cleanly with a drip in progress: the client is cut off, no timer left', async () => {
		timers = watchTimers();
		em.faults.next(1, { kind: 'drip', bytes: 4, everyMs: 60_000 });
		let firstChunk!: () => void;
		const gotFirst = new Promise<void>((r) => (firstChunk = r));
		const pending = raw(itemsUrl(), { onData: () => firstChunk() });
		await gotFirst;
		expect(timers.running()).toBe(1);
		await em.close();
		closed = true;
		expect(timers.running()).toBe(0);
		const r = await pending;
		expect(r.body.length).toBe(4);
		expect(r.body.length).toBeLessThan(Number(r.headers['content-length']));
		expect(r.error).toBeDefined();
	});

	test('the accounts server can drip too', async () => {
		em.faults.next(1, { kind: 'drip', bytes: 50, everyMs: 20 }, 'accounts');
		const r = await tokenRefresh();
		expect(r.status).toBe(200);
		expect(Number(r.headers['content-length'])).toBe(r.body.length);
		expect(typeof JSON.parse(r.body.toString()).access_token).toBe('string');
	});
});

// ---------------------------------------------------------------- endlessPages

describe('endlessPages', () => {
	test('books items: every page full of new records and has_more_page true; nothing stored; other operations pass', async () => {
		const real = (await call('POST', 'books', '/items', { json: { name: 'Real', rate: 5 } })).body
			.item;
		em.faults.next(1_000_000, { kind: 'endlessPages' }, 'books.item.getAll');
		const seen = new Set<string>([real.item_id]);
		for (let page = 1; page <= 6; page++) {
			const r = await raw(itemsUrl({ page, per_page: 3 }));
			expect(r.status).toBe(200);
			expect(Number(r.headers['content-length'])).toBe(r.body.length);
			const body = JSON.parse(r.body.toString());
			expect(body.code).toBe(0);
			expect(body.page_context).toMatchObject({ page, per_page: 3, has_more_page: true });
			expect(body.items).toHaveLength(3);
			for (const [n, it] of (body.items as Array<Record<string, unknown>>).entries()) {
				expect(it.item_id).toBe(endlessId(page, n + 1));
				expect(seen.has(String(it.item_id))).toBe(false);
				seen.add(String(it.item_id));
				expect(it.name).toBe(`Endless page ${page} #${n + 1}`);
				expect(it.rate).toBe(5); // a copy of the real record
			}
		}
		// a create in the same area is not affected and does not use the fault up
		expect((await call('POST', 'books', '/items', { json: { name: 'Second' } })).status).toBe(201);
		expect(em.faults.pending()).toEqual([
			{ fault: { kind: 'endlessPages' }, remaining: 1_000_000 - 6, scope: 'books.item.getAll' },
		]);
		expect(items().map((i) => i.name)).toEqual(['Real', 'Second']);
		// the default page size
		const first = await call('GET', 'books', '/items');
		expect(first.body.items).toHaveLength(200);
		expect(first.body.page_context).toMatchObject({ page: 1, per_page: 200, has_more_page: true });
		expect(items()).toHaveLength(2);
		// refusals are answered as they are
		expect((await call('GET', 'books', '/items', { token: 'bogus' })).status).toBe(401);
		expect((await call('GET', 'books', '/items', { query: { per_page: 0 } })).status).toBe(400);
		em.faults.clear();
		expect((await call('GET', 'books', '/items')).body.page_context.has_more_page).toBe(false);
	});

	test('array page_context (estimates) and an empty list: id and name only', async () => {
		em.faults.next(1_000_000, { kind: 'endlessPages' }, 'books');
		for (const page of [1, 2]) {
			const r = await call('GET', 'books', '/estimates', { query: { page, per_page: 2 } });
			expect(r.status).toBe(200);
			expect(r.body.page_context).toEqual([
				expect.objectContaining({ page, per_page: 2, has_more_page: true }),
			]);
			expect(r.body.estimates).toEqual([
				{ estimate_id: endlessId(page, 1), estimate_number: `Endless page ${page} #1` },
				{ estimate_id: endlessId(page, 2), estimate_number: `Endless page ${page} #2` },
			]);
		}
		expect(em.store.org('us', em.organizationId)!.all('estimates')).toEqual([]);
	});

	test('project management: page_info.has_next_page true and per_page new records on every page', async () => {
		em.faults.next(1_000_000, { kind: 'endlessPages' }, 'projects.project.getAll');
		const ids = new Set<string>();
		for (let page = 1; page <= 4; page++) {
			const r = await raw(
				url('projects', `/portal/${em.portalId}/projects`, { page, per_page: 5 }),
			);
			expect(r.status).toBe(200);
			const body = JSON.parse(r.body.toString());
			expect(body.page_info).toEqual({ page, per_page: 5, has_next_page: true });
			expect(body.projects).toHaveLength(5);
			for (const p of body.projects) {
				expect(ids.has(p.id)).toBe(false);
				ids.add(p.id);
			}
		}
		expect(ids.size).toBe(20);
		const dflt = await call('GET', 'projects', `/portal/${em.portalId}/projects`);
		expect(dflt.body.projects).toHaveLength(100);
		expect(dflt.body.page_info).toMatchObject({ per_page: 100, has_next_page: true });
		expect(em.store.portal('us', em.portalId)!.all('projects')).toEqual([]);
	});

	test('unscoped, many pages: the store does not grow', async () => {
		em.faults.next(1_000_000, { kind: 'endlessPages' });
		const org = em.store.org('us', em.organizationId)!;
		for (let page = 1; page <= 50; page++) {
			const r = await call('GET', 'inventory', '/bills', { query: { page, per_page: 20 } });
			expect(r.body.page_context.has_more_page).toBe(true);
			expect(r.body.bills[19].bill_id).toBe(endlessId(page, 20));
		}
		expect(org.all('bills')).toEqual([]);
		expect(em.faults.pending()[0].remaining).toBe(1_000_000 - 50);
	});
});

// ---------------------------------------------------------------- admin route and checks

describe('admin route and option checks', () => {
	test('POST /__admin/faults queues each new kind as JSON', async () => {
		const sent = [
			{ kind: 'html', status: 502, contentType: 'application/json' },
			{ kind: 'truncated', keep: 12, gzip: true },
			{ kind: 'empty', contentType: 'text/plain' },
			{ kind: 'drip', bytes: 3, everyMs: 10 },
			{ kind: 'endlessPages' },
		];
		for (const fault of sent)
			expect((await admin({ count: 2, fault, scope: 'books.item.getAll' })).status).toBe(200);
		const listed = (await (await fetch(`${em.url}/__admin/faults`)).json()) as {
			faults: unknown[];
		};
		expect(listed.faults).toEqual(
			sent.map((fault) => ({ fault, remaining: 2, scope: 'books.item.getAll' })),
		);
		await fetch(`${em.url}/__admin/faults`, { method: 'DELETE' });

		expect(
			(
				await admin({
					count: 1_000_000,
					fault: { kind: 'endlessPages' },
					scope: 'books.item.getAll',
				})
			).status,
		).toBe(200);
		const r = await call('GET', 'books', '/items', { query: { page: 7, per_page: 2 } });
		expect(r.body.items.map((i: { item_id: string }) => i.item_id)).toEqual([
			endlessId(7, 1),
			endlessId(7, 2),
		]);
		await fetch(`${em.url}/__admin/faults`, { method: 'DELETE' });

		expect((await admin({ fault: { kind: 'truncated', keep: 10 } })).status).toBe(200);
		expect((await raw(itemsUrl())).body.toString()).toBe('{"code":0,');
	});

	test('bad options: 400 from the admin route, RangeError from faults.next', async () => {
		const bad = [
			{ kind: 'html', status: 99 },
			{ kind: 'html', status: 200.5 },
			{ kind: 'html', contentType: '' },
			{ kind: 'html', body: 7 },
			{ kind: 'truncated', keep: -1 },
			{ kind: 'truncated', keep: 1.5 },
			{ kind: 'truncated', gzip: 'yes' },
			{ kind: 'empty', contentType: 'a\r\nb' },
			{ kind: 'drip', bytes: 0 },
			{ kind: 'drip', everyMs: -5 },
			{ kind: 'nonsense' },
		];
		for (const fault of bad) {
			const r = await admin({ fault });
			expect(r.status).toBe(400);
			expect(((await r.json()) as { error: string }).error).toMatch(/must be/);
		}
		expect(() => em.faults.next(1, { kind: 'drip', bytes: 0 })).toThrow(RangeError);
		expect(() => em.faults.next(1, { kind: 'truncated', keep: 2.5 })).toThrow(/keep/);
		expect(em.faults.pending()).toEqual([]);
	});
});
