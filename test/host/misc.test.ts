import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ModelError, type ModelClient, type ModelStreamEvent } from '../../src/core/agent/model';
import { ObservedModelClient } from '../../src/host/adapters/observedModel';
import { ContextKeySync } from '../../src/host/contextKeySync';
import { DisposableStore, once } from '../../src/host/disposables';
import { adviceForMissingKey, adviceForSettings } from '../../src/host/errors';
import { HostLog } from '../../src/host/log';
import { listModels } from '../../src/host/models';
import { signalOf, anySignal } from '../../src/host/cancellation';

describe('disposables', () => {
  it('disposes newest first, once, and disposes late additions at once', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => order.push('a') });
    store.addCallback(() => order.push('b'));
    store.dispose();
    store.dispose();
    store.add({ dispose: () => order.push('late') });
    assert.deepEqual(order, ['b', 'a', 'late']);
  });

  it('keeps disposing after a failure and reports it', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => order.push('a') });
    store.add({
      dispose: () => {
        throw new Error('boom');
      },
    });
    assert.throws(() => store.dispose(), /1 disposable\(s\) failed/);
    assert.deepEqual(order, ['a']);
  });

  it('loads once, and again after a failed load', async () => {
    let calls = 0;
    const load = once(async () => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls;
    });
    await assert.rejects(load(), /not yet/);
    assert.equal(await load(), 2);
    assert.equal(await load(), 2);
    assert.equal(calls, 2);
  });
});

describe('cancellation', () => {
  it('turns a CancellationToken into an AbortSignal', () => {
    let fire: () => void = () => undefined;
    let disposed = false;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (l: () => unknown) => {
        fire = () => void l();
        return { dispose: () => (disposed = true) };
      },
    };
    const { signal, dispose } = signalOf(token);
    assert.equal(signal.aborted, false);
    fire();
    assert.equal(signal.aborted, true);
    assert.match(String(signal.reason), /Cancelled by the person/);
    dispose();
    assert.equal(disposed, true);
    assert.equal(signalOf({ ...token, isCancellationRequested: true }).signal.aborted, true);
    assert.equal(signalOf(undefined).signal.aborted, false);
  });

  it('combines signals', () => {
    const a = new AbortController();
    const b = new AbortController();
    const both = anySignal([a.signal, undefined, b.signal]);
    b.abort(new Error('b'));
    assert.equal(both.aborted, true);
    assert.match(String(both.reason), /b/);
  });
});

describe('model request summaries', () => {
  const events: ModelStreamEvent[] = [
    { type: 'text', delta: 'hi' },
    {
      type: 'done',
      finishReason: 'stop',
      content: 'hi',
      toolCalls: [],
      usage: { promptTokens: 120, completionTokens: 8, totalTokens: 128 },
    },
  ];
  it('logs one line per request and per response, without contents', async () => {
    const lines: string[] = [];
    const errors: ModelError[] = [];
    let t = 0;
    const inner: ModelClient = {
      async *stream() {
        yield* events;
      },
    };
    const client = new ObservedModelClient(
      inner,
      { debug: (l) => lines.push(l), onError: (e) => errors.push(e) },
      () => (t += 10),
    );
    const got: ModelStreamEvent[] = [];
    for await (const e of client.stream({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'a secret plan' }],
      tools: [],
    }))
      got.push(e);
    assert.deepEqual(got, events);
    assert.deepEqual(lines, [
      'model request #1: model=gpt-x messages=1 tools=0 chars=13',
      'model response #1: finish=stop text=2 chars toolCalls=0 tokens in/out=120/8 in 10 ms',
    ]);
    assert.doesNotMatch(lines.join('\n'), /secret plan/);
    assert.deepEqual(errors, []);
  });

  it('tells the host about errors the person can fix, but not about a cancel', async () => {
    const errors: string[] = [];
    const failing = (err: Error): ModelClient => ({
      // eslint-disable-next-line require-yield
      async *stream() {
        throw err;
      },
    });
    for (const err of [new ModelError('unreachable', 'ECONNREFUSED'), new ModelError('aborted', 'stop')]) {
      const client = new ObservedModelClient(failing(err), {
        debug: () => undefined,
        onError: (e) => errors.push(e.kind),
      });
      await assert.rejects(async () => {
        for await (const _ of client.stream({ model: 'm', messages: [] })) void _;
      });
    }
    assert.deepEqual(errors, ['unreachable']);
  });
});

