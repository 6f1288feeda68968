// The composition root: assembles every node class (description, pickers, execute or poll) from the parts below.
/**
 * The node files call `areaNodeClass` or `triggerNodeClass`; the features (Custom API Call,
 * Simplify) are plugged in here, in this order, so the description builder and the item
 * loop know no feature by name. Nothing in nodes/shared/ imports this file.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { describeNode, describeProperties } from './describe/describe';
import type { DescriptionPart, NodeMeta } from './describe/describe';
import { customCallFeature } from './features/customCall';
import { simplifyFeature } from './features/simplify';
import { pollArea } from './poll/poll';
import { triggerNodeDescription } from './poll/description';
import type { TriggerMeta } from './poll/description';
import type { TriggerEvent } from './poll/event';
import { executeArea } from './run/execute';
import { listSearchMethods } from './run/listSearch';
import type { ItemPart, Special } from './run/types';
import type { Area } from './tables/spec';

/** The features of every action node, in the order their properties follow the operations'. */
const FEATURES: ReadonlyArray<DescriptionPart & ItemPart> = [simplifyFeature, customCallFeature];

/** All properties of an area's action node, the features' included (before merging repeats). */
export function areaProperties(area: Area, trailing: INodeProperties[] = []): INodeProperties[] {
	return describeProperties(area, trailing, FEATURES);
}

/** The whole node description of an area's action node. */
function areaNodeDescription(area: Area, meta: NodeMeta): INodeTypeDescription {
	return describeNode(area, meta, FEATURES);
}

/** The class of an area's node: description, pickers and execute, all from the area's tables. */
export function areaNodeClass(
	area: Area,
	meta: NodeMeta,
	specials: Record<string, Special> = {},
): new () => INodeType {
	// A table that names irregular behaviour without its handler would quietly run the standard request.
	for (const resource of area.resources) {
		for (const op of resource.operations) {
			if (op.special && !specials[op.special])
				throw new Error(
					`${area.name}: ${resource.value}.${op.value} names special "${op.special}", which has no handler`,
				);
		}
	}
	return class implements INodeType {
		description = areaNodeDescription(area, meta);

		methods = { listSearch: listSearchMethods(area) };

		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			return await executeArea(this, area, specials, FEATURES);
		}
	};
}

/** The class of a trigger node: description, pickers and poll, from the area's tables and its events. */
export function triggerNodeClass(
	area: Area,
	events: TriggerEvent[],
	meta: TriggerMeta,
): new () => INodeType {
	return class implements INodeType {
		description = triggerNodeDescription(area, events, meta);

		methods = { listSearch: listSearchMethods(area) };

		async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
			return await pollArea(this, area, events);
		}
	};
}
