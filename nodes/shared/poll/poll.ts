// Polling (poll/): owns the triggers' description and poll; imports tables/, api/, describe/ and run/.
/**
 * Polling triggers: one engine for every area, driven by the list operations of the field
 * tables (`buildRequest`, the engine's `listPages`, `pageContext`) and a small declarative
 * table of events per trigger node (`nodes/<Node>Trigger/events.ts`). The service sends
 * no events (the documents show none), so every trigger polls.
 *
 * Strategies (chosen per event in its table):
 * - `newest`: the list sorted newest first (a documented sort column plus the sort order),
 *   read page by page until a record older than the cursor shows up. State: the cursor
 *   time and the keys of the records seen at exactly that time (records sharing a
 *   timestamp are neither missed nor repeated). A poll that finds nothing new costs one
 *   call. If the answer is not in newest-first order (the server ignored the sort), the
 *   poll reads every page instead: slower, never wrong.
 * - `scan`: for lists without a documented newest-first sort (items, payments, bills,
 *   projects) every page is read and the keys are compared with those remembered from the
 *   last poll. State: the keys of the records currently listed (records that disappear are
 *   forgotten, so the state never outgrows the list). Cost: ceil(records / page size).
 * - `changed`: like `scan`, remembering a short fingerprint of each record; emits the
 *   records whose fingerprint changed (updates).
 * Status events (`status` in the table) use `scan` over the list filtered by the status:
 * the documents name no sort by modification time, so a record that enters the status can
 * be anywhere in the list. State: the keys of the records currently in that status only.
 * The status is also checked on each record, so a server that ignored the filter costs
 * calls, not correctness.
 * A guessed sort is checked on every answer: the `page_context` echo of `sort_column` and
 * `sort_order` where the list gives one, and the order of the records; an answer that does not
 * confirm it makes the poll read every page. A `scan` event may offer a date window (`window`):
 * the user opts into reading only the records dated in the last N days, one call a day.
 *
 * Daily budget ("Max API Calls per Day", state `vendorBudget` in the static data): the calls
 * each real poll makes are counted where the trigger sends (its list reads) per UTC day. A poll
 * that would overspend is skipped without a call (it returns nothing and the state is kept, so
 * the next real poll emits what is new since the last, once): when the day's calls plus what the
 * last poll cost pass the budget, or, once a baseline is taken, sooner than the spacing allows
 * (a credit that grows by the budget over a day; each poll takes its calls from it). No call is
 * sent past the day's budget: a poll that reaches it ends with nothing emitted. n8n's log warns
 * (at activation, then once a UTC day) when the cost at the node's Poll Times passes the budget;
 * a poll that costs more than the whole budget fails once a day without a call. Fetch Test Event
 * adds `_pollCost` to its test item (calls per poll, polls and calls a day, the budget, a summary).
 *
 * First activation takes the baseline: the records listed then are not emitted, unless the
 * option "Start From Existing Records" is on. A manual run ("Fetch Test Event") emits the
 * most recent matching record from one call and leaves the state alone. Changing the
 * event, status or filters starts a new baseline. Errors leave the state untouched, so
 * the next poll covers the same ground.
 *
 * Activation begins when the poll n8n runs at activation (./activation.ts) begins, before its
 * first request (n8n's clock, to the second); a record is placed by its time field: created
 * (or, for status and update events, modified; trashed for the bin). The read that takes the
 * baseline may end seconds later (the transport retries a 5xx for about 7 s), so a record
 * it lists from a later second than activation began is emitted at once, not buried in the
 * baseline. A transient failure of that poll does not fail the activation: the poll returns
 * nothing and the next scheduled poll catches up. With a state (a restart of n8n, a re-save)
 * the state is simply kept. Without one (first activation, or the event or filters changed)
 * no baseline could be taken, so the time activation began is kept instead (`since`), and the
 * first poll that succeeds takes the baseline and emits, once, the records placed at or after
 * it (its own second included: no baseline tells them apart). A record whose time field has
 * no time of day (a payment's `date`) or an event without one (items) cannot be placed, so it
 * becomes part of the baseline: those records made while the baseline could not be read are
 * not emitted. With "Start From Existing Records" on, nothing is kept: the first poll that
 * succeeds emits every existing record, as it would have.
 */
import { createHash } from 'crypto';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fieldProperty, inputProperty, ORGANIZATION_ID } from '../describe/describe';
import type { NodeMeta } from '../describe/describe';
import { hasMore, listPages } from '../api/pages';
import { findOperation } from '../run/execute';
import { fromUi, InputError, inputFailure, nodeRequest } from '../api/request';
import type { ApiRequest } from '../api/request';
import type { Area, Field, Operation } from '../tables/spec';
import { pageContext } from '../api/transport';
import { checkValues } from '../tables/validate';
import type { Problem } from '../tables/validate';
import { isActivationPoll, outlastsFailure } from './activation';

