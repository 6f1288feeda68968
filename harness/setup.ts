import { HARNESS_USER_FOLDER } from './env'; // first: it sets n8n's environment before n8n-core loads

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import * as core from 'n8n-core';
import { BinaryDataService, InstanceSettings } from 'n8n-core';

import { noteAdaptation } from './compat';

let done = false;

/** An n8n-core export that not every release has (the harness also runs on other releases' n8n-core: test/matrix/). */
function optionalExport<T = new (...args: never[]) => unknown>(name: string): T | undefined {
	return (core as unknown as Record<string, T | undefined>)[name];
}

/**
 * n8n-core's SSHClientsManager: exported by some releases, otherwise at a deep path (n8n-core
 * has no `exports` map, so the deep path works where it exists); undefined where neither is.
 */
function sshClientsManagerClass(): (new (...args: never[]) => unknown) | undefined {
	const exported = optionalExport('SSHClientsManager');
	if (exported) return exported;
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const deep = require('n8n-core/dist/execution-engine/ssh-clients-manager') as {
			SSHClientsManager?: new (...args: never[]) => unknown;
		};
		if (deep.SSHClientsManager) return deep.SSHClientsManager;
	} catch {
		// not at that path in this release
	}
	noteAdaptation('n8n-core has no SSHClientsManager: no SSH cleanup timer to unref');
	return undefined;
}

/** The key info n8n's KeyManagerService falls back to without a key store: the instance key itself, as the legacy aes-256-cbc key. */
interface EncryptionKeyInfo {
	id: string;
	value: string;
	algorithm: 'aes-256-cbc';
	format: 'no-prefix';
}

/**
 * Releases whose Cipher reads its keys through EncryptionKeyProxy (n8n sets the provider at
 * start): without a provider, some (2.40) cannot encrypt or decrypt credentials at all. Give
 * it what n8n's KeyManagerService gives without key rotation: the instance key as the legacy
 * key. Releases without the proxy, or whose proxy is configured already, are left alone.
 */
function configureEncryptionKeys(settings: InstanceSettings): void {
	const Proxy = optionalExport('EncryptionKeyProxy');
	const Cipher = optionalExport('Cipher');
	if (!Proxy || !Cipher) return;
	const proxy = Container.get(Proxy as unknown as new () => unknown) as {
		setProvider?: (provider: unknown) => void;
		isConfigured?: () => boolean;
		provider?: unknown;
	};
	const cipher = Container.get(Cipher as unknown as new () => unknown) as {
		encryptDEKWithInstanceKey?: (data: string) => string;
	};
	if (
		typeof proxy.setProvider !== 'function' ||
		typeof cipher.encryptDEKWithInstanceKey !== 'function'
	)
		return;
	if (proxy.isConfigured ? proxy.isConfigured() : proxy.provider !== undefined) return;
	const instanceKey: EncryptionKeyInfo = {
		id: 'instance-key',
		value: cipher.encryptDEKWithInstanceKey(settings.encryptionKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix',
	};
	proxy.setProvider({
		getActiveKey: async () => instanceKey,
		getKeyById: async (id: string) => (id === instanceKey.id ? instanceKey : null),
		getLegacyKey: async () => instanceKey,
	});
	noteAdaptation('n8n-core has an EncryptionKeyProxy: the instance key set as its key provider');
}

/**
 * One-time DI setup for n8n-core. Everything n8n-core needs is resolved lazily from `@n8n/di`'s
 * Container, so all we do is force construction of the services with the env from `./env`
 * (temp N8N_USER_FOLDER, fixed encryption key, silent logger).
 * BinaryDataService is deliberately NOT init()ed: without a manager it keeps binary data in memory
 * (base64 in `binary.data`), like n8n's old `default` mode.
 *
 * Services some n8n-core releases lack (the version matrix runs this harness on other releases'
 * n8n-core) are found by feature detection; what was adapted is listed by `harnessAdaptations()`.
 */
export function ensureHarnessSetup(): void {
	if (done) return;
	Container.get(Logger); // also initialises n8n-workflow's LoggerProxy
	const settings = Container.get(InstanceSettings);
	if (!settings.n8nFolder.startsWith(HARNESS_USER_FOLDER)) {
		throw new Error(
			`n8n-core's InstanceSettings uses ${settings.n8nFolder}, not the harness temp folder: ` +
				'import the harness before anything that constructs n8n-core services',
		);
	}
	const ExternalSecretsProxy = optionalExport('ExternalSecretsProxy');
	if (ExternalSecretsProxy) Container.get(ExternalSecretsProxy as unknown as new () => unknown);
	else noteAdaptation('n8n-core has no ExternalSecretsProxy: none in the additional data');
	configureEncryptionKeys(settings);
	Container.get(BinaryDataService);
	// Every Trigger/Poll context resolves SSHClientsManager, whose constructor starts a 60 s cleanup
	// setInterval (n8n clears it on shutdown). Unref it so jest can exit.
	const SSHClientsManager = sshClientsManagerClass();
	if (SSHClientsManager) {
		const ssh = Container.get(SSHClientsManager as unknown as new () => unknown) as {
			cleanupTimer?: NodeJS.Timeout;
		};
		ssh.cleanupTimer?.unref();
	}
	done = true;
}

/** n8n-core's ExternalSecretsProxy instance, where the release has one. */
export function externalSecretsProxy(): unknown {
	const ExternalSecretsProxy = optionalExport('ExternalSecretsProxy');
	return ExternalSecretsProxy
		? Container.get(ExternalSecretsProxy as unknown as new () => unknown)
		: undefined;
}

export { Container };
