/**
 * Large accounts for the trigger cost tests and bench/trigger-costs.ts: `n` records of every
 * kind a trigger watches, put straight into the emulator's store (no API call, a few hundred
 * milliseconds for 10,000 of each).
 */
import type { Clock } from './clock';
import { day, timestamp, timestampMs } from './rules/formats';
import type { Store, Tenant } from './store';

/** Statuses the seeded estimates and invoices cycle through: a quarter of them in each. */
const ESTIMATE_STATUSES = ['accepted', 'sent', 'declined', 'invoiced'];
const INVOICE_STATUSES = ['overdue', 'paid', 'partially_paid', 'sent'];

/** What a case needs of the emulator: its store, clock and the US organisation and portal. */
export interface Account {
	store: Store;
	clock: Clock;
	org: Tenant;
	portal: Tenant;
}

/** A record made at `at` (one second apart going back from it), in the accounting or the project timestamp form. */
function stamps(at: number, i: number): { created: string; createdMs: string } {
	const t = at - (i + 1) * 1000;
	return { created: timestamp(t), createdMs: timestampMs(t) };
}

/**
 * `n` records of each kind, made before now (one a second going back); payments dated over
 * the last three years (about nine a day at 10,000), a quarter of the estimates accepted and
 * a quarter of the invoices overdue (and of paid, partially paid).
 */
export function seedAccount({ store, clock, org, portal }: Account, n: number): void {
	const now = clock.now();
	for (let i = 0; i < n; i++) {
		const { created, createdMs } = stamps(now, i);
		const id = () => store.nextId();
		const estimate = id();
		org.put('estimates', estimate, {
			estimate_id: estimate,
			estimate_number: `EST-${i}`,
			status: ESTIMATE_STATUSES[i % 4],
			date: created.slice(0, 10),
			total: 1,
			created_time: created,
			last_modified_time: created,
		});
		const invoice = id();
		org.put('invoices', invoice, {
			invoice_id: invoice,
			invoice_number: `INV-${i}`,
			status: INVOICE_STATUSES[i % 4],
			date: created.slice(0, 10),
			total: 1,
			balance: 1,
			created_time: created,
			last_modified_time: created,
		});
		const item = id();
		org.put('items', item, { item_id: item, name: `Item ${i}`, rate: 1, status: 'active' });
		const payment = id();
		org.put('customerpayments', payment, {
			payment_id: payment,
			payment_number: `P-${i}`,
			date: day(now, -(i % 1095)),
			payment_mode: 'cash',
			amount: 1,
		});
		const bill = id();
		org.put('bills', bill, {
			bill_id: bill,
			bill_number: `B-${i}`,
			status: 'open',
			created_time: createdMs,
			last_modified_time: createdMs,
		});
		const billing = id();
		org.put('projects', billing, {
			project_id: billing,
			project_name: `Billing ${i}`,
			status: 'active',
			billing_type: 'based_on_task_hours',
			created_time: createdMs,
		});
		const project = id();
		portal.put('projects', project, {
			id: project,
			name: `Project ${i}`,
			status: 'active',
			created_time: createdMs,
			last_modified_time: createdMs,
		});
		const trashed = id();
		const trashedAt = now - (i + 1) * 1000;
		portal.bin.set(`tasks:${trashed}`, {
			module: 'tasks',
			id: trashed,
			trashedAt,
			record: { id: trashed, name: `Task ${i}` },
			entry: {
				id: trashed,
				name: `Task ${i}`,
				module: 'tasks',
				trashed_time: timestampMs(trashedAt),
			},
		});
	}
}
