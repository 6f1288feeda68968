/**
 * Promises about what goes over the wire (the token stays home, only what the API showed), as
 * properties over answers generated for the operations of the tables:
 *
 * - redirects (301/302/303/307/308 to a second local server, its query sometimes echoing the
 *   access token): nothing reaches the other server, no success, the error names where the
 *   redirect pointed, and no secret is in any output or error;
 * - a byte-order mark and whitespace before a JSON answer: read as the JSON it is (a success the
 *   emulator gave stays a success);
 * - status codes: 204 without a body is a success only where no body is documented (a Vendor
 *   Projects deletion), 206 / 207 never a full success;
 * - Retry-After as seconds and as an HTTP date, in the accounting and the Projects pacer: no
 *   request is sent again inside the hold; a hold not waited is an error saying when it lifts.
 *
 * Waits run on a virtual clock (test/properties/support.ts): a Retry-After of two minutes takes no time.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { jsonAnswer } from '../tools/answer-proxy';
import type { MadeAnswer } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import type { TableOperation } from '../tools/table-inputs';
import { startWireServer, ELSEWHERE_MARKER } from '../tools/wire-server';
import type { WireServer } from '../tools/wire-server';
import type { RunResult } from '../../harness';
import {
	enoughChecked,
	errorText,
	holds,
	isErrorItem,
	isOwnCall,
	leaked,
	noViolations,
	NODE,
	onError,
	OPERATIONS,
	opById,
	secretsOf,
	shownText,
	stepOf,
	thrown,
	tallied,
	useVirtualClock,
	valuesOf,
} from './support';
import type { Tally } from './support';

const RULE = { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 };
const ctx = useProxiedEnv({ demo: true, rateLimit: RULE });
const env = ctx.env;
const clock = useVirtualClock();
let wire: WireServer;

beforeAll(async () => {
	wire = await startWireServer();
	ctx.proxy.serviceClock = () => Date.now();
	setPacingRule(RULE);
});
afterAll(async () => {
	setPacingRule(DOCUMENTED_RULE);
	await wire.close();
});

/** Runs `t` once (one item, Continue On Fail) with its generated input. */
async function runOnce(t: TableOperation): Promise<RunResult> {
	return await env.run([stepOf(env, t, valuesOf(env, t), onError)], [{ json: { i: 0 } }]);
}

/** Secrets found in what the run shows. */
const secretViolations = (result: RunResult): string[] =>
	leaked(shownText(result), secretsOf(env.credentials[0])).map(
		(s) => `a secret (${s.slice(0, 4)}...) is in the output or error`,
	);

// ---------------------------------------------------------------- redirects

interface Redirect {
	/** The operation's id (`books.item.get`). */
	op: string;
	status: number;
	path: string;
	/** Whether the Location's query echoes the access token. */
	echoToken: boolean;
}

const redirects: fc.Arbitrary<Redirect> = fc.record({
	op: fc.constantFrom(...OPERATIONS.map((t) => t.id)),
	status: fc.constantFrom(301, 302, 303, 307, 308),
	path: fc.stringMatching(/^\/[a-z]{1,8}(\/[a-z0-9]{1,8}){0,2}$/),
	echoToken: fc.boolean(),
});

async function redirectViolations({
	op: id,
	status,
	path,
	echoToken,
}: Redirect): Promise<string[] | null> {
	const op = opById(id);
	wire.received.length = 0;
	ctx.proxy.reset();
	const token = String((env.credentials[0].data.oauthTokenData as IDataObject).access_token);
	const location = `${wire.url}${path}${echoToken ? `?access_token=${token}` : ''}`;
	ctx.proxy.add({
		test: isOwnCall(op),
		action: {
			answer: { status, contentType: 'text/html', body: '<a>moved</a>', headers: { location } },
		},
	});
	const result = await runOnce(op);
	const found: string[] = [];
	if (wire.received.length)
		found.push(
			`the other host received ${wire.received.length} request(s): ${wire.received.map((r) => `${r.method} ${r.url} authorization=${r.headers.authorization ? 'yes' : 'no'} body=${r.body.length}`).join('; ')}`,
		);
	const out = result.output(NODE);
	const successes = out.filter((i) => !isErrorItem(i));
	if (successes.length)
		found.push(
			`success without evidence: ${JSON.stringify(successes.map((i) => i.json)).slice(0, 200)}`,
		);
	if (shownText(result).includes(ELSEWHERE_MARKER))
		found.push("the other host's answer is in the output");
	const error = out.find(isErrorItem) ?? thrown(result);
	const text = errorText(error);
	const host = new URL(wire.url).host;
	if (!ctx.proxy.records.some(isOwnCall(op))) return null;
	if (!text.includes(`${host}${path}`))
		found.push(
			`the error does not name where the redirect pointed (${host}${path}): "${text.slice(0, 200)}"`,
		);
	return [...found, ...secretViolations(result)];
}

