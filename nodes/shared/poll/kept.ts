// Polling (poll/): a trigger's last state kept in this process too, for when n8n does not save it; imports nothing of the package.
/**
 * A trigger keeps its state (baseline, cursor, a read under way, the day's budget) in n8n's
 * static data. n8n's classic scheduler saves it after every poll. Its durable scheduler (opt-in
 * from n8n 2.33) rebuilds the workflow from the database for each poll and saves the static data
 * only when a poll emits (and at publication and deactivation); with its durable poll cursors the
 * poll at activation keeps nothing unless it emits, and a new node id starts from an empty cursor
 * (checked in a real n8n 2.41.1: scripts/real-n8n/reactivate.js, durable.js). Then a quiet poll's
 * progress is lost: the activation's baseline is taken again later (records made meanwhile become
 * part of it when they carry no creation time) and a read of a whole list that needs three polls
 * or more never ends.
 *
 * So each poll also keeps what it left in the static data in this process, per workflow and
 * trigger node name, with a count of the polls (`seq`) that wrote it; the next poll takes the kept
 * state instead of the static data it is given when that holds an older count (n8n gave back a
 * state from before a poll that this process saw) and the kept one is for the same event and
 * filters. Static data with no count at all (a new trigger, or n8n's durable cursors before a
 * poll emitted: its activation's baseline is not saved) starts afresh: the durable cursors' loss
 * at activation stays, and the README says to leave them off. Static data at least as new as the kept state (n8n's classic scheduler, a restart, a
 * poll run by another process) always wins. At most `KEPT_MAX` triggers are kept, the least
 * recently polled dropped first; an entry unused for a day is dropped.
 */

/** The static data members a poll writes. */
interface PollData {
	[key: string]: unknown;
}

interface Kept {
	seq: number;
	/** The state's signature (event, filters): a changed one is a new baseline, never a kept state. */
	sig: unknown;
	data: PollData;
	at: number;
}

/** Where the count of polls is kept in the static data. */
const SEQ_KEY = 'vendorSeq';
const KEPT_MAX = 500;
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

const kept = new Map<string, Kept>();

/** A copy through JSON, as n8n stores static data (its static data objects are proxies structuredClone refuses). */
const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

function keyOf(workflowId: unknown, nodeName: string): string {
	return JSON.stringify([String(workflowId ?? ''), nodeName]);
}

/**
 * The members `keys` of the static data this poll starts from: the static data's, or this
 * process's kept copy when that is newer (a higher count) and of the same signature. Writes the kept members into `staticData` so the poll reads and updates them.
 */
export function recall(
	workflowId: unknown,
	nodeName: string,
	staticData: PollData,
	keys: readonly string[],
	sig: unknown,
): void {
	const key = keyOf(workflowId, nodeName);
	const entry = kept.get(key);
	if (!entry) return;
	if (Date.now() - entry.at > KEPT_FOR_MS) {
		kept.delete(key);
		return;
	}
	// static data that no poll of this package wrote (a new trigger, a copied workflow) starts afresh
	const given = staticData[SEQ_KEY];
	if (typeof given !== 'number' || entry.seq <= given || entry.sig !== sig) return;
	for (const k of keys) {
		if (entry.data[k] === undefined) delete staticData[k];
		else staticData[k] = copy(entry.data[k]);
	}
	staticData[SEQ_KEY] = entry.seq;
}

/** After a poll: counts it in the static data and keeps a copy of its members `keys` in this process. */
export function keep(
	workflowId: unknown,
	nodeName: string,
	staticData: PollData,
	keys: readonly string[],
	sig: unknown,
): void {
	const seq = (typeof staticData[SEQ_KEY] === 'number' ? (staticData[SEQ_KEY] as number) : 0) + 1;
	staticData[SEQ_KEY] = seq;
	const data: PollData = {};
	for (const k of keys) if (staticData[k] !== undefined) data[k] = copy(staticData[k]);
	const key = keyOf(workflowId, nodeName);
	kept.delete(key);
	kept.set(key, { seq, sig, data, at: Date.now() });
	while (kept.size > KEPT_MAX) kept.delete(kept.keys().next().value as string);
}
