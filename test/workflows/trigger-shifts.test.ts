/**
 * Scanning triggers against lists a real server may answer differently from the emulator (no record
 * missed or emitted twice): a record deleted while a poll pages through the list shifts the later
 * pages, so a record slips from page 2 to page 1 unseen; a server that ignores the guessed
 * `filter_by=Status.All` of Item Created lists active items only; a server that caps its pages
 * below the size asked while saying there is more. None of these may emit a record that is not new,
 * nor hide one that is. The answers are shaped by the answer proxy in front of the emulator
 * (test/tools/answer-proxy.ts), which also dates them by the emulator's clock.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { Clock } from '../../emulator/clock';
import { timestampMs } from '../../emulator/rules/formats';
import type { Tenant } from '../../emulator/store';
import { jsonAnswer, type AnswerProxy, type UpstreamAnswer } from '../tools/answer-proxy';
import { byId } from '../../harness/workflows';
import { PolledTrigger, WorkflowEnv } from './support';
import { datedByServiceClock } from './trigger-service';

const env = new WorkflowEnv();
const clock = new Clock({ start: Date.parse('2026-03-02T09:00:00Z') });
let proxy: AnswerProxy;

beforeAll(async () => {
	await env.start({ clock });
	proxy = await datedByServiceClock(env, clock);
});
afterAll(async () => {
	await proxy.close();
	await env.stop();
});
beforeEach(() => {
	proxy.reset();
	clock.advance(60_000);
});

/** A trigger node; each poll runs with the static data the previous one left. Returns the emitted ids. */
class Trigger extends PolledTrigger {
	constructor(
		type: new () => INodeType,
		parameters: IDataObject,
		private readonly idField: string,
	) {
		super(env, type, parameters);
	}

	async poll(): Promise<string[]> {
		const { items } = await this.pollTrigger();
		clock.advance(60_000);
		return items.map((i) => String(i[this.idField]));
	}
}

/** `n` records put in `tenant`'s `collection`, made one second apart before now; returns their ids. */
function put(
	tenant: Tenant,
	collection: string,
	n: number,
	make: (id: string, created: number, i: number) => IDataObject,
): string[] {
	const now = clock.now();
	return Array.from({ length: n }, (_, i) => {
		const id = env.em.store.nextId();
		tenant.put(collection, id, make(id, now - (n - i) * 1000, i));
		return id;
	});
}

const bill = (id: string, created: number, i: number) => ({
	bill_id: id,
	bill_number: `B-${id}-${i}`,
	status: 'open',
	created_time: timestampMs(created),
	last_modified_time: timestampMs(created),
});
const project = (id: string, created: number, i: number) => ({
	id,
	name: `Project ${id}-${i}`,
	status: 'active',
	created_time: timestampMs(created),
	last_modified_time: timestampMs(created),
});

/** The records of a list answer (its documented key). */
const recordsOf = (upstream: UpstreamAnswer, key: string) =>
	((upstream.json as IDataObject)[key] as IDataObject[]) ?? [];

describe('a record deleted while a scanning poll pages through the list never makes an older one new', () => {
	const cases = [
		{
			label: 'Purchase Bills: Bill Created',
			type: VendorInventoryTrigger,
			parameters: () => ({ organizationId: env.org, event: 'billCreated' }),
			idField: 'bill_id',
			key: 'bills',
			path: /\/bills$/,
			tenant: () => env.orgTenant(),
			collection: 'bills',
			make: bill,
		},
		{
			label: 'Projects: Project Created',
			type: VendorProjectsTrigger,
			parameters: () => ({ portal_id: byId(env.portal), event: 'projectCreated' }),
			idField: 'id',
			key: 'projects',
			path: /\/projects$/,
			tenant: () => env.portalTenant(),
			collection: 'projects',
			make: project,
		},
	];

	test.each(cases)(
		'$label: 250 records on two pages; one of page 1 deleted once page 1 is answered; the record that slid onto page 1 unseen is not emitted later, a new one is, once',
		async (c) => {
			for (const id of c
				.tenant()
				.all(c.collection)
				.map((r) => String(r[c.idField])))
				c.tenant().remove(c.collection, id);
			put(c.tenant(), c.collection, 250, c.make);
			const trigger = new Trigger(c.type, c.parameters(), c.idField);
			expect(await trigger.poll()).toEqual([]);

			// the next poll: page 1 answered, then one of its records is deleted before page 2 is read
			let deleted: string | undefined;
			proxy.add({
				method: 'GET',
				path: c.path,
				test: (r) => r.query.page === '1',
				nth: 1,
				action: {
					replace: (upstream) => {
						deleted = String(recordsOf(upstream, c.key)[0][c.idField]);
						c.tenant().remove(c.collection, deleted);
						return {
							status: upstream.status,
							contentType: String(upstream.headers['content-type']),
							body: upstream.body,
						};
					},
				},
			});
			expect(await trigger.poll()).toEqual([]);
			expect(deleted).toBeDefined();
			// the whole list again: the record that slid is listed, and is not new
			expect(await trigger.poll()).toEqual([]);
			const [fresh] = put(c.tenant(), c.collection, 1, (id, _created, i) =>
				c.make(id, clock.now(), i),
			);
			expect(await trigger.poll()).toEqual([fresh]);
			expect(await trigger.poll()).toEqual([]);
		},
	);
});