describe('model listing for Select Model', () => {
  let server: Server;
  let base: string;
  let lastAuth: string | undefined;
  let reply: { status: number; body: string };
  before(async () => {
    server = createServer((req, res) => {
      lastAuth = req.headers.authorization;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('lists the ids an OpenAI-compatible server offers, sorted and unique, sending the key as a bearer token', async () => {
    reply = { status: 200, body: JSON.stringify({ data: [{ id: 'b-model' }, { id: 'a-model' }, { id: 'b-model' }] }) };
    assert.deepEqual(await listModels(`${base}/`, 'sk-test-123456'), { ids: ['a-model', 'b-model'] });
    assert.equal(lastAuth, 'Bearer sk-test-123456');
    await listModels(base, undefined);
    assert.equal(lastAuth, undefined);
  });

  it("reads Ollama's shape too", async () => {
    reply = { status: 200, body: JSON.stringify({ models: [{ name: 'qwen2.5-coder:14b' }] }) };
    assert.deepEqual(await listModels(base, undefined), { ids: ['qwen2.5-coder:14b'] });
  });

  it('explains refusals, odd answers and unreachable servers without the key', async () => {
    reply = { status: 401, body: '{}' };
    await assert.rejects(
      listModels(base, 'sk-test-123456'),
      (e: Error) => /Set API Key/.test(e.message) && !e.message.includes('sk-test'),
    );
    reply = { status: 200, body: 'not json' };
    await assert.rejects(listModels(base, undefined), /did not answer with JSON/);
    reply = { status: 200, body: '{"object":"list"}' };
    await assert.rejects(listModels(base, undefined), /without a model list/);
    await assert.rejects(
      listModels('http://127.0.0.1:9/v1', undefined),
      /Could not reach http:\/\/127\.0\.0\.1:9\/v1\/models/,
    );
  });
});

describe('small host pieces', () => {
  it('sets only the context keys that changed', () => {
    const calls: string[] = [];
    const sync = new ContextKeySync(async (k, v) => calls.push(`${k}=${String(v)}`));
    const values = { state: 'idle' as const, hasPlan: false, busy: false, pendingQuestion: false, pendingGrant: false };
    sync.apply(values);
    sync.apply({ ...values, busy: true });
    sync.apply({ ...values, busy: true });
    assert.deepEqual(calls, [
      'planwise.state=idle',
      'planwise.hasPlan=false',
      'planwise.busy=false',
      'planwise.pendingQuestion=false',
      'planwise.pendingGrant=false',
      'planwise.busy=true',
    ]);
  });

  it('advises on a missing key and on bad settings with the fixing action', () => {
    assert.deepEqual(adviceForMissingKey('https://api.openai.com/v1').actions, ['Set API Key', 'Open Settings']);
    const advice = adviceForSettings([
      { key: 'planwise.baseUrl', message: 'is bad' },
      { key: 'planwise.contextWindow', message: 'is bad too' },
    ]);
    assert.equal(advice?.setting, 'planwise.baseUrl');
    assert.match(advice?.message ?? '', /is bad\. 1 more setting has a problem\.$/);
    assert.equal(adviceForSettings([]), undefined);
  });

  it('logs errors with their message, redacted', () => {
    const lines: string[] = [];
    const sink = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (l: string) => lines.push(l),
    };
    new HostLog(sink, () => ['sk-live-abcdef']).error('request failed', new Error('bad key sk-live-abcdef'));
    assert.deepEqual(lines, ['request failed: bad key [redacted]']);
  });
});