test("a redirect of any operation's call: not followed, no success, the error names where it pointed, no secret shown", async () => {
	const tally: Tally = { checked: 0, vacuous: 0 };
	await holds(redirects, async (r) => tallied(tally, await redirectViolations(r), r), 6, [
		{ op: 'books.item.create', status: 307, path: '/books/v3/items', echoToken: true },
		{ op: 'books.item.get', status: 302, path: '/books/v3/items/1', echoToken: false },
	]);
	enoughChecked(tally);
});

// ---------------------------------------------------------------- a byte-order mark and whitespace before JSON

/** Operations whose emulator answer is JSON and can be asked for again and again (reads, creates, updates). */
const REPEATABLE = OPERATIONS.filter(
	(t) => ['get', 'list', 'create', 'update'].includes(t.op.kind ?? '') && !t.op.binaryOutput,
).map((t) => t.id);

const prefixes: fc.Arbitrary<string> = fc
	.tuple(fc.boolean(), fc.array(fc.constantFrom(' ', '\n', '\r\n', '\t'), { maxLength: 4 }))
	.filter(([bom, ws]) => bom || ws.length > 0)
	.map(([bom, ws]) => `${bom ? '\uFEFF' : ''}${ws.join('')}`);

/** Whether the emulator's answer was a success (2xx, and code 0 where it has a code). */
function upstreamSuccess(status: number | undefined, json: unknown): boolean {
	if (status === undefined || status >= 300 || json === undefined) return false;
	const code = (json as IDataObject).code;
	return code === undefined || code === 0;
}

async function prefixViolations(id: string, prefix: string): Promise<string[] | null> {
	const op = opById(id);
	ctx.proxy.reset();
	ctx.proxy.add({
		test: isOwnCall(op),
		action: {
			replace: (upstream): MadeAnswer => ({
				status: upstream.status,
				contentType: String(upstream.headers['content-type'] ?? 'application/json'),
				body: Buffer.concat([Buffer.from(prefix, 'utf8'), upstream.body]),
			}),
		},
	});
	const result = await runOnce(op);
	const own = ctx.proxy.records.find(isOwnCall(op));
	if (!own || !upstreamSuccess(own.upstreamStatus, own.upstreamJson)) return null;
	const failed = result.output(NODE).filter(isErrorItem);
	const error = failed[0] ?? thrown(result);
	return error
		? [
				`a success answer with ${JSON.stringify(prefix)} before its JSON failed: "${errorText(error).slice(0, 200)}"`,
			]
		: [];
}

test("a byte-order mark or whitespace before a success's JSON: still a success", async () => {
	const tally: Tally = { checked: 0, vacuous: 0 };
	await holds(
		fc.tuple(fc.constantFrom(...REPEATABLE), prefixes),
		async ([op, prefix]) => tallied(tally, await prefixViolations(op, prefix), { op, prefix }),
		6,
		[
			['books.item.get', '\uFEFF'],
			['books.item.create', '\uFEFF\r\n'],
		],
	);
	enoughChecked(tally);
});

// ---------------------------------------------------------------- status codes

/** Deletions whose answer body the documents do not show (Vendor Projects): 204 No Content proves them. */
const bodyless = (t: TableOperation): boolean =>
	t.area.value === 'projects' && (t.op.kind === 'delete' || t.op.method === 'DELETE');
/** Operations whose documented answer carries a record, a list, a file or a code. */
const documentedBody = (t: TableOperation): boolean =>
	t.area.value !== 'projects' || !!t.op.responseKey || !!t.op.binaryOutput || t.op.method === 'GET';

async function statusViolations(id: string, status: 204 | 206 | 207): Promise<string[] | null> {
	const op = opById(id);
	ctx.proxy.reset();
	const answer: MadeAnswer =
		status === 204
			? { status, body: '' }
			: { ...jsonAnswer({ code: 0, message: 'success', count: 1 }), status };
	ctx.proxy.add({ test: isOwnCall(op), action: { answer } });
	const result = await runOnce(op);
	if (!ctx.proxy.records.some(isOwnCall(op))) return null;
	const out = result.output(NODE);
	const successes = out.filter(
		(i) => !isErrorItem(i) && i.json.sent !== null && i.json.sent !== false,
	);
	const found: string[] = [];
	const shown = JSON.stringify(successes.map((i) => i.json)).slice(0, 200);
	if (status === 204 && bodyless(op) && (successes.length === 0 || thrown(result)))
		found.push(
			`204 No Content on a deletion without a documented body is not a success: "${errorText(out[0] ?? thrown(result)).slice(0, 200)}"`,
		);
	if (status === 204 && !bodyless(op) && documentedBody(op) && successes.length)
		found.push(`204 without the documented body taken as a success: ${shown}`);
	if (status !== 204 && successes.length) found.push(`${status} taken as a full success: ${shown}`);
	if (status !== 204 && out.some((i) => i.json.deleted === true))
		found.push(`${status} output as deleted: true`);
	return found;
}

