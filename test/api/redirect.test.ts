/**
 * The token stays home, through n8n-core's own request helper: an API
 * address that answers a redirect to another local server (with the token echoed in the
 * Location's query) is never followed. The other server receives nothing (no Authorization, no
 * body); the request ends with an error naming the host and path it pointed at, never its query,
 * and saying what to check; a write so refused is not "Outcome unknown" (nothing was processed).
 * A control shows that n8n's helper itself follows such a redirect with the token and the body,
 * so the test would see a request that followed.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { isOutcomeUnknown, isTransientFailure } from '../../nodes/shared/api/failureKinds';
import { vendorRequest } from '../../nodes/shared/api/transport';
import { booksArea } from '../../nodes/VendorBooks/tables';
import * as http from '../../host/http';
import type { AddressInfo } from '../../host/net';
import { startWireServer, type WireServer } from '../tools/wire-server';
import { n8nHttpRequest, testContext, SIGNING_VALUE } from './support';

let other: WireServer;
let api: http.Server;
let apiUrl = '';
const apiCalls: Array<{ method: string; url: string }> = [];
/** The status the API server answers with. */
let status = 302;

beforeAll(async () => {
	other = await startWireServer();
	api = http.createServer((req, res) => {
		apiCalls.push({ method: req.method ?? 'GET', url: req.url ?? '/' });
		req.resume();
		req.on('end', () => {
			res.writeHead(status, {
				Location: `${other.url}/books/v3/elsewhere?access_token=${SIGNING_VALUE}&organization_id=1`,
				'Content-Type': 'text/html',
				'Content-Length': '0',
			});
			res.end();
		});
	});
	await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', () => resolve()));
	apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
	api.closeAllConnections();
	await new Promise<void>((resolve) => api.close(() => resolve()));
	await other.close();
});

beforeEach(() => {
	other.received.length = 0;
	apiCalls.length = 0;
});

const cases: Array<[number, 'GET' | 'POST' | 'PUT' | 'DELETE']> = [
	[301, 'GET'],
	[302, 'GET'],
	[303, 'POST'],
	[307, 'POST'],
	[307, 'PUT'],
	[308, 'DELETE'],
	[302, 'POST'],
];

test.each(cases)(
	'HTTP %i on a %s: not followed, nothing reaches the other host, the error names where it pointed',
	async (code, method) => {
		status = code;
		const { run } = testContext(apiUrl);
		const body = method === 'GET' ? undefined : { name: 'Widget', secret_note: 'do not forward' };
		const error = await vendorRequest(run, booksArea, {
			method,
			path: '/items',
			qs: { organization_id: '1' },
			headers: {},
			body,
		}).then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(other.received).toEqual([]);
		expect(apiCalls).toHaveLength(1);
		expect(error).toBeDefined();
		const host = new URL(other.url).host;
		expect(error!.message).toBe(
			`The Vendor API answered HTTP ${code}, a redirect to ${host}/books/v3/elsewhere, which was not followed`,
		);
		expect(error!.description).toMatch(/Data Center Region/);
		const shown = `${error!.message} ${error!.description} ${JSON.stringify(error)}`;
		expect(shown).not.toContain(SIGNING_VALUE);
		expect(shown).not.toContain('access_token');
		// not processed: a write's outcome is known, and a redirect is no passing outage
		expect(isOutcomeUnknown(error)).toBe(false);
		expect(isTransientFailure(error)).toBe(false);
	},
);

test("control: n8n's helper alone follows a 307 with the Authorization header and the body (what the transport turns off)", async () => {
	status = 307;
	const send = n8nHttpRequest();
	const options: IHttpRequestOptions = {
		method: 'POST',
		url: `${apiUrl}/books/v3/items`,
		headers: {
			Authorization: `Vendor-oauthtoken ${SIGNING_VALUE}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ name: 'Widget' }),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		json: false,
	};
	await send(options);
	expect(other.received).toHaveLength(1);
	expect(other.received[0].headers.authorization).toBe(`Vendor-oauthtoken ${SIGNING_VALUE}`);
	expect(other.received[0].body).toBe('{"name":"Widget"}');
	other.received.length = 0;
	await send({ ...options, disableFollowRedirect: true });
	expect(other.received).toEqual([]);
});
