/**
 * A source for every rule of the field tables: each refusal, requiredness, format, default and
 * computed-member rule a table carries either cites the document it comes from
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
 * Each source stands on the table entry that carries its rule (`sources` of spec.ts): a field's
 * (one text for all its rules, or one per rule name), an operation's (per rule name; `path`,
 * the endpoint, backs the `required` of its path parameters), a custom field type's, and
 * `CUSTOM_FIELD_MODULES_SOURCE`. A field shared by several operations carries its sources once.
 * The emulator reads them the same way (emulator/rules/table-sources.ts, `ruleSource`). A rule is
 * named in messages by its key, `<resource>.<operation>.<field path>.<rule>` (the path through
 * members with `.`, the entries of a list of scalars as `<list>[]`), `<resource>.<operation>.<rule>`
 * for the operation's own rules, `customField.<type>.<rule>` and `customField.modules.values`.
 *
 * The test fails on a rule without a source, on a source that fails `sourceProblems`, on a
 * document quote that does not name the field (its API name, `_` read as a space; a date,
 * date-time or time format may instead cite the document's convention, e.g. "Dates are
 * `yyyy-mm-dd`") or, for a rule with a number or allowed values, does not give them; on a rule
 * the table itself marks as a guess (`inferred`, `inferredRule`, an `inferred` operation's own
 * rules) cited from a document; and on a source that backs no rule (a rule name its entry does
 * not carry, a path source of an operation without path parameters, one text on a field without
 * rules; a rule name no entry can carry, or a source of a field that does not exist, no longer
 * compiles). The canaries at the end show each failure. Where the API reference is not beside
 * the repository, the comparison of the quotes with the documents is skipped (one line says
 * so); every other check still runs.
 * Run: npx jest test/tables/rule-sources
 */
import { operationSource, ruleSource } from '../../emulator/rules/table-sources';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import {
	CUSTOM_FIELD_MODULES_SOURCE,
	customFieldModules,
	customFieldTypes,
	projectsArea,
} from '../../nodes/VendorProjects/tables';
import type { CustomFieldType } from '../../nodes/VendorProjects/tables';
import type {
	Area,
	Field,
	FieldRule,
	Operation,
	OperationRule,
} from '../../nodes/shared/tables/spec';
import { locationOf } from '../../nodes/shared/tables/location';
import { describeWithReference, parseSource, sourceProblems } from '../tools/doc-sources';

/** `documents: false`: check a document quote without reading the document (see doc-sources.ts). */
type Opts = { documents?: boolean };

/** A table entry that carries sources: a field, an operation or a custom field type. */
interface Owner {
	sources?: string | Readonly<Record<string, string | undefined>>;
}

