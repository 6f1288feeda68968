/**
 * The service's clock for the trigger tests. The triggers read the service's time from its
 * answers' `Date` header (nodes/shared/api/clock.ts); the emulator's answers carry the `Date` of
 * this machine's real clock (Node's http server adds it), not of the emulator's `Clock` that
 * stamps its records. So the trigger tests talk to the emulator through the answer proxy
 * (test/tools/answer-proxy.ts), whose `serviceClock` dates every answer by the emulator's clock:
 * the service's time is the emulator's, and n8n's clock (faked or real) may differ from it by
 * any skew a test sets.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Clock } from '../../emulator/clock';
import { startAnswerProxy, type AnswerProxy } from '../tools/answer-proxy';
import type { WorkflowEnv } from './support';

/** Points the env's credential at a proxy in front of its emulator whose answers are dated by `clock`. */
export async function datedByServiceClock(env: WorkflowEnv, clock: Clock): Promise<AnswerProxy> {
	const proxy = await startAnswerProxy(env.em.url);
	proxy.serviceClock = () => clock.now();
	env.credentials = env.credentials.map((credential) => {
		const data = { ...credential.data };
		for (const key of ['accountsUrl', 'apiUrl', 'projectsUrl']) data[key] = String(data[key]).replace(env.em.url, proxy.url);
		// the stored token's api_domain is where the accounting areas are called
		const token = { ...(data.oauthTokenData as IDataObject) };
		if (typeof token.api_domain === 'string') token.api_domain = token.api_domain.replace(env.em.url, proxy.url);
		return { ...credential, data: { ...data, oauthTokenData: token } };
	});
	return proxy;
}
