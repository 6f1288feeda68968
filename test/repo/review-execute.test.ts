/**
 * Two of n8n's review rules read a node's execute(), which @n8n/eslint-plugin-community-nodes
 * 0.32.0 lacks and which the literal lint (scripts/literal-lint.mjs) cannot apply: its generated
 * classes only stand in for the nodes, whose item loop is built once in nodes/shared/.
 * - node-operation-error-itemindex: every NodeApiError / NodeOperationError raised for an item
 *   carries `itemIndex`. A scan of the sources finds each construction: it passes `itemIndex`
 *   (or options a scan cannot read), or it is a trigger's (poll/) or one of those named in
 *   NOT_FOR_AN_ITEM with why;
 *   the run then gives every item's error its index (run/report.ts itemError), which the runtime
 *   cases below show for errors built with and without one.
 * - require-continue-on-fail: every node's execute() consults continueOnFail: the scan finds the
 *   call in the loop every action node runs, and each node, run with a failing item, fails with
 *   that item's index without it and gives the item an error output, paired, with it.
 */
import type { IDataObject } from 'n8n-workflow';
import ts from 'typescript';

import { readdirSync, readFileSync, statSync } from '../../host/fs';
import { join } from '../../host/path';
import { billingArea } from '../../nodes/VendorBilling/tables';
import { booksArea } from '../../nodes/VendorBooks/tables';
import { inventoryArea } from '../../nodes/VendorInventory/tables';
import { invoiceArea } from '../../nodes/VendorInvoice/tables';
import { projectsArea } from '../../nodes/VendorProjects/tables';
import type { Area } from '../../nodes/shared/tables/spec';
import { useWorkflowEnv } from '../workflows/support';

const ROOT = join(module.path, '..', '..');
const ITEM_ERRORS = new Set(['NodeApiError', 'NodeOperationError']);

/**
 * The constructions without `itemIndex`, by file and enclosing function, with why that is right.
 * A new one fails the scan until it passes `itemIndex` or is named here.
 */
const NOT_FOR_AN_ITEM: Record<string, string> = {
	'nodes/shared/run/report.ts stoppedError':
		'the whole run stopped (canceled), not one item: the description lists every item by state',
	'nodes/shared/api/token.ts refusedError':
		'a token refresh serves every item at once; the item whose request met it gets its index in the item loop (itemError), shown below',
	'nodes/shared/api/token.ts callTokenEndpoint':
		'a token refresh serves every item at once; the item loop gives the error its index (itemError)',
	'nodes/shared/api/token.ts within':
		'a token refresh serves every item at once; the item loop gives the error its index (itemError)',
	'nodes/shared/api/nodeErrors.ts tokenEndpointRedirected':
		'a token refresh serves every item at once; the item loop gives the error its index (itemError)',
};

/** The triggers' polling: a poll has no input items, so none of its errors is an item's. */
const TRIGGER_ONLY = 'nodes/shared/poll/';

/** Every .ts file under `dir`, relative to the package. */
function sources(dir: string): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name: string) => {
		const path = `${dir}/${name}`;
		if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** The name of the function around `node`: its declaration's, or the variable it is assigned to. */
function enclosingFunction(node: ts.Node): string {
	for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
		if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name)
			return at.name.getText();
		if (
			(ts.isArrowFunction(at) || ts.isFunctionExpression(at)) &&
			ts.isVariableDeclaration(at.parent)
		)
			return at.parent.name.getText();
	}
	return '(top level)';
}

/** Whether the options argument gives `itemIndex`, or is not a literal a scan can read (as n8n's rule, which then assumes it does). */
function givesItemIndex(call: ts.NewExpression): boolean {
	const options = call.arguments?.[2];
	if (!options) return false;
	if (!ts.isObjectLiteralExpression(options)) return true;
	return options.properties.some(
		(p) => ts.isSpreadAssignment(p) || (p.name !== undefined && p.name.getText() === 'itemIndex'),
	);
}

interface Construction {
	where: string;
	line: number;
	itemIndex: boolean;
}

