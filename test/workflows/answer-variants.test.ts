/**
 * Only what the API showed, tested as a class: generated from the field tables, every
 * operation of every action node (Custom API Call aside) runs through n8n's engine, with
 * Continue On Fail on and off, while an answer proxy in front of the emulator changes the
 * answer of the operation's own call (reads made before it still go to the emulator):
 *
 * a. the envelope only; b. a code-0 "invalid value" refusal in its variants; c. the record key
 * `null` or of the wrong type; d. the record key missing among other members; e. a proxy's HTML
 * page; f. an empty body; g. for operations that make several calls for one item, each call
 * failing in turn (a 500, a dropped connection), the others forwarded.
 *
 * The rules asserted:
 * - no success without evidence: an operation whose table names a record / list key (or a file)
 *   gives an error for every answer without it, naming the API's code and message; an
 *   envelope-only operation outputs a plain code-0 envelope as given and is an error for every
 *   refusal variant, an HTML page and an empty body;
 * - no item lost: with Continue On Fail, every input item is paired with an output item and
 *   the run does not throw;
 * - per-record outcomes: with call k failing, every id given is accounted for exactly once:
 *   done, not sent, or unknown (a write answered 500 or cut off), by id; without Continue On
 *   Fail the error names every id done and not done.
 *
 * The output shapes these rules read are in the small predicates below (`isErrorItem`,
 * `idsIn`, `outcomeOf`, `mentionsApi`): adjust them there when the shapes change.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import * as wait from '../../nodes/shared/api/wait';
import { checkValues } from '../../nodes/shared/tables/validate';
import { DEMO } from '../../emulator/demo-data';
import { binaryItem, runWorkflow } from '../../harness';
import type { RunResult } from '../../harness';
import { setImmediate } from '../../host/globals';
import { jsonAnswer } from '../tools/answer-proxy';
import type { MadeAnswer, ProxiedRequest, ProxyAction, ProxyRecord } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import { valuesOf as demoValues } from '../tools/demo-values';
import { NODE_OF, nodeParameters, tableOperations } from '../tools/table-inputs';
import type { TableOperation } from '../tools/table-inputs';
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { chain, NODE_TYPES, steps } from '../../harness/workflows';
import type { Step } from '../../harness/workflows';

const ctx = useProxiedEnv({
	demo: true,
	rateLimit: { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 },
});
const env = ctx.env;
const NODE = 'Node';
const onError = { onError: 'continueRegularOutput' } as const;

/** The retry waits (1 s, 2 s, 4 s) pass at once; shorter waits (the Timeout's watcher) run as usual. */
const realPause = wait.pause;
beforeAll(() => {
	jest
		.spyOn(wait, 'pause')
		.mockImplementation(async (ms, signal) =>
			ms >= 1000
				? await new Promise<void>((resolve) => setImmediate(resolve))
				: await realPause(ms, signal),
		);
	setPacingRule({ limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 });
});
afterAll(() => {
	jest.restoreAllMocks();
	setPacingRule(DOCUMENTED_RULE);
});

// ---------------------------------------------------------------- the operations and their input

/** Every operation of the action nodes (Custom API Call is not in the tables). */
const OPERATIONS = tableOperations();
const valuesOf = (t: TableOperation): IDataObject => demoValues(env, t);

/** The step running the operation with `values` (and its input binary file, if it uploads one). */
function stepOf(
	t: TableOperation,
	values: IDataObject,
	settings = {},
	extra: IDataObject = {},
): Step {
	const base = t.area.org ? { organizationId: env.org } : {};
	const list = t.op.kind === 'list' ? { returnAll: true } : {};
	return steps(NODE_OF[t.area.value], base)(
		NODE,
		nodeParameters(t, values, { ...list, ...extra }),
		settings,
	);
}

/** `count` input items (with a file where the operation uploads one). */
function inputItems(t: TableOperation, count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) =>
		t.op.binaryInput
			? binaryItem(Buffer.from('%PDF-1.4 proxy'), 'proxy.pdf', 'application/pdf', { i })
			: { json: { i } },
	);
}

/**
 * Both modes in one execution: Input -> "Lenient" (Continue On Fail) and Input -> "Strict" (without),
 * the lenient branch first (v1 order: the upper node), each given `items` input items.
 */
