// Polling (poll/): Fetch Test Event (a manual run): its record and what a poll costs as far as one call tells; imports api/ and poll/.
/**
 * A manual run reads one page and leaves the state alone; the poll adds the cost estimated
 * here to its test item (`_pollCost`).
 */
import type { IDataObject } from 'n8n-workflow';

import { hasMore } from '../api/pages';
import type { Cost } from './budget';
import { confirmsSort, pages } from './read';
import type { Source } from './read';

/**
 * Manual run ("Fetch Test Event"): one matching record of the list's first page (one call), and
 * what a poll would cost as far as that call tells. The record: for an event with a time field,
 * the one with the latest time on that page (the first listed among equals); for an event whose
 * records carry no time (Item Created: items have no creation time), the first matching record
 * in the order the API lists them, which need not be the newest.
 */
export async function testEvent(
	src: Source,
	windowDays: number,
): Promise<{ records: IDataObject[]; cost: Cost }> {
	const first = (await pages(src).next()).value as
		| { entries: IDataObject[]; body: unknown }
		| undefined;
	const entries = first?.entries ?? [];
	const candidates = entries.filter(src.matches);
	const times = entries.map(src.time);
	const newestFirst =
		src.event.strategy === 'newest' &&
		!!first &&
		confirmsSort(src, first.body) &&
		times.every((t, i) => t !== undefined && (i === 0 || t <= (times[i - 1] as number)));
	const more =
		!!first && entries.length > 0 && hasMore(src.op, first.body, entries, src.op.perPage ?? 200);
	const cost: Cost = windowDays
		? {
				calls: windowDays,
				atLeast: true,
				how: `one call a day of the ${windowDays}-day window, one more per further 200 records of a day`,
			}
		: newestFirst
			? {
					calls: 1,
					how: 'the list is read newest first, down to the records already seen: one call when nothing is new',
				}
			: more
				? {
						calls: 2,
						atLeast: true,
						how: `every page of the list is read, one call per 200 records, and it has more than one page`,
					}
				: { calls: 1, how: 'the list fits one page' };
	// the latest by the time field, the first listed among equals (strictly later replaces); no time field: the first listed
	const best = src.event.timeField
		? candidates.reduce<IDataObject | undefined>(
				(b, r) => (!b || (src.time(r) ?? -Infinity) > (src.time(b) ?? -Infinity) ? r : b),
				undefined,
			)
		: candidates[0];
	return { records: best ? [best] : [], cost };
}
