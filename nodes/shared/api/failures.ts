/**
 * Failures the engine treats specially: the contract between the transport (which
 * detects them) and the per-item loop (which reports them per item).
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

/**
 * The API blocks further requests until `until` (epoch ms) and the run's Options say
 * not to wait. Thrown by the transport before anything more is sent; the per-item loop
 * stops starting items and reports which items were done and which were not sent.
 */
export class RateLimitBlockedError extends NodeApiError {
	readonly until: number;

	constructor(node: INode, until: number, itemIndex?: number) {
		const lifts = new Date(until).toISOString().replace(/\.\d{3}Z$/, 'Z');
		super(
			node,
			{ message: 'Rate limit block', httpCode: '429' },
			{
				message: `The Vendor API blocks further requests until ${lifts}`,
				description:
					'The rate limit was used up (perhaps by another client sharing it). Run again after the block lifts, or set Options → On Rate-Limit Block to "Wait Until It Lifts".',
				httpCode: '429',
				itemIndex,
			},
		);
		this.until = until;
	}
}
