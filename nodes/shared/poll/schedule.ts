// Polling (poll/): the node's Poll Times (cron expressions included) as polls a day, and a poll's cost in words; imports poll/ only.
/**
 * How often n8n polls at the node's Poll Times, read only to tell what a poll costs a day
 * against the daily budget (./budget.ts): the log's warning and the test event's `_pollCost`.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { DAY_MS } from './budget';
import type { Cost } from './budget';

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

const CRON_NAMES: Record<number, string[]> = {
	3: [],
	4: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
	5: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'],
};

/** The values a cron field allows (numbers, names, `*`, `?`, ranges, steps, lists), or undefined. */
function cronField(
	field: string,
	min: number,
	max: number,
	names: string[] = [],
): Set<number> | undefined {
	const out = new Set<number>();
	const num = (v: string) =>
		names.includes(v) ? names.indexOf(v) + (min === 1 ? 1 : 0) : /^\d+$/.test(v) ? Number(v) : NaN;
	for (const part of field.toUpperCase().split(',')) {
		const m = /^(\*|\?|([A-Z0-9]+)(?:-([A-Z0-9]+))?)(?:\/(\d+))?$/.exec(part);
		if (!m) return undefined;
		const from = m[2] === undefined ? min : num(m[2]);
		const to =
			m[3] !== undefined ? num(m[3]) : m[2] === undefined || m[4] !== undefined ? max : from;
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
	const [sec, min, hour, dom, month, dow] = [
		[0, 59],
		[0, 59],
		[0, 23],
		[1, 31],
		[1, 12],
		[0, 7],
	].map(([lo, hi], i) => cronField(fields[i], lo, hi, CRON_NAMES[i]));
	if (!sec || !min || !hour || !dom || !month || !dow) return undefined;
	if (dow.has(7)) dow.add(0);
	const anyDom = /^[*?]$/.test(fields[3]);
	const anyDow = /^[*?]$/.test(fields[5]);
	let days = 0;
	for (let d = Date.UTC(2025, 0, 1); d < Date.UTC(2026, 0, 1); d += DAY_MS) {
		const date = new Date(d);
		const byDom = dom.has(date.getUTCDate());
		const byDow = dow.has(date.getUTCDay());
		if (month.has(date.getUTCMonth() + 1) && (anyDom || anyDow ? byDom && byDow : byDom || byDow))
			days++;
	}
	return (sec.size * min.size * hour.size * days) / 365;
}

/** The node's Poll Times (the parameter n8n adds to every polling node). */
export function pollSchedule(ctx: IPollFunctions): Schedule {
	let times: PollTime[] = [];
	try {
		times = ((ctx.getNodeParameter('pollTimes', {}) as { item?: PollTime[] }).item ?? []).filter(
			(t) => t && typeof t === 'object',
		);
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
				return t.unit === 'hours'
					? [Math.ceil(24 / v), `every ${v} hours`]
					: [24 * Math.ceil(60 / v), `every ${v} minutes`];
			}
			default:
				return [
					cronPerDay(String(t.cronExpression ?? '')),
					`cron "${String(t.cronExpression ?? '')}"`,
				];
		}
	});
	const perDay = each.every(([n]) => n !== undefined)
		? each.reduce((sum, [n]) => sum + (n as number), 0)
		: undefined;
	return { perDay, text: each.map(([, text]) => text).join(', ') };
}

export const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** What a poll costs at the node's Poll Times against its budget, in words (the log's warning, the test event's field). */
export function costInWords(
	cost: Cost,
	schedule: Schedule,
	max: number,
): { perDay?: number; over: boolean; text: string } {
	const calls = `${cost.atLeast ? 'at least ' : ''}${count(cost.calls)} API call${cost.calls === 1 && !cost.atLeast ? '' : 's'}`;
	const perDay = schedule.perDay === undefined ? undefined : cost.calls * schedule.perDay;
	const over = perDay !== undefined && perDay > max;
	const budget = `Max API Calls per Day (${count(max)})`;
	const daily =
		perDay === undefined
			? `Its Poll Times (${schedule.text}) cannot be counted here; it makes at most ${budget}.`
			: `At its Poll Times (${schedule.text}: ${count(schedule.perDay as number)} polls a day) that is ${cost.atLeast ? 'at least ' : ''}${count(perDay)} calls a day, ${
					over
						? `above its ${budget}: polls are spaced to about one every ${count(Math.max(1, (cost.calls * 1440) / max))} minutes`
						: `within its ${budget}`
				}.`;
	const pass =
		cost.passPolls && cost.passPolls > 1
			? ` A full read of the list takes ${count(cost.passPolls)} polls: each poll stops at its deadline and the next goes on from there.`
			: '';
	return { perDay, over, text: `A poll costs ${calls} (${cost.how}). ${daily}${pass}` };
}