export type PollStrategy = 'newest' | 'scan' | 'changed';

/** One event of a trigger node: which list to poll and how to tell what is new. */
export interface TriggerEvent {
	/** camelCase value, e.g. `estimateCreated`. */
	value: string;
	/** Display name, e.g. "Estimate Created". */
	name: string;
	description: string;
	/** The resource and its list operation (read by value from the area's tables). */
	resource: string;
	operation: string;
	strategy: PollStrategy;
	/** `newest`: the query that sorts the list newest first (by `timeField`). */
	sort?: Record<string, string>;
	/** The record's time field: the cursor of `newest`, the emission order of the others. */
	timeField?: string;
	/** Fields that identify a record (default: the resource's `idField`). */
	key?: string[];
	/** Status events: the record's status field, the list's status filter, the values offered. */
	status?: { field: string; filter?: string; values: readonly string[] };
	/** Fixed query parameters (a filter of the same name set by the user wins). */
	query?: Record<string, string>;
	/** List fields not offered as trigger filters (sorting is never offered). */
	exclude?: string[];
	/** Names and behaviour that the documents do not show, for the README's "Not covered / assumptions". */
	inferred?: string;
	/** With `inferred`: what the user notices if the guess is wrong, shown after the event's description. */
	ifWrong?: string;
	/**
	 * A date window the user may opt into (`scan` events): the list's date filter `filter` (a
	 * `yyyy-mm-dd` equality filter) sent once for each day of the last N days, instead of one read
	 * of the whole list. `label` is the option's name, e.g. "Only Payments Dated Within the Last N Days".
	 */
	window?: { filter: string; label: string; what: string };
}

/** builderHint, propertyHints: as for an action node (NodeMeta). */
export interface TriggerMeta extends Pick<NodeMeta, 'builderHint' | 'propertyHints'> {
	/** Node type name, e.g. `vendorBooksTrigger`. */
	name: string;
	/** Icon base name in the node folder. */
	icon: string;
	description: string;
}

interface PollState {
	sig: string;
	/** `newest`: cursor time (null: the list was empty, everything after is new). */
	t?: number | null;
	/** `newest`: keys at the cursor time; `scan`: keys currently listed. */
	keys?: string[];
	/** `changed`: fingerprint per key. */
	fp?: Record<string, string>;
	/** No baseline yet (the poll at activation failed on an outage): when activation began, before its first request, epoch ms to the second; records from then on are new. */
	since?: number;
	/** Date window: the newest day read (the next poll reads back to it, so nothing dated between two polls is missed). */
	day?: string;
}

const STATE_KEY = 'vendorPoll';
const BUDGET_KEY = 'vendorBudget';

/** "Max API Calls per Day" unless the user sets it: half the smallest plan's daily allowance (docs/ASSUMPTIONS.md). */
export const DEFAULT_MAX_CALLS_PER_DAY = 500;

// ---------------------------------------------------------------- description

const isSortField = (f: Field) => /^sort_/.test(f.name);

/** The list's fields offered in the event's "Filters" collection. */
function filterFields(event: TriggerEvent, op: Operation): Field[] {
	return op.fields.filter((f) => !f.required && !f.readOnly && !f.bodyRoot && !isSortField(f) && !(event.exclude ?? []).includes(f.name));
}

function requiredFields(op: Operation): Field[] {
	return op.fields.filter((f) => f.required && !f.readOnly);
}

function listOf(area: Area, event: TriggerEvent): Operation {
	return findOperation(area, event.resource, event.operation).op;
}

