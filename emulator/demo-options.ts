import { process } from '../host/globals';
/** Command-line options of `npm run demo`. */

/**
 * The redirect URI the demo client accepts: `--redirect-uri <uri>` or VENDOR_REDIRECT_URI,
 * else n8n's callback on http://localhost:5678. It must be exactly what n8n sends: its
 * editor base URL (N8N_EDITOR_BASE_URL, or the protocol, host and port it runs on) followed
 * by /rest/oauth2-credential/callback, as shown in the credential's "OAuth Redirect URL".
 */
export function redirectUriOption(
	argv: string[],
	env: NodeJS.ProcessEnv = process.env,
): string | undefined {
	const flag = argv.findIndex((a) => a === '--redirect-uri' || a.startsWith('--redirect-uri='));
	const value =
		flag < 0
			? env.VENDOR_REDIRECT_URI
			: argv[flag].includes('=')
				? argv[flag].split('=').slice(1).join('=')
				: argv[flag + 1];
	if (value === undefined || value === '') return undefined;
	const url = URL.canParse(value) ? new URL(value) : undefined;
	if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
		throw new Error(
			`Redirect URI "${value}" is not an http(s) URL (from ${flag < 0 ? 'VENDOR_REDIRECT_URI' : '--redirect-uri'})`,
		);
	}
	return value;
}
