/**
 * What only the trigger suites use beside their large accounts (emulator/seed.ts) and events
 * (harness/trigger-events.ts): a case's parameters for an emulator, and a change of its own
 * each time.
 */
import type { IDataObject } from 'n8n-workflow';

import { timestampMs } from '../../emulator/rules/formats';
import type { Account } from '../../emulator/seed';
import type { EventCase } from '../../harness/trigger-events';

/** A case's parameters for the emulator `env` (its organisation and portal), with a budget that never skips a poll. */
export function withIds(
	parameters: IDataObject,
	env: { org: string; portal: string },
): IDataObject {
	const out: IDataObject = { ...parameters, maxCallsPerDay: 1_000_000 };
	if (out.organizationId) out.organizationId = env.org;
	if (out.portal_id) out.portal_id = { __rl: true, mode: 'id', value: env.portal };
	return out;
}

/** A change of its own each time for Project Updated (the shared change edits the first project only), from the project after `skip`. */
export function changeOf(c: EventCase, skip = 0): (a: Account) => string {
	if (c.parameters.event !== 'projectUpdated') return c.change;
	let n = skip;
	return (a) => {
		const project = a.portal.all('projects')[++n];
		project.description = `Changed at ${a.clock.now()}`;
		project.last_modified_time = timestampMs(a.clock.now());
		return String(project.id);
	};
}
