/** Every area's rules, keyed by operation id (`books.item.create`). */
import { billingRules } from './billing';
import { booksRules } from './books';
import type { Rules } from './common';
import { inventoryRules } from './inventory';
import { paymentRules } from './payments';
import { projectsRules } from './projects';

export const RULES: Rules = { ...projectsRules, ...booksRules, ...paymentRules, ...billingRules, ...inventoryRules };

export { generic } from './common';
export type { Ctx, FilePart, Reply, Rule, Rules } from './common';
