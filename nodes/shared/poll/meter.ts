// Polling (poll/): counting every call a poll sends (a 401 and its resend, a retry); imports api/ and poll/.
/**
 * The calls of a poll as the service sees them: the transport counts every call a context sends
 * (`callsSent`: a resend after a 401 and a retry after a 5xx are calls too; a request held back
 * by the pacer, or the token endpoint, is not). A poll's meter is the difference since it began:
 * only one poll of a trigger runs at a time (./overlap.ts), so no other poll's calls are in it.
 * Its cost (`own`: what spaces the polls and is logged) leaves out the resends after a wait (a
 * 429's hold, a retry after a 5xx): a held poll costs what it costs when the service answers.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { callsResent, callsSent } from '../api/transport';
import type { Meter } from './budget';

/** A meter of the calls this context sends from now on, with `left` calls allowed, until the poll's deadline `until`. */
export function startMeter(ctx: IPollFunctions, left: number, until = Number.POSITIVE_INFINITY, progressed?: () => void): Meter {
	const start = callsSent(ctx);
	const resent = callsResent(ctx);
	return {
		left,
		until,
		progressed,
		get calls() {
			return callsSent(ctx) - start;
		},
		get own() {
			return callsSent(ctx) - start - (callsResent(ctx) - resent);
		},
	};
}
