/**
 * Return All's end on a server that repeats itself (nodes/shared/api/pages.ts): a page that
 * holds the same records as an earlier page, in any order, ends the list (an error when the
 * answer said more would follow); a page that only partly repeats does not. The transport is
 * replaced by pages given here, so only the paging rule is under test.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Area, Operation } from '../nodes/shared/tables/spec';

const answers: unknown[] = [];
const asked: Array<IDataObject | undefined> = [];

jest.mock('../nodes/shared/api/transport', () => ({
	...jest.requireActual('../nodes/shared/api/transport'),
	vendorRequest: jest.fn(async (_ctx: unknown, _area: unknown, req: { qs?: IDataObject }) => {
		asked.push(req.qs);
		if (answers.length === 0) throw new Error('no page left in the test');
		return { body: answers.shift(), headers: {}, statusCode: 200 };
	}),
}));

// after the mock: pages.ts takes the replaced transport
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listPages } = require('../nodes/shared/api/pages') as typeof import('../nodes/shared/api/pages');

const area = { value: 'books', name: 'Vendor Books', root: 'api', basePath: '/books/v3' } as Area;
const ctx = { getNode: () => ({ name: 'List', type: 'n8n-nodes-vendor.vendorBooks', typeVersion: 1, position: [0, 0], parameters: {} }) } as never;

function op(pagination: Operation['pagination']): Operation {
	return { value: 'getAll', kind: 'list', responseKey: 'items', pagination, perPage: 3 } as unknown as Operation;
}

function page(ids: number[], hasMore?: boolean, withIds = true): IDataObject {
	return {
		items: ids.map((id) => (withIds ? { item_id: String(id), name: `Item ${id}` } : { name: `Item ${id}` })),
		...(hasMore === undefined ? {} : { page_context: { has_more_page: hasMore } }),
	};
}

async function read(operation: Operation, withIds = true): Promise<{ ids: unknown[]; error?: Error }> {
	const ids: unknown[] = [];
	try {
		for await (const { entries } of listPages(ctx, area, operation, { method: 'GET', path: '/items', qs: {}, headers: {} }, 3, 0, withIds ? 'item_id' : undefined)) {
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
});

test('a page holding the records of an earlier page in another order, while the answer says more follow: an error naming the page, nothing repeated in the output', async () => {
	answers.push(page([1, 2, 3], true), page([4, 5, 6], true), page([2, 3, 1], true));
	const { ids, error } = await read(op('pageContext'));
	expect(ids).toEqual(['1', '2', '3', '4', '5', '6']);
	expect(error?.message).toBe('Return All stopped at page 3 (6 records): the Vendor API said there were more records but answered with a page it had already sent');
	expect(asked.map((qs) => qs?.page)).toEqual([1, 2, 3]);
});

test('a server that ignores `page` (no page context, full pages): the repeated first page ends the list quietly', async () => {
	answers.push(page([1, 2, 3]), page([1, 2, 3]));
	const { ids, error } = await read(op('pageSize'));
	expect(error).toBeUndefined();
	expect(ids).toEqual(['1', '2', '3']);
	expect(asked).toHaveLength(2);
});

test('a page that repeats only some records of earlier pages is read on: the list ends where the answer says', async () => {
	answers.push(page([1, 2, 3], true), page([3, 4, 5], true), page([6], false));
	const { ids, error } = await read(op('pageContext'));
	expect(error).toBeUndefined();
	expect(ids).toEqual(['1', '2', '3', '3', '4', '5', '6']);
});

test('records without an ID field are told apart by their JSON: a repeated page of them is caught too', async () => {
	answers.push(page([1, 2, 3], true, false), page([3, 1, 2], true, false));
	const { ids, error } = await read(op('pageContext'), false);
	expect(ids).toEqual(['Item 1', 'Item 2', 'Item 3']);
	expect(error?.message).toMatch(/^Return All stopped at page 2 \(3 records\)/);
});
