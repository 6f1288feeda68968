/**
 * Events of the Vendor Projects Trigger (see nodes/shared/poll/poll.ts for the strategies).
 *
 * - Projects: the list takes only page / per_page (no sort) and its record fields are not
 *   shown, so every page is read: new ids are "created", a changed record (fingerprint of
 *   the whole record) is "updated". Cost per poll: ceil(projects / 200) calls, paced under
 *   the area's rate limit. `id` (the key) and `created_time` (emission order) follow the
 *   fields the project picker already relies on: inferred.
 * - Trash (the `bin` list): documented as sortable by trashed_time, written `asc(field)`; newest first is sent
 *   as `desc(trashed_time)` (the same form, inferred). Entries are keyed by module + id, so
 *   a record trashed, restored and trashed again is emitted again. The entry fields `id`,
 *   `module` and `trashed_time` are not shown in the documents: inferred.
 */
import type { TriggerEvent } from '../shared/poll/event';

/** The resource's list operation (a value in the field tables). */
const LIST = 'getAll';

export const projectsEvents: TriggerEvent[] = [
	{
		value: 'projectCreated',
		name: 'Project Created',
		description: 'A new project was created',
		resource: 'project',
		operation: LIST,
		strategy: 'scan',
		timeField: 'created_time',
		inferred: 'record fields id, created_time',
		ifWrong:
			'If the service names these records differently, no event fires: use Fetch Test Event to check.',
	},
	{
		value: 'projectUpdated',
		name: 'Project Updated',
		description: 'A project changed (any field)',
		resource: 'project',
		operation: LIST,
		strategy: 'changed',
		timeField: 'last_modified_time',
		inferred: 'record fields id, last_modified_time',
		ifWrong:
			'If the service names these records differently, no event fires: use Fetch Test Event to check.',
	},
	{
		value: 'recordTrashed',
		name: 'Record Moved to Trash',
		description: 'A project, phase, task list, task or issue was moved to the trash',
		resource: 'trash',
		operation: 'getBin',
		strategy: 'newest',
		sort: { sort_by: 'desc(trashed_time)' },
		timeField: 'trashed_time',
		key: ['module', 'id'],
		inferred: 'desc(...) form of sort_by; entry fields id, module, trashed_time',
		ifWrong:
			'If the service names these records differently, no event fires: use Fetch Test Event to check.',
	},
];
