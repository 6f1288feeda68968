/**
 * Error texts as n8n's UX guidelines ask, at the source of the run's own templates
 * (the item loop, the run report, split calls, deletions, the API's errors and failures, the
 * nodes' specials): a text a user reads says what happened without the words "error",
 * "failed", "failure", "problem" or "mistake" (n8n's setting names in quotes, 'On Error', and
 * the API's own keys, `email_errors_info`, aside). The item mark, ` [item X]`, is checked end to
 * end by the workflow tests (every item's error ends with it).
 */
import { readdirSync, readFileSync } from '../../host/fs';
import { join } from '../../host/path';

import { withItemMark } from '../../nodes/shared/run/calls';

const ROOT = join(module.path, '..', '..');

const FILES = [
	...readdirSync(join(ROOT, 'nodes/shared/run')).map((name) => `nodes/shared/run/${name}`),
	'nodes/shared/api/nodeErrors.ts',
	'nodes/shared/api/failureKinds.ts',
	'nodes/VendorBooks/specials.ts',
	'nodes/VendorProjects/specials.ts',
].filter((file) => file.endsWith('.ts'));

const BANNED = /\b(errors?|fail|fails|failed|failing|failures?|problems?|mistakes?)\b/i;

/**
 * The texts of a source: each string literal and each literal part of a template (nested
 * templates included), comments and regular expressions left out, that reads as text (words
 * with a space, or a heading such as "Failed:").
 */
function texts(source: string): string[] {
	const found: string[] = [];
	/** Open templates, each with the brace depth of the interpolation it is in (-1: in the template's text). */
	const templates: number[] = [];
	let text = '';
	let i = 0;
	let last = '';
	const keep = (t: string) => {
		if ((/\s/.test(t) && /[A-Za-z]{2,}/.test(t)) || /^[A-Z][a-z]+:/.test(t)) found.push(t);
	};
	while (i < source.length) {
		const c = source[i];
		const inTemplateText = templates.length > 0 && templates[templates.length - 1] === -1;
		if (inTemplateText) {
			if (c === '\\') {
				text += source.slice(i, i + 2);
				i += 2;
			} else if (c === '`') {
				keep(text);
				text = '';
				templates.pop();
				i++;
				last = '`';
			} else if (c === '$' && source[i + 1] === '{') {
				keep(text);
				text = '';
				templates[templates.length - 1] = 0;
				i += 2;
				last = '{';
			} else {
				text += c;
				i++;
			}
			continue;
		}
		// code
		if (c === '/' && source[i + 1] === '/') {
			i = source.indexOf('\n', i);
			if (i < 0) break;
			continue;
		}
		if (c === '/' && source[i + 1] === '*') {
			i = source.indexOf('*/', i) + 2;
			continue;
		}
		if (c === '/' && /[(,=:[!&|?{};]|^$/.test(last)) {
			// a regular expression: to its closing slash, classes included
			let inClass = false;
			for (i++; i < source.length; i++) {
				const r = source[i];
				if (r === '\\') i++;
				else if (r === '[') inClass = true;
				else if (r === ']') inClass = false;
				else if (r === '/' && !inClass) break;
			}
			i++;
			last = '/';
			continue;
		}
		if (c === "'" || c === '"') {
			let j = i + 1;
			let literal = '';
			while (j < source.length && source[j] !== c) {
				if (source[j] === '\\') {
					literal += source.slice(j, j + 2);
					j += 2;
				} else literal += source[j++];
			}
			keep(literal);
			i = j + 1;
			last = c;
			continue;
		}
		if (c === '`') {
			templates.push(-1);
			i++;
			continue;
		}
		if (templates.length && c === '{') templates[templates.length - 1]++;
		if (templates.length && c === '}') {
			if (templates[templates.length - 1] === 0) templates[templates.length - 1] = -1;
			else templates[templates.length - 1]--;
		}
		if (!/\s/.test(c)) last = c;
		i++;
	}
	return found;
}

test.each(FILES)('%s: no "error", "failed" or "failure" in a text a user reads', (file) => {
	const source = readFileSync(join(ROOT, file), 'utf8');
	const bad = texts(source).filter((text) =>
		BANNED.test(text.replace(/'On Error'|\\'On Error\\'/g, '')),
	);
	expect(bad).toEqual([]);
});

test("the check finds what it is for: a heading, a sentence, a nested template; not a state name or a setting's name", () => {
	const flagged = (source: string) =>
		texts(source).filter((text) => BANNED.test(text.replace(/'On Error'|\\'On Error\\'/g, '')));
	expect(flagged('const a = `Failed: ${x}.`;')).toHaveLength(1);
	expect(flagged("const a = 'Request failed';")).toHaveLength(1);
	expect(flagged("const a = `Done.${n ? ` The first failure: ${r}.` : ''}`;")).toHaveLength(1);
	expect(flagged('const a = `Not sent: ${what} failed: ${m}`;')).toHaveLength(1);
	expect(flagged("if (s.state === 'failed') return;")).toHaveLength(0);
	expect(
		flagged("const a = 'set the node\\'s \\'On Error\\' setting to \\'Continue\\'';"),
	).toHaveLength(0);
});

test('the item mark: appended once, and left alone on a run report', () => {
	expect(withItemMark('Invoice does not exist. (code 1002)', 3)).toBe(
		'Invoice does not exist. (code 1002) [item 3]',
	);
	expect(withItemMark('Invoice does not exist. (code 1002) [item 3]', 3)).toBe(
		'Invoice does not exist. (code 1002) [item 3]',
	);
	expect(withItemMark('x [item 3; 9 of 10 items done, 0 not sent]', 3)).toBe(
		'x [item 3; 9 of 10 items done, 0 not sent]',
	);
});
