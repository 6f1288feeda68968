/**
 * The n8n releases the version matrix (matrix.test.ts) runs the packed package on, each with
 * the exact n8n-core, n8n-workflow and zod that release ships (read from the registry: the
 * `n8n` package's dependencies at that version). A community package gets n8n's own
 * n8n-workflow and zod through NODE_PATH, so these three are what the package meets there.
 *
 * Kept as data so that the README's list of supported releases can be checked against it.
 */
export interface N8nRelease {
	/** The n8n release (the `n8n` package's version). */
	n8n: string;
	/** The `n8n-core` that release depends on. */
	n8nCore: string;
	/** The `n8n-workflow` that release depends on. */
	n8nWorkflow: string;
	/** The `zod` that release depends on (directly: the one a community package resolves). */
	zod: string;
	/** Why it is in the matrix. */
	role: string;
}

export const N8N_RELEASES: readonly N8nRelease[] = [
	{
		n8n: '1.100.1',
		n8nCore: '1.99.0',
		n8nWorkflow: '1.97.0',
		zod: '3.25.67',
		role: 'oldest supported',
	},
	{
		n8n: '1.123.81',
		n8nCore: '1.122.48',
		n8nWorkflow: '1.120.31',
		zod: '3.25.67',
		role: 'newest 1.x',
	},
	{ n8n: '2.20.12', n8nCore: '2.20.6', n8nWorkflow: '2.20.3', zod: '3.25.67', role: '2.x' },
	{
		n8n: '2.40.7',
		n8nCore: '2.40.3',
		n8nWorkflow: '2.40.1',
		zod: '3.25.76',
		role: '2.40, the line before 2.41',
	},
	{
		n8n: '2.41.1',
		n8nCore: '2.41.1',
		n8nWorkflow: '2.41.0',
		zod: '3.25.76',
		role: 'newest 2.x complete on the registry',
	},
];

/** The three packages to install for a release, as `npm install` arguments (`name@version`). */
export function packagesOf(release: N8nRelease): string[] {
	return [
		`n8n-core@${release.n8nCore}`,
		`n8n-workflow@${release.n8nWorkflow}`,
		`zod@${release.zod}`,
	];
}
