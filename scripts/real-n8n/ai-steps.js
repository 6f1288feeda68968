/**
 * check.js's real-client steps: the package's tools used as an AI agent and an MCP client use
 * them, and a polling trigger activated during an outage. Each is one `step` (one PASS or FAIL
 * line) run in the session of n8n-session.js, after the credential is connected.
 *
 *  - agentStep: a scripted OpenAI-compatible model (scripted-model.js, on 127.0.0.1) behind
 *    n8n's OpenAI Chat Model (an OpenAI credential whose Base URL is the local server;
 *    `responsesApiEnabled` false, so chat completions); Manual Trigger -> AI Agent with that
 *    model and the Vendor Books Tool (Invoice -> Get Many, status from `$fromAI`) as its tool,
 *    run through POST /rest/workflows/:id/run. The model calls the tool with status
 *    "overdue"; the emulator must get that list call with the OAuth token, and the agent's
 *    answer (the model's reply to the tool result) must name the emulator's overdue invoices.
 *  - agentToolErrorStep: the same agent while the Books API answers 503: with the tool's On
 *    Error set to continue, the model gets the error text and the run succeeds with its answer
 *    about it (checked); with the default On Error, what this n8n does is reported (2.20.12 ends
 *    the run with the tool's error and the model never sees it; 2.40.7 hands the model the error)
 *  - mcpStep: MCP Server Trigger with the Vendor Books Tool (Estimate -> Get Many, customer
 *    name from `$fromAI`) connected, activated (POST /rest/workflows/:id/activate); the MCP
 *    SDK's client (Streamable HTTP) at <n8n>/mcp/<path> lists the tools (the Vendor tool with
 *    the `$fromAI` parameter in its input schema) and calls it: the emulator's estimates of
 *    that customer come back.
 *  - outageStep: a Vendor Books Trigger (Estimate Created, every minute) activated while the
 *    emulator answers the Books area 503 (POST /__admin/faults): the activation succeeds, its
 *    read (n8n's first call: the poll at activation makes one attempt and never waits, so n8n's
 *    publication deadline is never near) answered 503 within seconds, the workflow is active without an activation error, n8n's log has the package's warning;
 *    any later call (n8n's scheduled poll, which may come right after) answered 200;
 *    an estimate created after that is emitted by the next scheduled poll, in exactly one
 *    execution. Then the refresh token revoked and the access tokens expired
 *    (POST /__admin/tokens/revoke, /tokens/expire): activating again fails with the refresh
 *    error and leaves the workflow inactive. Real waiting: at most about two minutes.
 */
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const {
	ROOT,
	PACKAGE,
	CREDENTIAL_NAME,
	step,
	check,
	createWorkflow,
	runAndWait,
	outputOf,
	assertSucceeded,
	checkCallsAuthorized,
} = require('./n8n-session');
const { startScriptedModel, MODEL } = require('./scripted-model');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const AGENT = '@n8n/n8n-nodes-langchain.agent';
const CHAT_MODEL = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';
const BOOKS_TOOL = `${PACKAGE.name}.vendorBooksTool`;
const BOOKS_TRIGGER = `${PACKAGE.name}.vendorBooksTrigger`;

/** The type version the editor adds for a node type (its default, else its highest), from /types/nodes.json. */
async function editorVersion(s, type, { min } = {}) {
	if (!s.nodeTypes) s.nodeTypes = await s.api.json('GET', '/types/nodes.json');
	const entries = s.nodeTypes.filter((n) => n.name === type);
	check(entries.length, `node type ${type} is not loaded in this n8n`);
	const versions = entries.flatMap((n) => [].concat(n.version));
	const preferred =
		entries.map((n) => n.defaultVersion).find((v) => v !== undefined) ?? Math.max(...versions);
	check(
		min === undefined || preferred >= min,
		`${type}: version ${preferred} (of ${versions.join(', ')}); this check needs ${min} or later`,
	);
	return preferred;
}

/** Node names as n8n turns them into tool names (n8n-workflow nodeNameToToolName). */
const toolNameOf = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

const vendorCredential = () => ({ vendorOAuth2Api: { name: CREDENTIAL_NAME } });
const org = (s) => ({ __rl: true, mode: 'id', value: s.em.organizationId });
const node = (name, type, typeVersion, parameters, x, extra = {}) => ({
	parameters,
	id: crypto.randomUUID(),
	name,
	type,
	typeVersion,
	position: [x, 0],
	...extra,
});

/**
 * Activates a workflow through n8n's REST API (POST /rest/workflows/:id/activate) and waits until
 * n8n has done it. Releases differ: n8n 2.20 activates the triggers inside the request (a trigger
 * that fails makes it answer 4xx and roll the workflow back); n8n 2.40 records the publication
 * and answers at once, activating in the background, with the outcome at
 * GET /rest/workflows/:id/publication-status ('in_progress', then 'published', 'partial' or
 * 'failed' with each trigger's status and error). Returns
 * { ok, way: 'in the request' | 'in the background', status (HTTP), message, publication }.
 */
