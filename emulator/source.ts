// The header that carries where a refusal comes from (a `Source` of the tables' spec): shared by the API's rules and the accounts server.

/** Every refusal's source travels in this header: ASCII only. */
export const SOURCE_HEADER = 'X-Emulator-Source';
