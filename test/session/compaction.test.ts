/**
 * Context that never overflows, end to end: a real session against a scripted server that counts
 * tokens (4 characters each, over the JSON it receives) and rejects any request over its window
 * with OpenAI's context_length_exceeded body.
 */
import assert from 'node:assert/strict';
import type { RecordedRequest, ScriptedTurn } from '../support/scriptedServer';
import type { ChatMessage } from '../../src/core/agent/model';
import { SessionArchive } from '../../src/core/events/archive';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { sse } from '../support/scriptedServer';
import { openaiContextLengthExceeded } from '../support/providerFixtures';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const tokensOf = (req: RecordedRequest) =>
  Math.ceil(JSON.stringify({ messages: req.body.messages, tools: req.body.tools }).length / 4);

const unlimited = {
  toolCallsPerTurn: 0,
  loopsPerTurn: 0,
  sessionToolCalls: 0,
  blockedCap: 0,
  planningTokenCap: 0,
  previewTurnBytes: { plan: 0, build: 0 },
};

function fileBody(i: number): string {
  return Array.from({ length: 30 }, (_, l) => `export const value${i}_${l} = ${i * 100 + l}; // line ${l}`).join('\n');
}

describe('context compaction through the runloop', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a 300-tool-call session under a window of N tokens compacts, stays under N on every request, and ends with a valid plan', async () => {
    const N = 24_000;
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`src/m${i}.ts`] = fileBody(i);
    const sizes: number[] = [];
    const script = (req: RecordedRequest, n: number): ScriptedTurn => {
      const tokens = tokensOf(req);
      sizes.push(tokens);
      if (tokens > N) return openaiContextLengthExceeded(N, tokens);
      if (n >= 100 || req.body['tool_choice'] === 'none') {
        return sse.turn(sse.text(planResponse(samplePlan())), sse.finish('stop'), sse.usage(tokens, 200));
      }
      const calls = [0, 1, 2].map((k) => ({ name: 'read_file', args: { path: `src/m${n * 3 + k}.ts` } }));
      return sse.turn(sse.parallelToolCalls(calls, false), sse.finish('tool_calls'), sse.usage(tokens, 30));
    };
    h = await startHarness(script, {
      files,
      config: { interactive: false, contextWindow: N, budgets: unlimited },
    });
    const stop = await h.session.start('read every module, then plan');
    const over = sizes.filter((s) => s > N);
    assert.deepEqual(over, [], `requests over ${N} tokens: ${over.join(', ')}`);
    assert.equal(stop.kind, 'awaiting_approval', JSON.stringify(stop));
    const calls = h.eventsOf('item.started').filter((e) => e.item.kind === 'tool_call').length;
    assert.equal(calls, 300);
    const compacted = h.eventsOf('context.compacted');
    assert.ok(compacted.length >= 1, 'compacted at least once');
    for (const c of compacted) {
      assert.equal(c.trigger, 'threshold');
      assert.ok(c.after_tokens < c.before_tokens, `${c.before_tokens} → ${c.after_tokens}`);
      assert.equal(c.window_tokens, N);
    }
    assert.ok(
      compacted.some((c) => c.omitted_messages > 0),
      'older rounds were left out once stubs were not enough',
    );
    // The durable thread was not rewritten: the checkpointed history has every result whole.
    const loaded = await SessionArchive.load(new FileArchiveStore(h.archiveDir), h.session.id);
    const history = (loaded?.lastCheckpoint?.state as { history: ChatMessage[] }).history;
    const results = history.filter((m) => m.role === 'tool');
    assert.equal(results.length, 300);
    assert.ok(results[0]!.content.includes('export const value0_29 = 29;'));
    assert.ok(results.every((m) => !m.content.startsWith('[compacted')));
  });

  it('a context_length_exceeded answer compacts once and retries', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`src/m${i}.ts`] = fileBody(i);
    let refused = false;
    const script = (req: RecordedRequest, n: number): ScriptedTurn => {
      const tokens = tokensOf(req);
      if (n === 4 && !refused) {
        refused = true;
        return openaiContextLengthExceeded(tokens - 10, tokens);
      }
      if (n >= 5) return sse.turn(sse.text(planResponse(samplePlan())), sse.finish('stop'), sse.usage(tokens, 200));
      return sse.turn(
        sse.parallelToolCalls([{ name: 'read_file', args: { path: `src/m${n}.ts` } }], false),
        sse.finish('tool_calls'),
        sse.usage(tokens, 30),
      );
    };
    h = await startHarness(script, { files, config: { interactive: false, budgets: unlimited } });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval', JSON.stringify(stop));
    const compacted = h.eventsOf('context.compacted');
    assert.equal(compacted.length, 1);
    assert.equal(compacted[0]!.trigger, 'overflow');
    const retried = h.server.requests[5]!;
    assert.ok(tokensOf(retried) < tokensOf(h.server.requests[4]!), 'the retry was smaller');
    assert.ok(
      retried.body.messages.some(
        (m) => typeof m.content === 'string' && m.content.startsWith('[compacted: this read_file result'),
      ),
    );
  });
});
