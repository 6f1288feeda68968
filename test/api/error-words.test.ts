/**
 * Error words from the right area: an accounting `code` has the meaning its
 * document gives only in the area that documents it (the Payments document, "Errors": payment codes for
 * Vendor Payments, billing project codes for Vendor Billing). Elsewhere (Books, Purchase
 * Bills, a code the area does not document, a failure without an area) the API's own
 * message leads, with the code. Unit level on the real Area objects, then end to end through
 * n8n's engine with the emulator answering the codes (the `html` fault with a JSON body:
 * nothing is processed).
 */
import type { INode } from 'n8n-workflow';

import { apiError, explainFailure } from '../../nodes/shared/api/nodeErrors';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { DEMO } from '../../emulator/demo-data';
import { byId, expectNoError, json } from '../../harness/workflows';
import { useWorkflowEnv } from '../workflows/support';

const answer = (code: number, message: string) => ({ code, message });
const node: INode = {
	id: '1',
	name: 'Vendor',
	type: 'n8n-nodes-vendor.vendorBooks',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe("explainFailure and apiError use the answering area's code table only", () => {
	test.each([
		['Books', booksArea],
		['Purchase Bills', inventoryArea],
		['no area', undefined],
	])("%s: code 1002 keeps the API's words and the code, no billing project", (_name, area) => {
		const failure = { status: 404, body: answer(1002, 'Invoice does not exist.'), area };
		const explained = explainFailure(failure);
		expect(explained).toEqual({ code: '1002', message: 'Invoice does not exist. (code 1002)' });
		const error = apiError(node, failure, 0);
		expect(error.message).toBe('Invoice does not exist. (code 1002)');
		expect(`${error.message} ${error.description ?? ''}`).not.toMatch(/project/i);
	});

	test("Payments: 20004 (a billing project code) keeps the API's words, no project, rate or budget", () => {
		const explained = explainFailure({
			status: 400,
			body: answer(20004, 'Amount cannot be negative.'),
			area: invoiceArea,
		});
		expect(explained).toEqual({
			code: '20004',
			message: 'Amount cannot be negative. (code 20004)',
		});
		expect(explained.message).not.toMatch(/project|rate|budget/i);
	});

	test("Payments: 24016 keeps its documented meaning and what to do; the API's words follow", () => {
		const failure = {
			status: 400,
			body: answer(
				24016,
				'The amount entered is more than the balance due for the selected invoice(s).',
			),
			area: invoiceArea,
		};
		expect(explainFailure(failure)).toEqual({
			code: '24016',
			message:
				"The amount entered exceeds the balance due on the invoice (code 24016). Lower Amount Applied to at most the invoice's balance due; the rest of the payment stays unused and can be refunded.",
			description:
				'The Vendor API answered: The amount entered is more than the balance due for the selected invoice(s).',
		});
		const error = apiError(node, failure, 0, undefined, 'Outcome unknown');
		expect(error.message).toMatch(
			/^Outcome unknown: The amount entered exceeds the balance due on the invoice \(code 24016\)/,
		);
	});

	test('Billing: 1002 keeps "billing project does not exist"; 20004 its meaning', () => {
		expect(
			explainFailure({
				status: 404,
				body: answer(1002, 'Project does not exist.'),
				area: billingArea,
			}),
		).toEqual({
			code: '1002',
			message:
				'The billing project does not exist (code 1002). Check the Project ID (pick it from the list).',
			description: 'The Vendor API answered: Project does not exist.',
		});
		expect(
			explainFailure({ status: 400, body: answer(20004, 'x'), area: billingArea }).message,
		).toMatch(/^The amount must not be negative \(code 20004\)/);
	});

	test('each code has its meaning in its own area only: payment codes not in Billing, billing codes not in Payments, none in Books or Bills', () => {
		const payment = [3004, 9521, 9523, 24016];
		const billing = [1002, 20004, 20077];
		const explained = (area: typeof booksArea, code: number) =>
			explainFailure({ status: 400, body: answer(code, 'server words'), area }).message;
		for (const code of [...payment, ...billing]) {
			const words = `server words (code ${code})`;
			expect(explained(invoiceArea, code) === words).toBe(!payment.includes(code));
			expect(explained(billingArea, code) === words).toBe(!billing.includes(code));
			expect(explained(booksArea, code)).toBe(words);
			expect(explained(inventoryArea, code)).toBe(words);
		}
	});
});

describe("through n8n's engine: the node shows the words of its own area", () => {
	const env = useWorkflowEnv({ demo: true });
	const onError = { onError: 'continueRegularOutput' } as const;
	afterEach(() => env.em.faults.clear());
	/** The next `n` requests in `scope` answer `body` with `status` (JSON), unprocessed. */
	const answerWith = (scope: string, status: number, body: object, n = 1) =>
		env.em.faults.next(
			n,
			{
				kind: 'html',
				status,
				contentType: 'application/json;charset=UTF-8',
				body: JSON.stringify(body),
			},
			scope,
		);

	test("Books 1002 (an operation and Custom API Call): the API's words and the code; Payments 20004 likewise; Billing 1002 its documented meaning", async () => {
		answerWith('books', 404, answer(1002, 'Invoice does not exist.'), 2);
		answerWith('invoice', 400, answer(20004, 'Amount cannot be negative.'));
		answerWith('billing', 404, answer(1002, 'Project does not exist.'));
		const result = await env.run([
			env.orgSteps('vendorBooks', { resource: 'invoice' })(
				'Invoice',
				{ operation: 'getEmailContent', invoice_id: byId(DEMO.invoices.overdue1) },
				onError,
			),
			env.orgSteps('vendorBooks', { resource: 'customApiCall', operation: 'customApiCall' })(
				'Books call',
				{ customMethod: 'GET', customPath: `/invoices/${DEMO.invoices.overdue1}/email` },
				onError,
			),
			env.orgSteps('vendorInvoice', { resource: 'payment' })(
				'Payment',
				{ operation: 'get', payment_id: byId(DEMO.payments.paid1) },
				onError,
			),
			env.orgSteps('vendorBilling', { resource: 'project' })(
				'Project',
				{ operation: 'get', project_id: byId(DEMO.billingProjects.website) },
				onError,
			),
		]);
		expectNoError(result);
		for (const step of ['Invoice', 'Books call']) {
			const [out] = json(result, step);
			expect(out).toMatchObject({
				error: 'Invoice does not exist. (code 1002) [item 0]',
				httpCode: '404',
			});
			expect(JSON.stringify(out)).not.toMatch(/project/i);
		}
		const [payment] = json(result, 'Payment');
		expect(payment).toMatchObject({
			error: 'Amount cannot be negative. (code 20004) [item 0]',
			httpCode: '400',
		});
		expect(JSON.stringify(payment)).not.toMatch(/project|budget/i);
		expect(json(result, 'Project')[0]).toMatchObject({
			error:
				'The billing project does not exist (code 1002). Check the Project ID (pick it from the list). [item 0]',
			httpCode: '404',
		});
		expect(env.apiRequests().map((r) => r.status)).toEqual([404, 404, 400, 404]);
	});
});