async function activate(s, id) {
	const wf = await s.api.json('GET', `/rest/workflows/${id}`);
	const res = await s.api.raw('POST', `/rest/workflows/${id}/activate`, {
		versionId: wf.versionId,
	});
	const text = await res.text();
	let body;
	try {
		body = JSON.parse(text);
	} catch {
		body = text;
	}
	const answer = { status: res.status, body };
	if (!res.ok)
		return {
			...answer,
			ok: false,
			way: 'in the request',
			message: String((body && body.message) || text),
		};
	const statusUrl = `/rest/workflows/${id}/publication-status`;
	const deadline = Date.now() + 60_000;
	for (;;) {
		const r = await s.api.raw('GET', statusUrl);
		const t = await r.text();
		if (r.status === 404 && !/"status"/.test(t))
			return { ...answer, ok: true, way: 'in the request' }; // no publication service
		check(r.ok, `GET ${statusUrl} answered ${r.status}: ${t.slice(0, 300)}`);
		const publication = JSON.parse(t).data;
		if (publication.status !== 'in_progress') {
			const failed = (publication.triggers || []).filter((tr) => tr.status === 'failed');
			return {
				...answer,
				ok: publication.status === 'published',
				way: 'in the background',
				publication,
				message: failed.map((tr) => tr.errorMessage).join('; ') || undefined,
			};
		}
		check(Date.now() < deadline, `publication of workflow ${id} still in progress after 60 s`);
		await sleep(250);
	}
}

/** POST /rest/workflows/:id/deactivate; where n8n does it in the background (2.40), until it is done. */
async function deactivate(s, id) {
	await s.api.json('POST', `/rest/workflows/${id}/deactivate`, {});
	const deadline = Date.now() + 30_000;
	for (;;) {
		const r = await s.api.raw('GET', `/rest/workflows/${id}/publication-status`);
		const t = await r.text();
		if (!r.ok || JSON.parse(t).data.status !== 'in_progress') return;
		check(Date.now() < deadline, `deactivation of workflow ${id} still in progress after 30 s`);
		await sleep(250);
	}
}

/** The API calls the emulator saw from n8n (its OAuth token), not the ones this script made. */
const n8nCalls = (s) =>
	s.apiCalls().filter((r) => r.headers.authorization === `Vendor-oauthtoken ${s.accessToken}`);
const callLine = (r) =>
	`${r.method} ${r.path.replace(/^\/us\/api\/books\/v3/, '')}${Object.keys(r.query).length ? `?${new URLSearchParams(Object.fromEntries(Object.entries(r.query).filter(([k]) => k !== 'organization_id')))}` : ''} -> ${r.status}`;

// ------------------------------------------------------------------ 1. AI Agent with a scripted model

const STATUS_DESCRIPTION =
	'The invoice status to list: one of draft, sent, overdue, paid, partially_paid, unpaid, viewed, void';
const AGENT_NODES = {
	trigger: 'When clicking ‘Execute workflow’',
	agent: 'AI Agent',
	chat: 'OpenAI Chat Model',
	tool: 'Get Invoices',
	createTool: 'Create Invoice',
};
/** The Invoice -> Create parameters a model fills in agentStep's second tool (display names). */
const CREATE_FROM_AI = ['Customer ID', 'Line Items (JSON)'];

/** n8n's editor: the $fromAI key of a top-level parameter (its display name, sanitized; fromAIOverride.utils). */
const fromAiKey = (displayName) => displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
/** n8n's editor: the $fromAI type of a parameter type (fromAIOverride.utils fieldTypeToFromAiType). */
const fromAiType = (type) => (['boolean', 'number', 'json'].includes(type) ? type : 'string');

/**
 * The Vendor Books Tool's Invoice -> Create as the model gets to fill it: for each parameter of
 * CREATE_FROM_AI, the value n8n's editor writes when the user lets the model define it (the ✨
 * override: `$fromAI(<key from the display name>, <description>, <type from the parameter
 * type>)`), with the parameter's own description (as served in /types/nodes.json) as the
 * override's description, which the editor leaves for the user to write. So the schema the model
 * is offered follows the node description. Resolves to the tool node's parameters.
 */
async function createInvoiceToolParameters(s) {
	await editorVersion(s, BOOKS_TOOL);
	const tool = s.nodeTypes.find((n) => n.name === BOOKS_TOOL);
	const shown = (p) => {
		const show = (p.displayOptions && p.displayOptions.show) || {};
		return (
			(!show.resource || show.resource.includes('invoice')) &&
			(!show.operation || show.operation.includes('create'))
		);
	};
	const parameters = { organizationId: org(s), resource: 'invoice', operation: 'create' };
	for (const displayName of CREATE_FROM_AI) {
		const p = tool.properties.find((q) => q.displayName === displayName && shown(q));
		check(p, `${BOOKS_TOOL} has no parameter "${displayName}" for Invoice -> Create`);
		// a parameter whose builder hint gives the $fromAI call to use (the JSON alternatives): that call
		const hinted = /\{\{ \$fromAI\(.*\) \}\}/.exec((p.builderHint && p.builderHint.message) || '');
		if (hinted) {
			parameters[p.name] = `=${hinted[0]}`;
			continue;
		}
		const description = String(p.description || '')
			.replace(/\s+/g, ' ')
			.trim();
		// quoted as the editor quotes it: in backticks unless it holds one, the quote and backslashes escaped
		const q = !description.includes('`') ? '`' : !description.includes('"') ? '"' : "'";
		const quoted = `${q}${description.replace(/\\/g, '\\\\').split(q).join(`\\${q}`)}${q}`;
		parameters[p.name] =
			`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${fromAiKey(displayName)}', ${quoted}, '${fromAiType(p.type)}') }}`;
	}
	return parameters;
}

