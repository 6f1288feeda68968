/**
 * Promise: every input item gives an output or an error, whatever
 * type an expression yields for a field. For operations of the tables, one field (an id, a list
 * of ids, a text, a number) takes `{{ $json.v }}`, and each input item holds a generated `v`: a
 * number (safe, unsafe), text, blank, an array, an object, null, a boolean.
 *
 * - with Continue On Fail every input item is paired with an output item, and the run does not throw;
 * - without it, the run either ends with an error or pairs every input item with an output;
 * - an id given as a number past 2^53 (its digits already lost) is refused naming the field.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { label } from '../../nodes/shared/tables/naming';
import type { Field } from '../../nodes/shared/tables/spec';
import { useProxiedEnv } from '../tools/proxied-env';
import { binaryItem } from '../../harness';
import type { TableOperation } from '../tools/table-inputs';
import {
	errorText,
	holds,
	isErrorItem,
	isOwnCall,
	leaked,
	noViolations,
	NODE,
	onError,
	OPERATIONS,
	opById,
	pairedIndexes,
	secretsOf,
	shownText,
	stepOf,
	thrown,
	useVirtualClock,
	valuesOf,
} from './support';

const ctx = useProxiedEnv({
	demo: true,
	rateLimit: { limit: 1_000_000, windowMs: 120_000, blockMs: 1_800_000 },
});
const env = ctx.env;
// the package's waits (Vendor Projects' pacing: 100 requests per 2 minutes) pass at once: a fuzz
// run sends thousands of requests, which real pacing would spread over hours
useVirtualClock();

/** Fields an expression can fill as a whole: ids, lists of ids, texts, numbers (not entries of a fixed collection). */
const expressible = (f: Field): boolean =>
	!f.readOnly &&
	!f.fields &&
	['id', 'string', 'number', 'integer', 'array'].includes(f.type) &&
	!f.sortFields;

/** (operation id, field name) of every such field of every operation. */
const TARGETS = OPERATIONS.flatMap((t) =>
	t.op.fields.filter(expressible).map((f) => [t.id, f.name] as [string, string]),
);

/** What an expression may yield. */
const yields: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer({ min: 1, max: 2 ** 40 }),
	fc.constant(Number('1752587000000097005')),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
	fc.string({ maxLength: 12 }),
	fc.constantFrom('', '   ', '\u200b'),
	fc.array(fc.oneof(fc.integer({ min: 1, max: 1e9 }), fc.string({ maxLength: 5 })), {
		maxLength: 3,
	}),
	fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
	fc.constantFrom(null, true, false),
);

interface Case {
	target: [string, string];
	values: unknown[];
}

const cases: fc.Arbitrary<Case> = fc.record({
	target: fc.constantFrom(...TARGETS),
	values: fc.array(yields, { minLength: 1, maxLength: 3 }),
});

const labelOf = (f: Field): string => f.label ?? label(f.name);

function items(t: TableOperation, values: unknown[]) {
	return values.map((v, i) =>
		t.op.binaryInput
			? binaryItem(Buffer.from('%PDF-1.4 x'), 'x.pdf', 'application/pdf', {
					v: v as IDataObject,
					i,
				})
			: { json: { v: v as IDataObject, i } },
	);
}

async function inputViolations({ target: [opId, fieldName], values }: Case): Promise<string[]> {
	const t = opById(opId);
	const field = t.op.fields.find((f) => f.name === fieldName) as Field;
	const params = { ...valuesOf(env, t), [fieldName]: '={{ $json.v }}' };
	ctx.proxy.reset();
	const [lenient, strict] = await Promise.all([
		env.run([stepOf(env, t, params, onError)], items(t, values)),
		env.run([stepOf(env, t, params)], items(t, values)),
	]);
	const found: string[] = [];
	const out = lenient.output(NODE);
	const runError = thrown(lenient);
	if (runError)
		found.push(`continue on fail: the run threw "${errorText(runError).slice(0, 160)}"`);
	// A list read that found nothing outputs nothing for its item (n8n's way): its call was sent.
	const listCalls =
		t.op.kind === 'list' ? ctx.proxy.records.filter((r) => isOwnCall(t)(r)).length : 0;
	const silent = (run: typeof lenient) =>
		values.filter((_v, i) => !run.output(NODE).some((item) => pairedIndexes(item).includes(i)))
			.length;
	const readsSent = listCalls >= silent(lenient) + (thrown(strict) ? 0 : silent(strict));
	values.forEach((v, i) => {
		const mine = out.filter((item) => pairedIndexes(item).includes(i));
		if (!mine.length && !readsSent)
			found.push(
				`continue on fail: input item ${i} (${JSON.stringify(v)}) gave no output and no error`,
			);
		const unsafe =
			typeof v === 'number' &&
			Number.isInteger(v) &&
			!Number.isSafeInteger(v) &&
			field.type === 'id';
		if (unsafe && mine.some((item) => !isErrorItem(item)))
			found.push(`item ${i}: an id given as the unsafe number ${String(v)} was not refused`);
		if (
			unsafe &&
			mine.some(isErrorItem) &&
			!errorText(mine.find(isErrorItem)).includes(labelOf(field))
		)
			found.push(
				`item ${i}: the refusal of an unsafe id does not name "${labelOf(field)}": "${errorText(mine.find(isErrorItem)).slice(0, 160)}"`,
			);
	});
	const strictOut = strict.output(NODE);
	if (!thrown(strict) && !readsSent)
		values.forEach(
			(_v, i) =>
				strictOut.some((item) => pairedIndexes(item).includes(i)) ||
				found.push(`without continue on fail: no error, and input item ${i} gave no output`),
		);
	const secrets = secretsOf(env.credentials[0]);
	for (const run of [lenient, strict])
		for (const s of leaked(shownText(run), secrets))
			found.push(`a secret (${s.slice(0, 4)}...) is shown`);
	return found;
}

test('any type an expression yields, for any field: every input item an output or an error', async () => {
	await holds(cases, async (c) => noViolations(await inputViolations(c), c), 10, [
		{ target: ['books.invoice.print', 'invoice_ids'], values: [7, { a: 1 }] },
		{ target: ['books.invoice.bulkReminder', 'invoice_ids'], values: [1234, null] },
		{ target: ['books.item.get', 'item_id'], values: [Number('1752587000000097005')] },
		// npm run fuzz: a filter matching nothing is a list read with no output (its call was sent), not a lost item
		{
			target: ['books.invoice.getAll', 'invoice_number_contains'],
			values: [-6.000824068273155e40, { hATm: 9 }, { '[3,': 1459025403, Z9e$: -309444401 }],
		},
	]);
});
