/**
 * The demo data seeded by `startEmulator({ demo: true })`: one organisation and one portal, dates
 * relative to the emulator's clock, fixed ids grouped by kind (README.md, "Store and demo data").
 */
import { customFieldTypes } from '../nodes/VendorProjects/tables/customFieldTypes';
import type { Clock } from './clock';
import { day, timestamp, timestampMs } from './rules/formats';
import { computeTotals, settleInvoice } from './rules/invoicing';
import type { Rec, Store, Tenant } from './store';

/** Ids the tests and the demo refer to. */
export const DEMO = {
	customers: {
		acme: '1100000000001',
		globex: '1100000000002',
		initech: '1100000000003',
		umbrella: '1100000000004',
	},
	items: {
		/** Used in estimates and invoices: cannot be deleted. */
		consulting: '1200000000001',
		design: '1200000000002',
		hosting: '1200000000003',
		/** Inactive. */
		legacySupport: '1200000000008',
	},
	estimates: {
		accepted1: '1300000000001',
		accepted2: '1300000000002',
		declined: '1300000000003',
		draft: '1300000000004',
		sent: '1300000000005',
		expired: '1300000000006',
	},
	invoices: {
		overdue1: '1400000000001',
		overdue2: '1400000000002',
		overdue3: '1400000000003',
		paid1: '1400000000004',
		paid2: '1400000000005',
		partiallyPaid: '1400000000006',
		draft: '1400000000007',
		/** `is_retainer: true`, open, not paid. */
		retainer: '1400000000008',
		sent: '1400000000009',
		viewed: '1400000000010',
	},
	/** A line of invoices.sent bills this expense (with a receipt). */
	expenseId: '2100000000001',
	/** A credit applied to invoices.overdue3. */
	creditId: '2200000000001',
	payments: { paid1: '1500000000001', paid2: '1500000000002', partial: '1500000000003' },
	templates: { standard: '1900000000001', spreadsheet: '1900000000002' },
	billingProjects: {
		website: '1600000000001',
		support: '1600000000002',
		inactive: '1600000000003',
	},
	billingUsers: { alice: '8000000000002', bob: '8000000000003' },
	vendors: { paperCo: '1800000000001', cloudHost: '1800000000002' },
	bills: { paper: '1700000000001', hosting: '1700000000002' },
	projects: {
		website: '3000000000001',
		mobile: '3000000000002',
		template: '3000000000003',
		archived: '3000000000004',
	},
	tasks: {
		homepage: '3100000000001',
		checkout: '3100000000002',
		loginBug: '3100000000003',
		appStore: '3100000000004',
	},
	trashed: { recentTask: '3100000000009', oldProject: '3000000000009', tasklist: '3200000000009' },
} as const;

const DAY = 86_400_000;

function customer(t: Tenant, id: string, name: string, email: string): void {
	t.put('customers', id, { customer_id: id, customer_name: name, email, contact_name: name });
}

function item(t: Tenant, id: string, name: string, rate: number, extra: Rec = {}): void {
	t.put('items', id, {
		item_id: id,
		name,
		rate,
		description: `${name} (demo)`,
		unit: 'pcs',
		status: 'active',
		item_type: 'sales',
		product_type: 'service',
		sku: `SKU-${id.slice(-3)}`,
		...extra,
	});
}

