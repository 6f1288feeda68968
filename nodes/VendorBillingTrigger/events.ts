/**
 * Events of the Vendor Billing Trigger (see nodes/shared/poll/poll.ts for the strategies).
 *
 * The billing-project list documents the sort column `created_time`, so new projects are
 * read newest first down to the cursor. The order parameter `sort_order=D` is inferred from
 * the accounting lists' `page_context.sort_order`; if a server ignored it the engine
 * notices the order and reads every page.
 */
import type { TriggerEvent } from '../shared/poll/event';

/** The resource's list operation (a value in the field tables). */
const LIST = 'getAll';

export const billingEvents: TriggerEvent[] = [
	{
		value: 'projectCreated',
		name: 'Billing Project Created',
		description: 'A new billing project was created',
		resource: 'project',
		operation: LIST,
		strategy: 'newest',
		sort: { sort_column: 'created_time', sort_order: 'D' },
		timeField: 'created_time',
		inferred: 'sort_order parameter',
		ifWrong:
			'If the service ignores the newest-first sort, each poll reads the whole list: slower, never wrong.',
	},
];
