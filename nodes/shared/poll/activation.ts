// Polling (poll/): the poll n8n runs at activation; imports api/ only.
/**
 * The poll n8n runs when it activates a workflow, and what a transient failure there does.
 *
 * n8n-core's `ActiveWorkflows.activatePolling` builds one poll context per activation (on
 * activating, on saving an active workflow, at every start of n8n, on a leadership change),
 * runs a first poll with it at once and fails the activation if that poll throws; n8n
 * retries a failed activation a few times within seconds and then leaves the workflow not
 * polling while it reads active. Every later poll gets the same context from the cron, and
 * its errors become error executions (`__emitError`). `getActivationMode()` answers the same
 * ('activate', 'init', ...) for all of them, so the first call on a context is the poll at
 * activation.
 *
 * n8n also gives the activation a deadline (n8n 2.41: 84 s for a workflow's publication, after
 * which the publication is abandoned and, after a restart, the trigger does not poll), so the
 * poll there never waits on the service (the poll sets `failFast` patience for its requests).
 * A transient failure (a rate-limit block or hold, 429, 5xx, a proxy's page, no answer, a token
 * endpoint that did not answer: `isTransientFailure`, as the transport classifies them) is
 * logged as a warning and the poll returns nothing, so the workflow stays active and the next
 * scheduled poll catches up. A permanent failure still fails the activation.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { isTransientFailure } from '../api/failureKinds';

/**
 * Poll contexts that have polled already. Kept on n8n's poll context, not on a poll's run state
 * (api/run.ts): each poll has a run state of its own, while the context is the one thing every
 * poll of one activation shares, and what this tells apart is its first poll from the later ones.
 */
const polled = new WeakSet<object>();

/** Whether this is the first poll of this context, i.e. the poll at activation (call once per poll). */
export function isActivationPoll(ctx: IPollFunctions): boolean {
	if (polled.has(ctx)) return false;
	polled.add(ctx);
	return true;
}

/**
 * Whether the poll at activation should outlast this failure instead of failing the
 * activation: a transient failure at activation. Such a failure is logged (its message
 * carries no token or secret) so that it is not silent.
 */
export function outlastsFailure(
	ctx: IPollFunctions,
	error: unknown,
	atActivation: boolean,
): boolean {
	if (!atActivation || !isTransientFailure(error)) return false;
	const workflow = ctx.getWorkflow();
	ctx.logger.warn(
		`The first poll of "${ctx.getNode().name}" at the activation of workflow "${workflow.name ?? ''}" did not succeed: ${(error as Error).message}. ` +
			'The workflow stays active; the next scheduled poll catches up on what happened meanwhile.',
		{ workflowId: workflow.id, nodeName: ctx.getNode().name },
	);
	return true;
}
