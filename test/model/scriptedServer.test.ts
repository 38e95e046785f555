/** The scripted OpenAI-compatible server that every model, runloop and end-to-end test relies on. */
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { ModelError } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer, sse } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';

const post = (server: ScriptedServer, body: unknown) =>
  fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    body: JSON.stringify(body),
  });

describe('ScriptedServer', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('listens on 127.0.0.1 and exposes the /v1 base URL', async () => {
    server = await ScriptedServer.start([]);
    assert.match(server.baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('streams chunks as data: lines with the event-stream type, ending with [DONE]', async () => {
    server = await ScriptedServer.start([sse.turn(sse.text('hi'), sse.comment('PING'), sse.finish('stop'))]);
    const res = await post(server, { model: 'x', messages: [], stream: true });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    const lines = text.split('\n\n').filter(Boolean);
    assert.equal(lines.length, 4);
    assert.deepEqual(JSON.parse(lines[0]!.slice('data: '.length)).choices[0].delta, { content: 'hi' });
    assert.equal(lines[1], ': PING');
    assert.equal(JSON.parse(lines[2]!.slice('data: '.length)).choices[0].finish_reason, 'stop');
    assert.equal(lines[3], 'data: [DONE]');
  });

  it('sends raw pieces exactly as given', async () => {
    server = await ScriptedServer.start([{ raw: [': hello\n\n', 'data: {"x":1}\n\n'] }]);
    const res = await post(server, { messages: [], stream: true });
    assert.equal(await res.text(), ': hello\n\ndata: {"x":1}\n\n');
  });

  it('records each chat request with its parsed body and headers, in order', async () => {
    const seen: number[] = [];
    server = await ScriptedServer.start((req, n) => {
      seen.push(n);
      return sse.textTurn(`answer ${n} to ${String(req.body.messages.at(-1)?.content)}`);
    });
    const client = new OpenAIModelClient({ baseURL: server.baseURL, apiKey: 'sk-rec' });
    const first = await collect(client.stream({ model: 'm1', messages: [{ role: 'user', content: 'one' }] }));
    const second = await collect(client.stream({ model: 'm2', messages: [{ role: 'user', content: 'two' }] }));
    assert.equal(first.done?.content, 'answer 0 to one');
    assert.equal(second.done?.content, 'answer 1 to two');
    assert.deepEqual(seen, [0, 1]);
    assert.deepEqual(
      server.requests.map((r) => [r.n, r.method, r.path, r.body.model, r.headers.authorization]),
      [
        [0, 'POST', '/v1/chat/completions', 'm1', 'Bearer sk-rec'],
        [1, 'POST', '/v1/chat/completions', 'm2', 'Bearer sk-rec'],
      ],
    );
    assert.equal(JSON.parse(server.requests[0]!.rawBody).model, 'm1');
  });

  it('fails loudly, without a retry, when the script has no turn left', async () => {
    server = await ScriptedServer.start([sse.textTurn('only one')]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 3 });
    const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
    assert.equal((await collect(client.stream(req))).done?.content, 'only one');
    assert.equal(server.remaining, 0);
    const r = await collect(client.stream(req));
    assert.ok(r.error instanceof ModelError, String(r.error));
    assert.equal(r.error.status, 500);
    assert.match(r.error.message, /the script has no turn 1, it has 1 turn, s/);
    assert.equal(server.requests.length, 2, 'x-should-retry: false stops the client retrying');
    assert.deepEqual(server.exhausted, [1]);
  });

  it('serves GET /v1/models and answers unknown routes with a JSON 404', async () => {
    server = await ScriptedServer.start([]);
    const models = await (await fetch(`${server.baseURL}/models`)).json();
    assert.deepEqual(
      models.data.map((m: { id: string }) => m.id),
      ['scripted-model'],
    );
    const missing = await fetch(`${server.baseURL}/embeddings`, { method: 'POST', body: '{}' });
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error.message, /no route for POST \/v1\/embeddings/);
    assert.equal(server.otherRequests.length, 2);
    assert.equal(server.requests.length, 0);
  });

  it('folds a turn into one JSON completion for a request without stream: true', async () => {
    server = await ScriptedServer.start([
      sse.toolTurn([{ id: 'c9', name: 'read_file', args: { path: 'p' } }], { text: 'Reading' }),
    ]);
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const completion = await sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const message = completion.choices[0]!.message;
    assert.equal(message.content, 'Reading');
    assert.deepEqual(message.tool_calls, [
      { id: 'c9', type: 'function', function: { name: 'read_file', arguments: '{"path":"p"}' } },
    ]);
    assert.equal(completion.choices[0]!.finish_reason, 'tool_calls');
  });

  it('destroys the socket after cutAfter pieces', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('abcdefghijklmnop'), cutAfter: 2 }]);
    const res = await post(server, { messages: [], stream: true });
    await assert.rejects(res.text(), /terminated/);
  });

  it('closes promptly while a stream is stalled', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('words'), stallAfter: 1, delayMs: 60_000 }]);
    const res = await post(server, { messages: [], stream: true });
    const reading = res.text();
    await server.close();
    await assert.rejects(reading, /terminated/);
  });
});
