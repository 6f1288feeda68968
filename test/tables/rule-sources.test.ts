/**
 * A source for every rule of the field tables: each refusal, requiredness, format,
 * default and computed-member rule a table carries either cites the document it comes from
 * (`<document>, <section>: "<words found there>"`) or is a guess listed in docs/ASSUMPTIONS.md
 * (`guess: <words of its bullet>`), the source format of test/tools/doc-sources.ts.
 *
 * The rules: of a field (and of its members and list entries) `required`, `requiredWhen`,
 * `maxLength`, `minLength`, `maxDigits`, `min`, `max`, `minItems`, `maxItems`, `values` (an enum
 * without `openValues`), `sortFields`, `default`, `numeric`, `alphanumeric`, the formats of its type (`date`,
 * `dateTime`, `time`, `email`, `url`, `phone`, `integer`), `separator` and `readOnly` (a member
 * the service computes); of an operation `batch`, `perPage`, `pagination`,
 * `binaryInput.extensions`, `binaryInput.required` and, per field, `keepCurrent`; of Vendor
 * Projects' custom field types their limits, formats, update form and default protocol.
 *
 * The sources live beside the tables, one file per area (`nodes/<Node>/tables/sources.ts`,
 * left out of the published build, imported by nothing at run time): a plain map from a rule
 * key to its source. A rule key is `<resource>.<operation>.<field path>.<rule>` (the path
 * through members with `.`, the entries of a list of scalars as `<list>[]`, e.g.
 * `payment.create.invoices.amount_applied.required`, `invoice.sendEmail.to_mail_ids[].email`),
 * or `<resource>.<operation>.<rule>` for the operation's own rules; the custom field types are
 * `customField.<type>.<rule>` and `customField.modules.values`. An entry whose operation is `*`
 * (`payment.*.reference_number.maxLength`) is the source of that rule in every operation of the
 * resource that has it; a key of its own overrides it.
 *
 * The test fails on a rule without a source, on a source that fails `sourceProblems`, on a
 * document quote that does not name the field (its API name, `_` read as a space; a date,
 * date-time or time format may instead cite the document's convention, e.g. "Dates are
 * `yyyy-mm-dd`") or, for a rule with a number or allowed values, does not give them; on a rule
 * the table itself marks as a guess (`inferred`, `inferredRule`, an `inferred` operation's own
 * rules) cited from a document; and on an entry that matches no rule. The canaries at the end
 * show each failure. Where the API reference is not beside the repository, the comparison of the
 * quotes with the documents is skipped (one line says so); every other check still runs.
 * Run: npx jest test/tables/rule-sources
 */
import { billingArea } from '../../nodes/VendorBilling/tables';
import { SOURCES as BILLING_SOURCES } from '../../nodes/VendorBilling/tables/sources';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { SOURCES as BOOKS_SOURCES } from '../../nodes/VendorBooks/tables/sources';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { SOURCES as INVENTORY_SOURCES } from '../../nodes/VendorInventory/tables/sources';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { SOURCES as INVOICE_SOURCES } from '../../nodes/VendorInvoice/tables/sources';
import { customFieldModules, customFieldTypes, projectsArea } from '../../nodes/VendorProjects/tables';
import type { CustomFieldType } from '../../nodes/VendorProjects/tables';
import { SOURCES as PROJECTS_SOURCES } from '../../nodes/VendorProjects/tables/sources';
import type { Area, Field, Operation } from '../../nodes/shared/tables/spec';
import { describeWithReference, parseSource, sourceProblems } from '../tools/doc-sources';

/** `documents: false`: check a document quote without reading the document (see doc-sources.ts). */
type Opts = { documents?: boolean };

/** One rule of a table: its key, and what a document quote citing it must say. */
export interface TableRule {
	key: string;
	/** `required`, `maxLength`, `values`, `date`, `batch`, ... */
	kind: string;
	/** A quote must name one of these (API names; `_` and a space are the same). Empty: no name check. */
	names: string[];
	/** Numbers a quote must give (a limit, a batch size). */
	numbers: number[];
	/** Values a quote must give (allowed values, a default, file extensions). */
	values: string[];
	/** Why the table itself says the rule is a guess (its source must be one), if it does. */
	guess?: string;
}

