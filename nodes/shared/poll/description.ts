// Polling (poll/): owns the triggers' description (their node properties); imports tables/, describe/, run/ and poll/.
/**
 * A trigger node's description, from its area's tables and its table of events: the Event,
 * the list's required fields, the status, the Filters, the date window, Max API Calls per Day
 * and the Options.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ORGANIZATION_ID } from '../describe/describe';
import { fieldProperty, inputProperty } from '../describe/fields';
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
	return op.fields.filter(
		(f) =>
			!f.required &&
			!f.readOnly &&
			!f.bodyRoot &&
			!isSortField(f) &&
			!(event.exclude ?? []).includes(f.name),
	);
}

export function requiredFields(op: Operation): Field[] {
	return op.fields.filter((f) => f.required && !f.readOnly);
}

function listOf(area: Area, event: TriggerEvent): Operation {
	return findOperation(area, event.resource, event.operation).op;
}

/** A trigger's form: organisation, event, the lists' required fields, status, Filters, date window, then the budget and Options. */
function triggerProperties(area: Area, events: TriggerEvent[]): INodeProperties[] {
	return polishProperties([
		...(area.org ? [ORGANIZATION_ID] : []),
		eventProperty(events),
		...requiredFieldProperties(area, events),
		...statusProperties(events),
		...filterProperties(area, events),
		...windowProperties(events),
		maxCallsProperty(),
		optionsProperty(),
	]);
}

function eventProperty(events: TriggerEvent[]): INodeProperties {
	const firstEvent = events[0].value;
	return {
		// n8n's name for a trigger's choice of event; the parameter keeps its name (stored workflows)
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		required: true,
		options: events
			.map((e) => ({ name: e.name, value: e.value, description: eventDescription(e) }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: firstEvent,
	};
}

/** What an event's option says: what it emits, what to check if a guess is wrong, and what Fetch Test Event shows when its records carry no time. */
function eventDescription(e: TriggerEvent): string {
	const sample = e.timeField
		? undefined
		: 'Fetch Test Event shows the first matching record as the API lists it (these records carry no creation time)';
	return [e.description, e.ifWrong, sample].filter(Boolean).join('. ');
}

/** The required fields of the events' lists: one property per field, shown for every event whose list needs it. */
function requiredFieldProperties(area: Area, events: TriggerEvent[]): INodeProperties[] {
	const required = new Map<string, { field: Field; events: string[] }>();
	for (const event of events) {
		for (const field of requiredFields(listOf(area, event))) {
			const entry = required.get(field.name) ?? { field, events: [] };
			entry.events.push(event.value);
			required.set(field.name, entry);
		}
	}
	return [...required.values()].map(({ field, events: shown }) => ({
		...inputProperty(area, field),
		required: true,
		displayOptions: { show: { event: shown } },
	}));
}

/** The status an event watches for, per event that has one. */
function statusProperties(events: TriggerEvent[]): INodeProperties[] {
	return events
		.filter((e) => e.status)
		.map((event) => {
			const status = event.status as NonNullable<TriggerEvent['status']>;
			const prop = fieldProperty({
				name: 'status',
				type: 'enum',
				required: true,
				values: status.values,
			});
			return {
				...prop,
				required: true,
				description: 'Emit a record when its status changes to this value',
				displayOptions: { show: { event: [event.value] } },
			};
		});
}

/** Each event's "Filters": its list's optional fields, for an event whose list has any. */
function filterProperties(area: Area, events: TriggerEvent[]): INodeProperties[] {
	return events.flatMap((event): INodeProperties[] => {
		const fields = filterFields(event, listOf(area, event));
		if (!fields.length) return [];
		return [
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: fields
					.map((f) => fieldProperty(f))
					.sort((a, b) => a.displayName.localeCompare(b.displayName)),
				displayOptions: { show: { event: [event.value] } },
			},
		];
	});
}

/** The date window of an event whose list can be read by date. */
function windowProperties(events: TriggerEvent[]): INodeProperties[] {
	return events
		.filter((e) => e.window)
		.map((event) => {
			const window = event.window as NonNullable<TriggerEvent['window']>;
			return {
				displayName: window.label,
				name: 'windowDays',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description: `Read only the ${window.what} dated today or in the days before it (this many days in all, in the workflow's time zone): one call a day of the window instead of one call per 200 ${window.what}. One recorded later with an older date is never emitted. 0 compares every page of the list.`,
				displayOptions: { show: { event: [event.value] } },
			};
		});
}

function maxCallsProperty(): INodeProperties {
	return {
		displayName: 'Max API Calls per Day',
		name: 'maxCallsPerDay',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_CALLS_PER_DAY,
		description:
			"Most API calls this trigger makes in a day (UTC). Polls are spaced to stay within it; a skipped poll loses nothing, the next one emits what is new since the last. The organization's daily allowance (1,000 to 10,000 by plan) is shared by every integration: raise this within it. Fetch Test Event shows what a poll costs.",
	};
}

function optionsProperty(): INodeProperties {
	return {
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
	};
}

export function triggerNodeDescription(
	area: Area,
	events: TriggerEvent[],
	meta: TriggerMeta,
): INodeTypeDescription {
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
		properties: triggerProperties(area, events).map((p) =>
			meta.propertyHints?.[p.name] ? { ...p, builderHint: meta.propertyHints[p.name] } : p,
		),
	} as INodeTypeDescription;
}
