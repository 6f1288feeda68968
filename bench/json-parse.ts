/**
 * The cost of reading answers without losing ids (nodes/shared/api/json.ts `parseJson`)
 * beside `JSON.parse`, which n8n's HTTP Request node uses: a realistic list page of 200
 * invoices (about 20 members each, three ids per record, a `page_context`), once with
 * ids of 15 digits (safe: parseJson's fast path, a scan for a run of 16 digits and
 * `JSON.parse`) and once with ids of 19 digits (beyond 2^53: every integer literal outside
 * strings is checked, the unsafe ones quoted, then `JSON.parse`).
 *
 * Prints per page: its size, the median time of each parser (batches of `rounds` parses,
 * GC between batches), the ratio, and what the difference adds to a Return All of 20,000
 * records (100 pages). The end-to-end Return All 20,000 beside HTTP Request is
 * bench/return-all.ts (run just before this one in `npm run bench`).
 *
 *   npm run build:tools && node --expose-gc build/bench/json-parse.js [rounds] [batches]     (default 500 9)
 */
import { parseJson } from '../nodes/shared/api/json';
import { console, globalThis, process } from '../host/globals';
import { median } from './support';

const PAGE = 200;
const RETURN_ALL = 20_000;

/** One invoice of a list page, with ids made by `id(n)`. */
function invoice(i: number, id: (n: number) => string | number): Record<string, unknown> {
	const day = String(1 + (i % 28)).padStart(2, '0');
	return {
		invoice_id: id(26049 + i),
		customer_id: id(25001 + (i % 40)),
		customer_name: `Customer ${i % 40} "Ltd" — Zürich`,
		status: ['draft', 'sent', 'overdue', 'paid', 'partially_paid'][i % 5],
		invoice_number: `INV-${String(1000 + i).padStart(6, '0')}`,
		reference_number: `PO-${12345 + i}`,
		date: `2025-07-${day}`,
		due_date: `2025-08-${day}`,
		due_days: 'Due in 30 days',
		currency_id: id(3000),
		currency_code: 'USD',
		total: 1234.5 + i,
		balance: i % 3 === 0 ? 0 : 617.25 + i,
		exchange_rate: 1,
		is_emailed: i % 2 === 0,
		reminders_sent: i % 4,
		last_payment_date: i % 3 === 0 ? `2025-07-${day}` : '',
		salesperson_name: 'Dana Example',
		created_time: `2025-07-${day}T10:${String(i % 60).padStart(2, '0')}:00+0000`,
		last_modified_time: `2025-07-${day}T11:${String(i % 60).padStart(2, '0')}:00+0000`,
	};
}

function pageText(id: (n: number) => string | number): string {
	const invoices = Array.from({ length: PAGE }, (_, i) => invoice(i, id));
	const body = {
		code: 0,
		message: 'success',
		invoices,
		page_context: {
			page: 3,
			per_page: PAGE,
			has_more_page: true,
			sort_column: 'created_time',
			sort_order: 'D',
		},
	};
	// a 19-digit id as the service writes it: a JSON number (JSON.stringify of a string would quote it)
	return JSON.stringify(body).replace(/"#(\d+)"/g, '$1');
}

function gc(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

/** Median µs of one parse, over `batches` batches of `rounds` parses. */
function timed(
	parse: (text: string) => unknown,
	text: string,
	rounds: number,
	batches: number,
): number {
	for (let i = 0; i < rounds; i++) parse(text);
	const perParse: number[] = [];
	for (let b = 0; b < batches; b++) {
		gc();
		const started = performance.now();
		for (let i = 0; i < rounds; i++) parse(text);
		perParse.push(((performance.now() - started) * 1000) / rounds);
	}
	return median(perParse);
}

function main(): void {
	const rounds = Number(process.argv[2] ?? 500);
	const batches = Number(process.argv[3] ?? 9);
	const pages = [
		{ label: 'ids of 15 digits (safe)', text: pageText((n) => `#${460000000000000 + n}`) },
		{
			label: 'ids of 19 digits (> 2^53)',
			text: pageText((n) => `#${1752587000000000000n + BigInt(n)}`),
		},
	];
	const check = parseJson(pages[1].text) as { invoices: Array<{ invoice_id: unknown }> };
	if (check.invoices[0].invoice_id !== '1752587000000026049')
		throw new Error(`19-digit id read as ${String(check.invoices[0].invoice_id)}`);
	const perReturnAll = RETURN_ALL / PAGE;
	console.log(
		`\nParsing one list page of ${PAGE} invoices: median of ${batches} batches of ${rounds} parses (µs per page); the last column is what parseJson adds to Return All ${RETURN_ALL.toLocaleString('en-US')} (${perReturnAll} pages)`,
	);
	console.log(
		'page                          KB   JSON.parse µs   parseJson µs   ratio   added ms / 20,000 records',
	);
	for (const { label, text } of pages) {
		const native = timed((t) => JSON.parse(t), text, rounds, batches);
		const ours = timed(parseJson, text, rounds, batches);
		const cells = [
			label.padEnd(27),
			(text.length / 1024).toFixed(0).padStart(4),
			native.toFixed(0).padStart(15),
			ours.toFixed(0).padStart(14),
			`${(ours / native).toFixed(2)}x`.padStart(7),
			(((ours - native) * perReturnAll) / 1000).toFixed(1).padStart(27),
		];
		console.log(cells.join(' '));
	}
	console.log(
		'HTTP Request parses each page with JSON.parse: the JSON.parse column is its cost; Return All 20,000 end to end beside it: bench/return-all.js.',
	);
}

main();
