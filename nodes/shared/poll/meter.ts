// Polling (poll/): counting every call a poll sends (a 401 and its resend, a retry); imports api/ and poll/.
/**
 * The calls of a poll as the service sees them: the transport counts every call a run sends
 * (its run state's `calls.sent`, api/run.ts: a resend after a 401 and a retry after a 5xx are calls too; a request held back
 * by the pacer, or the token endpoint, is not). A poll's meter is the difference since it began:
 * only one poll of a trigger runs at a time (./overlap.ts), so no other poll's calls are in it.
 * Its cost (`own`: what spaces the polls and is logged) leaves out the resends after a wait (a
 * 429's hold, a retry after a 5xx): a held poll costs what it costs when the service answers.
 */
import type { RunState } from '../api/run';
import type { Meter } from './budget';

/** A meter of the calls this poll (its run state) sends from now on, with `left` calls allowed, until the poll's deadline `until`. */
export function startMeter(
	run: RunState,
	left: number,
	until = Number.POSITIVE_INFINITY,
	progressed?: () => void,
): Meter {
	const { calls } = run;
	const start = calls.sent;
	const resent = calls.resent;
	return {
		left,
		until,
		progressed,
		get calls() {
			return calls.sent - start;
		},
		get own() {
			return calls.sent - start - (calls.resent - resent);
		},
	};
}
