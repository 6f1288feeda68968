/**
 * Reading an answer's JSON without losing an id: `JSON.parse`, except that a byte-order mark
 * before the JSON is accepted and an integer outside JavaScript's safe range (beyond 2^53,
 * such as the 19-digit ids of real accounts) keeps its exact digits, as a string. Text cut
 * short is always a SyntaxError saying "Unexpected end of JSON input".
 */

/**
 * A run of 16 digits: the fewest an unsafe integer has (2^53 has 16). Without one, `JSON.parse`
 * alone. Written out digit by digit: V8 scans for a fixed sequence many times faster than `\d{16}`.
 */
const LONG_DIGITS = new RegExp('\\d'.repeat(16));

/**
 * An integer of 16 digits or more where a value ends (before `,`, `]`, `}` or the end); the
 * text before it is checked in `standsAsValue`. Such a match inside a string is quoted too, but
 * that always makes the text invalid (a string closed, then digits: no JSON has that), so it is
 * never taken: the exact scan below reads such a text.
 */
const LONG_INTEGER = new RegExp(
	`-?[1-9]${'\\d'.repeat(15)}\\d*(?=[ \\t\\r\\n]*(?:[,\\]}]|$))`,
	'g',
);

/** Whether the text before `offset` is what a value follows: `:`, `[`, `,` (and whitespace) or nothing. */
function standsAsValue(text: string, offset: number): boolean {
	let at = offset - 1;
	while (at >= 0 && ' \t\r\n'.includes(text[at])) at--;
	return at < 0 || ':[,'.includes(text[at]);
}

/** The unsafe integers standing as values quoted, found without reading the strings. */
function quoteLikelyUnsafe(text: string): string {
	return text.replace(LONG_INTEGER, (token: string, offset: number) =>
		Number.isSafeInteger(Number(token)) || !standsAsValue(text, offset) ? token : `"${token}"`,
	);
}

/**
 * A string (to its end, closed or not: digits inside a string are never touched) or a number
 * token with all that follows it in JSON's grammar (so a fraction's or exponent's digits are
 * part of their number, never an integer of their own).
 */
const TOKEN = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"?|-?\d+(?:\.\d*)?(?:[eE][+-]?\d*)?/g;

/** An integer literal as JSON writes it: no leading zero, no fraction, no exponent. */
const INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** What follows an unsafe integer: a `:` means it stands where a name must be (invalid JSON), and stays as it is. */
const NAME_AFTER = /[ \t\r\n]*:/y;

function quoteUnsafe(text: string): string {
	return text.replace(TOKEN, (token: string, offset: number) => {
		if (token.charCodeAt(0) === 34 /* " */ || token.length < 16 || !INTEGER.test(token))
			return token;
		if (Number.isSafeInteger(Number(token))) return token;
		NAME_AFTER.lastIndex = offset + token.length;
		if (NAME_AFTER.test(text)) return token;
		return `"${token}"`;
	});
}

/** V8's words when the text ends before the JSON does; other engines' words are kept. */
function cutShort(error: unknown, text: string): unknown {
	if (!(error instanceof SyntaxError)) return error;
	const at = /at position (\d+)/.exec(error.message);
	if (at && Number(at[1]) >= text.length) return new SyntaxError('Unexpected end of JSON input');
	return error;
}

/**
 * `text` parsed as `JSON.parse` does, with a leading byte-order mark accepted and every
 * integer outside `Number.isSafeInteger` kept as the string of its digits
 * (`1752587000000097005` -> `"1752587000000097005"`). Invalid JSON throws a SyntaxError;
 * JSON cut short throws one saying "Unexpected end of JSON input".
 */
export function parseJson(text: string): unknown {
	const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	try {
		if (!LONG_DIGITS.test(json)) return JSON.parse(json);
		try {
			return JSON.parse(quoteLikelyUnsafe(json));
		} catch {
			// digits inside a string, or JSON that is not valid: the exact scan decides
			return JSON.parse(quoteUnsafe(json));
		}
	} catch (error) {
		// Quoting keeps invalid JSON invalid: the untouched text gives the error its true position.
		try {
			JSON.parse(json);
		} catch (original) {
			throw cutShort(original, json);
		}
		throw cutShort(error, json);
	}
}
