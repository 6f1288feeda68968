// Running an item (run/): the types the item loop, the standard operation and the features share.
/**
 * What one item's operation is when it runs (`OperationRun`), what a feature plugs into the
 * item loop (`ItemPart`) and what a hand-written operation is (`Special`): apart from the
 * files that use them, so the loop and the standard operation import no circle.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { RunState } from '../api/run';
import type { Area, Operation, Resource } from '../tables/spec';

export interface OperationRun {
	/** The state of the node run this item is part of (api/run.ts): every request of the item is sent with it. */
	state: RunState<IExecuteFunctions>;
	area: Area;
	resource: Resource;
	op: Operation;
	/** The operation's values in API shape, validated. */
	values: IDataObject;
	organizationId?: string;
	itemIndex: number;
	/** The parts plugged into the loop; their `shapeOutput` shapes the standard output. */
	parts?: readonly ItemPart[];
	/** A plain parameter of this item (string, number or boolean), read once per run when every item reads the same. */
	setting: (name: string, fallback: unknown) => unknown;
}

/**
 * What a feature (Custom API Call, Simplify) adds to the item loop, plugged in by the
 * composition root: an item it runs itself instead of an operation (`takes` / `run`), or a
 * last shaping of an operation's standard output.
 */
export interface ItemPart {
	takes?(ctx: IExecuteFunctions, itemIndex: number): boolean;
	run?(
		state: RunState<IExecuteFunctions>,
		area: Area,
		itemIndex: number,
	): Promise<INodeExecutionData[]>;
	shapeOutput?(
		ctx: IExecuteFunctions,
		run: OperationRun,
		out: INodeExecutionData[],
	): INodeExecutionData[];
}

/** Hand-written behaviour for an operation marked `special` in its table. */
export type Special = (ctx: IExecuteFunctions, run: OperationRun) => Promise<INodeExecutionData[]>;
