import './env';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { BinaryDataService, ExternalSecretsProxy, InstanceSettings } from 'n8n-core';
// not re-exported by n8n-core's index; n8n-core has no `exports` map, so the deep path is stable enough
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { HARNESS_USER_FOLDER } from './env';

let done = false;
let filesystemBinary: Promise<void> | undefined;

/**
 * One-time DI setup for n8n-core. Everything n8n-core needs is resolved lazily from `@n8n/di`'s
 * Container, so all we do is force construction of the services with the env from `./env`
 * (temp N8N_USER_FOLDER, fixed encryption key, silent logger).
 * BinaryDataService is deliberately NOT init()ed: without a manager it keeps binary data in memory
 * (base64 in `binary.data`), like n8n's old `default` mode.
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
	Container.get(ExternalSecretsProxy);
	Container.get(BinaryDataService);
	// Every Trigger/Poll context resolves SSHClientsManager, whose constructor starts a 60 s cleanup
	// setInterval (n8n clears it on shutdown). Unref it so jest can exit.
	const ssh = Container.get(SSHClientsManager) as unknown as { cleanupTimer?: NodeJS.Timeout };
	ssh.cleanupTimer?.unref();
	done = true;
}

/**
 * Opt-in: switch BinaryDataService to n8n's `filesystem` mode (files under the temp user folder,
 * `binary.id` set, `binary.data` = 'filesystem-v2'). Global for the process; call in `beforeAll`.
 */
export async function useFilesystemBinaryData(): Promise<void> {
	ensureHarnessSetup();
	filesystemBinary ??= Container.get(BinaryDataService).init();
	await filesystemBinary;
}

export { Container };
