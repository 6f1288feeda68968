/**
 * The source checker of issue 36, shared by the emulator's refusals
 * (test/emulator/sources.test.ts) and the field tables' rules (test/tables/rule-sources.test.ts).
 *
 * A source is either a section of one of the three documents with words found there
 * (`doc 001, Limits: "Bulk invoice reminders | 10 per call"`; `doc 000` / `001` / `002` are
 * ../shared/api/000_*.txt, 001_*.txt, 002_*.txt; the section is named by its heading, or by
 * the heading's start before " (") or a guess whose words are a bullet of docs/ASSUMPTIONS.md
 * (`guess: <words of the bullet>`). Words are compared with runs of blanks (line breaks
 * included) taken as one space.
 */
import { readdirSync, readFileSync } from '../host/fs';
import { join } from '../host/path';

const ROOT = join(module.path, '..', '..');
const DOCS_DIR = join(ROOT, '..', 'shared', 'api');

/** Text with every run of blanks as one space, trimmed. */
export const normal = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The three documents by number (`000`, `001`, `002`): heading -> the text under it. */
export function readDocuments(): Map<string, Map<string, string>> {
	const out = new Map<string, Map<string, string>>();
	for (const file of readdirSync(DOCS_DIR)) {
		const m = /^(00\d)_.*\.txt$/.exec(file);
		if (!m) continue;
		const sections = new Map<string, string>();
		let heading = '';
		let body: string[] = [];
		const flush = (): void => {
			if (heading) sections.set(heading, normal(body.join('\n')));
		};
		for (const line of readFileSync(join(DOCS_DIR, file), 'utf8').split('\n')) {
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
export const ASSUMPTIONS = normal(readFileSync(join(ROOT, 'docs', 'ASSUMPTIONS.md'), 'utf8'));

/** The section of a document a heading names (`Billing projects` names "Billing projects (`{api_url}/billing/v1`, ...)"). */
export function section(doc: Map<string, string>, name: string): string | undefined {
	for (const [heading, text] of doc) if (heading === name || heading.startsWith(`${name} (`)) return text;
	return undefined;
}

/** A source taken apart: a document's section and words, or a guess's words (undefined: neither form). */
export type ParsedSource = { kind: 'doc'; number: string; section: string; words: string } | { kind: 'guess'; words: string };

export function parseSource(source: string): ParsedSource | undefined {
	const doc = /^doc (00\d), ([^:]+): "(.+)"$/.exec(source);
	if (doc) return { kind: 'doc', number: doc[1], section: doc[2], words: doc[3] };
	const guess = /^guess: (.+)$/.exec(source);
	if (guess) return { kind: 'guess', words: guess[1] };
	return undefined;
}

/** What is wrong with a source (empty: nothing). `guesses: false` leaves the docs/ASSUMPTIONS.md lookup out. */
export function sourceProblems(source: unknown, opts: { guesses?: boolean } = {}): string[] {
	if (typeof source !== 'string' || source.trim() === '') return ['no source'];
	if (!/^[\x20-\x7e]+$/.test(source)) return [`"${source}": not printable ASCII (it travels as a header)`];
	const parsed = parseSource(source);
	if (parsed?.kind === 'doc') {
		const { number, section: name, words } = parsed;
		const sections = DOCS.get(number);
		if (!sections) return [`"${source}": no document ${number}`];
		const text = section(sections, name);
		if (text === undefined) return [`"${source}": document ${number} has no section "${name}"`];
		return text.includes(normal(words)) ? [] : [`"${source}": section "${name}" of document ${number} does not say "${words}"`];
	}
	if (parsed?.kind === 'guess') {
		if (opts.guesses === false) return [];
		return ASSUMPTIONS.includes(normal(parsed.words)) ? [] : [`"${source}": docs/ASSUMPTIONS.md has no bullet with these words`];
	}
	return [`"${source}": neither a document section ("doc 00N, <section>: \\"<words>\\"") nor a listed guess ("guess: <words>")`];
}
