// Polling (poll/): owns the triggers' description (their node properties); imports tables/, describe/, run/ and poll/.
/**
 * A trigger node's description, from its area's tables and its table of events: the Event,
 * the list's required fields, the status, the Filters, the date window, Max API Calls per Day
 * and the Options.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { fieldProperty, inputProperty, ORGANIZATION_ID } from '../describe/describe';
import type { NodeMeta } from '../describe/describe';
import { polishProperties } from '../describe/texts';
import { findOperation } from '../run/reader';
import { isSortField } from '../tables/naming';
import type { Area, Field, Operation } from '../tables/spec';
import { DEFAULT_MAX_CALLS_PER_DAY } from './budget';
import type { TriggerEvent } from './event';

/** builderHint, propertyHints: as for an action node (NodeMeta). */
export interface TriggerMeta extends Pick<NodeMeta, 'builderHint' | 'propertyHints'> {
	/** Node type name, e.g. `vendorBooksTrigger`. */
	name: string;
	/** Icon base name in the node folder. */
	icon: string;
	description: string;
}

/** The list's fields offered in the event's "Filters" collection (a trigger's sort is its event's own, never offered). */
export function filterFields(event: TriggerEvent, op: Operation): Field[] {
	return op.fields.filter((f) => !f.required && !f.readOnly && !f.bodyRoot && !isSortField(f) && !(event.exclude ?? []).includes(f.name));
}

export function requiredFields(op: Operation): Field[] {
	return op.fields.filter((f) => f.required && !f.readOnly);
}

function listOf(area: Area, event: TriggerEvent): Operation {
	return findOperation(area, event.resource, event.operation).op;
}

export function triggerProperties(area: Area, events: TriggerEvent[]): INodeProperties[] {
	const props: INodeProperties[] = [];
	if (area.org) props.push(ORGANIZATION_ID);
	const firstEvent = events[0].value;
	props.push({
		// n8n's name for a trigger's choice of event; the parameter keeps its name (stored workflows)
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		options: events.map((e) => ({ name: e.name, value: e.value, description: e.ifWrong ? `${e.description}. ${e.ifWrong}` : e.description })).sort((a, b) => a.name.localeCompare(b.name)),
		default: firstEvent,
	});
	const required = new Map<string, { field: Field; events: string[] }>();
	for (const event of events) {
		for (const field of requiredFields(listOf(area, event))) {
			const entry = required.get(field.name) ?? { field, events: [] };
			entry.events.push(event.value);
			required.set(field.name, entry);
		}
	}
	for (const { field, events: shown } of required.values()) {
		props.push({ ...inputProperty(area, field), required: true, displayOptions: { show: { event: shown } } });
	}
	for (const event of events.filter((e) => e.status)) {
		const status = event.status as NonNullable<TriggerEvent['status']>;
		const prop = fieldProperty({ name: 'status', type: 'enum', required: true, values: status.values });
		props.push({
			...prop,
			required: true,
			description: 'Emit a record when its status changes to this value',
			displayOptions: { show: { event: [event.value] } },
		});
	}
	for (const event of events) {
		const fields = filterFields(event, listOf(area, event));
		if (!fields.length) continue;
		props.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: fields.map((f) => fieldProperty(f)).sort((a, b) => a.displayName.localeCompare(b.displayName)),
			displayOptions: { show: { event: [event.value] } },
		});
	}
	for (const event of events.filter((e) => e.window)) {
		const window = event.window as NonNullable<TriggerEvent['window']>;
		props.push({
			displayName: window.label,
			name: 'windowDays',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description: `Read only the ${window.what} dated today or in the days before it (this many days in all, in the workflow's time zone): one call a day of the window instead of one call per 200 ${window.what}. One recorded later with an older date is never emitted. 0 compares every page of the list.`,
			displayOptions: { show: { event: [event.value] } },
		});
	}
	props.push({
		displayName: 'Max API Calls per Day',
		name: 'maxCallsPerDay',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_CALLS_PER_DAY,
		description:
			"Most API calls this trigger makes in a day (UTC). Polls are spaced to stay within it; a skipped poll loses nothing, the next one emits what is new since the last. The organization's daily allowance (1,000 to 10,000 by plan) is shared by every integration: raise this within it. Fetch Test Event shows what a poll costs.",
	});
	props.push({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Start From Existing Records',
				name: 'startFromExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after activation emits the records that already match the event. Off: only what happens after activation is emitted.',
			},
		],
	});
	return polishProperties(props);
}

export function triggerNodeDescription(area: Area, events: TriggerEvent[], meta: TriggerMeta): INodeTypeDescription {
	return {
		displayName: `${area.name} Trigger`,
		name: meta.name,
		icon: { light: `file:${meta.icon}.svg`, dark: `file:${meta.icon}.dark.svg` },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: meta.description,
		eventTriggerDescription: '',
		defaults: { name: `${area.name} Trigger` },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		...(meta.builderHint && { builderHint: meta.builderHint }),
		credentials: [{ name: 'vendorOAuth2Api', required: true }],
		properties: triggerProperties(area, events).map((p) => (meta.propertyHints?.[p.name] ? { ...p, builderHint: meta.propertyHints[p.name] } : p)),
	} as INodeTypeDescription;
}
