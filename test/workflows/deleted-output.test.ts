/**
 * n8n's UX guidelines on output, generated from the field tables:
 * - every operation that deletes (kind `delete`, or a DELETE request) outputs one object
 *   `{ deleted: true, ...what the API answered }`, and only when the answer proves it: `code` 0
 *   in the accounting areas; in the project area HTTP 200 / 204 and a `count`, when stated,
 *   that matches the records sent. Any other answer is "Outcome unknown" (sent once, not
 *   repeated) or the API's refusal, never `deleted: true`;
 * - Move to Trash is not a deletion (its records stay restorable): its answer is output as is;
 * - Simplify keeps at most 10 fields, with n8n's description; the tool variant has Output
 *   (Simplified / Raw / Selected Fields) instead, Simplified by default.
 * Every answer here is made by an answer proxy in front of the emulator, for the operation's own call.
 */
import type { IDataObject, INode, INodeExecutionData, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { isDeletion, recordsNamed } from '../../nodes/shared/run/deleted';
import {
	SIMPLIFY_DESCRIPTION,
	SIMPLIFY_MAX_FIELDS,
	simplifiedOperations,
} from '../../nodes/shared/features/simplify';
import type { Field } from '../../nodes/shared/tables/spec';
import { VendorBilling } from '../../nodes/VendorBilling/VendorBilling.node';
import { VendorBooks } from '../../nodes/VendorBooks/VendorBooks.node';
import { VendorInventory } from '../../nodes/VendorInventory/VendorInventory.node';
import { VendorInvoice } from '../../nodes/VendorInvoice/VendorInvoice.node';
import { VendorProjects } from '../../nodes/VendorProjects/VendorProjects.node';
import { DEMO } from '../../emulator/demo-data';
import { jsonAnswer } from '../tools/answer-proxy';
import type { MadeAnswer } from '../tools/answer-proxy';
import { useProxiedEnv } from '../tools/proxied-env';
import {
	ACTION_AREAS,
	NODE_OF,
	nodeParameters,
	requiredValues,
	tableOperations,
} from '../tools/table-inputs';
import type { TableOperation } from '../tools/table-inputs';
import { steps } from '../../harness/workflows';

const ctx = useProxiedEnv({ demo: true });
const env = ctx.env;
const NODE = 'Node';

const OPERATIONS = tableOperations();
const DELETIONS = OPERATIONS.filter((t) => isDeletion(t.op));

/** Two records of a module, so a count of one is a count that does not match. */
const TRASHED = [{ module: 'projects', items: [DEMO.trashed.oldProject, '3000000000010'] }];

function ids(field: Field, t: TableOperation): string {
	if (field.name === 'portal_id') return env.portal;
	return t.area.value === 'projects' ? '3000000000009' : '1000000000001';
}

function valuesOf(t: TableOperation): IDataObject {
	const values = requiredValues(t, ids);
	if (values.trash_request_items !== undefined) values.trash_request_items = TRASHED;
	return values;
}

/** The path of the operation's own call, as the proxy sees it. */
function ownPath(t: TableOperation): RegExp {
	const root = t.area.family === 'projects' ? '/us/projects' : '/us/api';
	const template = `${root}${t.area.basePath}${t.op.path}`
		.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
		.replace(/\\\{[^}]+\\\}/g, '[^/]+');
	return new RegExp(`^${template}$`);
}

/** One item through the operation with its own call answered `answer`, Continue On Fail on: its output items and how many own calls were made. */
async function runAnswered(
	t: TableOperation,
	answer: MadeAnswer,
): Promise<{ out: INodeExecutionData[]; calls: number }> {
	ctx.proxy.reset();
	ctx.proxy.add({ method: t.op.method, path: ownPath(t), action: { answer } });
	const base = t.area.org ? { organizationId: env.org } : {};
	const result = await env.run([
		steps(NODE_OF[t.area.value], base)(NODE, nodeParameters(t, valuesOf(t)), {
			onError: 'continueRegularOutput',
		}),
	]);
	expect(result.error(NODE) ?? result.error()).toBeUndefined();
	const calls = ctx.proxy.records.filter(
		(r) => r.method === t.op.method && ownPath(t).test(r.path),
	).length;
	return { out: result.output(NODE), calls };
}

