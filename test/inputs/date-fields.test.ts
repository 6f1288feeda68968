/**
 * A date (day-only) field is sent as the date it is given (README "Updates change only what you
 * set", BEHAVIOUR "Any type from an expression"). Generated from the field tables: every date
 * field, at the top level or as a member of an entry (a payment's invoice date), of every
 * operation of every action node, given by an expression through n8n's engine in a workflow
 * whose time zone is America/Los_Angeles (UTC-8 in March):
 *
 * - ISO text is the date it is written in: `2026-03-05T23:30:00-08:00` and
 *   `2026-03-05T23:30:00+09:00` are both sent as `2026-03-05` (an offset does not move the day);
 * - a moment given as a value is the day it falls on in the workflow's time zone: 2026-03-06T07:30:00Z
 *   as a JS Date, or as a luxon DateTime (n8n's expressions make them in the workflow's zone), is
 *   2026-03-05 in Los Angeles, not UTC's 2026-03-06, and so is a DateTime put in Tokyo's zone on
 *   purpose (2026-03-06 there), at the top level, in a collection and in an entry alike;
 * - text that is neither a date nor ISO date-time text is refused naming the field and the rule.
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
import type { Area, Field, Operation } from '../../nodes/shared/tables/spec';
import { formName } from '../../nodes/shared/tables/problemText';
import type { RecordedRequest } from '../../emulator/server';
import { binaryItem, runWorkflow } from '../../harness';
import { valuesOf as demoValues } from '../tools/demo-values';
import {
	NODE_OF,
	nodeParameters,
	sampleEntry,
	tableOperations,
	type TableOperation,
} from '../tools/table-inputs';
import { fedByInput, NODE_TYPES } from '../../harness/workflows';
import { useWorkflowEnv } from '../workflows/support';

const RULE = { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 };
const env = useWorkflowEnv({ demo: true, rateLimit: RULE });
beforeAll(() => setPacingRule(RULE));
afterAll(() => setPacingRule(DOCUMENTED_RULE));

const ZONE = 'America/Los_Angeles';

/** What each input item's expression gives the field, and what must be sent for it (undefined: refused). */
const GIVEN: Array<{ what: string; item: IDataObject; sent?: string }> = [
	{
		what: 'ISO text with a negative offset',
		item: { kind: 'text', value: '2026-03-05T23:30:00-08:00' },
		sent: '2026-03-05',
	},
	{
		what: 'ISO text with a positive offset',
		item: { kind: 'text', value: '2026-03-05T23:30:00+09:00' },
		sent: '2026-03-05',
	},
	{
		what: 'ISO text in UTC',
		item: { kind: 'text', value: '2026-03-05T23:30:00.000Z' },
		sent: '2026-03-05',
	},
	{ what: 'a date', item: { kind: 'text', value: '2026-03-05' }, sent: '2026-03-05' },
	// n8n's expressions make a DateTime in the workflow's zone; n8n gives it to the node as ISO text in its zone
	{
		what: 'a luxon DateTime',
		item: { kind: 'dateTime', value: '2026-03-06T07:30:00Z' },
		sent: '2026-03-05',
	},
	// one put in another zone on purpose is read in the workflow's zone too (n8n would hand it over
	// as text in its own zone inside a collection or an entry: the node reads it by its own path)
	{
		what: "a luxon DateTime set in Tokyo's zone",
		item: { kind: 'zoned', value: '2026-03-06T10:00:00+09:00' },
		sent: '2026-03-05',
	},
	{ what: 'a JS Date', item: { kind: 'date', value: '2026-03-06T07:30:00Z' }, sent: '2026-03-05' },
	{
		what: 'text after the date that is no time',
		item: { kind: 'text', value: '2026-03-05Tlater' },
	},
];

/** The expression of every case: the item says what to give. */
const EXPRESSION =
	"={{ $json.kind === 'dateTime' ? DateTime.fromISO($json.value) : $json.kind === 'zoned' ? DateTime.fromISO($json.value, { setZone: true }) : $json.kind === 'date' ? new Date($json.value) : $json.value }}";

interface DateCase {
	id: string;
	t: TableOperation;
	field: Field;
	member?: Field;
}

const CASES: DateCase[] = tableOperations().flatMap((t) =>
	t.op.fields
		.filter((f) => !f.readOnly)
		.flatMap((field): DateCase[] => {
			if (field.type === 'date') return [{ id: `${t.id} ${field.name}`, t, field }];
			if (wrapperMember(field) || !field.fields) return [];
			return field.fields
				.filter(
					(m) => !m.readOnly && m.type === 'date' && (t.op.kind === 'update' || !m.updateOnly),
				)
				.map((member) => ({ id: `${t.id} ${field.name}.${member.name}`, t, field, member }));
		}),
);

