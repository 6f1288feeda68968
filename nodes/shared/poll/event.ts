// Polling (poll/): the events of a trigger node, as its events table declares them; imports nothing.
/**
 * What a trigger node's table of events (`nodes/<Node>Trigger/events.ts`) declares for each
 * event, read by the description (./description.ts), the reads (./read.ts) and the poll.
 */
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
