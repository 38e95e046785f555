import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ModelError } from '../../src/core/agent/model';
import type { ModelStreamEvent, ToolCall } from '../../src/core/agent/model';
import { StreamAccumulator, accumulateChunks } from '../../src/core/agent/streamAccumulator';
import { sse, splitAt } from '../support/scriptedServer';

/** Runs chunks through a fresh accumulator; returns every event (the transport saw no `[DONE]`). */
function run(chunks: unknown[], newToolCallId?: (n: number) => string): ModelStreamEvent[] {
  const acc = new StreamAccumulator(newToolCallId ? { newToolCallId } : {});
  const out = chunks.flatMap((c) => acc.push(c));
  return [...out, ...acc.end()];
}

function done(events: ModelStreamEvent[]) {
  const last = events.at(-1);
  assert.equal(last?.type, 'done');
  return last as Extract<ModelStreamEvent, { type: 'done' }>;
}

const calls = (events: ModelStreamEvent[]): ToolCall[] =>
  events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));

describe('StreamAccumulator', () => {
  it('streams text deltas and reports the full text, usage and finish reason in done', () => {
    const events = run([sse.role(), ...sse.text('Hello, planning world'), sse.finish('stop'), sse.usage(12, 7)]);
    const texts = events.flatMap((e) => (e.type === 'text' ? [e.delta] : []));
    assert.ok(texts.length > 1, 'text arrives as several deltas');
    assert.equal(texts.join(''), 'Hello, planning world');
    const d = done(events);
    assert.equal(d.content, 'Hello, planning world');
    assert.equal(d.finishReason, 'stop');
    assert.deepEqual(d.usage, { promptTokens: 12, completionTokens: 7, totalTokens: 19 });
    assert.deepEqual(d.toolCalls, []);
  });

  it('joins arguments split at every possible point into the same call', () => {
    const args = JSON.stringify({ path: 'src/ä "q"\\😀.ts', lines: [1, 2] });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: args.length - 1 }), { maxLength: 12 }), (cuts) => {
        const split = [...cuts].sort((a, b) => a - b);
        const events = run([
          ...sse.toolCall({ id: 'call_1', name: 'read_file', args, split }),
          sse.finish('tool_calls'),
        ]);
        assert.deepEqual(calls(events), [{ id: 'call_1', name: 'read_file', arguments: args }]);
      }),
    );
  });

  it('keeps interleaved parallel calls at indexes 0 and 1 apart', () => {
    const events = run([
      ...sse.parallelToolCalls([
        { id: 'a', name: 'list_dir', args: { path: 'src' } },
        { id: 'b', name: 'read_file', args: { path: 'README.md' } },
      ]),
      sse.finish('tool_calls'),
    ]);
    assert.deepEqual(calls(events), [
      { id: 'a', name: 'list_dir', arguments: '{"path":"src"}' },
      { id: 'b', name: 'read_file', arguments: '{"path":"README.md"}' },
    ]);
  });

  it('splits Ollama calls that share index 0 by their ids, in one chunk or several', () => {
    const specs = [
      { id: 'x1', name: 'read_file', args: { path: 'a' } },
      { id: 'x2', name: 'read_file', args: { path: 'b' } },
      { id: 'x3', name: 'grep', args: { pattern: 'TODO' } },
    ];
    for (const separate of [false, true]) {
      const events = run([...sse.ollamaToolCalls(specs, separate), sse.finish('stop')]);
      assert.deepEqual(
        calls(events).map((c) => [c.id, c.name, c.arguments]),
        [
          ['x1', 'read_file', '{"path":"a"}'],
          ['x2', 'read_file', '{"path":"b"}'],
          ['x3', 'grep', '{"pattern":"TODO"}'],
        ],
      );
      assert.equal(done(events).finishReason, 'tool_calls');
    }
  });

  it('splits whole id-less calls at one index after each complete arguments object', () => {
    const events = run(
      [
        ...sse.ollamaToolCalls(
          [
            { id: null, name: 'read_file', args: { path: 'a' } },
            { id: null, name: 'read_file', args: { path: 'b' } },
          ],
          true,
        ),
        sse.finish('tool_calls'),
      ],
      (n) => `gen_${n}`,
    );
    assert.deepEqual(calls(events), [
      { id: 'gen_0', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'gen_1', name: 'read_file', arguments: '{"path":"b"}' },
    ]);
  });

  it('never lets an empty continuation name erase the name, and accepts fragments without role', () => {
    const events = run([
      ...sse.toolCall({ id: 'c', name: 'search', args: { q: 'x' }, emptyNameOnContinuation: true, role: false }),
      sse.finish('tool_calls'),
    ]);
    assert.deepEqual(calls(events), [{ id: 'c', name: 'search', arguments: '{"q":"x"}' }]);
  });

  it('generates distinct ids for calls without one, stable between the call events and done', () => {
    const events = run([
      ...sse.parallelToolCalls([
        { id: null, name: 'a', args: {} },
        { id: null, name: 'b', args: {} },
      ]),
      sse.finish('tool_calls'),
    ]);
    const got = calls(events);
    assert.equal(got.length, 2);
    assert.ok(got.every((c) => c.id.length > 0));
    assert.notEqual(got[0]!.id, got[1]!.id);
    assert.deepEqual(done(events).toolCalls, got);
    const again = run([...sse.toolCall({ id: null, name: 'a', args: {} }), sse.finish('tool_calls')]);
    assert.notEqual(calls(again)[0]!.id, got[0]!.id, 'ids from different responses do not collide');
  });

  it('makes duplicate ids in one response unique', () => {
    const events = run([
      ...sse.parallelToolCalls([
        { id: 'call_0', name: 'a', args: {} },
        { id: 'call_0', name: 'b', args: {} },
      ]),
      sse.finish('tool_calls'),
    ]);
    const ids = calls(events).map((c) => c.id);
    assert.equal(ids[0], 'call_0');
    assert.equal(new Set(ids).size, 2);
  });

  it('turns reasoning and reasoning_content into reasoning events, never text', () => {
    const events = run([
      ...sse.reasoning('thinking about it', 'reasoning'),
      ...sse.reasoning(' and more', 'reasoning_content'),
      sse.chunk({ reasoning: 'both', reasoning_content: 'both' }),
      ...sse.text('answer'),
      sse.finish('stop'),
    ]);
    const reasoning = events.flatMap((e) => (e.type === 'reasoning' ? [e.delta] : [])).join('');
    assert.equal(reasoning, 'thinking about it and moreboth');
    assert.equal(done(events).content, 'answer');
    assert.ok(!events.some((e) => e.type === 'text' && /thinking|more|both/.test(e.delta)));
  });

  it('ignores placeholder chunks with no choices, empty tool_calls on text, and null usage', () => {
    const events = run([
      sse.placeholder(),
      { ...sse.role(), usage: null },
      ...sse.text('plain text', { emptyToolCalls: true }),
      sse.finish('stop'),
    ]);
    assert.deepEqual(calls(events), []);
    assert.equal(done(events).content, 'plain text');
    assert.equal(done(events).usage, undefined);
    assert.equal(done(events).finishReason, 'stop');
  });

  it('counts tool calls that end with finish_reason "stop" and reports tool_calls', () => {
    const events = run([...sse.toolCall({ id: 'c', name: 'read_file', args: { path: 'x' } }), sse.finish('stop')]);
    assert.equal(calls(events).length, 1);
    assert.equal(done(events).finishReason, 'tool_calls');
  });

  it('keeps length as the finish reason when a call was truncated, and normalises arguments-less calls to {}', () => {
    const truncated = run([...sse.toolCall({ id: 'c', name: 'write', args: '{"a":' }), sse.finish('length')]);
    assert.equal(done(truncated).finishReason, 'length');
    const bare = run([...sse.toolCall({ id: 'c', name: 'list_roots', args: '' }), sse.finish('tool_calls')]);
    assert.equal(calls(bare)[0]!.arguments, '{}');
  });

  it('throws a stream ModelError carrying the provider message for an error object', () => {
    const acc = new StreamAccumulator({ source: "model 'm'" });
    acc.push(sse.text('partial')[0]);
    assert.throws(
      () => acc.push(sse.error('Upstream provider overloaded', 502)),
      (e: unknown) => e instanceof ModelError && e.kind === 'stream' && /Upstream provider overloaded/.test(e.message),
    );
  });

  it('throws "ended early" when the stream stops with no finish reason and no [DONE]', () => {
    const acc = new StreamAccumulator();
    const emitted = sse.text('half an ans').flatMap((c) => acc.push(c));
    assert.ok(emitted.length > 0);
    assert.throws(
      () => acc.end(),
      (e: unknown) => e instanceof ModelError && e.kind === 'stream' && /ended early/.test(e.message),
    );
  });

  it('accepts a stream without a finish reason when the transport saw [DONE]', () => {
    const acc = new StreamAccumulator();
    sse.text('ok').forEach((c) => acc.push(c));
    const d = done(acc.end({ sawDone: true }));
    assert.equal(d.content, 'ok');
    assert.equal(d.finishReason, 'unknown');
  });

  it('uses a final message from the provider as the content and emits its unstreamed tail', () => {
    const events = run([
      ...sse.text('Hello'),
      {
        choices: [
          { index: 0, delta: {}, message: { role: 'assistant', content: 'Hello world' }, finish_reason: 'stop' },
        ],
      },
    ]);
    assert.equal(events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join(''), 'Hello world');
    assert.equal(done(events).content, 'Hello world');
  });

  it('reads only the first choice', () => {
    const events = run([
      {
        choices: [
          { index: 1, delta: { content: 'other' } },
          { index: 0, delta: { content: 'mine' } },
        ],
      },
      sse.finish('stop'),
    ]);
    assert.equal(done(events).content, 'mine');
  });

  it('accumulateChunks runs a whole sequence', async () => {
    const out: ModelStreamEvent[] = [];
    for await (const e of accumulateChunks([...sse.text('x'), sse.finish('stop')])) out.push(e);
    assert.equal(done(out).content, 'x');
  });

  it('splitAt cuts at the given offsets', () => {
    assert.deepEqual(splitAt('abcdef', [2, 3]), ['ab', 'c', 'def']);
    assert.deepEqual(splitAt('abcdef', 4), ['abcd', 'ef']);
  });
});
