// Features (features/): owns Custom API Call, one of the features the composition root plugs into describe/ and run/; imports tables/, api/, describe/ and run/ types.
/**
 * The package's own "Custom API Call": any request of an area, written as a method and a
 * path relative to the area's API root, sent through the package's transport (signed
 * `Vendor-oauthtoken`, refreshed, paced, envelopes and error codes), with the
 * organisation id placed as the area wants (query or header; the portal in the path for
 * Vendor Projects).
 *
 * It is the last option of the resource list and of every operation list, named exactly
 * "Custom API Call", so n8n appends none of its own (n8n's swaps in the HTTP Request node,
 * which signs `Bearer` and skips the organisation). Its value `customApiCall` is not n8n's
 * `__CUSTOM_API_CALL__`, so the editor keeps this node.
 *
 * Bad input (a URL instead of a path, `.` / `..` segments, a body that is not JSON, an
 * unknown method) is refused before anything is sent, naming the field.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { inputProperty } from '../describe/fields';
import type { DescriptionPart } from '../describe/describe';
import type { ItemPart } from '../run/types';
import { readList } from '../run/calls';
import { assertNotRefused, fileNameFrom, listPages } from '../api/pages';
import { inputFailure } from '../api/nodeErrors';
import { tryParseJson } from '../api/request';
import type { ApiRequest } from '../api/request';
import { InputError } from '../tables/inputError';
import type { Area, Field, HttpMethod, Operation } from '../tables/spec';
import { idTextProblem } from '../tables/ids';
import { multipart, vendorRequest } from '../api/transport';
import type { RunState } from '../api/transport';

/** The value of the option in the resource and operation lists (not n8n's `__CUSTOM_API_CALL__`). */
export const CUSTOM_CALL = 'customApiCall';
/** The option's name: n8n appends its own only where a list's last option is not named this. */
export const CUSTOM_CALL_NAME = 'Custom API Call';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `{api_url}/books/v3`: the root a custom path is relative to, as the documents write it. */
function customCallRoot(area: Area): string {
	return `${area.family === 'projects' ? '{base_url}' : '{api_url}'}${area.basePath}`;
}

/** The "Custom API Call" option of the resource list and of every operation list. */
function customCallOption(area: Area): INodePropertyOptions {
	return {
		name: CUSTOM_CALL_NAME,
		value: CUSTOM_CALL,
		action: `Make custom API call`,
		description: `Send any request of the ${area.name} API, signed${area.org ? ' and with the organization ID' : ''}; needs a method and a path relative to ${customCallRoot(area)}`,
	};
}

/** The portal of a Vendor Projects custom call: replaces `{portal_id}` in the path. */
const PORTAL: Field = {
	name: 'portal_id',
	type: 'id',
	numeric: true, // the Conventions document: `{portal_id}` is a digit string
	locator: 'portal',
	label: 'Portal',
	description: 'Replaces {portal_id} in the path',
};

function exampleGetPath(area: Area): string {
	const op = area.resources
		.flatMap((r) => r.operations)
		.find((o) => o.method === 'GET' && o.kind === 'list' && !o.special);
	return op?.path ?? '/';
}

/** The properties of the custom call, shown when its option is chosen. */
function customCallProperties(area: Area): INodeProperties[] {
	const show = { operation: [CUSTOM_CALL] };
	return [
		...requestLineProperties(area, show),
		...(area.org ? [] : [{ ...inputProperty(area, PORTAL), displayOptions: { show } }]),
		queryProperty(area, show),
		...bodyProperties(show),
		...answerProperties(show),
	];
}

/** The `show` of the custom call's properties. */
type Show = Record<string, string[]>;

