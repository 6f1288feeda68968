// Talking to the API (api/): what an answer means for the request, as a pure decision; imports only api/ files.
/**
 * What happened to one sending of a request decides its next step, and nothing else does:
 * done, retry after N ms, refresh the token then resend, fail with which error (and whether a
 * write's outcome is unknown, whether the failure is transient), and whether the pacer holds
 * its key (how long, and whether as a block). No effect here: the transport sends, waits and
 * applies (nodes/shared/api/transport.ts). Rules:
 *
 * - 401 / INVALID_OAUTHTOKEN: refresh once and resend (the resend is a call of its own).
 * - 3xx: never followed (the token and a body stay home): an error naming where it pointed;
 *   not processed, so a write's outcome is known.
 * - 429: holds the pacer's key for its Retry-After (seconds or an HTTP date), else the rule's
 *   wait (the project area's 30-minute block, an accounting area's minute). A short hold is
 *   waited and the request sent again (it was not processed, so a write too): in the project
 *   area up to 3 times, in the accounting areas while the holds add up to at most 5 windows. A
 *   block (the project area's, or a Retry-After over 60 s) ends the request saying when it
 *   lifts, or with On Rate-Limit Block = wait is waited out once.
 * - 5xx, no answer, a body that is not the API's answer: a read is retried up to 3 times; a
 *   write never (its outcome is unknown).
 * - Other 4xx and refusing envelopes: the API's refusal, documented meaning first.
 * - 204 with no body: success (an empty object); 206 / 207: never a full success.
 * - Halted (an earlier item's failure ended the run before this item sent anything): not sent.
 * - failFast (`patience`): nothing is waited: a hold or block fails at once as transient (the
 *   hold still recorded), and nothing is retried.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	backoffMs,
	envelopeFailed,
	headerText,
	isTokenProblem,
	parseBody,
	redirectTarget,
	retryAfterMs,
	unexpectedAnswer,
} from './answer';
import {
	apiError,
	connectionLost,
	heldUntil,
	notTheApisAnswer,
	partlyAnswered,
	redirected,
	refusedUntil,
	sendingStopped,
	stopped,
} from './nodeErrors';
import {
	isNetworkFailure,
	isOutcomeUnknown,
	isTransientFailure,
	ItemNotStarted,
	OUTCOME_UNKNOWN,
	outcomeUnknown,
	RateLimitBlockedError,
	transientFailure,
} from './failureKinds';
import type { Area } from '../tables/spec';

/** A 429's Retry-After up to this long is waited; longer counts as a block. */
const SHORT_WAIT_MS = 60_000;
/** Retries of a read (5xx, no answer, not the API's answer) and of a short 429 hold in the project area. */
export const MAX_RETRIES = 3;
/**
 * In an area without a block (the accounting areas) a 429 is the organization's minute used up,
 * by this n8n or another client: waited as long as one request's holds add up to at most this
 * many windows (a Retry-After may free one request's room at a time), then an error.
 */
const MAX_HELD_WINDOWS = 5;

/** What happened to one sending. */
export type Sent =
	| { kind: 'answer'; status: number; headers: IDataObject; raw: Buffer }
	/** The network (or the code) stopped it: `expired` when the request's deadline did. */
	| { kind: 'noAnswer'; error: unknown; expired: boolean }
	| { kind: 'cancelled' }
	/** Not sent: an earlier item's failure ended the run before this item sent anything (the run's halt, run.ts). */
	| { kind: 'halted' }
	/** Not sent: the pacer's key is held (`block`: blocked) until `until`. */
	| { kind: 'notSent'; until: number; block: boolean };

/** The request, as far as the decision needs it. */
export interface RequestFacts {
	node: INode;
	area: Pick<Area, 'errorCodes'>;
	/** The URL sent to (a redirect's relative Location is resolved against it). */
	url: string;
	/** A read (GET): may be repeated. */
	idempotent: boolean;
	/** A file is expected: any body but an HTML page or broken JSON is the answer. */
	binary: boolean;
	/** On Rate-Limit Block = fail: a block ends the request instead of being waited. */
	failOnBlock: boolean;
	/** `patience` failFast: nothing is waited. */
	failFast: boolean;
	itemIndex?: number;
}

