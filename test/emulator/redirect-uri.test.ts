/**
 * The demo's redirect URI can be set (n8n on another host or port sends another callback
 * URL): `--redirect-uri` or VENDOR_REDIRECT_URI; the emulator's default client then accepts
 * exactly that one.
 */
import { Clock } from '../../emulator/clock';
import { redirectUriOption } from '../../emulator/demo-options';
import { DEFAULT_CLIENT, startEmulator } from '../../emulator/server';

const OTHER = 'http://127.0.0.1:5690/rest/oauth2-credential/callback';

describe('demo option', () => {
	test('--redirect-uri <uri>, --redirect-uri=<uri>, VENDOR_REDIRECT_URI, else none (the default)', () => {
		expect(redirectUriOption(['--redirect-uri', OTHER], {})).toBe(OTHER);
		expect(redirectUriOption([`--redirect-uri=${OTHER}`], {})).toBe(OTHER);
		expect(redirectUriOption([], { VENDOR_REDIRECT_URI: OTHER })).toBe(OTHER);
		expect(
			redirectUriOption(['--redirect-uri', OTHER], { VENDOR_REDIRECT_URI: 'http://ignored/cb' }),
		).toBe(OTHER);
		expect(redirectUriOption([], {})).toBeUndefined();
	});

	test('a value that is not an http(s) URL is refused, naming where it came from', () => {
		expect(() => redirectUriOption(['--redirect-uri', 'localhost:5678/cb'], {})).toThrow(
			/not an http\(s\) URL \(from --redirect-uri\)/,
		);
		expect(() => redirectUriOption([], { VENDOR_REDIRECT_URI: 'ftp://x/cb' })).toThrow(
			/from VENDOR_REDIRECT_URI/,
		);
	});
});

async function authorize(base: string, redirectUri: string): Promise<Response> {
	const auth = new URL(`${base}/us/oauth/v2/auth`);
	auth.search = new URLSearchParams({
		client_id: DEFAULT_CLIENT.clientId,
		redirect_uri: redirectUri,
		response_type: 'code',
		scope: 'VendorBooks.items.READ',
		access_type: 'offline',
	}).toString();
	return await fetch(auth, { headers: { Accept: 'application/json' } });
}

test('the emulator started with a redirect URI accepts it, and no longer the default', async () => {
	const em = await startEmulator({ clock: new Clock(), redirectUri: OTHER });
	try {
		expect(em.defaultClient.redirectUri).toBe(OTHER);
		expect((await authorize(em.url, OTHER)).status).toBe(200);
		const refused = await authorize(em.url, DEFAULT_CLIENT.redirectUri);
		expect(refused.status).toBe(400);
		expect(await refused.text()).toContain('invalid_redirect_uri');
	} finally {
		await em.close();
	}
});

test('without one, the default client accepts n8n on http://localhost:5678', async () => {
	const em = await startEmulator({ clock: new Clock() });
	try {
		expect((await authorize(em.url, DEFAULT_CLIENT.redirectUri)).status).toBe(200);
		expect((await authorize(em.url, OTHER)).status).toBe(400);
	} finally {
		await em.close();
	}
});
