/** The areas' value formats: timestamps, days, money amounts, comma-separated ids. */

/** `2026-01-31T09:30:00+0000`: the accounting areas' timestamps. */
export function timestamp(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** `2026-01-31T09:30:00.000Z`: bills and project-management timestamps. */
export function timestampMs(ms: number): string {
	return new Date(ms).toISOString();
}

/** `yyyy-mm-dd` of `ms` shifted by `days`. */
export function day(ms: number, days = 0): string {
	return new Date(ms + days * 86_400_000).toISOString().slice(0, 10);
}

export function money(n: number): number {
	return Math.round(n * 100) / 100;
}

/** The ids of a comma-separated query parameter. */
export function idList(value: string | undefined): string[] {
	return (value ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter((s) => s !== '');
}