/** The pacer's rule, as far as a 429 needs it. */
export interface RuleFacts {
	/** The rule's block after its limit (the project area's 30 minutes); none in the accounting areas. */
	blockMs?: number;
	windowMs: number;
	/** How long a 429 without Retry-After holds, as the pacer tells it (`Pacer.holdAfterRefusal`); the rule's block, else a window, when not given. */
	holdAfterRefusal?: number;
}

/** What the request has been through so far. */
export interface AttemptState {
	/** Retries made (a refresh's resend and a held request's return are not retries). */
	attempt: number;
	refreshed: boolean;
	waitedBlock: boolean;
	/** How long this request has waited out the minute of an area without a block (ms). */
	heldMs: number;
}

export const FIRST_ATTEMPT: Readonly<AttemptState> = {
	attempt: 0,
	refreshed: false,
	waitedBlock: false,
	heldMs: 0,
};

/** The pacer holds its key for `ms` from now; `block`: a block a run may end on. */
interface Hold {
	ms: number;
	block: boolean;
}

export type Step =
	| { kind: 'done'; status: number; headers: IDataObject; body: unknown }
	| { kind: 'retry'; afterMs: number; next: AttemptState; hold?: Hold }
	| { kind: 'refresh'; next: AttemptState }
	| { kind: 'fail'; error: Error; unknown: boolean; transient: boolean; hold?: Hold };

function fail(error: Error, hold?: Hold): Step {
	return {
		kind: 'fail',
		error,
		unknown: isOutcomeUnknown(error),
		transient: isTransientFailure(error),
		...(hold ? { hold } : {}),
	};
}

/** What a sending means for the request: the one decision of the request path. */
export function decide(
	sent: Sent,
	request: RequestFacts,
	rule: RuleFacts,
	state: AttemptState,
	now: number,
): Step {
	switch (sent.kind) {
		case 'cancelled':
			return fail(stopped(request.node, request.itemIndex));
		case 'halted':
			return fail(new ItemNotStarted());
		case 'notSent':
			return notSent(sent, request, state);
		case 'noAnswer':
			return noAnswer(sent, request, state);
		default:
			return answered(sent, request, rule, state, now);
	}
}

/** A held key: waited again (the pacer waits out the hold), unless the context may not wait or a block may not be waited. */
function notSent(
	sent: { until: number; block: boolean },
	request: RequestFacts,
	state: AttemptState,
): Step {
	if (sent.block && (request.failOnBlock || request.failFast))
		return fail(new RateLimitBlockedError(request.node, sent.until, request.itemIndex));
	if (request.failFast) return fail(heldUntil(request.node, sent.until, request.itemIndex));
	return { kind: 'retry', afterMs: 0, next: state };
}

function noAnswer(
	sent: { error: unknown; expired: boolean },
	request: RequestFacts,
	state: AttemptState,
): Step {
	const { node, idempotent, itemIndex } = request;
	if (!isNetworkFailure(sent.error))
		return fail(sendingStopped(node, sent.error, idempotent, itemIndex));
	if (idempotent && !request.failFast && state.attempt < MAX_RETRIES)
		return {
			kind: 'retry',
			afterMs: backoffMs(state.attempt),
			next: { ...state, attempt: state.attempt + 1 },
		};
	return fail(
		connectionLost(node, sent.error as Error, {
			idempotent,
			retried: !request.failFast,
			expired: sent.expired,
			itemIndex,
		}),
	);
}

/** A read may be retried: not under failFast, and not past the retries. */
function mayRetry(request: RequestFacts, state: AttemptState): boolean {
	return request.idempotent && !request.failFast && state.attempt < MAX_RETRIES;
}