/** The formats a field type checks. */
const FORMAT_TYPES = new Set(['date', 'dateTime', 'time', 'email', 'url', 'phone', 'integer']);

/** Every rule `field` carries (and its members and entries), keyed under `prefix` (`payment.create`). */
export function fieldRules(prefix: string, field: Field, path = field.name, parentNames: string[] = []): TableRule[] {
	const apiNames = [field.name, ...parentNames];
	const guess = field.inferred ? 'the field is marked inferred' : field.inferredRule ? `inferredRule: ${field.inferredRule}` : undefined;
	const rules: TableRule[] = [];
	const add = (kind: string, more: Partial<TableRule> = {}): void => {
		rules.push({ key: `${prefix}.${path}.${kind}`, kind, names: apiNames, numbers: [], values: [], guess, ...more });
	};
	if (field.required) add('required');
	if (field.requiredWhen) add('requiredWhen', { values: [field.requiredWhen.field, ...field.requiredWhen.values] });
	for (const kind of ['maxLength', 'minLength', 'maxDigits', 'min', 'max', 'minItems', 'maxItems'] as const) {
		const n = field[kind];
		if (n !== undefined) add(kind, { numbers: [n] });
	}
	if (field.type === 'enum' && field.values?.length && !field.openValues) add('values', { values: [...field.values] });
	if (field.sortFields?.length) add('sortFields', { values: [...field.sortFields] });
	if (field.default !== undefined) add('default', { values: field.default === '' || typeof field.default === 'object' ? [] : [String(field.default)] });
	if (field.numeric) add('numeric');
	if (field.alphanumeric) add('alphanumeric');
	if (FORMAT_TYPES.has(field.type)) add(field.type);
	if (field.separator !== undefined) add('separator');
	if (field.readOnly) add('readOnly');
	for (const member of field.fields ?? []) rules.push(...fieldRules(prefix, member, `${path}.${member.name}`));
	if (field.of) rules.push(...fieldRules(prefix, field.of, `${path}[]`, [field.name]));
	return rules;
}

/** An operation's own rules (not its fields'). */
export function operationRules(prefix: string, op: Operation): TableRule[] {
	const guess = op.inferred ? `the operation is marked inferred: ${op.inferredNote ?? ''}` : undefined;
	const rules: TableRule[] = [];
	const add = (kind: string, more: Partial<TableRule> = {}): void => {
		rules.push({ key: `${prefix}.${kind}`, kind, names: [], numbers: [], values: [], guess, ...more });
	};
	if (op.batch) add('batch', { names: [op.batch.field], numbers: [op.batch.size] });
	if (op.perPage !== undefined) add('perPage', { names: ['page'], numbers: [op.perPage] });
	if (op.pagination !== undefined) add('pagination', { names: op.pagination === 'pageContext' ? ['page_context'] : [] });
	if (op.binaryInput) {
		add('binaryInput.extensions', { names: [op.binaryInput.field], values: [...op.binaryInput.extensions] });
		if (op.binaryInput.required) add('binaryInput.required', { names: [op.binaryInput.field] });
	}
	// a field the update reads first when left out: the rule is the field's, so its key is too
	for (const name of op.keepCurrent ?? []) rules.push({ key: `${prefix}.${name}.keepCurrent`, kind: 'keepCurrent', names: [name], numbers: [], values: [] });
	return rules;
}

/** Every rule of an area's tables. */
export function areaRules(area: Area): TableRule[] {
	return area.resources.flatMap((resource) =>
		resource.operations.flatMap((op) => {
			const prefix = `${resource.value}.${op.value}`;
			return [...operationRules(prefix, op), ...op.fields.flatMap((f) => fieldRules(prefix, f))];
		}),
	);
}

