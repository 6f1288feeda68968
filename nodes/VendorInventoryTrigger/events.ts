/**
 * Events of the Vendor Inventory Trigger (see nodes/shared/poll/poll.ts for the strategies).
 *
 * The bill list states no input at all (no sort, no filter), so every page is read and the
 * bill ids compared with those known at the last poll. Cost per poll: ceil(bills / 200)
 * calls. New bills are emitted ordered by `created_time` (a documented bill field).
 */
import type { TriggerEvent } from '../shared/poll/event';

/** The resource's list operation (a value in the field tables). */
const LIST = 'getAll';

export const inventoryEvents: TriggerEvent[] = [
	{
		value: 'billCreated',
		name: 'Bill Created',
		description: 'A new bill was created',
		resource: 'bill',
		operation: LIST,
		strategy: 'scan',
		timeField: 'created_time',
	},
];
