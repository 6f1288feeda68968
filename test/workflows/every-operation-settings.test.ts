/**
 * n8n's node settings around every operation of every table, on n8n's engine against a fresh
 * emulator per case (a write of one case changes no other's records):
 * - On Error "Continue (using error output)": two items, the service refusing item 1's call:
 *   item 1's failure is on the error output, paired to it; item 0's results on the main
 *   output, none an error.
 * - Retry On Fail (Max Tries 3), every On Error setting, every write: two items, item 0's call
 *   processed by the service but its answer lost (*Outcome unknown*): n8n tries again (the try
 *   threw, or its first output item is an error), and no later try sends a write again: item 0
 *   stays *Outcome unknown*, item 1's write (made by the first try when continuing) is not
 *   repeated. The service's record of the operation's own calls is the witness.
 * Run: npx jest test/workflows/every-operation-settings
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import type { FaultTarget } from '../../emulator/faults';
import { binaryItem } from '../../harness';
import { valuesOf } from '../tools/demo-values';
import { NODE_OF, nodeParameters, tableOperations } from '../tools/table-inputs';
import type { TableOperation } from '../tools/table-inputs';
import { steps } from '../../harness/workflows';
import { WorkflowEnv } from './support';

const UNPACED = { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 };
beforeAll(() => setPacingRule(UNPACED));
afterAll(() => setPacingRule(DOCUMENTED_RULE));

const REFUSAL = {
	kind: 'html',
	status: 400,
	contentType: 'application/json',
	body: JSON.stringify({ code: 1, message: 'Refused for this test.' }),
} as const;
const OPERATIONS = tableOperations();
const WRITES = OPERATIONS.filter((t) => t.op.method !== 'GET');
type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a request is the operation's own call (not a read made before it). */
function ownCall(t: TableOperation): (r: { method: string; path: string }) => boolean {
	const root = t.area.family === 'projects' ? '/us/projects' : '/us/api';
	const path = new RegExp(
		`^${escape(`${root}${t.area.basePath}${t.op.path}`).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`,
	);
	return (r) => r.method === t.op.method && path.test(r.path);
}

/** Runs the operation on two input items (one request at a time) in a fresh emulator; `arrange` queues its faults. */
async function runTwo(
	t: TableOperation,
	settings: Partial<INode>,
	arrange: (env: WorkflowEnv, own: (r: FaultTarget) => boolean) => void,
) {
	const env = await new WorkflowEnv().start({ demo: true, rateLimit: UNPACED });
	try {
		const own = ownCall(t);
		arrange(env, own);
		const base = t.area.org ? { organizationId: env.org } : {};
		const list = t.op.kind === 'list' ? { returnAll: true } : {};
		const step = steps(NODE_OF[t.area.value], base)(
			'Op',
			nodeParameters(t, valuesOf(env, t), { ...list, options: { requestsInFlight: 1 } }),
			settings,
		);
		const input: INodeExecutionData[] = [0, 1].map((i) =>
			t.op.binaryInput
				? binaryItem(Buffer.from('%PDF-1.4 test'), 'test.pdf', 'application/pdf', { i })
				: { json: { i } },
		);
		const result = await env.run([step], input);
		return { result, calls: env.apiRequests().filter(own) };
	} finally {
		await env.stop();
	}
}

const itemOf = (o: INodeExecutionData) => (o.pairedItem as { item: number }).item;
const messageOf = (o: INodeExecutionData) =>
	String(((o.json.error ?? {}) as IDataObject).message ?? o.json.error);

describe('Continue (using error output): item 1 refused', () => {
	test.each(OPERATIONS.map((t) => [t.id, t] as const))(
		'%s: its failure on the error output, item 0 on the main output',
		async (_id, t) => {
			let seen = 0;
			const { result, calls } = await runTwo(t, { onError: 'continueErrorOutput' }, (env, own) =>
				env.em.faults.next(1, REFUSAL, (r) => own(r) && ++seen === 2),
			);
			expect(result.error()).toBeUndefined();
			expect(calls.map((r) => r.status).slice(1)).toEqual([400]);
			const main = result.output('Op', 0, 0);
			const errors = result.output('Op', 0, 1);
			// every success on the main output, every failure on the error output
			expect(main.every((o) => o.json.error === undefined)).toBe(true);
			expect(errors.every((o) => typeof o.json.error === 'object')).toBe(true);
			// item 1's refusal on the error output, paired to it
			expect(errors.filter((o) => itemOf(o) === 1).map(messageOf)).toEqual([
				expect.stringMatching(/Refused for this test/),
			]);
			expect(main.filter((o) => itemOf(o) === 1)).toEqual([]);
			// item 0 where its call's answer puts it: its failure on the error output only when the service refused it (the demo data makes some refuse)
			const done = calls[0].status < 300;
			expect(errors.some((o) => itemOf(o) === 0)).toBe(!done);
		},
	);
});

describe("Retry On Fail: item 0's write processed, its answer lost", () => {
	const CASES = WRITES.flatMap((t) =>
		(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as OnError[]).map(
			(onError) => [t.id, onError, t] as const,
		),
	);
	test.each(CASES)(
		'%s, On Error %s: no write sent twice, item 0 stays Outcome unknown',
		async (_id, onError, t) => {
			const { result, calls } = await runTwo(
				t,
				{ retryOnFail: true, maxTries: 3, waitBetweenTries: 1, onError },
				(env, own) => env.em.faults.next(1, { kind: 'dropAfterCommit' }, own),
			);
			// item 0's write went out once (never again on a later try); a write the service did (item 1's, when it went out) once; a
			// refused write may be sent again (the service did nothing)
			const statuses = calls.map((r) => r.status);
			expect(statuses[0]).toBe(0);
			expect(statuses.filter((s) => s === 0)).toHaveLength(1);
			expect(statuses.filter((s) => s >= 200 && s < 300).length).toBeLessThanOrEqual(1);
			expect(statuses.every((s) => s === 0 || (s >= 200 && s < 300) || (s >= 400 && s < 500))).toBe(
				true,
			);
			if (onError === 'stopWorkflow') {
				expect(result.error('Op')?.message).toMatch(/^Outcome unknown/);
				return;
			}
			const out = [...result.output('Op', 0, 0), ...result.output('Op', 0, 1)];
			const first = out.filter((o) => itemOf(o) === 0);
			expect(first.length).toBeGreaterThan(0);
			expect(first.every((o) => /^Outcome unknown/.test(messageOf(o)))).toBe(true);
		},
	);
});