describe('a record deleted while Project Updated pages through the list never hides a later change', () => {
	test('250 projects on pages of 200; one of page 1 deleted once page 1 is answered; the project that slid onto page 1 unseen, changed afterwards, is emitted once', async () => {
		const tenant = env.portalTenant();
		for (const id of tenant.all('projects').map((r) => String(r.id))) tenant.remove('projects', id);
		put(tenant, 'projects', 250, project);
		const trigger = new Trigger(
			VendorProjectsTrigger,
			{ portal_id: byId(env.portal), event: 'projectUpdated' },
			'id',
		);
		expect(await trigger.poll()).toEqual([]);

		const listed = new Set<string>();
		proxy.add({
			method: 'GET',
			path: /\/projects$/,
			test: (r) => r.query.page === '1',
			nth: 1,
			action: {
				replace: (upstream) => {
					// the first record of page 2 slides onto page 1, already answered
					tenant.remove('projects', String(recordsOf(upstream, 'projects')[0].id));
					return {
						status: upstream.status,
						contentType: String(upstream.headers['content-type']),
						body: upstream.body,
					};
				},
			},
		});
		const from = proxy.records.length;
		expect(await trigger.poll()).toEqual([]);
		for (const r of proxy.records.slice(from).filter((p) => /\/projects$/.test(p.path)))
			for (const p of ((r.upstreamJson as IDataObject | undefined)?.projects ??
				[]) as IDataObject[])
				listed.add(String(p.id));
		const unseen = tenant
			.all('projects')
			.map((r) => String(r.id))
			.filter((id) => !listed.has(id));
		expect(unseen).toHaveLength(1);
		const slid = unseen[0];
		// changed after the read that missed it: the next poll sees the change
		const record = tenant.get('projects', slid) as IDataObject;
		tenant.put('projects', slid, {
			...record,
			name: `${String(record.name)} (renamed)`,
			last_modified_time: timestampMs(clock.now()),
		});
		expect(await trigger.poll()).toEqual([slid]);
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('the first read of a list without creation times is read again backward, up to 25 pages', () => {
	const item = (id: string, _created: number, i: number) => ({
		item_id: id,
		name: `Item ${id}-${i}`,
		rate: 1,
		status: 'active',
	});
	test.each([
		[201, 2, 3],
		[5_000, 25, 49],
		[5_001, 26, 26],
	])(
		'Item Created over %i items (%i pages of 200): the activation makes %i calls',
		async (n, _pages, calls) => {
			const tenant = env.orgTenant();
			const before = tenant.all('items');
			for (const record of before) tenant.remove('items', String(record.item_id));
			const ids = put(tenant, 'items', n, item);
			try {
				const trigger = new Trigger(
					VendorBooksTrigger,
					{ organizationId: env.org, event: 'itemCreated' },
					'item_id',
				);
				expect(await trigger.poll()).toEqual([]);
				expect(
					proxy.records.filter((r) => r.method === 'GET' && /\/items$/.test(r.path)).length,
				).toBe(calls);
			} finally {
				// the items as they were, for the tests after
				for (const id of ids) tenant.remove('items', id);
				for (const record of before) tenant.put('items', String(record.item_id), record);
			}
		},
	);
});

describe('Item Created when the server ignores the guessed filter_by=Status.All (lists active items only)', () => {
	test('an item made inactive and active again is not emitted as created; a new item is, once', async () => {
		const items = env.orgTenant();
		const [a, b] = put(items, 'items', 2, (id, _created, i) => ({
			item_id: id,
			name: `Item ${id}-${i}`,
			rate: 1,
			status: 'active',
		}));
		proxy.add({
			method: 'GET',
			path: /\/items$/,
			action: {
				replace: (upstream) => {
					const json = upstream.json as IDataObject;
					return jsonAnswer({
						...json,
						items: recordsOf(upstream, 'items').filter((r) => r.status === 'active'),
					});
				},
			},
		});
		const trigger = new Trigger(
			VendorBooksTrigger,
			{ organizationId: env.org, event: 'itemCreated' },
			'item_id',
		);
		expect(await trigger.poll()).toEqual([]);
		(items.get('items', a) as IDataObject).status = 'inactive';
		expect(await trigger.poll()).toEqual([]);
		(items.get('items', a) as IDataObject).status = 'active';
		const [c] = put(items, 'items', 1, (id) => ({
			item_id: id,
			name: `Item ${id}`,
			rate: 1,
			status: 'active',
		}));
		expect(await trigger.poll()).toEqual([c]);
		expect(await trigger.poll()).toEqual([]);
		expect(b).toBeDefined();
	});
});

describe('a server that caps its pages below the size asked while saying there is more', () => {
	test('Projects: Project Created over pages of 100 when 200 are asked: the newest project, on the third page, is emitted once', async () => {
		const projects = env.portalTenant();
		for (const id of projects.all('projects').map((r) => String(r.id)))
			projects.remove('projects', id);
		put(projects, 'projects', 249, project);
		const CAP = 100;
		proxy.add({
			method: 'GET',
			path: /\/projects$/,
			action: {
				replace: (_upstream, request) => {
					const page = Number(request.query.page ?? 1);
					const all = projects.all('projects');
					return jsonAnswer({
						projects: all.slice((page - 1) * CAP, page * CAP),
						page_info: { page, per_page: CAP, has_next_page: all.length > page * CAP },
					});
				},
			},
		});
		const trigger = new Trigger(
			VendorProjectsTrigger,
			{ portal_id: byId(env.portal), event: 'projectCreated' },
			'id',
		);
		expect(await trigger.poll()).toEqual([]);
		expect(proxy.records.filter((r) => r.method === 'GET').map((r) => r.query.page)).toEqual([
			'1',
			'2',
			'3',
		]);
		const [newest] = put(projects, 'projects', 1, (id, _created, i) => project(id, clock.now(), i));
		expect(await trigger.poll()).toEqual([newest]);
		expect(await trigger.poll()).toEqual([]);
	});
});
