/**
 * The request path's one decision (nodes/shared/api/decision.ts), as a table: each row a way
 * a sending can end (an answer's status, headers and body, no answer, a stop, a held key), for a
 * read or a write, with the attempt state and the context's patience, and the step expected:
 * done, retry after N ms, refresh then resend, or fail (which error, transient or not, a write's
 * outcome unknown or not), and the hold the pacer gets.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	decide,
	FIRST_ATTEMPT,
	MAX_RETRIES,
	type AttemptState,
	type RequestFacts,
	type RuleFacts,
	type Sent,
	type Step,
} from '../../nodes/shared/api/decision';
import { RateLimitBlockedError } from '../../nodes/shared/api/failureKinds';

const node: INode = {
	id: 'n',
	name: 'Node',
	type: 'n8n-nodes-vendor.vendorBooks',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const NOW = Date.UTC(2030, 0, 2, 3, 4, 5);
const PROJECTS: RuleFacts = { windowMs: 120_000, blockMs: 1_800_000 };
const ACCOUNTING: RuleFacts = { windowMs: 60_000 };

const read: RequestFacts = {
	node,
	area: {},
	url: 'https://www.vendorapis.com/books/v3/items',
	idempotent: true,
	binary: false,
	failOnBlock: true,
	failFast: false,
};
const write: RequestFacts = { ...read, idempotent: false };
const file: RequestFacts = { ...read, binary: true };
const waiting: RequestFacts = { ...read, failOnBlock: false };
const failFast: RequestFacts = { ...read, failFast: true, failOnBlock: false };

const json = (body: unknown, status = 200, headers: IDataObject = {}): Sent => ({
	kind: 'answer',
	status,
	headers: { 'content-type': 'application/json', ...headers },
	raw: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});
const bytes = (status: number, text: string, headers: IDataObject = {}): Sent => ({
	kind: 'answer',
	status,
	headers,
	raw: Buffer.from(text),
});
const netError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });
const at = (attempt: number, more: Partial<AttemptState> = {}): AttemptState => ({
	...FIRST_ATTEMPT,
	attempt,
	...more,
});

/** What a row expects: the step's kind and, as given, its wait, hold, error text and marks. */
interface Expected {
	kind: Step['kind'];
	afterMs?: number;
	hold?: { ms: number; block: boolean } | null;
	body?: unknown;
	message?: RegExp;
	notMessage?: RegExp;
	unknown?: boolean;
	transient?: boolean;
	blockUntil?: number;
	next?: Partial<AttemptState>;
}

interface Row {
	name: string;
	sent: Sent;
	request?: RequestFacts;
	rule?: RuleFacts;
	state?: AttemptState;
	expect: Expected;
}

