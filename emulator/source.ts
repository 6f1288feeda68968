// Where a refusal comes from, and the header that carries it: shared by the API's rules and the accounts server.

/**
 * Where a refusal comes from: `<document>, <section heading>: "<words of the document>"` (the
 * document named by its title's first word: `Conventions`, `Accounting` or `Payments`), or
 * `guess: <words of a docs/ASSUMPTIONS.md bullet>`. ASCII only (it travels as a header).
 */
export type Source = `${'Conventions' | 'Accounting' | 'Payments'}, ${string}` | `guess: ${string}`;

export const SOURCE_HEADER = 'X-Emulator-Source';
