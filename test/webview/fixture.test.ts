import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyOps, emptyViewState, parseHostMessage, type HostMessage, type ViewState } from '../../src/protocol';
import { RECORDED_AT } from './fixtures/record';
import { recordSession } from './scenes';

const session = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'session.json'), 'utf8')) as {
  recordedAt: number;
  snapshot: HostMessage;
  scenes: { name: string; messages: HostMessage[] }[];
};

describe('recorded session fixture', () => {
  it('is what the scenes record (regenerate with test/webview/fixtures/record.ts)', () => {
    assert.equal(session.recordedAt, RECORDED_AT);
    assert.deepEqual(session, JSON.parse(JSON.stringify({ recordedAt: RECORDED_AT, ...recordSession(RECORDED_AT) })));
  });

  it('holds only valid host messages with consecutive sequence numbers, covering every state', () => {
    const messages = [session.snapshot, ...session.scenes.flatMap((s) => s.messages)];
    messages.forEach((m, i) => {
      const r = parseHostMessage(m);
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.equal(m.seq, session.snapshot.seq + i);
    });
    assert.deepEqual(
      session.scenes.map((s) => s.name),
      ['planning', 'interview', 'gate', 'handoff', 'executing', 'blocked'],
    );
    let state: ViewState = emptyViewState();
    const seen = new Set<string>();
    for (const m of messages) {
      state = m.type === 'snapshot' ? m.state : applyOps(state, m.ops);
      if (state.interview) seen.add('interview');
      if (state.gate) seen.add('gate');
      if (state.handoff) seen.add('handoff');
      if (state.tracker) seen.add('tracker');
      if (state.notices.some((n) => n.resumeAvailable)) seen.add('resume');
    }
    assert.deepEqual([...seen].sort(), ['gate', 'handoff', 'interview', 'resume', 'tracker']);
  });
});