/** The answer that proves the deletion, in the area's terms, and the output it gives. */
function proof(t: TableOperation): { body: IDataObject; output: IDataObject } {
	if (t.area.family === 'accounting') {
		const body = { code: 0, message: 'The record has been deleted.' };
		return { body, output: { deleted: true, ...body } };
	}
	const body = { message: 'Deleted permanently', count: recordsNamed(t.op, valuesOf(t)) ?? 248 };
	return { body, output: { deleted: true, ...body } };
}

/** Answers that do not prove the deletion (none a refusal): the outcome is unknown. */
function unproven(t: TableOperation): Array<[string, MadeAnswer]> {
	const { body } = proof(t);
	const cases: Array<[string, MadeAnswer]> = [
		['HTTP 202 (accepted, not done)', jsonAnswer(body, 202)],
		['deleted: false beside the proof', jsonAnswer({ ...body, deleted: false })],
		['a list', jsonAnswer([])],
	];
	if (t.area.family === 'accounting')
		cases.push(['no code', jsonAnswer({ message: 'The record has been deleted.' })]);
	else
		cases.push([
			'a count that is not a number of records',
			jsonAnswer({ message: 'Deleted', count: -1 }),
		]);
	const named = recordsNamed(t.op, valuesOf(t));
	if (named !== undefined && t.area.family !== 'accounting')
		cases.push([
			`a count of ${named + 1} for ${named} record(s) sent`,
			jsonAnswer({ message: 'Deleted', count: named + 1 }),
		]);
	if (t.op.fields.some((f) => f.name === 'trash_request_items'))
		cases.push(['a count of 1 for 2 records sent', jsonAnswer({ message: 'Deleted', count: 1 })]);
	return cases;
}

test('the deletions are read from the tables: kind delete or a DELETE request; Move to Trash and Restore are not', () => {
	expect(DELETIONS.map((t) => t.id)).toEqual([
		'books.item.delete',
		'books.invoice.deleteAttachment',
		'books.invoice.deleteExpenseReceipt',
		'books.invoice.deleteAppliedCredit',
		'projects.trash.deletePermanently',
		'projects.trash.emptyBin',
		'invoice.payment.delete',
		'billing.project.removeUser',
		'billing.comment.delete',
	]);
	expect(OPERATIONS.filter((t) => t.op.kind === 'delete').every((t) => isDeletion(t.op))).toBe(
		true,
	);
	expect(DELETIONS.every((t) => t.op.method === 'DELETE')).toBe(true);
});

describe.each(DELETIONS.map((t) => [t.id, t] as const))('%s', (_id, t) => {
	test('an answer that proves the deletion: one item, { deleted: true } beside what the API said', async () => {
		const { body, output } = proof(t);
		const { out, calls } = await runAnswered(t, jsonAnswer(body));
		expect(out.map((item) => item.json)).toEqual([output]);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(calls).toBe(1);
	});

	test('an answer that does not prove it: "Outcome unknown", sent once, never deleted: true', async () => {
		const wrong: string[] = [];
		for (const [name, answer] of unproven(t)) {
			const { out, calls } = await runAnswered(t, answer);
			const texts = out.map(
				(item) => `${String(item.json.error ?? '')} ${String(item.json.description ?? '')}`,
			);
			if (out.length !== 1 || out.some((item) => item.json.deleted !== undefined))
				wrong.push(`${name}: output ${JSON.stringify(out.map((i) => i.json)).slice(0, 300)}`);
			else if (
				!/^Outcome unknown: the write may have been processed\. Check the record before running again: .+ \[item 0\]$/.test(
					String(out[0].json.error),
				)
			)
				wrong.push(`${name}: ${texts[0].slice(0, 300)}`);
			else if (!/not repeated/.test(texts[0]))
				wrong.push(`${name}: does not say it was not repeated: ${texts[0].slice(0, 300)}`);
			if (calls !== 1) wrong.push(`${name}: sent ${calls} times`);
		}
		expect(wrong).toEqual([]);
	});

	test('a code-0 refusal ("invalid value"): the API\'s words, not deleted', async () => {
		const { out } = await runAnswered(
			t,
			jsonAnswer({ code: 0, message: 'Invalid value passed for organization_id' }),
		);
		expect(out).toHaveLength(1);
		expect(out[0].json.deleted).toBeUndefined();
		expect(String(out[0].json.error)).toMatch(
			/^The Vendor API refused .*Invalid value passed for organization_id \(code 0\) \[item 0\]$/,
		);
	});
});

