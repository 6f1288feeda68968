// Where a refusal comes from, and the header that carries it: shared by the API's rules and the accounts server.

/**
 * Where a refusal comes from: `doc 00N, <section heading>: "<words of the document>"`, or
 * `guess: <words of a docs/ASSUMPTIONS.md bullet>`. ASCII only (it travels as a header).
 */
export type Source = `doc 00${'0' | '1' | '2'}, ${string}` | `guess: ${string}`;

export const SOURCE_HEADER = 'X-Emulator-Source';
