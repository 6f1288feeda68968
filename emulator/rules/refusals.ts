/** Where the rules' refusals come from: the guesses, `refuse` that tags a reply, not-found in each area's form. */
import type { Source } from '../../nodes/shared/tables/spec';
import { SOURCE_HEADER } from '../source';
import { acctError, CODE, isAccounting, pmError } from './answers';
import type { Ctx, Reply } from './context';

/**
 * The guesses the emulator's refusals rest on, in the words of their docs/ASSUMPTIONS.md
 * bullets (test/emulator/sources.test.ts finds each there).
 */
export const GUESS = {
	notFound: 'guess: The emulator refuses a request naming a record that does not exist',
	paging:
		'guess: The emulator refuses a `page` or `per_page` that is not a whole number of at least 1',
	bulkIds: 'guess: The emulator refuses a print, PDF or bulk reminder call without ids',
	estimatePdf25: 'guess: split into calls of 25 IDs, one PDF each',
	invoiceIds:
		'guess: Unknown ids of an invoice PDF are refused (400); unknown ids of an invoice print get the code-0 answer of the estimate print',
	unknownLine:
		'guess: The emulator refuses an update naming a `line_item_id` the record does not have',
	reminderRecipient:
		'guess: The emulator refuses a payment reminder without `to_mail_ids` when the customer has no email address',
	billingRate: 'guess: The emulator refuses a billing project `rate` that is not a number',
	billingCustomer:
		'guess: The emulator refuses a billing project whose customer is blank or unknown with its own codes',
	binFilter:
		'guess: The emulator refuses bin filters with a `cfid` other than module, name and id or a `criteria_condition` other than is, is_not, contains and starts_with',
	unnamedQuery:
		'guess: The emulator accepts query parameters no table names on estimate and invoice create and update and on estimate get',
	tableShape:
		'guess: The emulator refuses a key no field table names and a value whose type is not the one its field table gives',
} as const satisfies Record<string, Source>;

/** Tags a refusal with its source (in the reply and in the `X-Emulator-Source` header). */
export function refuse(source: Source, reply: Reply): Reply {
	return { ...reply, source, headers: { ...reply.headers, [SOURCE_HEADER]: source } };
}

/** The source of `notFound` for a billing project (code 1002). */
export const BILLING_PROJECT_NOT_FOUND: Source =
	'Payments, Errors: "1002 | project does not exist"';

/** The source of `notFound` for every other record. */
export const NOT_FOUND: readonly Source[] = [GUESS.notFound];

export function notFound(ctx: Ctx, thing: string, id: string, status = 404): Reply {
	if (ctx.area.value === 'billing' && thing === 'Project')
		return refuse(
			BILLING_PROJECT_NOT_FOUND,
			acctError(status, CODE.billingProjectNotFound, 'Project does not exist.'),
		);
	if (isAccounting(ctx.area))
		return refuse(
			GUESS.notFound,
			acctError(status, CODE.notFound, `${thing} ${id} does not exist.`),
		);
	return refuse(
		GUESS.notFound,
		pmError(status, 'INVALID_PARAMETER_VALUE', `No ${thing.toLowerCase()} with id ${id}`),
	);
}
