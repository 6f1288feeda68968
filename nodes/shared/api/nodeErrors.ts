// Talking to the API (api/): the errors a node throws (NodeApiError, NodeOperationError) and their words; imports tables/ and failureKinds.ts.
/**
 * The documented error codes and what to do about them: the project-management `errorCode`
 * table here, the accounting `code` tables on the areas that document them (`Area.errorCodes`).
 * Messages never carry a token, a secret or a request's headers.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { Area } from '../tables/spec';
import { InputError } from '../tables/inputError';
import { liftsAt, OUTCOME_UNKNOWN, outcomeUnknown, transientFailure } from './failureKinds';

/** Project-management `errorCode` values (the Conventions document). */
const PROJECT_ERROR_CODES: Readonly<Record<string, { meaning: string; resolution: string }>> = {
	URL_RULE_NOT_CONFIGURED: { meaning: 'The request URL is wrong', resolution: 'Use a valid URL' },
	INVALID_OAUTHTOKEN: {
		meaning: 'The access token is invalid or expired',
		resolution: 'Reconnect the credential to get a new token',
	},
	INVALID_INPUTSTREAM: {
		meaning: 'The request has an invalid input parameter',
		resolution: 'Correct the parameter',
	},
	INVALID_METHOD: {
		meaning: 'The HTTP method is not valid for the URL',
		resolution: 'Use a valid method',
	},
	INVALID_PARAMETER_VALUE: {
		meaning: 'A parameter value is invalid',
		resolution: 'Correct the value',
	},
	INTERNAL_SERVER_ERROR: {
		meaning: 'The server met an unexpected condition',
		resolution: "Try again later or contact the vendor's support",
	},
};

const HTTP_MEANINGS: Readonly<Record<number, string>> = {
	400: 'Bad request',
	401: 'Unauthorized',
	402: 'Payment required',
	403: 'Forbidden (the token lacks the scope or access)',
	404: 'Not found',
	405: 'Method not allowed for the invoked API',
	409: 'Conflict',
	429: 'Too many requests',
	500: 'The server could not process the request',
	501: 'Not supported',
	502: 'Bad gateway',
	503: 'Service unavailable',
	504: 'Gateway timeout',
};

interface ApiFailure {
	status: number;
	body: unknown;
	/**
	 * The area that answered: its `errorCodes` give an accounting `code` its meaning (payment
	 * codes in Vendor Payments, billing project codes in Vendor Billing). Without it, or for a
	 * code the area does not document, the API's own message leads, with the code.
	 */
	area?: Pick<Area, 'errorCodes'>;
}

/**
 * A server's text with anything token-shaped hidden: `Vendor-oauthtoken <token>` / `Bearer
 * <token>`, the vendor family's `1000.<hex>` tokens, and long runs of letters and digits
 * mixed (an echoed access or refresh token, a client secret). IDs (digits only) stay.
 */