/** The operation list of the Custom API Call resource, then the method and the path. */
function requestLineProperties(area: Area, show: Show): INodeProperties[] {
	const root = customCallRoot(area);
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [CUSTOM_CALL] } },
			options: [customCallOption(area)],
			default: CUSTOM_CALL,
		},
		{
			displayName: 'Method',
			name: 'customMethod',
			type: 'options',
			// alphabetical, as n8n's HTTP Request node lists them
			options: [...METHODS].sort().map((m) => ({ name: m, value: m })),
			default: 'GET',
			description: 'The HTTP method of the request',
			displayOptions: { show },
		},
		{
			displayName: 'Path',
			name: 'customPath',
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${exampleGetPath(area)}`,
			hint: `Relative to ${root}`,
			description: `The path below ${root}, starting with / (e.g. ${exampleGetPath(area)}). Not a URL: other hosts are never called; no . or .. segments; query parameters go in 'Query Parameters'.${area.org ? '' : " {portal_id} is replaced by the 'Portal'."}`,
			displayOptions: { show },
		},
	];
}

/** The query parameters, as name / value pairs (the organisation ID is added from its own field). */
function queryProperty(area: Area, show: Show): INodeProperties {
	return {
		displayName: 'Query Parameters',
		name: 'customQuery',
		type: 'fixedCollection',
		placeholder: 'Add Parameter',
		typeOptions: { multipleValues: true },
		default: {},
		description: area.org
			? `Sent in the query; ${area.org.in === 'query' ? `${area.org.name} is` : 'the organization header is'} added from 'Organization ID'`
			: 'Sent in the query',
		options: [
			{
				name: 'parameters',
				displayName: 'Parameter',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
		displayOptions: { show },
	};
}

/** What a request with a body carries: none, JSON, or a file (with the JSON as a form field). */
function bodyProperties(show: Show): INodeProperties[] {
	const withBody = { ...show, customMethod: ['POST', 'PUT', 'PATCH', 'DELETE'] };
	return [
		{
			displayName: 'Body',
			name: 'customBodyType',
			type: 'options',
			options: [
				{
					name: 'File (Multipart)',
					value: 'binary',
					description:
						'A file from an input binary field, with the JSON (if any) as the JSONString form field',
				},
				{ name: 'JSON', value: 'json' },
				{ name: 'None', value: 'none' },
			],
			default: 'none',
			description: 'What the request carries',
			displayOptions: { show: withBody },
		},
		{
			displayName: 'JSON Body',
			name: 'customBody',
			type: 'json',
			default: '{}',
			description:
				'A JSON object or array, sent as it is (with a file: in the JSONString form field)',
			displayOptions: { show: { ...withBody, customBodyType: ['json', 'binary'] } },
		},
		{
			displayName: 'Input Data Field Name',
			name: 'customInputBinaryField',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field holding the file to send',
			displayOptions: { show: { ...withBody, customBodyType: ['binary'] } },
		},
		{
			displayName: 'File Form Field',
			name: 'customFileField',
			type: 'string',
			default: 'attachment',
			description: 'The multipart form field that carries the file',
			displayOptions: { show: { ...withBody, customBodyType: ['binary'] } },
		},
	];
}

/** How the answer comes back: every page of a GET list, and a file answer's binary field. */
function answerProperties(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'customReturnAll',
			type: 'boolean',
			default: false,
			description:
				'Whether to read every page (page / per_page, following page_context) and return one item per record; otherwise the answer is returned as is',
			displayOptions: { show: { ...show, customMethod: ['GET'] } },
		},
		{
			displayName: 'Put Output File in Field',
			name: 'customOutputBinaryField',
			type: 'string',
			default: 'data',
			hint: 'Used when the answer is a file (not JSON): the output binary field to put it in',
			displayOptions: { show },
		},
	];
}

/** Whether item `itemIndex` asks for the custom call (from the resource or the operation list). */
function isCustomCall(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return (
		ctx.getNodeParameter('resource', itemIndex, '') === CUSTOM_CALL ||
		ctx.getNodeParameter('operation', itemIndex, '') === CUSTOM_CALL
	);
}

/** A custom call's input refused before sending: names the field and the rule. */
class CustomCallInputError extends InputError {
	constructor(
		readonly field: string,
		rule: string,
	) {
		super(`${field} ${rule}`);
	}
}

/** The method, upper-cased and checked. */
function customMethod(value: unknown): HttpMethod {
	const method = String(value ?? '')
		.trim()
		.toUpperCase() as HttpMethod;
	if (!METHODS.includes(method))
		throw new CustomCallInputError(
			'Method',
			`must be one of ${METHODS.join(', ')} (got "${String(value ?? '')}")`,
		);
	return method;
}

/** A path segment %-decoded; undefined when an escape is malformed. */
function decodeSegment(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

/**
 * The path below the area's base path, each segment encoded. A leading copy of the base
 * path (`/books/v3/items`) is dropped; `{portal_id}` becomes the portal.
 */
export function customPath(area: Area, value: unknown, portalId?: string): string {
	const root = customCallRoot(area);
	const raw = String(value ?? '').trim();
	if (!raw)
		throw new CustomCallInputError(
			'Path',
			`is required: a path relative to ${root}, e.g. ${exampleGetPath(area)}`,
		);
	if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//') || raw.includes('://')) {
		throw new CustomCallInputError(
			'Path',
			`must be a path relative to ${root} (e.g. ${exampleGetPath(area)}), not a URL: requests go to the credential's ${area.family === 'projects' ? 'projects' : 'API'} host only`,
		);
	}
	if (/[\s\\]/.test(raw))
		throw new CustomCallInputError('Path', 'must not contain spaces or backslashes');
	if (raw.includes('?') || raw.includes('#'))
		throw new CustomCallInputError(
			'Path',
			'must not contain "?" or "#": put query parameters in "Query Parameters"',
		);
	let path = raw.startsWith('/') ? raw : `/${raw}`;
	if (path === area.basePath || path.startsWith(`${area.basePath}/`))
		path = path.slice(area.basePath.length);
	const segments: string[] = [];
	for (const segment of path.split('/').filter((s) => s !== '')) {
		if (segment === '{portal_id}' && !area.org) {
			if (!portalId)
				throw new CustomCallInputError('Portal', 'is required when the path contains {portal_id}');
			segments.push(encodeURIComponent(portalId));
			continue;
		}
		const decoded = decodeSegment(segment);
		if (decoded === undefined)
			throw new CustomCallInputError('Path', `has a malformed %-escape in "${segment}"`);
		if (decoded === '.' || decoded === '..')
			throw new CustomCallInputError('Path', 'must not contain "." or ".." segments');
		if (/[/\\]/.test(decoded))
			throw new CustomCallInputError(
				'Path',
				`must not hide a "/" in an escaped segment ("${segment}")`,
			);
		if (/^\{[^}]*\}$/.test(decoded))
			throw new CustomCallInputError(
				'Path',
				`has the placeholder ${decoded}: replace it with a value`,
			);
		segments.push(encodeURIComponent(decoded));
	}
	return `/${segments.join('/')}`;
}

