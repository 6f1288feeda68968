/**
 * Pacing figures: runs workflows of the Vendor Projects node against the emulator with the
 * documented rule scaled down (same logic), and prints per run the requests, the 429s, the
 * time taken and the least time the rule allows.
 *
 *   npm run build && node build/bench/pacing.js [limit] [windowMs]     (default 10 1000)
 */
import { DOCUMENTED_RULE, marginMs, setPacingRule } from '../nodes/shared/pacing';
import { steps, WorkflowEnv } from '../test/workflows/support';

async function main(): Promise<void> {
	const limit = Number(process.argv[2] ?? 10);
	const windowMs = Number(process.argv[3] ?? 1000);
	const rule = { limit, windowMs, blockMs: windowMs * (DOCUMENTED_RULE.blockMs / DOCUMENTED_RULE.windowMs) };
	const env = await new WorkflowEnv().start({ demo: true, rateLimit: rule });
	const node = steps('vendorProjects', { resource: 'portal', operation: 'get', portal_id: { __rl: true, mode: 'id', value: env.em.portalId } });
	console.log(`rule: ${limit} requests per ${windowMs} ms (documented: ${DOCUMENTED_RULE.limit} per ${DOCUMENTED_RULE.windowMs} ms), margin ${marginMs(rule)} ms`);
	console.log('items  requests  429s  time ms  minimum ms  overhead');
	try {
		for (const multiple of [1, 2, 3, 5]) {
			setPacingRule(rule);
			env.em.resetRateLimits();
			env.em.clearRequests();
			const n = multiple * limit;
			const started = Date.now();
			await env.run([node('Portal', {})], Array.from({ length: n }, (_, i) => ({ i })));
			const took = Date.now() - started;
			const requests = env.apiRequests();
			const minimum = Math.floor((n - 1) / limit) * windowMs;
			const row = [n, requests.length, requests.filter((r) => r.status === 429).length, took, minimum, minimum ? `${(took / minimum).toFixed(2)}x` : '-'];
			console.log(row.map((v, i) => String(v).padStart([5, 9, 5, 8, 11, 9][i])).join(' '));
		}
	} finally {
		setPacingRule(DOCUMENTED_RULE);
		await env.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
