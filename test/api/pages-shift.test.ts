/**
 * Return All over pages that shift (nodes/shared/api/pages.ts `listPages`), as a property: a
 * generated server holds a list newest first, gives at most `cap` records a page whatever is
 * asked, says whether more follow as the accounting lists do (`page_context.has_more_page`),
 * as the project lists do (`page_info.has_next_page`), only by the page size it states, or not
 * at all, and creates (at the front) or deletes records between page reads. Ids are numbers or
 * digit strings beyond 2^53. Checked for every such read:
 *
 * - no record is given twice;
 * - nothing is given that the server never held;
 * - when the answers say whether more follow (or state their page size) and nothing is
 *   deleted, every record present when the read began is given: a capped page is read on;
 *   with deletions, only records at or after the first deletion's place can be missed
 *   (page-number paging cannot see them: BEHAVIOUR says so);
 * - it ends within the pages the list needs plus one per shift, without an error and without
 *   missing a record unless two pages' worth of records were created during the read (the read
 *   cannot tell that from a server answering the same pages whatever `page` asks).
 *
 * The transport is replaced by the generated server, so only the paging rule is under test.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../nodes/shared/tables/spec';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { BASE, testContext } from './support';
import { process } from '../../host/globals';
import type { Shift } from '../tools/page-shift';

type Facts = 'pageContext' | 'pageInfo' | 'perPage' | 'none';

interface Scenario {
	records: number;
	asked: number;
	cap?: number;
	facts: Facts;
	bigIds: boolean;
	shifts: Shift[];
}

let server: ListServer | undefined;
const requests: IDataObject[] = [];

jest.mock('../../nodes/shared/api/transport', () => ({
	...jest.requireActual('../../nodes/shared/api/transport'),
	vendorRequest: jest.fn(async (_ctx: unknown, _area: unknown, req: { qs: IDataObject }) => {
		requests.push(req.qs);
		return {
			body: server!.answer(Number(req.qs.page), Number(req.qs.per_page)),
			headers: {},
			statusCode: 200,
		};
	}),
}));

// after the mock: pages.ts takes the replaced transport
const { listPages } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../../nodes/shared/api/pages') as typeof import('../../nodes/shared/api/pages');

const runs = (n: number) => ({
	seed: 4242,
	numRuns: n * Number(process.env.VENDOR_FUZZ_FACTOR ?? 1),
});

const area = booksArea;
// a run's state as listPages reads it (vendorRequest is a stand-in here)
const run = testContext(BASE).run;

class ListServer {
	list: Array<number | string>;
	readonly initial: Set<string>;
	readonly ever: Set<string>;
	/** The place (index in the list when it happened) of the first deletion; Infinity without. */
	firstDeletionAt = Infinity;
	private next = 0;
	private readonly done = new Set<Shift>();

	constructor(private readonly s: Scenario) {
		this.list = Array.from({ length: s.records }, () => this.newId()).reverse();
		this.initial = new Set(this.list.map(String));
		this.ever = new Set(this.initial);
	}

	private newId(): number | string {
		const n = this.next++;
		return this.s.bigIds ? (1752587000000097005n + BigInt(n)).toString() : 460000000026049 + n;
	}

	answer(page: number, asked: number): IDataObject {
		for (const shift of this.s.shifts)
			if (shift.beforePage <= page && !this.done.has(shift)) this.apply(shift);
		const size = Math.min(asked, this.s.cap ?? asked);
		const items = this.list
			.slice((page - 1) * size, page * size)
			.map((id) => ({ item_id: id, name: `Item ${id}` }));
		const more = page * size < this.list.length;
		const facts: Record<Facts, IDataObject> = {
			pageContext: { page_context: { page, per_page: size, has_more_page: more } },
			pageInfo: { page_info: { page, per_page: size, has_next_page: more } },
			perPage: { page_context: { page, per_page: size } },
			none: {},
		};
		return { code: 0, items, ...facts[this.s.facts] };
	}

	private apply(shift: Shift): void {
		this.done.add(shift);
		for (let i = 0; i < shift.count; i++) {
			if (shift.kind === 'insert') {
				const id = this.newId();
				this.ever.add(String(id));
				this.list.unshift(id);
			} else if (this.list.length) {
				const at = Math.floor(shift.at * this.list.length);
				this.firstDeletionAt = Math.min(this.firstDeletionAt, at);
				this.list.splice(at, 1);
			}
		}
	}
}