/** One rule of a table: its key, its source, and what a document quote citing it must say. */
interface TableRule {
	key: string;
	/** `required`, `maxLength`, `values`, `date`, `batch`, ... */
	kind: string;
	/** The source the tables give it (undefined: none). */
	source: string | undefined;
	/** The entry whose `sources` give it, and the name it stands under there (`path` for a path parameter's `required`). */
	from: { owner: object; name: string };
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

/** The source `sources` gives rule `name`: the one text, or the rule's own. */
const sourceIn = (sources: Owner['sources'], name: string): string | undefined =>
	typeof sources === 'string' ? sources : sources?.[name];

/** Every rule `field` of `op` carries (and its members and entries), keyed under `prefix` (`payment.create`); `top`: one of `op.fields`. */
function fieldRules(
	prefix: string,
	op: Operation,
	field: Field,
	path = field.name,
	parentNames: string[] = [],
	top = true,
): TableRule[] {
	const apiNames = [field.name, ...parentNames];
	const guess = field.inferred
		? 'the field is marked inferred'
		: field.inferredRule
			? `inferredRule: ${field.inferredRule}`
			: undefined;
	const rules: TableRule[] = [];
	const add = (kind: FieldRule, more: Partial<TableRule> = {}): void => {
		// a path parameter's `required` stands on its operation, as the endpoint (`sources.path`)
		const from =
			kind === 'required' && top && locationOf(field, op) === 'path'
				? { owner: op, name: 'path' }
				: { owner: field, name: kind };
		rules.push({
			key: `${prefix}.${path}.${kind}`,
			kind,
			source: ruleSource(op, field, kind, top),
			from,
			names: apiNames,
			numbers: [],
			values: [],
			guess,
			...more,
		});
	};
	if (field.required) add('required');
	if (field.requiredWhen)
		add('requiredWhen', { values: [field.requiredWhen.field, ...field.requiredWhen.values] });
	for (const kind of [
		'maxLength',
		'minLength',
		'maxDigits',
		'min',
		'max',
		'minItems',
		'maxItems',
	] as const) {
		const n = field[kind];
		if (n !== undefined) add(kind, { numbers: [n] });
	}
	if (field.type === 'enum' && field.values?.length && !field.openValues)
		add('values', { values: [...field.values] });
	if (field.sortFields?.length) add('sortFields', { values: [...field.sortFields] });
	if (field.default !== undefined)
		add('default', {
			values:
				field.default === '' || typeof field.default === 'object' ? [] : [String(field.default)],
		});
	if (field.numeric) add('numeric');
	if (field.alphanumeric) add('alphanumeric');
	if (FORMAT_TYPES.has(field.type)) add(field.type as FieldRule);
	if (field.separator !== undefined) add('separator');
	if (field.readOnly) add('readOnly');
	// a field the update reads first when left out: the rule is the field's, so its key and source are too
	if (top && op.keepCurrent?.includes(field.name))
		add('keepCurrent', { names: [field.name], guess: undefined });
	for (const member of field.fields ?? [])
		rules.push(...fieldRules(prefix, op, member, `${path}.${member.name}`, [], false));
	if (field.of) rules.push(...fieldRules(prefix, op, field.of, `${path}[]`, [field.name], false));
	return rules;
}

/** An operation's own rules (not its fields'). */
function operationRules(prefix: string, op: Operation): TableRule[] {
	const guess = op.inferred
		? `the operation is marked inferred: ${op.inferredNote ?? ''}`
		: undefined;
	const rules: TableRule[] = [];
	const add = (kind: Exclude<OperationRule, 'path'>, more: Partial<TableRule> = {}): void => {
		rules.push({
			key: `${prefix}.${kind}`,
			kind,
			source: operationSource(op, kind),
			from: { owner: op, name: kind },
			names: [],
			numbers: [],
			values: [],
			guess,
			...more,
		});
	};
	if (op.batch) add('batch', { names: [op.batch.field], numbers: [op.batch.size] });
	if (op.perPage !== undefined) add('perPage', { names: ['page'], numbers: [op.perPage] });
	if (op.pagination !== undefined)
		add('pagination', { names: op.pagination === 'pageContext' ? ['page_context'] : [] });
	if (op.binaryInput) {
		add('binaryInput.extensions', {
			names: [op.binaryInput.field],
			values: [...op.binaryInput.extensions],
		});
		if (op.binaryInput.required) add('binaryInput.required', { names: [op.binaryInput.field] });
	}
	return rules;
}

/** Every rule of an area's tables. */
function areaRules(area: Area): TableRule[] {
	return area.resources.flatMap((resource) =>
		resource.operations.flatMap((op) => {
			const prefix = `${resource.value}.${op.value}`;
			return [
				...operationRules(prefix, op),
				...op.fields.flatMap((f) => fieldRules(prefix, op, f)),
			];
		}),
	);
}

/**
 * Every entry of an area's tables that may carry sources, each operation and each field (members
 * and entries too) once, with where it is for messages (`payment.create.invoices.amount_applied`,
 * `payment.getAll`, `customField.url`).
 */
function areaOwners(area: Area): Map<Owner, string> {
	const owners = new Map<Owner, string>();
	const visit = (field: Field, where: string): void => {
		if (!owners.has(field)) owners.set(field, where);
		for (const member of field.fields ?? []) visit(member, `${where}.${member.name}`);
		if (field.of) visit(field.of, `${where}[]`);
	};
	for (const resource of area.resources) {
		for (const op of resource.operations) {
			const prefix = `${resource.value}.${op.value}`;
			owners.set(op, prefix);
			for (const f of op.fields) visit(f, `${prefix}.${f.name}`);
		}
	}
	return owners;
}

/** The rules of Vendor Projects' custom field types (`customField.<type>.<rule>`). */
function customFieldRules(
	types: readonly CustomFieldType[] = customFieldTypes,
	modules: readonly string[] = customFieldModules,
	modulesSource: string = CUSTOM_FIELD_MODULES_SOURCE,
): TableRule[] {
	const rules: TableRule[] = [
		{
			key: 'customField.modules.values',
			kind: 'values',
			source: modulesSource,
			from: { owner: modules, name: 'values' },
			names: ['custom fields'],
			numbers: [],
			values: [...modules],
		},
	];
	for (const t of types) {
		const add = (kind: string, more: Partial<TableRule> = {}): void => {
			rules.push({
				key: `customField.${t.value}.${kind}`,
				kind,
				source: sourceIn(t.sources, kind),
				from: { owner: t, name: kind },
				names: [t.name],
				numbers: [],
				values: [],
				...more,
			});
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

/** The custom field types as entries that carry sources. */
function customFieldOwners(
	types: readonly CustomFieldType[] = customFieldTypes,
): Map<Owner, string> {
	return new Map(types.map((t) => [t, `customField.${t.value}`]));
}

/** The areas with their rules and the entries that carry their sources. */
const AREA_RULES: ReadonlyArray<{ node: string; rules: TableRule[]; owners: Map<Owner, string> }> =
	[
		{ node: 'VendorBooks', rules: areaRules(booksArea), owners: areaOwners(booksArea) },
		{
			node: 'VendorProjects',
			rules: [...areaRules(projectsArea), ...customFieldRules()],
			owners: new Map([...areaOwners(projectsArea), ...customFieldOwners()]),
		},
		{ node: 'VendorInvoice', rules: areaRules(invoiceArea), owners: areaOwners(invoiceArea) },
		{ node: 'VendorBilling', rules: areaRules(billingArea), owners: areaOwners(billingArea) },
		{ node: 'VendorInventory', rules: areaRules(inventoryArea), owners: areaOwners(inventoryArea) },
	];

const lower = (s: string): string => s.toLowerCase().replace(/_/g, ' ');
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `text` holds `word` as a whole word (`_` and a space the same, any case). */
const saysWord = (text: string, word: string): boolean =>
	new RegExp(`(^|[^a-z0-9])${escapeRegExp(lower(word))}([^a-z0-9]|$)`).test(lower(text));
/** Whether `text` names the field `name`: as written, or without the `_startswith` / `_contains` of a filter (the Accounting document: "a name followed by `_startswith` / `_contains` stands for two parameters"). */
const namesField = (text: string, name: string): boolean =>
	saysWord(text, name) || saysWord(text, name.replace(/_(startswith|contains)$/, ''));
/** Whether `text` gives `value`: as written, or its last part after a dot (`PaymentMode.Check` as ".Check"). */
const givesValue = (text: string, value: string): boolean =>
	saysWord(text, value) ||
	(value.includes('.') &&
		new RegExp(
			`\\.${escapeRegExp(lower(value.slice(value.lastIndexOf('.') + 1)))}([^a-z0-9]|$)`,
		).test(lower(text)));
/** Whether `text` gives the number `n` (a minimum of 0 also as "negative"). */
const givesNumber = (text: string, n: number, kind: string): boolean =>
	new RegExp(`(^|[^0-9.])${escapeRegExp(String(n))}([^0-9]|$)`).test(text) ||
	(n === 0 && kind === 'min' && /negative/i.test(text));

/**
 * How a document writes a date, a date-time and a time. A format rule may cite the document's
 * convention instead of a sentence naming the field (the Accounting document: "Dates are `yyyy-mm-dd`").
 */
const FORMAT_WORDS: Readonly<Record<string, RegExp>> = {
	date: /yyyy-mm-dd/i,
	dateTime: /'T'/,
	time: /HH:MM/i,
};

/** What is wrong with the source of one rule (empty: nothing). */
function citationProblems(rule: TableRule, source: string | undefined, opts: Opts = {}): string[] {
	if (source === undefined) return [`${rule.key}: no source`];
	const problems = sourceProblems(source, opts).map((p) => `${rule.key}: ${p}`);
	if (problems.length) return problems;
	const parsed = parseSource(source);
	if (parsed?.kind !== 'doc') return [];
	if (rule.guess)
		return [
			`${rule.key}: the table marks this rule as a guess (${rule.guess}), so its source must be a guess listed in docs/ASSUMPTIONS.md, not "${source}"`,
		];
	const words = parsed.words;
	const convention = FORMAT_WORDS[rule.kind]?.test(words) ?? false;
	if (rule.names.length && !convention && !rule.names.some((n) => namesField(words, n)))
		problems.push(`${rule.key}: "${words}" does not name ${rule.names.join(' or ')}`);
	for (const n of rule.numbers)
		if (!givesNumber(words, n, rule.kind))
			problems.push(`${rule.key}: "${words}" does not give ${n}`);
	for (const v of rule.values)
		if (!givesValue(words, v)) problems.push(`${rule.key}: "${words}" does not give ${v}`);
	return problems;
}

/** Every problem of an area's rules: rules without a good source. */
function rulesProblems(rules: readonly TableRule[], opts: Opts = {}): string[] {
	return rules.flatMap((rule) => citationProblems(rule, rule.source, opts));
}

/**
 * The sources that back no rule: a rule name the entry does not carry (in any operation that
 * uses it), or the one text of an entry that carries no rule.
 */
function unusedSources(rules: readonly TableRule[], owners: ReadonlyMap<Owner, string>): string[] {
	const used = new Map<object, Set<string>>();
	for (const { from } of rules)
		used.set(from.owner, (used.get(from.owner) ?? new Set()).add(from.name));
	const problems: string[] = [];
	for (const [entry, where] of owners) {
		const sources = entry.sources;
		const names = used.get(entry) ?? new Set<string>();
		if (typeof sources === 'string') {
			if (names.size === 0) problems.push(`${where}: a source on an entry that carries no rule`);
		} else {
			for (const name of Object.keys(sources ?? {}))
				if (!names.has(name))
					problems.push(`${where}.${name}: a source that backs no rule of the tables`);
		}
	}
	return problems;
}

const AREAS = AREA_RULES.map((a) => [a.node, a] as const);

describeWithReference('every document quote of the field tables is in the API reference', () => {
	test.each(AREAS)('%s: each quote is found in the section it names', (_node, area) => {
		expect(rulesProblems(area.rules)).toEqual([]);
	});
});

describe('every rule of the field tables names its source', () => {
	test.each(AREAS)(
		'%s: each rule cites a document section in a quote that names it, or a listed guess; no source is left over',
		(_node, area) => {
			expect(area.rules.length).toBeGreaterThan(10);
			expect(rulesProblems(area.rules, { documents: false })).toEqual([]);
			expect(unusedSources(area.rules, area.owners)).toEqual([]);
		},
	);

	test('rule keys are unique within an area', () => {
		for (const area of AREA_RULES) {
			const keys = area.rules.map((r) => r.key);
			expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
		}
	});

	test('the walk finds the rules of every kind the tables use', () => {
		const kinds = new Set(AREA_RULES.flatMap((a) => a.rules.map((r) => r.kind)));
		for (const kind of [
			'required',
			'requiredWhen',
			'maxLength',
			'minLength',
			'maxDigits',
			'min',
			'minItems',
			'maxItems',
			'values',
			'default',
			'numeric',
			'date',
			'integer',
			'email',
			'batch',
			'perPage',
			'pagination',
			'binaryInput.extensions',
			'binaryInput.required',
			'keepCurrent',
			'readOnly',
			'sortFields',
			'alphanumeric',
		]) {
			expect([kind, kinds.has(kind)]).toEqual([kind, true]);
		}
	});
});

/** The operation `resource.operation` of an area. */
function operation(area: Area, resource: string, value: string): Operation {
	const op = area.resources
		.find((r) => r.value === resource)
		?.operations.find((o) => o.value === value);
	if (!op) throw new Error(`no operation ${resource}.${value}`);
	return op;
}

/** `entry` with `sources` set to `sources` while `check` runs (the tables are data: put back after). */
function withSources<T extends { sources?: unknown }>(
	entry: T,
	sources: T['sources'],
	check: () => void,
): void {
	const kept = entry.sources;
	entry.sources = sources;
	try {
		check();
	} finally {
		entry.sources = kept;
	}
}

describe('canaries: the same checks fail a rule without a good source', () => {
	const rule = (key: string): TableRule => {
		const found = AREA_RULES.flatMap((a) => a.rules).find((r) => r.key === key);
		if (!found) throw new Error(`no rule ${key}`);
		return found;
	};

	test("a rule whose source is removed is reported: an operation's, a shared field's, a path parameter's", () => {
		const reminder = operation(booksArea, 'invoice', 'bulkReminder');
		withSources(reminder, { ...reminder.sources, batch: undefined }, () => {
			expect(rulesProblems(areaRules(booksArea), { documents: false })).toEqual([
				'invoice.bulkReminder.batch: no source',
			]);
		});
		const reference = operation(invoiceArea, 'payment', 'create').fields.find(
			(f) => f.name === 'reference_number',
		) as Field;
		// the field create and update share: both lose the source
		withSources(reference, undefined, () => {
			expect(rulesProblems(areaRules(invoiceArea), { documents: false })).toEqual([
				'payment.create.reference_number.maxLength: no source',
				'payment.update.reference_number.maxLength: no source',
			]);
		});
		const get = operation(invoiceArea, 'payment', 'get');
		withSources(get, undefined, () => {
			expect(rulesProblems(areaRules(invoiceArea), { documents: false })).toEqual([
				'payment.get.payment_id.required: no source',
			]);
		});
	});

	test('a guess not in ASSUMPTIONS.md, an unknown document, and a source of neither form are reported (with or without the API reference)', () => {
		const r = rule('invoice.bulkReminder.batch');
		const structural = { documents: false };
		expect(
			citationProblems(r, 'guess: reminders go out in tens because it feels right', structural),
		).toEqual([expect.stringContaining('no bullet')]);
		expect(
			citationProblems(r, 'Nowhere, Invoices: "query `invoice_ids` (max 10)"', structural),
		).toEqual([expect.stringContaining('no document named Nowhere')]);
		expect(citationProblems(r, 'because I said so', structural)).toEqual([
			expect.stringContaining('neither a document section'),
		]);
		expect(
			citationProblems(
				r,
				'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"',
				structural,
			),
		).toEqual([]);
	});

	test('a document quote that is in the section but does not name the field, or not its number or values, is reported', () => {
		expect(
			citationProblems(
				rule('invoice.bulkReminder.batch'),
				'Accounting, Limits: "Bulk print of estimates | 25"',
				{ documents: false },
			),
		).toEqual([
			expect.stringContaining('does not name invoice_ids'),
			expect.stringContaining('does not give 10'),
		]);
		// the Limits row gives the number but not the parameter: the Endpoints row names both
		expect(
			citationProblems(
				rule('invoice.bulkReminder.batch'),
				'Accounting, Limits: "Bulk invoice reminders | 10 per call"',
				{ documents: false },
			),
		).toEqual([expect.stringContaining('does not name invoice_ids')]);
		expect(
			citationProblems(
				rule('payment.create.reference_number.maxLength'),
				'Payments, Limits: "refund_mode | 50 characters"',
				{ documents: false },
			),
		).toEqual([
			expect.stringContaining('does not name reference_number'),
			expect.stringContaining('does not give 100'),
		]);
		expect(
			citationProblems(
				rule('payment.create.payment_mode.values'),
				'Payments, Limits: "payment_mode, reference_number | 100 characters"',
				{ documents: false },
			),
		).toEqual(expect.arrayContaining([expect.stringContaining('does not give check')]));
	});

	test('a rule the table marks as a guess must cite a listed guess, not a document', () => {
		const r = rule('payment.create.amount.required');
		expect(r.guess).toBeDefined();
		expect(
			citationProblems(
				r,
				'Payments, Customer payment: "Create input: customer_id, payment_mode, amount"',
				{ documents: false },
			),
		).toEqual([expect.stringContaining('marks this rule as a guess')]);
	});

	test('a source that backs no rule is reported: a rule name the entry lacks, a path without parameters, one text on a field without rules', () => {
		const owners = AREA_RULES[2].owners;
		const create = operation(invoiceArea, 'payment', 'create');
		const reference = create.fields.find((f) => f.name === 'reference_number') as Field;
		const description = create.fields.find((f) => f.name === 'description') as Field;
		const rules = (): TableRule[] => areaRules(invoiceArea);
		withSources(
			reference,
			{ maxLength: reference.sources as never, minLength: 'guess: none' },
			() => {
				expect(unusedSources(rules(), owners)).toEqual([
					'payment.create.reference_number.minLength: a source that backs no rule of the tables',
				]);
			},
		);
		withSources(create, { path: 'guess: none' }, () => {
			expect(unusedSources(rules(), owners)).toEqual([
				'payment.create.path: a source that backs no rule of the tables',
			]);
		});
		withSources(description, 'guess: none', () => {
			expect(unusedSources(rules(), owners)).toEqual([
				'payment.create.description: a source on an entry that carries no rule',
			]);
		});
		const url = customFieldTypes.find((t) => t.value === 'url') as CustomFieldType;
		withSources(url, { maxDigits: 'guess: none' }, () => {
			expect(unusedSources(customFieldRules(), customFieldOwners())).toEqual([
				expect.stringMatching(/^customField\.url\.maxDigits: a source that backs no rule/),
			]);
		});
	});

	test("a shared field carries its source once for every operation that uses it; a path parameter's is its operation's endpoint", () => {
		const create = rule('payment.create.reference_number.maxLength');
		const update = rule('payment.update.reference_number.maxLength');
		expect(update.from).toEqual(create.from);
		expect(update.source).toBe(create.source);
		const get = rule('payment.get.payment_id.required');
		const del = rule('payment.delete.payment_id.required');
		expect([get.source, del.source]).toEqual([
			'Payments, Customer payments: "GET | /customerpayments/{payment_id}"',
			'Payments, Customer payments: "DELETE | /customerpayments/{payment_id}"',
		]);
		expect(get.from.owner).toBe(operation(invoiceArea, 'payment', 'get'));
		expect(get.from.name).toBe('path');
	});
});

describeWithReference('canaries: a quote the API reference does not hold is reported', () => {
	test('a document quote not in the section, and an unknown section, are reported; the quote as the document gives it passes', () => {
		const r = AREA_RULES.flatMap((a) => a.rules).find(
			(x) => x.key === 'invoice.bulkReminder.batch',
		) as TableRule;
		expect(
			citationProblems(
				r,
				'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 11)"',
			),
		).toEqual([expect.stringContaining('does not say')]);
		expect(
			citationProblems(
				r,
				'Accounting, Nowhere: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"',
			),
		).toEqual([expect.stringContaining('no section "Nowhere"')]);
		expect(
			citationProblems(
				r,
				'Accounting, Invoices: "POST | /invoices/paymentreminder | CREATE | query `invoice_ids` (max 10)"',
			),
		).toEqual([]);
		expect(citationProblems(r, 'Accounting, Limits: "Bulk print of estimates | 25"')).toEqual([
			expect.stringContaining('does not name invoice_ids'),
			expect.stringContaining('does not give 10'),
		]);
	});
});
