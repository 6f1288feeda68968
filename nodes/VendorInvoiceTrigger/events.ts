/**
 * Events of the Vendor Invoice Trigger (see nodes/shared/poll/poll.ts for the strategies).
 *
 * The customer-payment list has no documented sort (and its entries no time, only the
 * payment `date`), so every page is read and the payment ids compared with those known at
 * the last poll (ids of deleted payments are forgotten). Cost per poll:
 * ceil(payments / 200) calls. New payments are emitted ordered by `date`. A date cannot say
 * whether a payment came before activation, so one recorded while the first baseline could not
 * be read (an outage at activation) joins the baseline and is not emitted.
 *
 * Opt-in window ("Only Payments Dated Within the Last N Days"): the documented `date` filter
 * (one date, `yyyy-mm-dd`) is sent once for each day of the window (today in the workflow's
 * time zone and the days before, back to the day of the last poll), so a quiet poll costs one
 * call a day of the window instead of one per 200 payments. Its cost, said in the form: a
 * payment recorded with a date before the window is never emitted.
 */
import type { TriggerEvent } from '../shared/poll/event';

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
		window: {
			filter: 'date',
			label: 'Only Payments Dated Within the Last N Days',
			what: 'payments',
		},
	},
];