/** The node parameters of a case: the operation's demo values (records the emulator holds), its date given by the expression. */
function parametersOf(c: DateCase): IDataObject {
	const { t } = c;
	const base: IDataObject = {
		...(t.area.org ? { organizationId: env.org } : {}),
		...nodeParameters(t, demoValues(env, t), {
			returnAll: false,
			limit: 1,
			options: { requestsInFlight: 1 },
		}),
	};
	const where = placement(c.field, t.op);
	const holder = (
		where === 'top' ? base : ((base[where] as IDataObject | undefined) ?? {})
	) as IDataObject;
	let value: unknown = EXPRESSION;
	if (c.member) {
		const member = c.member;
		const form = holder[c.field.name] as IDataObject | undefined;
		const first = ((c.field.pickMembers
			? form
			: Array.isArray(form?.values)
				? form?.values[0]
				: form?.values) ?? sampleEntry(c.field.fields ?? [])) as IDataObject;
		const set = entryLayout(c.field.fields ?? []).more.includes(member)
			? {
					...first,
					[ENTRY_MORE]: {
						...((first[ENTRY_MORE] as IDataObject) ?? {}),
						[member.name]: EXPRESSION,
					},
				}
			: { ...first, [member.name]: EXPRESSION };
		value = c.field.pickMembers
			? set
			: c.field.type === 'array'
				? { values: [set] }
				: { values: set };
	}
	if (where === 'top') return { ...base, [c.field.name]: value as IDataObject };
	return { ...base, [where]: { ...holder, [c.field.name]: value as IDataObject } };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a recorded request is the operation's own call (not a read made before it). */
function isOwnCall(area: Area, op: Operation): (r: RecordedRequest) => boolean {
	const path = new RegExp(
		`${escape(`${area.basePath}${op.path}`).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`,
	);
	return (r) => r.method === op.method && path.test(r.path);
}

/** The date a request carried for the case: in its query or body, or in the body's entry. */
function dateSent(c: DateCase, r: RecordedRequest): unknown {
	const body = (r.body ?? {}) as IDataObject;
	if (!c.member) return r.query[c.field.name] ?? body[c.field.name];
	const holder = body[c.field.name];
	const entry = (Array.isArray(holder) ? holder[0] : holder) as IDataObject | undefined;
	return entry?.[c.member.name];
}

const placeOf = (c: DateCase): string =>
	c.member
		? `${formName(c.field)}${c.field.type === 'array' ? `, ${c.field.name === 'line_items' ? 'line' : 'entry'} 1` : ''}: ${formName(c.member)}`
		: formName(c.field);

test('the cases cover every date field of the tables, at the top level and in entries', () => {
	expect(CASES.some((c) => c.member)).toBe(true);
	expect(new Set(CASES.map((c) => c.t.area.value))).toEqual(
		new Set(['books', 'projects', 'invoice', 'inventory']),
	);
	expect(CASES.length).toBeGreaterThan(20);
});

test.each(CASES.map((c) => [c.id, c] as const))(
	"%s given ISO text, a DateTime and a Date by an expression: the date written, or the day in the workflow's time zone",
	async (_id, c) => {
		const fed: INode[] = [
			{
				id: 'node',
				name: 'Node',
				type: `n8n-nodes-vendor.${NODE_OF[c.t.area.value]}`,
				typeVersion: 1,
				position: [200, 0],
				parameters: parametersOf(c) as INode['parameters'],
				credentials: { vendorOAuth2Api: { id: 'vendor-cred-1', name: 'Vendor (emulator)' } },
				onError: 'continueRegularOutput',
			},
		];
		const items = GIVEN.map((g) => binaryItem('%PDF-1.4 test', 'a.pdf', 'application/pdf', g.item));
		env.em.clearRequests();
		const result = await runWorkflow({
			workflow: { ...fedByInput(items, fed), settings: { timezone: ZONE } },
			nodeTypes: NODE_TYPES,
			credentialTypes: [VendorOAuth2Api],
			credentials: env.credentials,
		});
		const sent = env
			.apiRequests()
			.filter(isOwnCall(c.t.area, c.t.op))
			.map((r) => dateSent(c, r));
		expect({ case: c.id, sent }).toEqual({
			case: c.id,
			sent: GIVEN.filter((g) => g.sent !== undefined).map((g) => g.sent),
		});
		// the refused item: an error naming the field and the rule, paired with its input item
		const out = result.output('Node');
		const refusedAt = GIVEN.findIndex((g) => g.sent === undefined);
		const refusal = out.find(
			(item) =>
				item.pairedItem !== undefined &&
				(Array.isArray(item.pairedItem)
					? item.pairedItem[0]
					: typeof item.pairedItem === 'number'
						? { item: item.pairedItem }
						: item.pairedItem
				).item === refusedAt,
		);
		expect(String(refusal?.json.error)).toContain(
			`${placeOf(c)} must be a date written yyyy-mm-dd (got "2026-03-05Tlater")`,
		);
	},
);