test('Move to Trash is not a deletion: its answer is output as the API gave it', async () => {
	const t = OPERATIONS.find((o) => o.id === 'projects.trash.moveToTrash') as TableOperation;
	expect(isDeletion(t.op)).toBe(false);
	const { out } = await runAnswered(
		t,
		jsonAnswer({ message: '1 record(s) moved to trash', count: 1 }),
	);
	expect(out.map((item) => item.json)).toEqual([
		{ message: '1 record(s) moved to trash', count: 1, items: valuesOf(t).items },
	]);
});

describe('Simplify (the node) and Output (the tool)', () => {
	const DESCRIPTIONS = [
		VendorBooks,
		VendorProjects,
		VendorInvoice,
		VendorBilling,
		VendorInventory,
	].map((Type) => new Type().description);
	const resolve = (description: INodeTypeDescription, parameters: IDataObject) => {
		const node = {
			name: 'N',
			type: description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		} as unknown as INode;
		return NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) as IDataObject;
	};
	const resources = ACTION_AREAS.flatMap((area) =>
		area.resources
			.filter((r) => r.simplify)
			.map((r) => [`${area.name} ${r.value}`, area, r] as const),
	);

	test.each(resources)(
		'%s: at most 10 fields, each once, the ID first',
		(_name, _area, resource) => {
			const fields = resource.simplify ?? [];
			expect(fields.length).toBeGreaterThan(0);
			expect(fields.length).toBeLessThanOrEqual(SIMPLIFY_MAX_FIELDS);
			expect(new Set(fields).size).toBe(fields.length);
			expect(fields[0]).toBe(resource.idField);
		},
	);

	test.each(resources)(
		"%s: Simplify in n8n's words for the node, Output for the tool (Simplified by default)",
		(_name, area, resource) => {
			const description = DESCRIPTIONS[ACTION_AREAS.indexOf(area)];
			const tool = { ...description, name: `${description.name}Tool` };
			const shownFor = (name: string) =>
				description.properties.filter(
					(p) => p.name === name && p.displayOptions?.show?.resource?.includes(resource.value),
				);
			for (const p of shownFor('simplify').filter((q) => q.type === 'boolean'))
				expect(p.description).toBe(SIMPLIFY_DESCRIPTION);
			const [output] = shownFor('output');
			expect((output.options ?? []).map((o) => ('value' in o ? o.value : undefined))).toEqual([
				'raw',
				'selectedFields',
				'simplified',
			]);
			const [fields] = shownFor('outputFields');
			const choices = (fields.options ?? []).map((o) => ('value' in o ? o.value : undefined));
			for (const field of (resource.simplify ?? []).filter((f) => f !== resource.idField))
				expect(choices).toContain(field);
			for (const operation of simplifiedOperations(resource)) {
				const asNode = resolve(description, { resource: resource.value, operation });
				expect([asNode.simplify, asNode.output]).toEqual([false, undefined]);
				const asTool = resolve(tool, { resource: resource.value, operation });
				expect(asTool.output).toBe('simplified');
				expect(asTool).not.toHaveProperty('outputFields');
				expect(
					resolve(tool, { resource: resource.value, operation, output: 'selectedFields' })
						.outputFields,
				).toEqual([]);
				// a tool saved before Output, with Simplify off, keeps its choice
				expect(
					resolve(tool, { resource: resource.value, operation, simplify: false }).simplify,
				).toBe(false);
			}
		},
	);
});
