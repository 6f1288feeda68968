/**
 * The accounts server's scopes (`Service.scope_name.OPERATION`) and the API's
 * `Authorization: Vendor-oauthtoken <token>` header.
 */

const SCOPE_SERVICES = [
	'VendorProjects',
	'VendorBugtracker',
	'VendorPC',
	'VendorSheet',
	'VendorSearch',
	'VendorBooks',
	'VendorInvoice',
	'VendorSubscriptions',
	'VendorInventory',
] as const;
const SCOPE_OPERATIONS = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'ALL'] as const;

const SCOPE_RE = new RegExp(
	`^(${SCOPE_SERVICES.join('|')})\\.([A-Za-z0-9_]+)\\.(${SCOPE_OPERATIONS.join('|')})$`,
);

/** Splits a scope parameter on commas and/or whitespace; drops empties and duplicates. */
export function parseScopes(value: string | null | undefined): string[] {
	if (!value) return [];
	return [...new Set(value.split(/[\s,]+/).filter((s) => s.length > 0))];
}

export function isValidScope(scope: string): boolean {
	return SCOPE_RE.test(scope);
}

/** True when the granted scope covers the required one (same service and name; same op or ALL). */
export function scopeCovers(granted: string, required: string): boolean {
	const g = granted.split('.');
	const r = required.split('.');
	if (g.length !== 3 || r.length !== 3) return granted === required;
	const [gs, gn, go] = g;
	const [rs, rn, ro] = r;
	if (gs.toLowerCase() !== rs.toLowerCase() || gn.toLowerCase() !== rn.toLowerCase()) return false;
	return go.toUpperCase() === ro.toUpperCase() || go.toUpperCase() === 'ALL';
}

/** Extracts the token from an `Authorization: Vendor-oauthtoken <token>` header value (else undefined). */
export function parseVendorAuthorization(
	header: string | string[] | undefined,
): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (!value) return undefined;
	const m = /^Vendor-oauthtoken\s+(\S+)\s*$/i.exec(value.trim());
	return m ? m[1] : undefined;
}
