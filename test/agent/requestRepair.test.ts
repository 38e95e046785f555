import assert from 'node:assert/strict';
import { isWellFormed, repairForRequest, MISSING_RESULT } from '../../src/core/agent/requestRepair';
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