const LIFTS = (ms: number) => new Date(NOW + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const rows: Row[] = [
	// done
	{
		name: '200 JSON: done, the parsed body',
		sent: json({ code: 0, item: { item_id: '1' } }),
		expect: { kind: 'done', body: { code: 0, item: { item_id: '1' } } },
	},
	{
		name: '200 JSON after a UTF-8 byte-order mark: JSON',
		sent: bytes(200, '\uFEFF{"code":0,"items":[]}', { 'content-type': 'application/json' }),
		expect: { kind: 'done', body: { code: 0, items: [] } },
	},
	{
		name: '200 JSON after whitespace, unlabelled: JSON',
		sent: bytes(200, '\r\n  \t{"code":0}'),
		expect: { kind: 'done', body: { code: 0 } },
	},
	{
		name: '200 JSON after a byte-order mark, unlabelled: JSON',
		sent: bytes(200, '\uFEFF [{"a":1}]'),
		expect: { kind: 'done', body: [{ a: 1 }] },
	},
	{
		name: '200 JSON: an id past 2^53 keeps its digits',
		sent: bytes(200, '{"code":0,"item":{"item_id":1752587000000097005}}'),
		expect: { kind: 'done', body: { code: 0, item: { item_id: '1752587000000097005' } } },
	},
	{
		name: '200 file: the bytes',
		sent: bytes(200, '%PDF-1.4', { 'content-type': 'application/pdf' }),
		request: file,
		expect: { kind: 'done', body: Buffer.from('%PDF-1.4') },
	},
	{
		name: '204 with no body (a write): done, an empty object',
		sent: bytes(204, ''),
		request: write,
		expect: { kind: 'done', body: {} },
	},
	{
		name: '204 with no body labelled JSON (a read): done, an empty object',
		sent: bytes(204, '', { 'content-type': 'application/json' }),
		expect: { kind: 'done', body: {} },
	},
	{
		name: '204 with no body, a file expected: the empty bytes',
		sent: bytes(204, ''),
		request: file,
		expect: { kind: 'done', body: Buffer.alloc(0) },
	},
	// 206 / 207: never a full success
	{
		name: '206 on a write: Outcome unknown, not transient',
		sent: json({ code: 0 }, 206),
		request: write,
		expect: {
			kind: 'fail',
			message: /^Outcome unknown.*HTTP 206 \(Partial data\)/,
			unknown: true,
			transient: false,
		},
	},
	{
		name: '207 on a write: Outcome unknown',
		sent: json({ code: 0 }, 207),
		request: write,
		expect: { kind: 'fail', message: /HTTP 207 \(Multi-status\)/, unknown: true, transient: false },
	},
	{
		name: '206 on a read: only part of what was read',
		sent: json({ code: 0, items: [] }, 206),
		expect: {
			kind: 'fail',
			message: /HTTP 206 \(Partial data\): only part/,
			unknown: false,
			transient: false,
		},
	},
	// the token
	{
		name: '401: refresh and resend',
		sent: json({ code: 57, message: 'Unauthorized' }, 401),
		expect: { kind: 'refresh', next: { refreshed: true, attempt: 0 } },
	},
	{
		name: '200 INVALID_OAUTHTOKEN: refresh and resend',
		sent: json({ errorCode: 'INVALID_OAUTHTOKEN' }),
		expect: { kind: 'refresh', next: { refreshed: true } },
	},
	{
		name: '401 after a refresh: the refusal, not transient',
		sent: json({ code: 57, message: 'Unauthorized' }, 401),
		state: at(0, { refreshed: true }),
		expect: { kind: 'fail', message: /Unauthorized \(code 57\)/, transient: false, unknown: false },
	},
	// redirects: never followed
	{
		name: '302 to another host: names host and path only, what to check; not followed',
		sent: bytes(302, '', {
			location: 'https://evil.example.net/steal/here?token=1000.abcdefabcdefabcdefabcdef&x=1',
		}),
		expect: {
			kind: 'fail',
			message: /HTTP 302, a redirect to evil\.example\.net\/steal\/here, which was not followed/,
			notMessage: /token=|abcdef|\?/,
			transient: false,
			unknown: false,
		},
	},
	{
		name: '307 on a write: not processed, so not Outcome unknown',
		sent: bytes(307, '', { location: 'https://other.example/x' }),
		request: write,
		expect: {
			kind: 'fail',
			message: /^The Vendor API answered HTTP 307/,
			unknown: false,
			transient: false,
		},
	},
	{
		name: '301 with a relative Location: resolved against the request',
		sent: bytes(301, '', { location: '/moved/items' }),
		expect: { kind: 'fail', message: /redirect to www\.vendorapis\.com\/moved\/items/ },
	},
	{
		name: '303 with no Location',
		sent: bytes(303, ''),
		expect: { kind: 'fail', message: /no address/ },
	},
	// 429
	{
		name: '429 Retry-After 20 (seconds), accounting: hold 20 s and resend',
		sent: json({ code: 429 }, 429, { 'retry-after': '20' }),
		rule: ACCOUNTING,
		expect: {
			kind: 'retry',
			afterMs: 20_000,
			hold: { ms: 20_000, block: false },
			next: { attempt: 1, heldMs: 20_000 },
		},
	},
	{
		name: "429 Retry-After as an HTTP date, measured from the answer's Date",
		sent: json({ code: 429 }, 429, {
			'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT',
			date: 'Wed, 21 Oct 2015 07:28:00 GMT',
		}),
		rule: ACCOUNTING,
		expect: { kind: 'retry', afterMs: 30_000, hold: { ms: 30_000, block: false } },
	},
	{
		name: '429 Retry-After as an HTTP date without a Date header: from the local clock',
		sent: json({ code: 429 }, 429, { 'retry-after': new Date(NOW + 45_000).toUTCString() }),
		rule: ACCOUNTING,
		expect: { kind: 'retry', afterMs: 45_000, hold: { ms: 45_000, block: false } },
	},
	{
		name: "429 Retry-After unreadable: the rule's wait (a window)",
		sent: json({ code: 429 }, 429, { 'retry-after': 'soon' }),
		rule: ACCOUNTING,
		expect: { kind: 'retry', afterMs: 60_000, hold: { ms: 60_000, block: false } },
	},
	{
		name: "429 without Retry-After, accounting: the pacer's hold",
		sent: json({ code: 429 }, 429),
		rule: { ...ACCOUNTING, holdAfterRefusal: 12_000 },
		expect: { kind: 'retry', afterMs: 12_000, hold: { ms: 12_000, block: false } },
	},
	{
		name: "429, accounting, holds past 5 windows: the API's 429, transient, saying when requests resume",
		sent: json({ code: 429, message: 'Too many requests' }, 429),
		rule: ACCOUNTING,
		state: at(5, { heldMs: 250_000 }),
		expect: {
			kind: 'fail',
			message: new RegExp(
				`Too many requests \\(code 429\\)\\. Requests of this rate limit resume at ${LIFTS(60_000)}`,
			),
			transient: true,
			unknown: false,
			hold: { ms: 60_000, block: false },
		},
	},
	{
		name: '429 without Retry-After, projects, On Rate-Limit Block = fail: the block, saying when it lifts',
		sent: json({ errorCode: 'X' }, 429),
		rule: PROJECTS,
		expect: {
			kind: 'fail',
			message: new RegExp(`blocks further requests until ${LIFTS(1_800_000)}`),
			blockUntil: NOW + 1_800_000,
			transient: true,
			hold: { ms: 1_800_000, block: true },
		},
	},
	{
		name: '429 Retry-After as a date 2 hours on, On Rate-Limit Block = fail: a block until that date',
		sent: json({ code: 429 }, 429, { 'retry-after': new Date(NOW + 7_200_000).toUTCString() }),
		rule: ACCOUNTING,
		expect: { kind: 'fail', blockUntil: NOW + 7_200_000, hold: { ms: 7_200_000, block: true } },
	},
	{
		name: '429 without Retry-After, projects, On Rate-Limit Block = wait: waited out once',
		sent: json({ errorCode: 'X' }, 429),
		rule: PROJECTS,
		request: waiting,
		expect: {
			kind: 'retry',
			afterMs: 1_800_000,
			hold: { ms: 1_800_000, block: true },
			next: { waitedBlock: true },
		},
	},
	{
		name: "429 again after the block was waited: the API's 429, saying when requests resume",
		sent: json({ errorCode: 'X', message: 'limit' }, 429),
		rule: PROJECTS,
		request: waiting,
		state: at(1, { waitedBlock: true }),
		expect: {
			kind: 'fail',
			message: new RegExp(`resume at ${LIFTS(1_800_000)}`),
			transient: true,
			hold: { ms: 1_800_000, block: true },
		},
	},
	{
		name: '429 Retry-After 5, projects: resent up to 3 times',
		sent: json({ errorCode: 'X' }, 429, { 'retry-after': '5' }),
		rule: PROJECTS,
		state: at(2),
		expect: { kind: 'retry', afterMs: 5000, hold: { ms: 5000, block: false } },
	},
	{
		name: "429 Retry-After 5, projects, the 4th: the API's 429",
		sent: json({ errorCode: 'X' }, 429, { 'retry-after': '5' }),
		rule: PROJECTS,
		state: at(MAX_RETRIES),
		expect: { kind: 'fail', transient: true, hold: { ms: 5000, block: false } },
	},
	{
		name: '429 on a write: not processed, resent',
		sent: json({ code: 429 }, 429, { 'retry-after': '1' }),
		rule: ACCOUNTING,
		request: write,
		expect: { kind: 'retry', afterMs: 1000 },
	},
	// 5xx
	{
		name: '503 on a read: retried after 1 s',
		sent: json({ code: 503 }, 503),
		expect: { kind: 'retry', afterMs: 1000, next: { attempt: 1 } },
	},
	{
		name: '503 on a read, the 3rd retry: after 4 s',
		sent: json({ code: 503 }, 503),
		state: at(2),
		expect: { kind: 'retry', afterMs: 4000 },
	},
	{
		name: '503 with Retry-After 7: after 7 s',
		sent: json({ code: 503 }, 503, { 'retry-after': '7' }),
		expect: { kind: 'retry', afterMs: 7000 },
	},
	{
		name: '503 on a read after the retries: transient, not unknown',
		sent: json({ code: 503, message: 'down' }, 503),
		state: at(MAX_RETRIES),
		expect: { kind: 'fail', message: /down/, transient: true, unknown: false },
	},
	{
		name: '500 on a write: Outcome unknown, transient, not repeated',
		sent: json({ code: 500 }, 500),
		request: write,
		expect: { kind: 'fail', message: /^Outcome unknown/, transient: true, unknown: true },
	},
	// refusals
	{
		name: "400 refusal: the API's words, not transient",
		sent: json({ code: 1002, message: 'Invoice does not exist.' }, 400),
		expect: {
			kind: 'fail',
			message: /Invoice does not exist\. \(code 1002\)/,
			transient: false,
			unknown: false,
		},
	},
	{
		name: '200 envelope code 1002 on a write: a refusal, not unknown',
		sent: json({ code: 1002, message: 'No.' }),
		request: write,
		expect: { kind: 'fail', message: /No\. \(code 1002\)/, unknown: false, transient: false },
	},
	{
		name: "404 HTML page: a refusal with the page's words",
		sent: bytes(404, '<html>Not Found</html>', { 'content-type': 'text/html' }),
		expect: { kind: 'fail', transient: false },
	},
	// not the API's answer
	{
		name: '200 HTML page on a read: retried',
		sent: bytes(200, '<!DOCTYPE html><html></html>', { 'content-type': 'text/html' }),
		expect: { kind: 'retry', afterMs: 1000 },
	},
	{
		name: '200 HTML page on a read after the retries: transient',
		sent: bytes(200, '<html></html>', { 'content-type': 'text/html' }),
		state: at(MAX_RETRIES),
		expect: {
			kind: 'fail',
			message: /an HTML page.*retried without success/,
			transient: true,
			unknown: false,
		},
	},
	{
		name: '200 JSON cut short on a write: Outcome unknown, transient',
		sent: bytes(200, '{"code":0,"item":{"na', { 'content-type': 'application/json' }),
		request: write,
		expect: {
			kind: 'fail',
			message: /^Outcome unknown.*JSON cut short/,
			transient: true,
			unknown: true,
		},
	},
	{
		name: '200 empty body labelled JSON on a write: Outcome unknown',
		sent: bytes(200, '', { 'content-type': 'application/json' }),
		request: write,
		expect: { kind: 'fail', message: /an empty body/, unknown: true },
	},
	{
		name: '200 a bare number: not an object or a list',
		sent: bytes(200, '42', { 'content-type': 'application/json' }),
		state: at(MAX_RETRIES),
		expect: { kind: 'fail', message: /not an object or a list/ },
	},
	// no answer
	{
		name: 'connection refused on a read: retried after 2 s (attempt 1)',
		sent: { kind: 'noAnswer', error: netError('ECONNREFUSED'), expired: false },
		state: at(1),
		expect: { kind: 'retry', afterMs: 2000, next: { attempt: 2 } },
	},
	{
		name: 'the deadline on a read after the retries: did not answer in time, transient',
		sent: { kind: 'noAnswer', error: netError('ERR_CANCELED'), expired: true },
		state: at(MAX_RETRIES),
		expect: {
			kind: 'fail',
			message: /did not answer in time; the read was retried/,
			transient: true,
			unknown: false,
		},
	},
	{
		name: 'connection reset on a write: Outcome unknown, transient, not repeated',
		sent: { kind: 'noAnswer', error: netError('ECONNRESET'), expired: false },
		request: write,
		expect: {
			kind: 'fail',
			message: /^Outcome unknown.*lost the connection/,
			transient: true,
			unknown: true,
		},
	},
	{
		name: 'an exception, not the network (a write): Outcome unknown, not transient',
		sent: { kind: 'noAnswer', error: new TypeError('x is not a function'), expired: false },
		request: write,
		expect: {
			kind: 'fail',
			message: /TypeError: x is not a function/,
			transient: false,
			unknown: true,
		},
	},
	{
		name: 'an exception on a read: not retried, not transient',
		sent: { kind: 'noAnswer', error: new TypeError('boom'), expired: false },
		expect: { kind: 'fail', transient: false, unknown: false },
	},
	{
		name: 'the execution stopped',
		sent: { kind: 'cancelled' },
		request: write,
		expect: { kind: 'fail', message: /^The execution was stopped$/, transient: false },
	},
	// not sent: an earlier item's failure ended the run before this item sent anything (the run's halt, run.ts)
	{
		name: 'halted before the item sent anything: not started, not unknown, not transient',
		sent: { kind: 'halted' },
		request: write,
		expect: {
			kind: 'fail',
			message: /^Not sent: an earlier item ended the run/,
			transient: false,
			unknown: false,
		},
	},
	// not sent: a held key
	{
		name: 'a hold began while waiting for a slot: waits its turn again, state kept',
		sent: { kind: 'notSent', until: NOW + 5000, block: false },
		state: at(1),
		expect: { kind: 'retry', afterMs: 0, next: { attempt: 1 } },
	},
	{
		name: 'a block began while waiting, On Rate-Limit Block = fail: the block error',
		sent: { kind: 'notSent', until: NOW + 90_000, block: true },
		expect: { kind: 'fail', blockUntil: NOW + 90_000 },
	},
	{
		name: 'a block began while waiting, On Rate-Limit Block = wait: waits',
		sent: { kind: 'notSent', until: NOW + 90_000, block: true },
		request: waiting,
		expect: { kind: 'retry', afterMs: 0 },
	},
	// failFast: nothing waited
	{
		name: 'failFast, a held key: transient at once, saying until when',
		sent: { kind: 'notSent', until: NOW + 20_000, block: false },
		request: failFast,
		expect: {
			kind: 'fail',
			message: new RegExp(`holds further requests until ${LIFTS(20_000)}`),
			transient: true,
		},
	},
	{
		name: 'failFast, a blocked key: the block error',
		sent: { kind: 'notSent', until: NOW + 600_000, block: true },
		request: failFast,
		expect: { kind: 'fail', blockUntil: NOW + 600_000, transient: true },
	},
	{
		name: 'failFast, 429 Retry-After 20: the hold recorded, transient at once',
		sent: json({ code: 429 }, 429, { 'retry-after': '20' }),
		rule: ACCOUNTING,
		request: failFast,
		expect: {
			kind: 'fail',
			message: /resume at/,
			transient: true,
			hold: { ms: 20_000, block: false },
		},
	},
	{
		name: 'failFast, 429 projects: the block recorded, the block error',
		sent: json({ errorCode: 'X' }, 429),
		rule: PROJECTS,
		request: failFast,
		expect: { kind: 'fail', blockUntil: NOW + 1_800_000, hold: { ms: 1_800_000, block: true } },
	},
	{
		name: 'failFast, 503 on a read: transient at once',
		sent: json({ code: 503 }, 503),
		request: failFast,
		expect: { kind: 'fail', transient: true, unknown: false },
	},
	{
		name: 'failFast, no answer on a read: transient at once, not retried',
		sent: { kind: 'noAnswer', error: netError('ETIMEDOUT'), expired: false },
		request: failFast,
		expect: { kind: 'fail', message: /the read was not retried/, transient: true },
	},
	{
		name: 'failFast, an HTML page on a read: transient at once',
		sent: bytes(200, '<html></html>', { 'content-type': 'text/html' }),
		request: failFast,
		expect: { kind: 'fail', message: /was not retried/, transient: true },
	},
	{
		name: 'failFast, 401: still refreshed once',
		sent: json({}, 401),
		request: failFast,
		expect: { kind: 'refresh' },
	},
];

test.each(rows)(
	'$name',
	({ sent, request = read, rule = ACCOUNTING, state = FIRST_ATTEMPT, expect: want }) => {
		const step = decide(sent, request, rule, state, NOW);
		expect(step.kind).toBe(want.kind);
		if (step.kind === 'retry') {
			if (want.afterMs !== undefined) expect(step.afterMs).toBe(want.afterMs);
			if (want.next) expect(step.next).toMatchObject(want.next);
		}
		if (step.kind === 'refresh' && want.next) expect(step.next).toMatchObject(want.next);
		if (step.kind === 'done' && 'body' in want) expect(step.body).toEqual(want.body);
		if (want.hold !== undefined) expect('hold' in step ? step.hold : null).toEqual(want.hold);
		if (step.kind !== 'fail') return;
		const text = `${step.error.message} ${(step.error as { description?: string }).description ?? ''}`;
		if (want.message) expect(step.error.message).toMatch(want.message);
		if (want.notMessage) expect(text).not.toMatch(want.notMessage);
		if (want.unknown !== undefined) expect(step.unknown).toBe(want.unknown);
		if (want.transient !== undefined) expect(step.transient).toBe(want.transient);
		if (want.blockUntil !== undefined) {
			expect(step.error).toBeInstanceOf(RateLimitBlockedError);
			expect((step.error as RateLimitBlockedError).until).toBe(want.blockUntil);
			expect(step.error.message).toBe(
				`The Vendor API blocks further requests until ${LIFTS(want.blockUntil - NOW)}`,
			);
		}
	},
);

test("a redirect's error says what to check: the Data Center Region, or the Custom addresses", () => {
	const step = decide(
		bytes(302, '', { location: 'https://x.example/y' }),
		read,
		ACCOUNTING,
		FIRST_ATTEMPT,
		NOW,
	);
	if (step.kind !== 'fail') throw new Error('expected a fail step');
	expect((step.error as { description?: string }).description).toMatch(
		/Data Center Region.*Custom/,
	);
});

test('every way a sending ends has a row: done, retry, refresh, fail; every status class; every kind of sending', () => {
	const kinds = new Set(
		rows.map(
			(r) =>
				decide(r.sent, r.request ?? read, r.rule ?? ACCOUNTING, r.state ?? FIRST_ATTEMPT, NOW).kind,
		),
	);
	expect([...kinds].sort()).toEqual(['done', 'fail', 'refresh', 'retry']);
	const classes = new Set(
		rows
			.filter((r) => r.sent.kind === 'answer')
			.map((r) => Math.floor((r.sent as { status: number }).status / 100)),
	);
	expect([...classes].sort()).toEqual([2, 3, 4, 5]);
	expect(new Set(rows.map((r) => r.sent.kind))).toEqual(
		new Set(['answer', 'noAnswer', 'cancelled', 'halted', 'notSent']),
	);
});
