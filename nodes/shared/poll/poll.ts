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
 * The poll at activation (./activation.ts) never waits on the service: n8n gives the activation
 * a deadline (84 s on n8n 2.41), so its requests fail at once on a transient failure
 * (failFast patience on the poll's run state, api/run.ts: a held pacer, a 429, a 5xx, no answer, a token endpoint that
 * does not answer), the activation keeps the trigger and the next scheduled poll catches up;
 * holds learned there apply to the later polls. When that poll reads the list, what it reads is
 * the baseline, emitted or not: for `newest` the cursor is the newest second the service holds
 * and the ids it answered in it, so a record of that second that was not there yet is emitted
 * by the next poll, once, and one that was there is not. Without a state after a failed
 * activation poll (first activation, or the event or filters changed), the time activation
 * began is kept instead (`since`), on the service's clock (its answers' Date headers: n8n's
 * clock may be minutes off), to the second; the first poll that succeeds takes the baseline
 * and emits, once, the records placed at or after it by their time field (created; modified
 * for status and update events; trashed for the bin), the activation's own second included (a
 * record made in that second just before activation began cannot be told apart). A record whose
 * time field has no time of day (a payment's `date`) or an event without one (items) cannot be
 * placed, so it becomes part of the baseline. With a state (a restart of n8n, a re-save) the
 * state is simply kept. With "Start From Existing Records" on, nothing is kept: the first poll
 * that succeeds emits every existing record.
 *
 * Every call the service sees is counted against the daily budget (./meter.ts), and n8n's first
 * scheduled poll right after an activation poll that read the list is skipped without a call.
 *
 * One poll of a trigger runs at a time in this process (./overlap.ts: n8n's cron starts a poll at
 * every tick, also while the last one runs), and every poll has a deadline (30 s, or a faster
 * Poll Times' interval): no wait ends past it (the run state's patience with a time), and a read that reaches
 * it goes on at the next poll (./strategies.ts). A transient failure at a scheduled poll fails it
 * (n8n saves an error execution and runs the error workflow; the state is kept): truthful, where a
 * warning in n8n's log would hide an outage from most users.
 */
import { createHash } from 'crypto';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findOperation } from '../run/reader';
import { SERVER_CLOCKS } from '../api/clock';
import { inputFailure } from '../api/nodeErrors';
import { fromUi, nodeRequest } from '../api/request';
import type { ApiRequest } from '../api/request';
import { areaRoot, RunState } from '../api/transport';
import { InputError } from '../tables/inputError';
import type { Area, Operation } from '../tables/spec';
import { checkValues } from '../tables/validate';
import type { Problem } from '../tables/problemText';
import { isActivationPoll, outlastsFailure } from './activation';
import { budgetAt, DAY_MS, maxCallsPerDay } from './budget';
import type { Budget, Cost } from './budget';
import { filterFields, requiredFields } from './description';
import type { TriggerEvent } from './event';
import { keep, recall } from './kept';
import { startMeter } from './meter';
import { logOverlap, MARK_MARGIN_MS, markPoll, pollDeadlineMs } from './overlap';
import type { PollMark } from './overlap';
import { timeOf } from './read';
import type { Source } from './read';
import { costInWords, count, pollSchedule } from './schedule';
import { STRATEGIES } from './strategies';
import type { Outcome, PollState } from './strategies';
import { testEvent } from './testEvent';
import { localDay, windowDates } from './window';

const STATE_KEY = 'vendorPoll';
const BUDGET_KEY = 'vendorBudget';
/** What a poll keeps in this process too (./kept.ts). */
const KEPT_KEYS = [STATE_KEY, BUDGET_KEY] as const;

function readTriggerValues(ctx: IPollFunctions, event: TriggerEvent, op: Operation): IDataObject {
	const values: IDataObject = {};
	// a date given as a moment (a DateTime, a Date) is the day it falls on in the workflow's time zone, as in the action nodes
	const zone = ctx.getTimezone();
	for (const field of requiredFields(op)) {
		const value = fromUi(
			field,
			ctx.getNodeParameter(field.name, undefined, { extractValue: true }),
			undefined,
			{ zone },
		);
		if (value !== undefined) values[field.name] = value as IDataObject;
	}
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	for (const field of filterFields(event, op)) {
		const value = fromUi(field, filters[field.name], undefined, { zone });
		if (value !== undefined) values[field.name] = value as IDataObject;
	}
	return values;
}

