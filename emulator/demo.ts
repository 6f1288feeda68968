/**
 * `npm run demo`: the emulator with demo data, the credential settings for n8n and an example
 * workflow run by the real nodes; `-- --editor` hands over to `npm run demo:editor`.
 */
import { spawn } from '../host/child_process';
import path from '../host/path';
import type { IDataObject } from 'n8n-workflow';

import { connectedCredential, expectNoError, json, NODE_TYPES, chain } from '../harness/workflows';
import { VendorOAuth2Api } from '../credentials/VendorOAuth2Api.credentials';
import { runWorkflow } from '../harness';
import { Clock } from './clock';
import { redirectUriOption } from './demo-options';
import { startEmulator } from './server';
import { console, process, setInterval } from '../host/globals';

const port = Number(process.env.DEMO_PORT ?? 8787);

function table(rows: IDataObject[], columns: string[]): string {
	const cells = rows.map((r) => columns.map((c) => String(r[c] ?? '')));
	const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
	const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ');
	return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
	const em = await startEmulator({
		port,
		demo: true,
		clock: new Clock({ realTime: true }),
		redirectUri: redirectUriOption(process.argv.slice(2)),
	});
	const urls = em.regionUrls('us');
	const org = em.organizationId;
	console.log(`Vendor API emulator on ${em.url} (demo data loaded)\n`);
	console.log('Credential "Vendor OAuth2 API" for n8n:');
	console.log(`  Data Center Region : Custom`);
	console.log(`  Accounts URL       : ${urls.accounts}`);
	console.log(`  API URL            : ${urls.api}`);
	console.log(`  Projects URL       : ${urls.projects}`);
	console.log(`  Client ID          : ${em.defaultClient.clientId}`);
	console.log(
		`  Client Secret      : (the emulator's demo secret: ${em.defaultClient.clientSecret})`,
	);
	console.log(
		`  Redirect URI       : ${em.defaultClient.redirectUri}  (the only one accepted; change it with --redirect-uri or VENDOR_REDIRECT_URI)`,
	);
	console.log(`  Organization ID    : ${org}    Portal ID: ${em.portalId}\n`);

	const credentials = [connectedCredential(em)];
	const steps = [
		{
			name: 'Active items',
			type: 'vendorBooks',
			parameters: {
				organizationId: org,
				resource: 'item',
				operation: 'getAll',
				returnAll: true,
				filters: { filter_by: 'Status.Active', sort_column: 'name' },
			},
		},
		{
			name: 'New item',
			type: 'vendorBooks',
			parameters: {
				organizationId: org,
				resource: 'item',
				operation: 'create',
				name: 'Demo consulting hour',
				additionalFields: {
					rate: 120,
					product_type: 'service',
					description: 'Created by the demo workflow',
				},
			},
			settings: { executeOnce: true },
		},
		{
			name: 'Overdue invoices',
			type: 'vendorBooks',
			parameters: {
				organizationId: org,
				resource: 'invoice',
				operation: 'getAll',
				returnAll: true,
				filters: { status: 'overdue' },
			},
		},
	];
	const result = await runWorkflow({
		workflow: chain(steps),
		nodeTypes: NODE_TYPES,
		credentialTypes: [VendorOAuth2Api],
		credentials,
	});
	expectNoError(result);

	console.log(
		'Example workflow (n8n engine): Start -> Active items -> New item -> Overdue invoices\n',
	);
	console.log(`Active items (${result.output('Active items').length}):`);
	console.log(table(json(result, 'Active items'), ['item_id', 'name', 'rate', 'status']));
	console.log('\nNew item:');
	console.log(table(json(result, 'New item'), ['item_id', 'name', 'rate', 'product_type']));
	console.log(`\nOverdue invoices (${result.output('Overdue invoices').length}):`);
	console.log(
		table(json(result, 'Overdue invoices'), [
			'invoice_number',
			'customer_name',
			'due_date',
			'total',
			'balance',
			'status',
		]),
	);
	const calls = em.requests.filter((r) => r.area !== 'accounts');
	console.log(`\n${calls.length} API calls reached the emulator:`);
	for (const r of calls) console.log(`  ${r.method.padEnd(6)} ${r.path}  -> ${r.status}`);

	console.log(
		`\nStill serving on ${em.url}. Faults and tokens: ${em.url}/__admin (see docs/CONTRIBUTING.md). Ctrl+C to stop.`,
	);
	console.log("\nNext step: use the nodes in n8n's own editor:");
	console.log(
		'  npm run demo:editor    starts a real n8n with the package, the credential connected to an emulator and the examples imported;',
	);
	console.log(
		'                         it prints the address (http://localhost:5678) and the login.',
	);
	console.log(
		'  Or, in an n8n of your own with the package installed: create a "Vendor OAuth2 API" credential with the values above.',
	);
	const stop = async () => {
		await em.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
	process.on('SIGHUP', () => void stop());
	// Under `npm run demo` the parent is npm (through a shell): when it is killed, this process
	// is re-parented; stop then instead of serving on as an orphan.
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) void stop();
	}, 500).unref();
	if (process.env.DEMO_EXIT === '1') await stop();
}

/**
 * `--editor`: runs scripts/real-n8n/demo-editor.js with the other arguments (dist/ and build/
 * are built already: --skip-build), passes signals on and exits with its exit code.
 */
function handOverToEditor(argv: string[]): boolean {
	if (!argv.includes('--editor')) return false;
	const script = path.resolve(module.path, '..', '..', 'scripts', 'real-n8n', 'demo-editor.js');
	const child = spawn(
		process.execPath,
		[script, ...argv.filter((a) => a !== '--editor'), '--skip-build'],
		{ stdio: 'inherit' },
	);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
		process.on(signal, () => child.kill(signal));
	child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
	// npm killed (it passes no signal on): this process is re-parented; stop the editor demo too.
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) child.kill('SIGTERM');
	}, 500).unref();
	return true;
}

if (!handOverToEditor(process.argv.slice(2))) {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