/** The rules of Vendor Projects' custom field types (`customField.<type>.<rule>`). */
export function customFieldRules(types: readonly CustomFieldType[] = customFieldTypes, modules: readonly string[] = customFieldModules): TableRule[] {
	const rules: TableRule[] = [{ key: 'customField.modules.values', kind: 'values', names: ['custom fields'], numbers: [], values: [...modules] }];
	for (const t of types) {
		const add = (kind: string, more: Partial<TableRule> = {}): void => {
			rules.push({ key: `customField.${t.value}.${kind}`, kind, names: [t.name], numbers: [], values: [], ...more });
		};
		for (const kind of ['maxLength', 'maxDigits', 'maxItems', 'maxOptions'] as const) {
			const n = t[kind];
			if (n !== undefined) add(kind, { numbers: [n] });
		}
		if (FORMAT_TYPES.has(t.shape)) add(t.shape);
		if (t.addRemoveOnUpdate) add('addRemoveOnUpdate', { values: ['add', 'remove'] });
		if (t.defaultProtocol) add('defaultProtocol', { values: [t.defaultProtocol] });
	}
	return rules;
}

/** The areas with their rules and their sources. */
export const AREA_SOURCES: ReadonlyArray<{ node: string; rules: TableRule[]; sources: Readonly<Record<string, string>> }> = [
	{ node: 'VendorBooks', rules: areaRules(booksArea), sources: BOOKS_SOURCES },
	{ node: 'VendorProjects', rules: [...areaRules(projectsArea), ...customFieldRules()], sources: PROJECTS_SOURCES },
	{ node: 'VendorInvoice', rules: areaRules(invoiceArea), sources: INVOICE_SOURCES },
	{ node: 'VendorBilling', rules: areaRules(billingArea), sources: BILLING_SOURCES },
	{ node: 'VendorInventory', rules: areaRules(inventoryArea), sources: INVENTORY_SOURCES },
];

/** The key of `sources` that gives the rule's source: its own, or the `*` entry of its resource. */
export function sourceKey(key: string, sources: Readonly<Record<string, string>>): string | undefined {
	if (key in sources) return key;
	const [resource, , ...rest] = key.split('.');
	const any = [resource, '*', ...rest].join('.');
	return !key.startsWith('customField.') && any in sources ? any : undefined;
}

const lower = (s: string): string => s.toLowerCase().replace(/_/g, ' ');
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `text` holds `word` as a whole word (`_` and a space the same, any case). */
const saysWord = (text: string, word: string): boolean => new RegExp(`(^|[^a-z0-9])${escapeRegExp(lower(word))}([^a-z0-9]|$)`).test(lower(text));
/** Whether `text` names the field `name`: as written, or without the `_startswith` / `_contains` of a filter (the Accounting document: "a name followed by `_startswith` / `_contains` stands for two parameters"). */
const namesField = (text: string, name: string): boolean => saysWord(text, name) || saysWord(text, name.replace(/_(startswith|contains)$/, ''));
/** Whether `text` gives `value`: as written, or its last part after a dot (`PaymentMode.Check` as ".Check"). */
const givesValue = (text: string, value: string): boolean => saysWord(text, value) || (value.includes('.') && new RegExp(`\\.${escapeRegExp(lower(value.slice(value.lastIndexOf('.') + 1)))}([^a-z0-9]|$)`).test(lower(text)));
/** Whether `text` gives the number `n` (a minimum of 0 also as "negative"). */
const givesNumber = (text: string, n: number, kind: string): boolean => new RegExp(`(^|[^0-9.])${escapeRegExp(String(n))}([^0-9]|$)`).test(text) || (n === 0 && kind === 'min' && /negative/i.test(text));

/**
 * How a document writes a date, a date-time and a time. A format rule may cite the document's
 * convention instead of a sentence naming the field (the Accounting document: "Dates are `yyyy-mm-dd`").
 */
const FORMAT_WORDS: Readonly<Record<string, RegExp>> = { date: /yyyy-mm-dd/i, dateTime: /'T'/, time: /HH:MM/i };

