import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { ToolCallItem, ToolOutcome } from '../../src/protocol';

const call = (id: string, outcome: ToolOutcome | undefined, allowed = true): ToolCallItem => ({
  id,
  kind: 'tool_call',
  callId: id,
  name: 'exec_command',
  title: 'Ran `ls`',
  subject: '`ls`',
  argsSummary: 'ls',
  verdict: { allowed, reason: allowed ? 'read-only' : "blocked: 'rm' changes files" },
  ...(outcome ? { outcome, bytes: 27, preview: outcome === 'ok' ? 'a.txt' : 'nope' } : {}),
});

describe('panel: one row per tool call', () => {
  it('the icon and its label follow the real outcome', () => {
    const p = mountPanel();
    p.update([
      { op: 'item.add', item: call('a', 'ok') },
      { op: 'item.add', item: call('b', 'blocked', false) },
      { op: 'item.add', item: call('c', 'failed') },
      { op: 'item.add', item: call('d', 'refused') },
      { op: 'item.add', item: call('e', 'skipped') },
      { op: 'item.add', item: call('f', undefined) },
    ]);
    const rows = [...p.container.querySelectorAll('.pw-tool-call')];
    assert.equal(rows.length, 6);
    const labels = rows.map((r) => r.querySelector('.pw-tool-line [role="img"]')?.getAttribute('aria-label'));
    assert.deepEqual(labels, [
      'allowed and ran',
      'blocked before it ran',
      'ran and failed',
      'refused (the reason is in its result)',
      'not run: held back by a guard',
      'running',
    ]);
    assert.equal(p.queryAllByRole('img', { name: 'allowed by the read-only gate' }).length, 0);
    // The blocked row says why once, without "Blocked: blocked:" and without a second Failed row.
    assert.match(rows[1]!.textContent!, /Blocked: 'rm' changes files/);
    assert.doesNotMatch(rows[1]!.textContent!, /Blocked: blocked|Failed/);
    // A failed row keeps its result on the same row, collapsed.
    const failed = p.getByRole('button', { name: /Failed · 27 bytes/ });
    assert.ok(rows[2]!.contains(failed));
    fireEvent.click(failed);
    assert.ok(p.getByText('nope'));
  });
});
