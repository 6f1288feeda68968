/**
 * Resilience figures against the emulator, in one run: refresh calls made by 50
 * executions that start together on an expired token (goal: at most 2), and how long a
 * run stopped while the server hangs takes to settle (goal: under 1 s).
 *
 *   npm run build:tools && node build/bench/resilience.js
 */
import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { runWorkflow } from '../harness';
import { chain, NODE_TYPES, WorkflowEnv } from '../harness/workflows';
import { console, process } from '../host/globals';

async function main(): Promise<void> {
	const env = await new WorkflowEnv().start({ demo: true });
	const list = env.orgSteps('vendorBooks', { resource: 'item' })('List', {
		operation: 'getAll',
		returnAll: false,
		limit: 1,
	});
	try {
		env.em.accounts.expireAllAccessTokens();
		env.em.clearRequests();
		const executions = 50;
		const runs = await Promise.all(
			Array.from({ length: executions }, async () => await env.run([list])),
		);
		const failed = runs.filter((r) => r.error()).length;
		const refreshes = env.tokenRequests().length;
		console.log(
			`refresh: ${executions} executions on an expired token -> ${refreshes} token call(s), ${failed} failed (goal: at most 2 calls)`,
		);

		for (const stopAfterMs of [200, 500, 2000]) {
			env.em.faults.next(1, { kind: 'hang', ms: 30_000 });
			const started = Date.now();
			await runWorkflow({
				workflow: chain([list]),
				nodeTypes: NODE_TYPES,
				credentialTypes: [VendorOAuth2Api],
				credentials: env.credentials,
				timeoutMs: stopAfterMs,
			});
			const settled = Date.now() - started - stopAfterMs;
			console.log(
				`stop: stopped ${stopAfterMs} ms into a 30 s server hang -> settled ${settled} ms after the stop (goal: under 1000 ms)`,
			);
		}
	} finally {
		await env.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
