/**
 * Every input item gives an output or an error, whatever type an expression gives a field (any type
 * from an expression). Generated from the field tables: every field of every operation of every
 * action node, given by an expression that yields a number, a number past 2^53, a fraction, a
 * boolean, a list, an object, null or nothing, through n8n's engine against the emulator. Each case
 * is a node of its own fed by the same input item ("On Error: Continue"), so a case that gives
 * neither an output nor an error shows as a node with no output item. A list read may answer no
 * record: each accepted list node is then counted by the request it sent (one page each), so a list
 * node that neither refused nor sent is found too.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import {
	ENTRY_MORE,
	entryLayout,
	placement,
	wrapperMember,
} from '../../nodes/shared/tables/naming';
import type { Field, FieldType, Operation } from '../../nodes/shared/tables/spec';
import { isRecordId } from '../../nodes/shared/tables/ids';
import { formName } from '../../nodes/shared/tables/problemText';
import { binaryItem, runWorkflow } from '../../harness';
import {
	ACTION_AREAS,
	NODE_OF,
	sampleEntry,
	tableOperations,
	topSamples,
	type TableOperation,
} from '../tools/table-inputs';
import { byId, fedByInput, NODE_TYPES } from '../../harness/workflows';
import { useWorkflowEnv } from '../workflows/support';

const env = useWorkflowEnv({
	demo: true,
	rateLimit: { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 },
});
// every request of these runs is the test's own: the project area's pacing is lifted (restored after)
beforeAll(() => setPacingRule({ limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 }));
afterAll(() => setPacingRule(DOCUMENTED_RULE));

/** What an expression may give, as the expression writes it. */
const KINDS = {
	number: '7',
	unsafe: '1752587000000097005',
	fraction: '2.5',
	boolean: 'true',
	list: '["1", "2"]',
	object: '({ "a": 1 })',
	null: 'null',
	nothing: '$json.nothing',
} as const;
type Kind = keyof typeof KINDS;

/** The kinds an entry member is given (blank members, null and nothing, are blank-values.test.ts's; a fraction is a number's own rule). */
const MEMBER_KINDS: readonly Kind[] = ['number', 'unsafe', 'boolean', 'list', 'object'];

const topParameters = (op: Operation): IDataObject => topSamples(op, byId, 1);

/** The fields a user can give (every one the form shows). */
const givenFields = (op: Operation): Field[] => op.fields.filter((f) => !f.readOnly);

/** How a case gives its value: the field (top level or in its collection) and, for a member, the entry it is set in. */
function givenValue(field: Field, expression: string, member?: Field): unknown {
	if (!member) return field.locator ? byId(expression) : expression;
	const given = member.locator ? byId(expression) : expression;
	// an entry's less common members are in its Additional Fields (n8n drops a member put elsewhere)
	const at = (members: IDataObject): IDataObject =>
		entryLayout(field.fields ?? []).more.includes(member)
			? { ...members, [ENTRY_MORE]: { [member.name]: given } }
			: { ...members, [member.name]: given };
	if (field.pickMembers) return at({});
	const set = at(sampleEntry(field.fields ?? []));
	return field.type === 'array' ? { values: [set] } : { values: set };
}

/** The node parameters of one case: the operation's top fields, and the case's field (or member) given by an expression yielding its kind. */
function caseParameters(t: TableOperation, c: Case, org: string, portal: string): IDataObject {
	const value = givenValue(c.field, `={{ ${KINDS[c.kind]} }}`, c.member);
	const where = placement(c.field, t.op, 1);
	const base: IDataObject = {
		resource: t.resource.value,
		operation: t.op.value,
		...topParameters(t.op),
		returnAll: false,
		limit: 5,
	};
	if (t.area.value === 'projects') base.portal_id = byId(portal);
	else base.organizationId = org;
	if (t.op.binaryInput || t.op.binaryOutput) base.binaryPropertyName = 'data';
	if (where === 'top') return { ...base, [c.field.name]: value as IDataObject };
	return {
		...base,
		[where]: { ...((base[where] as IDataObject) ?? {}), [c.field.name]: value as IDataObject },
	};
}

interface Case {
	name: string;
	field: Field;
	/** A member of the field's entry (a line's Item ID), given in the entry form. */
	member?: Field;
	kind: Kind;
}

/** Every field and every member of an entry (lines, addresses, tasks, ...) an operation takes, each given as every kind. */
function casesOf(op: Operation): Case[] {
	const kinds = Object.keys(KINDS) as Kind[];
	return givenFields(op).flatMap((field) => {
		// an object entered by one member (a project's Owner by its user ID) is given as that member: its own cases above
		const members = wrapperMember(field)
			? []
			: (field.fields ?? []).filter((m) => !m.readOnly && (op.kind === 'update' || !m.updateOnly));
		return [
			...kinds.map((kind) => ({ name: `${field.name} ${kind}`, field, kind })),
			...members.flatMap((member) =>
				MEMBER_KINDS.map((kind) => ({
					name: `${field.name}.${member.name} ${kind}`,
					field,
					member,
					kind,
				})),
			),
		];
	});
}

