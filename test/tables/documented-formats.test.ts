/**
 * Rules applied as their sources say, refused before anything is sent: a bill's
 * `gst_no` is 15 letters and digits (the Payments document says "15-digit string"; real GST numbers carry
 * letters, a guess of docs/ASSUMPTIONS.md), and a custom-field date-time is
 * `yyyy-MM-dd'T'HH:mm:ss'Z'` or `yyyy-MM-dd'T'HH:mm:ss[+|-]HH:mm` (the Conventions document): seconds
 * required, no fraction, the offset with its colon. The guessed answer keys' notices say what a
 * different key looks like. The emulator's side is in test/emulator/table-sources.test.ts.
 * Run: npx jest test/tables/documented-formats --maxWorkers=1
 */
import { customFieldValues } from '../../nodes/VendorProjects/customFields';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import type { Operation } from '../../nodes/shared/tables/spec';
import { checkValues } from '../../nodes/shared/tables/validate';

const billOp = (value: string): Operation => {
	const op = inventoryArea.resources[0].operations.find((o) => o.value === value);
	if (!op) throw new Error(`no bill ${value}`);
	return op;
};

const BILL = {
	vendor_id: '1800000000001',
	bill_number: 'B-1',
	date: '2026-01-31',
	due_date: '2026-02-28',
	line_items: [{ name: 'Paper', rate: 1 }],
};

describe("a bill's GST number is 15 letters and digits", () => {
	test.each(['create', 'update'])(
		'%s: other characters and other lengths are refused before sending, naming the field; 15 letters and digits pass',
		(value) => {
			const op = billOp(value);
			const base = value === 'update' ? { ...BILL, bill_id: '1900000000001' } : BILL;
			expect(() => checkValues(op, { ...base, gst_no: '22AAAAA-000A1Z5' })).toThrow(
				/GST No.*may hold only letters \(A-Z\) and digits/,
			);
			expect(() => checkValues(op, { ...base, gst_no: '22AAAAA 000A1Z5' })).toThrow(
				/GST No.*may hold only letters \(A-Z\) and digits/,
			);
			expect(() => checkValues(op, { ...base, gst_no: '2212345678901' })).toThrow(
				/GST No.*must be at least 15 characters/,
			);
			expect(() => checkValues(op, { ...base, gst_no: '22AAAAA0000A1Z5X' })).toThrow(
				/GST No.*must be at most 15 characters/,
			);
			expect(() => checkValues(op, { ...base, gst_no: '22AAAAA0000A1Z5' })).not.toThrow();
			expect(() => checkValues(op, { ...base, gst_no: '221234567890123' })).not.toThrow();
		},
	);
});

describe('a custom-field date-time is written as documented', () => {
	const send = (value: string) =>
		customFieldValues([{ apiName: 'cf_due', type: 'dateTime', value }], false, []);

	test.each([
		'2026-01-31T09:30Z',
		'2026-01-31T09:30:00.250Z',
		'2026-01-31T09:30:00+0530',
		'2026-01-31T24:00:00Z',
		'2026-13-31T09:30:00Z',
	])('%s is refused before sending, saying the documented forms', (value) => {
		expect(() => send(value)).toThrow(
			/"cf_due" must be a date-time with seconds, written 2026-01-31T09:30:00Z \(UTC\) or 2026-01-31T09:30:00\+05:30/,
		);
	});

	test.each(['2026-01-31T09:30:00Z', '2026-01-31T09:30:00+05:30', '2026-01-31T09:30:00-03:00'])(
		'%s is sent as given',
		(value) => {
			expect(send(value)).toEqual({ cf_due: value });
		},
	);
});

describe('a guessed answer key: the notice says what a different key looks like', () => {
	test('Refund → Get Many and Bill → Update name their key in the notice', () => {
		const refunds = invoiceArea.resources
			.find((r) => r.value === 'refund')
			?.operations.find((o) => o.value === 'getAll');
		expect([refunds?.responseKey, refunds?.notice]).toEqual([
			'payment_refunds',
			expect.stringContaining('the answer came without payment_refunds'),
		]);
		const update = billOp('update');
		expect([update.responseKey, update.notice]).toEqual([
			'bill',
			expect.stringContaining('the answer came without bill'),
		]);
	});
});
