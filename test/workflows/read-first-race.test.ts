/**
 * Read-first updates told honestly, end to end on n8n's engine: Billing Project → Update with only
 * a description reads the project for the name, customer, billing type and rate the API needs on
 * every update (the Payments document: project_name "required on create and update"; customer_id,
 * billing_type required; rate mandatory for two billing types), then writes. A change made by
 * someone else between the read and the write (here: made by the test proxy as soon as the read has
 * been answered) is shown in the output when the write's answer shows it (`readFirstWarning`); a
 * change to a field the update resends cannot be seen and is overwritten, as the operation's
 * description says. (Payment → Update reads nothing: no field is required on its update.)
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO } from '../../emulator/demo-data';
import { useProxiedEnv } from '../tools/proxied-env';
import { byId, expectNoError, json } from '../../harness/workflows';

const proxied = useProxiedEnv({ demo: true });
const id = DEMO.billingProjects.website;
const stored = (): IDataObject => proxied.env.orgTenant().get('projects', id)!;

/** Between the node's read of the billing project and its write, someone else changes `change` on the stored project. */
function changeAfterRead(change: IDataObject): void {
	proxied.proxy.add({
		method: 'GET',
		path: new RegExp(`/billing/v1/projects/${id}$`),
		action: {
			replace: (upstream) => {
				Object.assign(stored(), change);
				return {
					status: upstream.status,
					contentType: String(upstream.headers['content-type']),
					body: upstream.body,
				};
			},
		},
	});
}

const update = (description: string) =>
	proxied.env.orgSteps('vendorBilling', { resource: 'project' })('Update', {
		operation: 'update',
		project_id: byId(id),
		updateFields: { description },
	});

test('no change in between: no warning, and only the description changes', async () => {
	const { rate, ...before } = { ...stored() };
	delete before.last_modified_time;
	const result = await proxied.env.run([update('first')]);
	expectNoError(result);
	const [out] = json(result, 'Update');
	expect(out.readFirstWarning).toBeUndefined();
	expect(stored()).toMatchObject({ ...before, description: 'first' });
	expect(String(stored().rate)).toBe(String(rate));
	expect(proxied.proxy.records.map((r) => r.method)).toEqual(['GET', 'PUT']);
});

test('a field the update does not send changed in between: the output says so, naming it and what was sent as read', async () => {
	const read = String(stored().budget_type);
	const budget = read === 'total_project_cost' ? 'total_project_hours' : 'total_project_cost';
	changeAfterRead({ budget_type: budget });
	const result = await proxied.env.run([update('second')]);
	expectNoError(result);
	const [out] = json(result, 'Update');
	const warning = out.readFirstWarning as IDataObject;
	expect(warning.changed).toEqual({ budget_type: { read, now: budget } });
	expect(Object.keys(warning.sentAsRead as IDataObject).sort()).toEqual([
		'billing_type',
		'customer_id',
		'project_name',
		'rate',
	]);
	expect(String(warning.message)).toMatch(
		/^Changed by someone else between this node's read and its write: budget_type/,
	);
});

test('the name changed in between cannot be seen in the answer: it is overwritten with the name read, as the description says', async () => {
	const name = String(stored().project_name);
	changeAfterRead({ project_name: `${name} (renamed elsewhere)` });
	const result = await proxied.env.run([update('third')]);
	expectNoError(result);
	const [out] = json(result, 'Update');
	expect(out.readFirstWarning).toBeUndefined();
	expect(stored().project_name).toBe(name);
});
