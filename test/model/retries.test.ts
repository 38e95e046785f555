/**
 * Retries that respect the server: `Retry-After` in seconds or as an HTTP date and `retry-after-ms`,
 * up to 5 minutes, announced as a `retry` event before the wait (hosts count it down); streams
 * that break before delivering anything are sent again, streams that delivered text never are.
 */
import assert from 'node:assert/strict';
import { ModelError } from '../../src/core/agent/model';
import type { ModelRequest, ModelStreamEvent } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer, sse } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const retries = (events: readonly ModelStreamEvent[]) => events.filter((e) => e.type === 'retry');

/** A fake clock: sleeping advances it at once and records the wait. */
function fakeClock(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
  let t = start;
  const waits: number[] = [];
  return {
    now: () => t,
    waits,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw new ModelError('aborted', 'The model request was cancelled.');
      waits.push(ms);
      t += ms;
    },
  };
}

describe('OpenAIModelClient: retries', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('Retry-After: 3 is waited out for real, after a retry event that says how long', async () => {
    server = await ScriptedServer.start([
      sse.httpError(429, 'Rate limit reached', { headers: { 'retry-after': '3' } }),
      sse.textTurn('after the wait'),
    ]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL });
    const started = Date.now();
    let retryAt = 0;
    const r = await collect(client.stream(request), (e) => {
      if (e.type === 'retry') retryAt = Date.now();
    });
    const secondAfter = Date.now() - retryAt;
    assert.equal(r.done?.content, 'after the wait');
    assert.deepEqual(retries(r.events), [
      {
        type: 'retry',
        attempt: 2,
        maxAttempts: 4,
        waitMs: 3000,
        reason: 'the endpoint answered 429 and asked to wait 3 s',
      },
    ]);
    assert.ok(secondAfter >= 2900, `the second request came ${secondAfter} ms after the retry event`);
    assert.ok(Date.now() - started >= 3000);
  });

  it('Retry-After: 120 is honoured (fake clock), in seconds and as an HTTP date', async () => {
    const clock = fakeClock();
    // The date is read when the second answer comes, after the first wait moved the clock 120 s on.
    const date = new Date(clock.now() + 240_000).toUTCString();
    server = await ScriptedServer.start([
      sse.httpError(429, 'slow down', { headers: { 'retry-after': '120' } }),
      sse.httpError(503, 'overloaded', { headers: { 'retry-after': date } }),
      sse.textTurn('ok'),
    ]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, sleep: clock.sleep, now: clock.now });
    const r = await collect(client.stream(request));
    assert.equal(r.done?.content, 'ok');
    assert.deepEqual(clock.waits, [120_000, 120_000]);
    assert.deepEqual(
      retries(r.events).map((e) => e.type === 'retry' && [e.waitMs, e.reason]),
      [
        [120_000, 'the endpoint answered 429 and asked to wait 2 min'],
        [120_000, 'the endpoint answered 503 and asked to wait 2 min'],
      ],
    );
  });

  it('retry-after-ms up to 5 minutes is honoured; a longer wait is not waited out, and the message says so', async () => {
    const clock = fakeClock();
    server = await ScriptedServer.start([
      sse.httpError(429, 'busy', { headers: { 'retry-after-ms': '300000' } }),
      sse.httpError(429, 'come back tomorrow', { headers: { 'retry-after': '3600' } }),
    ]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, sleep: clock.sleep, now: clock.now });
    const r = await collect(client.stream(request));
    assert.deepEqual(clock.waits, [300_000]);
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'rate_limited');
    assert.equal(
      r.error.message,
      `The model endpoint ${server.baseURL} answered 429 (come back tomorrow) and asked to wait 60 min, ` +
        'longer than Planwise waits (5 min). Try again after that.',
    );
  });

  it('the person can cancel the wait', async () => {
    server = await ScriptedServer.start(() => sse.httpError(429, 'wait', { headers: { 'retry-after': '120' } }));
    const controller = new AbortController();
    const client = new OpenAIModelClient({ baseURL: server.baseURL });
    const r = await collect(client.stream(request, controller.signal), (e) => {
      if (e.type === 'retry') setTimeout(() => controller.abort(), 20);
    });
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'aborted');
    assert.equal(server.requests.length, 1);
  });

  it('a stream cut before it delivered anything is sent again', async () => {
    const clock = fakeClock();
    server = await ScriptedServer.start([{ ...sse.textTurn('never seen'), cutAfter: 1 }, sse.textTurn('second try')]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, sleep: clock.sleep, now: clock.now });
    const r = await collect(client.stream(request));
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.text, 'second try');
    assert.equal(server.requests.length, 2);
    assert.equal(retries(r.events).length, 1);
  });

  it('a mid-stream error before any content is retried', async () => {
    const clock = fakeClock();
    server = await ScriptedServer.start([
      sse.turn(sse.error('Provider overloaded', 'overloaded')),
      sse.textTurn('recovered'),
    ]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, sleep: clock.sleep, now: clock.now });
    const r = await collect(client.stream(request));
    assert.equal(r.text, 'recovered');
    assert.equal(server.requests.length, 2);
  });

  it('a stream that already delivered text is never replayed', async () => {
    const clock = fakeClock();
    server = await ScriptedServer.start([{ ...sse.textTurn('half an answer'), cutAfter: 2 }, sse.textTurn('again')]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, sleep: clock.sleep, now: clock.now });
    const r = await collect(client.stream(request));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'stream');
    assert.match(r.error.message, /ended early/);
    assert.equal(server.requests.length, 1);
    assert.deepEqual(clock.waits, []);
  });

  it('a stream cut after tool-call fragments arrived is not replayed either', async () => {
    const clock = fakeClock();
    server = await ScriptedServer.start([
      { ...sse.toolTurn([{ id: 'c1', name: 'read_file', args: { path: 'src/a.ts' } }]), cutAfter: 3 },
      sse.textTurn('again'),
    ]);
    const client = new OpenAIModelClient({ baseURL: server.baseURL, sleep: clock.sleep, now: clock.now });
    const r = await collect(client.stream(request));
    assert.ok(r.error instanceof ModelError);
    assert.match(r.error.message, /unfinished tool call/);
    assert.equal(server.requests.length, 1);
  });
});
