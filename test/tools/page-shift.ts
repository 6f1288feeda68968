/** A change to a list between two page reads, for the generated paging tests (test/api/pages-shift.test.ts, test/properties/shifting-pages.test.ts). */
export interface Shift {
	/** Before the read of this page (2 or later). */
	beforePage: number;
	kind: 'insert' | 'delete';
	count: number;
	/** Where a deletion falls, as a fraction of the list. */
	at: number;
}
