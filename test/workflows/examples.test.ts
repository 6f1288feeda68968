/**
 * The example workflows in examples/ run end to end on n8n's engine against the emulator,
 * exactly as they are in the JSON files: the Books trigger's emission comes from a real
 * poll of the trigger node in the file (pinned on that node, as n8n hands a poll's items
 * to the run), and n8n's Schedule Trigger is the harness stand-in of the same type.
 */
import { readFileSync } from '../../host/fs';
import { join } from '../../host/path';
import type { IDataObject, INode } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { Clock } from '../../emulator/clock';
import type { Tenant } from '../../emulator/store';
import { pollOnce, runWorkflow } from '../../harness';
import type { HarnessCredential, HarnessWorkflow } from '../../harness';
import { expectNoError, json, NODE_TYPES } from '../../harness/workflows';
import { WorkflowEnv } from './support';

const env = new WorkflowEnv();
let tenant: Tenant;
let credentials: HarnessCredential[];

interface ExampleFile extends HarnessWorkflow {
	name: string;
	nodes: INode[];
}

function example(file: string): ExampleFile {
	return JSON.parse(readFileSync(join(module.path, '../../examples', file), 'utf8')) as ExampleFile;
}

beforeAll(async () => {
	await env.start({ demo: true, clock: new Clock({ start: Date.parse('2026-03-02T09:00:00Z') }) });
	tenant = env.orgTenant();
	// The files reference the credential by name, as an imported workflow does.
	credentials = env.credentials.map((c) => ({ ...c, name: 'Vendor account' }));
});
afterAll(async () => await env.stop());

const run = (workflow: HarnessWorkflow) =>
	runWorkflow({ workflow, nodeTypes: NODE_TYPES, credentialTypes: [VendorOAuth2Api], credentials });

test('the examples are importable n8n workflows of real node types, referencing the credential by name', () => {
	for (const file of ['estimate-accepted-to-invoice.json', 'overdue-reminders.json']) {
		const wf = example(file);
		expect(wf.name).toMatch(/^Vendor: /);
		for (const node of wf.nodes) {
			expect(node.type).toMatch(
				/^n8n-nodes-(vendor\.vendorBooks(Trigger)?|base\.scheduleTrigger)$/,
			);
			if (node.type.startsWith('n8n-nodes-vendor.'))
				expect(node.credentials).toEqual({ vendorOAuth2Api: { name: 'Vendor account' } });
			expect(
				Object.keys(wf.connections).every((from) => wf.nodes.some((n) => n.name === from)),
			).toBe(true);
		}
	}
	const schedule = example('overdue-reminders.json').nodes[0];
	expect(schedule.parameters).toEqual({
		rule: { interval: [{ field: 'cronExpression', expression: '0 9 * * 1-5' }] },
	});
});

