import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';

describe('panel: waiting for the model', () => {
  it('shows "Waiting for the model · N s" from the engine\'s since-when, with Stop, and goes when it ends', () => {
    const p = mountPanel();
    const since = Date.now() - 34_000;
    p.update([
      { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true, waitingSince: since } },
    ]);
    const status = p.getByText(/Waiting for the model/);
    assert.match(status.textContent!, /^Waiting for the model · 3[45] s$/);
    fireEvent.click(p.getByRole('button', { name: 'Stop' }));
    assert.deepEqual(p.sent('stop'), [{ type: 'stop' }]);
    p.update([{ op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true } }]);
    assert.equal(p.queryByText(/Waiting for the model/), null);
  });

  it('a finished "Thinking…" says "Thought"', () => {
    const p = mountPanel();
    p.update([{ op: 'item.add', item: { id: 'r', kind: 'thinking', text: 'hmm', streaming: true } }]);
    assert.ok(p.getByText(/Thinking…/));
    p.update([{ op: 'item.patch', id: 'r', patch: { streaming: false } }]);
    assert.equal(p.queryByText(/Thinking…/), null);
    assert.ok(p.getByText(/Thought/));
  });
});
