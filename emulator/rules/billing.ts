/**
 * Vendor Billing (`/billing/v1`, document 002): billing projects, their tasks, users, comments and
 * invoices; documented errors and choices in README.md, "Billing".
 */
import type { Source } from '../../nodes/shared/tables/spec';
import type { Rec } from '../store';
import { acctError, CODE, envelope, invalidField } from './answers';
import { addComment, commentsOf } from './comments';
import { bodyObject, type Ctx, type Reply, type Rules, tenantOf } from './context';
import { genericCreate, genericList, genericUpdate } from './generic';
import { customerName } from './invoicing';
import { BILLING_PROJECT_NOT_FOUND, GUESS, NOT_FOUND, notFound, refuse } from './refusals';

/** The document passages the billing refusals rest on. */
const S = {
	negative: 'Payments, Errors: "20004 | the amount must not be negative"',
	rateRequired:
		'Payments, Billing project: "mandatory when billing_type is fixed_cost_for_project or based_on_project_hours"',
} as const satisfies Record<string, Source>;

/** What a rule with a project id in its path may refuse: 1002, and records of the project that do not exist. */
const PROJECT_PATH: readonly Source[] = [BILLING_PROJECT_NOT_FOUND, ...NOT_FOUND];

const RATE_REQUIRED = ['fixed_cost_for_project', 'based_on_project_hours'];

function project(ctx: Ctx): Rec | undefined {
	return tenantOf(ctx).get('projects', ctx.params.project_id);
}

/** 1002 before anything else on paths with a project id. */
function requireProject(ctx: Ctx): Reply | undefined {
	return project(ctx) ? undefined : notFound(ctx, 'Project', ctx.params.project_id);
}

function negative(v: unknown): boolean {
	return v !== undefined && v !== null && v !== '' && Number(v) < 0;
}

/** Runs before the table validation: 20004 first, then the rate rule, in the emulator's words. */
function checkAmountsAndRate(ctx: Ctx): Reply | undefined {
	const body = bodyObject(ctx);
	const amounts: unknown[] = [body.rate, body.budget_amount];
	for (const list of [body.tasks, body.users]) {
		if (Array.isArray(list)) for (const e of list as Rec[]) amounts.push(e?.rate);
	}
	if (amounts.some(negative))
		return refuse(
			S.negative,
			acctError(400, CODE.negativeAmount, 'The amount must not be negative.'),
		);
	if (
		RATE_REQUIRED.includes(String(body.billing_type)) &&
		(body.rate === undefined || body.rate === null || body.rate === '')
	) {
		return refuse(
			S.rateRequired,
			invalidField(ctx, 'rate', `is required when billing_type is ${body.billing_type}`),
		);
	}
	return undefined;
}

function checkProjectBody(ctx: Ctx): Reply | undefined {
	const body = bodyObject(ctx);
	if (body.rate !== undefined && body.rate !== '' && !Number.isFinite(Number(body.rate)))
		return refuse(GUESS.billingRate, invalidField(ctx, 'rate', 'must be a number'));
	const customer =
		body.customer_id === undefined || body.customer_id === null
			? ''
			: String(body.customer_id).trim();
	if (customer === '')
		return refuse(GUESS.billingCustomer, invalidField(ctx, 'customer_id', 'is required'));
	if (!tenantOf(ctx).get('customers', customer))
		return refuse(
			GUESS.billingCustomer,
			acctError(400, CODE.notFound, `Customer ${customer} does not exist.`),
		);
	return undefined;
}

function fillProject(ctx: Ctx, rec: Rec, previous?: Rec): void {
	const body = bodyObject(ctx);
	const zero = { total_hours: '00:00', billed_hours: '00:00', un_billed_hours: '00:00' };
	rec.customer_id = String(rec.customer_id);
	rec.customer_name = customerName(tenantOf(ctx), rec.customer_id);
	if (rec.rate !== undefined && rec.rate !== '') rec.rate = Number(rec.rate);
	rec.status ??= 'active';
	rec.currency_code ??= 'USD';
	rec.show_in_dashboard ??= true;
	rec.has_attachment ??= false;
	if (!previous) {
		Object.assign(rec, zero, { billable_hours: '00:00', non_billable_hours: '00:00' });
		Object.assign(rec, {
			total_amount: 0,
			billed_amount: 0,
			un_billed_amount: 0,
			billable_amount: 0,
			non_billable_amount: 0,
		});
	}
	if (Array.isArray(body.tasks) || !previous) {
		rec.tasks = ((body.tasks ?? []) as Rec[]).map((t) => ({
			task_id: ctx.store.nextId(),
			...t,
			...zero,
			non_billable_hours: '00:00',
			status: 'active',
			is_billable: true,
			task_custom_fields: [],
		}));
	}
	if (Array.isArray(body.users) || !previous) {
		const me = tenantOf(ctx).currentUser.zpuid;
		rec.users = ((body.users ?? []) as Rec[]).map((u) => ({
			user_role: 'staff',
			...u,
			user_id: String(u.user_id),
			is_current_user: String(u.user_id) === me,
			status: 'active',
			...zero,
		}));
	}
}