export function triggerProperties(area: Area, events: TriggerEvent[]): INodeProperties[] {
	const props: INodeProperties[] = [];
	if (area.org) props.push(ORGANIZATION_ID);
	const firstEvent = events[0].value;
	props.push({
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		options: events.map((e) => ({ name: e.name, value: e.value, description: e.ifWrong ? `${e.description}. ${e.ifWrong}` : e.description })).sort((a, b) => a.name.localeCompare(b.name)),
		default: firstEvent,
	});
	const required = new Map<string, { field: Field; events: string[] }>();
	for (const event of events) {
		for (const field of requiredFields(listOf(area, event))) {
			const entry = required.get(field.name) ?? { field, events: [] };
			entry.events.push(event.value);
			required.set(field.name, entry);
		}
	}
	for (const { field, events: shown } of required.values()) {
		props.push({ ...inputProperty(area, field), required: true, displayOptions: { show: { event: shown } } });
	}
	for (const event of events.filter((e) => e.status)) {
		const status = event.status as NonNullable<TriggerEvent['status']>;
		const prop = fieldProperty({ name: 'status', type: 'enum', required: true, values: status.values });
		props.push({
			...prop,
			required: true,
			description: 'Emit a record when its status changes to this value',
			displayOptions: { show: { event: [event.value] } },
		});
	}
	for (const event of events) {
		const fields = filterFields(event, listOf(area, event));
		if (!fields.length) continue;
		props.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: fields.map((f) => fieldProperty(f)).sort((a, b) => a.displayName.localeCompare(b.displayName)),
			displayOptions: { show: { event: [event.value] } },
		});
	}
	for (const event of events.filter((e) => e.window)) {
		const window = event.window as NonNullable<TriggerEvent['window']>;
		props.push({
			displayName: window.label,
			name: 'windowDays',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description: `Read only the ${window.what} dated today or in the days before it (this many days in all, in the workflow's time zone): one call a day of the window instead of one call per 200 ${window.what}. One recorded later with an older date is never emitted. 0 compares every page of the list.`,
			displayOptions: { show: { event: [event.value] } },
		});
	}
	props.push({
		displayName: 'Max API Calls per Day',
		name: 'maxCallsPerDay',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_CALLS_PER_DAY,
		description:
			"Most API calls this trigger makes in a day (UTC). Polls are spaced to stay within it; a skipped poll loses nothing, the next one emits what is new since the last. The organization's daily allowance (1,000 to 10,000 by plan) is shared by every integration: raise this within it. Fetch Test Event shows what a poll costs.",
	});
	props.push({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Start From Existing Records',
				name: 'startFromExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after activation emits the records that already match the event. Off: only what happens after activation is emitted.',
			},
		],
	});
	return props;
}

export function triggerNodeDescription(area: Area, events: TriggerEvent[], meta: TriggerMeta): INodeTypeDescription {
	return {
		displayName: `${area.name} Trigger`,
		name: meta.name,
		icon: { light: `file:${meta.icon}.svg`, dark: `file:${meta.icon}.dark.svg` },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: meta.description,
		eventTriggerDescription: '',
		defaults: { name: `${area.name} Trigger` },
		polling: true,
		inputs: [],
		outputs: ['main'],
		...(meta.builderHint && { builderHint: meta.builderHint }),
		credentials: [{ name: 'vendorOAuth2Api', required: true }],
		properties: triggerProperties(area, events).map((p) => (meta.propertyHints?.[p.name] ? { ...p, builderHint: meta.propertyHints[p.name] } : p)),
	} as INodeTypeDescription;
}

// ---------------------------------------------------------------- reading the list

/** Epoch ms of a timestamp (`...+0530`, `...Z`, `yyyy-mm-dd`) or undefined. */
export function timeOf(value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return value;
	const t = Date.parse(String(value).replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
	return Number.isNaN(t) ? undefined : t;
}

/** The calls of one poll: counted where the trigger sends, refused past what the day's budget leaves. */
interface Meter {
	calls: number;
	left: number;
}

/** A call the day's budget does not allow was not sent: the poll ends with nothing emitted and the state kept. */
class BudgetSpent extends Error {}

interface Source {
	ctx: IPollFunctions;
	area: Area;
	op: Operation;
	/** The list request (its query sorts and filters). */
	req: ApiRequest;
	/** The reads of a poll: `req`, or one per day of a date window. */
	reads: ApiRequest[];
	meter: Meter;
	event: TriggerEvent;
	key: (r: IDataObject) => string;
	time: (r: IDataObject) => number | undefined;
	matches: (r: IDataObject) => boolean;
}

/** The pages of each read, one call each (counted), until the answer says there is no more. */
async function* pages(src: Source): AsyncGenerator<{ entries: IDataObject[]; body: unknown }> {
	const size = src.op.perPage ?? 200;
	for (const req of src.reads) {
		const read = listPages(src.ctx, src.area, src.op, req, size);
		for (let more = true; more; ) {
			if (src.meter.calls >= src.meter.left) throw new BudgetSpent();
			src.meter.calls++;
			const page = await read.next();
			if (page.done) {
				src.meter.calls--;
				break;
			}
			yield page.value;
			more = page.value.entries.length > 0 && hasMore(src.op, page.value.body, page.value.entries, size);
		}
	}
}

async function readAll(src: Source): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for await (const { entries } of pages(src)) out.push(...entries);
	return out;
}

function missingTime(src: Source, record: IDataObject): NodeOperationError {
	return new NodeOperationError(
		src.ctx.getNode(),
		`The ${src.event.resource} list answered a record without a readable "${src.event.timeField}" (key ${src.key(record)}), so new records cannot be told from old ones`,
		{ description: 'Nothing was emitted and the trigger state was kept. Check the API answer or choose another event.' },
	);
}

