/**
 * The person's Stop is neutral: the run ends with "stopped" (no error, nothing to fix), the
 * lifecycle follows (a stopped build is no longer executing), and what streamed so far is complete
 * as it stands. A stream silent for a while is announced as `model.waiting`, once, and ended.
 */
import assert from 'node:assert/strict';
import { EventBus } from '../../src/core/events/bus';
import type { ThreadEvent } from '../../src/core/events/types';
import { streamResponse } from '../../src/core/agent/streamResponse';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer, sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

async function until(ready: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

const stalled = () => {
  const chunks = [...sse.reasoning('Weighing the options'), ...sse.text('Looking at the')];
  return { chunks, stallAfter: chunks.length };
};

describe('Stop', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('while planning: "stopped", no error, back to idle, the thinking and text complete as they stand', async () => {
    h = await startHarness([stalled()]);
    const run = h.session.start('add a greeting');
    await until(() => h!.events.some((e) => e.type === 'item.updated' && e.item.kind === 'assistant_text'));
    h.session.cancel();
    const stop = await run;
    assert.equal(stop.kind, 'cancelled');
    assert.equal(h.eventsOf('error').length, 0, 'a Stop is not an error');
    assert.deepEqual(
      h.eventsOf('run.stopped').map((e) => e.what),
      ['planning'],
    );
    assert.equal(h.session.state, 'idle');
    const completed = h.eventsOf('item.completed').map((e) => e.item);
    const thought = completed.find((i) => i.kind === 'reasoning');
    const text = completed.find((i) => i.kind === 'assistant_text');
    assert.equal(thought?.text, 'Weighing the options', 'the thinking is finished, not left running');
    assert.equal(text?.text, 'Looking at the', 'the text so far is complete: no cursor left behind');
  });

  it('during a build: "stopped", and the lifecycle leaves executing', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan())), stalled()], {
      approve: () => ({ decision: 'execute' }),
    });
    const run = h.session.start('add a greeting');
    await until(() => h!.session.state === 'executing' && h!.server.requests.length >= 2);
    h.session.cancel();
    const stop = await run;
    assert.equal(stop.kind, 'cancelled');
    assert.equal(h.eventsOf('error').length, 0);
    assert.deepEqual(
      h.eventsOf('run.stopped').map((e) => e.what),
      ['build'],
    );
    assert.equal(h.session.state, 'idle', 'the header no longer says Executing');
    assert.equal(h.eventsOf('state.changed').at(-1)?.state, 'idle');
  });

  it('a failure that is not a Stop is still an error', async () => {
    h = await startHarness([sse.httpError(500, 'boom')]);
    const stop = await h.session.start('add a greeting');
    assert.equal(stop.kind, 'error');
    assert.equal(h.eventsOf('run.stopped').length, 0);
    assert.equal(h.eventsOf('error').length, 1);
  });
});

describe('a silent stream', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const run = async (waitingAfterMs: number, stopAfterMs: number) => {
    server = await ScriptedServer.start([stalled()]);
    const model = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0, sleep: async () => undefined });
    const bus = new EventBus(() => Date.now());
    const events: ThreadEvent[] = [];
    bus.on((e) => events.push(e));
    const abort = new AbortController();
    let n = 0;
    const done = streamResponse(
      model,
      { model: 'scripted-model', messages: [{ role: 'user', content: 'hi' }] },
      bus,
      { turnId: 't1', newId: (p) => `${p}-${++n}`, waitingAfterMs },
      abort.signal,
    ).catch((err: unknown) => err);
    await new Promise((ok) => setTimeout(ok, stopAfterMs));
    abort.abort(new Error('stopped by the person'));
    assert.ok((await done) instanceof Error);
    return events.filter((e): e is Extract<ThreadEvent, { type: 'model.waiting' }> => e.type === 'model.waiting');
  };

  it('is announced once after the quiet time, and ended when it stops', async () => {
    const waits = await run(100, 400);
    assert.deepEqual(
      waits.map((e) => [e.waiting, e.silent_ms]),
      [
        [true, 100],
        [false, 0],
      ],
    );
  });

  it('is not announced before the quiet time has passed', async () => {
    const waits = await run(5000, 150);
    assert.equal(waits.length, 0);
  });
});
