// Talking to the API (api/): what the earlier tries of a node run did, so that n8n's Retry On Fail repeats no write; imports failureKinds.ts only.
/**
 * n8n's node setting Retry On Fail runs the node again, with every input item, when a try
 * throws or its first output item is an error (n8n-core `WorkflowExecute`: up to Max Tries,
 * in the same process, for the same execution, node and run index; nothing tells the node it
 * is a retry). Without a memory every write of the earlier tries would be sent again: items
 * created twice, reminders mailed three times, a write of unknown outcome repeated.
 *
 * The tries of one node run share n8n's execute data (`getExecuteData()`: the same object on
 * every try, a new one for the next run of the node, a loop's next round or a new execution),
 * so what a try did is kept per execute data, in a WeakMap that n8n's own data keeps alive, held
 * by the run-state module (api/run.ts `replayOf`): each try is a new `execute()`, so a new run
 * state, and only the execute data is the same across the tries; a run state takes a reference
 * to its memory once, with its own count of this try's writes. This file holds what a try does
 * with that memory. Kept:
 * - per item, the output of an item that was done (`doneItem`): a later try gives that output
 *   again without a call (run/execute.ts);
 * - per write request (not a GET), its answer when the service answered it, or its failure
 *   when its outcome is unknown (`priorWrite`): a later try's same request (the same item,
 *   method, path, query, organization and body, the n-th such request of its item) is not
 *   sent: it gets the same answer, or fails again as *Outcome unknown*. A write the service
 *   refused, or that was not sent, is sent again; reads always run again.
 *
 * Kept only for a node whose Retry On Fail is on (otherwise no try follows), and only while
 * n8n keeps the run's execute data: memory is bounded by what the execution holds anyway.
 * A retry of the execution from n8n's executions list is a new execution: nothing is kept
 * across it (docs/BEHAVIOUR.md says what the run report gives instead).
 */
import { createHash } from 'crypto';

import { isOutcomeUnknown } from './failureKinds';

/** What an *Outcome unknown* failure of a later try adds: its write was not sent again. */
const NOT_SENT_AGAIN = 'Not sent again by Retry On Fail: an earlier try of this run sent it.';

/** What a write of an earlier try came to: the service's answer, or a failure whose outcome is unknown. */
export type PriorWrite<A> = { kind: 'answered'; answer: A } | { kind: 'unknown'; error: Error };

export interface RunMemory {
	/** Items done in an earlier try: their output as it was. */
	readonly items: Map<number, unknown>;
	/** Per write key, the outcome of each occurrence (the n-th request with that key in its item). */
	readonly writes: Map<string, Array<PriorWrite<unknown> | undefined>>;
}

/** One try's view of its node run's memory: the memory, and how many requests of each write key this try has sent or replayed. */
export interface Replay {
	readonly memory: RunMemory;
	readonly occurrences: Map<string, number>;
	/** The items of this try that were given an earlier try's write instead of sending it. */
	readonly replayedItems: Set<number>;
}

/** The output item `itemIndex` had when an earlier try of this node run did it; undefined when none did. */
export function doneItem<T>(replay: Replay | undefined, itemIndex: number): T | undefined {
	return replay?.memory.items.get(itemIndex) as T | undefined;
}

/** Item `itemIndex` is done with this output: a later try of this node run gives it again. */
export function rememberItem(replay: Replay | undefined, itemIndex: number, output: unknown): void {
	replay?.memory.items.set(itemIndex, output);
}

/** What identifies one write of an item across tries. */
interface WriteIdentity {
	itemIndex?: number;
	method: string;
	/** The area and path, e.g. `books /invoices/123/status/sent`. */
	path: string;
	qs?: Record<string, unknown>;
	organization: string;
	/** The body as sent, with anything random in it (a multipart boundary) left out. */
	body?: Buffer | string;
}

function writeKey(id: WriteIdentity): string {
	const qs = Object.entries(id.qs ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	const body = id.body === undefined ? '' : createHash('sha256').update(id.body).digest('base64');
	return JSON.stringify([id.itemIndex ?? null, id.method, id.path, qs, id.organization, body]);
}

/**
 * One write request of this try: what an earlier try's same request came to (`prior`), and
 * `keep` to remember what this one comes to. Undefined when no try follows (Retry On Fail off)
 * or for a read.
 */
export function writeSlot<A>(
	replay: Replay | undefined,
	id: WriteIdentity,
): { prior?: PriorWrite<A>; keep: (outcome: PriorWrite<A>) => void } | undefined {
	if (id.method === 'GET' || !replay) return undefined;
	const { memory, occurrences: counts } = replay;
	const key = writeKey(id);
	const n = counts.get(key) ?? 0;
	counts.set(key, n + 1);
	const outcomes = memory.writes.get(key) ?? [];
	memory.writes.set(key, outcomes);
	return {
		prior: outcomes[n] as PriorWrite<A> | undefined,
		keep: (outcome) => {
			outcomes[n] = outcome;
		},
	};
}

/**
 * An item's failure as this try reports it: a write of unknown outcome whose write an earlier
 * try sent (its answer given again, and what the answer shows judged again: an answer without
 * evidence stays *Outcome unknown*) says it was not sent again. Other failures as they are.
 */
export function withReplayNote<E extends Error>(
	replay: Replay | undefined,
	itemIndex: number,
	error: E,
): E {
	if (!replay?.replayedItems.has(itemIndex) || !isOutcomeUnknown(error)) return error;
	const said = (error as { description?: string | null }).description ?? '';
	if (!said.includes(NOT_SENT_AGAIN))
		(error as { description?: string }).description = `${said ? `${said} ` : ''}${NOT_SENT_AGAIN}`;
	return error;
}
