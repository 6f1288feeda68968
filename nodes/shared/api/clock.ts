// Talking to the API (api/): the service's clock as its answers tell it; imports nothing.
/**
 * The service's clock, as its answers' `Date` headers tell it: a record's timestamps are the
 * service's, and n8n's clock may be minutes off. The transport notes every answer's `Date`
 * (and when it was asked); `serverNow(server)` is this machine's time moved by the last offset
 * seen for that server (0 until one answer was seen). A `Date` header has whole seconds, so the
 * offset is known to about a second: compare times at second precision, never finer.
 */

/** Offsets (service time - local time, ms) by server (the area's root URL, or any stable key): per process, not per run, as a trigger's next poll reads the clock an earlier run's answers told. */
const offsets = new Map<string, number>();

/** Notes a `Date` header of an answer to a request sent at `sentAt` and answered at `answeredAt` (local epoch ms). */
export function noteServerDate(
	server: string,
	date: unknown,
	sentAt: number,
	answeredAt: number = Date.now(),
): void {
	if (typeof date !== 'string' || date === '') return;
	const at = Date.parse(date);
	if (Number.isNaN(at)) return;
	// The header has whole seconds, sent somewhere between the request and the answer: the
	// middle of that second (at + 500) against the middle of the round trip.
	offsets.set(server, at + 500 - (sentAt + answeredAt) / 2);
}

/** The service's time now (epoch ms), as far as this process has seen; `now` defaults to the local clock. */
export function serverNow(server: string, now: number = Date.now()): number {
	return now + (offsets.get(server) ?? 0);
}

/** The last offset seen for a server (ms), or undefined. */
export function serverOffset(server: string): number | undefined {
	return offsets.get(server);
}

/** A test seam (tests only, never the nodes): forgets every offset, so a test starts from this machine's clock. */
export function resetServerClocks(): void {
	offsets.clear();
}
