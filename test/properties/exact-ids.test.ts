/**
 * Promise: ids exact. For every operation of the tables that outputs
 * records of its resource (get, list, create, update), the answer of its own call is rewritten so
 * that the records' ids are JSON numbers of every magnitude (small, around 2^53, 18-19 digits,
 * several that differ only past 2^53): each output keeps the exact digits, and a following
 * node's `{{ $json.<id> }}` puts exactly those digits in the path it calls.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { jsonAnswer } from '../tools/answer-proxy';
import type { MadeAnswer, UpstreamAnswer } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import type { TableOperation } from '../tools/table-inputs';
import { nodeParameters, NODE_OF } from '../tools/table-inputs';
import { steps } from '../../harness/workflows';
import {
	BIG_ID,
	holds,
	idDigits,
	isErrorItem,
	isOwnCall,
	noViolations,
	NODE,
	onError,
	OPERATIONS,
	opById,
	shownText,
	stepOf,
	thrown,
	useVirtualClock,
	valuesOf,
} from './support';

const ctx = useProxiedEnv({
	demo: true,
	rateLimit: { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 },
});
const env = ctx.env;
// the package's waits (Vendor Projects' pacing: 100 requests per 2 minutes) pass at once: a fuzz
// run sends thousands of requests, which real pacing would spread over hours
useVirtualClock();

/** Lists whose records are of another resource than the operation's (a billing project's invoices). */
const OTHER_RECORDS = ['billing.project.getInvoices'];
/** Operations that output records of their resource, with the id field they carry. */
const ID_OPS = OPERATIONS.filter(
	(t) =>
		['get', 'list', 'create', 'update'].includes(t.op.kind ?? '') &&
		t.resource.idField &&
		!t.op.binaryOutput &&
		!OTHER_RECORDS.includes(t.id),
);

/** The records of an answer: its record key's value, else its first list of objects, else the answer itself. */
function recordsOf(body: IDataObject, key: string | undefined): IDataObject[] {
	const at = key ? body[key] : undefined;
	if (Array.isArray(at)) return at as IDataObject[];
	if (at && typeof at === 'object') return [at as IDataObject];
	if (key) return [];
	const list = Object.values(body).find(
		(v) => Array.isArray(v) && v.length && typeof v[0] === 'object',
	);
	return list ? (list as IDataObject[]) : [body];
}

/** `digits` + i, as decimal text (ids that differ only in their last digits). */
const plus = (digits: string, i: number): string => (BigInt(digits) + BigInt(i)).toString();

/**
 * The answer with the records' `idField` set to `digits`, `digits`+1, ... written as JSON numbers
 * (not strings); `given` collects the digits written.
 */
function withNumberIds(
	upstream: UpstreamAnswer,
	key: string | undefined,
	idField: string,
	digits: string,
	given: string[],
): MadeAnswer {
	const body = upstream.json as IDataObject | undefined;
	if (upstream.status >= 300 || !body || typeof body !== 'object')
		return {
			status: upstream.status,
			contentType: String(upstream.headers['content-type'] ?? ''),
			body: upstream.body,
		};
	const records = recordsOf(body, key).filter((r) => r && typeof r === 'object');
	// numbered across the pages of one read: a list of several pages holds each id once (a
	// numbering restarting on each page would repeat ids, which Return All rightly gives once)
	records.forEach((record) => {
		record[idField] = `@@ID${given.length}@@`;
		given.push(plus(digits, given.length));
	});
	const text = JSON.stringify(body).replace(/"@@ID(\d+)@@"/g, (_m, n: string) => given[Number(n)]);
	return { ...jsonAnswer({}), body: text };
}