/** What a poll asks for, read from the node's parameters and checked before anything is sent. */
interface Setup {
	event: TriggerEvent;
	op: Operation;
	idField: string;
	organizationId?: string;
	values: IDataObject;
	status?: string;
	req: ApiRequest;
}

function readSetup(ctx: IPollFunctions, area: Area, events: TriggerEvent[]): Setup {
	const eventValue = ctx.getNodeParameter('event') as string;
	const event = events.find((e) => e.value === eventValue);
	if (!event) throw new NodeOperationError(ctx.getNode(), `Unknown event "${eventValue}"`);
	const { resource, op } = findOperation(area, event.resource, event.operation);
	let organizationId: string | undefined;
	if (area.org) {
		organizationId = String(
			ctx.getNodeParameter('organizationId', '', { extractValue: true }) ?? '',
		).trim();
		if (!organizationId)
			throw inputFailure(ctx.getNode(), new InputError('Organization ID is required'), {
				description: 'Nothing was sent to the API.',
			});
	}
	const refused = 'Nothing was sent to the API. Correct the value and activate again.';
	const problems: Problem[] = [];
	let status: string | undefined;
	if (event.status) {
		status = String(ctx.getNodeParameter('status', '') ?? '');
		if (!event.status.values.includes(status))
			problems.push({
				field: 'status',
				message: `must be one of ${event.status.values.join(', ')}`,
			});
	}
	let values: IDataObject;
	try {
		values = readTriggerValues(ctx, event, op);
		checkValues(op, values, problems);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { description: refused });
	}
	const req = nodeRequest(ctx.getNode(), area, op, values, organizationId, refused);
	const statusFilter =
		status !== undefined && event.status?.filter ? { [event.status.filter]: status } : {};
	req.qs = { ...event.query, ...req.qs, ...event.sort, ...statusFilter };
	return { event, op, idField: resource.idField ?? 'id', organizationId, values, status, req };
}

function sourceOf(
	run: RunState<IPollFunctions>,
	area: Area,
	setup: Setup,
	serviceTime: () => number,
): Source {
	const { event, op, req, status } = setup;
	const keyFields = event.key ?? [setup.idField];
	const statusField = event.status?.field;
	return {
		ctx: run.ctx,
		run,
		area,
		op,
		req,
		reads: [req],
		meter: { calls: 0, own: 0, left: Infinity, until: Infinity },
		event,
		idField: keyFields.length === 1 ? keyFields[0] : undefined,
		// ids compared as text: exact digits (ids past 2^53 arrive as strings)
		key: (r) => keyFields.map((k) => String(r[k] ?? '')).join(':'),
		time: (r) => (event.timeField ? timeOf(r[event.timeField]) : undefined),
		matches: (r) => status === undefined || !statusField || String(r[statusField]) === status,
		serviceTime,
	};
}

const emit = (ctx: IPollFunctions, records: IDataObject[]) =>
	records.length ? [ctx.helpers.returnJsonArray(records)] : null;