async function runBoth(
	t: TableOperation,
	values: IDataObject,
	items = 2,
): Promise<{ lenient: RunResult; strict: RunResult }> {
	const { nodes, connections, pinData } = chain([stepOf(t, values, onError)], inputItems(t, items));
	const lenient = nodes[nodes.length - 1];
	lenient.name = LENIENT;
	const strict = {
		...lenient,
		id: 'strict',
		name: STRICT,
		position: [lenient.position[0], lenient.position[1] + 200] as [number, number],
		onError: undefined,
	};
	delete strict.onError;
	connections.Input = {
		main: [
			[
				{ node: LENIENT, type: 'main', index: 0 },
				{ node: STRICT, type: 'main', index: 0 },
			],
		],
	};
	const result = await runWorkflow({
		workflow: { nodes: [...nodes.slice(0, -1), lenient, strict], connections, pinData },
		nodeTypes: NODE_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials: env.credentials,
	});
	const as = (name: string): RunResult => ({
		...result,
		output: (_node: string, ...rest: number[]) => result.output(name, ...rest),
		error: (node?: string) =>
			node === undefined
				? (result.error(name) ?? (name === STRICT ? result.error() : undefined))
				: result.error(name),
	});
	return { lenient: as(LENIENT), strict: as(STRICT) };
}
const LENIENT = 'Lenient';
const STRICT = 'Strict';

async function runOp(
	t: TableOperation,
	values: IDataObject,
	{
		continueOnFail,
		items = 1,
		extra = {},
	}: { continueOnFail: boolean; items?: number; extra?: IDataObject },
): Promise<RunResult> {
	return await env.run(
		[stepOf(t, values, continueOnFail ? onError : {}, extra)],
		inputItems(t, items),
	);
}

// ---------------------------------------------------------------- what the operation's own call looks like

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The path of the operation's own call, as the proxy sees it (region and area root included). */
function ownPath(t: TableOperation): RegExp {
	const root = t.area.family === 'projects' ? '/us/projects' : '/us/api';
	const template = escape(`${root}${t.area.basePath}${t.op.path}`).replace(
		/\\\{[^}]+\\\}/g,
		'[^/]+',
	);
	return new RegExp(`^${template}$`);
}

/** Whether a proxied request is the operation's own call (not a read made before it). */
const isOwnCall = (t: TableOperation) => {
	const path = ownPath(t);
	return (r: { method: string; path: string }): boolean =>
		r.method === t.op.method && path.test(r.path);
};

// ---------------------------------------------------------------- answer variants

/** How the table says the operation answers. */
type AnswerClass = 'file' | 'record' | 'envelope';
function answerClass(t: TableOperation): AnswerClass {
	if (t.op.binaryOutput) return 'file';
	return t.op.responseKey ? 'record' : 'envelope';
}

interface Variant {
	name: string;
	action: ProxyAction;
	/** The code and message the answer carried (an error must name them). */
	said?: { code: number; message: string };
	/** For envelope-only operations: a plain success, output as given. */
	plainSuccess?: boolean;
}

const ok = (body: IDataObject): MadeAnswer => jsonAnswer(body);
const HTML =
	'<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The proxy could not reach the server.</p></body></html>';

/** The field a refusal names: a required one, else the first of the operation. */
function namedField(t: TableOperation): string {
	return (
		(t.op.fields.find((f) => f.required && !f.readOnly) ?? t.op.fields.find((f) => !f.readOnly))
			?.name ?? 'organization_id'
	);
}

