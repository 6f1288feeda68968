/**
 * The source checker, shared by the emulator's refusals
 * (test/emulator/sources.test.ts) and the field tables' rules (test/tables/rule-sources.test.ts).
 *
 * A source is either a section of one of the three documents with words found there
 * (`Accounting, Limits: "Bulk invoice reminders | 10 per call"`; a document is named by its
 * title's first word: `Conventions`, `Accounting`, `Payments` are ../shared/api/000_*.txt,
 * 001_*.txt, 002_*.txt (`DOCUMENTS`); the section is named by its heading, or by
 * the heading's start before " (") or a guess whose words are a bullet of docs/ASSUMPTIONS.md
 * (`guess: <words of the bullet>`). Words are compared with runs of blanks (line breaks
 * included) taken as one space.
 *
 * The API reference lies beside the repository (`../shared/api`), not in it: a clone of its
 * own, a fork or CI has none. There the checks that compare a quote with the documents are
 * skipped (`describeWithReference`, one line in the test summary says so) and everything else
 * still runs: the form of every source (`sourceProblems(s, { documents: false })`) and the
 * guesses against docs/ASSUMPTIONS.md, which is in the repository.
 */
import { existsSync, readdirSync, readFileSync } from '../../host/fs';
import { join } from '../../host/path';

const ROOT = join(module.path, '..', '..');
/** Where the API reference is looked for: `../shared/api` beside the repository. */
const DOCS_DIR = join(ROOT, '..', 'shared', 'api');
/** The documents a source may cite, by name: the file each name stands for (its number). */
const DOCUMENTS: Readonly<Record<string, string>> = {
	Conventions: '000',
	Accounting: '001',
	Payments: '002',
};
/** The words the skipped suites carry in their title, which test/summary-reporter.js looks for. */
const REFERENCE_SKIPPED = 'skipped: no API reference at ../shared/api';

/** Text with every run of blanks as one space, trimmed. */
const normal = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Whether the API reference is beside the repository (a folder holding `000_*.txt` ...). */
function hasReference(dir: string = DOCS_DIR): boolean {
	return existsSync(dir) && readdirSync(dir).some((f) => /^00\d_.*\.txt$/.test(f));
}

/** The three documents by number (`000`, `001`, `002`): heading -> the text under it; none without the reference. */
function readDocuments(dir: string = DOCS_DIR): Map<string, Map<string, string>> {
	const out = new Map<string, Map<string, string>>();
	if (!hasReference(dir)) return out;
	for (const file of readdirSync(dir)) {
		const m = /^(00\d)_.*\.txt$/.exec(file);
		if (!m) continue;
		const sections = new Map<string, string>();
		let heading = '';
		let body: string[] = [];
		const flush = (): void => {
			if (heading) sections.set(heading, normal(body.join('\n')));
		};
		for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
			const h = /^#+\s+(.*)$/.exec(line);
			if (h) {
				flush();
				heading = h[1].trim();
				body = [];
			} else body.push(line);
		}
		flush();
		out.set(m[1], sections);
	}
	return out;
}

export const DOCS = readDocuments();
/** Whether the checks against the documents can run here. */
const REFERENCE_PRESENT = DOCS.size > 0;

/**
 * A describe block of checks that compare with the documents: run where the reference is
 * present, skipped (its title saying why) where it is not.
 */
export function describeWithReference(title: string, fn: () => void): void {
	if (REFERENCE_PRESENT) describe(title, fn);
	else describe.skip(`${title} (${REFERENCE_SKIPPED})`, fn);
}
const ASSUMPTIONS = normal(readFileSync(join(ROOT, 'docs', 'ASSUMPTIONS.md'), 'utf8'));

/** The section of a document a heading names (`Billing projects` names "Billing projects (`{api_url}/billing/v1`, ...)"). */
export function section(doc: Map<string, string>, name: string): string | undefined {
	for (const [heading, text] of doc)
		if (heading === name || heading.startsWith(`${name} (`)) return text;
	return undefined;
}

/** A source taken apart: a document's section and words, or a guess's words (undefined: neither form). */
type ParsedSource =
	| { kind: 'doc'; document: string; section: string; words: string }
	| { kind: 'guess'; words: string };

export function parseSource(source: string): ParsedSource | undefined {
	const doc = /^([A-Z][a-z]+), ([^:]+): "(.+)"$/.exec(source);
	if (doc) return { kind: 'doc', document: doc[1], section: doc[2], words: doc[3] };
	const guess = /^guess: (.+)$/.exec(source);
	if (guess) return { kind: 'guess', words: guess[1] };
	return undefined;
}

/**
 * What is wrong with a source (empty: nothing). `guesses: false` leaves the docs/ASSUMPTIONS.md
 * lookup out; `documents: false` checks a document quote's form (a known document, a section,
 * words) but not the document itself. Where the reference is absent that is the default, for
 * every suite that checks sources (the skipped line of the summary names what is not compared).
 */
export function sourceProblems(
	source: unknown,
	opts: { guesses?: boolean; documents?: boolean } = {},
): string[] {
	opts = { documents: REFERENCE_PRESENT, ...opts };
	if (typeof source !== 'string' || source.trim() === '') return ['no source'];
	if (!/^[\x20-\x7e]+$/.test(source))
		return [`"${source}": not printable ASCII (it travels as a header)`];
	const parsed = parseSource(source);
	if (parsed?.kind === 'doc') {
		const { document, section: name, words } = parsed;
		const number = DOCUMENTS[document];
		if (number === undefined)
			return [`"${source}": no document named ${document} (${Object.keys(DOCUMENTS).join(', ')})`];
		if (opts.documents === false) return [];
		const sections = DOCS.get(number);
		if (!sections)
			return [
				`"${source}": the ${document} document is not at ${DOCS_DIR} (the API reference beside the repository)`,
			];
		const text = section(sections, name);
		if (text === undefined)
			return [`"${source}": the ${document} document has no section "${name}"`];
		return text.includes(normal(words))
			? []
			: [`"${source}": section "${name}" of the ${document} document does not say "${words}"`];
	}
	if (parsed?.kind === 'guess') {
		if (opts.guesses === false) return [];
		return ASSUMPTIONS.includes(normal(parsed.words))
			? []
			: [`"${source}": docs/ASSUMPTIONS.md has no bullet with these words`];
	}
	return [
		`"${source}": neither a document section ("<document>, <section>: \\"<words>\\"") nor a listed guess ("guess: <words>")`,
	];
}
