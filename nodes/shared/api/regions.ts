/**
 * Data-center regions. The documents name five regions (US, AU, EU, IN, CN) but do not show
 * their addresses; the hosts below follow the vendor's public naming and can be overridden
 * with the Custom region (see README "Not covered / assumptions").
 */
interface RegionUrls {
	/** `{accounts_url}`: the authorization server. */
	accounts: string;
	/** `{api_url}`: root of the accounting, payments, billing and inventory areas. */
	api: string;
	/** `{base_url}`: root of the project-management area. */
	projects: string;
}

export const REGIONS: Readonly<Record<'us' | 'eu' | 'in' | 'au' | 'cn', RegionUrls>> = {
	us: {
		accounts: 'https://accounts.vendor.com',
		api: 'https://www.vendorapis.com',
		projects: 'https://projectsapi.vendor.com',
	},
	eu: {
		accounts: 'https://accounts.vendor.eu',
		api: 'https://www.vendorapis.eu',
		projects: 'https://projectsapi.vendor.eu',
	},
	in: {
		accounts: 'https://accounts.vendor.in',
		api: 'https://www.vendorapis.in',
		projects: 'https://projectsapi.vendor.in',
	},
	au: {
		accounts: 'https://accounts.vendor.com.au',
		api: 'https://www.vendorapis.com.au',
		projects: 'https://projectsapi.vendor.com.au',
	},
	cn: {
		accounts: 'https://accounts.vendor.com.cn',
		api: 'https://www.vendorapis.com.cn',
		projects: 'https://projectsapi.vendor.com.cn',
	},
};

type RegionKey = keyof typeof REGIONS | 'custom';

/** The roots to use for a credential's settings. */
export function regionUrls(credentials: {
	region?: string;
	accountsUrl?: string;
	apiUrl?: string;
	projectsUrl?: string;
}): RegionUrls {
	const region = (credentials.region ?? 'us') as RegionKey;
	if (region === 'custom') {
		return {
			accounts: trimSlash(credentials.accountsUrl ?? ''),
			api: trimSlash(credentials.apiUrl ?? ''),
			projects: trimSlash(credentials.projectsUrl ?? ''),
		};
	}
	return REGIONS[region] ?? REGIONS.us;
}

export function trimSlash(url: string): string {
	return url.replace(/\/+$/, '');
}