/** The query parameters from the fixed collection (or an object from an expression). */
function customQuery(area: Area, value: unknown): IDataObject {
	const qs: IDataObject = {};
	const entries: Array<[string, unknown]> = [];
	const list = (value as IDataObject | undefined)?.parameters;
	if (Array.isArray(list))
		for (const p of list as IDataObject[]) entries.push([String(p.name ?? '').trim(), p.value]);
	else if (value && typeof value === 'object' && !('parameters' in value))
		entries.push(...Object.entries(value as IDataObject));
	for (const [name, v] of entries) {
		if (!name) throw new CustomCallInputError('Query Parameters', 'has a parameter without a name');
		if (name in qs) throw new CustomCallInputError('Query Parameters', `names "${name}" twice`);
		if (area.org?.in === 'query' && name === area.org.name)
			throw new CustomCallInputError(
				'Query Parameters',
				`must not set "${name}": it is added from "Organization ID"`,
			);
		qs[name] = typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? '');
	}
	return qs;
}

/** The JSON body: an object or array, parsed from text where needed. */
function customBody(value: unknown): IDataObject | unknown[] {
	let body = value;
	if (typeof value === 'string') {
		if (!value.trim())
			throw new CustomCallInputError(
				'JSON Body',
				'is empty: give a JSON object or array, or choose Body "None"',
			);
		const parsed = tryParseJson(value);
		if (!parsed.ok)
			throw new CustomCallInputError('JSON Body', `is not valid JSON (${parsed.reason})`);
		body = parsed.value;
	}
	if (!body || typeof body !== 'object')
		throw new CustomCallInputError('JSON Body', 'must be a JSON object or array');
	return body as IDataObject | unknown[];
}

interface CustomCall {
	req: ApiRequest;
	file?: { field: string; fileName: string; mimeType: string; data: Buffer };
	returnAll: boolean;
	outputField: string;
}