function answered(
	sent: { status: number; headers: IDataObject; raw: Buffer },
	request: RequestFacts,
	rule: RuleFacts,
	state: AttemptState,
	now: number,
): Step {
	const { status, headers, raw } = sent;
	const contentType = headerText(headers, 'content-type') ?? '';
	const parsed = parseBody(raw, contentType, request.binary);
	if (isTokenProblem(status, parsed) && !state.refreshed)
		return { kind: 'refresh', next: { ...state, refreshed: true } };
	if (status >= 300 && status < 400)
		return fail(
			redirected(
				request.node,
				status,
				redirectTarget(headerText(headers, 'location'), request.url),
				request.itemIndex,
			),
		);
	if (status === 429) return tooMany(sent, parsed, request, rule, state, now);
	const retryAfter = () => retryAfterMs(headers, now) ?? backoffMs(state.attempt);
	if (status >= 500 && mayRetry(request, state))
		return { kind: 'retry', afterMs: retryAfter(), next: { ...state, attempt: state.attempt + 1 } };
	if (status >= 400 || envelopeFailed(parsed)) return fail(refusal(status, parsed, raw, request));
	if (status === 206 || status === 207)
		return fail(partlyAnswered(request.node, status, request.idempotent, request.itemIndex));
	// 204 No Content: done, with nothing to show (a file's empty bytes, else an empty object)
	if (status === 204 && raw.length === 0)
		return { kind: 'done', status, headers, body: request.binary ? raw : {} };
	const problem = unexpectedAnswer(raw, contentType, parsed, request.binary);
	if (problem === undefined)
		return { kind: 'done', status, headers, body: parsed === undefined ? raw : parsed };
	// a read is retried as other transient failures are; a write may have been processed
	if (mayRetry(request, state))
		return { kind: 'retry', afterMs: retryAfter(), next: { ...state, attempt: state.attempt + 1 } };
	return fail(
		notTheApisAnswer(request.node, status, problem, {
			idempotent: request.idempotent,
			retried: !request.failFast,
			itemIndex: request.itemIndex,
		}),
	);
}

/** An answer of 4xx / 5xx or a refusing envelope: the API's refusal; a write answered 5xx may have been processed (never repeated). */
function refusal(status: number, parsed: unknown, raw: Buffer, request: RequestFacts): Error {
	const failure = {
		status,
		body: parsed ?? { message: raw.toString('utf8').slice(0, 300) },
		area: request.area,
	};
	if (status < 500) return apiError(request.node, failure, request.itemIndex);
	const failed = request.idempotent
		? apiError(request.node, failure, request.itemIndex)
		: outcomeUnknown(
				apiError(request.node, failure, request.itemIndex, undefined, OUTCOME_UNKNOWN),
			);
	return transientFailure(failed);
}

/**
 * A 429: how long the key is held (its Retry-After, else the rule's wait), whether that is a
 * block, and whether this request waits it and is sent again (it was not processed).
 */
function tooMany(
	sent: { headers: IDataObject; raw: Buffer },
	parsed: unknown,
	request: RequestFacts,
	rule: RuleFacts,
	state: AttemptState,
	now: number,
): Step {
	const told = retryAfterMs(sent.headers, now);
	const ms = told ?? rule.holdAfterRefusal ?? rule.blockMs ?? rule.windowMs;
	const hold: Hold = {
		ms,
		block: told === undefined ? rule.blockMs !== undefined : told > SHORT_WAIT_MS,
	};
	const until = now + ms;
	if (hold.block && (request.failOnBlock || request.failFast))
		return fail(new RateLimitBlockedError(request.node, until, request.itemIndex), hold);
	const failure = {
		status: 429,
		body: parsed ?? { message: sent.raw.toString('utf8').slice(0, 300) },
		area: request.area,
	};
	if (request.failFast)
		return fail(refusedUntil(request.node, failure, until, request.itemIndex), hold);
	const minute = !hold.block && rule.blockMs === undefined;
	const waits = hold.block
		? !state.waitedBlock
		: minute
			? state.heldMs + ms <= MAX_HELD_WINDOWS * rule.windowMs
			: state.attempt < MAX_RETRIES;
	if (!waits) return fail(refusedUntil(request.node, failure, until, request.itemIndex), hold);
	const next = {
		...state,
		attempt: state.attempt + 1,
		waitedBlock: state.waitedBlock || hold.block,
		heldMs: state.heldMs + (minute ? ms : 0),
	};
	return { kind: 'retry', afterMs: ms, next, hold };
}
