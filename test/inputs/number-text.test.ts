/**
 * Numbers are decimal text or numbers (README "Updates change only what you set", BEHAVIOUR "Any
 * type from an expression"). Generated from the field tables: every field the tables treat as a
 * number (typed number or integer, and text holding a number: `numeric` text such as a billing
 * project's rate), at the top level or as a member of an entry (a line's rate, a task's rate),
 * of every operation of every action node:
 *
 * - refused, naming the field by its form label and the rule, with nothing sent: `0x10`, `0b1`,
 *   `0o7`, `1_000`, `Infinity`, `NaN`, `1,5` (JavaScript's `Number()` reads the first four as
 *   numbers), and blank text where the field is required; through n8n's engine from an
 *   expression, one node per case, no request at all reaching the API;
 * - accepted: `12.50`, `1e3`, `-3`, ` 7 ` (blank characters around it trimmed, as around an ID)
 *   and the number 12.5, sent as the number they write (numeric text: as written, trimmed, an
 *   exponent written out), unless another rule of the field refuses the number itself (a whole
 *   number, a minimum), which then names that rule, not the decimal one.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { DOCUMENTED_RULE, setPacingRule } from '../../nodes/shared/api/pacing';
import { buildRequest, fromUi } from '../../nodes/shared/api/request';
import {
	ENTRY_MORE,
	entryLayout,
	placement,
	wrapperMember,
} from '../../nodes/shared/tables/naming';
import type { Field } from '../../nodes/shared/tables/spec';
import { formName } from '../../nodes/shared/tables/problemText';
import { NUMBER_TEXT_RULE } from '../../nodes/shared/tables/textRules';
import { checkValues } from '../../nodes/shared/tables/validate';
import { binaryItem, runWorkflow } from '../../harness';
import {
	NODE_OF,
	nodeParameters,
	sampleEntry,
	tableOperations,
	topSamples,
	type TableOperation,
} from '../tools/table-inputs';
import { byId, chain, fedByInput, NODE_TYPES } from '../../harness/workflows';
import { useWorkflowEnv } from '../workflows/support';

const env = useWorkflowEnv({
	demo: true,
	rateLimit: { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 },
});
beforeAll(() => setPacingRule({ limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 }));
afterAll(() => setPacingRule(DOCUMENTED_RULE));

/** A field the tables treat as a number. */
const isNumberField = (f: Field): boolean =>
	!f.readOnly &&
	(f.type === 'number' || f.type === 'integer' || (f.type === 'string' && f.numeric === true));

/** The rule a field states for text that is not a decimal number. */
const ruleOf = (f: Field): string =>
	f.type === 'string' ? 'must be a number written as digits' : NUMBER_TEXT_RULE;

interface NumberCase {
	id: string;
	t: TableOperation;
	/** The top-level field, and the entry member when the number is one. */
	field: Field;
	member?: Field;
}

/** Every number field and entry member (one level down, as the forms show them) of every operation. */
const CASES: NumberCase[] = tableOperations().flatMap((t) =>
	t.op.fields
		.filter((f) => !f.readOnly)
		.flatMap((field): NumberCase[] => {
			if (isNumberField(field)) return [{ id: `${t.id} ${field.name}`, t, field }];
			if (wrapperMember(field) || !field.fields) return [];
			return field.fields
				.filter((m) => isNumberField(m) && (t.op.kind === 'update' || !m.updateOnly))
				.map((member) => ({ id: `${t.id} ${field.name}.${member.name}`, t, field, member }));
		}),
);

const REFUSED = ['0x10', '0b1', '0o7', '1_000', 'Infinity', 'NaN', '1,5', '12abc', '1.2.3'];
const ACCEPTED: Array<string | number> = ['12.50', '1e3', '-3', ' 7 ', 12.5];

/** The scalar field under test. */
const scalarOf = (c: NumberCase): Field => c.member ?? c.field;

/** The form's words for the place of the value: "Rate", or "Line Items, line 1: Rate". */
function placeOf(c: NumberCase): string {
	if (!c.member) return formName(c.field);
	return `${formName(c.field)}${c.field.type === 'array' ? `, ${c.field.name === 'line_items' ? 'line' : 'entry'} 1` : ''}: ${formName(c.member)}`;
}

