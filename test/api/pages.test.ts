/**
 * Return All's pages (nodes/shared/api/pages.ts): a page that holds the same records as an
 * earlier page, in any order, ends the list (an error when the answer said more would follow);
 * a page that only partly repeats does not, and its records already given are not given again;
 * a page shorter than asked is read on when the answer says more follow. The transport is
 * replaced by pages given here, so only the paging rule is under test.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../nodes/shared/tables/spec';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { BASE, testContext } from './support';

const answers: unknown[] = [];
const asked: Array<IDataObject | undefined> = [];
/** The headers of each answer, in turn (none left: `{}`). */
const answerHeaders: IDataObject[] = [];

jest.mock('../../nodes/shared/api/transport', () => ({
	...jest.requireActual('../../nodes/shared/api/transport'),
	vendorRequest: jest.fn(async (_ctx: unknown, _area: unknown, req: { qs?: IDataObject }) => {
		asked.push(req.qs);
		if (answers.length === 0) throw new Error('no page left in the test');
		return { body: answers.shift(), headers: answerHeaders.shift() ?? {}, statusCode: 200 };
	}),
}));

// after the mock: pages.ts takes the replaced transport
const { hasMore, listPages } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../../nodes/shared/api/pages') as typeof import('../../nodes/shared/api/pages');

const area = booksArea;
// a run's state as listPages reads it (vendorRequest is a stand-in here)
const run = testContext(BASE).run;

function op(pagination: Operation['pagination']): Operation {
	return {
		value: 'getAll',
		kind: 'list',
		responseKey: 'items',
		pagination,
		perPage: 3,
	} as unknown as Operation;
}

function page(ids: Array<number | string>, more?: boolean, withIds = true): IDataObject {
	return {
		items: ids.map((id) =>
			withIds
				? { item_id: typeof id === 'number' ? String(id) : id, name: `Item ${id}` }
				: { name: `Item ${id}` },
		),
		...(more === undefined ? {} : { page_context: { has_more_page: more } }),
	};
}

async function read(
	operation: Operation,
	withIds = true,
): Promise<{ ids: unknown[]; error?: Error }> {
	const ids: unknown[] = [];
	try {
		for await (const { entries } of listPages(
			run,
			area,
			operation,
			{ method: 'GET', path: '/items', qs: {}, headers: {} },
			3,
			0,
			withIds ? 'item_id' : undefined,
		)) {
			ids.push(...entries.map((e) => e.item_id ?? e.name));
		}
		return { ids };
	} catch (error) {
		return { ids, error: error as Error };
	}
}

beforeEach(() => {
	answers.length = 0;
	asked.length = 0;
	answerHeaders.length = 0;
});

test('pages holding the records of earlier pages in another order, more in a row than pages read, while the answer says more follow: an error naming the page, nothing repeated in the output', async () => {
	answers.push(
		page([1, 2, 3], true),
		page([4, 5, 6], true),
		page([2, 3, 1], true),
		page([6, 4, 5], true),
		page([3, 1, 2], true),
	);
	const { ids, error } = await read(op('pageContext'));
	expect(ids).toEqual(['1', '2', '3', '4', '5', '6']);
	expect(error?.message).toBe(
		'Return All stopped at page 5 (6 records): the Vendor API said there were more records but answered 3 pages in a row that it had already sent',
	);
	expect(asked.map((qs) => qs?.page)).toEqual([1, 2, 3, 4, 5]);
});

test('a server that ignores `page` while saying more: the second repeat of its one page ends the read with an error', async () => {
	answers.push(page([1, 2, 3], true), page([1, 2, 3], true), page([1, 2, 3], true));
	const { ids, error } = await read(op('pageContext'));
	expect(ids).toEqual(['1', '2', '3']);
	expect(error?.message).toBe(
		'Return All stopped at page 3 (3 records): the Vendor API said there were more records but answered 2 pages in a row that it had already sent',
	);
});

test('one page that repeats an earlier one while the answer says more (records created meanwhile pushed a whole page on): passed over, the list read on to its end', async () => {
	answers.push(page([1, 2, 3], true), page([1, 2, 3], true), page([4, 5], false));
	const { ids, error } = await read(op('pageContext'));
	expect(error).toBeUndefined();
	expect(ids).toEqual(['1', '2', '3', '4', '5']);
});

test('a server that ignores `page` (no page context, full pages): the first page answered a second time again ends the list quietly', async () => {
	answers.push(page([1, 2, 3]), page([1, 2, 3]), page([1, 2, 3]));
	const { ids, error } = await read(op('pageSize'));
	expect(error).toBeUndefined();
	expect(ids).toEqual(['1', '2', '3']);
	expect(asked).toHaveLength(3);
});

test('a page that repeats only some records of earlier pages is read on, each record given once: the list ends where the answer says', async () => {
	answers.push(page([1, 2, 3], true), page([3, 4, 5], true), page([6], false));
	const { ids, error } = await read(op('pageContext'));
	expect(error).toBeUndefined();
	expect(ids).toEqual(['1', '2', '3', '4', '5', '6']);
});

test('ids are compared as text: a number id and the same digits as a string (beyond 2^53 too) are one record', async () => {
	const big = '1752587000000097005';
	answers.push(
		{
			items: [{ item_id: 1 }, { item_id: big }, { item_id: 2 }],
			page_context: { has_more_page: true },
		},
		{
			items: [{ item_id: '2' }, { item_id: big }, { item_id: '1752587000000097006' }],
			page_context: { has_more_page: false },
		},
	);
	const { ids, error } = await read(op('pageContext'));
	expect(error).toBeUndefined();
	expect(ids).toEqual([1, big, 2, '1752587000000097006']);
});

