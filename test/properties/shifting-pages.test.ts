/**
 * Promise: pages that shift lose no record and give none twice. Every paged list of the tables is
 * read with Return All from a generated server: records newest first, pages capped below the size
 * asked while the answer says there is more (`page_context.has_more_page`, Vendor Projects'
 * `page_info.has_next_page`), records created (at the front) or deleted between page reads.
 *
 * - no record is output twice by one read;
 * - nothing is output that the server never held;
 * - without deletions, every record present when the read began is output (a capped page is
 *   read on; a record pushed onto the next page by a new one is not lost). A deletion can hide
 *   a record from page-number paging: BEHAVIOUR says so, and that case is not asserted.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { jsonAnswer } from '../tools/answer-proxy';
import type { MadeAnswer, ProxiedRequest, UpstreamAnswer } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import type { Shift } from '../tools/page-shift';
import type { TableOperation } from '../tools/table-inputs';
import {
	holds,
	isErrorItem,
	isOwnCall,
	noViolations,
	NODE,
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

/** The lists read page after page. */
const PAGED = OPERATIONS.filter(
	(t) =>
		t.op.kind === 'list' && (t.op.pagination === 'pageContext' || t.op.pagination === 'pageSize'),
).map((t) => t.id);

interface Scenario {
	/** The list's operation id. */
	op: string;
	records: number;
	/** The most records the server gives per page, whatever is asked (undefined: as asked). */
	cap?: number;
	shifts: Shift[];
}

const scenarios: fc.Arbitrary<Scenario> = fc.record({
	op: fc.constantFrom(...PAGED),
	records: fc.integer({ min: 0, max: 420 }),
	cap: fc.option(fc.constantFrom(100, 50, 25, 7), { nil: undefined }),
	shifts: fc.array(
		fc.record({
			beforePage: fc.integer({ min: 2, max: 6 }),
			kind: fc.constantFrom('insert' as const, 'delete' as const),
			count: fc.integer({ min: 1, max: 3 }),
			at: fc.double({ min: 0, max: 0.999, noNaN: true }),
		}),
		{ maxLength: 3 },
	),
});

const idFieldOf = (t: TableOperation): string => t.resource.idField ?? 'id';

/** A generated server: the list, newest first, and what happened to it. */
class ListServer {
	list: string[];
	readonly initial: Set<string>;
	readonly ever: Set<string>;
	readonly deleted = new Set<string>();
	private next = 0;
	private template?: IDataObject;
	private readonly done = new Set<Shift>();

	readonly op: TableOperation;

	constructor(private readonly s: Scenario) {
		this.op = opById(s.op);
		this.list = Array.from({ length: s.records }, () => this.newId());
		this.initial = new Set(this.list);
		this.ever = new Set(this.list);
	}

	private newId(): string {
		return (1752587000000000000n + BigInt(this.next++)).toString();
	}

	/** The answer to a page request: the emulator's answer with its list replaced by the page. */
	answer(upstream: UpstreamAnswer, request: ProxiedRequest): MadeAnswer {
		const page = Number(request.query.page ?? 1);
		for (const shift of this.s.shifts)
			if (shift.beforePage <= page && !this.done.has(shift)) this.apply(shift);
		const asked = Number(request.query.per_page ?? 100);
		const size = Math.min(asked, this.s.cap ?? asked);
		const ids = this.list.slice((page - 1) * size, page * size);
		const more = page * size < this.list.length;
		const body = { ...((upstream.json as IDataObject) ?? {}) };
		const key =
			this.op.op.responseKey ?? Object.keys(body).find((k) => Array.isArray(body[k])) ?? 'records';
		// one template for every page: the same record has the same content on whichever page it falls
		const template = (this.template ??= ((body[key] as IDataObject[] | undefined) ?? [])[0]) ?? {};
		const records = ids.map((id) => ({ ...template, [idFieldOf(this.op)]: id }));
		const paging =
			this.op.area.value === 'projects'
				? { page_info: { page, per_page: size, has_next_page: more } }
				: { page_context: { page, per_page: size, has_more_page: more } };
		return jsonAnswer({ ...body, [key]: records, ...paging });
	}