/** What is wrong with the source of one rule (empty: nothing). */
export function citationProblems(rule: TableRule, source: string | undefined, opts: Opts = {}): string[] {
	if (source === undefined) return [`${rule.key}: no source`];
	const problems = sourceProblems(source, opts).map((p) => `${rule.key}: ${p}`);
	if (problems.length) return problems;
	const parsed = parseSource(source);
	if (parsed?.kind !== 'doc') return [];
	if (rule.guess) return [`${rule.key}: the table marks this rule as a guess (${rule.guess}), so its source must be a guess listed in docs/ASSUMPTIONS.md, not "${source}"`];
	const words = parsed.words;
	const convention = FORMAT_WORDS[rule.kind]?.test(words) ?? false;
	if (rule.names.length && !convention && !rule.names.some((n) => namesField(words, n))) problems.push(`${rule.key}: "${words}" does not name ${rule.names.join(' or ')}`);
	for (const n of rule.numbers) if (!givesNumber(words, n, rule.kind)) problems.push(`${rule.key}: "${words}" does not give ${n}`);
	for (const v of rule.values) if (!givesValue(words, v)) problems.push(`${rule.key}: "${words}" does not give ${v}`);
	return problems;
}

/** Every problem of an area's sources: rules without a good source, and entries that match no rule. */
export function sourcesProblems(rules: readonly TableRule[], sources: Readonly<Record<string, string>>, opts: Opts = {}): string[] {
	const used = new Set<string>();
	const problems: string[] = [];
	for (const rule of rules) {
		const key = sourceKey(rule.key, sources);
		if (key) used.add(key);
		problems.push(...citationProblems(rule, key === undefined ? undefined : sources[key], opts));
	}
	for (const key of Object.keys(sources)) if (!used.has(key)) problems.push(`${key}: an entry that matches no rule of the tables`);
	return problems;
}

const AREAS = AREA_SOURCES.map((a) => [a.node, a] as const);

describeWithReference('every document quote of the field tables is in the API reference', () => {
	test.each(AREAS)('%s: each quote is found in the section it names', (_node, area) => {
		expect(sourcesProblems(area.rules, area.sources)).toEqual([]);
	});
});

describe('every rule of the field tables names its source', () => {
	test.each(AREAS)('%s: each rule cites a document section in a quote that names it, or a listed guess; no entry is left over', (_node, area) => {
		expect(area.rules.length).toBeGreaterThan(10);
		expect(sourcesProblems(area.rules, area.sources, { documents: false })).toEqual([]);
	});

	test('rule keys are unique within an area', () => {
		for (const area of AREA_SOURCES) {
			const keys = area.rules.map((r) => r.key);
			expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
		}
	});

	test('the walk finds the rules of every kind the tables use', () => {
		const kinds = new Set(AREA_SOURCES.flatMap((a) => a.rules.map((r) => r.kind)));
		for (const kind of ['required', 'requiredWhen', 'maxLength', 'minLength', 'maxDigits', 'min', 'minItems', 'maxItems', 'values', 'default', 'numeric', 'date', 'integer', 'email', 'batch', 'perPage', 'pagination', 'binaryInput.extensions', 'binaryInput.required', 'keepCurrent', 'readOnly', 'sortFields', 'alphanumeric']) {
			expect([kind, kinds.has(kind)]).toEqual([kind, true]);
		}
	});
});

