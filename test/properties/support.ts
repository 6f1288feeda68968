/**
 * What the property tests share: how many cases a property runs (small in `npm test`, times
 * VENDOR_FUZZ_FACTOR in `npm run fuzz`), the fixed seed, the table operations and the input
 * generated for them (the emulator's demo records), the operation's own call as a proxy sees it,
 * the output predicates, and the secrets that must never reach an output or another host.
 *
 * Properties run the package on n8n's engine (harness/) against the emulator through the
 * answer proxy (test/tools/answer-proxy.ts), which rewrites the answers of the operation's own call.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { HarnessCredential, RunResult } from '../../harness';
import { process } from '../../host/globals';
import { nodeParameters, NODE_OF, tableOperations } from '../tools/table-inputs';
import type { TableOperation } from '../tools/table-inputs';
import { steps } from '../../harness/workflows';
import type { Step } from '../../harness/workflows';
import type { WorkflowEnv } from '../workflows/support';

// ---------------------------------------------------------------- how many cases

/** `npm run fuzz` sets it to 100: every property runs that many times more cases. */
const FUZZ_FACTOR = Math.max(1, Number(process.env.VENDOR_FUZZ_FACTOR ?? 1) || 1);

/** The fixed seed of `npm test` (a fuzz run may pass VENDOR_FUZZ_SEED to try others). */
const SEED = Number(process.env.VENDOR_FUZZ_SEED ?? 20260742);

/** `base` cases, times the fuzz factor. */
const runs = (base: number): number => base * FUZZ_FACTOR;

// A fuzz run's properties take FUZZ_FACTOR times as long: so may each test.
if (FUZZ_FACTOR > 1) jest.setTimeout(60_000 * FUZZ_FACTOR);

/**
 * Checks an async property with the fixed seed and `base` cases (times the fuzz factor). A failure
 * is reported with its counterexample at once (no shrinking: the cases are whole workflow runs),
 * to be written down as a named regression case.
 */
export async function holds<T>(
	arbitrary: fc.Arbitrary<T>,
	predicate: (value: T) => Promise<void>,
	base: number,
	examples: T[] = [],
): Promise<void> {
	await fc.assert(fc.asyncProperty(arbitrary, predicate), {
		seed: SEED,
		numRuns: runs(base),
		endOnFailure: true,
		examples: examples.map((e) => [e] as [T]),
	});
}

/** How many cases a property really checked, and how many could not be checked (the emulator's answer was no success, the call never made). */
export interface Tally {
	checked: number;
	vacuous: number;
}

/**
 * Counts a case: `null` when it could not be checked (vacuous), else throws its violations if
 * any. A property whose cases are mostly vacuous proves nothing: see `enoughChecked`.
 */
export function tallied(tally: Tally, found: string[] | null, what: unknown): void {
	if (found === null) {
		tally.vacuous++;
		return;
	}
	tally.checked++;
	noViolations(found, what);
}

/** At least half the cases of a property were really checked. */
export function enoughChecked(tally: Tally): void {
	expect({ ...tally, enough: tally.checked >= tally.vacuous }).toEqual({ ...tally, enough: true });
}

/** Throws the violations found (one line each), if any. */
export function noViolations(found: string[], what: unknown): void {
	if (found.length)
		throw new Error(
			`${found.join('\n')}\n  case: ${JSON.stringify(what, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)).slice(0, 600)}`,
		);
}

// ---------------------------------------------------------------- the operations and their input

export const OPERATIONS = tableOperations();
export const opById = (id: string): TableOperation => {
	const found = OPERATIONS.find((t) => t.id === id);
	if (!found) throw new Error(`no operation ${id}`);
	return found;
};

export { valuesOf } from '../tools/demo-values';

export const NODE = 'Node';
export const onError = { onError: 'continueRegularOutput' } as const;

/** The step running the operation (Return All on lists). */
export function stepOf(
	env: WorkflowEnv,
	t: TableOperation,
	values: IDataObject,
	settings = {},
	extra: IDataObject = {},
): Step {
	const base = t.area.org ? { organizationId: env.org } : {};
	const list = t.op.kind === 'list' ? { returnAll: true } : {};
	return steps(NODE_OF[t.area.value], base)(
		NODE,
		nodeParameters(t, values, { ...list, ...extra }),
		settings,
	);
}

// ---------------------------------------------------------------- the operation's own call

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a proxied request is the operation's own call (not a read made before it, not a token call). */
export function isOwnCall(t: TableOperation): (r: { method: string; path: string }) => boolean {
	const root = t.area.family === 'projects' ? '/us/projects' : '/us/api';
	const path = new RegExp(
		`^${escape(`${root}${t.area.basePath}${t.op.path}`).replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`,
	);
	return (r) => r.method === t.op.method && path.test(r.path);
}

/** Whether a proxied request went to an API area (not the accounts server). */
export const isApiCall = (r: { path: string }): boolean =>
	/^\/[a-z]+\/(api|projects)\//.test(r.path);

// ---------------------------------------------------------------- outputs

export const isErrorItem = (item: INodeExecutionData): boolean =>
	typeof item.json.error === 'string';

/** The input item indexes an output item is paired with. */
export function pairedIndexes(item: INodeExecutionData): number[] {
	const paired = item.pairedItem;
	if (paired === undefined) return [];
	if (typeof paired === 'number') return [paired];
	return (Array.isArray(paired) ? paired : [paired]).map((p) => p.item);
}

/** Message and description of an error item or a thrown error. */
export function errorText(source: INodeExecutionData | Error | undefined): string {
	if (!source) return '';
	if ('json' in source)
		return `${String(source.json.error ?? '')} ${String(source.json.description ?? '')}`;
	return `${source.message} ${String((source as { description?: string }).description ?? '')}`;
}

/** The node's error or the run's. */
export const thrown = (result: RunResult): Error | undefined =>
	result.error(NODE) ?? result.error();

/** Everything a run shows a user: every output item of the node and its error. */
export function shownText(result: RunResult): string {
	const error = thrown(result);
	return `${JSON.stringify(result.output(NODE).map((i) => i.json))} ${errorText(error)} ${JSON.stringify(error ?? {})}`;
}

// ---------------------------------------------------------------- secrets

/** The client secret, access and refresh tokens of the credential, as they are now (refreshes change them). */
export function secretsOf(credential: HarnessCredential): string[] {
	const data = credential.data as IDataObject;
	const token = (data.oauthTokenData ?? {}) as IDataObject;
	return [data.clientSecret, token.access_token, token.refresh_token].filter(
		(s): s is string => typeof s === 'string' && s.length >= 8,
	);
}

/** The secrets a text holds. */
export const leaked = (text: string, secrets: string[]): string[] =>
	secrets.filter((s) => text.includes(s));

// ---------------------------------------------------------------- a virtual clock

export { useVirtualClock } from '../tools/virtual-clock';

// ---------------------------------------------------------------- generators

/** Ids as the service may give them: small, around 2^53, 18-19 digits (as real accounts carry), as decimal text. */
export const idDigits: fc.Arbitrary<string> = fc
	.oneof(
		fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }),
		fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 53n + 1000n }),
		fc.bigInt({ min: 10n ** 17n, max: 10n ** 19n - 1n }),
		fc.constant(1752587000000097005n),
	)
	.map((n) => n.toString());

/** A 19-digit id past 2^53, as real records have: always tried first where ids are generated. */
export const BIG_ID = '1752587000000097005';
