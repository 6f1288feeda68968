/**
 * Custom API Calls of Vendor Projects go through the area's pacing like every operation:
 * with the documented rule scaled down (5 requests per 500 ms, the logic unchanged), 3x the
 * limit of custom calls get no 429.
 */
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { expectNoError, json, steps } from '../../harness/workflows';
import { WorkflowEnv } from './support';

const RULE = { limit: 5, windowMs: 500, blockMs: 750 };
const env = new WorkflowEnv();

beforeAll(async () => {
	await env.start({ demo: true, rateLimit: RULE });
	setPacingRule(RULE);
});
afterAll(async () => {
	setPacingRule(DOCUMENTED_RULE);
	await env.stop();
});

test('15 custom calls (3x the limit) are paced: no 429, never more than the limit in a window', async () => {
	const custom = steps('vendorProjects', { resource: 'customApiCall' });
	const result = await env.run(
		[
			custom('Portal', {
				customMethod: 'GET',
				customPath: '/portal/{portal_id}',
				portal_id: { __rl: true, mode: 'id', value: env.portal },
			}),
		],
		Array.from({ length: 15 }, (_, i) => ({ i })),
	);
	expectNoError(result);
	expect(json(result, 'Portal')).toHaveLength(15);
	const requests = env.apiRequests();
	expect(requests.map((r) => r.status)).toEqual(Array(15).fill(200));
	const times = requests.map((r) => r.time);
	for (let i = RULE.limit; i < times.length; i++)
		expect(times[i] - times[i - RULE.limit]).toBeGreaterThanOrEqual(RULE.windowMs);
	env.expectSigned({ ok: true });
});
