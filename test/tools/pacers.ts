/** The process's pacers forgotten between cases: each case starts from a service that has not answered yet. */
import { getPacingRule, setPacingRule } from '../../nodes/shared/api/pacing';

/** Forgets every hold and block the pacers learned (their rules stay). */
export function resetPacers(): void {
	for (const area of ['projects', 'accounting'] as const) setPacingRule(getPacingRule(area), area);
}