function seedBooks(t: Tenant, clock: Clock, newId: () => string): void {
	const now = clock.now();
	const D = DEMO;
	customer(t, D.customers.acme, 'Acme Corp', 'billing@acme.example');
	customer(t, D.customers.globex, 'Globex Inc', 'ap@globex.example');
	customer(t, D.customers.initech, 'Initech', 'accounts@initech.example');
	customer(t, D.customers.umbrella, 'Umbrella Ltd', 'finance@umbrella.example');
	item(t, D.items.consulting, 'Consulting hour', 120, { product_type: 'service' });
	item(t, D.items.design, 'Website design', 2500);
	item(t, D.items.hosting, 'Hosting (monthly)', 49);
	item(t, '1200000000004', 'Domain name', 15, { product_type: 'digital_service' });
	item(t, '1200000000005', 'USB keyboard', 35, { product_type: 'goods' });
	item(t, '1200000000006', 'Training day', 900);
	item(t, '1200000000007', 'SEO audit', 650);
	item(t, D.items.legacySupport, 'Legacy support', 80, { status: 'inactive' });
	t.put('templates', D.templates.standard, {
		template_id: D.templates.standard,
		template_name: 'Standard',
		template_type: 'standard',
	});
	t.put('templates', D.templates.spreadsheet, {
		template_id: D.templates.spreadsheet,
		template_name: 'Spreadsheet',
		template_type: 'spreadsheet',
	});
	const stamp = (daysAgo: number) => timestamp(now - daysAgo * DAY);

	const estimates: Array<[string, string, string, number, Rec]> = [
		[D.estimates.accepted1, D.customers.acme, 'accepted', 20, { accepted_date: day(now, -15) }],
		[D.estimates.accepted2, D.customers.globex, 'accepted', 12, { accepted_date: day(now, -2) }],
		[D.estimates.declined, D.customers.initech, 'declined', 25, { declined_date: day(now, -20) }],
		[D.estimates.draft, D.customers.umbrella, 'draft', 1, {}],
		[D.estimates.sent, D.customers.acme, 'sent', 5, {}],
		[D.estimates.expired, D.customers.globex, 'expired', 60, {}],
	];
	estimates.forEach(([id, cust, status, daysAgo, extra], i) => {
		const rec: Rec = {
			estimate_id: id,
			estimate_number: `EST-${String(i + 1).padStart(5, '0')}`,
			customer_id: cust,
			customer_name: t.get('customers', cust)?.customer_name,
			status,
			date: day(now, -daysAgo),
			expiry_date: day(now, 30 - daysAgo),
			reference_number: `REF-E${i + 1}`,
			line_items: [
				{ item_id: D.items.consulting, quantity: 10 + i },
				...(i % 2 === 0 ? [{ item_id: D.items.design, quantity: 1 }] : []),
			],
			is_viewed_by_client: status !== 'draft',
			has_attachment: false,
			template_id: D.templates.standard,
			template_name: 'Standard',
			created_time: stamp(daysAgo),
			last_modified_time: stamp(daysAgo),
			...extra,
		};
		computeTotals(rec, t, newId);
		t.put('estimates', id, rec);
	});
	estimates.forEach(() => t.counter('estimate'));

	// [id, customer, status before payments, days ago, due in days, lines, payment_made, extra]
	const I = D.invoices;
	const invoices: Array<[string, string, string, number, number, Rec[], number, Rec]> = [
		[
			I.overdue1,
			D.customers.acme,
			'sent',
			45,
			-15,
			[{ item_id: D.items.consulting, quantity: 8, project_id: D.billingProjects.website }],
			0,
			{},
		],
		[
			I.overdue2,
			D.customers.globex,
			'sent',
			40,
			-10,
			[{ item_id: D.items.hosting, quantity: 12 }],
			0,
			{},
		],
		[
			I.overdue3,
			D.customers.initech,
			'sent',
			35,
			-5,
			[{ name: 'Support retainer (ad hoc)', rate: 300, quantity: 1 }],
			0,
			{
				credits: [{ credit_id: D.creditId, creditnote_number: 'CN-00001', amount: 50 }],
				credits_applied: 50,
			},
		],
		[
			I.paid1,
			D.customers.acme,
			'sent',
			30,
			0,
			[{ item_id: D.items.design, quantity: 1, project_id: D.billingProjects.website }],
			2500,
			{},
		],
		[
			I.paid2,
			D.customers.umbrella,
			'sent',
			20,
			10,
			[{ item_id: D.items.consulting, quantity: 2 }],
			240,
			{},
		],
		[
			I.partiallyPaid,
			D.customers.globex,
			'sent',
			15,
			15,
			[{ item_id: D.items.consulting, quantity: 5 }],
			200,
			{},
		],
		[
			I.draft,
			D.customers.acme,
			'draft',
			1,
			29,
			[{ item_id: D.items.consulting, quantity: 3 }],
			0,
			{},
		],
		[
			I.retainer,
			D.customers.umbrella,
			'sent',
			3,
			27,
			[{ name: 'Retainer for Q3', rate: 1000, quantity: 1 }],
			0,
			{ is_retainer: true },
		],
		[
			I.sent,
			D.customers.initech,
			'sent',
			5,
			25,
			[
				{
					name: 'Travel expenses',
					rate: 180,
					quantity: 1,
					expense_id: D.expenseId,
					expense_receipt_name: 'taxi-receipt.png',
				},
			],
			0,
			{},
		],
		[
			I.viewed,
			D.customers.acme,
			'viewed',
			7,
			23,
			[{ item_id: D.items.consulting, quantity: 4, project_id: D.billingProjects.support }],
			0,
			{ is_viewed_by_client: true, client_viewed_time: stamp(6) },
		],
	];
	invoices.forEach(([id, cust, status, daysAgo, dueIn, lines, paid, extra], i) => {
		const rec: Rec = {
			invoice_id: id,
			invoice_number: `INV-${String(i + 1).padStart(5, '0')}`,
			customer_id: cust,
			customer_name: t.get('customers', cust)?.customer_name,
			status,
			date: day(now, -daysAgo),
			due_date: day(now, dueIn),
			payment_terms: dueIn + daysAgo,
			payment_terms_label: `Net ${dueIn + daysAgo}`,
			reference_number: `PO-${1000 + i}`,
			line_items: lines,
			payment_made: paid,
			credits_applied: 0,
			credits: [],
			is_emailed: status !== 'draft',
			reminders_sent: 0,
			payment_reminder_enabled: true,
			has_attachment: false,
			can_send_in_mail: false,
			currency_code: 'USD',
			created_time: stamp(daysAgo),
			last_modified_time: stamp(daysAgo),
			...(paid > 0 ? { last_payment_date: day(now, -1) } : {}),
			...extra,
		};
		computeTotals(rec, t, newId);
		settleInvoice(rec, day(now));
		t.put('invoices', id, rec);
	});
	invoices.forEach(() => t.counter('invoice'));

	const payments: Array<[string, string, number, string, number]> = [
		[D.payments.paid1, I.paid1, 2500, 'banktransfer', 2500],
		[D.payments.paid2, I.paid2, 300, 'creditcard', 240],
		[D.payments.partial, I.partiallyPaid, 200, 'check', 200],
	];
	payments.forEach(([id, invoiceId, amount, mode, applied], i) => {
		const inv = t.get('invoices', invoiceId) as Rec;
		t.put('customerpayments', id, {
			payment_id: id,
			payment_number: String(i + 1),
			customer_id: inv.customer_id,
			customer_name: inv.customer_name,
			email: t.get('customers', inv.customer_id)?.email,
			payment_mode: mode,
			amount,
			bcy_amount: amount,
			unused_amount: amount - applied,
			amount_refunded: 0,
			bank_charges: 0,
			date: day(now, -1),
			status: 'success',
			reference_number: `PAY-${i + 1}`,
			description: `Payment for ${inv.invoice_number}`,
			invoice_number: inv.invoice_number,
			invoices: [
				{
					invoice_id: invoiceId,
					invoice_payment_id: newId(),
					invoice_number: inv.invoice_number,
					date: inv.date,
					invoice_amount: inv.total,
					amount_applied: applied,
					balance_amount: inv.balance,
				},
			],
			currency_code: 'USD',
			currency_symbol: '$',
			created_time: stamp(1),
			last_modified_time: stamp(1),
		});
		t.counter('payment');
	});

	// Billing projects with tasks and users.
	const users = [
		{
			user_id: DEMO.billingUsers.alice,
			user_name: 'Alice Admin',
			email: 'alice@zylker.example',
			user_role: 'admin',
			rate: 150,
		},
		{
			user_id: DEMO.billingUsers.bob,
			user_name: 'Bob Staff',
			email: 'bob@zylker.example',
			user_role: 'staff',
			rate: 90,
		},
	];
	const projects: Array<[string, string, string, string, number, string]> = [
		[
			D.billingProjects.website,
			'Website relaunch',
			D.customers.acme,
			'fixed_cost_for_project',
			12000,
			'active',
		],
		[
			D.billingProjects.support,
			'Support contract',
			D.customers.acme,
			'based_on_staff_hours',
			0,
			'active',
		],
		[
			D.billingProjects.inactive,
			'Old migration',
			D.customers.globex,
			'based_on_task_hours',
			0,
			'inactive',
		],
	];
	projects.forEach(([id, name, cust, billingType, rate, status], i) => {
		t.put('projects', id, {
			project_id: id,
			project_name: name,
			customer_id: cust,
			customer_name: t.get('customers', cust)?.customer_name,
			currency_code: 'USD',
			description: `${name} (demo)`,
			status,
			billing_type: billingType,
			rate,
			budget_type: 'total_project_cost',
			budget_amount: String(rate),
			total_hours: '12:30',
			billed_hours: '08:00',
			un_billed_hours: '04:30',
			billable_hours: '12:30',
			non_billable_hours: '00:00',
			total_amount: 1500,
			billed_amount: 960,
			un_billed_amount: 540,
			billable_amount: 1500,
			non_billable_amount: 0,
			created_time: stamp(90 - i * 10),
			show_in_dashboard: true,
			has_attachment: false,
			tasks: [
				{
					task_id: newId(),
					task_name: 'Design',
					description: 'Design work',
					rate: 100,
					budget_hours: '20',
					total_hours: '06:00',
					billed_hours: '04:00',
					un_billed_hours: '02:00',
					non_billable_hours: '00:00',
					status: 'active',
					is_billable: true,
					task_custom_fields: [],
				},
				{
					task_id: newId(),
					task_name: 'Development',
					description: 'Build',
					rate: 120,
					budget_hours: '40',
					total_hours: '06:30',
					billed_hours: '04:00',
					un_billed_hours: '02:30',
					non_billable_hours: '00:00',
					status: 'active',
					is_billable: true,
					task_custom_fields: [],
				},
			],
			users: users.map((u) => ({
				...u,
				is_current_user: false,
				status: 'active',
				budget_hours: '40',
				total_hours: '06:00',
				billed_hours: '04:00',
				un_billed_hours: '02:00',
			})),
		});
	});
	t.put('project_comments', '1610000000001', {
		comment_id: '1610000000001',
		project_id: D.billingProjects.website,
		description: 'Kick-off done.',
		commented_by_id: DEMO.billingUsers.alice,
		commented_by: 'Alice Admin',
		is_current_user: false,
		date: day(now, -10),
		date_description: '10 days ago',
		time: '09:30',
	});

	// Vendors and bills.
	t.put('vendors', D.vendors.paperCo, {
		vendor_id: D.vendors.paperCo,
		vendor_name: 'PaperCo Supplies',
	});
	t.put('vendors', D.vendors.cloudHost, {
		vendor_id: D.vendors.cloudHost,
		vendor_name: 'CloudHost Ltd',
	});
	const bills: Array<[string, string, string, number, number, number]> = [
		[D.bills.paper, D.vendors.paperCo, 'BILL-001', 10, 20, 3],
		[D.bills.hosting, D.vendors.cloudHost, 'BILL-002', 40, -10, 1],
	];
	for (const [id, vendor, number, daysAgo, dueIn, qty] of bills) {
		const total = qty * 99;
		t.put('bills', id, {
			bill_id: id,
			vendor_id: vendor,
			vendor_name: t.get('vendors', vendor)?.vendor_name,
			bill_number: number,
			status: dueIn < 0 ? 'overdue' : 'open',
			date: day(now, -daysAgo),
			due_date: day(now, dueIn),
			due_by_days: dueIn,
			line_items: [
				{
					line_item_id: newId(),
					name: 'Monthly supplies',
					rate: 99,
					quantity: qty,
					item_total: total,
					item_order: 0,
				},
			],
			sub_total: total,
			tax_total: 0,
			total,
			balance: total,
			currency_code: 'USD',
			currency_symbol: '$',
			price_precision: 2,
			payments: [],
			vendor_credits: [],
			vendor_credits_applied: 0,
			created_time: timestampMs(now - daysAgo * DAY),
			last_modified_time: timestampMs(now - daysAgo * DAY),
		});
	}
}

