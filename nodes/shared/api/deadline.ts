// Talking to the API (api/): the deadline of a request in flight, headers and body; imports only api/ files.
/**
 * The Timeout option over the whole request, headers and body: n8n's HTTP helper's own timeout
 * restarts with every byte, so a body dripping in would never end. One timer watches every
 * deadline while there are any (a timer per request, cancelled when its answer is in, cost more
 * CPU than the rest of the package's work on a request).
 */
import { listenOnce, pause } from './wait';

/** Deadlines of the requests in flight (when, the request's controller, whether it fired). */
interface Deadline {
	at: number;
	controller: AbortController;
	expired: boolean;
	/** The execution's signal: its stop aborts the request too. */
	outer?: AbortSignal;
}

const deadlines = new Set<Deadline>();
/** Execution signals that have the one listener aborting their requests in flight (a listener per request cost CPU on every request). */
const watchedSignals = new WeakSet<AbortSignal>();
/** How often the one shared timer looks for deadlines that have passed. */
const DEADLINE_TICK_MS = 200;
let ticking = false;

async function watchDeadlines(): Promise<void> {
	ticking = true;
	try {
		while (deadlines.size > 0) {
			await pause(DEADLINE_TICK_MS);
			const now = Date.now();
			for (const d of deadlines) {
				if (d.at > now) continue;
				deadlines.delete(d);
				d.expired = true;
				d.controller.abort(new Error('timeout exceeded'));
			}
		}
	} finally {
		ticking = false;
	}
}

export interface RequestDeadline {
	/** Aborts when the execution stops or when the time is up. */
	signal: AbortSignal;
	/** Whether the time ran out (within a fifth of a second of it). */
	expired: () => boolean;
	/** The answer is in: the deadline is dropped. */
	clear: () => void;
}

/** A deadline `ms` from now for one request, also ended by the execution's `outer` signal. */
export function deadline(ms: number, outer?: AbortSignal): RequestDeadline {
	const entry: Deadline = {
		at: Date.now() + ms,
		controller: new AbortController(),
		expired: false,
		outer,
	};
	if (outer?.aborted) entry.controller.abort(outer.reason);
	else if (outer) {
		listenOnce(watchedSignals, outer, () => {
			for (const d of deadlines) if (d.outer === outer) d.controller.abort(outer.reason);
		});
	}
	deadlines.add(entry);
	if (!ticking) void watchDeadlines();
	return {
		signal: entry.controller.signal,
		expired: () => entry.expired,
		clear: () => deadlines.delete(entry),
	};
}
