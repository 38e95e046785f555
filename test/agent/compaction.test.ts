/** The compaction request view: stubs, omitted rounds, what is always kept, pairing intact. */
import assert from 'node:assert/strict';
import { applyCompaction, planCompaction, startOfLatestTurns } from '../../src/core/agent/compaction';
import { ContextMeter, messagesChars, statedTokens } from '../../src/core/agent/contextMeter';
import type { ChatMessage } from '../../src/core/agent/model';
import { isWellFormed } from '../../src/core/agent/requestRepair';
import { Spool } from '../../src/core/spool';

function thread(rounds: number): ChatMessage[] {
  const h: ChatMessage[] = [{ role: 'user', content: 'the task' }];
  for (let i = 0; i < rounds; i++) {
    const name = i === 1 ? 'request_user_input' : i === 2 ? 'task_tracker' : 'read_file';
    h.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name, arguments: `{"path":"f${i}"}` }] });
    h.push({ role: 'tool', toolCallId: `c${i}`, content: `result ${i}\n${'x'.repeat(900)}` });
  }
  h.push({ role: 'assistant', content: '<proposed_plan>\n# Plan\n</proposed_plan>' });
  return h;
}

describe('compaction', () => {
  it('stubs old results (spooled, readable again), keeps interview and tracker results and the latest turns whole', () => {
    const view = thread(8);
    const spool = new Spool();
    const b = startOfLatestTurns(view, 3);
    const c = applyCompaction(view, { stubBefore: b, omitBefore: 0 }, spool);
    assert.ok(isWellFormed(c.messages));
    const results = c.messages.filter((m) => m.role === 'tool');
    assert.match(
      results[0]!.content,
      /^\[compacted: this read_file result \(\d+ chars\).*read_spool id=s1 offset=0\]$/,
    );
    assert.equal(results[1]!.content, view[4]!.content, 'interview answers stay whole');
    assert.equal(results[2]!.content, view[6]!.content, 'the tracker stays whole');
    assert.equal(results.at(-1)!.content, view.at(-2)!.content, 'the latest turns stay whole');
    assert.equal(spool.read('s1', 0, 10_000)?.text, view[2]!.content);
    assert.equal(view[2]!.content.startsWith('result 0'), true, 'the thread itself is unchanged');
  });

  it('leaves out whole unprotected rounds before the omit boundary, with one note, pairing intact', () => {
    const view = thread(8);
    const c = applyCompaction(view, { stubBefore: 12, omitBefore: 12 }, undefined);
    assert.ok(isWellFormed(c.messages));
    assert.equal(c.messages[0]!.content, 'the task');
    assert.match(c.messages[1]!.content, /^\[compacted: \d+ earlier messages/);
    const ids = c.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((t) => t.name) : []));
    assert.deepEqual(ids.slice(0, 2), ['request_user_input', 'task_tracker']);
    assert.equal(c.messages.at(-1)!.content, '<proposed_plan>\n# Plan\n</proposed_plan>');
  });

  it('plans the least compaction that fits, and never moves a boundary back', () => {
    const view = thread(20);
    const meter = new ContextMeter();
    const measure = (m: readonly ChatMessage[]) => meter.estimate(messagesChars(m));
    const full = measure(view);
    const first = planCompaction(view, { stubBefore: 0, omitBefore: 0 }, full / 2, measure, undefined);
    assert.ok(measure(first.view.messages) <= full / 2);
    const again = planCompaction(view, first.state, full, measure, undefined);
    assert.ok(again.state.stubBefore >= first.state.stubBefore && again.state.omitBefore >= first.state.omitBefore);
  });

  it('calibrates from reported usage and from an overflow message', () => {
    const meter = new ContextMeter();
    assert.equal(meter.estimate(4000), 1000);
    meter.record(2000, 6000); // 3 chars per token
    assert.equal(meter.estimate(6300), 2100);
    meter.underestimated(9000, statedTokens('However, your messages resulted in 4500 tokens.'));
    assert.equal(meter.estimate(9000), 4500);
    assert.equal(statedTokens('request (9100 tokens) exceeds the available context size'), 9100);
  });
});
