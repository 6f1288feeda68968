/**
 * A scripted "OpenAI" for check.js's AI Agent step: a tiny HTTP server on 127.0.0.1 that speaks
 * the chat-completions format (`POST /v1/chat/completions`, plain JSON or, when the request asks
 * `stream: true`, server-sent events) and answers by script instead of by a model:
 *
 *  - a request whose messages hold no tool result yet: one tool call, to the first offered tool
 *    whose name matches `tool` (a RegExp), with the arguments `args(tool)` gives
 *  - a request that carries a tool result (a `tool` message): a final assistant message,
 *    `answer(toolResultText, request)`
 *
 * n8n's OpenAI Chat Model node points at it through an OpenAI credential whose Base URL is
 * `<url>/v1`, with the node's option `responsesApiEnabled` false (node 1.3 calls `/v1/responses`
 * by default; that route answers 400 here, saying so). `GET /v1/models` lists the one model.
 * Every chat request is kept in `requests` (the body as sent), so the check can read what the
 * model was offered (tool names, descriptions, parameter schemas) and what the tool answered.
 * No key is checked and none is printed.
 */
'use strict';

const http = require('node:http');

const MODEL = 'scripted-model';

/**
 * Starts the server. `tool`: which offered tool to call (RegExp on the function name);
 * `args(tool)`: the call's arguments (an object) for that tool ({ name, description, parameters });
 * `answer(text, body)`: the final message once the tool result `text` came back.
 * Resolves to { url, requests, toolCalls, close() }.
 */
async function startScriptedModel({ tool, args, answer }) {
	const requests = [];
	const toolCalls = [];
	let calls = 0;

	const server = http.createServer(async (req, res) => {
		const chunks = [];
		for await (const c of req) chunks.push(c);
		const url = new URL(req.url || '/', 'http://127.0.0.1');
		const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
		const json = (status, body) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (route === 'GET /v1/models')
			return json(200, {
				object: 'list',
				data: [{ id: MODEL, object: 'model', created: 0, owned_by: 'check' }],
			});
		if (route === 'POST /v1/responses') {
			return json(400, {
				error: {
					message:
						'scripted model: chat completions only (set the OpenAI Chat Model option responsesApiEnabled to false)',
					type: 'invalid_request_error',
				},
			});
		}
		if (route !== 'POST /v1/chat/completions')
			return json(404, {
				error: { message: `scripted model: no route ${route}`, type: 'invalid_request_error' },
			});
		let body;
		try {
			body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
		} catch {
			return json(400, {
				error: { message: 'scripted model: the body is not JSON', type: 'invalid_request_error' },
			});
		}
		requests.push(body);
		const messages = Array.isArray(body.messages) ? body.messages : [];
		const toolResults = messages.filter((m) => m.role === 'tool');
		let message;
		let finish;
		if (toolResults.length) {
			const text = toolResults
				.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
				.join('\n');
			message = { role: 'assistant', content: String(answer(text, body)) };
			finish = 'stop';
		} else {
			const offered = (body.tools || []).map((t) => t.function || t).filter(Boolean);
			const chosen = offered.find((t) => tool.test(t.name));
			if (!chosen) {
				message = {
					role: 'assistant',
					content: `scripted model: no offered tool matches ${tool} (offered: ${offered.map((t) => t.name).join(', ') || 'none'})`,
				};
				finish = 'stop';
			} else {
				calls += 1;
				const call = {
					id: `call_scripted_${calls}`,
					type: 'function',
					function: { name: chosen.name, arguments: JSON.stringify(args(chosen)) },
				};
				toolCalls.push({ name: chosen.name, arguments: args(chosen) });
				message = { role: 'assistant', content: null, tool_calls: [call] };
				finish = 'tool_calls';
			}
		}
		const id = `chatcmpl-scripted-${requests.length}`;
		const created = Math.floor(Date.now() / 1000);
		const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
		if (!body.stream) {
			return json(200, {
				id,
				object: 'chat.completion',
				created,
				model: body.model || MODEL,
				choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
				usage,
			});
		}
		// server-sent events, as OpenAI streams: role first, then the content or the tool call, then the finish
		res.writeHead(200, {
			'content-type': 'text/event-stream',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		const chunk = (delta, finishReason = null, extra = {}) =>
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model || MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra })}\n\n`,
			);
		if (message.tool_calls) {
			const [call] = message.tool_calls;
			chunk({
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						index: 0,
						id: call.id,
						type: 'function',
						function: { name: call.function.name, arguments: '' },
					},
				],
			});
			chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] });
		} else {
			chunk({ role: 'assistant', content: '' });
			chunk({ content: message.content });
		}
		chunk({}, finish);
		if (body.stream_options && body.stream_options.include_usage) {
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model || MODEL, choices: [], usage })}\n\n`,
			);
		}
		res.end('data: [DONE]\n\n');
		return undefined;
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		toolCalls,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startScriptedModel, MODEL };
