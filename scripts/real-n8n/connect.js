/**
 * Connect: n8n's REST API with a session cookie (N8nClient); the owner set up and logged in (the
 * version under test, the OAuth2 callback it announces); a "Vendor OAuth2 API" credential created
 * with the emulator's URLs and connected through n8n's OAuth2 round trip (n8n's auth URL -> the
 * emulator's consent page, Accept -> n8n's callback -> token call), and the tokens checked on both
 * sides. Each is a `step` of the session of n8n-session.js.
 */
'use strict';

const crypto = require('node:crypto');

const { CLIENT, step, check, redact, redactObj } = require('./steps');

const CREDENTIAL_NAME = 'Vendor account';

// ------------------------------------------------------------------ HTTP with n8n's session

class N8nClient {
	constructor(base) {
		this.base = base;
		this.cookies = new Map();
		this.browserId = crypto.randomUUID();
	}

	cookieHeader() {
		return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
	}

	keepCookies(res) {
		for (const c of res.headers.getSetCookie?.() ?? []) {
			const [pair] = c.split(';');
			const i = pair.indexOf('=');
			this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
		}
	}

	/**
	 * One call with the session's cookies. A GET whose kept-alive connection n8n had closed just
	 * before (n8n closes idle connections after 5 s; a busy event loop here, e.g. while the tool
	 * variants are resolved, can keep fetch from noticing in time) is sent once more on a new one.
	 */
	async raw(method, url, body, headers = {}) {
		const target = url.startsWith('http') ? url : `${this.base}${url}`;
		const send = () =>
			fetch(target, {
				method,
				redirect: 'manual',
				headers: {
					'browser-id': this.browserId,
					...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
					...(body !== undefined ? { 'content-type': 'application/json' } : {}),
					...headers,
				},
				body: body !== undefined ? JSON.stringify(body) : undefined,
			});
		const closedUnder = (error) =>
			method === 'GET' &&
			['UND_ERR_SOCKET', 'ECONNRESET'].includes(error && error.cause && error.cause.code);
		// fetch's own error says only "fetch failed": name the call and the cause (refused, reset, ...)
		const failed = (error) => {
			const cause = error && error.cause;
			throw new Error(
				`${method} ${target}: ${error && error.message}${cause ? ` (${cause.code || cause.name || ''}${cause.message ? `: ${cause.message}` : ''})` : ''}`,
			);
		};
		const res = await send()
			.catch((error) => (closedUnder(error) ? send() : Promise.reject(error)))
			.catch(failed);
		this.keepCookies(res);
		return res;
	}

	/** A REST call that must answer 2xx; returns the `data` of n8n's envelope (or the body). */
	async json(method, url, body) {
		const res = await this.raw(method, url, body);
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
		let parsed;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			throw new Error(
				`${method} ${url} answered ${res.status} with no JSON: ${text.slice(0, 300)}`,
			);
		}
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}
}

function loginStep(s) {
	return step(
		'POST /rest/owner/setup, POST /rest/login; GET /rest/settings: the version under test, its OAuth2 callback',
		async () => {
			const me = await signIn(s.api, s.owner);
			const settings = await s.api.json('GET', '/rest/settings');
			check(
				settings && settings.versionCli === s.version,
				`the running n8n says it is ${settings && settings.versionCli}, expected ${s.version}`,
			);
			// the OAuth2 callback this n8n announces must be the redirect URI the emulator's client accepts
			const callbackUrl = settings.oauthCallbackUrls && settings.oauthCallbackUrls.oauth2;
			check(
				!callbackUrl || callbackUrl === s.redirectUri,
				`n8n's OAuth2 callback is ${callbackUrl}; the emulator's client accepts ${s.redirectUri}`,
			);
			return [
				`logged in as ${me.email} (role ${me.role}); n8n answers versionCli ${settings.versionCli}, OAuth2 callback ${callbackUrl || '(not announced)'}`,
			];
		},
	);
}

/** Sets up the owner of a new n8n and logs in as it. */
async function signIn(api, owner) {
	await api.json('POST', '/rest/owner/setup', owner);
	api.cookies.clear();
	const me = await api.json('POST', '/rest/login', {
		emailOrLdapLoginId: owner.email,
		password: owner.password,
	});
	check(me.email === owner.email, `login answered ${JSON.stringify(me).slice(0, 200)}`);
	check(api.cookies.has('n8n-auth'), 'no n8n-auth cookie after login');
	return me;
}

function credentialStep(s) {
	return step(
		`POST /rest/credentials: "${CREDENTIAL_NAME}" (vendorOAuth2Api, region Custom, the emulator's URLs)`,
		async () => {
			const { urls } = s;
			s.credential = await s.api.json('POST', '/rest/credentials', {
				name: CREDENTIAL_NAME,
				type: 'vendorOAuth2Api',
				data: {
					region: 'custom',
					accountsUrl: urls.accounts,
					apiUrl: urls.api,
					projectsUrl: urls.projects,
					clientId: CLIENT.clientId,
					clientSecret: CLIENT.clientSecret,
				},
			});
			check(
				s.credential && s.credential.id,
				`no credential id in ${JSON.stringify(s.credential).slice(0, 200)}`,
			);
			return [
				`id ${s.credential.id}; accounts ${urls.accounts}, api ${urls.api}, projects ${urls.projects}`,
			];
		},
	);
}