function variantsOf(t: TableOperation): Variant[] {
	const field = namedField(t);
	const capitalised = field.charAt(0).toUpperCase() + field.slice(1);
	const refusal = (name: string, message: string, more: IDataObject = {}): Variant => ({
		name,
		action: { answer: ok({ code: 0, message, ...more }) },
		said: { code: 0, message },
	});
	const variants: Variant[] = [
		{
			name: 'a. envelope only',
			action: { answer: ok({ code: 0, message: 'success' }) },
			said: { code: 0, message: 'success' },
			plainSuccess: true,
		},
		refusal(`b. "Invalid value passed for ${field}"`, `Invalid value passed for ${field}`),
		refusal('b. the same with request_id', `Invalid value passed for ${field}`, {
			request_id: 'req-7f3a',
		}),
		refusal('b. naming a line member (item_id)', 'Invalid value passed for item_id'),
		refusal(
			`b. another case ("invalid value passed for ${capitalised}")`,
			`invalid value passed for ${capitalised}`,
		),
		refusal('b. naming organization_id', 'Invalid value passed for organization_id'),
	];
	const key = t.op.responseKey;
	if (key && !t.op.binaryOutput) {
		variants.push(
			{
				name: `c. ${key}: null`,
				action: { answer: ok({ code: 0, message: 'ok', [key]: null }) },
				said: { code: 0, message: 'ok' },
			},
			{
				name: `c. ${key} a string`,
				action: { answer: ok({ code: 0, message: 'ok', [key]: 'done' }) },
				said: { code: 0, message: 'ok' },
			},
			{
				name: `d. ${key} missing, other members present`,
				action: { answer: ok({ code: 0, message: 'ok', something: {} }) },
				said: { code: 0, message: 'ok' },
			},
		);
	}
	variants.push(
		{
			name: 'e. an HTML page, status 200',
			action: { answer: { status: 200, contentType: 'text/html; charset=utf-8', body: HTML } },
		},
		{
			name: 'f. an empty body, status 200',
			action: { answer: { status: 200, contentType: 'application/json', body: '' } },
		},
	);
	return variants;
}

// ---------------------------------------------------------------- predicates on output shapes

/** An error item (Continue On Fail): `json.error` is a string. */
const isErrorItem = (item: INodeExecutionData): boolean => typeof item.json.error === 'string';

/** The text of an error item or a thrown error: its message and description. */
function errorText(source: INodeExecutionData | Error | undefined): string {
	if (!source) return '';
	if ('json' in source)
		return `${String(source.json.error ?? '')} ${String(source.json.description ?? '')}`;
	return `${source.message} ${String((source as { description?: string }).description ?? '')}`;
}

/** Whether a text names the API's code and message. */
function mentionsApi(text: string, said: { code: number; message: string }): boolean {
	return text.includes(said.message) && new RegExp(`code\\W{0,3}${said.code}\\b`, 'i').test(text);
}

/** The input item indexes an output item is paired with. */
function pairedIndexes(item: INodeExecutionData): number[] {
	const paired = item.pairedItem;
	if (paired === undefined) return [];
	if (typeof paired === 'number') return [paired];
	return (Array.isArray(paired) ? paired : [paired]).map((p) => p.item);
}

/** The ids an output item accounts for: an id member, or a list of ids (`invoice_ids`, `items`, `ids`) as a list or text. */
function idsIn(item: INodeExecutionData, batchField: string): string[] {
	const json = item.json;
	const single = batchField === 'items' ? 'id' : batchField.replace(/s$/, '');
	const ids: string[] = [];
	for (const key of [single, batchField, 'ids']) {
		const value = json[key];
		if (Array.isArray(value)) ids.push(...value.map(String));
		else if (typeof value === 'string' || typeof value === 'number')
			ids.push(
				...String(value)
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean),
			);
	}
	return [...new Set(ids)];
}

type Outcome = 'done' | 'notSent' | 'unknown';
/** What an output item says of its ids: done (a success item), unknown (`sent: null` or "unknown"), or not sent. */
function outcomeOf(item: INodeExecutionData): Outcome {
	if (
		item.json.sent === null ||
		(isErrorItem(item) && /unknown/i.test(errorText(item)) && item.json.sent !== false)
	)
		return 'unknown';
	if (!isErrorItem(item) && item.json.sent !== false) return 'done';
	return 'notSent';
}

/** A success item holding the envelope as given (`{ code: 0, message }`; the ids the call was for may be listed beside it). */
const isPlainEnvelope = (item: INodeExecutionData): boolean =>
	!isErrorItem(item) && item.json.code === 0 && item.json.message === 'success';

/** A short picture of an output for a failure message. */
function shown(items: INodeExecutionData[]): string {
	return JSON.stringify(
		items.map((i) => ({
			json: i.json,
			paired: i.pairedItem,
			file: i.binary ? Object.keys(i.binary) : undefined,
		})),
	).slice(0, 400);
}

// ---------------------------------------------------------------- the assertions of one (operation, variant)

