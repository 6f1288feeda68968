/**
 * The five trigger nodes with their area's tables and their events tables: what the suites
 * generated over every trigger event iterate.
 */
import type { INodeType } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/shared/poll/event';
import type { Area, Operation, Resource } from '../../nodes/shared/tables/spec';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { billingEvents } from '../../nodes/VendorBillingTrigger/events';
import { VendorBillingTrigger } from '../../nodes/VendorBillingTrigger/VendorBillingTrigger.node';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { booksEvents } from '../../nodes/VendorBooksTrigger/events';
import { VendorBooksTrigger } from '../../nodes/VendorBooksTrigger/VendorBooksTrigger.node';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { inventoryEvents } from '../../nodes/VendorInventoryTrigger/events';
import { VendorInventoryTrigger } from '../../nodes/VendorInventoryTrigger/VendorInventoryTrigger.node';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { invoiceEvents } from '../../nodes/VendorInvoiceTrigger/events';
import { VendorInvoiceTrigger } from '../../nodes/VendorInvoiceTrigger/VendorInvoiceTrigger.node';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import { projectsEvents } from '../../nodes/VendorProjectsTrigger/events';
import { VendorProjectsTrigger } from '../../nodes/VendorProjectsTrigger/VendorProjectsTrigger.node';

interface TriggerTable {
	type: new () => INodeType;
	/** The node type's name, e.g. `vendorBooksTrigger`. */
	name: string;
	area: Area;
	events: TriggerEvent[];
}

export const TRIGGER_TABLES: readonly TriggerTable[] = [
	{ type: VendorBooksTrigger, name: 'vendorBooksTrigger', area: booksArea, events: booksEvents },
	{
		type: VendorInvoiceTrigger,
		name: 'vendorInvoiceTrigger',
		area: invoiceArea,
		events: invoiceEvents,
	},
	{
		type: VendorProjectsTrigger,
		name: 'vendorProjectsTrigger',
		area: projectsArea,
		events: projectsEvents,
	},
	{
		type: VendorBillingTrigger,
		name: 'vendorBillingTrigger',
		area: billingArea,
		events: billingEvents,
	},
	{
		type: VendorInventoryTrigger,
		name: 'vendorInventoryTrigger',
		area: inventoryArea,
		events: inventoryEvents,
	},
];

interface TriggerEventCase extends TriggerTable {
	event: TriggerEvent;
	/** The resource the event watches and its list operation. */
	resource: Resource;
	list: Operation;
}

/** Every event of every trigger node, with the resource it watches and its list. */
export function triggerEvents(): TriggerEventCase[] {
	return TRIGGER_TABLES.flatMap((t) =>
		t.events.map((event) => {
			const resource = t.area.resources.find((r) => r.value === event.resource);
			const list = resource?.operations.find((o) => o.value === event.operation);
			if (!resource || !list)
				throw new Error(
					`${t.name}: event ${event.value} names no list ${event.resource}.${event.operation}`,
				);
			return { ...t, event, resource, list };
		}),
	);
}
