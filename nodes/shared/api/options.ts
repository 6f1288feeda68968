/**
 * The action nodes' Options collection: how one run behaves under production load
 * (requests in flight, request timeout, what a rate-limit block does). Read once per
 * execution, by its run state (api/run.ts); triggers and pickers use the defaults.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

export const DEFAULT_REQUESTS_IN_FLIGHT = 10;
const MAX_REQUESTS_IN_FLIGHT = 50;
export const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 290;

type OnRateLimitBlock = 'fail' | 'wait';

export interface RunOptions {
	/** Requests of this node in flight at once, across items and batches (1..MAX_REQUESTS_IN_FLIGHT). */
	requestsInFlight: number;
	/** How long one request may take. */
	timeoutMs: number;
	/** A rate-limit block (429 without Retry-After, or a block longer than a short wait): end the run, or wait it out. */
	onRateLimitBlock: OnRateLimitBlock;
}

export const RUN_OPTIONS_PROPERTY: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'On Rate-Limit Block',
			name: 'onRateLimitBlock',
			type: 'options',
			options: [
				{
					name: 'Stop With an Error',
					value: 'fail',
					description:
						'End the run with an error that says when the block lifts, which items were done and which were not sent',
				},
				{
					name: 'Wait Until It Lifts',
					value: 'wait',
					description:
						'Wait out the block (up to 30 minutes for Vendor Projects), then go on; stopping the execution ends the wait',
				},
			],
			default: 'fail',
			description:
				'What to do when the API blocks further requests for a while (HTTP 429): Vendor Projects past its limit, or any area asking for a wait of more than a minute. A wait of a minute or less is always waited.',
		},
		{
			displayName: 'Requests in Flight',
			name: 'requestsInFlight',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_REQUESTS_IN_FLIGHT },
			default: DEFAULT_REQUESTS_IN_FLIGHT,
			description:
				"How many requests this node sends at once, across items and batches (at most 50). Output order and item pairing stay as the input. Each area still keeps to its pace: Vendor Projects 100 requests per 2 minutes, the others the credential's Accounting Requests per Minute per organization.",
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_SECONDS },
			default: DEFAULT_TIMEOUT_SECONDS,
			description:
				'How long one request may take. A read that times out is retried; a write that times out is reported as "outcome unknown" and never repeated.',
		},
	],
};

function clamp(value: unknown, min: number, max: number, fallback: number): number {
	const n = Number(value);
	if (!Number.isFinite(n)) return fallback;
	return Math.min(max, Math.max(min, Math.floor(n)));
}

/**
 * The run's options: from the node's Options collection in an action node's execution
 * (at item 0), the defaults in triggers and pickers. Read once per run, by the run state.
 */
export function readRunOptions(ctx: object): RunOptions {
	let raw: IDataObject = {};
	if (typeof (ctx as Partial<IExecuteFunctions>).getInputData === 'function') {
		raw = ((ctx as IExecuteFunctions).getNodeParameter('options', 0, {}) as IDataObject) ?? {};
	}
	const options: RunOptions = {
		requestsInFlight: clamp(
			raw.requestsInFlight,
			1,
			MAX_REQUESTS_IN_FLIGHT,
			DEFAULT_REQUESTS_IN_FLIGHT,
		),
		timeoutMs: clamp(raw.timeout, 1, MAX_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS) * 1000,
		onRateLimitBlock: raw.onRateLimitBlock === 'wait' ? 'wait' : 'fail',
	};
	return options;
}