/** Reads and checks the custom call of item `itemIndex`; throws CustomCallInputError before anything is sent. */
async function readCustomCall(
	ctx: IExecuteFunctions,
	area: Area,
	itemIndex: number,
): Promise<CustomCall> {
	const param = (name: string, fallback: unknown) =>
		ctx.getNodeParameter(name, itemIndex, fallback, { extractValue: true });
	const method = customMethod(param('customMethod', 'GET'));
	const portalId = area.org ? undefined : String(param('portal_id', '') ?? '').trim() || undefined;
	const path = customPath(area, param('customPath', ''), portalId);
	const qs = customQuery(area, param('customQuery', {}));
	const headers: IDataObject = {};
	if (area.org) {
		const organizationId = String(param('organizationId', '') ?? '').trim();
		if (!organizationId) throw new CustomCallInputError('Organization ID', 'is required');
		// its format is never given in the documents: any text but control characters (the rule of IDs documented as strings)
		const problem = idTextProblem(organizationId);
		if (problem)
			throw new CustomCallInputError(
				'Organization ID',
				`${problem} (got ${JSON.stringify(organizationId.slice(0, 40))})`,
			);
		if (area.org.in === 'query') qs[area.org.name] = organizationId;
		else headers[area.org.name] = organizationId;
	}
	const bodyType = method === 'GET' ? 'none' : String(param('customBodyType', 'none'));
	if (!['none', 'json', 'binary'].includes(bodyType))
		throw new CustomCallInputError('Body', `must be none, json or binary (got "${bodyType}")`);
	let body: IDataObject | unknown[] | undefined;
	let file: CustomCall['file'];
	if (bodyType === 'json') body = customBody(param('customBody', ''));
	if (bodyType === 'binary') {
		const raw = param('customBody', '');
		if (raw !== '' && raw !== '{}' && raw !== undefined) body = customBody(raw);
		const property = String(param('customInputBinaryField', 'data') ?? '').trim();
		if (!property)
			throw new CustomCallInputError('Input Binary Field', 'is required when Body is a file');
		const field = String(param('customFileField', 'attachment') ?? '').trim();
		if (!field)
			throw new CustomCallInputError('File Form Field', 'is required when Body is a file');
		const meta = ctx.helpers.assertBinaryData(itemIndex, property);
		const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
		file = {
			field,
			fileName: meta.fileName ?? `file.${meta.fileExtension ?? 'bin'}`,
			mimeType: meta.mimeType,
			data,
		};
	}
	const returnAll = method === 'GET' && param('customReturnAll', false) === true;
	if (returnAll && 'page' in qs)
		throw new CustomCallInputError(
			'Query Parameters',
			'must not set "page" with Return All: every page is read from page 1',
		);
	const outputField = String(param('customOutputBinaryField', 'data') ?? '').trim() || 'data';
	return { req: { method, path, qs, headers, body }, file, returnAll, outputField };
}

/** A list operation standing for the custom GET, for the shared pager (`page_context`, or a short page for Vendor Projects). */
function pagedCall(area: Area, req: ApiRequest): Operation {
	return {
		value: CUSTOM_CALL,
		name: CUSTOM_CALL_NAME,
		action: 'Make custom API call',
		description: 'A custom GET read page by page',
		kind: 'list',
		method: req.method,
		path: req.path,
		fields: [],
		pagination: area.family === 'projects' ? 'pageSize' : 'pageContext',
	};
}

/** Runs the custom call of item `itemIndex`: its output items (not yet paired). */
async function runCustomCall(
	state: RunState<IExecuteFunctions>,
	area: Area,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const ctx = state.ctx;
	let call: CustomCall;
	try {
		call = await readCustomCall(ctx, area, itemIndex);
	} catch (error) {
		throw inputFailure(ctx.getNode(), error, { itemIndex, prefix: 'Invalid input: ' });
	}
	const { req, file, returnAll, outputField } = call;
	if (returnAll) {
		const pageSize = Number(req.qs.per_page) > 0 ? Number(req.qs.per_page) : 200;
		return await readList(
			ctx,
			listPages(state, area, pagedCall(area, req), req, pageSize, itemIndex),
		);
	}
	const res = file
		? await vendorRequest(
				state,
				area,
				{ ...req, body: undefined },
				{
					itemIndex,
					binary: true,
					multipart: multipart(
						file,
						req.body === undefined ? {} : { JSONString: JSON.stringify(req.body) },
					),
				},
			)
		: await vendorRequest(state, area, req, { itemIndex, binary: true });
	if (Buffer.isBuffer(res.body)) {
		if (res.body.length === 0) return [{ json: { statusCode: res.statusCode } }]; // an empty answer: its status is all the API said
		const mimeType = String(res.headers['content-type'] ?? 'application/octet-stream').split(
			';',
		)[0];
		const fileName = fileNameFrom(res.headers, 'file');
		const binary = await ctx.helpers.prepareBinaryData(res.body, fileName, mimeType);
		return [
			{
				json: { fileName, mimeType, fileSize: res.body.length },
				binary: { [outputField]: binary },
			},
		];
	}
	// a code-0 answer saying a value is invalid is a refusal here too (the Accounting document, "Errors")
	assertNotRefused(ctx.getNode(), res.body, itemIndex, {
		...req.qs,
		...(req.body && !Array.isArray(req.body) ? req.body : {}),
	});
	if (Array.isArray(res.body)) return (res.body as IDataObject[]).map((json) => ({ json }));
	return [{ json: res.body as IDataObject }];
}

/** The Custom API Call as the composition root plugs it in: the last option of every list, its properties, and the items that choose it. */
export const customCallFeature: DescriptionPart & ItemPart = {
	lastOption: customCallOption,
	properties: customCallProperties,
	takes: isCustomCall,
	run: runCustomCall,
};