/**
 * A scripted model (scripted-model.js) and an OpenAI credential whose Base URL is it; `script`:
 * startScriptedModel's options. Resolves to { model, credential }; close the model when done.
 */
async function scriptedModel(s, name, script) {
	const model = await startScriptedModel(script);
	try {
		const credential = await s.api.json('POST', '/rest/credentials', {
			name,
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-model-no-key', url: `${model.url}/v1` },
		});
		check(credential && credential.id, 'no OpenAI credential id');
		return { model, credential };
	} catch (error) {
		await model.close();
		throw error;
	}
}

/**
 * Manual Trigger -> AI Agent (the version the editor adds) with the OpenAI Chat Model 1.3+ on
 * `credential` (responsesApiEnabled false) and the Vendor Books Tool (Invoice -> Get Many, status
 * from `$fromAI`) as its tool; `toolSettings`: node settings of the tool (e.g. onError). Its id.
 */
async function createAgentWorkflow(s, { name, credential, toolSettings = {}, createTool = false }) {
	const { trigger, agent, chat, tool } = AGENT_NODES;
	s.agentVersion = await editorVersion(s, AGENT);
	s.chatVersion = await editorVersion(s, CHAT_MODEL, { min: 1.3 });
	// with `createTool`, a second tool: Invoice -> Create, filled by the model (createInvoiceToolParameters)
	const extra = createTool
		? [
				node(AGENT_NODES.createTool, BOOKS_TOOL, 1, await createInvoiceToolParameters(s), 600, {
					credentials: vendorCredential(),
				}),
			]
		: [];
	return await createWorkflow(s, {
		name,
		nodes: [
			node(trigger, 'n8n-nodes-base.manualTrigger', 1, {}, 0),
			node(
				agent,
				AGENT,
				s.agentVersion,
				{
					promptType: 'define',
					text: 'Which invoices are overdue? Answer with their numbers.',
					options: {},
				},
				260,
			),
			node(
				chat,
				CHAT_MODEL,
				s.chatVersion,
				{
					model: { __rl: true, mode: 'id', value: MODEL },
					responsesApiEnabled: false,
					options: {},
				},
				200,
				{ credentials: { openAiApi: { id: credential.id, name: credential.name } } },
			),
			node(
				tool,
				BOOKS_TOOL,
				1,
				{
					organizationId: org(s),
					resource: 'invoice',
					operation: 'getAll',
					returnAll: true,
					filters: {
						status: `={{ $fromAI('status', ${JSON.stringify(STATUS_DESCRIPTION)}, 'string') }}`,
					},
				},
				400,
				{ credentials: vendorCredential(), ...toolSettings },
			),
			...extra,
		],
		connections: {
			[trigger]: { main: [[{ node: agent, type: 'main', index: 0 }]] },
			[chat]: { ai_languageModel: [[{ node: agent, type: 'ai_languageModel', index: 0 }]] },
			[tool]: { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] },
			...Object.fromEntries(
				extra.map((n) => [n.name, { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] }]),
			),
		},
		settings: { executionOrder: 'v1' },
	});
}

