/**
 * A failed refresh names its real cause: what n8n's OAuth2 client threw is read for the token
 * endpoint's error code, its HTTP status, a network failure, or else the exception itself
 * (a helper missing from an n8n release is a TypeError, not "no answer"); nothing secret.
 */
import { refreshFailureCause } from '../../nodes/shared/api/transport';

test("the token endpoint refused: its error code (and status), as n8n's OAuth2 client reports it", () => {
	const authError = Object.assign(new Error('invalid_code'), {
		code: 'EAUTH',
		body: { error: 'invalid_code' },
	});
	expect(refreshFailureCause(authError)).toBe('the token endpoint answered invalid_code');
	expect(
		refreshFailureCause(
			Object.assign(new Error('x'), { status: 400, body: { error: 'invalid_client' } }),
		),
	).toBe('the token endpoint answered invalid_client with HTTP 400');
});

test('an HTTP status without an error code', () => {
	expect(
		refreshFailureCause(
			Object.assign(new Error('HTTP status 502'), { status: 502, code: 'ESTATUS', body: '<html>' }),
		),
	).toBe('the token endpoint answered HTTP 502');
	expect(refreshFailureCause({ response: { status: 503 } })).toBe(
		'the token endpoint answered HTTP 503',
	);
});

test('no answer: the network failure in words (n8n replaces messages naming a system code)', () => {
	expect(
		refreshFailureCause(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
	).toBe('the token call got no answer: connection closed');
	expect(refreshFailureCause(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(
		'the token call got no answer: connection refused',
	);
	expect(refreshFailureCause(Object.assign(new Error('odd'), { code: 'EPIPE' }))).toBe(
		'the token call got no answer: no network answer',
	);
});

test('anything else is reported as itself, with tokens redacted', () => {
	expect(
		refreshFailureCause(new TypeError('ctx.helpers.refreshOAuth2Token is not a function')),
	).toBe('an unexpected exception: TypeError: ctx.helpers.refreshOAuth2Token is not a function');
	const token = `1000.${'abcdef0123456789'.repeat(2)}.0123456789abcdef`;
	expect(refreshFailureCause(new Error(`bad token ${token}`))).not.toContain(token);
});
