/**
 * A polling trigger activated during an outage, through n8n-core's own ActiveWorkflows
 * (test/harness/activation.ts) against the emulator. n8n runs the first poll at activation
 * and fails the activation if it throws; n8n then gives up after a few retries and the
 * workflow reads active but never polls. So a transient failure there (a rate-limit block,
 * a 503, a token endpoint that did not answer) must leave the workflow active, with the
 * poll scheduled, and the first poll after the outage must emit what was created meanwhile,
 * each record once, and not the records that existed before activation. A permanent failure
 * (a revoked refresh token, an unknown organization, bad input) still fails the activation.
 *
 * Time: n8n's clock (Date, faked here; timers stay real) and the emulator's clock move
 * together, only when the test says so (`later`). The tests run the poll n8n handed the
 * cron instead of waiting for the cron.
 */
import { Logger } from '@n8n/backend-common';
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { RateLimitBlockedError } from '../../nodes/shared/api/failures';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';
import { Clock } from '../emulator/clock';
import { timestamp } from '../emulator/rules/common';
import { Container } from '../harness/setup';
import { activateTrigger, type ActiveTrigger } from '../harness/activation';
import { byId, vendorNode, WorkflowEnv } from './support';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const env = new WorkflowEnv();
const clock = new Clock({ start: T0 });

/** Moves n8n's clock and the emulator's together. */
function later(ms: number): void {
	clock.advance(ms);
	jest.setSystemTime(clock.now());
}

const warn = jest.spyOn(Container.get(Logger), 'warn');
const active: ActiveTrigger[] = [];

beforeAll(async () => {
	// only Date is faked: the network, the emulator and the transport's timers run as usual
	jest.useFakeTimers({
		now: T0,
		doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
	});
	await env.start({ demo: true, clock });
});
afterAll(async () => {
	await env.stop();
	jest.useRealTimers();
});
beforeEach(() => {
	env.em.clearRequests();
	env.em.faults.clear();
	warn.mockClear();
	// records made before this test are before its activation
	later(10_000);
});
afterEach(async () => {
	for (const trigger of active.splice(0)) await trigger.deactivate();
	// a block a test left in the transport's pacer ends with the test (resets the pacers)
	setPacingRule(DOCUMENTED_RULE);
});

async function activate(type: new () => INodeType, parameters: IDataObject, staticData?: IDataObject): Promise<ActiveTrigger> {
	const trigger = await activateTrigger({
		nodeType: type,
		node: vendorNode(type, parameters, 'Trigger'),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		staticData,
	});
	active.push(trigger);
	return trigger;
}

/** The field `field` of every item every poll emitted so far, in order. */
const emittedIds = (trigger: ActiveTrigger, field: string) => trigger.emitted.flatMap((run) => run[0].map((item) => String(item.json[field])));

async function create(area: string, path: string, json: IDataObject, key: string): Promise<string> {
	const res = await env.call('POST', area, path, { json });
	if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
	const rec = (res.body[key] ?? res.body) as IDataObject;
	return String(rec[`${key}_id`] ?? rec.id);
}

const customer = () => String(env.orgTenant().all('customers')[0].customer_id);
const newEstimate = async () => await create('books', '/estimates', { customer_id: customer(), line_items: [{ name: 'Work', rate: 100, quantity: 1 }] }, 'estimate');
const newProject = async (name: string) => await create('projects', `/portal/${env.portal}/projects`, { name }, 'project');

/** The warnings logged, with nothing secret in them. */
function warnings(): string[] {
	const text = warn.mock.calls.map((call) => JSON.stringify(call));
	const secrets = [env.em.defaultClient.clientSecret, String(env.storedToken.access_token), String(env.storedToken.refresh_token)];
	for (const line of text) for (const secret of secrets) expect(line).not.toContain(secret);
	return warn.mock.calls.map((call) => String(call[0]));
}

test('Vendor Projects Trigger activated during a rate-limit block: stays active, later polls report the block, the first poll after it emits the projects created meanwhile, once', async () => {
	const before = await newProject('Existed before activation');
	later(1_000);
	env.em.clearRequests();
	// The project-management area answers 429 without Retry-After: its 30-minute block.
	env.em.faults.next(1, { kind: 'status', status: 429 }, 'projects');
	const trigger = await activate(VendorProjectsTrigger, { event: 'projectCreated', portal_id: byId(env.portal) });

	expect(trigger.isActive()).toBe(true);
	expect(trigger.scheduled).toBe(1);
	expect(trigger.emitted).toEqual([]);
	expect(env.apiRequests().map((r) => r.status)).toEqual([429]);
	expect(warnings()).toEqual([expect.stringMatching(/^The first poll of "Trigger" at the activation of workflow ".*" failed: The Vendor API blocks further requests until .*\. The workflow stays active/)]);

	later(1_000);
	const a = await newProject('Alpha');
	const b = await newProject('Beta');

	// A poll during the block: reported through n8n as an error (an error execution), nothing sent, nothing emitted.
	later(60_000);
	env.em.clearRequests();
	await trigger.poll();
	expect(trigger.errors).toHaveLength(1);
	expect(trigger.errors[0]).toBeInstanceOf(RateLimitBlockedError);
	expect(env.apiRequests()).toEqual([]);
	expect(trigger.emitted).toEqual([]);

	// The block lifts: the projects created since activation, each once; not the one from before.
	later(30 * 60_000);
	const c = await newProject('Gamma');
	await trigger.poll();
	expect(emittedIds(trigger, 'id')).toEqual([a, b, c]);
	expect(emittedIds(trigger, 'id')).not.toContain(before);
	await trigger.poll();
	expect(trigger.emitted).toHaveLength(1);
	later(1_000);
	const d = await newProject('Delta');
	await trigger.poll();
	expect(emittedIds(trigger, 'id')).toEqual([a, b, c, d]);
	expect(trigger.errors).toHaveLength(1);
});

