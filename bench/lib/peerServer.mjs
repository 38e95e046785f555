// A scripted model server on 127.0.0.1 that speaks the three wire formats the peers use: OpenAI chat
// completions (`POST …/chat/completions`), Gemini (`POST …:streamGenerateContent` / `:generateContent`)
// and the OpenAI Responses API (`POST …/responses`). Every request is recorded (path, body bytes,
// parsed JSON); each answer is one short final text, so an agent's turn ends after its first request.
// Anything else (model lists, token counts, telemetry) is recorded and answered with an empty success.
import { createServer } from 'node:http';

const TEXT = 'Nothing to change: the task needs no plan.';

function chatSse(res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: body?.model ?? 'bench' };
  const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: TEXT }))}\n\n`);
  res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\n`);
  res.write(
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
}

function chatJson(res, body) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: 0,
      model: body?.model ?? 'bench',
      choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    }),
  );
}

function gemini(res, stream) {
  const answer = {
    candidates: [{ content: { role: 'model', parts: [{ text: TEXT }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: 'bench',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
}

function responses(res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const id = 'resp_bench';
  const msg = {
    type: 'message',
    id: 'msg_bench',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: TEXT, annotations: [] }],
  };
  const response = (status, output) => ({
    id,
    object: 'response',
    created_at: 0,
    status,
    model: body?.model ?? 'bench',
    output,
    usage:
      status === 'completed'
        ? {
            input_tokens: 10,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 10,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 20,
          }
        : null,
  });
  const events = [
    ['response.created', { type: 'response.created', response: response('in_progress', []) }],
    [
      'response.output_item.added',
      { type: 'response.output_item.added', output_index: 0, item: { ...msg, status: 'in_progress', content: [] } },
    ],
    [
      'response.output_text.delta',
      { type: 'response.output_text.delta', item_id: 'msg_bench', output_index: 0, content_index: 0, delta: TEXT },
    ],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item: msg }],
    ['response.completed', { type: 'response.completed', response: response('completed', [msg]) }],
  ];
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** Starts the server; `requests` fills as they arrive. */
export async function startPeerServer() {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body;
      try {
        body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url ?? '';
      requests.push({ at: performance.now(), method: req.method, path: url, bytes: raw.length, body });
      if (req.method === 'POST' && /\/chat\/completions/.test(url))
        return body?.stream ? chatSse(res, body) : chatJson(res, body);
      if (req.method === 'POST' && /:streamGenerateContent/.test(url)) return gemini(res, true);
      if (req.method === 'POST' && /:generateContent/.test(url)) return gemini(res, false);
      if (req.method === 'POST' && /:countTokens/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ totalTokens: 10 }));
      }
      if (req.method === 'POST' && /\/responses/.test(url)) return responses(res, body);
      if (req.method === 'GET' && /\/models/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model', owned_by: 'bench' }], models: [] }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
