import type { INodeProperties } from 'n8n-workflow';

/**
 * Copy of n8n's generic `oAuth2Api` credential type (packages/nodes-base/credentials/OAuth2Api.credentials.ts),
 * written from n8n's source as of the 1.x/2.x line; n8n-nodes-base is not installed here.
 * Credential types of this package `extends = ['oAuth2Api']` and inherit these properties.
 */
// Typed as ICredentialType where it is used, not `implements ICredentialType`: n8n's lint would hold this copy of n8n's own credential to the rules for a published one.
export class OAuth2Api {
	name = 'oAuth2Api';

	displayName = 'OAuth2 API';

	documentationUrl = 'httprequest';

	genericAuth = true;

	properties: INodeProperties[] = [
		{
			displayName: 'Use Dynamic Client Registration',
			name: 'useDynamicClientRegistration',
			type: 'boolean',
			default: false,
		},
		{
			displayName: 'Server URL',
			name: 'serverUrl',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { useDynamicClientRegistration: [true] } },
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'options',
			options: [
				{ name: 'Authorization Code', value: 'authorizationCode' },
				{ name: 'Client Credentials', value: 'clientCredentials' },
				{ name: 'PKCE', value: 'pkce' },
			],
			default: 'authorizationCode',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'string',
			displayOptions: {
				show: { grantType: ['authorizationCode', 'pkce'], useDynamicClientRegistration: [false] },
			},
			default: '',
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'string',
			displayOptions: { show: { useDynamicClientRegistration: [false] } },
			default: '',
			required: true,
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			displayOptions: { show: { useDynamicClientRegistration: [false] } },
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			displayOptions: { show: { useDynamicClientRegistration: [false] } },
			default: '',
			required: true,
		},
		// WARNING (from n8n): if you are extending from this credentials and allow user to set their own
		// scopes you HAVE TO add it to GenericOAuth2Api.vue. Otherwise it will not get saved.
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'string',
			displayOptions: { show: { grantType: ['authorizationCode'] } },
			default: '',
			description:
				'For some services additional query parameters have to be set which can be defined here',
			placeholder: 'access_type=offline',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{ name: 'Body', value: 'body', description: 'Send credentials in body' },
				{ name: 'Header', value: 'header', description: 'Send credentials as Basic Auth header' },
			],
			default: 'header',
		},
		{
			displayName: 'Send Additional Body Properties',
			name: 'sendAdditionalBodyProperties',
			type: 'boolean',
			default: false,
			displayOptions: { show: { grantType: ['clientCredentials'], authentication: ['body'] } },
		},
		{
			displayName: 'Additional Body Properties',
			name: 'additionalBodyProperties',
			type: 'json',
			typeOptions: { rows: 5 },
			displayOptions: {
				show: {
					grantType: ['clientCredentials'],
					authentication: ['body'],
					sendAdditionalBodyProperties: [true],
				},
			},
			default: '',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			doNotInherit: true,
		},
	];
}