/**
 * Whether an answer does not contradict the sort asked: the `page_context` of the accounting
 * lists echoes `sort_column` and `sort_order` (document 2); an echo that differs means the server
 * sorted otherwise. Lists without an echo (the bin) are checked by the order of their records only.
 */
function confirmsSort(src: Source, body: unknown): boolean {
	const context = pageContext(body);
	return ['sort_column', 'sort_order'].every((name) => {
		const asked = src.req.qs[name];
		const answered = context?.[name];
		return asked === undefined || answered === undefined || String(answered) === String(asked);
	});
}

/**
 * Newest first, down to `since` (inclusive): every record with a time at or after it; with
 * `newestToo`, also the records at the newest time when they are older. Stops at the first
 * page that reaches older records, unless the answer turned out not to be sorted newest first.
 */
async function readNewest(src: Source, since: number, newestToo = false): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let previous = Infinity;
	let max = -Infinity;
	let sorted = true;
	for await (const { entries, body } of pages(src)) {
		if (!confirmsSort(src, body)) sorted = false;
		let older = false;
		for (const record of entries) {
			const t = src.time(record);
			if (t === undefined) throw missingTime(src, record);
			if (t > previous) sorted = false;
			previous = t;
			max = Math.max(max, t);
			if (t < (newestToo ? Math.min(max, since) : since)) older = true;
			else out.push(record);
		}
		if (older && sorted) break;
	}
	const floor = newestToo ? Math.min(max, since) : since;
	return out.filter((r) => (src.time(r) as number) >= floor);
}

