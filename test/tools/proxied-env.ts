/**
 * A workflow environment whose credential's URLs point at an answer proxy in front of the
 * emulator: workflows run as usual (everything forwarded), and a test adds proxy rules to
 * change the answers of some calls. Set-up calls (`env.call`) still go to the emulator itself.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EmulatorOptions } from '../../emulator/server';
import { useWorkflowEnv } from '../workflows/support';
import type { WorkflowEnv } from '../workflows/support';
import { startAnswerProxy } from './answer-proxy';
import type { AnswerProxy } from './answer-proxy';

interface ProxiedEnv {
	env: WorkflowEnv;
	/** Set in `beforeAll`; its rules and records are cleared before each test. */
	proxy: AnswerProxy;
}

/** `url` with the emulator's base URL replaced by the proxy's. */
function viaProxy(url: unknown, emulatorBase: string, proxyBase: string): string {
	return String(url).replace(emulatorBase, proxyBase);
}

/**
 * A WorkflowEnv (started before the tests of the file, stopped after them) whose credential
 * reaches the API areas and the accounts server through an answer proxy, the token's
 * `api_domain` included.
 */
export function useProxiedEnv(opts: EmulatorOptions = {}): ProxiedEnv {
	const env = useWorkflowEnv(opts);
	const holder = { env } as ProxiedEnv;
	beforeAll(async () => {
		const emulatorBase = new URL(env.em.regionUrls().api).origin;
		holder.proxy = await startAnswerProxy(emulatorBase);
		const [credential] = env.credentials;
		const data = credential.data as IDataObject;
		const token = data.oauthTokenData as IDataObject;
		const proxied = (key: string) => viaProxy(data[key], emulatorBase, holder.proxy.url);
		credential.data = {
			...data,
			accountsUrl: proxied('accountsUrl'),
			apiUrl: proxied('apiUrl'),
			projectsUrl: proxied('projectsUrl'),
			oauthTokenData: {
				...token,
				...(token.api_domain
					? { api_domain: viaProxy(token.api_domain, emulatorBase, holder.proxy.url) }
					: {}),
			},
		};
	});
	afterAll(async () => await holder.proxy?.close());
	beforeEach(() => holder.proxy?.reset());
	return holder;
}
