/**
 * The Vendor API emulator's `startEmulator`: one `node:http` server on 127.0.0.1 for every region;
 * its parts, a request's path and its choices are in README.md.
 */
import http from '../host/http';
import type { AddressInfo } from '../host/net';
import { handleRequest } from './handler';
import { EmulatorState } from './state';
import {
	DEFAULT_ORGANIZATION_ID,
	DEFAULT_PORTAL_ID,
	type Emulator,
	type EmulatorOptions,
} from './types';
import { send } from './wire';

export { apiClient } from './client';
export type { MultipartPart } from './request';
export {
	DEFAULT_CLIENT,
	DEFAULT_ORGANIZATION_ID,
	type Emulator,
	type EmulatorOptions,
	type RecordedRequest,
} from './types';

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
	const state = new EmulatorState(opts);
	const server = http.createServer((req, res) => {
		// The service's time is the emulator's clock: its answers are dated by it, as its records are.
		res.setHeader('Date', new Date(state.clock.now()).toUTCString());
		handleRequest(state, req, res).catch((error: Error) => {
			if (!res.headersSent)
				send(res, {
					status: 500,
					json: { errorCode: 'INTERNAL_SERVER_ERROR', message: error.message },
				});
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
	});
	state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: state.baseUrl,
		regionUrls: (region) => state.regionUrls(region),
		accounts: state.accounts,
		clock: state.clock,
		store: state.store,
		requests: state.requests,
		clearRequests: () => state.clearRequests(),
		faults: state.faults,
		issueToken: (o) => state.issueToken(o),
		defaultClient: state.defaultClient,
		organizationId: DEFAULT_ORGANIZATION_ID,
		portalId: DEFAULT_PORTAL_ID,
		router: state.router,
		resetRateLimits: () => state.resetRateLimits(),
		setLatency: (ms, jitter) => state.latency.set(ms, jitter),
		inFlight: state.inFlight,
		close: async () => {
			state.pending.close();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