/** The violations of "ids exact" by one run of `t` whose answer carries ids from `digits`. */
async function idViolations(t: TableOperation, digits: string): Promise<string[]> {
	const idField = t.resource.idField as string;
	const given: string[] = [];
	ctx.proxy.reset();
	ctx.proxy.add({
		test: isOwnCall(t),
		action: {
			replace: (upstream) => withNumberIds(upstream, t.op.responseKey, idField, digits, given),
		},
	});
	const result = await env.run([stepOf(env, t, valuesOf(env, t))], [{ json: { i: 0 } }]);
	// the emulator's answer had no record: nothing was rewritten, nothing to check
	if (!given.length) return [];
	const found: string[] = [];
	const error = thrown(result);
	if (error)
		return [`the run failed on an answer that is a success: ${shownText(result).slice(0, 300)}`];
	const out = result
		.output(NODE)
		.filter((i) => !isErrorItem(i))
		.map((i) => i.json[idField]);
	const seen = out.map((v) =>
		typeof v === 'number' || typeof v === 'string' || typeof v === 'bigint'
			? String(v)
			: JSON.stringify(v),
	);
	for (const id of given)
		if (!seen.includes(id))
			found.push(`id ${id} given, not output (output ids: ${seen.join(', ').slice(0, 200)})`);
	for (const id of seen)
		if (!given.includes(id))
			found.push(`output id ${id} was never given (given: ${given.join(', ').slice(0, 200)})`);
	return found;
}

describe.each(ID_OPS.map((t) => [t.id, t] as const))('%s: ids exact in outputs', (_id, t) => {
	test('every id magnitude, as a JSON number, is output with its exact digits', async () => {
		await holds(
			idDigits,
			async (digits) => noViolations(await idViolations(t, digits), { op: t.id, digits }),
			1,
			[BIG_ID],
		);
	});
});

// ---------------------------------------------------------------- a following node's expression

/** Lists whose records the next node reads back by id: (list, get). */
const LIST_THEN_GET = [
	['books.item.getAll', 'books.item.get'],
	['books.estimate.getAll', 'books.estimate.get'],
	['invoice.payment.getAll', 'invoice.payment.get'],
	['billing.project.getAll', 'billing.project.get'],
	['inventory.bill.getAll', 'inventory.bill.get'],
	['projects.project.getAll', 'projects.project.get'],
]
	.filter(
		([list, get]) => OPERATIONS.some((t) => t.id === list) && OPERATIONS.some((t) => t.id === get),
	)
	.map(([list, get]) => [list, opById(list), opById(get)] as const);

describe.each(LIST_THEN_GET)('%s, then Get by {{ $json.<id> }}', (_id, list, get) => {
	test('the path of the next call carries the exact digits of the id read', async () => {
		await holds(
			idDigits,
			async (digits) => {
				const idField = list.resource.idField as string;
				const given: string[] = [];
				ctx.proxy.reset();
				ctx.proxy.add({
					test: isOwnCall(list),
					action: {
						replace: (upstream) =>
							withNumberIds(upstream, list.op.responseKey, idField, digits, given),
					},
				});
				// the id the path ends with (`/projects/{project_id}`)
				const getField = /\{([^}]+)\}$/.exec(get.op.path)?.[1] ?? idField;
				const values = { ...valuesOf(env, get), [getField]: `={{ $json.${idField} }}` };
				const base = get.area.org ? { organizationId: env.org } : {};
				const second = steps(NODE_OF[get.area.value], base)(
					'Get',
					nodeParameters(get, values),
					onError,
				);
				await env.run([stepOf(env, list, valuesOf(env, list)), second], [{ json: {} }]);
				const paths = ctx.proxy.records.filter(isOwnCall(get)).map((r) => r.path);
				const found = given
					.filter((id) => !paths.some((p) => p.split('/').includes(id)))
					.map(
						(id) =>
							`id ${id} read, no Get sent to a path with it (paths: ${paths.join(', ').slice(0, 300)})`,
					);
				noViolations(found, { list: list.id, digits });
			},
			1,
			[BIG_ID],
		);
	});
});

test('the generator reaches every magnitude', () => {
	const samples = fc.sample(idDigits, { seed: 1, numRuns: 200 });
	expect(samples.some((d) => d.length >= 18)).toBe(true);
	expect(samples.some((d) => Number.isSafeInteger(Number(d)))).toBe(true);
});