/** One poll of a trigger node: what is new since the last poll, oldest first. */
export async function pollArea(
	ctx: IPollFunctions,
	area: Area,
	events: TriggerEvent[],
): Promise<INodeExecutionData[][] | null> {
	// before any request: when this poll (at activation: the activation) began
	const began = Date.now();
	const setup = readSetup(ctx, area, events);
	// the state of this poll, handed to its every request (api/run.ts); the credential is read once for the poll
	const run = new RunState(ctx);
	const server = areaRoot(area, await run.credentials());
	// the service's clock (its answers' Date headers), to the second its timestamps have
	const src = sourceOf(
		run,
		area,
		setup,
		() => Math.floor(SERVER_CLOCKS.now(server, began) / 1000) * 1000,
	);
	const windowDays = setup.event.window
		? Math.max(0, Math.floor(Number(ctx.getNodeParameter('windowDays', 0)) || 0))
		: 0;
	const { event, status, organizationId, values, req } = setup;
	const sig = createHash('sha1')
		.update(
			JSON.stringify([
				event.value,
				event.strategy,
				status ?? null,
				organizationId ?? null,
				values,
				req.qs,
				...(windowDays ? [windowDays] : []),
			]),
		)
		.digest('base64')
		.slice(0, 16);
	const staticData = ctx.getWorkflowStaticData('node');
	const max = maxCallsPerDay(ctx);
	if (ctx.getMode() === 'manual')
		return await manualPoll(
			src,
			budgetAt(staticData[BUDGET_KEY] as Budget | undefined, sig, max, Date.now()),
			max,
			windowDays,
			sig,
		);
	const atActivation = isActivationPoll(ctx);
	// one poll of a trigger at a time: n8n's cron starts the next poll at its tick even while this one runs
	const deadlineMs = pollDeadlineMs(ctx);
	const mark = markPoll(ctx, deadlineMs + MARK_MARGIN_MS);
	if (!mark) {
		logOverlap(ctx);
		return null;
	}
	// n8n gives the activation a deadline: its poll never waits on the service (the next scheduled poll catches up);
	// no wait of any poll ends past the poll's own deadline
	const patienceNow = atActivation ? 'failFast' : 'wait';
	run.setPatience(patienceNow, began + deadlineMs);
	// what n8n gave back may be older than what this process's last poll left (n8n's durable scheduler saves a quiet poll's state not at all)
	const trigger = [ctx.getWorkflow().id, ctx.getNode().name] as const;
	recall(...trigger, staticData, KEPT_KEYS, sig);
	try {
		const budget = budgetAt(staticData[BUDGET_KEY] as Budget | undefined, sig, max, Date.now());
		staticData[BUDGET_KEY] = budget as unknown as IDataObject;
		// a read that cannot go on at the next poll (an answer not sorted as asked: read to its end) is given the deadline again at each page
		const progressed = () => {
			mark.renew();
			if (src.meter.until === Infinity) run.setPatience(patienceNow, Date.now() + deadlineMs);
		};
		return await scheduledPoll({
			src,
			budget,
			max,
			sig,
			staticData,
			windowDays,
			atActivation,
			until: began + deadlineMs,
			progressed,
			mark,
		});
	} finally {
		keep(...trigger, staticData, KEPT_KEYS, sig);
		mark.release();
	}
}

/** Fetch Test Event: what a poll costs travels with the test item only (real events never carry it). */
async function manualPoll(
	src: Source,
	budget: Budget,
	max: number,
	windowDays: number,
	sig: string,
): Promise<INodeExecutionData[][] | null> {
	const estimate = budget.sig === sig ? budget.cost : undefined;
	const test = await testEvent(src, windowDays);
	const cost =
		estimate === undefined
			? test.cost
			: { calls: estimate, how: 'measured by the last poll of this trigger' };
	const schedule = pollSchedule(src.ctx);
	const passPolls = budget.sig === sig ? budget.passPolls : undefined;
	const words = costInWords({ ...cost, passPolls }, schedule, max);
	const _pollCost = {
		callsPerPoll: cost.calls,
		atLeast: !!cost.atLeast,
		pollsPerPass: passPolls ?? 1,
		pollsPerDay: schedule.perDay ?? null,
		callsPerDay: words.perDay ?? null,
		maxCallsPerDay: max,
		summary: words.text,
	};
	return emit(
		src.ctx,
		test.records.map((r) => ({ ...r, _pollCost })),
	);
}

interface Run {
	src: Source;
	budget: Budget;
	max: number;
	sig: string;
	staticData: IDataObject;
	windowDays: number;
	atActivation: boolean;
	/** The poll's deadline (epoch ms): a read of a whole list stops there and goes on at the next poll. */
	until: number;
	/** After each page read: the overlap mark renewed (and a read newest first given the deadline again). */
	progressed: () => void;
	mark: PollMark;
}

