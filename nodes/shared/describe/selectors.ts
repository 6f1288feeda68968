// Describing (describe/): the Resource and Operation selectors, each list ending with the features' options; imports tables/.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { operationDescription } from './aiTool';
import type { Area, Resource } from '../tables/spec';

/** A selector's options with the features' last options appended (the root's DescriptionParts). */
type WithLastOptions = (options: INodePropertyOptions[]) => INodePropertyOptions[];

/** The Resource selector: the area's resources by name, its first resource the default. */
export function resourceSelector(area: Area, withLastOptions: WithLastOptions): INodeProperties {
	const firstResource = area.resources[0].value;
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: withLastOptions(
			area.resources
				.map((r) => ({ name: r.name, value: r.value }))
				.sort((a, b) => a.name.localeCompare(b.name)),
		),
		default: firstResource,
	};
}

/** A resource's Operation selector: its operations by name, with their actions and descriptions; its list (else its first) the default. */
export function operationSelector(
	resource: Resource,
	withLastOptions: WithLastOptions,
): INodeProperties {
	const defaultOperation =
		resource.operations.find((o) => o.kind === 'list')?.value ?? resource.operations[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: withLastOptions(
			resource.operations
				.map((op) => ({
					name: op.name,
					value: op.value,
					action: op.action,
					description: operationDescription(op),
				}))
				.sort((a, b) => a.name.localeCompare(b.name)),
		),
		default: defaultOperation,
	};
}
