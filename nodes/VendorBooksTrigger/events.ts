/**
 * Events of the Vendor Books Trigger (see nodes/shared/poll/poll.ts for the strategies).
 *
 * - Estimates and invoices: the documents name the sort column `created_time` for both
 *   lists, so "created" events read newest first and stop at the cursor. The parameter
 *   names `sort_column` and `sort_order` (`D`, as `page_context.sort_order` answers) are
 *   inferred; if a server ignored them the engine notices the order and reads every page.
 * - Status changes: the documented sort columns (estimates: customer_name, estimate_number,
 *   date, total, created_time; invoices: the same with invoice_number, due_date, balance) have
 *   no modification time, so nothing documented lets a poll stop early: the list filtered by
 *   the status (`status`, name inferred) is read in full and compared with the ids that
 *   were in that status at the last poll (only those are remembered). Cost per poll:
 *   ceil(records in that status / 200) calls; narrow it with the date or customer filters.
 *   A guessed sort by last_modified_time is not used: whether a status reached by time
 *   (overdue) changes last_modified_time is not shown, so a wrong guess could lose records
 *   without any answer showing it.
 * - Items: the documented sort columns are name, rate and tax_name (no time), and items
 *   carry no time field, so the whole list (`filter_by=Status.All`, so that an item made
 *   inactive is not forgotten and re-emitted later) is compared with the ids known. With no
 *   time, an item created while the first baseline could not be read (an outage at
 *   activation) joins the baseline and is not emitted.
 */
import type { TriggerEvent } from '../shared/poll/event';

/** The resource's list operation (a value in the field tables). */
const LIST = 'getAll';

const NEWEST = { sort_column: 'created_time', sort_order: 'D' };

export const booksEvents: TriggerEvent[] = [
	{
		value: 'estimateCreated',
		name: 'Estimate Created',
		description: 'A new estimate was created',
		resource: 'estimate',
		operation: LIST,
		strategy: 'newest',
		sort: NEWEST,
		timeField: 'created_time',
		inferred: 'sort_column / sort_order parameter names',
		ifWrong:
			'If the service ignores the newest-first sort, each poll reads the whole list: slower, never wrong.',
	},
	{
		value: 'estimateStatusChanged',
		name: 'Estimate Status Changed',
		description:
			'An estimate changed to the chosen status (accepted, declined, sent, expired, invoiced)',
		resource: 'estimate',
		operation: LIST,
		strategy: 'scan',
		sort: NEWEST,
		timeField: 'last_modified_time',
		status: {
			field: 'status',
			filter: 'status',
			values: ['accepted', 'declined', 'expired', 'invoiced', 'sent'],
		},
		exclude: ['status', 'filter_by'],
		inferred: 'status filter parameter name',
		ifWrong:
			'If the service ignores the status filter, each poll reads the whole list: slower, never wrong.',
	},
	{
		value: 'invoiceCreated',
		name: 'Invoice Created',
		description: 'A new invoice was created',
		resource: 'invoice',
		operation: LIST,
		strategy: 'newest',
		sort: NEWEST,
		timeField: 'created_time',
		inferred: 'sort_column / sort_order parameter names',
		ifWrong:
			'If the service ignores the newest-first sort, each poll reads the whole list: slower, never wrong.',
	},
	{
		value: 'invoiceStatusChanged',
		name: 'Invoice Status Changed',
		description: 'An invoice became overdue, paid or partially paid',
		resource: 'invoice',
		operation: LIST,
		strategy: 'scan',
		sort: NEWEST,
		timeField: 'last_modified_time',
		status: { field: 'status', filter: 'status', values: ['overdue', 'paid', 'partially_paid'] },
		exclude: ['status', 'filter_by'],
		inferred: 'status filter parameter name',
		ifWrong:
			'If the service ignores the status filter, each poll reads the whole list: slower, never wrong.',
	},
	{
		value: 'itemCreated',
		name: 'Item Created',
		description: 'A new item was created',
		resource: 'item',
		operation: LIST,
		strategy: 'scan',
		query: { filter_by: 'Status.All' },
		inferred: 'filter_by parameter name',
		ifWrong:
			'If the service ignores the filter, each poll reads the whole list: slower, never wrong.',
	},
];
