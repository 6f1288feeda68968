import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { REGIONS } from '../nodes/shared/api/regions';

/** Every area the nodes use, with `ALL` per module (the documents separate scopes with commas). */
export const DEFAULT_SCOPES = [
	'VendorProjects.portals.ALL',
	'VendorProjects.projects.ALL',
	'VendorProjects.tasks.READ',
	'VendorSearch.securesearch.READ',
	'VendorBooks.settings.ALL',
	'VendorBooks.estimates.ALL',
	'VendorBooks.invoices.ALL',
	'VendorInvoice.customerpayments.ALL',
	'VendorSubscriptions.projects.ALL',
	'VendorInventory.bills.ALL',
].join(',');

const accountsByRegion = JSON.stringify(
	Object.fromEntries(Object.entries(REGIONS).map(([key, urls]) => [key, urls.accounts])),
);

/** `{accounts_url}` from the region, or the Custom field. */
const accountsUrl = `($self["region"] === "custom" ? String($self["accountsUrl"] || "").replace(/\\/+$/, "") : ${accountsByRegion}[$self["region"]])`;

export class VendorOAuth2Api implements ICredentialType {
	name = 'vendorOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Vendor OAuth2 API';

	icon: Icon = { light: 'file:vendor.svg', dark: 'file:vendor.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-vendor/n8n-nodes-vendor#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Data Center Region',
			name: 'region',
			type: 'options',
			options: [
				// the named regions, then Custom last
				{ name: 'United States (US)', value: 'us' },
				{ name: 'Europe (EU)', value: 'eu' },
				{ name: 'India (IN)', value: 'in' },
				{ name: 'Australia (AU)', value: 'au' },
				{ name: 'China (CN)', value: 'cn' },
				{
					name: 'Custom',
					value: 'custom',
					description: 'Enter the accounts, API and projects addresses',
				},
			],
			default: 'us',
			description:
				'The data center your account lives in. If connecting ends with invalid_client, your account is in another region: choose that one and connect again.',
		},
		{
			displayName:
				"Enter your account's accounts server as Accounts URL: the address the consent page shows. If connecting ends with invalid_client, your account is in another region: choose that region, or enter its addresses here.",
			name: 'regionNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'Accounts URL',
			name: 'accountsUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://accounts.example.com',
			description:
				'The authorization server ({accounts_url}); /oauth/v2/auth and /oauth/v2/token are appended',
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'API URL',
			name: 'apiUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://api.example.com',
			description:
				'Root of the accounting, payments, billing and inventory areas ({api_url}). The api_domain of the token takes precedence when the server sends one.',
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'Projects URL',
			name: 'projectsUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://projects.example.com',
			description: 'Root of the project-management area ({base_url})',
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: `={{ ${accountsUrl} + "/oauth/v2/auth" }}`,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `={{ ${accountsUrl} + "/oauth/v2/token" }}`,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_SCOPES,
			description:
				'Comma-separated scopes (Service.scope.OPERATION). The default grants every area the Vendor nodes use.',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: 'access_type=offline&prompt=consent',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
		{
			displayName: 'Projects Requests per 2 Minutes (This n8n)',
			name: 'projectsRequestsPerWindow',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 100,
			description:
				"This n8n process's share of the Vendor Projects limit (100 requests per 2 minutes per account, 30 minutes blocked past it). Exceeding it blocks the account for 30 minutes, so this share is never probed: in queue mode divide the limit among the processes that run executions (the workers; main only when it runs executions itself: manual runs, a Vendor Projects Trigger), keeping a margin: e.g. 2 workers: 45 each.",
		},
		{
			displayName: 'Accounting Requests per Minute (Ceiling)',
			name: 'accountingRequestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description:
				'The most requests this n8n process sends per minute to each organization in Vendor Books, Invoice (payments), Billing and Inventory (purchase bills), all four together. The service allows about 100 per minute per organization (HTTP 429 past it), shared by every integration of the organization. Below this ceiling each process finds its share by itself: when the service answers 429 it slows down, and it speeds up again step by step while requests go through, so queue-mode workers need no setting here. Lower it only to leave room for other apps that use the same organization.',
		},
	];
}