/** Logs (at activation, then once a UTC day) when what a poll costs at the Poll Times passes the budget. */
function warnCost(run: Run, cost: Cost): void {
	const { src, budget, max, atActivation } = run;
	const ctx = src.ctx;
	const words = costInWords(
		{ ...cost, passPolls: budget.sig === run.sig ? budget.passPolls : undefined },
		pollSchedule(ctx),
		max,
	);
	if (!words.over || (!atActivation && budget.warned === budget.day)) return;
	budget.warned = budget.day;
	const where = `"${ctx.getNode().name}" of workflow "${ctx.getWorkflow().name ?? ''}"`;
	ctx.logger.warn(
		`The Vendor trigger ${where}: ${words.text} Raise Max API Calls per Day within the organization's daily allowance (shared by every integration), poll less often or narrow the filters.`,
		{
			workflowId: ctx.getWorkflow().id,
			nodeName: ctx.getNode().name,
		},
	);
}

/**
 * How soon after a poll at activation that read the list n8n's first scheduled poll is skipped:
 * within half the Poll Times' interval (the tick that follows the activation at once, e.g. 2.7 s
 * later), and never later than the spacing the budget allows between polls.
 */
function soonAfter(ctx: IPollFunctions, need: number, max: number): number {
	const perDay = pollSchedule(ctx).perDay;
	const spacing = (DAY_MS * need) / max;
	return perDay ? Math.min(spacing, DAY_MS / perDay / 2) : spacing;
}

/**
 * Whether this poll is skipped without a call: over the day's budget, sooner than the spacing
 * allows once a baseline is taken, or n8n's first scheduled poll right after a poll at
 * activation that read the list (it would read the same list again: it spends nothing).
 */
function skipsForBudget(run: Run, previous: PollState | undefined): boolean {
	const { src, budget, max, sig, atActivation } = run;
	const estimate = budget.sig === sig ? budget.cost : undefined;
	const need = estimate ?? 1;
	const activated = budget.activated;
	delete budget.activated;
	if (
		!atActivation &&
		activated !== undefined &&
		Date.now() - activated < soonAfter(src.ctx, need, max)
	)
		return true;
	const baseline = previous !== undefined && previous.since === undefined;
	if (budget.spent + need <= max && !(baseline && budget.credit < need)) return false;
	const ctx = src.ctx;
	ctx.logger.debug(
		`The Vendor trigger "${ctx.getNode().name}" of workflow "${ctx.getWorkflow().name ?? ''}" skipped a poll to stay within its Max API Calls per Day (${count(max)}; ${count(budget.spent)} spent today)`,
		{
			workflowId: ctx.getWorkflow().id,
			nodeName: ctx.getNode().name,
		},
	);
	if (estimate !== undefined) warnCost(run, { calls: estimate, how: 'the last poll' });
	return true;
}