/** The violations of the rules by the two runs of one variant (with and without Continue On Fail, 2 items each). */
async function violationsOf(t: TableOperation, variant: Variant): Promise<string[]> {
	const found: string[] = [];
	const cls = answerClass(t);
	const expectSuccess = cls === 'envelope' && variant.plainSuccess === true;
	const values = valuesOf(t);

	// both runs at once, under the same rule: each of their own calls gets the variant
	ctx.proxy.reset();
	ctx.proxy.add({ test: isOwnCall(t), action: variant.action });
	const { lenient, strict } = await runBoth(t, values);
	const out = lenient.output(NODE);
	const runError = lenient.error(NODE) ?? lenient.error();
	if (runError) found.push(`continue on fail: the run threw "${runError.message}"`);
	for (const index of [0, 1])
		if (!out.some((item) => pairedIndexes(item).includes(index)))
			found.push(`continue on fail: input item ${index} lost (output ${shown(out)})`);
	if (!ctx.proxy.records.some(isOwnCall(t))) found.push("the operation's own call was never made");
	if (expectSuccess) {
		for (const item of out)
			if (!isPlainEnvelope(item))
				found.push(`continue on fail: a plain envelope is not output as given: ${shown([item])}`);
	} else {
		const successes = out.filter((item) => !isErrorItem(item));
		if (successes.length)
			found.push(`continue on fail: success without evidence: ${shown(successes)}`);
		const said = variant.said;
		if (said)
			for (const item of out.filter(isErrorItem))
				if (!mentionsApi(errorText(item), said))
					found.push(
						`continue on fail: the error does not name code ${said.code} and "${said.message}": "${errorText(item).slice(0, 200)}"`,
					);
	}

	const error = strict.error(NODE) ?? strict.error();
	if (expectSuccess) {
		if (error) found.push(`without continue on fail: a plain envelope failed: "${error.message}"`);
	} else if (!error) {
		found.push(`without continue on fail: no error (output ${shown(strict.output(NODE))})`);
	} else if (variant.said && !mentionsApi(errorText(error), variant.said)) {
		found.push(
			`without continue on fail: the error does not name code ${variant.said.code} and "${variant.said.message}": "${errorText(error).slice(0, 200)}"`,
		);
	}
	return found;
}

// ---------------------------------------------------------------- the tests

describe('the generated input is valid', () => {
	test("every operation has generated input the tables' validation accepts", () => {
		const refused: string[] = [];
		for (const t of OPERATIONS) {
			// the fields an update reads first are checked after the read (what the user gave is checked before it)
			const given = {
				...t.op,
				fields: t.op.fields.map((f) =>
					t.op.keepCurrent?.includes(f.name)
						? { ...f, required: false, requiredWhen: undefined }
						: f,
				),
			};
			try {
				checkValues(given, valuesOf(t));
			} catch (error) {
				refused.push(`${t.id}: ${(error as Error).message}`);
			}
		}
		expect(refused).toEqual([]);
	});
});

describe.each(OPERATIONS.map((t) => [t.id, t] as const))('%s', (_id, t) => {
	test('answer variants a-f of its own call: no success without evidence, no item lost', async () => {
		const violations: string[] = [];
		for (const variant of variantsOf(t))
			for (const v of await violationsOf(t, variant)) violations.push(`${variant.name}: ${v}`);
		expect(violations).toEqual([]);
	});
});

// ---------------------------------------------------------------- several calls for one item, each failing in turn

/** How a call fails: a 500 (a write's outcome then unknown) or a connection dropped once the request is in. */
const FAILURES: Array<[string, ProxyAction]> = [
	[
		'a 500',
		{
			answer: {
				status: 500,
				contentType: 'application/json',
				body: JSON.stringify({ code: 500, message: 'Internal error.' }),
			},
		},
	],
	['a dropped connection', { drop: true }],
];

/** The ids a proxied request of a split operation carries (its query list, or the body's list). */
function idsSent(t: TableOperation, r: ProxiedRequest): string[] {
	const field = t.op.batch?.field ?? '';
	const inQuery = r.query[field];
	if (inQuery !== undefined) return inQuery.split(',').filter(Boolean);
	const list = (r.json as IDataObject | undefined)?.[field];
	return Array.isArray(list) ? list.map(String) : [];
}

/** Whether the call of `ids` was forwarded and the emulator answered it as done. */
function answeredDone(records: ProxyRecord[], t: TableOperation, ids: string[]): boolean {
	return records.some(
		(r) =>
			isOwnCall(t)(r) &&
			r.outcome === 'forwarded' &&
			(r.upstreamStatus ?? 500) < 300 &&
			idsSent(t, r)[0] === ids[0],
	);
}