/** One custom field per documented type; API names `cf_<type>`. */
function customFieldDefs(t: Tenant): void {
	for (const type of customFieldTypes) {
		t.customFields.push({
			api_name: `cf_${type.value.replace(/([A-Z])/g, '_$1').toLowerCase()}`,
			label: type.name,
			type: type.value,
			module: 'projects',
			...(type.shape === 'select' ? { options: ['Low', 'Medium', 'High'] } : {}),
			...(type.shape === 'multiSelect' ? { options: ['Red', 'Green', 'Blue', 'Yellow'] } : {}),
		});
	}
}

function seedPortal(t: Tenant, clock: Clock): void {
	const now = clock.now();
	const D = DEMO;
	const me = t.currentUser;
	const other = { zpuid: '8000000000009', name: 'Olivia Other' };
	customFieldDefs(t);
	const stamp = (daysAgo: number) => timestampMs(now - daysAgo * DAY);
	const project = (id: string, name: string, type: string, daysAgo: number, extra: Rec = {}): Rec =>
		t.put('projects', id, {
			id,
			name,
			description: `${name} (demo)`,
			project_type: type,
			status: { id: '1', name: type === 'archived' ? 'Archived' : 'Active' },
			owner: { zpuid: me.zpuid },
			is_public_project: false,
			start_date: day(now, -daysAgo),
			end_date: day(now, 60 - daysAgo),
			created_time: stamp(daysAgo),
			last_modified_time: stamp(daysAgo),
			...extra,
		});
	project(D.projects.website, 'Website Relaunch', 'active', 30, {
		cf_single_line: 'Phase 2',
		cf_single_select: 'High',
		cf_multi_select: ['Red', 'Blue'],
		cf_url: 'https://zylker.example/relaunch',
		cf_checkbox: true,
		cf_currency: { amount: 12000 },
	});
	project(D.projects.mobile, 'Mobile App', 'active', 20, {
		cf_single_select: 'Medium',
		cf_multi_user: [{ zpuid: me.zpuid }],
	});
	project(D.projects.template, 'Onboarding Template', 'template', 100);
	project(D.projects.archived, 'Old Intranet', 'archived', 400);
	t.put('tasklists', '3200000000001', {
		id: '3200000000001',
		name: 'Launch checklist',
		project_id: D.projects.website,
	});
	t.put('phases', '3300000000001', {
		id: '3300000000001',
		name: 'Go-live milestone',
		project_id: D.projects.website,
	});
	t.put('issues', '3400000000001', {
		id: '3400000000001',
		name: 'Homepage slow on mobile',
		project_id: D.projects.website,
		status: 'open',
	});
	const task = (
		id: string,
		name: string,
		projectId: string,
		owner: { zpuid: string; name: string },
		dueIn: number,
	): Rec =>
		t.put('tasks', id, {
			id,
			name,
			project_id: projectId,
			tasklist_id: '3200000000001',
			owners: [{ zpuid: owner.zpuid, name: owner.name }],
			status: { name: 'Open' },
			start_date: day(now, -5),
			end_date: day(now, dueIn),
			created_time: stamp(5),
		});
	task(D.tasks.homepage, 'Redesign homepage', D.projects.website, me, 3);
	task(D.tasks.checkout, 'Fix checkout flow', D.projects.website, me, -1);
	task(D.tasks.loginBug, 'Login bug on Android', D.projects.mobile, other, 7);
	task(D.tasks.appStore, 'Publish to app store', D.projects.mobile, me, 14);

	// The bin: trashed 2, 10 and 40 days ago (the last cannot be restored).
	const trashed: Array<[string, string, Rec, number]> = [
		[
			'tasks',
			D.trashed.recentTask,
			{
				id: D.trashed.recentTask,
				name: 'Obsolete banner task',
				project_id: D.projects.website,
				owners: [{ zpuid: me.zpuid }],
			},
			2,
		],
		[
			'tasklists',
			D.trashed.tasklist,
			{ id: D.trashed.tasklist, name: 'Old sprint', project_id: D.projects.mobile },
			10,
		],
		[
			'projects',
			D.trashed.oldProject,
			{ id: D.trashed.oldProject, name: 'Abandoned pilot', project_type: 'active' },
			40,
		],
	];
	for (const [module, id, record, daysAgo] of trashed) {
		const at = now - daysAgo * DAY;
		const project = record.project_id ? t.get('projects', record.project_id) : undefined;
		t.bin.set(`${module}:${id}`, {
			module,
			id,
			trashedAt: at,
			record,
			entry: {
				id,
				name: record.name,
				module,
				trashed_time: timestampMs(at),
				trashed_by: { zpuid: me.zpuid, name: me.name },
				...(project ? { project: { id: project.id, name: project.name } } : {}),
			},
		});
	}
}

