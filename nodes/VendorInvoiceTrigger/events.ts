/**
 * Events of the Vendor Payments Trigger (see nodes/shared/poll/poll.ts for the strategies).
 *
 * The customer-payment list has no documented sort (and its entries no time, only the
 * payment `date`), so every page is read and the payment ids compared with those known at
 * the last poll (ids of deleted payments are forgotten). Cost per poll:
 * ceil(payments / 200) calls. New payments are emitted ordered by `date`. A date cannot say
 * whether a payment came before activation, so one recorded while the first baseline could not
 * be read (an outage at activation) joins the baseline and is not emitted.
 */
import type { TriggerEvent } from '../shared/poll/poll';

/** The resource's list operation (a value in the field tables). */
const LIST = 'getAll';

export const invoiceEvents: TriggerEvent[] = [
	{
		value: 'paymentRecorded',
		name: 'Payment Recorded',
		description: 'A customer payment was recorded',
		resource: 'payment',
		operation: LIST,
		strategy: 'scan',
		timeField: 'date',
	},
];