describe('canaries: the same checks fail a rule without a good source', () => {
	const books = AREA_SOURCES[0];
	const rule = (key: string): TableRule => {
		const found = AREA_SOURCES.flatMap((a) => a.rules).find((r) => r.key === key);
		if (!found) throw new Error(`no rule ${key}`);
		return found;
	};

	test('a rule whose source is removed is reported', () => {
		const key = 'invoice.bulkReminder.batch';
		expect(sourceKey(key, books.sources)).toBe(key);
		const without = { ...books.sources };
		delete without[key];
		expect(sourcesProblems(books.rules, without, { documents: false })).toEqual([`${key}: no source`]);
	});

	test('a guess not in ASSUMPTIONS.md, an unknown document, and a source of neither form are reported (with or without the API reference)', () => {
		const r = rule('invoice.bulkReminder.batch');
		const structural = { documents: false };
		expect(citationProblems(r, 'guess: reminders go out in tens because it feels right', structural)).toEqual([expect.stringContaining('no bullet')]);
		expect(citationProblems(r, 'Nowhere, Invoices: "query `invoice_ids` (max 10)"', structural)).toEqual([expect.stringContaining('no document named Nowhere')]);
		expect(citationProblems(r, 'because I said so', structural)).toEqual([expect.stringContaining('neither a document section')]);
		expect(citationProblems(r, 'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"', structural)).toEqual([]);
	});

	test('a document quote that is in the section but does not name the field, or not its number or values, is reported', () => {
		expect(citationProblems(rule('invoice.bulkReminder.batch'), 'Accounting, Limits: "Bulk print of estimates | 25"', { documents: false })).toEqual([
			expect.stringContaining('does not name invoice_ids'),
			expect.stringContaining('does not give 10'),
		]);
		// the Limits row gives the number but not the parameter: the Endpoints row names both
		expect(citationProblems(rule('invoice.bulkReminder.batch'), 'Accounting, Limits: "Bulk invoice reminders | 10 per call"', { documents: false })).toEqual([expect.stringContaining('does not name invoice_ids')]);
		expect(citationProblems(rule('payment.create.reference_number.maxLength'), 'Payments, Limits: "refund_mode | 50 characters"', { documents: false })).toEqual([
			expect.stringContaining('does not name reference_number'),
			expect.stringContaining('does not give 100'),
		]);
		expect(citationProblems(rule('payment.create.payment_mode.values'), 'Payments, Limits: "payment_mode, reference_number | 100 characters"', { documents: false })).toEqual(
			expect.arrayContaining([expect.stringContaining('does not give check')]),
		);
	});

	test('a rule the table marks as a guess must cite a listed guess, not a document', () => {
		const r = rule('payment.create.amount.required');
		expect(r.guess).toBeDefined();
		expect(citationProblems(r, 'Payments, Customer payment: "Create input: customer_id, payment_mode, amount"', { documents: false })).toEqual([expect.stringContaining('marks this rule as a guess')]);
	});

	test('an entry that matches no rule is reported, and a `*` entry covers the rule in every operation', () => {
		const invoice = AREA_SOURCES[2];
		expect(sourcesProblems(invoice.rules, { ...invoice.sources, 'payment.create.purple.maxLength': 'guess: none' }, { documents: false })).toEqual(
			expect.arrayContaining(['payment.create.purple.maxLength: an entry that matches no rule of the tables']),
		);
		expect(sourceKey('payment.update.reference_number.maxLength', { 'payment.*.reference_number.maxLength': 'x' })).toBe('payment.*.reference_number.maxLength');
		expect(sourceKey('payment.update.reference_number.maxLength', { 'payment.*.reference_number.maxLength': 'x', 'payment.update.reference_number.maxLength': 'y' })).toBe(
			'payment.update.reference_number.maxLength',
		);
	});
});

describeWithReference('canaries: a quote the API reference does not hold is reported', () => {
	test('a document quote not in the section, and an unknown section, are reported; the quote as the document gives it passes', () => {
		const r = AREA_SOURCES.flatMap((a) => a.rules).find((x) => x.key === 'invoice.bulkReminder.batch') as TableRule;
		expect(citationProblems(r, 'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 11)"')).toEqual([expect.stringContaining('does not say')]);
		expect(citationProblems(r, 'Accounting, Nowhere: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"')).toEqual([expect.stringContaining('no section "Nowhere"')]);
		expect(citationProblems(r, 'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"')).toEqual([]);
		expect(citationProblems(r, 'Accounting, Limits: "Bulk print of estimates | 25"')).toEqual([expect.stringContaining('does not name invoice_ids'), expect.stringContaining('does not give 10')]);
	});
});