function agentStep(s) {
	return step(
		"AI Agent with a scripted OpenAI-compatible model (127.0.0.1) calls the Vendor Books Tool ($fromAI status): the emulator's overdue invoices in its answer",
		async () => {
			const overdue = s.tenant.all('invoices').filter((i) => i.status === 'overdue');
			check(overdue.length > 0, 'no overdue invoices in the demo data');
			const numbers = overdue.map((i) => String(i.invoice_number)).sort();
			const { model, credential } = await scriptedModel(s, 'Scripted model', {
				tool: new RegExp(`^${toolNameOf(AGENT_NODES.tool)}$`),
				args: () => ({ status: 'overdue' }),
				// the final message: the invoice numbers the tool answered (JSON, or JSON inside a string)
				answer: (text) => {
					const found = [
						...new Set(
							[...text.matchAll(/\\?"invoice_number\\?"\s*:\s*\\?"([^"\\]+)/g)].map((m) => m[1]),
						),
					];
					return found.length
						? `The overdue invoices are ${found.join(', ')}.`
						: `The tool answered no invoice numbers: ${text.slice(0, 300)}`;
				},
			});
			try {
				const { trigger, agent, tool } = AGENT_NODES;
				const id = await createAgentWorkflow(s, {
					name: 'AI Agent: overdue invoices through the Vendor Books Tool',
					credential,
					createTool: true,
				});
				s.em.clearRequests();
				const result = await runAndWait(s, id, trigger);
				const modelTalk = `the model got ${model.requests.length} chat request(s); tool calls ${JSON.stringify(model.toolCalls)}`;
				assertSucceeded(result, [trigger, agent]);
				const [out] = outputOf(result.data, agent);
				const answer = out && String(out.output ?? '');
				// what the model was offered: the tool named after the node, with the $fromAI parameter
				check(model.requests.length >= 2, `${modelTalk}; expected a tool call and a final answer`);
				const offered = (model.requests[0].tools || []).map((t) => t.function || t);
				const offeredTool = offered.find((t) => t.name === toolNameOf(tool));
				check(
					offeredTool,
					`the model was offered ${offered.map((t) => t.name).join(', ') || 'no tools'}; expected ${toolNameOf(tool)}`,
				);
				const props = (offeredTool.parameters && offeredTool.parameters.properties) || {};
				check(
					props.status &&
						props.status.type === 'string' &&
						props.status.description === STATUS_DESCRIPTION,
					`the tool's parameters: ${JSON.stringify(offeredTool.parameters)}`,
				);
				s.offeredTools = offered; // agentToolSchemaStep reads the Invoice -> Create tool from them
				// the tool's API call, made by n8n with the OAuth token
				const calls = n8nCalls(s);
				const lists = calls.filter((r) => r.method === 'GET' && r.path.endsWith('/invoices'));
				check(
					lists.length >= 1 && lists.every((r) => r.query.status === 'overdue' && r.status === 200),
					`calls: ${calls.map(callLine).join('; ') || 'none'}`,
				);
				checkCallsAuthorized(s);
				// the final answer: the emulator's overdue invoices, all of them and no others
				const named = [...new Set(answer.match(/INV-\d+/g) || [])].sort();
				check(
					JSON.stringify(named) === JSON.stringify(numbers),
					`the agent answered "${answer.slice(0, 300)}"; the emulator's overdue invoices are ${numbers.join(', ')}`,
				);
				const ran = Object.keys(result.data.resultData.runData);
				return [
					`workflow ${id}, execution ${result.id}: ${result.execution.status}; AI Agent ${s.agentVersion}, OpenAI Chat Model ${s.chatVersion} (responsesApiEnabled false) -> ${model.url}/v1/chat/completions`,
					`offered tool ${offeredTool.name}: "${String(offeredTool.description).slice(0, 90)}", parameters ${JSON.stringify(Object.keys(props))}; ${model.requests.length} chat requests (stream: ${model.requests.map((r) => Boolean(r.stream)).join(', ')})`,
					`the model called ${offeredTool.name} ${JSON.stringify(model.toolCalls[0].arguments)}; API calls: ${lists.map(callLine).join('; ')}`,
					`the agent answered: "${answer}"`,
					`nodes in the execution's run data: ${ran.join(', ')}`,
				];
			} finally {
				await model.close();
			}
		},
	);
}

/**
 * What agentStep's model was offered for the Vendor Books Tool's Invoice -> Create (the second
 * tool, its CREATE_FROM_AI parameters filled by the model): the tool's parameter schema is
 * printed, and Line Items (JSON) must come with a JSON-schema `type` and a `description`, so
 * that a model knows what to send (n8n's `$fromAI` type 'json' gives an untyped, undescribed
 * schema).
 */
function agentToolSchemaStep(s) {
	return step(
		'AI Agent: the model is offered Vendor Books Tool Invoice -> Create with Line Items (JSON) typed and described',
		async () => {
			check(s.offeredTools, 'the AI Agent step did not record the offered tools');
			const name = toolNameOf(AGENT_NODES.createTool);
			const offered = s.offeredTools.find((t) => t.name === name);
			check(
				offered,
				`the model was offered ${s.offeredTools.map((t) => t.name).join(', ')}; expected ${name}`,
			);
			const props = (offered.parameters && offered.parameters.properties) || {};
			const schema = JSON.stringify(props);
			const [customer, lines] = CREATE_FROM_AI.map(fromAiKey);
			check(
				props[customer] && props[customer].type === 'string',
				`${name}: ${customer} is not a string: ${schema}`,
			);
			const line = props[lines];
			check(line, `${name}: no ${lines} in ${schema}`);
			const missing = ['type', 'description'].filter(
				(k) => !(k in line) || line[k] === '' || line[k] === undefined,
			);
			check(
				missing.length === 0,
				`${name}: ${lines} has no ${missing.join(' and no ')}: ${JSON.stringify(line)} (tool schema ${schema})`,
			);
			return [
				`${name}: "${String(offered.description).slice(0, 90)}"`,
				`tool schema: ${schema}`,
				`required: ${JSON.stringify(offered.parameters.required || [])}`,
			];
		},
	);
}

/**
 * The same agent while the Books API answers 503 (every attempt of the read): with the tool's
 * On Error set to continue (continueRegularOutput) the model must receive the error text and
 * the run succeed with the model's answer about it. Without it, what this release does is
 * reported (n8n 2.20 ends the agent run with the tool's error; later releases hand the model
 * the error text), not checked.
 */
