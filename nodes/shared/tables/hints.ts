/**
 * What n8n's AI workflow builder reads besides the descriptions (builderHint): the node types
 * of this package for the related-node lists, and the hints for the properties whose value has
 * a form a description does not make obvious (the organization, record IDs). Passed by each
 * node class through its NodeMeta / TriggerMeta.
 */
import type { IParameterBuilderHint, IRelatedNode } from 'n8n-workflow';

const PACKAGE = 'n8n-nodes-vendor';

/** A node of this package as a related node, with why it is related. */
export const related = (name: string, relationHint: string): IRelatedNode => ({
	nodeType: `${PACKAGE}.${name}`,
	relationHint,
});

/**
 * The organization of the accounting areas (Vendor Books, Invoice, Billing, Inventory). Its
 * format is not documented, so the hint claims none (test/tables/hint-formats.test.ts compares
 * every format a hint claims with the tables' rule for the field).
 */
export const ORGANIZATION_HINT: IParameterBuilderHint = {
	message:
		'The Vendor organization the records belong to, as its ID exactly as the Vendor API gives it. Use the list mode to pick it by name, or the ID mode with the organization_id of an earlier node or of the Organization list.',
};

/**
 * A record ID, as the API returns it in the record's `field`. No format is claimed: most IDs are
 * documented as strings or without a type (the form's own check refuses what the tables refuse).
 */
export const idHint = (record: string, field: string): IParameterBuilderHint => ({
	message: `The ${record}'s ID exactly as the Vendor API returns it, in the ${field} field of the ${record} (for example from a Get Many, a Create or the trigger of this area earlier in the workflow). Not the ${record}'s name or number.`,
	placeholderSupported: true,
});
