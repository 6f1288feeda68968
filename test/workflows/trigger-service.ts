/**
 * The service's clock for the trigger tests. The triggers read the service's time from its
 * answers' `Date` header (nodes/shared/api/clock.ts); the emulator dates its answers by its own
 * `Clock`, as it stamps its records. The suites that put the answer proxy
 * (test/tools/answer-proxy.ts) in front of it give the proxy the same clock (`serviceClock`), so
 * that the answers the proxy makes up itself are dated by the service's time too: n8n's clock
 * (faked or real) may differ from it by any skew a test sets.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Clock } from '../../emulator/clock';
import type { Tenant } from '../../emulator/store';
import { startAnswerProxy, type AnswerProxy } from '../tools/answer-proxy';
import type { WorkflowEnv } from './support';

/** Points the env's credential at a proxy in front of its emulator whose answers, made up or passed on, are dated by `clock`. */
export async function datedByServiceClock(env: WorkflowEnv, clock: Clock): Promise<AnswerProxy> {
	const proxy = await startAnswerProxy(env.em.url);
	proxy.serviceClock = () => clock.now();
	env.credentials = env.credentials.map((credential) => {
		const data = { ...credential.data };
		for (const key of ['accountsUrl', 'apiUrl', 'projectsUrl'])
			data[key] = String(data[key]).replace(env.em.url, proxy.url);
		// the stored token's api_domain is where the accounting areas are called
		const token = { ...(data.oauthTokenData as IDataObject) };
		if (typeof token.api_domain === 'string')
			token.api_domain = token.api_domain.replace(env.em.url, proxy.url);
		return { ...credential, data: { ...data, oauthTokenData: token } };
	});
	return proxy;
}

/** What a trigger suite reads of its emulator once started: the dated proxy, the organization and portal, their stores, a customer. */
interface TriggerAccount {
	proxy: AnswerProxy;
	org: string;
	portal: string;
	tenant: Tenant;
	portalTenant: Tenant;
	customer: string;
}

/**
 * Starts the env (the emulator with demo data on `clock`) behind a proxy dating its answers by
 * `clock`, before the suite's tests, and stops both after them; `account` is filled in before the
 * tests run.
 */
export function useDatedTriggerEnv(
	env: WorkflowEnv,
	clock: Clock,
	account: (started: TriggerAccount) => void,
): void {
	let proxy: AnswerProxy | undefined;
	beforeAll(async () => {
		await env.start({ demo: true, clock });
		proxy = await datedByServiceClock(env, clock);
		const tenant = env.orgTenant();
		account({
			proxy,
			org: env.em.organizationId,
			portal: env.em.portalId,
			tenant,
			portalTenant: env.portalTenant(),
			customer: String(tenant.all('customers')[0].customer_id),
		});
	});
	afterAll(async () => {
		await proxy?.close();
		await env.stop();
	});
}
