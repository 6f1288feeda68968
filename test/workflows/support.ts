/**
 * Shared set-up of workflow tests, beside the harness's workflows of the package's nodes against
 * the emulator (harness/workflows.ts, imported from there): what only the tests use, a WorkflowEnv
 * that asserts how requests were signed, one per test file, the recorded requests as the tests
 * compare them, and polled triggers.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import type { EmulatorOptions, RecordedRequest } from '../../emulator/server';
import { pollOnce } from '../../harness';
import { vendorNode, WorkflowEnv as HarnessWorkflowEnv } from '../../harness/workflows';

/** The root of the Projects API paths in the emulator's US region. */
export const PROJECTS_ROOT = '/us/projects/api/v3';

/** Where an API area expects the organisation ID: the `organization_id` query (Books, Inventory) or its header (Invoice, Billing). */
const ORG_PLACES = {
	query: (r: RecordedRequest): string | undefined => r.query.organization_id,
	invoiceHeader: (r: RecordedRequest): string | undefined =>
		r.headers['x-com-vendor-invoice-organizationid'],
	subscriptionsHeader: (r: RecordedRequest): string | undefined =>
		r.headers['x-com-vendor-subscriptions-organizationid'],
};
export type OrgPlace = keyof typeof ORG_PLACES;

interface SignedExpectation {
	/** The place that must carry the emulator's organisation ID; the other places must not carry one. */
	org?: OrgPlace;
	/** Every request also succeeded (status below 300). */
	ok?: boolean;
}

/** The harness's WorkflowEnv with the tests' own helpers, which assert as they go. */
export class WorkflowEnv extends HarnessWorkflowEnv {
	/** A new open invoice of `customer` for `rate` (one line), through the books area. */
	async newInvoice(customer: string, rate: number): Promise<{ id: string; number: string }> {
		const res = await this.call('POST', 'books', '/invoices', {
			json: { customer_id: customer, line_items: [{ name: 'Work', rate, quantity: 1 }] },
		});
		expect(res.body.code).toBe(0);
		return {
			id: String(res.body.invoice.invoice_id),
			number: String(res.body.invoice.invoice_number),
		};
	}

	/**
	 * There were API requests since the last clear, and every one carried the stored access token as
	 * `Vendor-oauthtoken …`; with `org`, the organisation ID in that place and in no other;
	 * with `ok`, every one succeeded.
	 */
	expectSigned({ org, ok }: SignedExpectation = {}): void {
		const requests = this.apiRequests();
		expect(requests.length).toBeGreaterThan(0);
		const token = String(this.storedToken.access_token);
		for (const r of requests) {
			const request = `${r.method} ${r.path}`;
			const seen: IDataObject = { request, authorization: r.headers.authorization };
			const wanted: IDataObject = { request, authorization: `Vendor-oauthtoken ${token}` };
			if (org) {
				for (const [place, read] of Object.entries(ORG_PLACES)) seen[place] = read(r);
				wanted[org] = this.org;
			}
			if (ok) [seen.ok, wanted.ok] = [r.status < 300, true];
			expect(seen).toEqual(wanted);
		}
	}
}

/**
 * A recorded API request as the tests compare it: method, path below `/{region}/api`,
 * query, body, and the organisation header of the areas that send it in a header
 * (`org`, undefined for the others).
 */
export function apiCall(r: RecordedRequest): IDataObject {
	const org =
		r.headers['x-com-vendor-invoice-organizationid'] ??
		r.headers['x-com-vendor-subscriptions-organizationid'];
	return {
		method: r.method,
		path: r.path.replace(/^\/[a-z]+\/api(?=\/)/, ''),
		query: r.query,
		org,
		body: r.body as IDataObject,
	};
}

/** A recorded request as sent: method, full path, query and body (the Projects areas carry no organisation). */
export function sentRequest(r: RecordedRequest): IDataObject {
	return { method: r.method, path: r.path, query: r.query, body: r.body as IDataObject };
}

/**
 * A WorkflowEnv for the tests of one file: started before them, stopped after them, its
 * recorded requests cleared before each.
 */
export function useWorkflowEnv(opts: EmulatorOptions = {}): WorkflowEnv {
	const env = new WorkflowEnv();
	beforeAll(async () => await env.start(opts));
	afterAll(async () => await env.stop());
	beforeEach(() => env.em.clearRequests());
	return env;
}

/** A resource-locator value in "From list" mode, optionally with the name the editor shows for the picked entry. */
export const fromList = (value: string, cachedResultName?: string): IDataObject =>
	cachedResultName === undefined
		? { __rl: true, mode: 'list', value }
		: { __rl: true, mode: 'list', value, cachedResultName };

/**
 * A trigger node in a workflow; each poll (`pollTrigger`) runs with the static data the
 * previous one left.
 */
export class PolledTrigger {
	staticData: IDataObject = {};

	constructor(
		protected readonly env: WorkflowEnv,
		protected readonly type: new () => INodeType,
		protected readonly parameters: IDataObject,
	) {}

	/** One poll: the emitted items' JSON and the API requests it made (a manual one leaves the static data alone). */
	async pollTrigger(
		mode: 'trigger' | 'manual' = 'trigger',
	): Promise<{ items: IDataObject[]; calls: RecordedRequest[] }> {
		this.env.em.clearRequests();
		const result = await pollOnce({
			nodeType: this.type,
			node: vendorNode(this.type, this.parameters, 'Trigger'),
			credentials: this.env.credentials,
			credentialTypes: [VendorOAuth2Api],
			staticData: this.staticData,
			mode,
		});
		if (mode === 'trigger') this.staticData = result.staticData;
		return { items: (result.items?.[0] ?? []).map((i) => i.json), calls: this.env.apiRequests() };
	}
}
