/**
 * parseJson: JSON.parse's results for every valid JSON, exact digits for integers beyond 2^53,
 * a byte-order mark and whitespace accepted, and "Unexpected end of JSON input" for text cut short.
 */
import fc from 'fast-check';

import { parseJson } from '../../nodes/shared/api/json';
import { process } from '../../host/globals';

/** A fixed seed keeps `npm test` repeatable; `npm run fuzz` runs 100 times as many cases. */
const runs = (n: number) => ({
	seed: 42,
	numRuns: n * Number(process.env.VENDOR_FUZZ_FACTOR ?? 1),
});

/** An integer outside Number.isSafeInteger, as its digits. */
const unsafeDigits = fc
	.tuple(fc.boolean(), fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }))
	.map(([negative, n]) => `${negative ? '-' : ''}${n}`);

/** Text of long digit runs among quotes, backslashes and control characters: to be left exactly as it is. */
const digitsInText = fc.string({
	unit: fc.constantFrom('1', '9', '0', '-', '"', '\\', '\n', ':', ' ', 'e', '.', '\u2028'),
	maxLength: 60,
});

/** A JSON text holding unsafe integers as numbers, and the value it stands for (those integers as strings). */
const withBigIds = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		fc.jsonValue().map((v) => ({
			text: JSON.stringify(v),
			value: JSON.parse(JSON.stringify(v), asWritten) as unknown,
		})),
		unsafeDigits.map((digits) => ({ text: digits, value: digits as unknown })),
		digitsInText.map((s) => ({ text: JSON.stringify(s), value: s as unknown })),
		fc
			.array(tie('value') as fc.Arbitrary<{ text: string; value: unknown }>, { maxLength: 5 })
			.map((list) => ({
				text: `[${list.map((e) => e.text).join(',')}]`,
				value: list.map((e) => e.value) as unknown,
			})),
		fc
			.uniqueArray(
				fc.tuple(fc.string(), tie('value') as fc.Arbitrary<{ text: string; value: unknown }>),
				{ maxLength: 5, selector: ([k]) => k },
			)
			.map((members) => ({
				text: `{${members.map(([k, e]) => `${JSON.stringify(k)}: ${e.text}`).join(', ')}}`,
				value: Object.fromEntries(members.map(([k, e]) => [k, e.value])) as unknown,
			})),
	),
})).value as fc.Arbitrary<{ text: string; value: unknown }>;

describe('parseJson', () => {
	it('gives what JSON.parse gives for every JSON text (an unsafe integer as its digits)', () => {
		fc.assert(
			fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 2 }), (value, indent) => {
				const text = JSON.stringify(value, null, indent);
				expect(parseJson(text)).toEqual(JSON.parse(text, asWritten));
			}),
			runs(300),
		);
	});

	it('keeps the exact digits of every integer beyond 2^53, wherever it stands', () => {
		fc.assert(
			fc.property(withBigIds, ({ text, value }) => {
				expect(parseJson(text)).toEqual(value);
			}),
			runs(300),
		);
	});

	it('keeps safe integers, fractions and exponents as numbers, and digits in strings as they are', () => {
		expect(parseJson('{"item_id": 1752587000000097005, "n": -9007199254740993}')).toEqual({
			item_id: '1752587000000097005',
			n: '-9007199254740993',
		});
		expect(parseJson('[9007199254740991, -9007199254740991, 9007199254740992]')).toEqual([
			9007199254740991,
			-9007199254740991,
			'9007199254740992',
		]);
		expect(
			parseJson(
				'[12345678901234567890.5, 1e400000000000000000, 12345678901234567890e2, 0.12345678901234567890]',
			),
		).toEqual([
			Number('12345678901234567890.5'),
			Infinity,
			Number('12345678901234567890e2'),
			Number('0.1234567890123456789'),
		]);
		expect(
			parseJson(
				'{"note": "a:12345678901234567890,b", "id": 12345678901234567890, "m": ["x [ 12345678901234567890 ]"]}',
			),
		).toEqual({
			note: 'a:12345678901234567890,b',
			id: '12345678901234567890',
			m: ['x [ 12345678901234567890 ]'],
		});
		expect(
			parseJson('{"s": "a\\"12345678901234567890 \\\\", "t": "12345678901234567890"}'),
		).toEqual({
			s: 'a"12345678901234567890 \\',
			t: '12345678901234567890',
		});
	});

	it('accepts a byte-order mark and whitespace before the JSON', () => {
		fc.assert(
			fc.property(
				withBigIds,
				fc.boolean(),
				fc.stringMatching(/^[ \t\r\n]{0,4}$/),
				({ text, value }, bom, space) => {
					expect(parseJson(`${bom ? '\uFEFF' : ''}${space}${text}${space}`)).toEqual(value);
				},
			),
			runs(200),
		);
	});

	it('says "Unexpected end of JSON input" for every text cut short', () => {
		fc.assert(
			fc.property(withBigIds, fc.nat(), ({ text }, n) => {
				// A text that ends where its JSON could not (a number or literal cut short may still be whole JSON).
				const cut = text.slice(0, n % Math.max(text.length, 1));
				fc.pre(!isWhole(cut));
				expect(() => parseJson(cut)).toThrow(new SyntaxError('Unexpected end of JSON input'));
			}),
			runs(300),
		);
	});

	it('throws a SyntaxError for what is not JSON, unsafe integers or not', () => {
		for (const text of [
			'{12345678901234567890: 1}',
			'{12345678901234567890   \n  : 1}',
			'[012345678901234567890]',
			'[12345678901234567890.]',
			'[12345678901234567890 12345678901234567890]',
			'["a" 12345678901234567890]',
			'[-12345678901234567890-]',
			'\uFEFF\uFEFF[1]',
			'[1] x',
			'<html>',
			'{"a":1}}',
		]) {
			expect(() => parseJson(text)).toThrow(SyntaxError);
			expect(() => parseJson(text)).not.toThrow(/end of JSON input/);
		}
	});
});

/**
 * JSON.parse's value with an unsafe integer as the digits JSON.stringify wrote (the shortest
 * form that reads back as the same number: for a text JSON.stringify wrote, its literal).
 */
function asWritten(_key: string, value: unknown): unknown {
	if (typeof value !== 'number' || Number.isSafeInteger(value) || !Number.isInteger(value))
		return value;
	return /^-?\d+$/.test(String(value)) ? String(value) : value;
}

function isWhole(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}
