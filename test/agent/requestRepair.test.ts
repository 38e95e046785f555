import assert from 'node:assert/strict';
import { isWellFormed, repairForRequest, requestView, MISSING_RESULT } from '../../src/core/agent/requestRepair';
import type { ChatMessage } from '../../src/core/agent/model';

const call = (id: string, name = 'read_file') => ({ id, name, arguments: '{}' });

function pairs(view: ChatMessage[]): void {
  // Every call is followed, before any non-tool message, by exactly one result for it.
  for (let i = 0; i < view.length; i++) {
    const m = view[i]!;
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const ids = m.toolCalls.map((c) => c.id);
    const following = view.slice(i + 1, i + 1 + ids.length);
    assert.deepEqual(
      following.map((f) => (f.role === 'tool' ? f.toolCallId : `<${f.role}>`)),
      ids,
    );
  }
  const toolIds = view.filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId);
  assert.equal(new Set(toolIds).size, toolIds.length, 'no duplicate results');
}

describe('request repair', () => {
  it('leaves a well-formed thread unchanged', () => {
    const h: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'a', content: 'A' },
      { role: 'tool', toolCallId: 'b', content: 'B' },
      { role: 'assistant', content: 'done' },
    ];
    assert.deepEqual(repairForRequest(h), h);
  });

  it('fills a missing result and drops an orphan', () => {
    const h: ChatMessage[] = [
      { role: 'user', content: 'u' },
      { role: 'tool', toolCallId: 'ghost', content: 'orphan' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'a', content: 'A' },
      { role: 'user', content: 'next' },
    ];
    const v = repairForRequest(h);
    pairs(v);
    assert.equal(
      v.some((m) => m.role === 'tool' && m.toolCallId === 'ghost'),
      false,
    );
    const b = v.find((m) => m.role === 'tool' && m.toolCallId === 'b');
    assert.equal(b?.role === 'tool' && b.content, MISSING_RESULT);
  });

  it('keeps the first of duplicate results and moves split results next to their call', () => {
    const h: ChatMessage[] = [
      { role: 'assistant', content: '', toolCalls: [call('a')] },
      { role: 'user', content: 'directive in between' },
      { role: 'tool', toolCallId: 'a', content: 'first' },
      { role: 'tool', toolCallId: 'a', content: 'second' },
    ];
    const v = repairForRequest(h);
    pairs(v);
    assert.deepEqual(
      v.map((m) => m.role),
      ['assistant', 'tool', 'user'],
    );
    assert.equal((v[1] as { content: string }).content, 'first');
  });

  it('drops a call id repeated inside one batch or across batches', () => {
    const h: ChatMessage[] = [
      { role: 'assistant', content: '', toolCalls: [call('a'), call('a')] },
      { role: 'tool', toolCallId: 'a', content: 'A' },
      { role: 'assistant', content: '', toolCalls: [call('a')] },
    ];
    const v = repairForRequest(h);
    pairs(v);
    assert.equal(v.filter((m) => m.role === 'tool').length, 1);
  });

  it('never mutates the stored history', () => {
    const h: ChatMessage[] = [{ role: 'assistant', content: '', toolCalls: [call('x')] }];
    const copy = structuredClone(h);
    repairForRequest(h);
    assert.deepEqual(h, copy);
  });
});

describe('request repair fast path', () => {
  it('returns the same array, uncopied, when the thread is well-formed', () => {
    const h: ChatMessage[] = [
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolCalls: [call('a')] },
      { role: 'tool', toolCallId: 'a', content: 'A' },
    ];
    assert.equal(repairForRequest(h), h);
    assert.equal(isWellFormed(h), true);
  });

  it('is not well-formed with a missing, stray, reordered or duplicate result', () => {
    const base: ChatMessage = { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] };
    const tool = (id: string): ChatMessage => ({ role: 'tool', toolCallId: id, content: id });
    assert.equal(isWellFormed([base, tool('a')]), false);
    assert.equal(isWellFormed([tool('x')]), false);
    assert.equal(isWellFormed([base, tool('b'), tool('a')]), false);
    assert.equal(isWellFormed([base, tool('a'), tool('b'), tool('b')]), false);
    assert.equal(isWellFormed([base, tool('a'), tool('b')]), true);
  });
});

describe('request view of a growing thread', () => {
  const tool = (id: string, content = id): ChatMessage => ({ role: 'tool', toolCallId: id, content });
  const chars = (ms: readonly ChatMessage[]) => ms.reduce((n, m) => n + m.content.length, 0);

  it('matches a fresh repair and size after every append, as the thread grows, breaks and is rewritten', () => {
    const h: ChatMessage[] = [{ role: 'user', content: 'plan it' }];
    const check = () => {
      const v = requestView(h);
      assert.deepEqual(v.messages, repairForRequest([...h]), 'the same view as a repair of a fresh copy');
      assert.equal(v.chars, chars(v.messages));
      assert.equal(v.messages === h, isWellFormed(h), 'uncopied exactly when well-formed');
    };
    check();
    for (let i = 0; i < 5; i++) {
      h.push({ role: 'assistant', content: `step ${i}`, toolCalls: [call(`c${i}`)] });
      check(); // a call without its result yet
      h.push(tool(`c${i}`, `result ${i}`));
      check();
    }
    h.push(tool('stray')); // appending cannot mend a broken thread
    check();
    h.push({ role: 'assistant', content: 'more', toolCalls: [call('d')] }, tool('d'));
    check();
    h.pop();
    h.pop();
    h.pop(); // rewritten: shorter than what was checked
    check();
    h[h.length - 1] = tool('c4', 'replaced'); // rewritten in place at the end
    check();
    h.push({ role: 'assistant', content: '', toolCalls: [call('c0')] }, tool('c0')); // a reused call id
    check();
  });

  it('keeps separate threads apart', () => {
    const a: ChatMessage[] = [{ role: 'assistant', content: '', toolCalls: [call('x')] }, tool('x')];
    const b: ChatMessage[] = [tool('x')];
    assert.equal(requestView(a).messages, a);
    assert.notEqual(requestView(b).messages, b);
    assert.equal(requestView(a).messages, a);
  });
});
