/**
 * IDs documented as strings are accepted as strings: payment_id ("payment_id |
 * string", the Payments document), a billing project's project_id ("project_id | string"), a project
 * owner's zpuid ("{ zpuid: <user_id string> }", the Conventions document), an item or invoice custom field's
 * customfield_id ("customfield_id: string", the Accounting document) and the organization ID (its format
 * never given). Only blanks, control characters and the path segments "." and ".." are
 * refused, naming the field by its label. IDs the documents give as digit strings (portal_id,
 * the project-management project_id) keep the digit rule. The emulator accepts a non-digit
 * payment id like any other.
 */
import type { IDataObject } from 'n8n-workflow';

import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import type { Area, Operation } from '../../nodes/shared/tables/spec';
import { idTextProblem } from '../../nodes/shared/tables/ids';
import { checkValues } from '../../nodes/shared/tables/validate';
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });

function op(area: Area, resource: string, value: string): Operation {
	const found = area.resources
		.find((r) => r.value === resource)
		?.operations.find((o) => o.value === value);
	if (!found) throw new Error(`no ${resource}.${value}`);
	return found;
}

/** The refusal of `values` by the table's rules, or 'accepted'. */
function refusal(operation: Operation, values: IDataObject): string {
	try {
		checkValues(operation, values);
	} catch (error) {
		return (error as Error).message;
	}
	return 'accepted';
}

describe('the table rule', () => {
	test('IDs documented as strings take any text', () => {
		expect(refusal(op(invoiceArea, 'payment', 'get'), { payment_id: 'PAY-7a' })).toBe('accepted');
		expect(refusal(op(billingArea, 'project', 'get'), { project_id: 'bp_42' })).toBe('accepted');
		expect(
			refusal(op(projectsArea, 'project', 'create'), {
				portal_id: '1',
				name: 'P',
				owner: { zpuid: 'user-9f' },
			}),
		).toBe('accepted');
		expect(
			refusal(op(booksArea, 'item', 'updateCustomFields'), {
				item_id: '1',
				custom_fields: [{ customfield_id: 'cf_colour', value: 'Blue' }],
			}),
		).toBe('accepted');
		// a number from an expression is still an ID
		expect(refusal(op(invoiceArea, 'payment', 'get'), { payment_id: 1001 })).toBe('accepted');
	});

	test('blanks, control characters and "." / ".." are refused, naming the field by its label', () => {
		const get = op(invoiceArea, 'payment', 'get');
		expect(refusal(get, { payment_id: ' \u200b' })).toBe('Invalid input: Payment ID is required');
		expect(refusal(get, { payment_id: 'PAY\n7' })).toBe(
			'Invalid input: Payment ID must not hold control characters (line breaks, tabs) (got 5 characters)',
		);
		expect(refusal(get, { payment_id: '..' })).toBe(
			'Invalid input: Payment ID cannot be "." or ".." (got "..")',
		);
		expect(
			refusal(op(projectsArea, 'project', 'create'), {
				portal_id: '1',
				name: 'P',
				owner: { zpuid: 'a\tb' },
			}),
		).toMatch(/^Invalid input: Owner.*must not hold control characters/);
		expect([
			idTextProblem(''),
			idTextProblem('a\u0000'),
			idTextProblem('a\u007f'),
			idTextProblem('\u0085x'),
			idTextProblem('.'),
			idTextProblem('ok.id'),
		]).toEqual([
			'is blank',
			'must not hold control characters (line breaks, tabs)',
			'must not hold control characters (line breaks, tabs)',
			'must not hold control characters (line breaks, tabs)',
			'cannot be "." or ".."',
			undefined,
		]);
	});

	test('IDs the documents give as digit strings keep the digit rule: portal and project of a search', () => {
		expect(
			refusal(op(projectsArea, 'search', 'searchInProject'), {
				portal_id: 'abc',
				project_id: '1',
				search_term: 'x',
				module: 'all',
			}),
		).toBe('Invalid input: Portal (portal_id) must be an ID made of digits (got "abc")');
		expect(
			refusal(op(projectsArea, 'search', 'searchInProject'), {
				portal_id: '1',
				project_id: 'p-1',
				search_term: 'x',
				module: 'all',
			}),
		).toBe('Invalid input: Project (project_id) must be an ID made of digits (got "p-1")');
	});
});

describe('end to end', () => {
	test('a payment whose id is not digits is read, updated and deleted by its id; the emulator accepts it', async () => {
		const id = 'PAY-7a';
		const stored = env.orgTenant().get('customerpayments', DEMO.payments.paid2) as IDataObject;
		env.orgTenant().put('customerpayments', id, { ...stored, payment_id: id, invoices: [] });
		env.em.clearRequests();
		const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
		const result = await env.run([
			payments('Get', { operation: 'get', payment_id: byId(id) }),
			payments('Update', {
				operation: 'update',
				payment_id: byId(id),
				updateFields: { reference_number: 'R-7a' },
			}),
		]);
		expectNoError(result);
		expect(json(result, 'Get')[0]).toMatchObject({ payment_id: id });
		expect(json(result, 'Update')[0]).toMatchObject({
			payment_id: id,
			reference_number: 'R-7a',
			customer_id: stored.customer_id,
			amount: stored.amount,
		});
		expect(env.apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', '/us/api/invoice/v3/customerpayments/PAY-7a', 200],
			['PUT', '/us/api/invoice/v3/customerpayments/PAY-7a', 200],
		]);
		// an unknown one is not found (the service's answer), not refused as malformed
		const unknown = await env.call('GET', 'invoice', '/customerpayments/no-such-payment');
		expect([unknown.status, unknown.body.code]).toEqual([404, 1000]);
	});

	test('an id with a line break is refused before anything is sent', async () => {
		const payments = env.orgSteps('vendorInvoice', { resource: 'payment' });
		const result = await env.run([
			payments(
				'Get',
				{ operation: 'get', payment_id: byId('={{ "PAY\\n7" }}') },
				{ onError: 'continueRegularOutput' },
			),
		]);
		expect(String(json(result, 'Get')[0].error)).toMatch(
			/^Invalid input: Payment ID must not hold control characters \(line breaks, tabs\)/,
		);
		expect(env.apiRequests()).toEqual([]);
	});
});