/**
 * The per-id violations of a split operation's runs with call `k` failing: with Continue On Fail
 * each id in exactly one output item, done as the calls that were answered say, the failed call's
 * ids unknown (a write) or not done (a read), the others not sent; without, the error names every id.
 */
function perIdViolations(
	t: TableOperation,
	ids: string[],
	k: number,
	lenient: RunResult,
	strict: RunResult,
	records: ProxyRecord[],
): string[] {
	const found: string[] = [];
	const field = t.op.batch?.field ?? '';
	const calls = chunkOf(uniqueOf(ids), t.op.batch?.size ?? 1);
	const write = t.op.method !== 'GET';
	const out = lenient.output(NODE);
	const thrown = lenient.error(NODE) ?? lenient.error();
	if (thrown) found.push(`continue on fail: the run threw "${thrown.message}"`);
	if (!out.some((item) => pairedIndexes(item).includes(0)))
		found.push('continue on fail: the input item is lost');
	calls.forEach((call, index) => {
		const expected: Outcome[] =
			index === k
				? write
					? ['unknown']
					: ['unknown', 'notSent']
				: answeredDone(records, t, call)
					? ['done']
					: ['notSent'];
		const wrong: string[] = [];
		for (const id of call) {
			const holders = out.filter((item) => idsIn(item, field).includes(id));
			if (holders.length !== 1) wrong.push(`${id} in ${holders.length} items`);
			else if (!expected.includes(outcomeOf(holders[0])))
				wrong.push(`${id} ${outcomeOf(holders[0])}`);
		}
		if (wrong.length)
			found.push(
				`continue on fail: call ${index + 1} (${call.length} ids, expected ${expected.join(' or ')}): ${wrong.slice(0, 4).join(', ')}${wrong.length > 4 ? `, and ${wrong.length - 4} more` : ''} (output ${shown(out)})`,
			);
	});
	const error = strict.error(NODE) ?? strict.error();
	if (!error) found.push('without continue on fail: no error');
	else {
		const unnamed = uniqueOf(ids).filter((id) => !errorText(error).includes(id));
		if (unnamed.length)
			found.push(
				`without continue on fail: the error does not name ${unnamed.length} of ${uniqueOf(ids).length} ids (${unnamed.slice(0, 3).join(', ')}...): "${errorText(error).slice(0, 300)}"`,
			);
	}
	return found;
}

function chunkOf<T>(list: T[], size: number): T[][] {
	return Array.from({ length: Math.ceil(list.length / size) }, (_, i) =>
		list.slice(i * size, i * size + size),
	);
}

const uniqueOf = (ids: string[]): string[] => [...new Set(ids)];

/** Runs an operation with `ids` in its batch field, with and without Continue On Fail at once, under the proxy's current rules. */
async function runWithIds(t: TableOperation, ids: string[]): Promise<[RunResult, RunResult]> {
	const values = { ...valuesOf(t), [t.op.batch?.field ?? '']: ids };
	return await Promise.all([
		runOp(t, values, { continueOnFail: true }),
		runOp(t, values, { continueOnFail: false }),
	]);
}

const opById = (id: string): TableOperation =>
	OPERATIONS.find((t) => t.id === id) as TableOperation;
/** How many ids are given to a split operation, by its call size (the issue's cases: 3 calls of 10, 2 of 25, 2 of 100). */
const IDS_GIVEN: Record<number, number> = { 10: 25, 25: 30, 100: 150 };
/** The split operations (a `batch` field) and how many ids make several calls of each. */
const SPLIT = OPERATIONS.filter((t) => t.op.batch).map(
	(t) => [t.id, t, IDS_GIVEN[t.op.batch?.size ?? 0] ?? (t.op.batch?.size ?? 1) * 2 + 1] as const,
);

