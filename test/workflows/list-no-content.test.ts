/**
 * A 204 answer to a list read is a read that found nothing (docs/BEHAVIOUR.md, "Deletions"; the
 * service's 204 to a list is a guess: docs/ASSUMPTIONS.md). Generated from the field tables: every
 * list operation of every action node runs through n8n's engine with Return All, with n8n's node
 * setting "Always Output Data" on and off, while an answer proxy gives its own call a 204 (no
 * body; an empty body labelled JSON): on page 1, the node outputs no record (with Always Output
 * Data: n8n's one empty item), and no error; on page 2 of a paged list after a full page 1, the
 * page-1 records and nothing more, and no page 3 is asked. The pickers (resource locators) of
 * every resource with a list, and every trigger event's list read, take a 204 the same way.
 */
import type { IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { searchMethodName } from '../../nodes/shared/tables/naming';
import { ORGANIZATION } from '../../nodes/shared/tables/organizations';
import type { Area, Operation, Resource } from '../../nodes/shared/tables/spec';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { runWorkflow } from '../../harness';
import { jsonAnswer } from '../tools/answer-proxy';
import type { MadeAnswer, ProxiedRequest, ProxyAction } from '../tools/answer-proxy';
import { valuesOf as demoValues } from '../tools/demo-values';
import { useProxiedEnv } from '../tools/proxied-env';
import { ACTION_AREAS, NODE_OF, nodeParameters, tableOperations } from '../tools/table-inputs';
import { triggerEvents } from '../tools/trigger-tables';
import type { TableOperation } from '../tools/table-inputs';
import { byId, fedByInput, NODE_TYPES } from '../../harness/workflows';
import { PolledTrigger } from './support';

const RULE = { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 };
const ctx = useProxiedEnv({ demo: true, rateLimit: RULE });
const env = ctx.env;
beforeAll(() => setPacingRule(RULE));
afterAll(() => setPacingRule(DOCUMENTED_RULE));

/** The answers that say "no content": a 204 without a body, and one whose (empty) body is labelled JSON. */
const NO_CONTENT: Array<[string, MadeAnswer]> = [
	['a 204 without a body', { status: 204, body: '' }],
	[
		'a 204 with an empty body labelled JSON',
		{ status: 204, contentType: 'application/json', body: '' },
	],
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a proxied request is the list operation's own call. */
function isCallOf(area: Area, op: Operation): (r: { method: string; path: string }) => boolean {
	const root = area.family === 'projects' ? '/us/projects' : '/us/api';
	const path = new RegExp(
		`^${escape(`${root}${area.basePath}${op.path}`).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`,
	);
	return (r) => r.method === op.method && path.test(r.path);
}

// ---------------------------------------------------------------- Get Many (every list operation)

const LISTS = tableOperations().filter((t) => t.op.kind === 'list');
const PAGED = LISTS.filter(
	(t) => t.op.pagination === 'pageContext' || t.op.pagination === 'pageSize',
);

const ALWAYS = 'Always Output Data';
const PLAIN = 'Without It';

/** One execution: Input (one item) -> the list node with Always Output Data, and -> the same node without it; Return All on. */
async function runList(
	t: TableOperation,
): Promise<{ always: INodeExecutionData[]; plain: INodeExecutionData[]; errors: string[] }> {
	const base = t.area.org ? { organizationId: env.org } : {};
	const parameters = { ...base, ...nodeParameters(t, demoValues(env, t), { returnAll: true }) };
	const node = (name: string, alwaysOutputData: boolean, y: number): INode => ({
		id: name,
		name,
		type: `n8n-nodes-vendor.${NODE_OF[t.area.value]}`,
		typeVersion: 1,
		position: [200, y],
		parameters: parameters as INode['parameters'],
		credentials: { vendorOAuth2Api: { id: 'vendor-cred-1', name: 'Vendor (emulator)' } },
		alwaysOutputData,
	});
	const result = await runWorkflow({
		workflow: fedByInput([{ json: { i: 0 } }], [node(ALWAYS, true, 0), node(PLAIN, false, 200)]),
		nodeTypes: NODE_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials: env.credentials,
	});
	const errors = [ALWAYS, PLAIN, undefined].flatMap((name) => {
		const error = result.error(name);
		return error ? [`${name ?? 'run'}: ${error.message}`] : [];
	});
	return {
		always: result.output(ALWAYS),
		plain: result.output(PLAIN),
		errors: [...new Set(errors)],
	};
}

/** Page 1 made full (`per_page` records, the answer saying more follow): Return All goes on to page 2. */
function fullPage(t: TableOperation): ProxyAction {
	return {
		replace: (upstream, request) => {
			const perPage = Number(request.query.per_page ?? 200);
			const body = (upstream.json ?? {}) as IDataObject;
			const key =
				t.op.responseKey ??
				Object.keys(body).find((k) => Array.isArray(body[k]) && k !== 'page_context') ??
				'records';
			const first = ((body[key] as IDataObject[] | undefined) ?? [])[0] ?? {};
			const idField = t.resource.idField ?? 'id';
			const records = Array.from({ length: perPage }, (_, i) => ({
				...first,
				[idField]: String(9100000000000 + i),
			}));
			const more =
				t.op.pagination === 'pageContext'
					? { page_context: { page: 1, per_page: perPage, has_more_page: true } }
					: { page_info: { page: 1, per_page: perPage, has_next_page: true } };
			return jsonAnswer({ ...body, [key]: records, ...more });
		},
	};
}

const pageOf = (r: ProxiedRequest): string | undefined => r.query.page;
const ownCalls = (t: TableOperation) => ctx.proxy.records.filter(isCallOf(t.area, t.op));

describe.each(NO_CONTENT)('%s', (_name, answer) => {
	test.each(LISTS.map((t) => [t.id, t] as const))(
		'%s, Return All, page 1 answered so: no record, no error; Always Output Data gives its one empty item',
		async (_id, t) => {
			ctx.proxy.add({ test: isCallOf(t.area, t.op), action: { answer } });
			const { always, plain, errors } = await runList(t);
			expect({
				errors,
				always: always.map((i) => i.json),
				plain: plain.map((i) => i.json),
			}).toEqual({ errors: [], always: [{}], plain: [] });
			// one call per node: the list ended there
			expect(ownCalls(t).map(pageOf)).toEqual(
				t.op.pagination === 'pageContext' || t.op.pagination === 'pageSize'
					? ['1', '1']
					: [undefined, undefined],
			);
		},
	);

	test.each(PAGED.map((t) => [t.id, t] as const))(
		"%s, Return All, a full page 1 then page 2 answered so: the list ends with page 1's records",
		async (_id, t) => {
			const isOwn = isCallOf(t.area, t.op);
			ctx.proxy.add({ test: (r) => isOwn(r) && pageOf(r) === '1', action: fullPage(t) });
			ctx.proxy.add({ test: (r) => isOwn(r) && pageOf(r) === '2', action: { answer } });
			const { always, plain, errors } = await runList(t);
			const perPage = Number(ownCalls(t)[0]?.query.per_page);
			const ids = (items: INodeExecutionData[]) =>
				items.map((i) => String(i.json[t.resource.idField ?? 'id']));
			const expected = Array.from({ length: perPage }, (_, i) => String(9100000000000 + i));
			expect({ errors, always: ids(always), plain: ids(plain) }).toEqual({
				errors: [],
				always: expected,
				plain: expected,
			});
			expect(ownCalls(t).map(pageOf).sort()).toEqual(['1', '1', '2', '2']);
		},
	);
});

// ---------------------------------------------------------------- the pickers (listSearch) of every resource with a list

const NODE_CLASS: Record<string, new () => INodeType> = {
	books: VendorBooks,
	projects: VendorProjects,
	invoice: VendorInvoice,
	billing: VendorBilling,
	inventory: VendorInventory,
} as never;

/** Every picker: the resources with a list and an ID field (as listSearch.ts makes them), the organization picker too. */
const PICKERS: Array<[string, Area, Resource, Operation]> = ACTION_AREAS.flatMap((area) =>
	(area.org ? [...area.resources, ORGANIZATION] : area.resources).flatMap((resource) => {
		const list = resource.operations.find((o) => o.value === resource.listOperation);
		return list && resource.idField
			? [
					[`${area.value}.${searchMethodName(resource.value)}`, area, resource, list] as [
						string,
						Area,
						Resource,
						Operation,
					],
				]
			: [];
	}),
);

describe.each(NO_CONTENT)('%s', (_name, answer) => {
	test.each(PICKERS)(
		'the picker %s answered so: no entry, no further page, no error',
		async (_id, area, resource, list) => {
			const t = tableOperations().find((o) => o.area === area && o.op === list);
			const parameters = {
				resource: resource.value,
				...(t ? nodeParameters(t, demoValues(env, t)) : {}),
				...(area.org ? { organizationId: env.org } : {}),
				...(area.value === 'projects' ? { portal_id: byId(env.portal) } : {}),
			};
			ctx.proxy.add({ test: isCallOf(area, list), action: { answer } });
			const found = await env.picker(
				NODE_CLASS[area.value] as never,
				searchMethodName(resource.value),
				parameters,
			)();
			expect(found).toEqual({ results: [], paginationToken: undefined });
			expect(ctx.proxy.records.filter(isCallOf(area, list))).toHaveLength(1);
		},
	);
});

// ---------------------------------------------------------------- every trigger event's list read

const EVENTS = triggerEvents().map(
	(c) => [`${c.area.name} Trigger: ${c.event.name}`, c.type, c.area, c.event, c.list] as const,
);

describe.each(NO_CONTENT)('%s', (_name, answer) => {
	test.each(EVENTS)(
		'%s, every list read answered so: Fetch Test Event, the first poll and the next emit nothing, and none fails',
		async (_id, type, area, event, list) => {
			expect(list).toBeDefined();
			const parameters: IDataObject = {
				event: event.value,
				...(area.org ? { organizationId: env.org } : {}),
				...(area.value === 'projects' ? { portal_id: byId(env.portal) } : {}),
				...(event.status ? { status: event.status.values[0] } : {}),
			};
			ctx.proxy.add({ test: isCallOf(area, list), action: { answer } });
			const trigger = new PolledTrigger(env, type, parameters);
			const outcomes: IDataObject[] = [];
			for (const mode of ['manual', 'trigger', 'trigger'] as const) {
				try {
					outcomes.push({ mode, items: (await trigger.pollTrigger(mode)).items });
				} catch (error) {
					outcomes.push({ mode, error: (error as Error).message });
				}
			}
			expect(outcomes).toEqual([
				{ mode: 'manual', items: [] },
				{ mode: 'trigger', items: [] },
				{ mode: 'trigger', items: [] },
			]);
			expect(ctx.proxy.records.filter(isCallOf(area, list)).length).toBeGreaterThan(0);
		},
	);
});