test('204 is a success only where no body is documented; 206 and 207 never a full success', async () => {
	type StatusCase = [string, 204 | 206 | 207];
	const cases: fc.Arbitrary<StatusCase> = fc.tuple(
		fc.constantFrom(...OPERATIONS.map((t) => t.id)),
		fc.constantFrom(204 as const, 206 as const, 207 as const),
	);
	const deletions = OPERATIONS.filter(bodyless).map((t) => t.id);
	const tally: Tally = { checked: 0, vacuous: 0 };
	await holds(
		cases,
		async ([op, status]) => tallied(tally, await statusViolations(op, status), { op, status }),
		6,
		[
			...deletions.map((op): StatusCase => [op, 204]),
			['books.item.delete', 206],
			['projects.trash.deletePermanently', 207],
			// found by npm run fuzz (factor 100): a search answered 204 was output as one empty record
			['projects.search.search', 204],
			['projects.project.get', 204],
			['books.invoice.downloadAttachment', 204],
		] as StatusCase[],
	);
	enoughChecked(tally);
});

// ---------------------------------------------------------------- Retry-After

interface Hold {
	/** The operation's id. */
	op: string;
	seconds: number;
	form: 'seconds' | 'date';
}

/** Reads of each pacer: the accounting areas' (by organization) and Vendor Projects'. */
const HELD_READS = [
	'books.item.get',
	'invoice.payment.get',
	'billing.project.get',
	'projects.project.get',
	'projects.portal.getAll',
].filter((id) => OPERATIONS.some((t) => t.id === id));

const holdsGen: fc.Arbitrary<Hold> = fc.record({
	op: fc.constantFrom(...HELD_READS),
	seconds: fc.integer({ min: 1, max: 3600 }),
	form: fc.constantFrom('seconds' as const, 'date' as const),
});

/** An ISO time (`2030-01-02T03:04:05Z`) or HTTP date in an error: it says when the hold lifts. */
const SAYS_WHEN = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}|\d{2}:\d{2}:\d{2} GMT/;

async function holdViolations({ op: id, seconds, form }: Hold): Promise<string[]> {
	const op = opById(id);
	ctx.proxy.reset();
	let answeredAt = 0;
	ctx.proxy.add({
		test: isOwnCall(op),
		nth: 1,
		action: {
			replace: (): MadeAnswer => {
				answeredAt = Date.now();
				const retryAfter =
					form === 'seconds'
						? String(seconds)
						: new Date(answeredAt + seconds * 1000).toUTCString();
				return {
					...jsonAnswer({ code: 1070, message: 'Too many requests' }, 429),
					headers: { 'retry-after': retryAfter },
				};
			},
		},
	});
	const result = await runOnce(op);
	// a later case starts after every hold or block this one learned
	clock.advance(2 * 60 * 60 * 1000);
	const calls = ctx.proxy.records.filter(isOwnCall(op));
	const found: string[] = [];
	// a date has whole seconds: the hold ends at most a second before `seconds` after the answer
	const earliest = answeredAt + seconds * 1000 - (form === 'date' ? 1000 : 0);
	for (const again of calls.slice(1))
		if (again.arrivedAt < earliest)
			found.push(
				`sent again ${again.arrivedAt - answeredAt} ms after a 429 with Retry-After ${seconds} s (${form})`,
			);
	const error = result.output(NODE).find(isErrorItem) ?? thrown(result);
	if (calls.length === 1 && !error)
		found.push('the 429 was neither waited out and sent again nor an error');
	if (calls.length === 1 && error && !SAYS_WHEN.test(errorText(error)))
		found.push(`the error does not say when the hold lifts: "${errorText(error).slice(0, 200)}"`);
	return [...found, ...secretViolations(result)];
}

test('Retry-After as seconds or an HTTP date, in both pacers: nothing sent inside the hold; an error says when it lifts', async () => {
	await holds<Hold>(holdsGen, async (h) => noViolations(await holdViolations(h), h), 6, [
		{ op: 'books.item.get', seconds: 30, form: 'date' },
		{ op: 'projects.project.get', seconds: 45, form: 'date' },
		{ op: 'projects.project.get', seconds: 1800, form: 'date' },
	]);
});
