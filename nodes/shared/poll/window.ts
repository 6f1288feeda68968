// Polling (poll/): the date window a `scan` event may offer (`TriggerEvent.window`); imports poll/ only.
/**
 * The days a poll with a date window reads, one read each: the last N days to today in the
 * workflow's time zone, and back to the day of the last poll.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { DAY_MS, utcDay } from './budget';

/** Today (yyyy-mm-dd) in the workflow's time zone. */
export function localDay(ctx: IPollFunctions, now: number): string {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone: ctx.getTimezone(),
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(now);
	const part = (type: string) => parts.find((p) => p.type === type)?.value;
	return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The days of a date window, newest first: the last `days` days to `today`, and back to the last poll's day (at most 31 days back). */
export function windowDates(today: string, days: number, lastDay?: string): string[] {
	const end = Date.parse(`${today}T00:00:00Z`);
	const last = lastDay ? Date.parse(`${lastDay}T00:00:00Z`) : NaN;
	let start = end - (days - 1) * DAY_MS;
	if (last < start) start = Math.max(last, end - 30 * DAY_MS);
	const out: string[] = [];
	for (let d = end; d >= start; d -= DAY_MS) out.push(utcDay(d));
	return out;
}
