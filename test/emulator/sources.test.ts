/**
 * Every refusal of the emulator's rules names its source: each rule declares the
 * sources its refusals may cite, and each source is either a section of a document with
 * words found there (`Accounting, Limits: "Bulk invoice reminders | 10 per call"`) or a guess
 * whose words are a bullet of docs/ASSUMPTIONS.md (`guess: ...`). At run time a refusal
 * citing no declared source throws (rules/index.ts). Canaries show that the checks fail.
 * The checker itself (documents, sections, the source format) is test/tools/doc-sources.ts.
 * Where the API reference is not beside the repository, the comparison with the documents is
 * skipped (one line says so); the form of every source and the guesses are still checked.
 * Run: npx jest test/emulator/sources
 */
import { DEMO } from '../../emulator/demo-data';
import { AREAS, Router } from '../../emulator/routes';
import { acctError } from '../../emulator/rules/answers';
import type { Rule } from '../../emulator/rules/context';
import { GENERIC_SOURCES } from '../../emulator/rules/generic';
import { acceptsUnnamedQuery, checked, DECLARED, RULES } from '../../emulator/rules/index';
import { GUESS, refuse } from '../../emulator/rules/refusals';
import { apiClient, startEmulator } from '../../emulator/server';
import type { Source } from '../../nodes/shared/tables/spec';
import { SOURCE_HEADER } from '../../emulator/source';
import { describeWithReference, DOCS, section, sourceProblems } from '../tools/doc-sources';

/** What is wrong with a rule's declaration: no `sources`, or a source that fails `sourceProblems`. */
function ruleProblems(
	id: string,
	rule: Rule,
	opts: { guesses?: boolean; documents?: boolean } = {},
): string[] {
	if (!Array.isArray(rule.sources)) return [`${id}: declares no sources`];
	const all = [...rule.sources, ...(rule.unnamedQuery === undefined ? [] : [rule.unnamedQuery])];
	return all.flatMap((s) => sourceProblems(s, opts).map((p) => `${id}: ${p}`));
}

const CRUD = new Set(['create', 'get', 'list', 'update', 'delete']);

describeWithReference('every document quote of a rule is in the API reference', () => {
	test('the documents are where the sources look', () => {
		expect([...DOCS.keys()].sort()).toEqual(['000', '001', '002']);
		expect(section(DOCS.get('001') as Map<string, string>, 'Limits')).toContain(
			'Bulk invoice reminders | 10 per call',
		);
	});

	test('each document source of a rule is found in the section it names', () => {
		expect(
			Object.keys(DECLARED).flatMap((id) => ruleProblems(id, DECLARED[id], { guesses: false })),
		).toEqual([]);
		expect(GENERIC_SOURCES.flatMap((s) => sourceProblems(s, { guesses: false }))).toEqual([]);
	});

	test('canaries: a source with wrong words or an unknown section fails', () => {
		const problems = ruleProblems('canary.badSources', {
			sources: ['Accounting, Limits: "Bulk print of estimates | 26"', 'Accounting, Nowhere: "25"'],
			handle: () => acctError(400, 2, 'x'),
		});
		expect(problems).toEqual([
			expect.stringContaining('does not say'),
			expect.stringContaining('no section "Nowhere"'),
		]);
		expect(sourceProblems('Accounting, Limits: "Bulk print of estimates | 25"')).toEqual([]);
	});
});

describe('every rule names the sources of its refusals', () => {
	test('each rule declares its sources, and each has the form of a document quote or of a listed guess', () => {
		const ids = Object.keys(DECLARED);
		expect(ids.length).toBeGreaterThan(60);
		const structural = { guesses: false, documents: false };
		expect(ids.flatMap((id) => ruleProblems(id, DECLARED[id], structural))).toEqual([]);
		expect(GENERIC_SOURCES.flatMap((s) => sourceProblems(s, structural))).toEqual([]);
	});

	test('each guess a refusal cites is a bullet of docs/ASSUMPTIONS.md', () => {
		const cited = new Set<Source>([...Object.values(GUESS), ...GENERIC_SOURCES]);
		for (const id of Object.keys(DECLARED))
			for (const s of DECLARED[id].sources ?? []) cited.add(s);
		expect(
			[...cited].filter((s) => s.startsWith('guess: ')).flatMap((s) => sourceProblems(s)),
		).toEqual([]);
	});

	test('no rule is exempt: every declared rule names its sources', () => {
		expect(Object.keys(DECLARED).filter((id) => DECLARED[id].sources === undefined)).toEqual([]);
	});

	test('every operation has a rule that declares its sources or runs the generic behaviour (whose sources are declared); no operation reaches an unimplemented kind', () => {
		const router = new Router(AREAS);
		const unimplemented = router.routes.filter(
			(r) =>
				!CRUD.has(r.op.kind) &&
				r.resource.value !== 'organization' &&
				!DECLARED[r.id]?.handle &&
				!DECLARED[r.id]?.pre,
		);
		expect(unimplemented.map((r) => r.id)).toEqual([]);
		for (const r of router.routes) {
			const rule = DECLARED[r.id];
			if (rule) expect(Array.isArray(rule.sources)).toBe(true);
		}
	});

	test('unnamed query parameters are accepted only where the documents give parameters without names', () => {
		const open = Object.keys(DECLARED).filter(acceptsUnnamedQuery).sort();
		expect(open).toEqual([
			'books.estimate.create',
			'books.estimate.get',
			'books.estimate.update',
			'books.invoice.create',
			'books.invoice.update',
		]);
		expect(open.map((id) => DECLARED[id].unnamedQuery)).toEqual(open.map(() => GUESS.unnamedQuery));
	});
});