export const billingRules: Rules = {
	'billing.project.create': {
		sources: [S.negative, S.rateRequired, GUESS.billingRate, GUESS.billingCustomer],
		pre: checkAmountsAndRate,
		handle: (ctx) => checkProjectBody(ctx) ?? genericCreate(ctx, (rec) => fillProject(ctx, rec)),
	},
	'billing.project.update': {
		sources: [
			...PROJECT_PATH,
			S.negative,
			S.rateRequired,
			GUESS.billingRate,
			GUESS.billingCustomer,
		],
		pre: (ctx) => requireProject(ctx) ?? checkAmountsAndRate(ctx),
		handle: (ctx) =>
			checkProjectBody(ctx) ??
			genericUpdate(ctx, (rec, _ctx, previous) => fillProject(ctx, rec, previous)),
	},
	'billing.project.get': { sources: PROJECT_PATH, pre: requireProject },
	'billing.project.getAll': {
		sources: [GUESS.paging],
		handle: (ctx) =>
			genericList(ctx, {
				reportName: 'Projects',
				entry: (p) => {
					const entry = { ...p };
					delete entry.tasks;
					delete entry.users;
					return entry;
				},
			}),
	},
	'billing.project.removeUser': {
		sources: PROJECT_PATH,
		pre: requireProject,
		handle: (ctx) => {
			const p = project(ctx) as Rec;
			const users: Rec[] = p.users ?? [];
			if (!users.some((u) => u.user_id === ctx.params.user_id))
				return notFound(ctx, 'User', ctx.params.user_id);
			p.users = users.filter((u) => u.user_id !== ctx.params.user_id);
			return envelope('The staff has been removed.');
		},
	},
	'billing.project.getInvoices': {
		sources: [...PROJECT_PATH, GUESS.paging],
		pre: requireProject,
		handle: (ctx) => {
			const id = ctx.params.project_id;
			const invoices = tenantOf(ctx)
				.all('invoices')
				.filter(
					(i) =>
						String(i.project_id) === id ||
						(i.line_items ?? []).some((l: Rec) => String(l.project_id) === id),
				);
			return genericList(ctx, {
				records: invoices,
				reportName: 'Invoices',
				entry: (i) => ({
					invoice_id: i.invoice_id,
					customer_name: i.customer_name,
					status: i.status,
					invoice_number: i.invoice_number,
					reference_number: i.reference_number ?? '',
					date: i.date,
					due_date: i.due_date,
					total: i.total,
					balance: i.balance,
					created_time: i.created_time,
				}),
			});
		},
	},
	'billing.comment.create': {
		sources: PROJECT_PATH,
		pre: requireProject,
		handle: (ctx) =>
			envelope(
				'Comment added successfully.',
				{ comments: addComment(ctx, 'project_comments', 'project_id', ctx.params.project_id) },
				201,
			),
	},
	'billing.comment.getAll': {
		sources: PROJECT_PATH,
		pre: requireProject,
		handle: (ctx) =>
			envelope('success', {
				comments: commentsOf(ctx, 'project_comments', 'project_id', ctx.params.project_id),
			}),
	},
	'billing.comment.delete': {
		sources: PROJECT_PATH,
		pre: requireProject,
		handle: (ctx) => {
			const c = tenantOf(ctx).get('project_comments', ctx.params.comment_id);
			if (!c || c.project_id !== ctx.params.project_id)
				return notFound(ctx, 'Comment', ctx.params.comment_id);
			tenantOf(ctx).remove('project_comments', ctx.params.comment_id);
			return envelope('The comment has been deleted.');
		},
	},
};