test('estimate accepted -> create the invoice from it -> e-mail it', async () => {
	const wf = example('estimate-accepted-to-invoice.json');
	const triggerNode = wf.nodes.find(
		(n) => n.type === 'n8n-nodes-vendor.vendorBooksTrigger',
	) as INode;
	expect(triggerNode.parameters.organizationId).toBe(env.em.organizationId);
	const poll = (staticData: IDataObject) =>
		pollOnce({
			nodeType: VendorBooksTrigger,
			node: triggerNode,
			credentials,
			credentialTypes: [VendorOAuth2Api],
			staticData,
		});

	// Activation: the estimates accepted before are the baseline.
	const baseline = await poll({});
	expect(baseline.items).toBeNull();

	// The customer accepts an estimate that was sent.
	const estimate = tenant.all('estimates').find((e) => e.status === 'sent') as IDataObject;
	const estimateId = String(estimate.estimate_id);
	estimate.status = 'accepted';
	env.em.clearRequests();
	const fired = await poll(baseline.staticData);
	expect(env.apiRequests()).toHaveLength(1);
	const emitted = fired.items?.[0] ?? [];
	expect(emitted.map((i) => String(i.json.estimate_id))).toEqual([estimateId]);
	// The next poll is quiet.
	expect((await poll(fired.staticData)).items).toBeNull();

	env.em.clearRequests();
	const invoicesBefore = tenant.all('invoices').length;
	const result = await run({ ...wf, pinData: { [triggerNode.name]: emitted } });
	expectNoError(result);

	const [invoice] = json(result, 'Create Invoice From Estimate');
	const stored = tenant.get('invoices', String(invoice.invoice_id)) as IDataObject;
	expect(tenant.all('invoices')).toHaveLength(invoicesBefore + 1);
	expect(stored.invoiced_estimate_id).toBe(estimateId);
	expect(stored.customer_id).toBe(estimate.customer_id);
	expect(stored.status).toBe('sent'); // e-mailing a draft sends it

	const mails = tenant.mails.filter(
		(m) => m.kind === 'invoice' && m.invoiceId === String(invoice.invoice_id),
	);
	expect(mails).toHaveLength(1);
	expect(mails[0].subject).toBe(
		`Invoice ${String(stored.invoice_number)} for your accepted estimate`,
	);

	const calls = env
		.apiRequests()
		.map((r) => [r.method, r.path.replace('/us/api/books/v3', ''), r.query.organization_id]);
	expect(calls).toEqual([
		['GET', `/estimates/${estimateId}`, env.em.organizationId],
		['POST', '/invoices', env.em.organizationId],
		['POST', `/invoices/${String(invoice.invoice_id)}/email`, env.em.organizationId],
	]);
	expect((env.apiRequests()[1].body as IDataObject).invoiced_estimate_id).toBe(estimateId);
	expect(env.apiRequests()[2].body).toMatchObject({
		subject: `Invoice ${String(stored.invoice_number)} for your accepted estimate`,
	});
});

test('every weekday at 9:00: reminders reach exactly the overdue invoices, in the fewest calls', async () => {
	const wf = example('overdue-reminders.json');
	// 12 more overdue invoices, so that the reminders need two calls of at most 10.
	for (let i = 0; i < 12; i++) {
		const id = env.em.store.nextId();
		tenant.put('invoices', id, {
			invoice_id: id,
			invoice_number: `OD-${i}`,
			customer_id: tenant.all('customers')[0].customer_id,
			status: 'overdue',
			total: 50,
			balance: 50,
			due_date: '2026-02-01',
			line_items: [],
		});
	}
	tenant.put('invoices', 'x1', {
		invoice_id: 'x1',
		invoice_number: 'PAID-1',
		status: 'paid',
		total: 5,
		balance: 0,
	});
	const overdue = tenant
		.all('invoices')
		.filter((i) => i.status === 'overdue')
		.map((i) => String(i.invoice_id));
	expect(overdue.length).toBeGreaterThan(10);
	expect(overdue.length).toBeLessThanOrEqual(20);
	const remindersBefore = tenant.mails.filter((m) => m.kind === 'reminder').length;

	env.em.clearRequests();
	const result = await run(wf);
	expectNoError(result);
	expect(result.executedNodes).toEqual([
		'Every Weekday at 9:00',
		'Get Overdue Invoices',
		'Send Payment Reminders',
	]);

	const calls = env.apiRequests();
	// one list call (all overdue invoices fit one page of 200), then ceil(n / 10) reminder calls
	expect(calls.map((r) => [r.method, r.path.replace('/us/api/books/v3', '')])).toEqual([
		['GET', '/invoices'],
		['POST', '/invoices/paymentreminder'],
		['POST', '/invoices/paymentreminder'],
	]);
	expect(calls[0].query).toEqual({
		organization_id: env.em.organizationId,
		status: 'overdue',
		page: '1',
		per_page: '200',
	});
	const sentIds = calls.slice(1).flatMap((r) => r.query.invoice_ids.split(','));
	expect(sentIds.sort()).toEqual([...overdue].sort());
	expect(calls.slice(1).map((r) => r.query.invoice_ids.split(',').length)).toEqual([
		10,
		overdue.length - 10,
	]);

	const out = json(result, 'Send Payment Reminders');
	expect(out.map((o) => String(o.invoice_id)).sort()).toEqual([...overdue].sort());
	expect(out.every((o) => o.sent === true)).toBe(true);
	const reminded = tenant.mails
		.filter((m) => m.kind === 'reminder')
		.slice(remindersBefore)
		.map((m) => m.invoiceId);
	expect(reminded.sort()).toEqual([...overdue].sort());
});