/** A real poll (at activation or scheduled): the budget, the read, the state. */
async function scheduledPoll(run: Run): Promise<INodeExecutionData[][] | null> {
	const { src, budget, max, sig, staticData, windowDays, atActivation } = run;
	const ctx = src.ctx;
	const stored = staticData[STATE_KEY] as PollState | undefined;
	const previous = stored?.sig === sig ? stored : undefined;
	const fromExisting =
		(ctx.getNodeParameter('options', {}) as IDataObject).startFromExisting === true;
	const today = windowDays ? localDay(ctx, Date.now()) : undefined;
	if (today)
		src.reads = windowDates(today, windowDays, previous?.day).map((day) => ({
			...src.req,
			qs: {
				...src.req.qs,
				[(src.event.window as NonNullable<TriggerEvent['window']>).filter]: day,
			},
		}));
	// Without a baseline: pending since activation (the service's time), every record, or none (this read is the baseline).
	const from = previous?.since ?? (fromExisting ? -Infinity : Infinity);
	const skip = () => {
		// No baseline could be taken: remember when activation began, on the service's clock (a state, even a pending one, is kept).
		if (!previous && !fromExisting)
			staticData[STATE_KEY] = { sig, since: src.serviceTime() } as IDataObject;
		return null;
	};
	const estimate = budget.sig === sig ? budget.cost : undefined;
	if (estimate !== undefined && estimate > max) {
		if (atActivation || budget.failed === budget.day) return skip();
		budget.failed = budget.day;
		throw new NodeOperationError(
			ctx.getNode(),
			`A poll of this trigger needs at least ${count(estimate)} API calls, more than its Max API Calls per Day (${count(max)}): it does not poll`,
			{
				description:
					'No call was made. Raise Max API Calls per Day within your plan, narrow the filters (or the date window), or choose another event. This is reported once a day.',
			},
		);
	}
	if (skipsForBudget(run, previous)) return skip();
	src.meter = startMeter(src.run, max - budget.spent, run.until, run.progressed);
	const outcome = await readOutcome(run, previous, from);
	const cut = src.meter.cut === true;
	if (outcome || cut) {
		if (budget.sig !== sig) {
			delete budget.passPolls;
			delete budget.passAtLeast;
		}
		budget.sig = sig;
		// the calls of this poll: a resend after a wait (a 429's hold, a 5xx's retry) is spent, not the poll's cost
		budget.cost = cut ? Math.max(estimate ?? 0, src.meter.own + 1) : src.meter.own;
		if (outcome?.pass) notePass(run, outcome.pass);
		warnCost(run, {
			calls: budget.cost,
			atLeast: cut,
			how: cut ? "cut short by the day's budget" : 'the last poll',
		});
	}
	if (!outcome) return skip();
	if (atActivation) budget.activated = Date.now();
	// a date window's newest day moves on once the pass over it is complete
	const day = today && outcome.pass?.done !== false ? { day: today } : {};
	staticData[STATE_KEY] = { sig, ...outcome.state, ...day } as IDataObject;
	return emit(ctx, outcome.emitted);
}

/**
 * What a poll did of a read of the whole list, in the budget (`passPolls`: how many polls a full
 * read takes when it does not fit one) and n8n's log: a transient failure that stopped a pass after
 * a page (warning: the next poll goes on from there), and the polls a full read takes when that
 * changes (info).
 */
function notePass(run: Run, pass: NonNullable<Outcome['pass']>): void {
	const { src, budget } = run;
	const ctx = src.ctx;
	const where = `The Vendor trigger "${ctx.getNode().name}" of workflow "${ctx.getWorkflow().name ?? ''}"`;
	const meta = { workflowId: ctx.getWorkflow().id, nodeName: ctx.getNode().name };
	if (pass.stop === 'failure') {
		ctx.logger.warn(
			`${where} stopped reading its list: ${(pass.error as Error).message}. What it read is kept; the next poll goes on from there.`,
			meta,
		);
	}
	const before = budget.passPolls;
	const floor = budget.passAtLeast === true;
	if (pass.done) {
		if (pass.polls > 1) budget.passPolls = pass.polls;
		else delete budget.passPolls;
		delete budget.passAtLeast;
		if (pass.polls > 1 && (floor || before !== pass.polls)) {
			ctx.logger.info(
				`${where} took ${count(pass.polls)} polls to read its list through: a poll stops at its deadline (${pollDeadlineMs(ctx) / 1000} s) or the day's budget and the next goes on from there; each new record is emitted once, by the poll that reads it.`,
				meta,
			);
		}
	} else if (before === undefined || floor) {
		// no pass completed yet: at least the polls so far and one more
		budget.passPolls = Math.max(before ?? 0, pass.polls + 1);
		budget.passAtLeast = true;
	}
}

/** The strategy's outcome; undefined when cut by the budget or (at activation) on a transient failure. Every call sent is spent. */
async function readOutcome(
	run: Run,
	previous: PollState | undefined,
	from: number,
): Promise<Outcome | undefined> {
	const { src, budget, atActivation } = run;
	try {
		// Failures pass as they are (the engine's NodeApiError / NodeOperationError), except a transient one at activation.
		return await STRATEGIES[src.event.strategy](src, previous, from).catch((error: unknown) => {
			if (!src.meter.cut && !outlastsFailure(src.ctx, error, atActivation)) throw error;
			return undefined;
		});
	} finally {
		budget.spent += src.meter.calls;
		budget.credit -= src.meter.calls;
	}
}
