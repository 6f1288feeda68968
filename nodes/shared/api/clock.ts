// Talking to the API (api/): the service's clock as its answers tell it; imports nothing.
/**
 * The service's clock, as its answers' `Date` headers tell it: a record's timestamps are the
 * service's, and n8n's clock may be minutes off. The transport notes every answer's `Date`
 * (and when it was asked); `now(server)` is this machine's time moved by the last offset seen
 * for that server (0 until one answer was seen). A `Date` header has whole seconds, so the
 * offset is known to about a second: compare times at second precision, never finer.
 */
class ServerClocks {
	/** Offsets (service time - local time, ms) by server (the area's root URL, or any stable key). */
	private readonly offsets = new Map<string, number>();

	/** Notes a `Date` header of an answer to a request sent at `sentAt` and answered at `answeredAt` (local epoch ms). */
	note(server: string, date: unknown, sentAt: number, answeredAt: number = Date.now()): void {
		if (typeof date !== 'string' || date === '') return;
		const at = Date.parse(date);
		if (Number.isNaN(at)) return;
		// The header has whole seconds, sent somewhere between the request and the answer: the
		// middle of that second (at + 500) against the middle of the round trip.
		this.offsets.set(server, at + 500 - (sentAt + answeredAt) / 2);
	}

	/** The service's time now (epoch ms), as far as these clocks have seen; `now` defaults to the local clock. */
	now(server: string, now: number = Date.now()): number {
		return now + (this.offsets.get(server) ?? 0);
	}

	/** The last offset seen for a server (ms), or undefined. */
	offset(server: string): number | undefined {
		return this.offsets.get(server);
	}

	/** Forgets every offset: back to this machine's clock, as a process starts (a test's fresh start). */
	forget(): void {
		this.offsets.clear();
	}
}

/** The process's clocks: per process, not per run, as a trigger's next poll reads the clock an earlier run's answers told. */
export const SERVER_CLOCKS = new ServerClocks();
