// Polling (poll/): the daily call budget (Max API Calls per Day) and a poll's cost; imports nothing of the project.
/**
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
 */
import type { IPollFunctions } from 'n8n-workflow';

/** "Max API Calls per Day" unless the user sets it: half the smallest plan's daily allowance (docs/ASSUMPTIONS.md). */
export const DEFAULT_MAX_CALLS_PER_DAY = 500;

/** The calls of one poll: every call sent (./meter.ts); no page is asked for past what the day's budget leaves. */
export interface Meter {
	/** Calls sent so far: every one the service saw (a resend after a 401, a 429 or a 5xx too), spent from the budget. */
	readonly calls: number;
	/** Of them, the poll's own: without the resends after a wait (a 429's hold, a 5xx's retry), what one poll costs when the service answers. */
	readonly own: number;
	left: number;
	/** Epoch ms: the poll's deadline; a read that can go on at the next poll (./strategies.ts) stops at the first page past it. */
	until: number;
	/** Called after each page read (the poll is alive: ./overlap.ts). */
	progressed?: () => void;
	/** A page was not read for the budget: the poll was cut short. */
	cut?: boolean;
}

/** A call the day's budget does not allow was not sent: the poll ends with nothing emitted and the state kept. */
export class BudgetSpent extends Error {}

/** What a poll costs: `calls` (a floor when `atLeast`), and how that is known. */
export interface Cost {
	calls: number;
	atLeast?: boolean;
	how: string;
	/** Polls a full read of the list takes when it does not fit one poll. */
	passPolls?: number;
}

/**
 * Calls spent by the trigger's real polls, in its static data. `spent` counts the calls of the
 * UTC day `day`; `credit` spaces the polls: it grows by the budget over a day (up to two polls'
 * worth or an hour's share, whichever is more; a new day starts with at most two polls' worth),
 * each poll takes its calls from it, and a poll waits until it holds what the last poll cost.
 */
export interface Budget {
	day: string;
	spent: number;
	credit: number;
	/** When `credit` was brought up to date (epoch ms). */
	at: number;
	/** Calls of the last real poll of the state `sig` (a floor when that poll was cut short by the budget). */
	cost?: number;
	/** Polls the last full read of a whole list took, when more than one (a floor while the first such read goes on). */
	passPolls?: number;
	/** `passPolls` is a floor: no full read has completed yet. */
	passAtLeast?: boolean;
	sig?: string;
	/** UTC day the cost was last logged as over the budget. */
	warned?: string;
	/** UTC day a poll was last failed for costing more than the whole budget. */
	failed?: string;
	/** When a poll at activation last read the list (epoch ms): n8n's first scheduled poll soon after is skipped without a call. */
	activated?: number;
}

export const DAY_MS = 86_400_000;

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The budget state at `now` (a new day starts at 0 spent; credit refilled for the time passed). */
export function budgetAt(
	stored: Budget | undefined,
	sig: string,
	max: number,
	now: number,
): Budget {
	const estimate = stored?.sig === sig ? (stored.cost ?? 1) : 1;
	const cap = Math.max(2 * estimate, max / 24);
	const day = utcDay(now);
	if (!stored) return { day, spent: 0, credit: cap, at: now };
	const credit = Math.min(cap, stored.credit + (Math.max(0, now - stored.at) * max) / DAY_MS);
	if (stored.day === day) return { ...stored, credit, at: now };
	// A new UTC day carries at most two polls' worth of credit: what was saved while the day's
	// budget was spent (its last minutes) would otherwise be spent at once after 00:00 UTC, the
	// new day's budget spent that much earlier, and so on each day (with an hour's share: a poll
	// every minute for half an hour after midnight and none in the day's last hour).
	return { ...stored, day, spent: 0, credit: Math.min(credit, 2 * estimate), at: now };
}

/** The user's "Max API Calls per Day". */
export function maxCallsPerDay(ctx: IPollFunctions): number {
	const max = Math.floor(Number(ctx.getNodeParameter('maxCallsPerDay', DEFAULT_MAX_CALLS_PER_DAY)));
	return Number.isFinite(max) && max >= 1 ? max : DEFAULT_MAX_CALLS_PER_DAY;
}
