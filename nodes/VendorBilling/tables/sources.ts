/**
 * The source of every rule of the field tables of Vendor Billing (the Payments document):
 * the words of a document section (`<document>, <section>: "<words>"`) or of a bullet
 * of docs/ASSUMPTIONS.md (`guess: <words>`). Key: `<resource>.<operation>.<field path>.<rule>`
 * or `<resource>.<operation>.<rule>`; `*` as the operation stands for every operation of the
 * resource that has the rule. Checked by test/tables/rule-sources.test.ts; left out of the
 * published build and imported by no node (the emulator reads it to name the source of its
 * table-driven refusals, emulator/rules/table-sources.ts).
 */
export const SOURCES: Readonly<Record<string, string>> = {
	'project.*.project_name.required': 'Payments, Billing project: "project_name | string, required on create and update, max 100"',
	'project.*.project_name.maxLength': 'Payments, Billing project: "project_name | string, required on create and update, max 100"',
	'project.*.customer_id.required': 'Payments, Billing project: "customer_id | string, required"',
	'project.*.billing_type.required': 'Payments, Billing project: "billing_type | string, required"',
	'project.*.billing_type.values': 'Payments, Billing project: "billing_type | string, required; allowed fixed_cost_for_project, based_on_project_hours, based_on_staff_hours, based_on_task_hours"',
	'project.*.rate.requiredWhen': 'Payments, Billing project: "rate | string on input (number in responses); mandatory when billing_type is fixed_cost_for_project or based_on_project_hours"',
	'project.*.rate.min': 'guess: Billing project amounts are not negative',
	'project.*.rate.numeric': 'Payments, Billing project: "rate | string on input (number in responses)"',
	'project.*.description.maxLength': 'Payments, Billing project: "description | string, max 500"',
	'project.*.budget_type.values': 'Payments, Billing project: "budget_type | string; allowed total_project_cost, total_project_hours, hours_per_task, hours_per_staff"',
	'project.*.budget_amount.min': 'guess: Billing project amounts are not negative',
	'project.*.budget_amount.numeric': 'guess: Billing project amounts are not negative',
	'project.*.tasks.task_name.required': 'Payments, Billing project: "task_name (required on input, max 100)"',
	'project.*.tasks.task_name.maxLength': 'Payments, Billing project: "task_name (required on input, max 100)"',
	'project.*.tasks.description.maxLength': 'Payments, Billing project: "task_name (required on input, max 100), description (max 500)"',
	'project.*.tasks.rate.min': 'guess: Billing project amounts are not negative',
	'project.*.users.user_id.required': 'Payments, Billing project: "user_id (required on input)"',
	'project.*.users.user_role.values': 'Payments, Billing project: "user_role (allowed staff, admin, timesheetstaff)"',
	'project.*.users.user_name.maxLength': 'Payments, Billing project: "user_name (max 200)"',
	'project.*.users.email.maxLength': 'Payments, Billing project: "email (max 100)"',
	'project.*.users.email.email': 'Payments, Billing project: "email (max 100)"',
	'project.*.users.rate.min': 'guess: Billing project amounts are not negative',
	'project.get.project_id.required': 'Payments, Billing projects: "GET | /projects/{project_id}"',
	'project.update.project_id.required': 'Payments, Billing projects: "PUT | /projects/{project_id}"',
	'project.removeUser.project_id.required': 'Payments, Billing projects: "DELETE | /projects/{project_id}/users/{user_id}"',
	'project.getInvoices.project_id.required': 'Payments, Billing projects: "GET | /projects/{project_id}/invoices"',
	'project.*.pagination': 'guess: this list\'s paging is not in the vendor\'s API reference; it is paged as in Vendor Books (page, per_page, page_context), and without page_context Return All stops at a short page.',
	'project.getAll.filter_by.values': 'Payments, Billing projects: "GET | /projects | READ | query filter_by (Status.All, Status.Active, Status.Inactive), customer_id, sort_column (project_name, customer_name, rate, created_time)"',
	'project.getAll.sort_column.values': 'Payments, Billing projects: "GET | /projects | READ | query filter_by (Status.All, Status.Active, Status.Inactive), customer_id, sort_column (project_name, customer_name, rate, created_time)"',
	'project.getInvoices.sort_column.values': 'Payments, Billing projects: "GET | /projects/{project_id}/invoices | READ | query sort_column (invoice_number, date, total, balance, created_time)"',
	'project.getAll.sort_order.values': 'guess: Inferred names, marked `inferred` in the tables',
	'project.update.project_name.keepCurrent': 'Payments, Billing project: "project_name | string, required on create and update, max 100"',
	'project.update.customer_id.keepCurrent': 'Payments, Billing project: "customer_id | string, required"',
	'project.update.billing_type.keepCurrent': 'Payments, Billing project: "billing_type | string, required"',
	'project.update.rate.keepCurrent': 'Payments, Billing project: "rate | string on input (number in responses); mandatory when billing_type is fixed_cost_for_project or based_on_project_hours"',
	'project.removeUser.user_id.required': 'Payments, Billing projects: "DELETE | /projects/{project_id}/users/{user_id}"',

	'comment.create.project_id.required': 'Payments, Billing projects: "POST | /projects/{project_id}/comments"',
	'comment.getAll.project_id.required': 'Payments, Billing projects: "GET | /projects/{project_id}/comments"',
	'comment.delete.project_id.required': 'Payments, Billing projects: "DELETE | /projects/{project_id}/comments/{comment_id}"',
	'comment.create.description.required': 'Payments, Billing project: "description (required on input, max 500)"',
	'comment.create.description.maxLength': 'Payments, Billing project: "description (required on input, max 500)"',
	'comment.getAll.pagination': 'guess: a refund list and a billing project\'s comments are one call',
	'comment.delete.comment_id.required': 'Payments, Billing projects: "DELETE | /projects/{project_id}/comments/{comment_id}"',
};
