import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { Gate } from '../../src/protocol';
import { gate } from './scenes';

const withComments: Gate = {
  ...gate,
  requestId: 'approve-c',
  openComments: [
    { id: 'c1', label: 'step 2', line: 12, outdated: true, answered: true },
    { id: 'c3', label: 'the summary', line: 5, outdated: false, answered: false },
  ],
};

function open(g: Gate) {
  const p = mountPanel();
  p.update([
    { op: 'lifecycle.set', lifecycle: { state: 'awaiting_approval', mode: 'plan', busy: false } },
    { op: 'gate.set', gate: g },
  ]);
  return p;
}

describe('panel gate: open review comments', () => {
  it('lists "2 open comments" with links to their lines, and says "stay" sends them', () => {
    const p = open(withComments);
    assert.ok(p.getByText('2 open comments'));
    const links = [...document.querySelectorAll('.pw-gate-comments a')].map((a) => [
      a.textContent,
      a.getAttribute('data-file'),
      a.getAttribute('data-line'),
    ]);
    assert.deepEqual(links, [
      ['Line 12 · step 2', '.vtcode/plans/rate-limiting.md', '12'],
      ['Line 5 · the summary', '.vtcode/plans/rate-limiting.md', '5'],
    ]);
    assert.ok(p.getAllByText('outdated').length === 1 && p.getAllByText('answered').length === 1);
    assert.ok(p.getByText('Sends the 2 open comments to the planner, with your note; nothing is built.'));
  });

  it('approving with open comments asks once: "Approve with 2 unresolved comments?"', () => {
    const p = open(withComments);
    fireEvent.click(p.getByRole('button', { name: /Yes, implement this plan/ }));
    assert.deepEqual(p.sent('approvalResponse'), []);
    assert.ok(p.getByText('Approve with 2 unresolved comments?'));
    fireEvent.click(p.getByText('Back'));
    assert.equal(p.queryByText('Approve with 2 unresolved comments?'), null);
    fireEvent.click(p.getByRole('button', { name: /Yes, clear context/ }));
    fireEvent.click(p.getByText('Approve anyway'));
    assert.deepEqual(p.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-c', decision: 'fresh_context' },
    ]);
  });

  it('without open comments the gate neither lists nor asks', () => {
    const p = open({ ...gate, requestId: 'approve-n' });
    assert.equal(document.querySelector('.pw-gate-comments'), null);
    fireEvent.click(p.getByRole('button', { name: /Yes, implement this plan/ }));
    assert.deepEqual(p.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-n', decision: 'execute' },
    ]);
  });
});
