// Talking to the API (api/): the state of one run, handed by hand down the request path; imports only api/ files.
/**
 * One run's state: what a run of a node (an `execute()`, one poll of a trigger, one list search
 * of a picker) knows while it sends, created once at the start of that run (run/execute.ts
 * `executeArea`, poll/poll.ts `pollArea`, run/listSearch.ts) and handed by hand to
 * `vendorRequest` and everything below it (pages, files, specials, Custom API Call, the read
 * before an update, the triggers' reads). `ctx` is n8n's node context of the run.
 *
 * Per run, here: the halt (which items have sent, where an item's failure halted the run), the
 * patience and deadline, the Options read once, the limiter of Requests in Flight, the credential
 * as read for the run, the calls sent and resent, and this try's view of the replay memory. The
 * memory itself is kept here per n8n execute data (`replayOf`): the tries of one node run share it.
 *
 * Per process, elsewhere: the pacers (pacing.ts: every execution with a credential shares the
 * service's limit), token expiry and refresh memory (token.ts: a token and a refusal outlive a
 * run), the service's clock offsets (clock.ts), a trigger's overlap mark (poll/overlap.ts) and
 * the polls of one activation (poll/activation.ts: they span the polls of one poll context).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { Limiter } from './limit';
import { readRunOptions, type RunOptions } from './options';
import type { Replay, RunMemory } from './replay';
import { CREDENTIAL, type VendorContext } from './token';

/** Return All's page limit of one list for one item (`RunState.pageLimit`). */
const PAGE_LIMIT = 2000;

/** The memory of each node run (n8n's execute data of its tries): shared by the tries, so kept on their execute data, not on a try's run state. */
const memories = new WeakMap<object, RunMemory>();

interface RetryContext {
	getNode(): { retryOnFail?: boolean };
	getExecuteData?(): unknown;
}

/** This try's view of its node run's memory, when n8n may run it again (Retry On Fail on); undefined otherwise. Looked up once per try (its run state). */
function replayOf(ctx: object): Replay | undefined {
	const c = ctx as RetryContext;
	if (typeof c.getExecuteData !== 'function' || c.getNode?.().retryOnFail !== true)
		return undefined;
	const run = c.getExecuteData();
	if (typeof run !== 'object' || run === null) return undefined;
	let memory = memories.get(run);
	if (!memory) {
		memory = { items: new Map(), writes: new Map() };
		memories.set(run, memory);
	}
	return { memory, occurrences: new Map(), replayedItems: new Set() };
}

/**
 * How the requests of a run may wait on the service. By default a request waits out what it is
 * told (a 429's hold, 5xx retries, a slow token endpoint). The poll at a trigger's activation
 * may not: n8n gives a workflow's publication a deadline (84 s on n8n 2.41), so there every
 * transient failure fails at once (as a transient failure: the activation keeps the trigger and
 * the next scheduled poll catches up), and holds and blocks learned there still apply to the
 * next polls.
 */
type Patience = 'wait' | 'failFast';

export class RunState<C extends VendorContext = VendorContext> {
	/**
	 * Without Continue On Fail an item's failure ends the run as with one request at a time: no
	 * later item (in input order) starts, and the items already sending finish (docs/BEHAVIOUR.md).
	 * Twice the Requests in Flight are prepared at once (run/execute.ts), so an item's task may be
	 * waiting for the pacer or a request slot when another item fails: whether an item has started
	 * is decided where its requests are sent. Once the run is halted at item i, an item after i
	 * that has sent no request yet sends none; an item that has goes on (its further calls, pages
	 * and retries go out), and so do the items before i.
	 *
	 * The first item (in input order) whose failure halted the run; undefined while it runs on
	 * (always in triggers and pickers, which halt nothing).
	 */
	private haltedAt?: number;

	/** The items that have sent a request. */
	private readonly sending = new Set<number>();

	/** How the requests of this run wait (see `Patience`). */
	patience: Patience = 'wait';

	/**
	 * Epoch ms no wait may end after; Infinity: none. A trigger's poll has a deadline (n8n's cron
	 * starts the next poll at the next tick, and n8n's durable scheduler abandons a poll after
	 * 45 s). A wait that would end past it (a 429's hold or Retry-After, a retry's backoff, a held
	 * pacer) is not waited: the request fails at once as under failFast, and a request is not given
	 * longer than what is left.
	 */
	until = Number.POSITIVE_INFINITY;

	/** Calls this run has sent to the API (a 401 and its resend are two; a request not sent is none), and of them the resends after a wait (a 429's hold, a retry's backoff): a poll's meter reads them. */
	readonly calls = { sent: 0, resent: 0 };

	/** What earlier tries of this node run did, when n8n may run it again (Retry On Fail on); undefined otherwise. */
	readonly replay: Replay | undefined;

	private optionsRead?: RunOptions;

	private limiterMade?: Limiter;

	private credentialsRead?: Promise<ICredentialDataDecryptedObject>;

	constructor(readonly ctx: C) {
		this.replay = replayOf(ctx);
	}

	/** Return All reads at most this many pages of one list for one item (200 a page: 400,000 records). A getter, so that a test may spy on it with a smaller number. */
	get pageLimit(): number {
		return PAGE_LIMIT;
	}

	/** The run's options (an action node's Options collection, read at first use; the defaults in triggers and pickers). */
	get options(): RunOptions {
		this.optionsRead ??= readRunOptions(this.ctx);
		return this.optionsRead;
	}

	/** The limiter of Requests in Flight of this run, shared by its items, batches and pages (made at first use). */
	get limiter(): Limiter {
		this.limiterMade ??= new Limiter(this.options.requestsInFlight);
		return this.limiterMade;
	}

	/**
	 * The credential as read for this run: n8n decrypts it and resolves its expressions on every
	 * read, which costs more than the request itself, so it is read once per run and again only
	 * around a refresh (then `keepCredentials` replaces it). A failed read is not kept: the next
	 * request reads again.
	 */
	credentials(): Promise<ICredentialDataDecryptedObject> {
		let read = this.credentialsRead;
		if (!read) {
			read = this.ctx.getCredentials(CREDENTIAL);
			this.credentialsRead = read;
			read.catch(() => {
				if (this.credentialsRead === read) this.credentialsRead = undefined;
			});
		}
		return read;
	}

	/** The credential as a refresh left it, for the run's later requests. */
	keepCredentials(credentials: ICredentialDataDecryptedObject): void {
		this.credentialsRead = Promise.resolve(credentials);
	}

	/** Sets how the requests of this run wait, and until when at most; 'wait' without a time is the default. */
	setPatience(patience: Patience, until = Number.POSITIVE_INFINITY): void {
		this.patience = patience;
		this.until = until;
	}

	/** The run is halted at a failing item (the earliest such item counts). */
	halt(itemIndex: number): void {
		this.haltedAt = Math.min(this.haltedAt ?? itemIndex, itemIndex);
	}

	/** Whether item `itemIndex` may not send: the run was halted at an earlier item before this one sent anything. Never for a request of no item. */
	haltedBefore(itemIndex: number | undefined): boolean {
		return (
			this.haltedAt !== undefined &&
			itemIndex !== undefined &&
			itemIndex > this.haltedAt &&
			!this.sending.has(itemIndex)
		);
	}

	/** Item `itemIndex` sends a request: from now on it has started, and a halt lets it finish. */
	markSending(itemIndex: number | undefined): void {
		if (itemIndex !== undefined) this.sending.add(itemIndex);
	}
}
