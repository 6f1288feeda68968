// Talking to the API (api/): what kind a failure is: not started, rate-limit blocked, transient, outcome unknown; imports nothing of the repository.
/**
 * Failures the engine treats specially: the contract between the transport (which
 * detects them) and the per-item loop (which reports them per item).
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

/**
 * An item that had sent nothing when an earlier item's failure ended the run (the run's halt, api/run.ts):
 * the transport sends nothing for it, and the per-item loop counts it not started ("not sent").
 * Never shown: the run's report names the item among those not sent.
 */
export class ItemNotStarted extends Error {
	constructor() {
		super('Not sent: an earlier item ended the run before this item sent anything');
	}
}

/**
 * The API blocks further requests until `until` (epoch ms) and the run's Options say
 * not to wait. Thrown by the transport before anything more is sent; the per-item loop
 * stops starting items and reports which items were done and which were not sent.
 */
export class RateLimitBlockedError extends NodeApiError {
	readonly until: number;

	constructor(node: INode, until: number, itemIndex?: number) {
		const lifts = liftsAt(until);
		super(
			node,
			{ message: 'Rate limit block', httpCode: '429' },
			{
				message: `The Vendor API blocks further requests until ${lifts}`,
				description:
					'The rate limit was used up (perhaps by another client sharing it). Run again after the block lifts, or set Options → On Rate-Limit Block to "Wait Until It Lifts".',
				httpCode: '429',
				itemIndex,
			},
		);
		this.until = until;
	}
}

/** When a hold or block ends (epoch ms), as an error says it: ISO 8601 in UTC, whole seconds (`2030-01-02T03:04:05Z`). */
export function liftsAt(until: number): string {
	return new Date(Math.ceil(until / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** What n8n's HTTP helper throws when the network (not the code) failed: an axios error or a system error code. */
export function isNetworkFailure(error: unknown): boolean {
	const e = (error ?? {}) as { isAxiosError?: unknown; code?: unknown; cause?: { code?: unknown } };
	return e.isAxiosError === true || typeof e.code === 'string' || typeof e.cause?.code === 'string';
}

/** The failures the transport marked as transient (see `transientFailure`). */
const transientFailures = new WeakSet<object>();

/**
 * Marks a failure of the network or of the server, not of the request or the credential, so
 * that the same request may well succeed later: a 429 or 5xx still answered after the
 * retries, no answer (refused, reset, dropped, timed out) or one cut short, a proxy's page
 * instead of the API's answer, a token endpoint that did not answer or answered 5xx. The
 * transport marks them where it tells them apart; a trigger's poll at activation reads the
 * mark (nodes/shared/poll/activation.ts).
 */
export function transientFailure<E extends Error>(error: E): E {
	transientFailures.add(error);
	return error;
}

/**
 * Whether a failure is transient: a rate-limit block, or a failure the transport marked.
 * Everything else (a refused or revoked refresh, a 401/403 that stayed after the refresh,
 * 400/404, an unknown organization, refused input, an unexpected exception) is not.
 */
export function isTransientFailure(error: unknown): boolean {
	return (
		error instanceof RateLimitBlockedError ||
		(typeof error === 'object' && error !== null && transientFailures.has(error))
	);
}

/** The headline of a write whose outcome is unknown: it may have been processed, and is never repeated. */
export const OUTCOME_UNKNOWN =
	'Outcome unknown: the write may have been processed. Check the record before running again';

/** Failures that leave a write's outcome unknown (see `outcomeUnknown`). */
const unknownOutcomes = new WeakSet<object>();

/** Marks a failure after which a write may or may not have been processed (no answer, a 5xx, an answer without evidence). */
export function outcomeUnknown<E extends Error>(error: E): E {
	unknownOutcomes.add(error);
	return error;
}

/** Whether a failure leaves a write's outcome unknown (marked so where it was told: the transport, the answer check, a split's report). */
export function isOutcomeUnknown(error: unknown): boolean {
	return typeof error === 'object' && error !== null && unknownOutcomes.has(error);
}
