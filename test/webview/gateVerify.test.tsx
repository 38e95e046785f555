import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { Gate } from '../../src/protocol';
import { gate } from './scenes';

const withCommands: Gate = {
  ...gate,
  requestId: 'approve-v',
  verifyCommands: [
    { step: '1', command: 'npm test -- --grep limiter', verdict: 'read_only', approvable: false },
    { step: '2', command: 'npm run lint', verdict: 'allow_list', approvable: false },
    {
      step: '3',
      command: 'node scripts/migrate.js --dry-run',
      verdict: 'ask',
      reason: "not read-only ('node' can run any code); no allow-list is set",
      approvable: true,
    },
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

describe('panel gate: the verify commands and what the build does with each', () => {
  it('lists every command whole with its verdict', () => {
    const p = open(withCommands);
    assert.ok(p.getByText('3 verify commands · 1 will ask', { exact: false }));
    const rows = [...document.querySelectorAll('.pw-gate-verify li')].map((li) =>
      li.textContent?.replace(/\s+/g, ' ').trim(),
    );
    assert.deepEqual(rows, [
      'step 1 npm test -- --grep limiter runs read-only',
      'step 2 npm run lint on your allow-list',
      'step 3 node scripts/migrate.js --dry-run will ask',
    ]);
  });

  it('approving the plan alone approves none of them: the box is off by default', () => {
    const p = open(withCommands);
    const box = document.querySelector<HTMLInputElement>('.pw-verify-allow input')!;
    assert.equal(box.checked, false);
    fireEvent.click(p.getByRole('button', { name: /Yes, implement this plan/ }));
    assert.deepEqual(p.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-v', decision: 'execute' },
    ]);
  });

  it('ticking the box sends the listed commands that would ask, with the approval only', () => {
    const p = open(withCommands);
    fireEvent.click(document.querySelector<HTMLInputElement>('.pw-verify-allow input')!);
    fireEvent.click(p.getByRole('button', { name: /Yes, clear context/ }));
    assert.deepEqual(p.sent('approvalResponse'), [
      {
        type: 'approvalResponse',
        requestId: 'approve-v',
        decision: 'fresh_context',
        allowCommands: ['node scripts/migrate.js --dry-run'],
      },
    ]);
  });

  it('a new card for the gate starts with the box off again', () => {
    const p = open(withCommands);
    fireEvent.click(document.querySelector<HTMLInputElement>('.pw-verify-allow input')!);
    p.update([{ op: 'gate.set', gate: { ...withCommands, revision: withCommands.revision + 1 } }]);
    assert.equal(document.querySelector<HTMLInputElement>('.pw-verify-allow input')!.checked, false);
  });

  it('no commands, no list', () => {
    open({ ...gate, requestId: 'approve-none' });
    assert.equal(document.querySelector('.pw-gate-verify'), null);
  });
});
