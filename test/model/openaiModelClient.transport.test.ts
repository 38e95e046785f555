/**
 * Transport behaviour of `OpenAIModelClient` through the real `openai` SDK against the scripted
 * server: retries, unreachable endpoints, auth, cancellation, stalls and the request it sends.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ModelError } from '../../src/core/agent/model';
import type { ModelErrorKind, ModelRequest } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import type { OpenAIModelClientOptions } from '../../src/node/openaiModelClient';
import { ScriptedServer, sse } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

/** A client whose retry waits are recorded instead of slept. */
function recordingClient(baseURL: string, extra: Partial<OpenAIModelClientOptions> = {}) {
  const waits: number[] = [];
  const logs: string[] = [];
  const client = new OpenAIModelClient({
    baseURL,
    sleep: async (ms) => {
      waits.push(ms);
    },
    log: (line) => logs.push(line),
    ...extra,
  });
  return { client, waits, logs };
}

const errorOf = (kind: ModelErrorKind, re: RegExp) => (e: unknown) =>
  e instanceof ModelError && e.kind === kind && re.test(e.message);

function assertError(actual: unknown, kind: ModelErrorKind, re: RegExp) {
  assert.ok(errorOf(kind, re)(actual), `expected ModelError ${kind} matching ${re}, got: ${String(actual)}`);
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('OpenAIModelClient: transport', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('retries a 429 and waits as long as retry-after says', async () => {
    server = await ScriptedServer.start([
      sse.httpError(429, 'Rate limit reached for requests', { headers: { 'retry-after': '2' } }),
      sse.textTurn('after the limit'),
    ]);
    const { client, waits, logs } = recordingClient(server.baseURL);
    const r = await collect(client.stream(request));
    assert.equal(r.error, undefined);
    assert.equal(r.done?.content, 'after the limit');
    assert.equal(server.requests.length, 2);
    assert.deepEqual(waits, [2000]);
    assert.ok(
      logs.some((l) => /answered 429 and asked to wait 2 s; retrying in 2\.0s \(attempt 2 of 4\)/.test(l)),
      logs.join('\n'),
    );
  });

  it('honours retry-after-ms', async () => {
    server = await ScriptedServer.start([
      sse.httpError(429, 'slow down', { headers: { 'retry-after-ms': '250' } }),
      sse.textTurn('ok'),
    ]);
    const { client, waits } = recordingClient(server.baseURL);
    assert.equal((await collect(client.stream(request))).done?.content, 'ok');
    assert.deepEqual(waits, [250]);
  });

  it('retries a 503 with exponential backoff, then succeeds', async () => {
    server = await ScriptedServer.start([
      sse.httpError(503, 'model is loading'),
      sse.httpError(502, 'bad gateway'),
      sse.textTurn('loaded'),
    ]);
    const { client, waits } = recordingClient(server.baseURL);
    const r = await collect(client.stream(request));
    assert.equal(r.done?.content, 'loaded');
    assert.equal(server.requests.length, 3);
    assert.equal(waits.length, 2);
    assert.ok(waits[0]! >= 375 && waits[0]! <= 500, `first wait ${waits[0]}`);
    assert.ok(waits[1]! >= 750 && waits[1]! <= 1000, `second wait ${waits[1]}`);
  });

  it('gives up after maxRetries with a rate_limited error that says what happened', async () => {
    server = await ScriptedServer.start(() => sse.httpError(429, 'quota exceeded'));
    const { client, waits } = recordingClient(server.baseURL, { maxRetries: 2 });
    const r = await collect(client.stream(request));
    assertError(r.error, 'rate_limited', /rate-limiting requests \(429: quota exceeded\) \(tried 3 times\)/);
    assert.equal((r.error as ModelError).status, 429);
    assert.equal(server.requests.length, 3);
    assert.equal(waits.length, 2);
  });

  it('does not retry when the server says x-should-retry: false', async () => {
    server = await ScriptedServer.start([sse.httpError(500, 'fatal', { headers: { 'x-should-retry': 'false' } })]);
    const { client, waits } = recordingClient(server.baseURL);
    const r = await collect(client.stream(request));
    assertError(r.error, 'server', /failed with 500 \(fatal\)/);
    assert.equal(server.requests.length, 1);
    assert.deepEqual(waits, []);
  });

  it('does not retry a 400 and passes on the provider message', async () => {
    server = await ScriptedServer.start([sse.httpError(400, "'messages' must not be empty")]);
    const { client } = recordingClient(server.baseURL);
    const r = await collect(client.stream(request));
    assertError(r.error, 'bad_request', /rejected the request for the model 'm' \(400: 'messages' must not be empty\)/);
    assert.equal(server.requests.length, 1);
  });

  it('explains a 404 as a model name or base URL problem', async () => {
    server = await ScriptedServer.start([sse.httpError(404, "model 'llama9' not found")]);
    const { client } = recordingClient(server.baseURL);
    const r = await collect(client.stream({ ...request, model: 'llama9' }));
    assertError(r.error, 'bad_request', /404 for the model 'llama9'.*Check the model name/);
  });

  it('gives one clear message naming the base URL and the model when nothing listens', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const { client, waits } = recordingClient(baseURL, { maxRetries: 1 });
    const r = await collect(client.stream({ ...request, model: 'qwen2.5-coder' }));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'unreachable');
    assert.equal(
      r.error.message,
      `Cannot reach the model 'qwen2.5-coder' at ${baseURL}: connection refused (tried 2 times). ` +
        'Check the base URL setting and that the server is running.',
    );
    assert.equal(waits.length, 1, 'connection failures are retried');
  });

  it('rejects a base URL that is not an http(s) URL before sending anything', async () => {
    const r = await collect(new OpenAIModelClient({ baseURL: 'localhost:11434/v1' }).stream(request));
    assertError(r.error, 'unreachable', /base URL 'localhost:11434\/v1' must start with http:\/\/ or https:\/\//);
    const r2 = await collect(new OpenAIModelClient({ baseURL: 'not a url' }).stream(request));
    assertError(r2.error, 'unreachable', /is not a valid URL/);
  });

  it('turns 401 into an auth error that says to set the API key', async () => {
    server = await ScriptedServer.start(() => sse.textTurn('welcome'), { apiKey: 'sk-right' });
    const none = await collect(recordingClient(server.baseURL).client.stream(request));
    assertError(none.error, 'auth', /requires an API key and none is set.*Set the API key/);
    const wrong = await collect(recordingClient(server.baseURL, { apiKey: 'sk-wrong' }).client.stream(request));
    assertError(wrong.error, 'auth', /rejected the API key \(401: Incorrect API key provided\)\. Set the API key/);
    assert.equal((wrong.error as ModelError).status, 401);
    const right = await collect(recordingClient(server.baseURL, { apiKey: 'sk-right' }).client.stream(request));
    assert.equal(right.done?.content, 'welcome');
  });

  it("sends a dummy key when none is set, and the caller's extra headers", async () => {
    server = await ScriptedServer.start([sse.textTurn('a'), sse.textTurn('b')]);
    await collect(
      new OpenAIModelClient({ baseURL: server.baseURL, extraHeaders: { 'X-Title': 'Planwise' } }).stream(request),
    );
    await collect(new OpenAIModelClient({ baseURL: server.baseURL, apiKey: 'sk-test' }).stream(request));
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer not-needed');
    assert.equal(server.requests[0]!.headers['x-title'], 'Planwise');
    assert.equal(server.requests[1]!.headers.authorization, 'Bearer sk-test');
  });

  it('cancels mid-stream through the AbortSignal with an aborted error', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('first words, then silence'), stallAfter: 2 }]);
    const controller = new AbortController();
    const client = new OpenAIModelClient({ baseURL: server.baseURL });
    const r = await collect(client.stream(request, controller.signal), (e) => {
      if (e.type === 'text') controller.abort();
    });
    assertError(r.error, 'aborted', /cancelled/);
    assert.ok(r.text.length > 0);
    assert.equal(r.done, undefined);
  });

  it('cancels before sending and while waiting to retry', async () => {
    server = await ScriptedServer.start(() => sse.httpError(429, 'wait', { headers: { 'retry-after': '30' } }));
    const before = new AbortController();
    before.abort();
    const early = await collect(new OpenAIModelClient({ baseURL: server.baseURL }).stream(request, before.signal));
    assertError(early.error, 'aborted', /cancelled/);
    assert.equal(server.requests.length, 0);

    const during = new AbortController();
    const client = new OpenAIModelClient({
      baseURL: server.baseURL,
      log: (line) => {
        if (line.includes('retrying')) during.abort();
      },
    });
    const r = await collect(client.stream(request, during.signal));
    assertError(r.error, 'aborted', /cancelled/);
    assert.equal(server.requests.length, 1);
  });

  it('asks again without stream_options when the endpoint rejects them, and remembers', async () => {
    server = await ScriptedServer.start((req) =>
      req.body.stream_options
        ? sse.httpError(400, 'Unrecognized request argument supplied: stream_options')
        : sse.textTurn('plain'),
    );
    const { client, logs } = recordingClient(server.baseURL);
    assert.equal((await collect(client.stream(request))).done?.content, 'plain');
    assert.equal((await collect(client.stream(request))).done?.content, 'plain');
    assert.deepEqual(
      server.requests.map((q) => q.body.stream_options !== undefined),
      [true, false, false],
    );
    assert.ok(logs.some((l) => l.includes('rejects stream_options')));
  });

  it('maps messages, tools and options to the chat request body', async () => {
    server = await ScriptedServer.start([sse.textTurn('ok')]);
    const full: ModelRequest = {
      model: 'gpt-test',
      maxTokens: 512,
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'You plan.' },
        { role: 'user', content: 'Plan X' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }] },
        { role: 'tool', toolCallId: 'c1', content: 'file text' },
        { role: 'assistant', content: 'Done reading.' },
      ],
      tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: {} } }],
    };
    await collect(new OpenAIModelClient({ baseURL: server.baseURL }).stream(full));
    const body = server.requests[0]!.body;
    assert.equal(body.model, 'gpt-test');
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_tokens, 512);
    assert.equal(body.temperature, 0.2);
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'You plan.' },
      { role: 'user', content: 'Plan X' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'file text' },
      { role: 'assistant', content: 'Done reading.' },
    ]);
    assert.deepEqual(body.tools, [
      {
        type: 'function',
        function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: {} } },
      },
    ]);
  });

  it('sends no tools field for a tool-free request', async () => {
    server = await ScriptedServer.start([sse.textTurn('ok')]);
    await collect(new OpenAIModelClient({ baseURL: server.baseURL }).stream({ ...request, tools: [] }));
    assert.equal('tools' in server.requests[0]!.body, false);
  });

  it('lists the endpoint models', async () => {
    server = await ScriptedServer.start([], { models: ['llama3.1:8b', 'qwen2.5-coder:7b'] });
    assert.deepEqual(await new OpenAIModelClient({ baseURL: server.baseURL }).listModels(), [
      'llama3.1:8b',
      'qwen2.5-coder:7b',
    ]);
    const unreachable = new OpenAIModelClient({ baseURL: `http://127.0.0.1:${await closedPort()}/v1` });
    await assert.rejects(unreachable.listModels(), errorOf('unreachable', /connection refused/));
  });
});