	private apply(shift: Shift): void {
		this.done.add(shift);
		for (let i = 0; i < shift.count; i++) {
			if (shift.kind === 'insert') {
				const id = this.newId();
				this.ever.add(id);
				this.list.unshift(id);
			} else if (this.list.length) {
				const [gone] = this.list.splice(Math.floor(shift.at * this.list.length), 1);
				this.deleted.add(gone);
			}
		}
	}
}

async function pageViolations(s: Scenario): Promise<string[]> {
	const server = new ListServer(s);
	const op = server.op;
	ctx.proxy.reset();
	ctx.proxy.add({
		test: isOwnCall(op),
		action: { replace: (upstream, request) => server.answer(upstream, request) },
	});
	const result = await env.run([stepOf(env, op, valuesOf(env, op))], [{ json: {} }]);
	const error = thrown(result);
	if (error) return [`Return All failed: ${shownText(result).slice(0, 300)}`];
	const out = result
		.output(NODE)
		.filter((i) => !isErrorItem(i))
		.map((i) => String(i.json[idFieldOf(op)]));
	const found: string[] = [];
	const twice = out.filter((id, i) => out.indexOf(id) !== i);
	if (twice.length) found.push(`output twice: ${[...new Set(twice)].join(', ').slice(0, 200)}`);
	const never = out.filter((id) => !server.ever.has(id));
	if (never.length) found.push(`output, never held by the server: ${never.slice(0, 5).join(', ')}`);
	if (!server.deleted.size) {
		const missed = [...server.initial].filter((id) => !out.includes(id));
		if (missed.length)
			found.push(
				`${missed.length} of ${server.initial.size} records never output (first: ${missed.slice(0, 3).join(', ')}), ${ctx.proxy.records.filter(isOwnCall(op)).length} page(s) read`,
			);
	}
	return found;
}

test('Return All over capped and shifting pages: no record twice, none invented, none missed without a deletion', async () => {
	await holds(scenarios, async (s) => noViolations(await pageViolations(s), s), 10, [
		{
			op: 'books.invoice.getAll',
			records: 450,
			shifts: [{ beforePage: 2, kind: 'insert', count: 1, at: 0 }],
		},
		{ op: 'projects.project.getAll', records: 250, cap: 100, shifts: [] },
		{ op: 'books.item.getAll', records: 300, cap: 100, shifts: [] },
		{
			op: 'inventory.bill.getAll',
			records: 420,
			shifts: [{ beforePage: 2, kind: 'delete', count: 1, at: 0.1 }],
		},
	]);
});

// ---------------------------------------------------------------- regressions: counterexamples the property found

test('regression: Invoice Get Many, 450 invoices, one created before page 2 is read: the invoice pushed from page 1 onto page 2 is output once', async () => {
	noViolations(
		await pageViolations({
			op: 'books.invoice.getAll',
			records: 450,
			shifts: [{ beforePage: 2, kind: 'insert', count: 1, at: 0 }],
		}),
		'first found with seed 20260742: 1752587000000000199 output twice',
	);
});

test('regression: Search in Project, 365 results capped at 25 a page, three created before page 3 is read: the results pushed onto page 3 are output once', async () => {
	noViolations(
		await pageViolations({
			op: 'projects.search.searchInProject',
			records: 365,
			cap: 25,
			shifts: [{ beforePage: 3, kind: 'insert', count: 3, at: 0 }],
		}),
		'found by npm run fuzz (factor 5): 1752587000000000047-49 output twice',
	);
	noViolations(
		await pageViolations({
			op: 'projects.trash.getBin',
			records: 196,
			cap: 100,
			shifts: [
				{ beforePage: 4, kind: 'insert', count: 1, at: 0 },
				{ beforePage: 2, kind: 'insert', count: 2, at: 0 },
			],
		}),
		'found by npm run fuzz (factor 100): the generated server gave a record other content on a later page; one template now',
	);
});
