/**
 * Faults on demand. `faults.next(n, fault, scope?)` makes the next `n` matching requests
 * fail in the given way; queued faults are used first-in, first-out.
 *
 * - `status`: answer at once with that status (429 / 500 / 503) and the area's error body
 *   (or `body`); `retryAfter` (seconds) adds a `Retry-After` header. Nothing is processed.
 * - `hang`: wait `ms` milliseconds, then process and answer normally (a slow server; a
 *   client that gives up earlier sees a timeout while the request is still processed).
 * - `drop`: destroy the connection without processing or answering.
 * - `dropAfterCommit`: process the request (writes are kept), then destroy the connection
 *   instead of answering.
 * - `noPageContext`: process and answer normally, without the list's `page_context` (a
 *   server whose lists do not page the way the documents show for other lists); with
 *   `ignorePage`, every call answers the first page whatever `page` asks.
 *
 * Scope: none = every request to the API areas (not the accounts server); a string = an
 * operation id (`books.item.create`), an area (`books`, `projects`, ...) or `accounts`
 * (the OAuth endpoints); or a predicate over the recorded request.
 */

export type Fault =
	| { kind: 'status'; status: 429 | 500 | 503; body?: unknown; retryAfter?: number }
	| { kind: 'hang'; ms: number }
	| { kind: 'drop' }
	| { kind: 'dropAfterCommit' }
	| { kind: 'noPageContext'; ignorePage?: boolean };

/** What a fault scope sees of a request. */
export interface FaultTarget {
	method: string;
	path: string;
	region: string;
	/** Area value, or `accounts` for the OAuth endpoints. */
	area?: string;
	operation?: string;
}

export type FaultScope = string | ((req: FaultTarget) => boolean);

interface Queued {
	fault: Fault;
	remaining: number;
	scope?: FaultScope;
}

export class Faults {
	private queue: Queued[] = [];

	/** The next `n` requests matching `scope` get `fault`. */
	next(n: number, fault: Fault, scope?: FaultScope): void {
		if (!Number.isInteger(n) || n < 1) throw new RangeError(`faults.next: n must be a positive integer, got ${n}`);
		this.queue.push({ fault, remaining: n, scope });
	}

	/** Removes every queued fault. */
	clear(): void {
		this.queue = [];
	}

	/** Queued faults (for the admin route). */
	pending(): Array<{ fault: Fault; remaining: number; scope?: string }> {
		return this.queue.map((q) => ({
			fault: q.fault,
			remaining: q.remaining,
			scope: typeof q.scope === 'function' ? '(predicate)' : q.scope,
		}));
	}

	/** Takes the fault for a request, if one applies (used by the server). */
	take(target: FaultTarget): Fault | undefined {
		const q = this.queue.find((x) => x.remaining > 0 && matches(x.scope, target));
		if (!q) return undefined;
		q.remaining -= 1;
		this.queue = this.queue.filter((x) => x.remaining > 0);
		return q.fault;
	}
}

function matches(scope: FaultScope | undefined, t: FaultTarget): boolean {
	if (scope === undefined) return t.area !== undefined && t.area !== 'accounts';
	if (typeof scope === 'function') return scope(t);
	return scope === t.operation || scope === t.area;
}

/** Checks a fault given as JSON (admin route). Returns an error message or undefined. */
export function checkFault(value: unknown): string | undefined {
	const f = value as Partial<Fault> | undefined;
	if (!f || typeof f !== 'object') return 'fault must be an object';
	switch (f.kind) {
		case 'status': {
			const s = (f as { status?: unknown }).status;
			return s === 429 || s === 500 || s === 503 ? undefined : 'status must be 429, 500 or 503';
		}
		case 'hang': {
			const ms = (f as { ms?: unknown }).ms;
			return typeof ms === 'number' && ms >= 0 ? undefined : 'hang needs ms >= 0';
		}
		case 'drop':
		case 'dropAfterCommit':
		case 'noPageContext':
			return undefined;
		default:
			return 'kind must be status, hang, drop, dropAfterCommit or noPageContext';
	}
}
