/**
 * Planwise's two timeouts, with short settings, against the scripted server over HTTP: a silent
 * server, headers then silence, a slow trickle that stays under the idle timeout. Each message is
 * asserted whole. Node's own fetch timeouts (300 s) are out of the way: the transport has none.
 */
import assert from 'node:assert/strict';
import { ModelError } from '../../src/core/agent/model';
import type { ModelRequest } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer, sse } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';

const request: ModelRequest = { model: 'slow-model', messages: [{ role: 'user', content: 'hi' }] };

describe('OpenAIModelClient: first-byte and idle timeouts', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const client = (opts: { firstByteTimeoutMs?: number; idleTimeoutMs?: number }) => {
    const waits: number[] = [];
    const c = new OpenAIModelClient({
      baseURL: server!.baseURL,
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...opts,
    });
    return { c, waits };
  };

  it('a silent server: the first-byte timeout fires, says so, names the setting, and is not retried', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('late'), headersDelayMs: 10_000 }]);
    const { c, waits } = client({ firstByteTimeoutMs: 300 });
    const r = await collect(c.stream(request));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'timeout');
    assert.equal(
      r.error.message,
      `The model 'slow-model' at ${server.baseURL} did not answer within 300ms (no response at all): the first-byte timeout fired. ` +
        'A large local model can take minutes to load; to wait longer, raise planwise.request.firstByteTimeoutSeconds ' +
        '(CLI: --first-byte-timeout SECONDS).',
    );
    assert.deepEqual(waits, []);
    assert.equal(server.requests.length, 1);
  });

  it('headers and then silence: the first-byte timeout fires and says the headers came', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('never sent'), stallAfter: 0 }]);
    const { c } = client({ firstByteTimeoutMs: 400 });
    const r = await collect(c.stream(request));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'timeout');
    assert.match(
      r.error.message,
      new RegExp(
        `^The model 'slow-model' at ${server.baseURL.replace(/[./]/g, '\\$&')} sent response headers after \\d+ms but no data within 400ms: ` +
          'the first-byte timeout fired\\. A large local model can take minutes to load; to wait longer, raise ' +
          'planwise\\.request\\.firstByteTimeoutSeconds \\(CLI: --first-byte-timeout SECONDS\\)\\.$',
      ),
    );
  });

  it('a stream that stalls mid-answer: the idle timeout fires, with what had arrived', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('and then'), stallAfter: 2 }]);
    const { c, waits } = client({ idleTimeoutMs: 300 });
    const r = await collect(c.stream(request));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'timeout');
    assert.match(
      r.error.message,
      /^The model 'slow-model' at .* stopped sending in the middle of its answer: nothing for 300ms after \d+ bytes, so the idle-stream timeout fired\. Try again; to wait longer between chunks, raise planwise\.request\.idleTimeoutSeconds \(CLI: --idle-timeout SECONDS\)\.$/,
    );
    assert.equal(r.text, 'and then');
    assert.deepEqual(waits, [], 'a stream that delivered text is never replayed');
  });

  it('a slow trickle under the idle timeout succeeds, however long the whole answer takes', async () => {
    // 12 pieces, 150 ms apart: 1.8 s in all, far past both timeouts, never 400 ms silent.
    server = await ScriptedServer.start([
      { ...sse.textTurn('a slow answer that trickles in piece by piece, forty characters'), delayMs: 150 },
    ]);
    const { c } = client({ firstByteTimeoutMs: 400, idleTimeoutMs: 400 });
    const r = await collect(c.stream(request));
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.done?.content, 'a slow answer that trickles in piece by piece, forty characters');
  });

  it('waits for slow headers as long as the first-byte timeout allows: the transport adds no timeout of its own', async () => {
    server = await ScriptedServer.start([{ ...sse.textTurn('finally'), headersDelayMs: 1500 }]);
    const { c } = client({ firstByteTimeoutMs: 10 * 60_000 });
    const r = await collect(c.stream(request));
    assert.equal(r.done?.content, 'finally');
  });
});