export function seedDemo(
	store: Store,
	clock: Clock,
	region: string,
	organizationId: string,
	portalId: string,
): void {
	const org =
		store.org(region, organizationId) ?? store.addOrg(region, organizationId, 'Zylker Demo Org');
	const portal =
		store.portal(region, portalId) ?? store.addPortal(region, portalId, 'Zylker Demo Portal');
	seedBooks(org, clock, () => store.nextId());
	seedPortal(portal, clock);
}

/** `count` items of the shape the item routes answer, for benchmarks of Return All over many pages. */
export function seedItems(
	store: Store,
	clock: Clock,
	region: string,
	organizationId: string,
	count: number,
): void {
	const org =
		store.org(region, organizationId) ?? store.addOrg(region, organizationId, 'Zylker Demo Org');
	const time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
	const now = clock.now();
	for (let i = 0; i < count; i++) {
		const id = String(1290000000000 + i);
		// one a minute, each changed some hours later: no two records share a time
		const created = now - (count - i) * 60_000;
		item(org, id, `Catalogue item ${i + 1}`, 10 + (i % 500), {
			created_time: time(created),
			last_modified_time: time(created + (i % 97) * 3_600_000 + 1000),
			tax_id: '',
			purchase_rate: 5 + (i % 250),
		});
	}
}