/** Every `new NodeApiError(...)` / `new NodeOperationError(...)` in `files`. */
function constructions(files: string[]): Construction[] {
	const found: Construction[] = [];
	for (const file of files) {
		const source = ts.createSourceFile(
			file,
			readFileSync(join(ROOT, file), 'utf8'),
			ts.ScriptTarget.ES2021,
			true,
		);
		const visit = (node: ts.Node): void => {
			if (
				ts.isNewExpression(node) &&
				ts.isIdentifier(node.expression) &&
				ITEM_ERRORS.has(node.expression.text)
			) {
				found.push({
					where: `${file} ${enclosingFunction(node)}`,
					line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
					itemIndex: givesItemIndex(node),
				});
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

const NODE_SOURCES = sources('nodes');

describe('node-operation-error-itemindex: the sources', () => {
	const all = constructions(NODE_SOURCES);

	test('the scan finds the constructions (the error builders of api/, run/ and the specials)', () => {
		expect(all.length).toBeGreaterThan(20);
		expect(all.filter((c) => c.itemIndex).length).toBeGreaterThan(15);
	});

	test('every NodeApiError / NodeOperationError passes itemIndex, or is named as not raised for one item', () => {
		const unexplained = all
			.filter((c) => !c.itemIndex && !c.where.startsWith(TRIGGER_ONLY) && !NOT_FOR_AN_ITEM[c.where])
			.map((c) => `${c.where} (line ${c.line})`);
		expect(unexplained).toEqual([]);
	});

	test('each named exception is still there (a stale entry would excuse a later one)', () => {
		const without = new Set(all.filter((c) => !c.itemIndex).map((c) => c.where));
		expect(Object.keys(NOT_FOR_AN_ITEM).filter((where) => !without.has(where))).toEqual([]);
	});

	test('canary: a construction without itemIndex in an item path is found', () => {
		const file = 'nodes/shared/run/files.ts';
		const text = readFileSync(join(ROOT, file), 'utf8');
		const given = "'Input Binary Field is required', {\n\t\t\titemIndex: run.itemIndex,\n\t\t}";
		expect(text).toContain(given);
		const broken = ts.createSourceFile(
			file,
			text.replace(given, "'Input Binary Field is required', {}"),
			ts.ScriptTarget.ES2021,
			true,
		);
		const calls: ts.NewExpression[] = [];
		const visit = (node: ts.Node): void => {
			if (
				ts.isNewExpression(node) &&
				ts.isIdentifier(node.expression) &&
				ITEM_ERRORS.has(node.expression.text)
			)
				calls.push(node);
			ts.forEachChild(node, visit);
		};
		visit(broken);
		const missing = calls
			.filter((c) => !givesItemIndex(c))
			.map((c) => `${file} ${enclosingFunction(c)}`);
		expect(missing).toEqual([`${file} readUpload`]);
		expect(missing.filter((where) => !NOT_FOR_AN_ITEM[where])).toEqual(missing);
	});
});

describe('require-continue-on-fail: the sources', () => {
	test("every action node's execute() runs executeArea, which consults continueOnFail before its item loop", () => {
		const root = readFileSync(join(ROOT, 'nodes/shared/node.ts'), 'utf8');
		const executes = root.match(/async execute\(this: IExecuteFunctions\)[^{]*\{([^}]*)\}/g) ?? [];
		expect(executes).toHaveLength(1);
		expect(executes[0]).toMatch(/return await executeArea\(this, /);
		const loop = readFileSync(join(ROOT, 'nodes/shared/run/execute.ts'), 'utf8');
		const body = loop.slice(loop.indexOf('export async function executeArea'));
		expect(body).toMatch(/const continueOnFail = ctx\.continueOnFail\(\);/);
		// every action node class comes from areaNodeClass, so has that execute()
		for (const file of NODE_SOURCES.filter(
			(f) => /^nodes\/Vendor\w+\/Vendor\w+\.node\.ts$/.test(f) && !f.includes('Trigger'),
		)) {
			expect({ file, source: readFileSync(join(ROOT, file), 'utf8') }).toEqual({
				file,
				source: expect.stringMatching(/extends areaNodeClass\(/),
			});
		}
	});
});

// --- at run time -------------------------------------------------------------------------------
const env = useWorkflowEnv({ demo: true });
const NODES: Array<[string, Area]> = [
	['vendorBooks', booksArea],
	['vendorProjects', projectsArea],
	['vendorInvoice', invoiceArea],
	['vendorBilling', billingArea],
	['vendorInventory', inventoryArea],
];

/** A path of the area that answers without an ID: its first plain GET list. */
function listPath(area: Area): string {
	const op = area.resources
		.flatMap((r) => r.operations)
		.find(
			(o) =>
				o.kind === 'list' && o.method === 'GET' && !o.path.replace('{portal_id}', '').includes('{'),
		);
	if (!op) throw new Error(`${area.name}: no list without an ID`);
	return op.path;
}

/** Three items of the node's Custom API Call: item 1 refused before sending (a URL, not a path), the others a list. */
function calls(type: string, area: Area, settings: IDataObject = {}) {
	const step = env.areaSteps(type, { resource: 'customApiCall', operation: 'customApiCall' });
	const input = [
		{ path: listPath(area) },
		{ path: 'https://elsewhere.example/x' },
		{ path: listPath(area) },
	];
	return {
		steps: [step('Call', { customMethod: 'GET', customPath: '={{ $json.path }}' }, settings)],
		input,
	};
}

describe.each(NODES)('%s at run time', (type, area) => {
	test('without continue-on-fail, the failing item ends the run with its own itemIndex', async () => {
		const { steps, input } = calls(type, area);
		const result = await env.run(steps, input);
		const error = result.error('Call') as Error & { context?: IDataObject };
		expect(error.message).toMatch(/Path must be a path relative to/);
		expect(error.context?.itemIndex).toBe(1);
	});

	test('with continue-on-fail, the failing item is an error item paired with it; the others run', async () => {
		const { steps, input } = calls(type, area, { onError: 'continueRegularOutput' });
		const result = await env.run(steps, input);
		expect(result.error()).toBeUndefined();
		const out = result.output('Call');
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		expect(out.map((o) => typeof o.json.error)).toEqual(['undefined', 'string', 'undefined']);
	});
});

test('an error built without itemIndex (the token refresh refused) gets the index of the item that met it; with continue-on-fail, each item its own', async () => {
	// last in this file: the credential cannot refresh again
	const { steps, input } = calls('vendorBooks', booksArea);
	env.em.accounts.revokeRefreshToken(String(env.storedToken.refresh_token));
	env.em.accounts.expireAllAccessTokens();
	const failed = await env.run(steps, [input[0], input[2]]);
	const error = failed.error('Call') as Error & { context?: IDataObject };
	expect(error.message).toMatch(/^The access token could not be refreshed/);
	expect(error.context?.itemIndex).toBe(0);
	const each = calls('vendorBooks', booksArea, { onError: 'continueRegularOutput' });
	const result = await env.run(each.steps, [input[0], input[2]]);
	const out = result.output('Call');
	expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1]);
	expect(out.map((o) => String(o.json.error))).toEqual([
		expect.stringMatching(/refreshed/),
		expect.stringMatching(/refreshed/),
	]);
});