test('records without an ID are all given, also when records with IDs are de-duplicated beside them', async () => {
	answers.push(
		{
			items: [{ item_id: '1' }, { name: 'no id' }, { name: 'no id' }],
			page_context: { has_more_page: true },
		},
		{ items: [{ item_id: '1' }, { name: 'no id' }], page_context: { has_more_page: false } },
	);
	const { ids } = await read(op('pageContext'));
	expect(ids).toEqual(['1', 'no id', 'no id', 'no id']);
});

test('a page shorter than asked while page_context says more: read on to the page that says no more', async () => {
	answers.push(page([1, 2], true), page([3], true), page([4, 5], false));
	const { ids, error } = await read(op('pageContext'));
	expect(error).toBeUndefined();
	expect(ids).toEqual(['1', '2', '3', '4', '5']);
	expect(asked.map((qs) => [qs?.page, qs?.per_page])).toEqual([
		[1, 3],
		[2, 3],
		[3, 3],
	]);
});

test('a Vendor Projects list (paging not documented): a short page is read on when page_info.has_next_page says more, and ends when it says no more', async () => {
	const info = (ids: number[], more: boolean) => ({
		items: page(ids).items,
		page_info: { page: 1, per_page: 2, has_next_page: more },
	});
	answers.push(info([1, 2], true), info([3, 4], true), info([5], false));
	const { ids } = await read(op('pageSize'));
	expect(ids).toEqual(['1', '2', '3', '4', '5']);
	expect(asked).toHaveLength(3);
	answers.push(info([1, 2, 3], false));
	expect((await read(op('pageSize'))).ids).toEqual(['1', '2', '3']);
	expect(asked).toHaveLength(4);
});

test('an answer that states a smaller page size than asked (and not whether more follow): a page of that size is full, read on', async () => {
	const capped = (ids: number[]) => ({
		items: page(ids).items,
		page_context: { page: 1, per_page: 2 },
	});
	answers.push(capped([1, 2]), capped([3, 4]), capped([5]));
	const { ids } = await read(op('pageSize'));
	expect(ids).toEqual(['1', '2', '3', '4', '5']);
	expect(asked).toHaveLength(3);
});

test('without paging facts, a page shorter than asked ends the list (nothing says there is more)', async () => {
	answers.push(page([1, 2]));
	expect((await read(op('pageSize'))).ids).toEqual(['1', '2']);
	expect(asked).toHaveLength(1);
});

test("each page comes with its answer and headers (the service's Date among them), paged or not", async () => {
	answers.push(page([1, 2, 3], true), page([4], false), page([7]));
	answerHeaders.push(
		{ date: 'Tue, 15 Jul 2025 10:00:00 GMT' },
		{ date: 'Tue, 15 Jul 2025 10:00:01 GMT' },
		{ date: 'Tue, 15 Jul 2025 10:00:02 GMT' },
	);
	const got: Array<{ ids: unknown[]; date: unknown; more: unknown }> = [];
	for (const operation of [op('pageContext'), op('none')]) {
		for await (const p of listPages(
			run,
			area,
			operation,
			{ method: 'GET', path: '/items', qs: {}, headers: {} },
			3,
			0,
			'item_id',
		)) {
			got.push({
				ids: p.entries.map((e) => e.item_id),
				date: p.headers.date,
				more: (p.body as IDataObject).page_context,
			});
		}
	}
	expect(got).toEqual([
		{ ids: ['1', '2', '3'], date: 'Tue, 15 Jul 2025 10:00:00 GMT', more: { has_more_page: true } },
		{ ids: ['4'], date: 'Tue, 15 Jul 2025 10:00:01 GMT', more: { has_more_page: false } },
		{ ids: ['7'], date: 'Tue, 15 Jul 2025 10:00:02 GMT', more: undefined },
	]);
});

describe('hasMore', () => {
	const full = [{}, {}, {}];
	const short = [{}];
	test.each([
		['pageContext', { page_context: { has_more_page: true } }, short, true],
		['pageContext', { page_context: [{ has_more_page: true }] }, short, true],
		['pageContext', { page_context: { has_more_page: false } }, full, false],
		['pageContext', {}, full, true],
		['pageContext', {}, short, false],
		['pageSize', { page_info: { has_next_page: true } }, short, true],
		['pageSize', { page_info: { has_next_page: false } }, full, false],
		['pageSize', { page_context: { has_more_page: true } }, short, true],
		['pageSize', { page_info: { per_page: 1 } }, short, true],
		['pageSize', { page_info: { per_page: 5 } }, full, true],
		['pageSize', { page_context: { has_more_page: 'yes' } }, short, false],
		['pageSize', {}, short, false],
		['none', { page_context: { has_more_page: true } }, full, false],
	] as const)('%s list, answer %j, %j: %s', (pagination, body, entries, expected) => {
		expect(hasMore(op(pagination), body, [...entries] as IDataObject[], 3)).toBe(expected);
	});
});

test('records without an ID field are told apart by their JSON: a repeated page of them is caught too', async () => {
	answers.push(
		page([1, 2, 3], true, false),
		page([3, 1, 2], true, false),
		page([2, 1, 3], true, false),
	);
	const { ids, error } = await read(op('pageContext'), false);
	expect(ids).toEqual(['Item 1', 'Item 2', 'Item 3']);
	expect(error?.message).toMatch(/^Return All stopped at page 3 \(3 records\)/);
});
