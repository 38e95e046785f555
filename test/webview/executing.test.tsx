import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent, within } from '@testing-library/preact';
import { countTracker, describeVerify } from '../../webview/components/TodoTree';
import { budget, tracker } from './scenes';

function executing(trusted = true) {
  const p = mountPanel({ state: { flags: { hasApiKey: true, trusted } } });
  const now = Date.now();
  p.update([
    { op: 'lifecycle.set', lifecycle: { state: 'executing', mode: 'build', busy: true } },
    { op: 'budget.set', budget: budget(6, 8, 3000) },
    {
      op: 'tracker.set',
      tracker: {
        ...tracker,
        items: tracker.items.map((i) => ({
          ...i,
          lastVerify: i.lastVerify && { ...i.lastVerify, at: now - 120_000 },
          children: i.children.map((c) => ({ ...c, lastVerify: c.lastVerify && { ...c.lastVerify, at: now - 5_000 } })),
        })),
      },
    },
  ]);
  return p;
}

describe('panel: executing with the task tracker', () => {
  it('counts every item at every depth in the header', () => {
    const p = executing();
    const section = p.getByRole('region', { name: 'Task tracker' });
    assert.match(section.textContent!, /2\/6 done · 2 in progress · 1 blocked · 1 pending · 33%/);
    assert.equal(section.querySelector('progress')?.getAttribute('value'), '33');
  });

  it('shows a status icon for each status', () => {
    const p = executing();
    const tree = within(p.getByRole('region', { name: 'Task tracker' }));
    for (const label of ['Completed', 'In progress', 'Pending', 'Blocked'])
      assert.ok(tree.getAllByRole('img', { name: label }).length > 0);
  });

  it('expands and collapses items, nested ones included', () => {
    const p = executing();
    // Step 2 has children and is in progress: open by default; step 1 is closed.
    assert.ok(p.getByText('Skip health checks'));
    fireEvent.click(p.getByRole('button', { name: 'Collapse step 2' }));
    assert.equal(p.queryByText('Skip health checks'), null);
    assert.equal(p.queryByText('npm test', { selector: 'code' }), null);
    fireEvent.click(p.getByRole('button', { name: 'Expand step 1' }));
    assert.ok(p.getByText('npm test', { selector: 'code' }));
    assert.equal((p.savedUi() as { expanded: Record<string, boolean> }).expanded['tracker:2'], false);
  });

  it('links files, runs verify commands and shows their last result', () => {
    const p = executing();
    fireEvent.click(p.getByRole('link', { name: 'src/server/health.ts' }));
    assert.deepEqual(p.sent('openFile'), [{ type: 'openFile', path: 'src/server/health.ts' }]);
    fireEvent.click(p.getByLabelText('Run npm test -- health'));
    assert.deepEqual(p.sent('runVerify'), [{ type: 'runVerify', itemPath: '2.2', command: 'npm test -- health' }]);
    assert.ok(p.getByText(/exit 1, just now/));
    fireEvent.click(p.getByRole('button', { name: 'Expand step 1' }));
    assert.ok(p.getByText(/passed 2 min ago/));
  });

  it('disables Run in an untrusted workspace and says why', () => {
    const p = executing(false);
    const run = p.getByLabelText('Run npm test -- health');
    assert.equal(run.getAttribute('aria-disabled'), 'true');
    assert.match(run.getAttribute('title')!, /untrusted workspace/);
    fireEvent.click(run);
    assert.deepEqual(p.sent('runVerify'), []);
    assert.ok(p.getByText(/This workspace is not trusted/));
  });

  it('shows the budget like the status bar, warning near a limit', () => {
    const p = executing();
    const meter = p.getByRole('group', { name: /^Budget:/ });
    assert.equal(meter.getAttribute('aria-label'), 'Budget: Tool calls 6/120, Context 8%, Spend 3.0k/200k');
    assert.ok(meter.classList.contains('pw-level-ok'));
    assert.match(meter.getAttribute('title')!, /Loop iterations: 3 of 60/);
    p.update([{ op: 'budget.set', budget: budget(100, 85, 20_000) }]);
    const hot = p.getByRole('group', { name: /^Budget:/ });
    assert.ok(hot.classList.contains('pw-level-warning'));
    p.update([{ op: 'budget.set', budget: budget(120, 85, 20_000) }]);
    assert.ok(p.getByRole('group', { name: /^Budget:/ }).classList.contains('pw-level-error'));
  });

  it('describes verify results', () => {
    assert.deepEqual(describeVerify({ command: 'x', exitCode: null, at: 0 }, 3_600_000), {
      text: 'stopped before it finished, 1 h ago',
      ok: false,
    });
    assert.deepEqual(countTracker([]), { pending: 0, in_progress: 0, completed: 0, blocked: 0, total: 0, percent: 0 });
  });
});

describe('panel: blocked and keep-planning notices', () => {
  it('offers Resume when the session was saved', () => {
    const p = mountPanel();
    p.update([
      {
        op: 'notices.set',
        notices: [
          {
            id: 'b',
            kind: 'blocked_handoff',
            text: 'Stopped after 8 blocked calls.',
            resumeAvailable: true,
            sessionId: 's-42',
          },
        ],
      },
    ]);
    const alert = p.getByRole('alert');
    assert.match(alert.textContent!, /Stopped after 8 blocked calls\./);
    fireEvent.click(within(alert).getByText('Resume'));
    assert.deepEqual(p.sent('resume'), [{ type: 'resume', sessionId: 's-42' }]);
  });

  it('shows no Resume button when resume is unavailable', () => {
    const p = mountPanel();
    p.update([
      {
        op: 'notices.set',
        notices: [
          { id: 'k', kind: 'keep_planning', text: 'No valid plan yet; keep planning.', resumeAvailable: false },
          { id: 'b', kind: 'blocked_handoff', text: 'Resume is unavailable: history is off.', resumeAvailable: true },
        ],
      },
    ]);
    assert.ok(p.getByText('No valid plan yet; keep planning.'));
    assert.ok(p.getByText('Resume is unavailable: history is off.'));
    assert.equal(p.queryByText('Resume'), null);
  });

  it('asks for an API key without ever showing one', () => {
    const p = mountPanel({ state: { flags: { hasApiKey: false, trusted: true } } });
    assert.ok(p.getByText(/No API key is set/));
    fireEvent.click(p.getByText('Set API Key'));
    assert.deepEqual(p.sent('setApiKey'), [{ type: 'setApiKey' }]);
    p.update([{ op: 'flags.set', flags: { hasApiKey: true, trusted: true } }]);
    assert.equal(p.queryByText(/No API key is set/), null);
  });

  it('does not ask for a key when the endpoint needs none (a local server)', () => {
    const p = mountPanel({ state: { flags: { hasApiKey: false, keyRequired: false, trusted: true } } });
    assert.equal(p.queryByText(/No API key is set/), null);
    p.update([{ op: 'flags.set', flags: { hasApiKey: false, keyRequired: true, trusted: true } }]);
    assert.ok(p.getByText(/No API key is set/));
  });
});