/** One workflow: the input item (a PDF for uploads) fed to one node per case. */
function fanOut(t: TableOperation, cases: Case[]): ReturnType<typeof fedByInput> {
	const credentials = { vendorOAuth2Api: { id: 'vendor-cred-1', name: 'Vendor (emulator)' } };
	const input = binaryItem('%PDF-1.4 test', 'a.pdf', 'application/pdf', {
		nothing: undefined,
	} as IDataObject);
	return fedByInput(
		[input],
		cases.map(
			(c, i): INode => ({
				id: `n${i}`,
				name: c.name,
				type: `n8n-nodes-vendor.${NODE_OF[t.area.value]}`,
				typeVersion: 1,
				position: [200, 100 * i],
				parameters: caseParameters(t, c, env.org, env.portal) as INode['parameters'],
				credentials,
				onError: 'continueRegularOutput',
			}),
		),
	);
}

/** What became of each case: its output items' JSON. */
async function runCases(t: TableOperation, cases: Case[]): Promise<Map<string, IDataObject[]>> {
	const result = await runWorkflow({
		workflow: fanOut(t, cases),
		nodeTypes: NODE_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials: env.credentials,
	});
	return new Map(cases.map((c) => [c.name, result.output(c.name).map((i) => i.json)]));
}

const OPERATIONS = tableOperations().filter((t) => givenFields(t.op).length);

/** Every field type the action tables use, at any depth. */
function tableTypes(): Set<FieldType> {
	const types = new Set<FieldType>();
	const walk = (f: Field): void => {
		types.add(f.type);
		for (const m of f.fields ?? []) walk(m);
		if (f.of) walk(f.of);
	};
	for (const t of tableOperations()) for (const f of t.op.fields) if (!f.readOnly) walk(f);
	return types;
}

test('the cases cover every operation of every action node, and every field type the tables use, at the top or in an entry', () => {
	expect(new Set(OPERATIONS.map((t) => t.area.value))).toEqual(
		new Set(ACTION_AREAS.map((a) => a.value)),
	);
	const covered = new Set(
		OPERATIONS.flatMap((t) =>
			casesOf(t.op).flatMap((c) =>
				[c.field, ...(c.member ? [c.member] : []), ...(c.field.of ? [c.field.of] : [])].map(
					(f) => f.type,
				),
			),
		),
	);
	expect([...covered].sort()).toEqual([...tableTypes()].sort());
	expect(covered.size).toBeGreaterThanOrEqual(11);
});

/** The words that say a value was refused as given (the form's check), not answered by the API. */
const refusedBeforeSending = (item: IDataObject): boolean =>
	typeof item.error === 'string' && item.httpCode === undefined;

test.each(OPERATIONS.map((t) => [t.id, t]))(
	'%s: every field given any type by an expression gives an output or an error; a refusal names the field and what was got',
	async (_id, t) => {
		const cases = casesOf(t.op);
		env.em.clearRequests();
		const outcomes = await runCases(t, cases);
		const silent = cases.filter((c) => !outcomes.get(c.name)?.length).map((c) => c.name);
		if (t.op.kind === 'list') {
			// a list read that answers no record outputs nothing: each such node sent its page
			expect({ op: t.id, requests: env.apiRequests().length }).toEqual({
				op: t.id,
				requests:
					cases.length -
					cases.filter((c) => outcomes.get(c.name)?.some(refusedBeforeSending)).length,
			});
		} else expect({ op: t.id, silent }).toEqual({ op: t.id, silent: [] });
		const unnamed = cases.flatMap((c) => {
			const refusal = (outcomes.get(c.name) ?? []).find(refusedBeforeSending);
			if (
				!refusal ||
				!/^Invalid input|must|is required|is blank|either as fields/.test(String(refusal.error))
			)
				return [];
			const named = String(refusal.error).includes(formName(c.member ?? c.field));
			// a value that is no value (null, nothing, or a whole entry form an expression replaced, which n8n drops) has nothing to show
			const got =
				['null', 'nothing'].includes(c.kind) || /\(got | is required/.test(String(refusal.error));
			return named && got ? [] : [`${c.name}: ${String(refusal.error)}`];
		});
		expect({ op: t.id, unnamed }).toEqual({ op: t.id, unnamed: [] });
		// an ID past 2^53 is never sent: its digits are lost
		const unsafe = cases
			.filter((c) => c.kind === 'unsafe' && recordIdField(c.member ?? c.field))
			.filter(
				(c) =>
					!(outcomes.get(c.name) ?? []).some(
						(o) => refusedBeforeSending(o) && /too large to be exact/.test(String(o.error)),
					),
			);
		expect({ op: t.id, unsafeAccepted: unsafe.map((c) => c.name) }).toEqual({
			op: t.id,
			unsafeAccepted: [],
		});
	},
);

/** A record ID field, or a list of them, or an object entered by its ID member. */
function recordIdField(field: Field): boolean {
	const wrapped = wrapperMember(field);
	return (
		isRecordId(field) ||
		(field.type === 'array' && !!field.of && isRecordId(field.of)) ||
		(!!wrapped && isRecordId(wrapped))
	);
}