/** API-shaped values of the case's operation with `value` (as read by the node) in its place. */
function valuesWith(c: NumberCase, value: unknown): IDataObject {
	if (!c.member) return { [c.field.name]: value as IDataObject };
	const entry = { ...sampleEntry(c.field.fields ?? []), [c.member.name]: value };
	return { [c.field.name]: (c.field.type === 'array' ? [entry] : entry) as IDataObject };
}

/** The refusal of `given` read and checked as a node reads and checks it, or undefined when it passes. */
function refusal(c: NumberCase, given: unknown): string | undefined {
	const field = scalarOf(c);
	const values = valuesWith(c, fromUi(field, given));
	try {
		checkValues({ ...c.t.op, fields: [c.field] }, values);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/** What another rule of the field says of the number `n`, if one refuses it (whole number, bounds). */
function otherRule(field: Field, n: number): string | undefined {
	if (field.type === 'integer' && !Number.isInteger(n)) return 'must be a whole number';
	if (field.min !== undefined && n < field.min)
		return field.min === 0 ? 'must not be negative' : `must be at least ${field.min}`;
	if (field.max !== undefined && n > field.max) return `must be at most ${field.max}`;
	return undefined;
}

test('the cases cover every kind of number field: number, integer and numeric text, at the top level and in entries', () => {
	const kinds = new Set(CASES.map((c) => `${scalarOf(c).type}${c.member ? ' member' : ''}`));
	expect([...kinds].sort()).toEqual(
		['integer', 'integer member', 'number', 'number member', 'string'].sort(),
	);
	expect(CASES.length).toBeGreaterThan(60);
});

describe.each(CASES.map((c) => [c.id, c] as const))('%s', (_id, c) => {
	test.each(REFUSED)('"%s" is refused naming the field and the decimal rule', (text) => {
		expect(refusal(c, text)).toBe(
			`Invalid input: ${placeOf(c)} ${ruleOf(scalarOf(c))}${scalarOf(c).type === 'string' ? ', e.g. 150 or 99.50' : ''} (got "${text}")`,
		);
	});

	test.each(ACCEPTED.map((v) => [JSON.stringify(v), v] as const))(
		'%s is accepted as the number it writes (or refused by another rule of the field)',
		(_shown, given) => {
			const field = scalarOf(c);
			const n = Number(String(given).trim());
			const other = otherRule(field, n);
			const problem = refusal(c, given);
			if (other) {
				expect(problem).toContain(`${placeOf(c)} ${other}`);
				return;
			}
			expect(problem).toBeUndefined();
			const sent = fromUi(field, given);
			// numeric text is sent as written (trimmed), an exponent written out; a number field gets the number
			const expected =
				field.type === 'string'
					? String(given).includes('e')
						? String(n)
						: typeof given === 'number'
							? String(given)
							: String(given).trim()
					: n;
			expect(sent).toBe(expected);
			if (!c.member) {
				const req = buildRequest(
					c.t.area,
					{ ...c.t.op, fields: [c.field], path: c.t.op.path.replace(/\{[^}]+\}/g, '1') },
					{ [c.field.name]: sent as IDataObject },
				);
				const placed =
					(req.body as IDataObject | undefined)?.[c.field.name] ?? req.qs[c.field.name];
				expect(placed).toBe(expected);
			}
		},
	);

	if (scalarOf(c).required) {
		test('blank text where it is required is refused as required', () => {
			expect(refusal(c, '   ')).toMatch(new RegExp(`${escape(placeOf(c))} is required`));
		});
	}
});

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------- through n8n's engine, from an expression

/** The node parameters of a case: the operation's top fields, and its number given by an expression yielding `text`. */
function caseParameters(c: NumberCase, text: string): IDataObject {
	const { t } = c;
	const expression = `={{ ${JSON.stringify(text)} }}`;
	const base: IDataObject = {
		resource: t.resource.value,
		operation: t.op.value,
		...topSamples(t.op, byId, 1),
		returnAll: false,
		limit: 5,
	};
	if (t.area.value === 'projects') base.portal_id = byId(env.portal);
	else base.organizationId = env.org;
	if (t.op.binaryInput || t.op.binaryOutput) base.binaryPropertyName = 'data';
	let value: unknown = expression;
	if (c.member) {
		const member = c.member;
		const at = (members: IDataObject): IDataObject =>
			entryLayout(c.field.fields ?? []).more.includes(member)
				? { ...members, [ENTRY_MORE]: { [member.name]: expression } }
				: { ...members, [member.name]: expression };
		const set = c.field.pickMembers ? at({}) : at(sampleEntry(c.field.fields ?? []));
		value = c.field.pickMembers
			? set
			: c.field.type === 'array'
				? { values: [set] }
				: { values: set };
	}
	const where = placement(c.field, t.op, 1);
	if (where === 'top') return { ...base, [c.field.name]: value as IDataObject };
	return {
		...base,
		[where]: { ...((base[where] as IDataObject) ?? {}), [c.field.name]: value as IDataObject },
	};
}

/** The operations with number fields, each with its cases. */
const BY_OPERATION = [...new Set(CASES.map((c) => c.t))].map(
	(t) => [t.id, CASES.filter((c) => c.t === t)] as const,
);

test.each(BY_OPERATION)(
	'%s: every number field given each refused text by an expression: an error naming the field and the rule, nothing sent',
	async (_id, cases) => {
		const t = cases[0].t;
		const runs = cases.flatMap((c) =>
			REFUSED.map((text, i) => ({ c, text, name: `${c.id} ${i}` })),
		);
		const fed: INode[] = [
			...runs.map(
				(r, i): INode => ({
					id: `n${i}`,
					name: r.name,
					type: `n8n-nodes-vendor.${NODE_OF[t.area.value]}`,
					typeVersion: 1,
					position: [200, 100 * i],
					parameters: caseParameters(r.c, r.text) as INode['parameters'],
					credentials: { vendorOAuth2Api: { id: 'vendor-cred-1', name: 'Vendor (emulator)' } },
					onError: 'continueRegularOutput',
				}),
			),
		];
		env.em.clearRequests();
		const result = await runWorkflow({
			workflow: fedByInput([binaryItem('%PDF-1.4 test', 'a.pdf', 'application/pdf', {})], fed),
			nodeTypes: NODE_TYPES,
			credentialTypes: [VendorOAuth2Api],
			credentials: env.credentials,
		});
		const wrong = runs.flatMap((r) => {
			const error = String(result.output(r.name)[0]?.json.error ?? '');
			const wanted = `${placeOf(r.c)} ${ruleOf(scalarOf(r.c))}`;
			return error.includes(wanted) && error.includes(`(got "${r.text}")`)
				? []
				: [`${r.name} (${r.text}): ${error || 'no error'}`];
		});
		expect({ op: t.id, wrong }).toEqual({ op: t.id, wrong: [] });
		expect({ op: t.id, sent: env.apiRequests().map((r) => `${r.method} ${r.path}`) }).toEqual({
			op: t.id,
			sent: [],
		});
	},
);

test('accepted from an expression through the engine: decimal text is sent as the number it writes', async () => {
	const create = tableOperations().find((t) => t.id === 'books.item.create') as TableOperation;
	const items = (name: string, rate: string) => ({
		name,
		type: 'vendorBooks',
		parameters: {
			organizationId: env.org,
			...nodeParameters(create, { name, rate: `={{ ${JSON.stringify(rate)} }}` }),
		} as never,
		settings: {},
	});
	const wf = chain([items('Exponent', '1e3'), items('Cents', ' 12.50 ')]);
	const result = await runWorkflow({
		workflow: wf as never,
		nodeTypes: NODE_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials: env.credentials,
	});
	expect(result.error()).toBeUndefined();
	expect(
		env
			.apiRequests()
			.filter((r) => r.method === 'POST')
			.map((r) => (r.body as IDataObject).rate),
	).toEqual([1000, 12.5]);
});
