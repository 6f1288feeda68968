/**
 * Named cases of exact ids and of any type from an expression, end to end on n8n's engine against
 * the emulator: ids given as numbers (safe ones sent as their digits, ones past 2^53 refused naming
 * the field, element by element in lists), Print / Bulk Reminder with Invoice IDs from an
 * expression that gives a number, an object or an empty list, and a length error that says what it
 * counts.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import { UNSAFE_ID } from '../../nodes/shared/tables/ids';
import { byId, json } from '../../harness/workflows';
import { useWorkflowEnv } from '../workflows/support';

const env = useWorkflowEnv({ demo: true });
const soft = { onError: 'continueRegularOutput' as const };
const invoices = env.orgSteps('vendorBooks', { resource: 'invoice' });
const items = env.orgSteps('vendorBooks', { resource: 'item' });
const billing = env.orgSteps('vendorBilling', { resource: 'project' });
const trash = env.portalSteps({ resource: 'trash' });

/** An id as a number past 2^53, as an expression writes it (JavaScript keeps 1752587000000097000). */
const UNSAFE = '1752587000000097005';

describe('an ID given as a number', () => {
	test('past 2^53: refused naming the field, saying to keep the ID as text; nothing sent', async () => {
		const result = await env.run([
			items('Get', { operation: 'get', item_id: byId(`={{ ${UNSAFE} }}`) }, soft),
			invoices(
				'Print',
				{ operation: 'print', invoice_ids: `={{ [${DEMO.invoices.sent}, ${UNSAFE}] }}` },
				soft,
			),
			invoices(
				'Create',
				{
					operation: 'create',
					customer_id: DEMO.customers.acme,
					line_items: { values: [{ item_id: byId(`={{ ${UNSAFE} }}`), quantity: 1 }] },
				},
				soft,
			),
		]);
		expect(['Get', 'Print', 'Create'].map((name) => json(result, name)[0]?.error)).toEqual([
			`Invalid input: Item ID ${UNSAFE_ID} (got 1752587000000097000) [item 0]`,
			`Invalid input: Invoice IDs, entry 2 ${UNSAFE_ID} (got 1752587000000097000) [item 0]`,
			`Invalid input: Line Items, line 1: Item ID ${UNSAFE_ID} (got 1752587000000097000) [item 0]`,
		]);
		expect(UNSAFE_ID).toMatch(/keep the ID as text/);
		expect(env.apiRequests()).toEqual([]);
	});

	test('the Organization ID past 2^53 is refused the same way; nothing sent', async () => {
		const result = await env.run([
			items(
				'Get',
				{ operation: 'get', organizationId: `={{ ${UNSAFE} }}`, item_id: byId(DEMO.items.hosting) },
				soft,
			),
		]);
		expect(json(result, 'Get')[0].error).toBe(
			`Organization ID ${UNSAFE_ID} (got 1752587000000097000) [item 0]`,
		);
		expect(env.apiRequests()).toEqual([]);
	});

	test('a safe number is sent as its digits: in the path, a query list and a body list', async () => {
		const result = await env.run([
			items('Get', { operation: 'get', item_id: byId(`={{ ${DEMO.items.hosting} }}`) }),
			invoices('Print', { operation: 'print', invoice_ids: `={{ ${DEMO.invoices.sent} }}` }),
			trash(
				'Trash',
				{
					operation: 'moveToTrash',
					module: 'tasks',
					items: '={{ [9000000000001, 9000000000002] }}',
				},
				soft,
			),
		]);
		expect(json(result, 'Get')[0].item_id).toBe(DEMO.items.hosting);
		const sent = env.apiRequests().map((r) => ({
			path: r.path.replace(/^.*\/(api\/v3|v3)/, ''),
			invoice_ids: r.query.invoice_ids,
			items: (r.body as IDataObject | undefined)?.items,
		}));
		expect(sent).toEqual([
			{ path: `/items/${DEMO.items.hosting}`, invoice_ids: undefined, items: undefined },
			{ path: '/invoices/print', invoice_ids: DEMO.invoices.sent, items: undefined },
			{
				path: `/portal/${env.portal}/trash`,
				invoice_ids: undefined,
				items: [9000000000001, 9000000000002],
			},
		]);
	});
});

describe('Invoice IDs from an expression of another type: an output or an error, never nothing', () => {
	test.each([
		['a number', `={{ ${DEMO.invoices.sent} }}`, undefined],
		['an object', '={{ { id: 1 } }}', 'Invoice IDs must be a list (got an object)'],
		['true', '={{ true }}', 'Invoice IDs must be a list (got true)'],
		['an empty list', '={{ [] }}', 'Invoice IDs must hold at least 1 entry (got 0 entries)'],
		[
			'a list of a list',
			'={{ [[1]] }}',
			'Invoice IDs, entry 1 must be an ID: text, or a whole number (got a list of 1 entry)',
		],
	])('Print and Bulk Reminder with %s', async (_what, expression, refusal) => {
		const result = await env.run([
			invoices('Print', { operation: 'print', invoice_ids: expression }, soft),
			invoices('Reminder', { operation: 'bulkReminder', invoice_ids: expression }, soft),
		]);
		for (const name of ['Print', 'Reminder']) {
			const out = json(result, name);
			expect(out.length).toBeGreaterThan(0);
			if (refusal)
				expect({ name, error: out[0].error }).toEqual({
					name,
					error: `Invalid input: ${refusal} [item 0]`,
				});
			else expect({ name, error: out[0].error }).toEqual({ name, error: undefined });
		}
		if (refusal) expect(env.apiRequests()).toEqual([]);
		else
			expect(env.apiRequests().map((r) => r.query.invoice_ids)).toEqual([
				DEMO.invoices.sent,
				DEMO.invoices.sent,
			]);
	});
});

describe('a length rule says what it counts', () => {
	test('a Project Name of 100 emoji is 200 characters as the API counts them', async () => {
		const result = await env.run([
			billing(
				'Emoji',
				{
					operation: 'create',
					project_name: '😀'.repeat(100),
					customer_id: DEMO.customers.acme,
					billing_type: 'based_on_task_hours',
				},
				soft,
			),
			billing(
				'Fifty emoji',
				{
					operation: 'create',
					project_name: '😀'.repeat(50),
					customer_id: DEMO.customers.acme,
					billing_type: 'based_on_task_hours',
				},
				soft,
			),
		]);
		expect(json(result, 'Emoji')[0].error).toBe(
			'Invalid input: Project Name must be at most 100 characters as the API counts them, where an emoji counts as 2 (got 200) [item 0]',
		);
		expect(json(result, 'Fifty emoji')[0].error).toBeUndefined();
		expect(env.apiRequests()).toHaveLength(1);
	});
});