function oauthStep(s) {
	return step(
		"OAuth2 round trip: n8n's auth URL -> emulator consent (Accept) -> n8n's callback",
		async () => {
			const { api, em, urls, redirectUri } = s;
			const authUrl = await api.json(
				'GET',
				`/rest/oauth2-credential/auth?id=${encodeURIComponent(s.credential.id)}`,
			);
			const u = new URL(authUrl);
			const q = u.searchParams;
			check(
				`${u.origin}${u.pathname}` === `${urls.accounts}/oauth/v2/auth`,
				`auth URL ${u.origin}${u.pathname}, expected ${urls.accounts}/oauth/v2/auth`,
			);
			const rawScope = (authUrl.match(/[?&]scope=([^&]*)/) || [])[1] || '';
			const scope = q.get('scope') || '';
			s.seen.separator = scope.includes(',')
				? 'comma'
				: /\s/.test(scope)
					? 'space'
					: 'none (one scope)';
			check(
				q.get('redirect_uri') === redirectUri,
				`redirect_uri ${q.get('redirect_uri')}, expected ${redirectUri}`,
			);
			check(
				q.get('client_id') === CLIENT.clientId && q.get('response_type') === 'code',
				'client_id / response_type',
			);
			check(
				q.get('access_type') === 'offline' && q.get('prompt') === 'consent',
				`access_type=${q.get('access_type')} prompt=${q.get('prompt')}`,
			);
			check(
				s.seen.separator === 'comma',
				`n8n separated the scopes by ${s.seen.separator}: ${scope}`,
			);
			// the emulator's consent page
			const page = await fetch(authUrl, { redirect: 'manual' });
			const html = await page.text();
			check(page.status === 200, `consent page answered ${page.status}: ${html.slice(0, 300)}`);
			const requestId = (html.match(/name="request_id" value="([^"]+)"/) || [])[1];
			const action = (html.match(/<form id="consent" method="POST" action="([^"]+)"/) || [])[1];
			check(requestId && action, 'no consent form on the page');
			const scopesShown = [...html.matchAll(/<li class="scope">([^<]+)<\/li>/g)].map((m) => m[1]);
			// Accept
			const decision = await fetch(new URL(action, em.url).toString(), {
				method: 'POST',
				redirect: 'manual',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ request_id: requestId, decision: 'accept' }).toString(),
			});
			await decision.text();
			const location = decision.headers.get('location');
			check(
				decision.status >= 300 && decision.status < 400 && location,
				`Accept answered ${decision.status} without a redirect`,
			);
			const cb = new URL(location);
			check(
				`${cb.origin}${cb.pathname}` === redirectUri,
				`Accept redirected to ${cb.origin}${cb.pathname}`,
			);
			check(
				cb.searchParams.get('code') && cb.searchParams.get('state') === q.get('state'),
				'redirect without code or with another state',
			);
			// n8n's callback (the browser would follow the redirect with n8n's session cookie)
			const callback = await api.raw('GET', `${s.base}${cb.pathname}${cb.search}`);
			const body = await callback.text();
			check(
				callback.status === 200,
				`callback answered ${callback.status}: ${redact(body.slice(0, 400))}`,
			);
			const errorShown = (body.match(/<h4>Error: ([^<]*)<\/h4>/) || [])[1];
			check(!errorShown, `n8n's callback page says: Error: ${redact(errorShown || '')}`);
			check(
				/Connection successful/.test(body),
				`n8n's callback page is not "Connection successful": ${redact(body.slice(0, 300))}`,
			);
			// the token call n8n made
			const tokenCalls = em.requests.filter((r) => r.path.endsWith('/oauth/v2/token'));
			check(tokenCalls.length === 1, `${tokenCalls.length} token calls reached the emulator`);
			const tc = tokenCalls[0];
			check(
				tc.status === 200 && tc.body && tc.body.grant_type === 'authorization_code',
				`token call: ${tc.status} ${JSON.stringify(redactObj(tc.body))}`,
			);
			return [
				`n8n sent scope=${rawScope.slice(0, 56)}...: ${scope.split(',').length} scopes separated by commas (%2C encoded), e.g. "${scope.split(',').slice(0, 2).join(',')},..."`,
				`consent page listed ${scopesShown.length} scopes; Accept -> 302 to n8n's callback with code and state`,
				`callback 200 "Connection successful"; n8n's token call: POST ${tc.path} grant_type=authorization_code (client id/secret in the ${tc.body.client_secret ? 'body' : 'header'}) -> ${tc.status}`,
			];
		},
	);
}

function tokensStep(s) {
	return step(
		'the credential holds the tokens (n8n: GET /rest/credentials/:id; emulator: tokens issued to the client)',
		async () => {
			const c = await s.api.json(
				'GET',
				`/rest/credentials/${encodeURIComponent(s.credential.id)}?includeData=true`,
			);
			const data = c.data || {};
			check(
				data.oauthTokenData === true ||
					(data.oauthTokenData && typeof data.oauthTokenData === 'object'),
				`n8n shows no oauthTokenData on the credential: keys ${Object.keys(data).join(', ')}`,
			);
			check(
				!JSON.stringify(c).includes(CLIENT.clientSecret),
				'n8n answered the client secret in clear',
			);
			// The emulator answers token errors with HTTP 200, so n8n's "connected" alone proves nothing:
			// the emulator must have issued an access and a refresh token to this client.
			const { access, refresh } = s.em.accounts.issuedTo(CLIENT.clientId);
			check(
				access.length === 1 && refresh.length === 1,
				`the emulator issued ${access.length} access and ${refresh.length} refresh tokens to the client`,
			);
			s.accessToken = access[0].token;
			return [
				`n8n: oauthTokenData set (shown redacted as ${JSON.stringify(data.oauthTokenData)}); emulator: 1 access token (${access[0].info.scopes.length} scopes, region ${access[0].info.region}) and 1 refresh token issued (access_type=offline)`,
			];
		},
	);
}

module.exports = {
	CREDENTIAL_NAME,
	N8nClient,
	signIn,
	loginStep,
	credentialStep,
	oauthStep,
	tokensStep,
};
