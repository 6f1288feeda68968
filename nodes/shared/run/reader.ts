// Running an item (run/): reads an item's operation and values (once per run when no parameter is an expression) and checks them.
/**
 * An item's resource, operation, values and settings as its parameters give them, and the
 * check of its values against the table's rules before anything is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { inputFailure } from '../api/nodeErrors';
import { isExpression, readValues } from '../api/request';
import { InputError } from '../tables/inputError';
import type { Area, Operation, Resource } from '../tables/spec';
import { UNSAFE_ID } from '../tables/ids';
import { checkValues } from '../tables/validate';
import type { ItemPart } from './types';

export function findOperation(
	area: Area,
	resourceValue: string,
	operationValue: string,
): { resource: Resource; op: Operation } {
	const resource = area.resources.find((r) => r.value === resourceValue);
	const op = resource?.operations.find((o) => o.value === operationValue);
	if (!resource || !op)
		throw new InputError(`Unknown operation "${operationValue}" of resource "${resourceValue}"`);
	return { resource, op };
}

/** Refuses values that break a table rule, naming each field and rule; nothing is sent. */
export function assertValid(
	ctx: IExecuteFunctions,
	op: Operation,
	values: IDataObject,
	itemIndex: number,
): void {
	try {
		checkValues(op, values);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { itemIndex });
	}
}

/** An item's operation and values as its parameters give them (before any read of the record). */
interface ItemPlan {
	resource: Resource;
	op: Operation;
	values: IDataObject;
	organizationId?: string;
}

/**
 * The item's Organization ID as text. One given as a number (an expression) is its digits; a
 * number past 2^53 is refused, as for every ID: its digits were lost before the node saw it.
 */
function organizationOf(ctx: IExecuteFunctions, itemIndex: number): string {
	const given = ctx.getNodeParameter('organizationId', itemIndex, '', { extractValue: true });
	if (typeof given === 'number' && Number.isInteger(given) && !Number.isSafeInteger(given))
		throw new InputError(`Organization ID ${UNSAFE_ID} (got ${String(given)})`);
	const organizationId = String(given ?? '').trim();
	if (!organizationId) throw new InputError('Organization ID is required');
	return organizationId;
}

/** Whether any parameter (at any depth) is an expression: n8n marks one with a leading `=`. */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return isExpression(value);
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * How a node run reads its items. When no parameter is an expression every item reads what
 * item 0 reads, so the operation, its values and their check are read once per run, not per
 * item (n8n resolves and copies each parameter on every read). A failed read is not kept:
 * each item then reports its own error.
 */
export class ItemReader {
	/** Every item reads the same parameters. */
	private readonly same: boolean;

	private taker?: { part: ItemPart | undefined };

	private plan?: ItemPlan;

	/** Values objects checked already (the same object is the same values). */
	private readonly checked = new WeakSet<IDataObject>();

	/** Plain parameters read already, by name (only when every item reads the same). */
	private readonly settings = new Map<string, unknown>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly area: Area,
		private readonly parts: readonly ItemPart[],
	) {
		this.same = !hasExpression(ctx.getNode().parameters);
	}

	/** The part that runs this item itself (Custom API Call), if one does. */
	takerOf(itemIndex: number): ItemPart | undefined {
		if (this.taker) return this.taker.part;
		const part = this.parts.find((p) => p.run && p.takes?.(this.ctx, itemIndex));
		if (this.same) this.taker = { part };
		return part;
	}

	/** The item's operation and values (read once when every item reads the same). */
	planOf(itemIndex: number): ItemPlan {
		if (this.plan) return this.plan;
		const { ctx, area } = this;
		const { resource, op } = findOperation(
			area,
			ctx.getNodeParameter('resource', itemIndex) as string,
			ctx.getNodeParameter('operation', itemIndex) as string,
		);
		const values = readValues(ctx, itemIndex, op);
		let organizationId: string | undefined;
		if (area.org) organizationId = organizationOf(ctx, itemIndex);
		const plan = { resource, op, values, organizationId };
		if (this.same) this.plan = plan;
		return plan;
	}

	/** A plain parameter (string, number, boolean) of the item; every caller of a name gives the same fallback. */
	setting(name: string, itemIndex: number, fallback: unknown): unknown {
		if (this.settings.has(name)) return this.settings.get(name);
		const value = this.ctx.getNodeParameter(name, itemIndex, fallback);
		if (this.same && (value === null || typeof value !== 'object')) this.settings.set(name, value);
		return value;
	}

	/** Refuses values that break a table rule (each values object is checked once). */
	check(op: Operation, values: IDataObject, itemIndex: number): void {
		if (this.checked.has(values)) return;
		assertValid(this.ctx, op, values, itemIndex);
		this.checked.add(values);
	}
}
