/**
 * Parts of the field tables shared by several areas, said the same way everywhere: the
 * notice of a list whose paging the documents do not show, and the inferred sort direction
 * of the accounting lists.
 */
import type { Field, Source } from './spec';

/**
 * The UI notice (`inferredNote`) of a list whose paging the documents do not show (payments,
 * billing projects and their invoices, bills): paged as the Books lists are.
 */
/** The source of every `readOnly` member: what the service computes is taken as response-only. */
export const COMPUTED_MEMBER: Source =
	'guess: Members the service computes are taken as response-only, one rule for every table';

export const GUESSED_PAGING =
	"this list's paging is not in the vendor's API reference; it is paged as in Vendor Books (page, per_page, page_context), and without page_context Return All stops at a short page.";

/** The form's notice on a list whose paging is guessed: what the user notices if the guess is wrong. */
export const PAGING_NOTICE =
	"If 'Return All' stops early or repeats records, set a 'Limit' instead";

/** Sort direction of Books lists: the lists' `page_context` answers `sort_column` and `sort_order` (`A` or `D`). */
export const sortOrder: Field = {
	name: 'sort_order',
	type: 'enum',
	values: ['A', 'D'],
	valueLabels: { A: 'Ascending', D: 'Descending' },
	inferred: true,
	description: 'Ascending or descending order',
	sources: 'guess: Inferred names, marked `inferred` in the tables',
};
