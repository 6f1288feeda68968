// Running an item (run/): the pickers of resource locators (listSearch methods), one per resource with a list.
/**
 * A picker lists a resource's records by name (filtered by what the user types, paged as
 * the API pages), with the organization picker of the accounting nodes besides.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { answerRecords, hasMore } from '../api/pages';
import { nodeRequest } from '../api/request';
import { RunState, vendorRequest } from '../api/transport';
import type { VendorContext } from '../api/transport';
import { searchMethodName } from '../tables/naming';
import { ORGANIZATION, ORGANIZATIONS_LIST } from '../tables/organizations';
import type { Area, Operation, Resource } from '../tables/spec';

/** `listSearch` methods for every resource with a list: the pickers of resource locators. */
export function listSearchMethods(
	area: Area,
): Record<
	string,
	(
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	) => Promise<INodeListSearchResult>
> {
	const methods: Record<
		string,
		(
			this: ILoadOptionsFunctions,
			filter?: string,
			paginationToken?: string,
		) => Promise<INodeListSearchResult>
	> = {};
	// the organization picker of the accounting nodes (an inferred list)
	const resources = area.org ? [...area.resources, ORGANIZATION] : area.resources;
	for (const resource of resources) {
		const list = resource.operations.find((o) => o.value === resource.listOperation);
		if (!list || !resource.idField) continue;
		methods[searchMethodName(resource.value)] = async function (
			this: ILoadOptionsFunctions,
			filter?: string,
			paginationToken?: string,
		) {
			return await searchRecords(this, area, resource, list, filter, paginationToken);
		};
	}
	return methods;
}

async function searchRecords(
	ctx: ILoadOptionsFunctions,
	area: Area,
	resource: Resource,
	list: Operation,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const idField = resource.idField ?? 'id';
	const nameField = resource.nameField ?? 'name';
	const values: IDataObject = {};
	for (const field of list.fields.filter((f) => f.required)) {
		values[field.name] = ctx.getCurrentNodeParameter(field.name, { extractValue: true }) as string;
	}
	const contains = list.fields.find((f) => f.name === `${nameField}_contains`);
	if (filter && contains) values[contains.name] = filter;
	const organizationId =
		area.org && list !== ORGANIZATIONS_LIST
			? String(ctx.getCurrentNodeParameter('organizationId', { extractValue: true }) ?? '')
			: undefined;
	const req = nodeRequest(
		ctx.getNode(),
		area,
		list,
		values,
		organizationId,
		'Nothing was sent to the API. Correct the value and try again.',
	);
	const page = Number(paginationToken ?? 1);
	if (list.pagination && list.pagination !== 'none')
		Object.assign(req.qs, { page, per_page: list.perPage ?? 200 });
	// one list search is one run (api/run.ts): its own state, the defaults of the Options
	const body = (await vendorRequest(new RunState(ctx as VendorContext), area, req)).body;
	// the list's records as every list read takes them (a 204 or `{}` found nothing; an answer without its list is an error, not a record)
	const records = answerRecords(ctx.getNode(), area, list, body);
	const needle = (filter ?? '').toLowerCase();
	const results = records
		.map((r) => ({ name: String(r[nameField] ?? r[idField]), value: String(r[idField]) }))
		.filter((r) => !needle || r.name.toLowerCase().includes(needle) || r.value.includes(needle));
	const more = hasMore(list, body, records, list.perPage ?? 200);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}