describe('an item making several calls: each call failing in turn', () => {
	/** Ids of records the split calls can act on, by operation. */
	const idsFor: Record<string, () => string[]> = {};
	beforeAll(async () => {
		const invoices: string[] = [];
		for (let i = 0; i < 30; i++)
			invoices.push((await env.newInvoice(DEMO.customers.acme, 20 + i)).id);
		for (const id of invoices) env.orgTenant().get('invoices', id)!.status = 'sent';
		const estimates: string[] = [];
		for (let i = 0; i < 30; i++) {
			const res = await env.call('POST', 'books', '/estimates', {
				json: {
					customer_id: DEMO.customers.acme,
					line_items: [{ item_id: DEMO.items.hosting, quantity: 1, rate: 49 }],
				},
			});
			estimates.push(String(res.body.estimate.estimate_id));
		}
		let next = 3000000100000;
		/** Fresh projects each time: a forwarded trash call moves them. */
		const projects = (count: number): string[] =>
			Array.from({ length: count }, () => {
				const id = String(next++);
				env.portalTenant().put('projects', id, { id, name: `Project ${id}` });
				return id;
			});
		for (const [id, t, count] of SPLIT) {
			const field = t.op.batch?.field;
			idsFor[id] =
				field === 'items'
					? () => projects(count)
					: field === 'estimate_ids'
						? () => estimates.slice(0, count)
						: () => invoices.slice(0, count);
		}
	});

	describe.each(SPLIT)('%s', (_id, t) => {
		test.each(FAILURES)(
			'each call answered with %s in turn: every id accounted for once, by id',
			async (_how, failure) => {
				const violations: string[] = [];
				const callCount = chunkOf(idsFor[t.id](), t.op.batch?.size ?? 1).length;
				for (let k = 0; k < callCount; k++) {
					const ids = idsFor[t.id]();
					const failing = chunkOf(ids, t.op.batch?.size ?? 1)[k];
					ctx.proxy.reset();
					ctx.proxy.add({
						test: (r) => isOwnCall(t)(r) && idsSent(t, r)[0] === failing[0],
						action: failure,
					});
					const [lenient, strict] = await runWithIds(t, ids);
					for (const v of perIdViolations(t, ids, k, lenient, strict, ctx.proxy.records))
						violations.push(`call ${k + 1} of ${callCount} failing: ${v}`);
				}
				expect(violations).toEqual([]);
			},
		);
	});

	test('Bulk Reminder of 25 ids, call 2 (ids 11-20) failing: the 15 of calls 1 and 3 sent, the 10 of call 2 unknown, by id, with and without Continue On Fail', async () => {
		const t = opById('books.invoice.bulkReminder');
		const ids = idsFor[t.id]().slice(0, 25);
		ctx.proxy.add({
			test: (r) => isOwnCall(t)(r) && idsSent(t, r)[0] === ids[10],
			action: FAILURES[0][1],
		});
		const [lenient, strict] = await runWithIds(t, ids);
		const byId = new Map(
			lenient
				.output(NODE)
				.flatMap((item) => idsIn(item, 'invoice_ids').map((id) => [id, outcomeOf(item)] as const)),
		);
		expect(ids.map((id) => byId.get(id))).toEqual(
			ids.map((_, i) => (i >= 10 && i < 20 ? 'unknown' : 'done')),
		);
		const error = errorText(strict.error(NODE));
		for (const id of ids) expect([id, error.includes(id)]).toEqual([id, true]);
	});

	test('Bulk Reminder of A,A,B: A and B sent once each and reported once each', async () => {
		const t = opById('books.invoice.bulkReminder');
		const [a, b] = idsFor[t.id]();
		const [lenient] = await Promise.all([
			runOp(t, { ...valuesOf(t), invoice_ids: [a, a, b] }, { continueOnFail: true }),
		]);
		const sent = ctx.proxy.records.filter(isOwnCall(t)).flatMap((r) => idsSent(t, r));
		expect(sent.sort()).toEqual([a, b].sort());
		const reported = lenient.output(NODE).flatMap((item) => idsIn(item, 'invoice_ids'));
		expect(reported.sort()).toEqual([a, b].sort());
	});
});

// ---------------------------------------------------------------- Return All over several pages, each page failing in turn

/** The paged lists (page after page until the answer says there is no more). */
const PAGED = OPERATIONS.filter(
	(t) =>
		t.op.kind === 'list' && (t.op.pagination === 'pageContext' || t.op.pagination === 'pageSize'),
).map((t) => [t.id, t] as const);