test('Vendor Books Trigger activated while the API answers 503: stays active; after the outage the estimates created meanwhile, once, none from before', async () => {
	const org = env.org;
	await newEstimate();
	later(1_000);
	env.em.clearRequests();
	// every attempt of the read (first try and 3 retries) answered 503, at once
	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	const trigger = await activate(VendorBooksTrigger, { organizationId: org, event: 'estimateCreated' });
	expect(trigger.isActive()).toBe(true);
	expect(env.apiRequests().map((r) => r.status)).toEqual([503, 503, 503, 503]);
	expect(warnings()).toEqual([expect.stringContaining('failed: Service unavailable. Try again later. (code 503)')]);

	later(1_000);
	const x = await newEstimate();
	const y = await newEstimate();
	later(1_000);
	const z = await newEstimate();
	await trigger.poll();
	expect(trigger.errors).toEqual([]);
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x, y, z]);
	await trigger.poll();
	expect(trigger.emitted).toHaveLength(1);
});

test('Vendor Books Trigger: a later poll answered 503 is reported through n8n (it throws), as before', async () => {
	const trigger = await activate(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' });
	expect(trigger.emitted).toEqual([]);
	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	await trigger.poll();
	expect(trigger.errors.map((e) => e.message)).toEqual(['Service unavailable. Try again later. (code 503)']);
	expect(warnings()).toEqual([]);
	later(1_000);
	const x = await newEstimate();
	await trigger.poll();
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x]);
});

test('n8n restarts during an outage: the kept state is kept, and the next poll emits what was created since the last poll before the restart', async () => {
	const first = await activate(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' });
	later(1_000);
	const missed = await newEstimate();
	const state = first.staticData();
	await first.deactivate();

	env.em.faults.next(4, { kind: 'status', status: 503, retryAfter: 0 }, 'books');
	const restarted = await activateTrigger({
		nodeType: VendorBooksTrigger,
		node: vendorNode(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' }, 'Trigger'),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		staticData: state,
		activation: 'init',
	});
	active.push(restarted);
	expect(restarted.isActive()).toBe(true);
	expect(restarted.staticData()).toEqual(state);
	later(1_000);
	const meanwhile = await newEstimate();
	await restarted.poll();
	expect(emittedIds(restarted, 'estimate_id')).toEqual([missed, meanwhile]);
});

test('a token endpoint that does not answer at activation: stays active; the next poll refreshes and emits what was created meanwhile', async () => {
	env.em.accounts.expireAllAccessTokens();
	env.em.faults.next(1, { kind: 'status', status: 503 }, (r) => r.area === 'accounts' && r.path.includes('/oauth/v2/token'));
	const trigger = await activate(VendorBooksTrigger, { organizationId: env.org, event: 'estimateCreated' });
	expect(trigger.isActive()).toBe(true);
	// the expired token answered 401, the refresh got a 503
	expect(env.apiRequests().map((r) => r.status)).toEqual([401]);
	expect(warnings()).toEqual([expect.stringContaining('failed: The access token could not be refreshed (the token endpoint answered HTTP 503)')]);
	// an estimate made in the Vendor UI meanwhile (the stored token is expired, so not through the API)
	later(1_000);
	const x = env.em.store.nextId();
	const stamp = timestamp(clock.now());
	env.orgTenant().put('estimates', x, { estimate_id: x, estimate_number: 'EST-OUTAGE', customer_id: customer(), status: 'draft', created_time: stamp, last_modified_time: stamp });
	await trigger.poll();
	expect(trigger.errors).toEqual([]);
	expect(emittedIds(trigger, 'estimate_id')).toEqual([x]);
	expect(env.tokenRequests().map((r) => r.status)).toEqual([503, 200]);
});

describe('a permanent failure still fails the activation with its error', () => {
	const books = (parameters: IDataObject) =>
		activateTrigger({ nodeType: VendorBooksTrigger, node: vendorNode(VendorBooksTrigger, parameters, 'Trigger'), credentials: env.credentials, credentialTypes: [VendorOAuth2Api] });

	test('an unknown organization', async () => {
		await expect(books({ organizationId: '999999999', event: 'estimateCreated' })).rejects.toThrow(
			/^There was a problem activating the workflow: ".*The organization id 999999999 .* is not an organization of this account/,
		);
		expect(warnings()).toEqual([]);
	});

	test('bad input: refused before anything is sent', async () => {
		await expect(books({ organizationId: env.org, event: 'estimateCreated', filters: { date_start: '02/03/2026' } })).rejects.toThrow(/Date Start must be a date/);
		expect(env.apiRequests()).toEqual([]);
	});

	test('a revoked refresh token, for the Projects and the Books trigger', async () => {
		env.em.accounts.revokeRefreshToken(String(env.storedToken.refresh_token));
		env.em.accounts.expireAllAccessTokens();
		await expect(books({ organizationId: env.org, event: 'estimateCreated' })).rejects.toThrow(
			'There was a problem activating the workflow: "The access token could not be refreshed (invalid_code)"',
		);
		const projects = activateTrigger({
			nodeType: VendorProjectsTrigger,
			node: vendorNode(VendorProjectsTrigger, { event: 'projectCreated', portal_id: byId(env.portal) }, 'Trigger'),
			credentials: env.credentials,
			credentialTypes: [VendorOAuth2Api],
		});
		await expect(projects).rejects.toThrow('The access token could not be refreshed (invalid_code)');
		expect(warnings()).toEqual([]);
		// the stored access token was refused, and nothing was read with another
		expect(env.apiRequests().map((r) => r.status)).toEqual([401, 401]);
	});
});
