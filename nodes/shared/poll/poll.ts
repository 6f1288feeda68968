// Polling (poll/): owns the triggers' poll (pollArea); imports tables/, api/, run/ and poll/.
/**
 * Polling triggers: one engine for every area, driven by the list operations of the field
 * tables (`buildRequest`, the engine's `listPages`, `pageContext`) and a small declarative
 * table of events per trigger node (`nodes/<Node>Trigger/events.ts`). The service sends
 * no events (the documents show none), so every trigger polls.
 *
 * The parts: the description (./description.ts) of the events (./event.ts); reading the list
 * (./read.ts) by a strategy (./strategies.ts); the daily budget (./budget.ts) against the
 * Poll Times (./schedule.ts); the date window (./window.ts); Fetch Test Event (./testEvent.ts);
 * the poll at activation (./activation.ts).
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
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findOperation } from '../run/reader';
import { fromUi, InputError, inputFailure, nodeRequest } from '../api/request';
import type { Area, Operation } from '../tables/spec';
import { checkValues } from '../tables/validate';
import type { Problem } from '../tables/validate';
import { isActivationPoll, outlastsFailure } from './activation';
import { budgetAt, BudgetSpent, maxCallsPerDay } from './budget';
import type { Budget, Cost } from './budget';
import { filterFields, requiredFields } from './description';
import type { TriggerEvent } from './event';
import { timeOf } from './read';
import type { Source } from './read';
import { costInWords, count, pollSchedule } from './schedule';
import { STRATEGIES } from './strategies';
import type { Outcome, PollState } from './strategies';
import { testEvent } from './testEvent';
import { localDay, windowDates } from './window';

const STATE_KEY = 'vendorPoll';
const BUDGET_KEY = 'vendorBudget';

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
			description: 'No call was made. Raise Max API Calls per Day within your plan, narrow the filters (or the date window), or choose another event. This is reported once a day.',
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
