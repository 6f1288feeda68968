// Polling (poll/): counting every call a poll sends (a 401 and its resend, a retry); imports api/ and poll/.
/**
 * The calls of a poll as the service sees them: the transport counts every call a context sends
 * (`callsSent`: a resend after a 401 and a retry after a 5xx are calls too; a request held back
 * by the pacer, or the token endpoint, is not). A poll's meter is the difference since it began.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { callsSent } from '../api/transport';
import type { Meter } from './budget';

/** A meter of the calls this context sends from now on, with `left` calls allowed. */
export function startMeter(ctx: IPollFunctions, left: number): Meter {
	const start = callsSent(ctx);
	return {
		left,
		get calls() {
			return callsSent(ctx) - start;
		},
	};
}