function agentToolErrorStep(s) {
	return step(
		"AI Agent: a Vendor tool error (the API answers 503) reaches the scripted model when the tool's On Error continues; without it, what this n8n does",
		async () => {
			const { model, credential } = await scriptedModel(s, 'Scripted model (errors)', {
				tool: /invoice/i,
				args: () => ({ status: 'overdue' }),
				answer: (text) => `The tool failed: ${text.slice(0, 400)}`,
			});
			const outage = {
				count: 4,
				scope: 'books',
				fault: { kind: 'status', status: 503, retryAfter: 0 },
			};
			const run = async (name, toolSettings) => {
				const id = await createAgentWorkflow(s, { name, credential, toolSettings });
				await admin(s, 'faults', outage);
				s.em.clearRequests();
				const before = model.requests.length;
				const result = await runAndWait(s, id, AGENT_NODES.trigger);
				await fetch(`${s.em.url}/__admin/faults`, { method: 'DELETE' });
				const runs = result.data.resultData.runData[AGENT_NODES.agent] || [];
				const last = runs[runs.length - 1];
				const out =
					last &&
					!last.error &&
					last.data &&
					last.data.main &&
					last.data.main[0] &&
					last.data.main[0][0];
				const error = result.data.resultData.error;
				const toolText = model.requests
					.slice(before)
					.flatMap((r) =>
						(r.messages || []).filter((m) => m.role === 'tool').map((m) => String(m.content)),
					);
				return {
					id,
					result,
					answer: out ? String(out.json.output ?? '') : undefined,
					error,
					toolText,
					calls: n8nCalls(s).map((r) => r.status),
				};
			};
			try {
				const continued = await run('AI Agent: tool error, On Error continues', {
					onError: 'continueRegularOutput',
				});
				check(
					continued.result.execution.status === 'success' && !continued.error,
					`with On Error continue: execution ${continued.result.id} ${continued.result.execution.status}${continued.error ? `: ${continued.error.message}` : ''}`,
				);
				check(
					continued.calls.length && continued.calls.every((st) => st === 503),
					`the tool's calls answered ${continued.calls.join(', ') || 'nothing'}; expected 503s`,
				);
				check(
					continued.toolText.some((x) => /Service unavailable/.test(x)),
					`the model got no tool result naming the 503: ${JSON.stringify(continued.toolText).slice(0, 300)}`,
				);
				check(
					/^The tool failed: .*Service unavailable/s.test(continued.answer || ''),
					`the agent answered "${String(continued.answer).slice(0, 300)}"`,
				);

				const stopped = await run('AI Agent: tool error, On Error default', {});
				const outcome = stopped.error
					? `the execution ends ${stopped.result.execution.status}: "${String(stopped.error.message).slice(0, 160)}"${stopped.toolText.length ? '' : ' (the model never saw the error)'}`
					: `the execution ends ${stopped.result.execution.status}; the model got the error${stopped.toolText.length ? ` ("${stopped.toolText[0].slice(0, 100)}")` : ' (no tool message?)'} and answered "${String(stopped.answer).slice(0, 120)}"`;
				return [
					`On Error continue (workflow ${continued.id}, execution ${continued.result.id}: ${continued.result.execution.status}): API ${continued.calls.join(', ')}; the tool result the model got: "${continued.toolText[0].slice(0, 140)}"`,
					`the agent answered: "${continued.answer.slice(0, 160)}"`,
					`On Error default (Stop Workflow; workflow ${stopped.id}, execution ${stopped.result.id}): ${outcome}`,
				];
			} finally {
				await fetch(`${s.em.url}/__admin/faults`, { method: 'DELETE' }).catch(() => {});
				await model.close();
			}
		},
	);
}

// ------------------------------------------------------------------ 2. MCP Server Trigger

