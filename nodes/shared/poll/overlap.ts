// Polling (poll/): one poll of a trigger at a time, and the poll's deadline; imports poll/ only.
/**
 * n8n's cron starts a trigger's poll at every tick of its Poll Times whether or not the last
 * poll has ended, with the same poll context, and a re-activation builds a new context for the
 * same node while a poll of the old one may still run. Polls that overlap start from the same
 * saved state and would emit the same records. So a poll marks its trigger (workflow and node)
 * as polling in this process; a poll that starts while the mark is on spends no call, emits
 * nothing and says so in n8n's log at debug level; the running poll goes on. The mark is
 * released when the poll ends (also when it throws) and expires when the poll shows no progress
 * (no page read) for `MARK_MARGIN_MS` past its deadline, so a poll that never settles cannot
 * stop the trigger for good.
 *
 * Each poll has a deadline (`pollDeadlineMs`): 30 s, under n8n's durable scheduler's poll
 * timeout (45 s by default, after which it abandons a poll and keeps nothing) and a one-minute
 * Poll Times; shorter when the Poll Times' interval is. No wait of a poll ends past it (its run
 * state's deadline, api/run.ts), and a read of a whole list stops at it and goes on at the next poll (./strategies.ts).
 */
import type { IPollFunctions } from 'n8n-workflow';

import { DAY_MS } from './budget';
import { pollSchedule } from './schedule';

/** A poll's deadline unless the Poll Times' interval is shorter. */
const POLL_DEADLINE_MS = 30_000;

/** How long past its deadline a poll that reads nothing more keeps its mark. */
export const MARK_MARGIN_MS = 120_000;

/** A poll's deadline (ms from its start): 30 s, or the Poll Times' interval when that is shorter (at least a second). */
export function pollDeadlineMs(ctx: IPollFunctions): number {
	const perDay = pollSchedule(ctx).perDay;
	return perDay
		? Math.max(1000, Math.min(POLL_DEADLINE_MS, Math.floor(DAY_MS / perDay)))
		: POLL_DEADLINE_MS;
}

interface Mark {
	/** Until when (epoch ms) the mark holds unless renewed. */
	until: number;
}

/**
 * The polls running in this process, by workflow and node. A module-level map keyed by the
 * trigger, not by poll context: two contexts of one node (after a re-activation) must see each
 * other's mark. It holds one small entry per trigger polling now.
 */
const running = new Map<string, Mark>();

/** The trigger a poll is of: its workflow and node (the node's id, which a rename keeps). */
function triggerKey(ctx: IPollFunctions): string {
	const node = ctx.getNode();
	return JSON.stringify([String(ctx.getWorkflow().id ?? ''), node.id ?? node.name]);
}

export interface PollMark {
	/** The poll read a page: the mark holds `holdMs` from now. */
	renew(): void;
	/** The poll ended: the mark is gone (only this poll's own). */
	release(): void;
}

/** Marks this trigger as polling for `holdMs` (renewed at every page); undefined when another poll of it runs (its mark holds). */
export function markPoll(ctx: IPollFunctions, holdMs: number): PollMark | undefined {
	const key = triggerKey(ctx);
	const now = Date.now();
	const other = running.get(key);
	if (other && other.until > now) return undefined;
	const mark: Mark = { until: now + holdMs };
	running.set(key, mark);
	return {
		renew: () => void (mark.until = Math.max(mark.until, Date.now() + holdMs)),
		release: () => {
			if (running.get(key) === mark) running.delete(key);
		},
	};
}

/** Logs (debug) that a poll did not start because another poll of the trigger still runs. */
export function logOverlap(ctx: IPollFunctions): void {
	const workflow = ctx.getWorkflow();
	ctx.logger.debug(
		`The Vendor trigger "${ctx.getNode().name}" of workflow "${workflow.name ?? ''}" skipped a poll: its last poll is still running (it goes on; nothing is missed)`,
		{ workflowId: workflow.id, nodeName: ctx.getNode().name },
	);
}
