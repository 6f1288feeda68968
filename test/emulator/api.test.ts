/**
 * The emulator's generic API behaviour over real HTTP: routing from the tables, auth,
 * scopes, organisations, validation, envelopes, pagination, CRUD, request recording.
 * Run: npx jest test/emulator/api
 */
import { Clock } from '../../emulator/clock';
import { DEMO } from '../../emulator/demo-data';
import { RULES } from '../../emulator/rules';
import { apiClient, type Emulator, startEmulator } from '../../emulator/server';

let em: Emulator;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
	em = await startEmulator({ demo: true, clock: new Clock() });
	token = em.issueToken().access_token;
	call = apiClient(em, { token });
});
afterAll(async () => em.close());

describe('shape', () => {
	test('regionUrls give the roots of a Custom credential; api_domain matches', () => {
		const urls = em.regionUrls('eu');
		expect(urls).toEqual({
			accounts: `${em.url}/eu`,
			api: `${em.url}/eu/api`,
			projects: `${em.url}/eu/projects`,
		});
		expect(em.issueToken({ region: 'eu' }).api_domain).toBe(urls.api);
	});

	test('every operation of every table has a route, and the ids are area.resource.operation', () => {
		const ids = em.router.routes.map((r) => r.id);
		expect(ids).toContain('books.item.create');
		expect(ids).toContain('projects.trash.moveToTrash');
		expect(ids).toContain('invoice.refund.getAll');
		const ops = em.router.areas.flatMap((a) =>
			a.resources.flatMap((r) => r.operations.map((o) => `${a.value} ${o.method} ${o.path}`)),
		);
		// every accounting area also lists its organizations (the pickers' inferred call)
		const organizations = em.router.areas
			.filter((a) => a.org)
			.map((a) => `${a.value}.organization.getAll`);
		expect(ids).toEqual(expect.arrayContaining(organizations));
		// createFromEstimate shares POST /invoices with create: one route for both.
		expect(new Set(ops).size + organizations.length).toBe(em.router.routes.length);
	});

	test('every operation has a behaviour: a rule, or the generic one of its kind (actions always have a rule)', () => {
		const missing = em.router.routes
			.filter((r) => r.op.kind === 'action' && !RULES[r.id]?.handle && !RULES[r.id]?.pre)
			.map((r) => r.id);
		expect(missing).toEqual([]);
		const unknown = Object.keys(RULES).filter((id) => !em.router.byId(id));
		expect(unknown).toEqual([]);
	});

	test('the OAuth server is reachable under /{region}/oauth/v2', async () => {
		const res = await fetch(`${em.url}/us/oauth/v2/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'refresh_token',
				refresh_token: em.issueToken().refresh_token,
				client_id: em.defaultClient.clientId,
				client_secret: em.defaultClient.clientSecret,
			}),
		});
		const body = (await res.json()) as Record<string, unknown>;
		expect(typeof body.access_token).toBe('string');
		const again = await call('GET', 'books', '/items', { token: String(body.access_token) });
		expect(again.status).toBe(200);
	});
});

describe("the service's clock", () => {
	test("every answer is dated by the emulator's clock, not this machine's: a read, a refusal, an unknown URL, a token call", async () => {
		const dateOf = async (url: string, init?: RequestInit): Promise<number> => {
			const r = await fetch(url, init);
			await r.arrayBuffer();
			return Date.parse(r.headers.get('date') ?? '');
		};
		const { api, accounts } = em.regionUrls();
		const books = `${api}/books/v3/items?organization_id=${em.organizationId}`;
		const auth = { headers: { Authorization: `Vendor-oauthtoken ${token}` } };
		const refresh = {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'grant_type=refresh_token',
		};
		const before = em.clock.now();
		for (const at of [Date.parse('2031-05-06T07:08:09Z'), Date.parse('2020-01-02T03:04:05Z')]) {
			em.clock.set(at);
			const dates = [
				await dateOf(books, auth),
				await dateOf(books),
				await dateOf(`${api}/books/v3/nowhere`, auth),
				await dateOf(`${accounts}/oauth/v2/token`, refresh),
			];
			expect(dates).toEqual([at, at, at, at]);
		}
		em.clock.set(before);
	});
});

describe('routing', () => {
	test('a literal segment beats a parameter: /estimates/templates is not estimate "templates"', async () => {
		const r = await call('GET', 'books', '/estimates/templates');
		expect(r.status).toBe(200);
		expect(r.body.templates.map((t: { template_name: string }) => t.template_name)).toEqual([
			'Standard',
			'Spreadsheet',
		]);
		expect(em.requests.at(-1)?.operation).toBe('books.estimateTemplate.getAll');
	});

	test('unknown accounting URL -> 404 code 5; project-management -> URL_RULE_NOT_CONFIGURED; wrong method -> 405 INVALID_METHOD', async () => {
		const a = await call('GET', 'books', '/nothing/here');
		expect(a.status).toBe(404);
		expect(a.body).toEqual({ code: 5, message: 'Invalid URL Passed' });
		const p = await call('GET', 'projects', '/portal/7000000000001/nothing');
		expect(p.status).toBe(404);
		expect(p.body.errorCode).toBe('URL_RULE_NOT_CONFIGURED');
		const m = await call('DELETE', 'projects', '/portals');
		expect(m.status).toBe(405);
		expect(m.body.errorCode).toBe('INVALID_METHOD');
		expect(m.body.message).toMatch(/GET/);
	});
});

describe('authorization', () => {
	test('no token -> 401 INVALID_OAUTHTOKEN in both families (accounting also code 57)', async () => {
		const a = await call('GET', 'books', '/items', { token: null });
		expect(a.status).toBe(401);
		expect(a.body).toMatchObject({ code: 57, errorCode: 'INVALID_OAUTHTOKEN' });
		const p = await call('GET', 'projects', '/portals', { token: null });
		expect(p.status).toBe(401);
		expect(p.body.errorCode).toBe('INVALID_OAUTHTOKEN');
	});

	test('a Bearer scheme is refused even with a good token', async () => {
		const r = await call('GET', 'books', '/items', {
			token: null,
			headers: { Authorization: `Bearer ${token}` },
		});
		expect(r.status).toBe(401);
		expect(r.body.message).toMatch(/Bearer/);
	});

	test('an expired token -> 401; a fresh one works again', async () => {
		const t = em.issueToken();
		em.clock.advance(60 * 60 * 1000 + 1);
		const r = await call('GET', 'invoice', '/customerpayments', { token: t.access_token });
		expect(r.status).toBe(401);
		expect(r.body.message).toMatch(/expired/);
		token = em.issueToken().access_token;
		call = apiClient(em, { token });
		expect((await call('GET', 'invoice', '/customerpayments')).status).toBe(200);
	});

	test('a token of another region -> 401', async () => {
		const eu = em.issueToken({ region: 'eu' }).access_token;
		const r = await call('GET', 'books', '/items', { token: eu, region: 'us' });
		expect(r.status).toBe(401);
		expect(r.body.message).toMatch(/region/);
	});

	test('a token without the operation scope -> 403 (accounting code 57; project management INVALID_OAUTHSCOPE); ALL covers', async () => {
		const readOnly = em.issueToken({
			scopes: ['VendorBooks.settings.READ', 'VendorProjects.portals.READ'],
		}).access_token;
		const r = await call('POST', 'books', '/items', { token: readOnly, json: { name: 'X' } });
		expect(r.status).toBe(403);
		expect(r.body).toEqual({
			code: 57,
			message: 'You are not authorized to perform this operation',
		});
		expect((await call('GET', 'books', '/items', { token: readOnly })).status).toBe(200);
		// search needs two scopes: portals.READ alone is not enough
		const s = await call('GET', 'projects', `/portal/${em.portalId}/search`, {
			token: readOnly,
			query: { search_term: 'a', module: 'all', status: 'all' },
		});
		expect(s.status).toBe(403);
		expect(s.body.errorCode).toBe('INVALID_OAUTHSCOPE');
		expect(s.body.message).toContain('VendorSearch.securesearch.READ');
		const all = em.issueToken({ scopes: ['VendorBooks.settings.ALL'] }).access_token;
		expect(
			(await call('POST', 'books', '/items', { token: all, json: { name: 'Scoped item' } })).status,
		).toBe(201);
	});

	test('an operation without a stated scope needs none (my tasks)', async () => {
		const other = em.issueToken({ scopes: ['VendorBooks.settings.READ'] }).access_token;
		const r = await call('GET', 'projects', `/portal/${em.portalId}/mytasks`, { token: other });
		expect(r.status).toBe(200);
	});
});

describe('organisation', () => {
	test('books and inventory need the query organization_id; invoice and billing their headers', async () => {
		for (const [area, path, where] of [
			['books', '/items', 'query parameter organization_id'],
			['inventory', '/bills', 'query parameter organization_id'],
			['invoice', '/customerpayments', 'header X-com-vendor-invoice-organizationid'],
			['billing', '/projects', 'header X-com-vendor-subscriptions-organizationid'],
		] as const) {
			const r = await call('GET', area, path, { org: null });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(6041);
			expect(r.body.message).toContain(where);
			expect((await call('GET', area, path)).status).toBe(200);
		}
	});

	test('the org in the wrong place does not count; an unknown org -> 400 6041', async () => {
		const wrongPlace = await call('GET', 'invoice', '/customerpayments', {
			org: null,
			query: { organization_id: em.organizationId },
		});
		expect(wrongPlace.body.code).toBe(6041);
		const unknown = await call('GET', 'books', '/items', { org: '999' });
		expect(unknown.status).toBe(400);
		expect(unknown.body.code).toBe(6041);
		expect(unknown.body.message).toContain('999');
	});

	test('data is kept per region: the EU org does not see US demo items', async () => {
		const eu = em.issueToken({ region: 'eu' }).access_token;
		const r = await call('GET', 'books', '/items', { token: eu, region: 'eu' });
		expect(r.body.items).toEqual([]);
	});

	test('unknown portal -> 404 INVALID_PARAMETER_VALUE', async () => {
		const r = await call('GET', 'projects', '/portal/123/projects');
		expect(r.status).toBe(404);
		expect(r.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
	});
});

describe('validation from the tables', () => {
	test('accounting: 400 code 2 naming the field and the rule', async () => {
		const r = await call('GET', 'books', '/items', { query: { name_contains: 'x'.repeat(101) } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(2);
		expect(r.body.message).toBe(
			'Invalid value passed for name_contains: must be at most 100 characters as the API counts them, where an emoji counts as 2',
		);
		const q = await call('GET', 'books', '/items', { query: { rate_less_than: 'cheap' } });
		expect(q.body.message).toMatch(/^Invalid value passed for rate_less_than/);
		const p = await call('GET', 'books', '/items/abc');
		expect(p.body.message).toMatch(/^Invalid value passed for item_id/);
		const nested = await call('POST', 'books', '/invoices', {
			json: { customer_id: DEMO.customers.acme, line_items: [{ rate: 'ten' }] },
		});
		expect(nested.body.message).toContain('line_items[0].rate');
	});

	test('project management: body -> INVALID_INPUTSTREAM, query -> INVALID_PARAMETER_VALUE', async () => {
		const b = await call('POST', 'projects', `/portal/${em.portalId}/projects`, {
			json: { description: 'no name' },
		});
		expect(b.status).toBe(400);
		expect(b.body.errorCode).toBe('INVALID_INPUTSTREAM');
		expect(b.body.message).toContain('"name"');
		const q = await call('GET', 'projects', `/portal/${em.portalId}/search`, {
			query: { search_term: 'x', module: 'planets', status: 'all' },
		});
		expect(q.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
		expect(q.body.message).toContain('"module"');
	});

	test('body keys and query parameters no table names are refused, naming the key; malformed JSON is refused', async () => {
		const r = await call('POST', 'books', '/items', { json: { nmae: 'Typo', rate: 5 } });
		expect([r.status, r.body.code, r.body.message]).toEqual([
			400,
			2,
			'Invalid value passed for nmae: is not a body key of this operation (no field table names it)',
		]);
		const nested = await call('POST', 'books', '/invoices', {
			json: {
				customer_id: DEMO.customers.acme,
				line_items: [{ item_id: DEMO.items.consulting, quantity: 1, rat: 5 }],
			},
		});
		expect([nested.status, nested.body.message]).toEqual([
			400,
			'Invalid value passed for line_items[0]: holds a key no field table names: rat',
		]);
		const q = await call('GET', 'books', '/items', { query: { colour: 'red' } });
		expect([q.status, q.body.message]).toEqual([
			400,
			'Invalid value passed for colour: is not a query parameter of this operation (no field table names it)',
		]);
		const paged = await call('GET', 'books', '/items', { query: { page: 1, per_page: 5 } });
		expect(paged.status).toBe(200);
		const pm = await call('POST', 'projects', `/portal/${em.portalId}/projects`, {
			json: { name: 'P', colour: 'red' },
		});
		expect([pm.status, pm.body.errorCode, pm.body.message]).toEqual([
			400,
			'INVALID_INPUTSTREAM',
			'Invalid value for "colour": is not a body key of this operation (no field table names it)',
		]);
		expect(
			em.store
				.org('us', em.organizationId)
				?.all('items')
				.some((i) => i.name === 'Typo'),
		).toBe(false);
		const bad = await fetch(
			`${em.url}/us/api/books/v3/items?organization_id=${em.organizationId}`,
			{
				method: 'POST',
				headers: {
					Authorization: `Vendor-oauthtoken ${token}`,
					'Content-Type': 'application/json',
				},
				body: '{"name":',
			},
		);
		expect(bad.status).toBe(400);
		expect(((await bad.json()) as { code: number }).code).toBe(2);
	});

	test('query parameters whose names the documents do not show pass where the documents give them (estimate and invoice create / update flags, the estimate get selector): a listed guess', async () => {
		const body = {
			customer_id: DEMO.customers.acme,
			line_items: [{ item_id: DEMO.items.consulting, quantity: 1 }],
		};
		const flags = { ignore_auto_number_generation: false, send: true };
		const estimate = await call('POST', 'books', '/estimates', { json: body, query: flags });
		expect([estimate.status, estimate.body.code]).toEqual([201, 0]);
		const id = estimate.body.estimate.estimate_id;
		expect(
			(
				await call('PUT', 'books', `/estimates/${id}`, {
					json: { reference_number: 'R-1' },
					query: { a_flag: true },
				})
			).body.estimate,
		).toMatchObject({ estimate_id: id, reference_number: 'R-1' });
		const read = await call('GET', 'books', `/estimates/${id}`, { query: { accept: 'json' } });
		expect([read.status, read.body.estimate.estimate_id]).toEqual([200, id]);
		const invoice = await call('POST', 'books', '/invoices', { json: body, query: flags });
		expect([invoice.status, invoice.body.code]).toEqual([201, 0]);
		const inv = invoice.body.invoice.invoice_id;
		expect(
			(
				await call('PUT', 'books', `/invoices/${inv}`, {
					json: { reference_number: 'R-2' },
					query: { a_flag: false },
				})
			).status,
		).toBe(200);
		// Named parameters are still checked there, and elsewhere unknown names are still refused.
		expect(
			(
				await call('GET', 'books', `/estimates/${id}`, {
					query: { accept: 'pdf', organization_id: '999' },
				})
			).body.code,
		).toBe(6041);
		const list = await call('GET', 'books', '/estimates', { query: { send: true } });
		expect([list.status, list.body.message]).toEqual([
			400,
			'Invalid value passed for send: is not a query parameter of this operation (no field table names it)',
		]);
		const email = await call('POST', 'books', `/invoices/${inv}/email`, {
			json: {},
			query: { send: true },
		});
		expect(email.status).toBe(400);
	});
});

describe('envelopes, lists and CRUD', () => {
	test('create -> get -> list -> update -> delete see the same record (books item)', async () => {
		const c = await call('POST', 'books', '/items', {
			json: { name: 'Roundtrip widget', rate: 12.5 },
		});
		expect(c.status).toBe(201);
		expect(c.body).toMatchObject({ code: 0, message: 'Item has been created.' });
		const id = c.body.item.item_id;
		expect(id).toMatch(/^\d+$/);
		expect(c.body.item).toMatchObject({ status: 'active', name: 'Roundtrip widget', rate: 12.5 });
		expect(c.body.item.created_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
		const g = await call('GET', 'books', `/items/${id}`);
		expect(g.body).toMatchObject({ code: 0, message: 'success', item: { item_id: id } });
		const l = await call('GET', 'books', '/items', { query: { name_contains: 'roundtrip' } });
		expect(l.body.items.map((i: { item_id: string }) => i.item_id)).toEqual([id]);
		const u = await call('PUT', 'books', `/items/${id}`, { json: { rate: 14 } });
		expect(u.body.item).toMatchObject({ item_id: id, rate: 14, name: 'Roundtrip widget' });
		const d = await call('DELETE', 'books', `/items/${id}`);
		expect(d.body).toEqual({ code: 0, message: 'The item has been deleted.' });
		const gone = await call('GET', 'books', `/items/${id}`);
		expect(gone.status).toBe(404);
		expect(gone.body.code).toBe(1000);
	});

	test('item lists: page_context is an object; estimates and invoices: an array of one object with applied_filter', async () => {
		const items = await call('GET', 'books', '/items', { query: { per_page: 3, page: 1 } });
		expect(items.body.page_context).toEqual({
			page: 1,
			per_page: 3,
			has_more_page: true,
			report_name: 'Items',
			sort_column: 'created_time',
			sort_order: 'A',
		});
		const est = await call('GET', 'books', '/estimates', {
			query: { filter_by: 'Status.Accepted' },
		});
		expect(Array.isArray(est.body.page_context)).toBe(true);
		expect(est.body.page_context).toHaveLength(1);
		expect(est.body.page_context[0]).toMatchObject({
			page: 1,
			per_page: 200,
			has_more_page: false,
			applied_filter: 'Status.Accepted',
		});
		expect(est.body.estimates.map((e: { estimate_id: string }) => e.estimate_id).sort()).toEqual([
			DEMO.estimates.accepted1,
			DEMO.estimates.accepted2,
		]);
		const inv = await call('GET', 'books', '/invoices');
		expect(inv.body.page_context[0].applied_filter).toBe('Status.All');
	});

	test('paging walks the whole list once', async () => {
		const seen: string[] = [];
		for (let page = 1; ; page++) {
			const r = await call('GET', 'books', '/invoices', { query: { page, per_page: 4 } });
			seen.push(...r.body.invoices.map((i: { invoice_id: string }) => i.invoice_id));
			if (!r.body.page_context[0].has_more_page) break;
		}
		const all = (await call('GET', 'books', '/invoices')).body.invoices.length;
		expect(seen).toHaveLength(all);
		expect(new Set(seen).size).toBe(all);
	});

	test('filters: status, filter_by, *_startswith, ranges, dates, sort_column + sort_order', async () => {
		const overdue = await call('GET', 'books', '/invoices', {
			query: { filter_by: 'Status.OverDue' },
		});
		expect(overdue.body.invoices.map((i: { invoice_id: string }) => i.invoice_id).sort()).toEqual([
			DEMO.invoices.overdue1,
			DEMO.invoices.overdue2,
			DEMO.invoices.overdue3,
		]);
		const paid = await call('GET', 'books', '/invoices', { query: { status: 'paid' } });
		expect(paid.body.invoices).toHaveLength(2);
		const named = await call('GET', 'books', '/items', { query: { name_startswith: 'web' } });
		expect(named.body.items.map((i: { name: string }) => i.name)).toEqual(['Website design']);
		const cheap = await call('GET', 'books', '/items', {
			query: { rate_less_than: 40, sort_column: 'rate', sort_order: 'D' },
		});
		expect(cheap.body.items.map((i: { rate: number }) => i.rate)).toEqual([35, 15]);
		const byItem = await call('GET', 'books', '/invoices', {
			query: { item_name_contains: 'hosting' },
		});
		expect(byItem.body.invoices.map((i: { invoice_id: string }) => i.invoice_id)).toEqual([
			DEMO.invoices.overdue2,
		]);
		const today = new Date(em.clock.now()).toISOString().slice(0, 10);
		const due = await call('GET', 'books', '/invoices', {
			query: { due_date_before: today, sort_column: 'due_date' },
		});
		const dates = due.body.invoices.map((i: { due_date: string }) => i.due_date);
		expect(dates.every((d: string) => d < today)).toBe(true);
		expect([...dates].sort()).toEqual(dates);
		const mode = await call('GET', 'invoice', '/customerpayments', {
			query: { filter_by: 'PaymentMode.BankTransfer' },
		});
		expect(mode.body.customerpayments.map((p: { payment_id: string }) => p.payment_id)).toEqual([
			DEMO.payments.paid1,
		]);
		expect(mode.body.page_context).toMatchObject({ page: 1 });
	});

	test('project-management shapes: record itself; lists with page_info', async () => {
		const c = await call('POST', 'projects', `/portal/${em.portalId}/projects`, {
			json: { name: 'Shape check' },
		});
		expect(c.status).toBe(201);
		expect(c.body).toMatchObject({ name: 'Shape check', project_type: 'active' });
		expect(c.body.id).toMatch(/^\d+$/);
		const g = await call('GET', 'projects', `/portal/${em.portalId}/projects/${c.body.id}`);
		expect(g.body.id).toBe(c.body.id);
		const u = await call('PATCH', 'projects', `/portal/${em.portalId}/projects/${c.body.id}`, {
			json: { project_type: 'archived' },
		});
		expect(u.body.project_type).toBe('archived');
		const l = await call('GET', 'projects', `/portal/${em.portalId}/projects`, {
			query: { per_page: 2 },
		});
		expect(l.body.projects).toHaveLength(2);
		expect(l.body.page_info).toEqual({ page: 1, per_page: 2, has_next_page: true });
		const missing = await call('GET', 'projects', `/portal/${em.portalId}/projects/42`);
		expect(missing.status).toBe(404);
		expect(missing.body.errorCode).toBe('INVALID_PARAMETER_VALUE');
		const portals = await call('GET', 'projects', '/portals');
		expect(portals.body.portals.map((p: { id: string }) => p.id)).toEqual([em.portalId]);
		const portal = await call('GET', 'projects', `/portal/${em.portalId}`);
		expect(portal.body).toMatchObject({ id: em.portalId, name: 'Zylker Demo Portal' });
	});
});

describe('request recording', () => {
	test('every request is recorded with method, path, query, lower-case headers, parsed body, operation and status', async () => {
		em.clearRequests();
		await call('POST', 'books', '/items', { json: { name: 'Recorded' } });
		await call('GET', 'books', '/nope');
		await call('GET', 'billing', '/projects/1', { token: null });
		expect(em.requests).toHaveLength(3);
		const [a, b, c] = em.requests;
		expect(a).toMatchObject({
			method: 'POST',
			path: '/us/api/books/v3/items',
			query: { organization_id: em.organizationId },
			body: { name: 'Recorded' },
			region: 'us',
			area: 'books',
			operation: 'books.item.create',
			status: 201,
		});
		expect(a.headers.authorization).toBe(`Vendor-oauthtoken ${token}`);
		expect(a.headers['content-type']).toBe('application/json');
		expect(typeof a.time).toBe('number');
		expect(b).toMatchObject({ area: 'books', status: 404 });
		expect(b.operation).toBeUndefined();
		expect(c).toMatchObject({ area: 'billing', operation: 'billing.project.get', status: 401 });
	});

	test('GET /__admin lists the admin routes, and every listed GET route answers', async () => {
		const { routes } = (await (await fetch(`${em.url}/__admin`)).json()) as { routes: string[] };
		expect(routes).toEqual(
			expect.arrayContaining([
				'GET /__admin/info',
				'GET /__admin/requests',
				'POST /__admin/faults',
				'POST /__admin/tokens/expire',
			]),
		);
		for (const route of routes.filter((r) => r.startsWith('GET '))) {
			expect(`${route} ${(await fetch(`${em.url}${route.slice(4)}`)).status}`).toBe(`${route} 200`);
		}
	});

	test('the admin route lists requests with tokens redacted and can clear them', async () => {
		await call('GET', 'books', '/items');
		const r = (await (await fetch(`${em.url}/__admin/requests`)).json()) as Array<{
			headers: Record<string, string>;
		}>;
		expect(r.length).toBeGreaterThan(0);
		expect(r.at(-1)?.headers.authorization).toBe('Vendor-oauthtoken <redacted>');

		// Token calls: the client secret, the refresh token and the grant code are hidden too.
		const { refresh_token: refreshToken } = em.issueToken();
		const form = {
			grant_type: 'refresh_token',
			refresh_token: refreshToken,
			client_id: em.defaultClient.clientId,
			client_secret: em.defaultClient.clientSecret,
		};
		await fetch(`${em.url}/us/oauth/v2/token`, { method: 'POST', body: new URLSearchParams(form) });
		await fetch(`${em.url}/us/oauth/v2/token`, {
			method: 'POST',
			body: new URLSearchParams({
				...form,
				grant_type: 'authorization_code',
				code: '1000.somecode',
			}),
		});
		await fetch(`${em.url}/us/oauth/v2/token/revoke?token=${refreshToken}`, { method: 'POST' });
		const admin = await (await fetch(`${em.url}/__admin/requests`)).text();
		for (const secret of [refreshToken, em.defaultClient.clientSecret, '1000.somecode'])
			expect(admin).not.toContain(secret);
		const tokenCalls = (
			JSON.parse(admin) as Array<{
				area?: string;
				body: Record<string, string>;
				query: Record<string, string>;
			}>
		).filter((x) => x.area === 'accounts');
		expect(
			tokenCalls.map((x) => [
				x.body?.refresh_token,
				x.body?.client_secret,
				x.body?.code,
				x.query.token,
			]),
		).toEqual([
			['<redacted>', '<redacted>', undefined, undefined],
			['<redacted>', '<redacted>', '<redacted>', undefined],
			[undefined, undefined, undefined, '<redacted>'],
		]);
		expect(em.requests.find((x) => x.area === 'accounts')?.body).toMatchObject({
			refresh_token: refreshToken,
		});
		await fetch(`${em.url}/__admin/requests`, { method: 'DELETE' });
		expect(em.requests).toHaveLength(0);
	});
});

describe('the organizations list (inferred; the Organization ID pickers)', () => {
	test('GET /organizations in every accounting area: the organizations of the account in the region, no organization id needed', async () => {
		for (const area of ['books', 'invoice', 'billing', 'inventory']) {
			const res = await call('GET', area, '/organizations');
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({
				code: 0,
				organizations: expect.arrayContaining([
					{ organization_id: em.organizationId, name: 'Zylker Demo Org' },
				]),
			});
		}
	});

	test('still needs a valid token', async () => {
		const res = await call('GET', 'books', '/organizations', { token: null });
		expect(res.status).toBe(401);
	});
});