function mcpStep(s) {
	return step(
		"MCP Server Trigger with the Vendor Books Tool, activated; the MCP SDK client lists the tool (schema from $fromAI) and calls it: the emulator's estimates",
		async () => {
			const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
			const {
				StreamableHTTPClientTransport,
			} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
			const sdkVersion = JSON.parse(
				fs.readFileSync(
					path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'),
					'utf8',
				),
			).version;
			const customer = 'Globex';
			const expected = s.tenant
				.all('estimates')
				.filter((e) =>
					String(e.customer_name || '')
						.toLowerCase()
						.startsWith(customer.toLowerCase()),
				)
				.map((e) => String(e.estimate_number))
				.sort();
			check(expected.length > 0, `no estimates of ${customer} in the demo data`);
			const [trigger, tool] = ['MCP Server Trigger', 'Get Estimates'];
			const mcpPath = crypto.randomUUID();
			const triggerVersion = await editorVersion(s, MCP_TRIGGER, { min: 2 }); // 2: Streamable HTTP at the path itself
			const description = 'The first letters of the customer name, e.g. Acme';
			const id = await createWorkflow(s, {
				name: 'MCP server: Vendor estimates',
				nodes: [
					node(trigger, MCP_TRIGGER, triggerVersion, { authentication: 'none', path: mcpPath }, 0, {
						webhookId: mcpPath,
					}),
					node(
						tool,
						BOOKS_TOOL,
						1,
						{
							organizationId: org(s),
							resource: 'estimate',
							operation: 'getAll',
							returnAll: true,
							filters: {
								customer_name_startswith: `={{ $fromAI('customer', ${JSON.stringify(description)}, 'string') }}`,
							},
						},
						200,
						{ credentials: vendorCredential() },
					),
				],
				connections: { [tool]: { ai_tool: [[{ node: trigger, type: 'ai_tool', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			});
			const activated = await activate(s, id);
			check(
				activated.ok,
				`activation (${activated.way}) failed: HTTP ${activated.status} ${activated.message || ''} ${JSON.stringify(activated.publication || '')}`,
			);
			const url = new URL(`${s.base}/mcp/${mcpPath}`);
			let client;
			// activation may finish in the background: the endpoint can answer 404 for a moment
			const deadline = Date.now() + 15_000;
			for (;;) {
				client = new Client({ name: 'check-n8n', version: PACKAGE.version });
				try {
					await client.connect(new StreamableHTTPClientTransport(url));
					break;
				} catch (error) {
					await client.close().catch(() => {});
					check(
						Date.now() < deadline,
						`the MCP client could not connect to ${url}: ${error.message}`,
					);
					await sleep(500);
				}
			}
			try {
				const { tools } = await client.listTools();
				const listed = tools.find((t) => t.name === toolNameOf(tool));
				check(
					listed,
					`tools listed: ${tools.map((t) => t.name).join(', ') || 'none'}; expected ${toolNameOf(tool)}`,
				);
				const schema = listed.inputSchema || {};
				const param = (schema.properties || {}).customer;
				check(
					param && param.type === 'string' && param.description === description,
					`input schema ${JSON.stringify(schema)}`,
				);
				s.em.clearRequests();
				const result = await client.callTool({ name: listed.name, arguments: { customer } });
				const text = (result.content || [])
					.filter((c) => c.type === 'text')
					.map((c) => c.text)
					.join('\n');
				check(!result.isError, `the tool answered an error: ${text.slice(0, 400)}`);
				const got = [...new Set(text.match(/EST-\d+/g) || [])].sort();
				check(
					JSON.stringify(got) === JSON.stringify(expected),
					`the tool answered ${got.join(', ') || 'no estimate numbers'} (${text.slice(0, 300)}); the emulator's estimates of ${customer}: ${expected.join(', ')}`,
				);
				const calls = n8nCalls(s);
				const lists = calls.filter((r) => r.method === 'GET' && r.path.endsWith('/estimates'));
				check(
					lists.length >= 1 &&
						lists.every((r) => r.query.customer_name_startswith === customer && r.status === 200),
					`calls: ${calls.map(callLine).join('; ') || 'none'}`,
				);
				checkCallsAuthorized(s);
				// a call without the required $fromAI parameter: what this release does with it (reported, not checked)
				const missing = await client.callTool({ name: listed.name, arguments: {} }).then(
					(r) =>
						r.isError
							? `an error result: ${(r.content || [])
									.map((c) => c.text)
									.join(' ')
									.replace(/\s+/g, ' ')
									.slice(0, 160)}`
							: `a result (${JSON.stringify(r.content).slice(0, 120)})`,
					(e) => `a protocol error: ${String(e.message).replace(/\s+/g, ' ').slice(0, 160)}`,
				);
				return [
					`workflow ${id} active (MCP Server Trigger ${triggerVersion}; activated ${activated.way}); @modelcontextprotocol/sdk ${sdkVersion}, Streamable HTTP at /mcp/<path>`,
					`tools: ${tools.map((t) => t.name).join(', ')}; ${listed.name}: "${String(listed.description).slice(0, 90)}", input schema ${JSON.stringify(schema).slice(0, 200)}`,
					`callTool ${listed.name} {"customer":"${customer}"} -> ${got.join(', ')}; API calls: ${lists.map(callLine).join('; ')}`,
					`a call without "customer" got ${missing}`,
				];
			} finally {
				await client.close().catch(() => {});
				await deactivate(s, id).catch(() => {});
			}
		},
	);
}

// ------------------------------------------------------------------ 3. a trigger activated during an outage

/** POST /__admin/<route> of the emulator (its test and demo switches). */
async function admin(s, route, body) {
	const res = await fetch(`${s.em.url}/__admin/${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body ?? {}),
	});
	const json = await res.json();
	check(res.ok, `POST /__admin/${route} answered ${res.status}: ${JSON.stringify(json)}`);
	return json;
}

/**
 * Stamps each request the emulator records from now on with its arrival (`at`, Date.now()): the
 * emulator's records carry no time, and which poll made a call is told by when it came.
 */
function stampArrivals(s) {
	const records = s.em.requests;
	if (records.stamped) return;
	const push = records.push;
	records.push = function pushStamped(...added) {
		for (const r of added) r.at = Date.now();
		return push.apply(this, added);
	};
	records.stamped = true;
}

/** GET /rest/executions of one workflow (newest first). */
async function executionsOf(s, id) {
	const list = await s.api.json(
		'GET',
		`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: id }))}`,
	);
	return (list && list.results) || [];
}

/** n8n's log from byte `offset` on. */
function logSince(s, offset) {
	return fs.readFileSync(s.logFile).subarray(offset).toString('utf8');
}

function outageStep(s) {
	return step(
		'Vendor Books Trigger (Estimate Created, every minute) activated while the Books API answers 503: active, no activation error, the warning logged; the next poll emits the estimate created meanwhile, once; with a revoked refresh token the activation fails',
		async () => {
			const trigger = 'When an Estimate Is Created';
			const id = await createWorkflow(s, {
				name: 'Vendor: estimate created (activated during an outage)',
				nodes: [
					node(
						trigger,
						BOOKS_TRIGGER,
						1,
						{
							pollTimes: { item: [{ mode: 'everyMinute' }] },
							organizationId: org(s),
							event: 'estimateCreated',
						},
						0,
						{ credentials: vendorCredential() },
					),
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			// the outage: the activation's read (one attempt: the poll at activation never retries nor waits) answered 503
			const queued = await admin(s, 'faults', {
				count: 1,
				scope: 'books',
				fault: { kind: 'status', status: 503, retryAfter: 0 },
			});
			check(
				queued.faults.length === 1 && queued.faults[0].remaining === 1,
				`faults queued: ${JSON.stringify(queued.faults)}`,
			);
			stampArrivals(s);
			s.em.clearRequests();
			const logOffset = fs.statSync(s.logFile).size;
			const t0 = Date.now();
			const activated = await activate(s, id);
			const activationTook = Date.now() - t0;
			check(
				activated.ok,
				`activation during the outage (${activated.way}) failed: HTTP ${activated.status} ${activated.message || ''} ${JSON.stringify(activated.publication || '')}`,
			);
			const timed = (r) => `${r.status} at +${r.at - t0} ms`;
			// The poll at activation makes n8n's first call: its read, one attempt (503). n8n itself may poll again right after, before this script reads the calls: its
			// scheduled poll (at a random second of the minute) or, since 2.40's publication service,
			// a re-publication of the workflow (its reconciler runs every 10 s), whose first poll reads
			// the list afresh. Those later calls are not the activation's: they must succeed.
			const sinceActivation = n8nCalls(s);
			const activationCalls = sinceActivation.slice(0, 1);
			const outage = activationCalls.map((r) => r.status);
			const seen = `n8n's calls: ${sinceActivation.map(timed).join(', ') || 'none'} (the activation done after ${activationTook} ms)`;
			check(
				activationCalls.length === 1 &&
					activationCalls.every((r) => r.status === 503 && r.method === 'GET'),
				`the activation's read answered ${outage.join(', ') || 'nothing'}; expected one 503 (one attempt, no retry); ${seen}`,
			);
			check(
				activationTook < 30_000,
				`the activation took ${activationTook} ms: the poll at activation must not wait (n8n 2.41 abandons a publication after 84 s); ${seen}`,
			);
			check(
				sinceActivation.slice(1).every((r) => r.status === 200),
				`after the activation's 503: ${seen}`,
			);
			const pending = (await (await fetch(`${s.em.url}/__admin/faults`)).json()).faults;
			check(pending.length === 0, `faults left: ${JSON.stringify(pending)}`);
			const wf = await s.api.json('GET', `/rest/workflows/${id}`);
			check(wf.active === true, `the workflow reads active: ${wf.active}`);
			const activeIds = await s.api.json('GET', '/rest/active-workflows');
			check(
				activeIds.includes(id),
				`GET /rest/active-workflows: ${JSON.stringify(activeIds)} lacks ${id}`,
			);
			const activationError = await s.api.json('GET', `/rest/active-workflows/error/${id}`);
			check(!activationError, `activation error: ${JSON.stringify(activationError)}`);
			// n8n's log: the package's warning (and nothing of n8n's retrying the activation)
			await sleep(500);
			const log = logSince(s, logOffset);
			const warning = log.split('\n').find((l) => l.includes(`The first poll of "${trigger}"`));
			check(
				warning &&
					/did not succeed: Service unavailable\. Try again later\. \(code 503\)/.test(warning) &&
					/The workflow stays active/.test(warning),
				`no package warning in n8n's log since the activation:\n${log.slice(-1500)}`,
			);
			// after the outage: an estimate created in the Vendor UI (here: through the API with a token of its own)
			const { apiClient } = require(path.join(ROOT, 'build', 'emulator', 'server.js'));
			const ui = apiClient(s.em, { token: s.em.issueToken({ region: 'us' }).access_token });
			const customerId = String(s.tenant.all('customers')[0].customer_id);
			const created = await ui('POST', 'books', '/estimates', {
				json: {
					customer_id: customerId,
					line_items: [{ name: 'Work after the outage', rate: 100, quantity: 1 }],
				},
			});
			check(
				created.status === 201 || created.status === 200,
				`creating the estimate answered ${created.status}: ${JSON.stringify(created.body).slice(0, 300)}`,
			);
			const estimate = created.body.estimate;
			const createdAt = Date.now();
			// the next scheduled poll (every minute, at a second n8n picked at random): at most ~2 minutes
			let executions = [];
			const deadline = t0 + 130_000;
			while (Date.now() < deadline) {
				executions = await executionsOf(s, id);
				if (
					executions.length &&
					executions.every((e) => e.stoppedAt || ['success', 'error', 'crashed'].includes(e.status))
				)
					break;
				await sleep(2_000);
			}
			check(
				executions.length > 0,
				`no execution within ${Math.round((Date.now() - createdAt) / 1000)} s after the estimate was created; n8n's calls since activation: ${n8nCalls(s).map(callLine).join('; ')}`,
			);
			const caughtUp = Date.now() - createdAt;
			await sleep(3_000); // a second execution of the same poll would show by now
			executions = await executionsOf(s, id);
			check(
				executions.length === 1,
				`${executions.length} executions: ${JSON.stringify(executions.map((e) => [e.id, e.status, e.mode]))}`,
			);
			const ex = await s.api.json('GET', `/rest/executions/${executions[0].id}`);
			const data =
				typeof ex.data === 'string' ? s.release.require('flatted').parse(ex.data) : ex.data;
			check(
				ex.status === 'success' && ex.mode === 'trigger',
				`execution ${ex.id}: status ${ex.status}, mode ${ex.mode}`,
			);
			const emitted = outputOf(data, trigger).map((j) => String(j.estimate_id));
			check(
				JSON.stringify(emitted) === JSON.stringify([String(estimate.estimate_id)]),
				`the execution emitted ${emitted.join(', ') || 'nothing'}; expected only ${estimate.estimate_id} (${estimate.estimate_number})`,
			);
			const untilEmitted = n8nCalls(s);
			const polls = untilEmitted.slice(1);
			check(
				polls.length > 0 && polls.every((r) => r.status === 200),
				`n8n's calls after the outage: ${polls.map(callLine).join('; ')}`,
			);
			const early = polls.filter((r) => r.at < createdAt);

			// a refusal still fails the activation: the refresh token revoked, the access tokens expired
			await deactivate(s, id);
			const refreshTokens = s.em.accounts.issuedTo(s.em.defaultClient.clientId).refresh;
			for (const r of refreshTokens) await admin(s, 'tokens/revoke', { refresh_token: r.token });
			await admin(s, 'tokens/expire');
			s.em.clearRequests();
			const refused = await activate(s, id);
			const message = refused.message || JSON.stringify(refused.body);
			check(
				!refused.ok,
				`activation with a revoked refresh token (${refused.way}) succeeded: HTTP ${refused.status} ${JSON.stringify(refused.publication || refused.body).slice(0, 300)}`,
			);
			check(
				/The access token could not be refreshed \(invalid_code\)/.test(message),
				`activation refused with: ${message.slice(0, 400)}`,
			);
			const after = await s.api.json('GET', `/rest/workflows/${id}`);
			const errorAfter = await s.api.json('GET', `/rest/active-workflows/error/${id}`);
			// n8n 2.20 rolls the workflow back to inactive; 2.40 keeps it published with its trigger marked failed
			if (refused.way === 'in the request')
				check(
					after.active === false,
					`the workflow reads active ${after.active} after the refused activation`,
				);
			else
				check(
					refused.publication.status === 'failed',
					`publication status ${refused.publication.status}`,
				);
			const tokenCalls = s.em.requests
				.filter((r) => r.path.endsWith('/oauth/v2/token'))
				.map((r) => r.status);
			return [
				`workflow ${id}: activation during the outage (${activated.way}) answered ${activated.status}${activated.publication ? `, publication ${activated.publication.status} (triggers ${activated.publication.triggers.map((tr) => tr.status).join(', ')})` : ''}, done after ${(activationTook / 1000).toFixed(1)} s (the Books API answered ${outage.join(', ')}); active, listed in /rest/active-workflows, no activation error`,
				`n8n's log: ${warning.trim().slice(0, 260)}`,
				`estimate ${estimate.estimate_number} created ${createdAt - t0} ms after the activation began; execution ${ex.id} (mode ${ex.mode}) ${Math.round(caughtUp / 1000)} s later emitted exactly it; 1 execution in all; poll calls ${polls.map(callLine).join('; ')}`,
				`n8n's calls from the activation to the emission: ${untilEmitted.map(timed).join(', ')}${early.length ? `; ${early.length} poll(s) before the estimate was created (n8n polling again right after the activation)` : ''}`,
				`every refresh token of the client revoked (${refreshTokens.length}: n8n's and this script's), access tokens expired: activation (${refused.way}) answered HTTP ${refused.status}${refused.publication ? `, publication ${refused.publication.status}` : ''}: "${message.slice(0, 200)}"; workflow active: ${after.active}; activation error: ${JSON.stringify(errorAfter).slice(0, 160)}; n8n's refresh calls answered HTTP ${tokenCalls.join(', ') || 'nothing'} (the emulator answers token errors with 200, as the vendor does)`,
			];
		},
	);
}

module.exports = {
	agentStep,
	agentToolSchemaStep,
	agentToolErrorStep,
	mcpStep,
	outageStep,
	deactivate,
	stampArrivals,
};
