// Table types & naming (tables/): the rules of text values: blank text, decimal numbers, lengths as the API counts them; imports nothing.

/**
 * The characters of blank text: spaces, tabs and line breaks, the no-break spaces (U+00A0,
 * U+202F, U+2007: `\s` holds them) and the zero-width characters (U+200B, U+200C, U+200D,
 * U+2060, U+FEFF) that pasted text and expressions carry unseen.
 */
const ALL_BLANK = /^(?:\s|\u200b|\u200c|\u200d|\u2060|\ufeff)*$/;
const EDGE_BLANK =
	/^(?:\s|\u200b|\u200c|\u200d|\u2060|\ufeff)+|(?:\s|\u200b|\u200c|\u200d|\u2060|\ufeff)+$/g;

/**
 * The one rule of "not given": no value, or text of blank characters only (an expression or
 * an AI agent that gave nothing). Every part of the engine asks this function.
 */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && ALL_BLANK.test(value))
	);
}

/** `text` without blank characters at either end (an ID pasted with a space or a zero-width space). */
export function trimBlank(text: string): string {
	return text.replace(EDGE_BLANK, '');
}

/** A number as plain decimal text: 5 -> "5", 0.1 -> "0.1", 1e21 -> "1000000000000000000000" (never exponent notation). */
export function decimalText(value: number): string {
	const text = String(value);
	if (!/e/i.test(text)) return text;
	return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * Decimal text of a number: an optional sign, digits with at most one decimal point, an optional
 * exponent (`12.50`, `-3`, `.5`, `1e3`). Not hexadecimal, binary or octal (`0x10`, `0b1`, `0o7`),
 * digit separators (`1_000`, `1,5`), `Infinity` or `NaN`, all of which JavaScript's `Number()`
 * would read as some number (or NaN). Blank characters around it are trimmed first, as around an
 * ID (`trimBlank`).
 */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The number decimal text (`DECIMAL`, trimmed) writes, if it is one and finite; undefined for any other text. */
export function decimalNumber(text: string): number | undefined {
	const trimmed = trimBlank(text);
	if (!DECIMAL.test(trimmed)) return undefined;
	const n = Number(trimmed);
	return Number.isFinite(n) ? n : undefined;
}

/** Whether `text` is decimal text of a finite number (`decimalNumber`). */
export function isDecimalText(text: string): boolean {
	return decimalNumber(text) !== undefined;
}

/** The rule a number field breaks when given text that is not a decimal number (`0x10`, `1_000`, `Infinity`). */
export const NUMBER_TEXT_RULE = 'must be a number written in decimal digits, e.g. 12.50, -3 or 1e3';

/**
 * A length rule in the words of what it counts. The API counts characters as its platform
 * does, in UTF-16 code units (JavaScript's `length` counts the same): an emoji or another
 * character beyond the Basic Multilingual Plane counts as 2. Every length rule says so.
 */
export function lengthRule(bound: 'most' | 'least', limit: number): string {
	return `must be at ${bound} ${limit} characters as the API counts them, where an emoji counts as 2`;
}

/** Whether a problem's message is a length rule (its "got" is then the length as counted). */
export function isLengthRule(message: string): boolean {
	return / characters as the API counts them/.test(message);
}