describe('canaries: the same checks fail a rule without a source', () => {
	const refusing = (): ReturnType<typeof acctError> =>
		acctError(400, 2, 'Invalid value passed for x: refused');

	test('a rule that declares no sources fails the declaration check', () => {
		expect(ruleProblems('canary.noSources', { handle: refusing })).toEqual([
			'canary.noSources: declares no sources',
		]);
	});

	test('a source of an unknown document, an unlisted guess, or of neither form fails (with or without the API reference)', () => {
		const bad: Source[] = [
			'Nowhere, Limits: "25"' as string as Source,
			'guess: the emulator refuses purple invoices',
		];
		const problems = ruleProblems(
			'canary.badSources',
			{ sources: bad, handle: refusing },
			{ documents: false },
		);
		expect(problems).toEqual([
			expect.stringContaining('no document named Nowhere'),
			expect.stringContaining('no bullet'),
		]);
		expect(sourceProblems('because I said so')).toEqual([
			expect.stringContaining('neither a document section'),
		]);
		expect(
			sourceProblems('Accounting, Limits: "Bulk print of estimates | 25"', { documents: false }),
		).toEqual([]);
	});

	test('at run time a refusal without a source, or citing one the rule does not declare, throws', () => {
		const ctx = {} as Parameters<NonNullable<Rule['handle']>>[0];
		const untagged = checked('canary.untagged', { sources: [], handle: refusing });
		expect(() => untagged.handle?.(ctx)).toThrow(
			'canary.untagged: a refusal (HTTP 400) names no source',
		);
		const undeclared = checked('canary.undeclared', {
			sources: [GUESS.paging],
			handle: () => refuse(GUESS.notFound, refusing()),
		});
		expect(() => undeclared.handle?.(ctx)).toThrow('which the rule does not declare');
		const fine = checked('canary.fine', {
			sources: [GUESS.notFound],
			pre: () => refuse(GUESS.notFound, refusing()),
		});
		expect(fine.pre?.(ctx)?.source).toBe(GUESS.notFound);
		expect(
			checked('canary.success', {
				sources: [],
				handle: () => ({ status: 200, json: { code: 0 } }),
			}).handle?.(ctx)?.status,
		).toBe(200);
	});
});

describe('over HTTP: a refusal carries its source in the X-Emulator-Source header', () => {
	test('documented refusals cite the document, guessed ones the ASSUMPTIONS bullet, an unchecked rule fails loudly', async () => {
		const em = await startEmulator({ demo: true });
		try {
			const call = apiClient(em, { token: em.issueToken().access_token });
			const header = SOURCE_HEADER.toLowerCase();
			const inUse = await call('DELETE', 'books', `/items/${DEMO.items.consulting}`);
			expect([inUse.status, inUse.headers[header]]).toEqual([
				400,
				'Accounting, States and transitions: "An item that is part of a transaction cannot be deleted."',
			]);
			const missing = await call('GET', 'books', '/items/1299999999999');
			expect([missing.status, missing.headers[header]]).toEqual([404, GUESS.notFound]);
			const project = await call('GET', 'billing', '/projects/1699999999999');
			expect([project.status, project.headers[header]]).toEqual([
				404,
				'Payments, Errors: "1002 | project does not exist"',
			]);
			const eleven = await call('POST', 'books', '/invoices/paymentreminder', {
				query: { invoice_ids: Array.from({ length: 11 }, () => DEMO.invoices.overdue1).join(',') },
			});
			expect([eleven.status, eleven.headers[header]]).toEqual([
				400,
				'Accounting, Limits: "Bulk invoice reminders | 10 per call"',
			]);
			const quirk = await call('GET', 'books', '/estimates/pdf', {
				query: { estimate_ids: '999' },
			});
			expect([quirk.status, quirk.body.code, quirk.headers[header]]).toEqual([
				200,
				0,
				expect.stringMatching(/^Accounting, Errors: /),
			]);
			const ok = await call('GET', 'books', `/items/${DEMO.items.consulting}`);
			expect([ok.status, ok.headers[header]]).toEqual([200, undefined]);

			// A rule that refuses without naming its source: the emulator answers 500, so no test can pass on it.
			const original = RULES['books.item.get'];
			RULES['books.item.get'] = checked('books.item.get', {
				sources: [],
				handle: () => acctError(400, 2, 'refused for no reason'),
			});
			try {
				const r = await call('GET', 'books', `/items/${DEMO.items.consulting}`);
				expect(r.status).toBe(500);
				expect(r.body.message).toContain('names no source');
			} finally {
				if (original) RULES['books.item.get'] = original;
				else delete RULES['books.item.get'];
			}
		} finally {
			await em.close();
		}
	});
});
