/**
 * The emulator's latency (a delay before every answer) and its count of API requests in
 * flight at once, as the parallel-item tests and the bench use them.
 */
import { Clock } from '../../emulator/clock';
import { until, useFakeTimersOnly } from '../tools/fake-timers';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';

let em: Emulator;
let call: ReturnType<typeof apiClient>;

beforeEach(async () => {
	em = await startEmulator({ clock: new Clock(), latencyMs: 50 });
	call = apiClient(em, { token: em.issueToken().access_token });
});
afterEach(async () => em.close());

async function admin(
	method: string,
	route: string,
	body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
	const res = await fetch(`${em.url}/__admin/${route}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('six requests sent together are all in flight at once during the latency; the count ends at zero and clears', async () => {
	useFakeTimersOnly();
	try {
		let answered = 0;
		const sent = Promise.all(
			Array.from(
				{ length: 6 },
				async () => await call('GET', 'books', '/items').finally(() => answered++),
			),
		);
		// all six reached the server and wait out its latency (its timers), however slowly they were sent
		await until(() => jest.getTimerCount() === 6 || answered > 0);
		expect(answered).toBe(0);
		expect(em.inFlight).toEqual({ now: 6, max: 6 });
		await jest.advanceTimersByTimeAsync(49);
		expect(jest.getTimerCount()).toBe(6); // not answered before the latency is over
		await jest.advanceTimersByTimeAsync(1);
		const answers = await sent;
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
	} finally {
		jest.useRealTimers();
	}
	expect(em.inFlight).toEqual({ now: 0, max: 6 });
	expect((await admin('GET', 'in-flight')).body).toEqual({ now: 0, max: 6 });
	em.clearRequests();
	expect(em.inFlight.max).toBe(0);
	await call('GET', 'books', '/items');
	expect(em.inFlight.max).toBe(1);
});

test('the latency is set by option, by setLatency and by the admin route (checked), and applies with faults too', async () => {
	expect((await admin('GET', 'latency')).body).toEqual({ latencyMs: 50, jitterMs: 0 });
	expect((await admin('POST', 'latency', { ms: -1 })).status).toBe(400);
	expect((await admin('POST', 'latency', { ms: 10, jitterMs: 11 })).status).toBe(400);
	expect((await admin('POST', 'latency', { ms: 20, jitterMs: 5 })).body).toEqual({
		latencyMs: 20,
		jitterMs: 5,
	});
	expect((await admin('POST', 'latency', { ms: 0 })).body).toEqual({ latencyMs: 0, jitterMs: 0 });
	em.setLatency(20);
	expect((await admin('GET', 'latency')).body).toEqual({ latencyMs: 20, jitterMs: 0 });
	em.faults.next(1, { kind: 'status', status: 503 });
	expect((await call('GET', 'books', '/items')).status).toBe(503);
	// dropped connections are no longer counted as in flight
	em.faults.next(1, { kind: 'drop' });
	await expect(call('GET', 'books', '/items')).rejects.toThrow();
	await until(() => em.inFlight.now === 0); // the server sees the close a moment later (no time limit but the test's)
	expect(em.inFlight.now).toBe(0);
});
