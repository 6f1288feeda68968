/**
 * A trigger's date filter given as a moment (a DateTime or a Date from an expression) is the day
 * it falls on in the workflow's time zone, as in the action nodes (README "Updates change only
 * what you set", docs/BEHAVIOUR.md); ISO text is the day written. Every date filter of every
 * trigger event, read by Fetch Test Event (one call) in a Los Angeles workflow.
 * Run: npx jest test/workflows/trigger-dates
 */
import { VendorOAuth2Api } from '../../credentials/VendorOAuth2Api.credentials';
import { filterFields } from '../../nodes/shared/poll/description';
import { pollOnce } from '../../harness';
import { triggerEvents } from '../tools/trigger-tables';
import { byId, vendorNode } from '../../harness/workflows';
import { useWorkflowEnv } from './support';

const env = useWorkflowEnv({ demo: true });
const ZONE = 'America/Los_Angeles';
/** 18:30 on 5 March in Los Angeles, already 6 March in UTC. */
const MOMENTS: Array<[string, string]> = [
	['a DateTime', "={{ DateTime.fromISO('2026-03-06T02:30:00Z') }}"],
	['a Date', "={{ new Date('2026-03-06T02:30:00Z') }}"],
	['ISO text with an offset', '2026-03-05T18:30:00-08:00'],
];

const CASES = triggerEvents().flatMap(({ type, area, event, list }) =>
	filterFields(event, list)
		.filter((f) => f.type === 'date')
		.flatMap((field) =>
			MOMENTS.map(
				([how, value]) =>
					[
						`${area.value} ${event.value} ${field.name}`,
						how,
						type,
						area,
						event,
						field.name,
						value,
					] as const,
			),
		),
);

test('there are date filters to check', () => expect(CASES.length).toBeGreaterThan(0));

test.each(CASES)(
	"%s given as %s: sent as the day in the workflow's zone",
	async (_name, _how, type, area, event, field, value) => {
		env.em.clearRequests();
		const place = area.org ? { organizationId: byId(env.org) } : { portal_id: byId(env.portal) };
		const status = event.status ? { status: event.status.values[0] } : {};
		const node = vendorNode(
			type,
			{ ...place, event: event.value, ...status, filters: { [field]: value } },
			'Trigger',
		);
		await pollOnce({
			nodeType: type,
			node,
			credentials: env.credentials,
			credentialTypes: [VendorOAuth2Api],
			mode: 'manual',
			settings: { timezone: ZONE },
		});
		const sent = env.apiRequests().map((r) => r.query[field]);
		expect(sent.length).toBeGreaterThan(0);
		expect(sent.every((v) => v === '2026-03-05')).toBe(true);
	},
);
