// Table types & naming (tables/): InputError, the input refused before anything is sent; imports nothing.
/**
 * Input refused by the table layer (pure functions, with no node at hand) before anything is
 * sent, naming the field and the rule. It does not reach n8n as such: where input is read,
 * the node turns it into its NodeOperationError (itemError for an item, `inputFailure` in the
 * specials and the custom call, `nodeRequest` in pickers and triggers).
 */
export class InputError extends Error {}
