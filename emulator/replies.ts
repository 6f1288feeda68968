/**
 * The server's own replies in each family's error form (`familyError`) and the answer of a
 * `status` fault (`faultReply`).
 */
import type { Fault } from './faults';
import type { Family } from './routes';
import { CODE } from './rules/answers';
import type { Reply } from './rules/context';

export function familyError(
	family: Family | undefined,
	status: number,
	kind: 'url' | 'method' | 'internal' | 'rate',
	message: string,
): Reply {
	if (family === 'projects') {
		const errorCode = {
			url: 'URL_RULE_NOT_CONFIGURED',
			method: 'INVALID_METHOD',
			internal: 'INTERNAL_SERVER_ERROR',
			rate: 'TOO_MANY_REQUESTS',
		}[kind];
		return { status, json: { errorCode, message } };
	}
	// code 5 for unknown URLs / methods is the emulator's choice (no code is documented).
	const code = kind === 'url' || kind === 'method' ? CODE.invalidUrl : status;
	return { status, json: { code, message } };
}

export function faultReply(
	family: Family | undefined,
	fault: Extract<Fault, { kind: 'status' }>,
): Reply {
	const message =
		fault.status === 429
			? 'Too many requests. Try again later.'
			: fault.status === 503
				? 'Service unavailable. Try again later.'
				: 'Internal error.';
	const reply =
		fault.body !== undefined
			? { status: fault.status, json: fault.body }
			: familyError(family, fault.status, fault.status === 429 ? 'rate' : 'internal', message);
	if (fault.retryAfter !== undefined) reply.headers = { 'Retry-After': String(fault.retryAfter) };
	return reply;
}
