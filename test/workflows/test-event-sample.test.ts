/**
 * What Fetch Test Event gives (README "### Triggers", docs/BEHAVIOUR.md "Fetch Test Event"): one
 * matching record of the list's first page (one call). For an event whose records carry its time
 * field (created, changed, trashed; a payment's date), the one with the latest time, the first
 * listed among equals; for Item Created, whose items carry no creation time, the first matching
 * item as the API lists it, which need not be the newest. Generated from the five triggers'
 * events tables: an answer proxy gives each event's first page three matching records, the
 * oldest listed first and two sharing the newest time after it, and the test event must be the
 * record the rule names.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/shared/poll/event';
import type { Area, Operation } from '../../nodes/shared/tables/spec';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { jsonAnswer } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import { triggerEvents } from '../tools/trigger-tables';
import { byId } from '../../harness/workflows';
import { PolledTrigger } from './support';

const RULE = { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 };
const ctx = useProxiedEnv({ demo: true, rateLimit: RULE });
const env = ctx.env;
beforeAll(() => setPacingRule(RULE));
afterAll(() => setPacingRule(DOCUMENTED_RULE));

const EVENTS = triggerEvents().map(
	(c) =>
		[
			`${c.area.name} Trigger: ${c.event.name}`,
			c.type,
			c.area,
			c.event,
			c.list,
			c.resource.idField ?? 'id',
		] as const,
);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isCallOf(area: Area, op: Operation): (r: { method: string; path: string }) => boolean {
	const root = area.family === 'projects' ? '/us/projects' : '/us/api';
	const path = new RegExp(
		`^${escape(`${root}${area.basePath}${op.path}`).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`,
	);
	return (r) => r.method === op.method && path.test(r.path);
}

/** A time of the event's time field, `day` days into March 2026: a bare date for a date field, else a time of day. */
function timeValue(event: TriggerEvent, day: number): string {
	const dd = String(day).padStart(2, '0');
	return event.timeField === 'date' ? `2026-03-${dd}` : `2026-03-${dd}T10:00:00+0000`;
}

test('the events cover a kind without a time field (Item Created) and kinds with one', () => {
	expect(EVENTS.some(([, , , e]) => !e.timeField)).toBe(true);
	expect(EVENTS.some(([, , , e]) => !!e.timeField)).toBe(true);
});

test.each(EVENTS)(
	'%s: Fetch Test Event gives the record the docs name',
	async (_id, type, area, event, list, idField) => {
		const key = (i: number): IDataObject =>
			event.key
				? Object.fromEntries(
						event.key.map((k) => [k, k === 'module' ? 'tasks' : String(8100000000000 + i)]),
					)
				: { [idField]: String(8100000000000 + i) };
		// listed oldest, then the newest time twice: the newest is not listed first, and two share it
		const days = [1, 3, 3];
		const records = days.map((day, i) => ({
			...key(i),
			name: `Sample ${i}`,
			...(event.status ? { [event.status.field]: event.status.values[0] } : {}),
			...(event.timeField ? { [event.timeField]: timeValue(event, day) } : {}),
		}));
		ctx.proxy.add({
			test: isCallOf(area, list),
			action: {
				replace: (upstream) => {
					const body = (upstream.json ?? {}) as IDataObject;
					const listKey =
						list.responseKey ??
						Object.keys(body).find((k) => Array.isArray(body[k]) && k !== 'page_context') ??
						'records';
					return jsonAnswer({ ...body, [listKey]: records });
				},
			},
		});
		const parameters: IDataObject = {
			event: event.value,
			...(area.org ? { organizationId: env.org } : {}),
			...(area.value === 'projects' ? { portal_id: byId(env.portal) } : {}),
			...(event.status ? { status: event.status.values[0] } : {}),
		};
		const { items } = await new PolledTrigger(env, type, parameters).pollTrigger('manual');
		// the record as the API gave it, without the poll's cost that travels with a test event
		const sample = items.map((record) =>
			Object.fromEntries(Object.entries(record).filter(([name]) => name !== '_pollCost')),
		);
		// with a time field: the latest, the first listed of the two that share it; without: the first listed
		expect(sample).toEqual([event.timeField ? records[1] : records[0]]);
	},
);