export function redactTokens(text: string): string {
	return text
		.replace(/\b(Vendor-oauthtoken|Bearer)\s+[^\s"',;]+/gi, '$1 <redacted>')
		.replace(/\b\d{4}\.[A-Za-z0-9._-]{16,}/g, '<redacted>')
		.replace(/[A-Za-z0-9_\-.]{32,}/g, (run) =>
			/[A-Za-z]/.test(run) && /\d/.test(run) ? '<redacted>' : run,
		);
}

/**
 * A human message for an API failure, from the envelope and the documented tables: a code
 * documented for the answering area says what went wrong and what to do ("The billing
 * project does not exist (code 1002). Check the Project ID ..."); any other code keeps the
 * API's words ("Invoice does not exist. (code 1002)").
 */
export function explainFailure(failure: ApiFailure): {
	message: string;
	description?: string;
	code?: string;
} {
	const body = (failure.body && typeof failure.body === 'object' ? failure.body : {}) as JsonObject;
	const serverMessage = typeof body.message === 'string' ? redactTokens(body.message) : undefined;
	if (typeof body.errorCode === 'string') {
		const errorCode = redactTokens(body.errorCode);
		const known = PROJECT_ERROR_CODES[errorCode];
		return {
			code: errorCode,
			message: `${errorCode}: ${serverMessage ?? known?.meaning ?? 'request refused'}`,
			description: known ? `${known.meaning}. ${known.resolution}.` : undefined,
		};
	}
	if (body.code !== undefined && body.code !== 0 && body.code !== '0') {
		const code = Number(body.code);
		const known = failure.area?.errorCodes?.[code];
		if (known) {
			// What went wrong and what to do, in the message itself; the server's words follow.
			return {
				code: String(body.code),
				message: `${known.meaning} (code ${code}). ${known.resolution}.`,
				description: serverMessage ? `The Vendor API answered: ${serverMessage}` : undefined,
			};
		}
		return {
			code: redactTokens(String(body.code)),
			message: `${serverMessage ?? 'Request refused'} (code ${redactTokens(String(body.code))})`,
		};
	}
	const meaning = HTTP_MEANINGS[failure.status] ?? 'Request not accepted';
	return {
		message: serverMessage
			? `${serverMessage} (HTTP ${failure.status})`
			: `${meaning} (HTTP ${failure.status})`,
	};
}

/** A NodeApiError built only from safe parts (no request options, no headers). */
export function apiError(
	node: INode,
	failure: ApiFailure,
	itemIndex?: number,
	extra?: string,
	headline?: string,
): NodeApiError {
	const { message, description, code } = explainFailure(failure);
	const safe: JsonObject = { message, httpCode: String(failure.status) };
	if (code) safe.code = code;
	const text = extra ? `${message}. ${extra}` : message;
	return new NodeApiError(node, safe, {
		message: headline ? `${headline}: ${text}` : text,
		description,
		httpCode: String(failure.status),
		itemIndex,
	});
}

/**
 * What a refused token call (code exchange or refresh) means and what to do. `invalid_client`
 * is also the documented answer to a region mismatch: the Accept redirect names the account's
 * accounts server (`accounts-server`), but n8n sends the token call to the token URL of the
 * credential's region.
 */
export function tokenRefusal(error: string | undefined): string {
	if (error === 'invalid_client') {
		return (
			'The accounts server answered invalid_client: the Client ID or Client Secret is wrong, or your account lives in another data-center region ' +
			"than the credential's Data Center Region (grant, access and refresh tokens must all come from one region; the Accept redirect names the " +
			"account's accounts server as accounts-server, but n8n sends the token call to the token URL of the region you chose). " +
			"Set Data Center Region to your account's region, or choose Custom with that accounts-server address as Accounts URL and the region's API addresses, " +
			'then reconnect. With multi-data-center enabled, use the client secret of that region.'
		);
	}
	return 'The refresh token was refused (revoked, wrong region or wrong client). Reconnect the Vendor credential.';
}

/**
 * The node's error for what reading or checking input threw: refused input (an InputError)
 * keeps its message and says nothing was sent; anything else is wrapped as is.
 */
export function inputFailure(
	node: INode,
	error: unknown,
	options: { itemIndex?: number; description?: string; prefix?: string } = {},
): NodeOperationError {
	const {
		itemIndex,
		description = 'Nothing was sent to the API. Correct the value and run again.',
		prefix = '',
	} = options;
	if (error instanceof InputError)
		return new NodeOperationError(node, `${prefix}${error.message}`, { itemIndex, description });
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** A write's failure after the request went out leaves its outcome unknown (marked for the per-record reports); a read's does not. */
function ofWrite<E extends Error>(idempotent: boolean, error: E): E {
	return idempotent ? error : outcomeUnknown(error);
}

/** No answer (refused, reset, dropped, timed out, cut short): the headline says the outcome is unknown for writes; no stock "retry" text replaces it. */
export function connectionLost(
	node: INode,
	error: Error,
	request: { idempotent: boolean; retried: boolean; expired?: boolean; itemIndex?: number },
): NodeApiError {
	const { idempotent, retried, expired = false, itemIndex } = request;
	const code = (error as Error & { code?: string }).code;
	const timedOut =
		expired || code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(error.message);
	const cutShort = !timedOut && /^Z_/.test(code ?? '');
	const what = timedOut
		? 'did not answer in time'
		: cutShort
			? 'sent an answer that was cut short'
			: 'lost the connection';
	const read = retried
		? 'the read was retried without success'
		: 'the read was not retried (the activation does not wait; the next poll tries again)';
	const message = idempotent
		? `The Vendor API ${what}; ${read}`
		: `${OUTCOME_UNKNOWN}: the Vendor API ${what} after the request was sent`;
	const why = idempotent
		? retried
			? 'Reads are retried up to 3 times.'
			: 'Not retried.'
		: 'The request was not repeated, because repeating a write can create a duplicate.';
	return transientFailure(
		ofWrite(
			idempotent,
			new NodeApiError(
				node,
				{ message },
				{ message, description: `${why} Cause: ${code ?? error.message}.`, itemIndex },
			),
		),
	);
}

/** Anything but the network (a helper missing from this n8n release, a TypeError) is reported as itself, never retried. */
export function sendingStopped(
	node: INode,
	error: unknown,
	idempotent: boolean,
	itemIndex?: number,
): NodeApiError {
	const e = (error ?? {}) as { name?: string; message?: string };
	const what = `${e.name ?? 'Error'}: ${redactTokens(String(e.message ?? error))}`;
	const message = idempotent
		? `The request could not be sent: ${what}`
		: `${OUTCOME_UNKNOWN}: sending it stopped unexpectedly: ${what}`;
	return ofWrite(
		idempotent,
		new NodeApiError(
			node,
			{ message },
			{ message, description: 'Not retried: the network was not the cause.', itemIndex },
		),
	);
}

/** The execution was stopped while a request was waiting or in flight. */
export function stopped(node: INode, itemIndex?: number): NodeApiError {
	const message = 'The execution was stopped';
	return new NodeApiError(
		node,
		{ message },
		{
			message,
			description:
				'A write in flight when the execution was stopped may have been processed: check the record before running again.',
			itemIndex,
		},
	);
}

/**
 * A redirect, never followed (the token and a write's body stay with the API's addresses): where
 * it pointed (host and path) and what to check. Not processed, so a write's outcome is known.
 */
export function redirected(
	node: INode,
	status: number,
	target: string,
	itemIndex?: number,
): NodeApiError {
	const message = `The Vendor API answered HTTP ${status}, a redirect to ${target}, which was not followed`;
	const description =
		"Requests are never sent on to another address, so the access token and the data sent stay with the API's own addresses; nothing was processed. " +
		"A redirect usually means the credential points at another data center than your account's: check the credential's Data Center Region, " +
		'or with Custom its API and Projects addresses, then run again.';
	return new NodeApiError(
		node,
		{ message, httpCode: String(status) },
		{ message, description, httpCode: String(status), itemIndex },
	);
}

/**
 * The token endpoint redirected the check made before a refresh (token.ts): the refresh, which
 * carries the refresh token and the client secret, was not sent.
 */
export function tokenEndpointRedirected(node: INode, status: number, target: string): NodeApiError {
	const message = `The token endpoint answered HTTP ${status}, a redirect to ${target}: the access token was not refreshed`;
	const description =
		"A refresh sends the refresh token and the client secret, so it is never sent to a token endpoint that redirects (n8n's OAuth2 client would follow it). " +
		"The credential usually points at another data center than your account's: check its Data Center Region, or with Custom its accounts address, then reconnect.";
	return new NodeApiError(node, { message }, { message, description, httpCode: String(status) });
}

/**
 * A 429 not waited (its holds used up, or a context that may not wait): the API's refusal,
 * saying when requests resume.
 */
export function refusedUntil(
	node: INode,
	failure: ApiFailure,
	until: number,
	itemIndex?: number,
): NodeApiError {
	return transientFailure(
		apiError(node, failure, itemIndex, `Requests of this rate limit resume at ${liftsAt(until)}`),
	);
}

/** A request not sent because its rate limit holds requests (a 429's Retry-After) and the context may not wait. */
export function heldUntil(node: INode, until: number, itemIndex?: number): NodeApiError {
	const message = `The Vendor API holds further requests until ${liftsAt(until)}`;
	const description =
		'A 429 answer asked to wait; nothing was sent. The next poll after that time sends again.';
	return transientFailure(
		new NodeApiError(
			node,
			{ message, httpCode: '429' },
			{ message, description, httpCode: '429', itemIndex },
		),
	);
}

/** A successful status with a body that is not the API's answer (a proxy's page, JSON cut short, an empty body). */
export function notTheApisAnswer(
	node: INode,
	status: number,
	problem: string,
	request: { idempotent: boolean; retried: boolean; itemIndex?: number },
): NodeApiError {
	const kind = problem.split(' (')[0];
	const read = request.retried
		? 'the read was retried without success'
		: 'the read was not retried';
	const message = request.idempotent
		? `The Vendor API answered HTTP ${status} with ${kind}; ${read}`
		: `${OUTCOME_UNKNOWN}: the Vendor API answered HTTP ${status} with ${kind}`;
	const description = `What came back: ${problem}. A proxy or load balancer may have answered instead of the API.`;
	return transientFailure(
		ofWrite(
			request.idempotent,
			new NodeApiError(node, { message }, { message, description, itemIndex: request.itemIndex }),
		),
	);
}

/**
 * HTTP 206 (Partial data) or 207 (Multi-status), as the Conventions document lists them: never a full success.
 * A write's outcome is unknown (some of it may have been done); a read holds only part of what was asked.
 */
export function partlyAnswered(
	node: INode,
	status: number,
	idempotent: boolean,
	itemIndex?: number,
): NodeApiError {
	const meaning = status === 206 ? 'Partial data' : 'Multi-status';
	const message = idempotent
		? `The Vendor API answered HTTP ${status} (${meaning}): only part of what was read`
		: `${OUTCOME_UNKNOWN}: the Vendor API answered HTTP ${status} (${meaning}), so only part of the write may have been done`;
	const description = idempotent
		? 'An answer with part of the data is not taken as the whole. Run again, or narrow the request.'
		: 'The answer does not say which part was done. It was not repeated: check the records before running again.';
	return ofWrite(
		idempotent,
		new NodeApiError(
			node,
			{ message, httpCode: String(status) },
			{ message, description, httpCode: String(status), itemIndex },
		),
	);
}