const scenarios: fc.Arbitrary<Scenario> = fc.record(
	{
		records: fc.integer({ min: 0, max: 60 }),
		asked: fc.integer({ min: 1, max: 12 }),
		cap: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
		facts: fc.constantFrom<Facts>('pageContext', 'pageInfo', 'perPage', 'none'),
		bigIds: fc.boolean(),
		shifts: fc.array(
			fc.record({
				beforePage: fc.integer({ min: 2, max: 8 }),
				kind: fc.constantFrom('insert' as const, 'delete' as const),
				count: fc.integer({ min: 1, max: 3 }),
				at: fc.double({ min: 0, max: 0.999, noNaN: true }),
			}),
			{ maxLength: 3 },
		),
	},
	{ requiredKeys: ['records', 'asked', 'facts', 'bigIds', 'shifts'] },
);

async function readAll(s: Scenario): Promise<{ out: string[]; error?: Error }> {
	server = new ListServer(s);
	requests.length = 0;
	const op = {
		value: 'getAll',
		kind: 'list',
		method: 'GET',
		responseKey: 'items',
		pagination: s.facts === 'pageInfo' ? 'pageSize' : 'pageContext',
		perPage: s.asked,
	} as unknown as Operation;
	const out: string[] = [];
	try {
		for await (const { entries } of listPages(
			run,
			area,
			op,
			{ method: 'GET', path: '/items', qs: {}, headers: {} },
			s.asked,
			0,
			'item_id',
		)) {
			out.push(...entries.map((e) => String(e.item_id)));
		}
		return { out };
	} catch (error) {
		return { out, error: error as Error };
	}
}

test('Return All over capped and shifting pages: no record twice, none invented, none missed but after a deletion', async () => {
	await fc.assert(
		fc.asyncProperty(scenarios, async (s) => {
			const { out, error } = await readAll(s);
			const srv = server!;
			const size = Math.min(s.asked, s.cap ?? s.asked);
			const inserted = s.shifts.filter((x) => x.kind === 'insert').reduce((n, x) => n + x.count, 0);
			// two pages' worth created during the read can look like a server repeating itself: then, and only then, an error or an early end
			const lookalike = inserted >= 2 * size;
			if (error)
				expect({ message: error.message, lookalike }).toEqual({
					message: expect.stringMatching(/pages in a row that it had already sent$/),
					lookalike: true,
				});
			expect(out.filter((id, i) => out.indexOf(id) !== i)).toEqual([]);
			expect(out.filter((id) => !srv.ever.has(id))).toEqual([]);
			const told = s.facts !== 'none' || size === s.asked;
			if (told && !lookalike) {
				const missed = [...srv.initial].filter((id) => !out.includes(id));
				// a record can be missed only when a deletion moved it onto a page already read
				if (srv.firstDeletionAt === Infinity) expect(missed).toEqual([]);
				else
					expect(missed.length).toBeLessThanOrEqual(
						s.shifts.filter((x) => x.kind === 'delete').reduce((n, x) => n + x.count, 0),
					);
			}
			expect(requests.length).toBeLessThanOrEqual(
				Math.ceil((s.records + inserted) / size) + 1 + s.shifts.length,
			);
		}),
		runs(400),
	);
});

test('named case: a record created while the list is paged is given once, and the one it pushed on is not lost', async () => {
	const { out } = await readAll({
		records: 9,
		asked: 3,
		facts: 'pageContext',
		bigIds: true,
		shifts: [{ beforePage: 2, kind: 'insert', count: 1, at: 0 }],
	});
	expect(out).toHaveLength(9);
	expect(new Set(out).size).toBe(9);
	expect(out).toEqual([...server!.initial]);
});

test('named case: a whole page of records created between two page reads: the repeated page is passed over, nothing lost or given twice', async () => {
	const { out, error } = await readAll({
		records: 9,
		asked: 3,
		facts: 'pageContext',
		bigIds: false,
		shifts: [{ beforePage: 2, kind: 'insert', count: 3, at: 0 }],
	});
	expect(error).toBeUndefined();
	expect(out).toEqual([...server!.initial]);
});

test('named case: Vendor Projects pages capped at 100 while 200 are asked, page_info saying more: all 250 read', async () => {
	const { out } = await readAll({
		records: 250,
		asked: 200,
		cap: 100,
		facts: 'pageInfo',
		bigIds: false,
		shifts: [],
	});
	expect(out).toHaveLength(250);
	expect(requests.map((qs) => qs.page)).toEqual([1, 2, 3]);
});

test('named case: a record deleted during the read moves another onto a page already read: that one is missed (page-number paging cannot see it), nothing is given twice', async () => {
	const { out } = await readAll({
		records: 9,
		asked: 3,
		facts: 'pageContext',
		bigIds: false,
		shifts: [{ beforePage: 2, kind: 'delete', count: 1, at: 0 }],
	});
	const initial = [...server!.initial];
	// the first page gave records 0-2; record 0 deleted, record 3 moved onto page 1: never given
	expect(out).toEqual([...initial.slice(0, 3), ...initial.slice(4)]);
});