/** Page 1 made full (`per_page` records, the API saying there is more): the list goes on to page 2. */
function fullPage(t: TableOperation): ProxyAction {
	return {
		replace: (upstream, request) => {
			const perPage = Number(request.query.per_page ?? 200);
			const body = (upstream.json ?? {}) as IDataObject;
			const key =
				t.op.responseKey ??
				Object.keys(body).find((k) => Array.isArray(body[k]) && k !== 'page_context') ??
				'records';
			const first = ((body[key] as IDataObject[] | undefined) ?? [])[0] ?? {};
			const idField = t.resource.idField ?? 'id';
			const records = Array.from({ length: perPage }, (_, i) => ({
				...first,
				[idField]: String(9100000000000 + i),
			}));
			return jsonAnswer({
				...body,
				[key]: records,
				...(t.op.pagination === 'pageContext'
					? { page_context: { page: 1, per_page: perPage, has_more_page: true } }
					: { page_info: { page: 1, per_page: perPage, has_next_page: true } }),
			});
		},
	};
}

describe.each(PAGED)('%s with Return All', (_id, t) => {
	test.each(FAILURES)(
		'page 1, then page 2 answered with %s (every attempt): an error, the item not lost',
		async (_how, failure) => {
			const violations: string[] = [];
			for (const page of [1, 2]) {
				ctx.proxy.reset();
				if (page === 2)
					ctx.proxy.add({
						test: (r) => isOwnCall(t)(r) && r.query.page === '1',
						action: fullPage(t),
					});
				ctx.proxy.add({
					test: (r) => isOwnCall(t)(r) && r.query.page === String(page),
					action: failure,
				});
				const values = valuesOf(t);
				const [lenient, strict] = await Promise.all([
					runOp(t, values, { continueOnFail: true }),
					runOp(t, values, { continueOnFail: false }),
				]);
				const out = lenient.output(NODE);
				const thrown = lenient.error(NODE) ?? lenient.error();
				if (thrown)
					violations.push(`page ${page}: continue on fail: the run threw "${thrown.message}"`);
				if (!out.some((item) => isErrorItem(item) && pairedIndexes(item).includes(0)))
					violations.push(
						`page ${page}: continue on fail: no error item for the input item (output of ${out.length} items)`,
					);
				if (!ctx.proxy.records.some((r) => isOwnCall(t)(r) && r.query.page === String(page)))
					violations.push(`page ${page}: never asked for`);
				if (!(strict.error(NODE) ?? strict.error()))
					violations.push(
						`page ${page}: without continue on fail: no error (${strict.output(NODE).length} items output)`,
					);
			}
			expect(violations).toEqual([]);
		},
	);
});

// ---------------------------------------------------------------- a read before the write, each failing in turn

/** Operations that read before they write with the generated input: updates reading the fields they keep, Create From Estimate. */
const READ_FIRST = OPERATIONS.filter(
	(t) => t.op.keepCurrent?.length || t.op.special === 'fromEstimate',
).map((t) => [t.id, t] as const);

describe.each(READ_FIRST)('%s: the read, then the write', (_id, t) => {
	test.each(FAILURES)(
		'each answered with %s in turn: an error, nothing written after a failed read, a failed write unknown',
		async (_how, failure) => {
			const violations: string[] = [];
			for (const failing of ['read', 'write'] as const) {
				ctx.proxy.reset();
				ctx.proxy.add({
					test: (r) => (failing === 'read' ? r.method === 'GET' : isOwnCall(t)(r)),
					action: failure,
				});
				const values = valuesOf(t);
				const [lenient, strict] = await Promise.all([
					runOp(t, values, { continueOnFail: true }),
					runOp(t, values, { continueOnFail: false }),
				]);
				const out = lenient.output(NODE);
				const thrown = lenient.error(NODE) ?? lenient.error();
				if (thrown)
					violations.push(
						`${failing} failing: continue on fail: the run threw "${thrown.message}"`,
					);
				const errors = out.filter((item) => isErrorItem(item) && pairedIndexes(item).includes(0));
				if (!errors.length || out.some((item) => !isErrorItem(item)))
					violations.push(
						`${failing} failing: continue on fail: not an error item alone (${shown(out)})`,
					);
				if (!ctx.proxy.records.some((r) => r.method === 'GET'))
					violations.push(`${failing} failing: no read was made`);
				const writes = ctx.proxy.records.filter(isOwnCall(t));
				if (failing === 'read' && writes.length)
					violations.push(`read failing: ${writes.length} write(s) sent after the failed read`);
				if (failing === 'write' && errors.some((item) => outcomeOf(item) !== 'unknown'))
					violations.push(
						`write failing: the outcome is not said to be unknown: "${errorText(errors[0]).slice(0, 200)}"`,
					);
				const error = strict.error(NODE) ?? strict.error();
				if (!error) violations.push(`${failing} failing: without continue on fail: no error`);
				else if (failing === 'write' && !/unknown/i.test(errorText(error)))
					violations.push(
						`write failing: without continue on fail: the error does not say the outcome is unknown: "${errorText(error).slice(0, 200)}"`,
					);
			}
			expect(violations).toEqual([]);
		},
	);
});

