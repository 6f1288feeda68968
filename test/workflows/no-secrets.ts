/**
 * "Secrets never appear in errors, logs or outputs", as the independent suites check it: every
 * string reachable from a run's data and its error (the non-enumerable members of errors too)
 * holds none of the credential's access token, refresh token and client secret.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../../harness';
import type { WorkflowEnv } from './support';

/** The access token, the refresh token and the client secret the env's credential holds now. */
export function credentialSecrets(env: WorkflowEnv): string[] {
	const data = env.credentials[0].data as IDataObject;
	const token = data.oauthTokenData as IDataObject;
	return [
		String(token.access_token),
		String(token.refresh_token),
		String(data.clientSecret),
	].filter((s) => s.length > 8);
}

/** Every string reachable from `value`, the non-enumerable members of errors included (message, description, cause, context). */
export function allText(value: unknown, seen = new Set<unknown>(), depth = 0): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value !== 'object') return String(value);
	if (seen.has(value) || depth > 12) return '';
	seen.add(value);
	if (Buffer.isBuffer(value)) return value.toString('utf8');
	const names =
		value instanceof Error
			? [
					...new Set([
						...Object.getOwnPropertyNames(value),
						'message',
						'description',
						'cause',
						'context',
					]),
				]
			: Object.keys(value);
	return names
		.map((k) => `${k}=${allText((value as Record<string, unknown>)[k], seen, depth + 1)}`)
		.join('\n');
}

/** The run's outputs and errors hold no secret of the env's credential. */
export function expectNoSecrets(env: WorkflowEnv, result: RunResult): void {
	const text = allText(result.run.data.resultData) + allText(result.error());
	const found = credentialSecrets(env)
		.filter((s) => text.includes(s))
		.map((s) => `${s.slice(0, 6)}...`);
	expect(found).toEqual([]);
}
