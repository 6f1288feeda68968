/**
 * Environment for n8n-core, applied before n8n-core is first loaded (this module is imported first by
 * `./setup`). n8n-core's InstanceSettings writes `<N8N_USER_FOLDER>/.n8n/config`, so point it at a
 * throw-away temp dir instead of the user's home. Values already set by the caller are kept.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HARNESS_USER_FOLDER: string =
	process.env.N8N_USER_FOLDER ?? mkdtempSync(join(tmpdir(), 'n8n-harness-'));

const defaults: Record<string, string> = {
	N8N_USER_FOLDER: HARNESS_USER_FOLDER,
	N8N_ENCRYPTION_KEY: 'n8n-harness-test-encryption-key',
	N8N_LOG_LEVEL: 'silent',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	GENERIC_TIMEZONE: 'UTC',
};
for (const [key, value] of Object.entries(defaults)) {
	if (process.env[key] === undefined) process.env[key] = value;
}