// ---------------------------------------------------------------- forwarded: the generated input works

/** Ids of records made for the forwarded runs of operations that change or remove what they name. */
const made: Record<string, string> = {};

/** What a forwarded run of an operation needs beyond the generated input: fresh or existing records. */
function forwardValues(t: TableOperation): IDataObject {
	const fresh: Record<string, IDataObject> = {
		'books.item.delete': { item_id: made.item },
		'books.estimate.updateComment': { comment_id: made.estimateComment },
		'books.invoice.updateComment': { comment_id: made.invoiceComment },
		'books.invoice.updateCustomFields': { custom_fields: [{ customfield_id: '501', value: 'x' }] },
		'books.invoice.deleteAppliedCredit': { invoice_id: DEMO.invoices.overdue3 },
		'invoice.payment.delete': { payment_id: DEMO.payments.paid2 },
		'invoice.refund.create': { payment_id: made.payment },
		'projects.trash.moveToTrash': { items: [made.project] },
		'projects.trash.restore': {
			trash_request_items: [{ module: 'tasks', items: [DEMO.trashed.recentTask] }],
		},
		'projects.trash.deletePermanently': {
			trash_request_items: [{ module: 'projects', items: [DEMO.trashed.oldProject] }],
		},
	};
	return { ...valuesOf(t), ...(fresh[t.id] ?? {}) };
}

/** A new comment of the record at `path` (…/comments); its id, read back from the record's comments. */
async function newComment(path: string): Promise<string> {
	await env.call('POST', 'books', path, { json: { description: 'Made for the forwarded run' } });
	const comments = (await env.call('GET', 'books', path)).body.comments as IDataObject[];
	return String(comments[comments.length - 1].comment_id);
}

/** Operations that change what later runs read run last, in this order. */
const LAST = [
	'books.invoice.deleteAttachment',
	'books.invoice.deleteExpenseReceipt',
	'books.invoice.deleteAppliedCredit',
	'books.item.delete',
	'billing.project.removeUser',
	'billing.comment.delete',
	'invoice.payment.delete',
	'projects.trash.restore',
	'projects.trash.deletePermanently',
	'projects.trash.emptyBin',
];
const lastIndex = (t: TableOperation) => LAST.indexOf(t.id);

describe('forwarded to the emulator', () => {
	test('every operation, its generated input as is: the run succeeds', async () => {
		made.item = String(
			(await env.call('POST', 'books', '/items', { json: { name: 'Forwarded widget', rate: 5 } }))
				.body.item.item_id,
		);
		made.estimateComment = await newComment(`/estimates/${DEMO.estimates.sent}/comments`);
		made.invoiceComment = await newComment(`/invoices/${DEMO.invoices.overdue1}/comments`);
		made.payment = String(
			(
				await env.call('POST', 'invoice', '/customerpayments', {
					json: { customer_id: DEMO.customers.acme, amount: 100 },
				})
			).body.payment.payment_id,
		);
		made.project = '3000000000777';
		env
			.portalTenant()
			.put('projects', made.project, { id: made.project, name: 'Forwarded project' });
		const order = [...OPERATIONS].sort((a, b) => lastIndex(a) - lastIndex(b));
		const failed: string[] = [];
		for (const t of order) {
			ctx.proxy.reset();
			let error: Error | undefined;
			try {
				const result = await runOp(t, forwardValues(t), { continueOnFail: false });
				error = result.error(NODE) ?? result.error();
			} catch (thrown) {
				error = thrown as Error;
			}
			if (error) failed.push(`${t.id}: ${errorText(error).slice(0, 300)}`);
			else if (!ctx.proxy.records.some(isOwnCall(t)))
				failed.push(`${t.id}: its own call was never made`);
		}
		expect(failed).toEqual([]);
	});
});