function uniqueByKey(src: Source, records: IDataObject[]): IDataObject[] {
	const seen = new Set<string>();
	return records.filter((r) => {
		const k = src.key(r);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

/** Oldest first by the time field when every record has one; else in the given order. */
function chronological(src: Source, records: IDataObject[]): IDataObject[] {
	if (!src.event.timeField || records.some((r) => src.time(r) === undefined)) return records;
	return [...records].sort((a, b) => (src.time(a) as number) - (src.time(b) as number));
}

/**
 * Whether a record happened at or after `since` by its time field: only a value with a time
 * of day (or epoch ms) says so; a bare date or no time field cannot tell.
 */
function happenedSince(src: Source, record: IDataObject, since: number): boolean {
	const value = src.event.timeField ? record[src.event.timeField] : undefined;
	const t = src.time(record);
	return t !== undefined && (typeof value === 'number' || /\d{2}:\d{2}/.test(String(value))) && t >= since;
}

function fingerprint(record: IDataObject): string {
	const stable = (v: unknown): unknown =>
		Array.isArray(v)
			? v.map(stable)
			: v && typeof v === 'object'
				? Object.fromEntries(Object.keys(v).sort().map((k) => [k, stable((v as IDataObject)[k])]))
				: v;
	return createHash('sha1').update(JSON.stringify(stable(record))).digest('base64').slice(0, 12);
}

// ---------------------------------------------------------------- strategies

interface Outcome {
	emitted: IDataObject[];
	state: Omit<PollState, 'sig'>;
}

/**
 * `from`: without a baseline (no state, or one pending since activation), the time from which
 * a record placed by its time field is new (-Infinity: every record is).
 */
type Strategy = (src: Source, previous: PollState | undefined, from: number) => Promise<Outcome>;

/** Without a baseline: the records new from `from`. */
function newFrom(src: Source, records: IDataObject[], from: number): IDataObject[] {
	return from === -Infinity ? records : records.filter((r) => happenedSince(src, r, from));
}

const newest: Strategy = async (src, stored, from) => {
	// pending since activation: a cursor at that time with nothing known at it
	const previous = stored?.since !== undefined ? { ...stored, t: stored.since, keys: [] } : stored;
	// no state: down to `from`, and the newest records (the cursor) however old
	const records = uniqueByKey(src, previous ? await readNewest(src, previous.t ?? -Infinity) : await readNewest(src, from, true));
	const known = new Set(previous?.keys ?? []);
	const isOld = (r: IDataObject) => previous?.t !== undefined && previous.t !== null && src.time(r) === previous.t && known.has(src.key(r));
	const fresh = (previous ? records.filter((r) => !isOld(r)) : newFrom(src, records, from)).filter(src.matches);
	const prevT = previous?.t ?? null;
	const t = records.length ? records.reduce((max, r) => Math.max(max, src.time(r) as number), prevT ?? -Infinity) : prevT;
	const keys = records.filter((r) => src.time(r) === t).map(src.key);
	if (t !== null && t === prevT) keys.push(...known);
	return { emitted: chronological(src, [...fresh].reverse()), state: { t, keys: [...new Set(keys)] } };
};

const scan: Strategy = async (src, previous, from) => {
	const records = uniqueByKey(src, (await readAll(src)).filter(src.matches));
	const known = previous?.keys ? new Set(previous.keys) : undefined;
	const fresh = known ? records.filter((r) => !known.has(src.key(r))) : newFrom(src, records, from);
	return { emitted: chronological(src, fresh), state: { keys: records.map(src.key) } };
};

const changed: Strategy = async (src, previous, from) => {
	const records = uniqueByKey(src, (await readAll(src)).filter(src.matches));
	const fp: Record<string, string> = {};
	for (const r of records) fp[src.key(r)] = fingerprint(r);
	const before = previous?.fp;
	const fresh = before ? records.filter((r) => before[src.key(r)] !== undefined && before[src.key(r)] !== fp[src.key(r)]) : newFrom(src, records, from);
	return { emitted: chronological(src, fresh), state: { fp } };
};

const STRATEGIES: Record<PollStrategy, Strategy> = { newest, scan, changed };

/** What a poll costs: `calls` (a floor when `atLeast`), and how that is known. */
interface Cost {
	calls: number;
	atLeast?: boolean;
	how: string;
}

/**
 * Manual run ("Fetch Test Event"): the most recent matching record of the first page (one
 * call), and what a poll would cost as far as that call tells.
 */
async function testEvent(src: Source, windowDays: number): Promise<{ records: IDataObject[]; cost: Cost }> {
	const first = (await pages(src).next()).value as { entries: IDataObject[]; body: unknown } | undefined;
	const entries = first?.entries ?? [];
	const candidates = entries.filter(src.matches);
	const times = entries.map(src.time);
	const newestFirst =
		src.event.strategy === 'newest' && !!first && confirmsSort(src, first.body) && times.every((t, i) => t !== undefined && (i === 0 || t <= (times[i - 1] as number)));
	const more = !!first && entries.length > 0 && hasMore(src.op, first.body, entries, src.op.perPage ?? 200);
	const cost: Cost = windowDays
		? { calls: windowDays, atLeast: true, how: `one call a day of the ${windowDays}-day window, one more per further 200 records of a day` }
		: newestFirst
			? { calls: 1, how: 'the list is read newest first, down to the records already seen: one call when nothing is new' }
			: more
				? { calls: 2, atLeast: true, how: `every page of the list is read, one call per 200 records, and it has more than one page` }
				: { calls: 1, how: 'the list fits one page' };
	const best = src.event.timeField
		? candidates.reduce<IDataObject | undefined>((b, r) => (!b || (src.time(r) ?? -Infinity) > (src.time(b) ?? -Infinity) ? r : b), undefined)
		: candidates[0];
	return { records: best ? [best] : [], cost };
}

// ---------------------------------------------------------------- daily budget

/**
 * Calls spent by the trigger's real polls, in its static data. `spent` counts the calls of the
 * UTC day `day`; `credit` spaces the polls: it grows by the budget over a day (up to two polls'
 * worth or an hour's share, whichever is more), each poll takes its calls from it, and a poll
 * waits until it holds what the last poll cost.
 */
interface Budget {
	day: string;
	spent: number;
	credit: number;
	/** When `credit` was brought up to date (epoch ms). */
	at: number;
	/** Calls of the last real poll of the state `sig` (a floor when that poll was cut short by the budget). */
	cost?: number;
	sig?: string;
	/** UTC day the cost was last logged as over the budget. */
	warned?: string;
	/** UTC day a poll was last failed for costing more than the whole budget. */
	failed?: string;
}

const DAY_MS = 86_400_000;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The budget state at `now` (a new day starts at 0 spent; credit refilled for the time passed). */
function budgetAt(stored: Budget | undefined, sig: string, max: number, now: number): Budget {
	const estimate = stored?.sig === sig ? (stored.cost ?? 1) : 1;
	const cap = Math.max(2 * estimate, max / 24);
	const day = utcDay(now);
	if (!stored) return { day, spent: 0, credit: cap, at: now };
	const credit = Math.min(cap, stored.credit + (Math.max(0, now - stored.at) * max) / DAY_MS);
	return { ...stored, day, spent: stored.day === day ? stored.spent : 0, credit, at: now };
}

interface PollTime {
	mode?: string;
	value?: number;
	unit?: string;
	cronExpression?: string;
}

/** n8n's Poll Times: how many polls a day (undefined when a cron expression cannot be read here) and how they read. */
interface Schedule {
	perDay?: number;
	text: string;
}

const CRON_NAMES: Record<number, string[]> = { 3: [], 4: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'], 5: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] };

/** The values a cron field allows (numbers, names, `*`, `?`, ranges, steps, lists), or undefined. */
function cronField(field: string, min: number, max: number, names: string[] = []): Set<number> | undefined {
	const out = new Set<number>();
	const num = (v: string) => (names.includes(v) ? names.indexOf(v) + (min === 1 ? 1 : 0) : /^\d+$/.test(v) ? Number(v) : NaN);
	for (const part of field.toUpperCase().split(',')) {
		const m = /^(\*|\?|([A-Z0-9]+)(?:-([A-Z0-9]+))?)(?:\/(\d+))?$/.exec(part);
		if (!m) return undefined;
		const from = m[2] === undefined ? min : num(m[2]);
		const to = m[3] !== undefined ? num(m[3]) : m[2] === undefined || m[4] !== undefined ? max : from;
		const step = m[4] === undefined ? 1 : Number(m[4]);
		if (![from, to].every(Number.isInteger) || step < 1) return undefined;
		for (let v = from; v <= to; v += step) out.add(v);
	}
	return out;
}

/** Runs a day of a cron expression (5 fields, or 6 with seconds first), the days averaged over a year. */
function cronPerDay(expression: string): number | undefined {
	const fields = expression.trim().split(/\s+/);
	if (fields.length === 5) fields.unshift('0');
	if (fields.length !== 6) return undefined;
	const [sec, min, hour, dom, month, dow] = [[0, 59], [0, 59], [0, 23], [1, 31], [1, 12], [0, 7]].map(([lo, hi], i) => cronField(fields[i], lo, hi, CRON_NAMES[i]));
	if (!sec || !min || !hour || !dom || !month || !dow) return undefined;
	if (dow.has(7)) dow.add(0);
	const anyDom = /^[*?]$/.test(fields[3]);
	const anyDow = /^[*?]$/.test(fields[5]);
	let days = 0;
	for (let d = Date.UTC(2025, 0, 1); d < Date.UTC(2026, 0, 1); d += DAY_MS) {
		const date = new Date(d);
		const byDom = dom.has(date.getUTCDate());
		const byDow = dow.has(date.getUTCDay());
		if (month.has(date.getUTCMonth() + 1) && (anyDom || anyDow ? byDom && byDow : byDom || byDow)) days++;
	}
	return (sec.size * min.size * hour.size * days) / 365;
}

/** The node's Poll Times (the parameter n8n adds to every polling node). */
function pollSchedule(ctx: IPollFunctions): Schedule {
	let times: PollTime[] = [];
	try {
		times = ((ctx.getNodeParameter('pollTimes', {}) as { item?: PollTime[] }).item ?? []).filter((t) => t && typeof t === 'object');
	} catch {
		// not on this node (a test harness): unknown
	}
	if (!times.length) return { text: 'not set' };
	const each = times.map((t): [number | undefined, string] => {
		switch (t.mode) {
			case 'everyMinute':
				return [1440, 'every minute'];
			case 'everyHour':
				return [24, 'every hour'];
			case 'everyDay':
				return [1, 'every day'];
			case 'everyWeek':
				return [1 / 7, 'every week'];
			case 'everyMonth':
				return [12 / 365, 'every month'];
			case 'everyX': {
				const v = Math.max(1, Number(t.value) || 1);
				return t.unit === 'hours' ? [Math.ceil(24 / v), `every ${v} hours`] : [24 * Math.ceil(60 / v), `every ${v} minutes`];
			}
			default:
				return [cronPerDay(String(t.cronExpression ?? '')), `cron "${String(t.cronExpression ?? '')}"`];
		}
	});
	const perDay = each.every(([n]) => n !== undefined) ? each.reduce((sum, [n]) => sum + (n as number), 0) : undefined;
	return { perDay, text: each.map(([, text]) => text).join(', ') };
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** What a poll costs at the node's Poll Times against its budget, in words (the log's warning, the test event's field). */
function costInWords(cost: Cost, schedule: Schedule, max: number): { perDay?: number; over: boolean; text: string } {
	const calls = `${cost.atLeast ? 'at least ' : ''}${count(cost.calls)} API call${cost.calls === 1 && !cost.atLeast ? '' : 's'}`;
	const perDay = schedule.perDay === undefined ? undefined : cost.calls * schedule.perDay;
	const over = perDay !== undefined && perDay > max;
	const budget = `Max API Calls per Day (${count(max)})`;
	const daily =
		perDay === undefined
			? `Its Poll Times (${schedule.text}) cannot be counted here; it makes at most ${budget}.`
			: `At its Poll Times (${schedule.text}: ${count(schedule.perDay as number)} polls a day) that is ${cost.atLeast ? 'at least ' : ''}${count(perDay)} calls a day, ${
					over ? `above its ${budget}: polls are spaced to about one every ${count(Math.max(1, (cost.calls * 1440) / max))} minutes` : `within its ${budget}`
				}.`;
	return { perDay, over, text: `A poll costs ${calls} (${cost.how}). ${daily}` };
}

/** The user's "Max API Calls per Day". */
function maxCallsPerDay(ctx: IPollFunctions): number {
	const max = Math.floor(Number(ctx.getNodeParameter('maxCallsPerDay', DEFAULT_MAX_CALLS_PER_DAY)));
	return Number.isFinite(max) && max >= 1 ? max : DEFAULT_MAX_CALLS_PER_DAY;
}

/** Today (yyyy-mm-dd) in the workflow's time zone. */
function localDay(ctx: IPollFunctions, now: number): string {
	const parts = new Intl.DateTimeFormat('en-CA', { timeZone: ctx.getTimezone(), year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
	const part = (type: string) => parts.find((p) => p.type === type)?.value;
	return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The days of a date window, newest first: the last `days` days to `today`, and back to the last poll's day (at most 31 days back). */
function windowDates(today: string, days: number, lastDay?: string): string[] {
	const end = Date.parse(`${today}T00:00:00Z`);
	const last = lastDay ? Date.parse(`${lastDay}T00:00:00Z`) : NaN;
	let start = end - (days - 1) * DAY_MS;
	if (last < start) start = Math.max(last, end - 30 * DAY_MS);
	const out: string[] = [];
	for (let d = end; d >= start; d -= DAY_MS) out.push(utcDay(d));
	return out;
}

// ---------------------------------------------------------------- poll

function readTriggerValues(ctx: IPollFunctions, event: TriggerEvent, op: Operation): IDataObject {
	const values: IDataObject = {};
	for (const field of requiredFields(op)) {
		const value = fromUi(field, ctx.getNodeParameter(field.name, undefined, { extractValue: true }));
		if (value !== undefined) values[field.name] = value as IDataObject;
	}
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	for (const field of filterFields(event, op)) {
		const value = fromUi(field, filters[field.name]);
		if (value !== undefined) values[field.name] = value as IDataObject;
	}
	return values;
}

/** One poll of a trigger node: what is new since the last poll, oldest first. */
export async function pollArea(ctx: IPollFunctions, area: Area, events: TriggerEvent[]): Promise<INodeExecutionData[][] | null> {
	// before any request: at activation, when activation began (to the second)
	const began = Math.floor(Date.now() / 1000) * 1000;
	const eventValue = ctx.getNodeParameter('event') as string;
	const event = events.find((e) => e.value === eventValue);
	if (!event) throw new NodeOperationError(ctx.getNode(), `Unknown event "${eventValue}"`);
	const { resource, op } = findOperation(area, event.resource, event.operation);
	let organizationId: string | undefined;
	if (area.org) {
		organizationId = String(ctx.getNodeParameter('organizationId', '', { extractValue: true }) ?? '').trim();
		if (!organizationId) throw inputFailure(ctx.getNode(), new InputError('Organization ID is required'), { description: 'Nothing was sent to the API.' });
	}
	const refused = 'Nothing was sent to the API. Correct the value and activate again.';
	let values: IDataObject;
	try {
		values = readTriggerValues(ctx, event, op);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { description: refused });
	}
	const problems: Problem[] = [];
	let status: string | undefined;
	if (event.status) {
		status = String(ctx.getNodeParameter('status', '') ?? '');
		if (!event.status.values.includes(status)) problems.push({ field: 'status', message: `must be one of ${event.status.values.join(', ')}` });
	}
	try {
		checkValues(op, values, problems);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { description: refused });
	}
	const req = nodeRequest(ctx.getNode(), area, op, values, organizationId, refused);
	const statusFilter = status !== undefined && event.status?.filter ? { [event.status.filter]: status } : {};
	req.qs = { ...event.query, ...req.qs, ...event.sort, ...statusFilter };
	const keyFields = event.key ?? [resource.idField ?? 'id'];
	const statusField = event.status?.field;
	const src: Source = {
		ctx,
		area,
		op,
		req,
		reads: [req],
		meter: { calls: 0, left: Infinity },
		event,
		key: (r) => keyFields.map((k) => String(r[k] ?? '')).join(':'),
		time: (r) => (event.timeField ? timeOf(r[event.timeField]) : undefined),
		matches: (r) => status === undefined || !statusField || String(r[statusField]) === status,
	};
	const emit = (records: IDataObject[]) => (records.length ? [ctx.helpers.returnJsonArray(records)] : null);
	const windowDays = event.window ? Math.max(0, Math.floor(Number(ctx.getNodeParameter('windowDays', 0)) || 0)) : 0;
	const staticData = ctx.getWorkflowStaticData('node');
	const sig = createHash('sha1')
		.update(JSON.stringify([event.value, event.strategy, status ?? null, organizationId ?? null, values, req.qs, ...(windowDays ? [windowDays] : [])]))
		.digest('base64')
		.slice(0, 16);
	const max = maxCallsPerDay(ctx);
	const schedule = pollSchedule(ctx);
	const now = Date.now();
	const budget = budgetAt(staticData[BUDGET_KEY] as Budget | undefined, sig, max, now);
	const estimate = budget.sig === sig ? budget.cost : undefined;
	if (ctx.getMode() === 'manual') {
		// Fetch Test Event: what a poll costs travels with the test item only (real events never carry it).
		const test = await testEvent(src, windowDays);
		const cost = estimate === undefined ? test.cost : { calls: estimate, how: 'measured by the last poll of this trigger' };
		const words = costInWords(cost, schedule, max);
		const _pollCost = { callsPerPoll: cost.calls, atLeast: !!cost.atLeast, pollsPerDay: schedule.perDay ?? null, callsPerDay: words.perDay ?? null, maxCallsPerDay: max, summary: words.text };
		return emit(test.records.map((r) => ({ ...r, _pollCost })));
	}
	const atActivation = isActivationPoll(ctx);
	staticData[BUDGET_KEY] = budget as unknown as IDataObject;
	const stored = staticData[STATE_KEY] as PollState | undefined;
	const previous = stored?.sig === sig ? stored : undefined;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const fromExisting = options.startFromExisting === true;
	const today = windowDays ? localDay(ctx, now) : undefined;
	if (today) src.reads = windowDates(today, windowDays, previous?.day).map((day) => ({ ...req, qs: { ...req.qs, [(event.window as NonNullable<TriggerEvent['window']>).filter]: day } }));
	const day = budget.day;
	const where = `"${ctx.getNode().name}" of workflow "${ctx.getWorkflow().name ?? ''}"`;
	const meta = { workflowId: ctx.getWorkflow().id, nodeName: ctx.getNode().name };
	const warnCost = (cost: Cost) => {
		const words = costInWords(cost, schedule, max);
		if (!words.over || (!atActivation && budget.warned === day)) return;
		budget.warned = day;
		ctx.logger.warn(`The Vendor trigger ${where}: ${words.text} Raise Max API Calls per Day within the organization's daily allowance (shared by every integration), poll less often or narrow the filters.`, meta);
	};
	// Without a baseline: pending since activation, every record, or what this read lists from a later second than it began.
	const from = previous?.since ?? (fromExisting ? -Infinity : began + 1000);
	const skip = () => {
		// No baseline could be taken: remember when activation began (a state, even a pending one, is kept).
		if (!previous && !fromExisting) staticData[STATE_KEY] = { sig, since: began } as IDataObject;
		return null;
	};
	// A poll that would overspend is skipped without a call: over the day's budget, or (with a baseline) sooner than the spacing allows.
	const need = estimate ?? 1;
	if (estimate !== undefined && estimate > max) {
		if (atActivation || budget.failed === day) return skip();
		budget.failed = day;
		throw new NodeOperationError(ctx.getNode(), `A poll of this trigger needs at least ${count(estimate)} API calls, more than its Max API Calls per Day (${count(max)}): it does not poll`, {
			description: 'No call was made. Raise Max API Calls per Day within your plan, narrow the filters (or the date window), or choose another event. This error is reported once a day.',
		});
	}
	const baseline = previous !== undefined && previous.since === undefined;
	if (budget.spent + need > max || (baseline && budget.credit < need)) {
		ctx.logger.debug(`The Vendor trigger ${where} skipped a poll to stay within its Max API Calls per Day (${count(max)}; ${count(budget.spent)} spent today)`, meta);
		if (estimate !== undefined) warnCost({ calls: estimate, how: 'the last poll' });
		return skip();
	}
	src.meter.left = max - budget.spent;
	let cut = false;
	let outcome: Outcome | undefined;
	try {
		// Failures pass as they are (the engine's NodeApiError / NodeOperationError), except a transient one at activation.
		outcome = await STRATEGIES[event.strategy](src, previous, from).catch((error: unknown) => {
			if (error instanceof BudgetSpent) cut = true;
			else if (!outlastsFailure(ctx, error, atActivation)) throw error;
			return undefined;
		});
	} finally {
		budget.spent += src.meter.calls;
		budget.credit -= src.meter.calls;
	}
	if (outcome || cut) {
		budget.sig = sig;
		budget.cost = cut ? Math.max(estimate ?? 0, src.meter.calls + 1) : src.meter.calls;
		warnCost({ calls: budget.cost, atLeast: cut, how: cut ? 'cut short by the day\'s budget' : 'the last poll' });
	}
	if (!outcome) return skip();
	staticData[STATE_KEY] = { sig, ...outcome.state, ...(today ? { day: today } : {}) } as IDataObject;
	return emit(outcome.emitted);
}
