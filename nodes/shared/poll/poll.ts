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
import { listPages } from '../api/pages';
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
}

const STATE_KEY = 'vendorPoll';

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

interface Source {
	ctx: IPollFunctions;
	area: Area;
	op: Operation;
	req: ApiRequest;
	event: TriggerEvent;
	key: (r: IDataObject) => string;
	time: (r: IDataObject) => number | undefined;
	matches: (r: IDataObject) => boolean;
}

/** The list's pages, one call each, until the answer says there is no more. */
function pages(src: Source): AsyncGenerator<{ entries: IDataObject[]; body: unknown }> {
	return listPages(src.ctx, src.area, src.op, src.req);
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
		const asked = src.req.qs.sort_order;
		const answered = pageContext(body)?.sort_order;
		if (asked !== undefined && answered !== undefined && answered !== asked) sorted = false;
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

/** Manual run: the most recent matching record of the first page (one call). */
async function mostRecent(src: Source): Promise<IDataObject[]> {
	const first = await pages(src).next();
	const candidates: IDataObject[] = (first.value?.entries ?? []).filter(src.matches);
	if (!candidates.length) return [];
	if (!src.event.timeField) return [candidates[0]];
	return [candidates.reduce((best: IDataObject, r: IDataObject) => ((src.time(r) ?? -Infinity) > (src.time(best) ?? -Infinity) ? r : best))];
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
		event,
		key: (r) => keyFields.map((k) => String(r[k] ?? '')).join(':'),
		time: (r) => (event.timeField ? timeOf(r[event.timeField]) : undefined),
		matches: (r) => status === undefined || !statusField || String(r[statusField]) === status,
	};
	const emit = (records: IDataObject[]) => (records.length ? [ctx.helpers.returnJsonArray(records)] : null);
	if (ctx.getMode() === 'manual') return emit(await mostRecent(src));
	const atActivation = isActivationPoll(ctx);

	const staticData = ctx.getWorkflowStaticData('node');
	const sig = createHash('sha1')
		.update(JSON.stringify([event.value, event.strategy, status ?? null, organizationId ?? null, values, req.qs]))
		.digest('base64')
		.slice(0, 16);
	const stored = staticData[STATE_KEY] as PollState | undefined;
	const previous = stored?.sig === sig ? stored : undefined;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const fromExisting = options.startFromExisting === true;
	// Without a baseline: pending since activation, every record, or what this read lists from a later second than it began.
	const from = previous?.since ?? (fromExisting ? -Infinity : began + 1000);
	// Failures pass as they are (the engine's NodeApiError / NodeOperationError), except a transient one at activation.
	const outcome = await STRATEGIES[event.strategy](src, previous, from).catch((error: unknown) => {
		if (outlastsFailure(ctx, error, atActivation)) return undefined;
		throw error;
	});
	if (!outcome) {
		// No baseline could be taken: remember when activation began (a state, even a pending one, is kept).
		if (!previous && !fromExisting) staticData[STATE_KEY] = { sig, since: began } as IDataObject;
		return null;
	}
	staticData[STATE_KEY] = { sig, ...outcome.state } as IDataObject;
	return emit(outcome.emitted);
}
