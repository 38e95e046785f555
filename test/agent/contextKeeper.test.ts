/** ContextKeeper: the threshold, the provider's own token count, the event, and state kept per thread. */
import assert from 'node:assert/strict';
import { ContextKeeper } from '../../src/core/agent/contextKeeper';
import type { ChatMessage } from '../../src/core/agent/model';
import { EventBus } from '../../src/core/events/bus';
import type { ThreadEvent } from '../../src/core/events/types';
import { ObservedModelClient } from '../../src/host/adapters/observedModel';
import type { ModelClient, ModelStreamEvent } from '../../src/core/agent/model';

function thread(rounds: number, resultChars = 2000): ChatMessage[] {
  const h: ChatMessage[] = [{ role: 'user', content: 'task' }];
  for (let i = 0; i < rounds; i++) {
    h.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: '{}' }] });
    h.push({ role: 'tool', toolCallId: `c${i}`, content: 'x'.repeat(resultChars) });
  }
  return h;
}

describe('ContextKeeper', () => {
  it('leaves a thread under the threshold alone, and compacts past it with one event', async () => {
    const bus = new EventBus(() => 0);
    const events: ThreadEvent[] = [];
    bus.on((e) => events.push(e));
    const history = thread(20); // ~40k chars, ~10k tokens at 4 chars/token
    const deps = { bus, turnId: 't1', windowTokens: 100_000, compactAtPercent: 80, fixedChars: 0 };
    const small = await new ContextKeeper(history, deps).prepare(history);
    assert.equal(small.messages, history, 'nothing to do: the thread itself is sent');
    const tight = await new ContextKeeper(history, { ...deps, windowTokens: 10_000 }).prepare(history);
    assert.ok(tight.tokens <= 6_000, `${tight.tokens}`);
    const [e] = events.filter((x) => x.type === 'context.compacted');
    assert.ok(e && e.type === 'context.compacted');
    assert.equal(e.trigger, 'threshold');
    assert.ok(e.before_tokens > 8_000 && e.after_tokens <= 6_000);
  });

  it("uses the provider's own count (vscode.lm countTokens) to decide", async () => {
    const bus = new EventBus(() => 0);
    const history = thread(4, 400); // ~400 tokens by the estimate
    let counted = 0;
    const keeper = new ContextKeeper(history, {
      bus,
      turnId: 't',
      windowTokens: 1_000,
      compactAtPercent: 80,
      fixedChars: 0,
      // The provider says this thread is far bigger than 4 chars a token: 1 char a token.
      countTokens: async (m) => {
        counted++;
        return m.reduce((n, x) => n + x.content.length, 0);
      },
    });
    const r = await keeper.prepare(history);
    assert.equal(counted, 1);
    assert.notEqual(r.messages, history, 'compacted because the provider counted more than the threshold');
  });

  it('the host wrapper passes countTokens/contextWindow through and reports a retry wait and its end', async () => {
    const inner: ModelClient = {
      async *stream(): AsyncIterable<ModelStreamEvent> {
        yield { type: 'retry', attempt: 2, maxAttempts: 4, waitMs: 120_000, reason: 'r' };
        yield { type: 'text', delta: 'hi' };
        yield { type: 'done', finishReason: 'stop', content: 'hi', toolCalls: [] };
      },
      countTokens: async () => 42,
      contextWindow: () => 64_000,
    };
    const seen: string[] = [];
    const observed = new ObservedModelClient(inner, {
      debug: () => undefined,
      onError: () => undefined,
      onRetry: (e) => seen.push(`retry ${e.waitMs}`),
      onSettled: () => seen.push('settled'),
    });
    for await (const _ of observed.stream({ model: 'm', messages: [] })) void _;
    assert.deepEqual(seen, ['retry 120000', 'settled']);
    assert.equal(await observed.countTokens!({ model: 'm', messages: [] }), 42);
    assert.equal(observed.contextWindow!('m'), 64_000);
  });
});
