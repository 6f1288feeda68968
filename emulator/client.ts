/**
 * A small client of the emulator (tests, demo): calls an area the way the nodes do. server.ts
 * re-exports it.
 */
import type { Emulator } from './types';

interface CallOptions {
	query?: Record<string, string | number | boolean>;
	json?: unknown;
	/** multipart/form-data: text fields and files. */
	form?: {
		fields?: Record<string, string>;
		files?: Array<{ field: string; fileName: string; contentType: string; data: Buffer }>;
	};
	headers?: Record<string, string>;
	/** Access token; `null` sends no Authorization header. Default: the client's token. */
	token?: string | null;
	/** Organisation id for accounting areas (query or header as the area wants); `null` sends none. */
	org?: string | null;
	region?: string;
}

interface CallResult {
	status: number;
	headers: Record<string, string>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	buffer: Buffer;
}

/**
 * Calls an area of the emulator the way the nodes do (`Vendor-oauthtoken`, the area's
 * organisation parameter, JSON bodies). `area` is an area value (`books`, `projects`, ...).
 */
export function apiClient(em: Emulator, defaults: { token: string; region?: string }) {
	return async function call(
		method: string,
		area: string,
		path: string,
		opts: CallOptions = {},
	): Promise<CallResult> {
		const a = em.router.areas.find((x) => x.value === area);
		if (!a) throw new Error(`unknown area ${area}`);
		const region = opts.region ?? defaults.region ?? 'us';
		const urls = em.regionUrls(region);
		const url = new URL(
			`${a.family === 'projects' ? urls.projects : urls.api}${a.basePath}${path}`,
		);
		const headers: Record<string, string> = { ...(opts.headers ?? {}) };
		const token = opts.token === undefined ? defaults.token : opts.token;
		if (token !== null) headers.Authorization = `Vendor-oauthtoken ${token}`;
		const org = opts.org === undefined ? em.organizationId : opts.org;
		if (a.org && org !== null) {
			if (a.org.in === 'query') url.searchParams.set(a.org.name, org);
			else headers[a.org.name] = org;
		}
		for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
		let body: string | FormData | undefined;
		if (opts.form) {
			const fd = new FormData();
			for (const [k, v] of Object.entries(opts.form.fields ?? {})) fd.append(k, v);
			for (const f of opts.form.files ?? [])
				fd.append(f.field, new Blob([f.data], { type: f.contentType }), f.fileName);
			body = fd;
		} else if (opts.json !== undefined) {
			headers['Content-Type'] = 'application/json';
			body = JSON.stringify(opts.json);
		}
		const res = await fetch(url, { method, headers, body });
		const buffer = Buffer.from(await res.arrayBuffer());
		const type = res.headers.get('content-type') ?? '';
		return {
			status: res.status,
			headers: Object.fromEntries(res.headers.entries()),
			body:
				/json/.test(type) && buffer.length
					? JSON.parse(buffer.toString('utf8'))
					: buffer.toString('utf8'),
			buffer,
		};
	};
}
