/**
 * What the harness adapted to in the n8n-core / n8n-workflow it runs on. The harness runs on the
 * project's own n8n-core and, in the version matrix (test/matrix/), on each target release's:
 * differences are found by feature detection (an export, a method, a sync or async API), never
 * by version numbers, and each adaptation made is noted here once, for the matrix's report.
 */
const adaptations = new Set<string>();

export function noteAdaptation(what: string): void {
	adaptations.add(what);
}

/** The adaptations made so far in this process, in the order first made. */
export function harnessAdaptations(): string[] {
	return [...adaptations];
}
