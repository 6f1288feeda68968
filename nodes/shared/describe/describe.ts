// Describing (describe/): owns the node description assembled: the organisation, the selectors, every operation's form, the parts' properties; features plug in as DescriptionParts; imports tables/ and api/options.
/**
 * n8n properties derived from the field tables: resources, operations, required fields
 * at the top, optional ones in "Additional Fields" / "Update Fields" / "Filters"
 * collections, enums as sorted options, objects and arrays as fixed collections, IDs of
 * listable things as resource locators, Return All + Limit on lists.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IBuilderHint,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
	IParameterBuilderHint,
} from 'n8n-workflow';

import { mergeRepeatedProperties } from './compact';
import { locatorProperty } from './fields';
import { operationProperties } from './operationForm';
import { operationSelector, resourceSelector } from './selectors';
import { polishProperties } from './texts';
import { RUN_OPTIONS_PROPERTY } from '../api/options';
import { FORM_VERSION } from '../tables/naming';
import type { Area } from '../tables/spec';
import { ORGANIZATION } from '../tables/organizations';

/** The organisation of the accounting areas (the projects area has none): from the list, or by ID. */
export const ORGANIZATION_ID: INodeProperties = {
	...locatorProperty(
		{
			name: 'organizationId',
			type: 'string',
			label: 'Organization ID',
			locator: ORGANIZATION.value,
			description:
				'The organization the records belong to. If the list stays empty or fails, enter the ID (By ID).',
		},
		ORGANIZATION.name,
	),
	required: true,
};

/**
 * What a feature (Custom API Call, Simplify) adds to a node's description, plugged in by the
 * composition root: an option ending the resource list and every operation list, and
 * properties after the operations' own.
 */
export interface DescriptionPart {
	lastOption?(area: Area): INodePropertyOptions;
	properties?(area: Area): INodeProperties[];
}

/** All properties of an area's node: organisation, resource, operations and their fields, then the parts'. */
export function describeProperties(
	area: Area,
	trailing: INodeProperties[] = [],
	parts: readonly DescriptionPart[] = [],
): INodeProperties[] {
	// a selector's options with the parts' last options appended
	const withLastOptions = (options: INodePropertyOptions[]): INodePropertyOptions[] => [
		...options,
		...parts.flatMap((part) => (part.lastOption ? [part.lastOption(area)] : [])),
	];
	const props: INodeProperties[] = [];
	if (area.org) props.push(ORGANIZATION_ID);
	props.push(resourceSelector(area, withLastOptions));
	for (const resource of area.resources) props.push(operationSelector(resource, withLastOptions));
	for (const resource of area.resources) {
		for (const op of resource.operations) props.push(...operationProperties(area, resource, op));
	}
	for (const part of parts) if (part.properties) props.push(...part.properties(area));
	props.push(...trailing, RUN_OPTIONS_PROPERTY);
	return polishProperties(props);
}

export interface NodeMeta {
	/** Node type name, e.g. `vendorBooks`. */
	name: string;
	description: string;
	/** Icon base name in the node folder (without extension), e.g. `vendorBooks`. */
	icon: string;
	/** Node-specific properties shown after the derived ones (e.g. below an operation's fields). */
	trailingProperties?: INodeProperties[];
	/** What n8n's AI workflow builder reads about the node: when to use it, the related nodes. */
	builderHint?: IBuilderHint;
	/** n8n's AI workflow builder's hint per top-level property name, where a value's form is not obvious. */
	propertyHints?: Record<string, IParameterBuilderHint>;
}

/** The whole node description of an area, with the parts plugged in. */
export function describeNode(
	area: Area,
	meta: NodeMeta,
	parts: readonly DescriptionPart[] = [],
): INodeTypeDescription {
	return {
		displayName: area.name,
		name: meta.name,
		icon: { light: `file:${meta.icon}.svg`, dark: `file:${meta.icon}.dark.svg` },
		group: ['transform'],
		// 1.1: sorting in its own collection, regional groups behind a choice (see FORM_VERSION); 1 for stored workflows
		version: [1, FORM_VERSION],
		defaultVersion: FORM_VERSION,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: meta.description,
		defaults: { name: area.name },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		...(meta.builderHint && { builderHint: meta.builderHint }),
		credentials: [{ name: 'vendorOAuth2Api', required: true }],
		properties: mergeRepeatedProperties(
			describeProperties(area, meta.trailingProperties, parts),
		).map((p) =>
			meta.propertyHints?.[p.name] ? { ...p, builderHint: meta.propertyHints[p.name] } : p,
		),
	} as INodeTypeDescription;
}
