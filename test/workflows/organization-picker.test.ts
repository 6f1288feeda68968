/**
 * Organization ID from a list: every accounting node and trigger offers From List (the
 * inferred GET /organizations, marked so) and By ID; the picker lists the account's
 * organizations; a run takes the picked one; a failing list call leaves By ID working.
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { pollOnce } from '../../harness';
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { byId, expectNoError, NODE_TYPES, vendorNode } from '../../harness/workflows';
import { fromList, useWorkflowEnv } from './support';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { useVirtualClock } from '../tools/virtual-clock';

const env = useWorkflowEnv({ demo: true });
// the retries of a failing list call wait their backoff on the test's clock
useVirtualClock();

test('every node and trigger of the accounting areas: Organization ID is a locator with From List (marked inferred) and By ID', () => {
	let withOrganization = 0;
	for (const type of NODE_TYPES) {
		const { description } = new type() as INodeType;
		const property = description.properties.find(
			(p: INodeProperties) => p.name === 'organizationId',
		);
		if (description.name.startsWith('vendorProjects')) {
			expect(property).toBeUndefined();
			continue;
		}
		withOrganization++;
		expect([description.name, property?.type, property?.required]).toEqual([
			description.name,
			'resourceLocator',
			true,
		]);
		expect(property?.modes?.map((m) => [m.name, m.typeOptions?.searchListMethod])).toEqual([
			['list', 'searchOrganizations'],
			['id', undefined],
		]);
		expect(property?.modes?.[0].placeholder).toBe('Select an organization...');
		expect(property?.description).toContain(
			'If the list stays empty or fails, enter the ID (By ID)',
		);
		expect(Object.keys((new type() as INodeType).methods?.listSearch ?? {})).toContain(
			'searchOrganizations',
		);
	}
	expect(withOrganization).toBe(8);
});

test('the picker lists the organizations with GET /organizations, sending no organization; filter by name', async () => {
	for (const type of [VendorBooks, VendorInvoice, VendorBooksTrigger]) {
		env.em.clearRequests();
		const pick = env.picker(type, 'searchOrganizations', {});
		const all = await pick();
		expect(all.results).toEqual([{ name: 'Zylker Demo Org', value: env.org }]);
		const [request] = env.apiRequests();
		expect(request.path).toMatch(/\/organizations$/);
		expect(request.query).toEqual({});
		expect(request.headers).not.toHaveProperty('x-com-vendor-invoice-organizationid');
		expect((await pick({ filter: 'zylker' })).results).toHaveLength(1);
		expect((await pick({ filter: 'nothing like it' })).results).toHaveLength(0);
	}
});

test('a run with the organization picked from the list, and one by ID, send it where the area wants it', async () => {
	const list = env.orgSteps('vendorBooks', {
		resource: 'item',
		operation: 'getAll',
		returnAll: false,
		limit: 1,
	});
	for (const organizationId of [fromList(env.org, 'Zylker Demo Org'), byId(env.org)]) {
		env.em.clearRequests();
		const result = await env.run([list('List', { organizationId })]);
		expectNoError(result);
		expect(result.output('List')).toHaveLength(1);
		expect(env.apiRequests()[0].query.organization_id).toBe(env.org);
	}
	const poll = await pollOnce({
		nodeType: VendorBooksTrigger,
		node: vendorNode(
			VendorBooksTrigger,
			{ organizationId: fromList(env.org), event: 'itemCreated' },
			'Trigger',
		),
		credentials: env.credentials,
		credentialTypes: [VendorOAuth2Api],
		mode: 'manual',
	});
	expect(poll.items).not.toBeUndefined();
	expect(env.apiRequests().at(-1)?.query.organization_id).toBe(env.org);
});

test('the organizations call failing: the picker reports it, and By ID still works', async () => {
	env.em.faults.next(4, { kind: 'status', status: 500 }, (r) => r.path.endsWith('/organizations'));
	await expect(env.picker(VendorBooks, 'searchOrganizations', {})()).rejects.toThrow();
	env.em.faults.clear();
	const list = env.orgSteps('vendorBooks', {
		resource: 'item',
		operation: 'getAll',
		returnAll: false,
		limit: 1,
	});
	env.em.faults.next(1_000, { kind: 'status', status: 503 }, (r) =>
		r.path.endsWith('/organizations'),
	);
	const result = await env.run([list('List', { organizationId: byId(env.org) })]);
	expectNoError(result);
	env.em.faults.clear();
});
