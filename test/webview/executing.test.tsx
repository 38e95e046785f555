import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { act, fireEvent, within } from '@testing-library/preact';
import { describeVerify } from '../../webview/components/TodoTree';
import { agedTracker, budget } from './scenes';

function executing(trusted = true) {
  const p = mountPanel({ state: { flags: { hasApiKey: true, trusted } } });
  const now = Date.now();
  p.update([
    { op: 'lifecycle.set', lifecycle: { state: 'executing', mode: 'build', busy: true } },
    { op: 'budget.set', budget: budget(6, 8, 3000) },
    { op: 'tracker.set', tracker: agedTracker(now, 120_000, 5_000) },
  ]);
  // The tracker is one line until the person opens it.
  fireEvent.click(p.container.querySelector<HTMLElement>('.pw-tracker-line')!);
  return p;
}

describe('panel: executing with the task tracker', () => {
  it('is one line ("2/6 · step …") until opened, and opens and closes on demand', () => {
    const p = mountPanel();
    p.update([
      { op: 'lifecycle.set', lifecycle: { state: 'executing', mode: 'build', busy: true } },
      { op: 'tracker.set', tracker: agedTracker(Date.now(), 0, 0) },
    ]);
    const line = p.container.querySelector<HTMLElement>('.pw-tracker-line')!;
    assert.equal(line.getAttribute('aria-expanded'), 'false');
    assert.match(line.textContent!, /^2\/6·step \d[\d.]*( awaits your check)?: .+33%$/);
    assert.equal(p.container.querySelector('.pw-todo-list'), null);
    fireEvent.click(line);
    assert.equal(line.getAttribute('aria-expanded'), 'true');
    assert.ok(p.container.querySelector('.pw-todo-list'));
    fireEvent.click(line);
    assert.equal(p.container.querySelector('.pw-todo-list'), null);
  });

  it("shows the engine's counts and percent in the header, and counts nothing itself", () => {
    const p = executing();
    const section = p.getByRole('region', { name: 'Task tracker' });
    assert.match(section.textContent!, /2\/6 done · 2 in progress · 1 blocked · 1 pending · 33%/);
    assert.equal(section.querySelector('progress')?.getAttribute('value'), '33');
    // Whatever the engine says is shown, even for the same items.
    const now = Date.now();
    const t = agedTracker(now, 0, 0);
    p.update([
      {
        op: 'tracker.set',
        tracker: { ...t, counts: { done: 4, inProgress: 0, pending: 2, blocked: 0, total: 6 }, percent: 66 },
      },
    ]);
    assert.match(section.textContent!, /4\/6 done · 2 pending · 66%/);
  });

  it('shows "Awaiting your check" on the step and signs the check off with "Mark checked"', () => {
    const p = executing();
    const row = p.getByText('Show the counter on the dashboard').closest('li')!;
    assert.ok(
      within(row as HTMLElement)
        .getByRole('status')
        .textContent!.includes('Awaiting your check'),
    );
    assert.equal(p.getByText('Read limits from config').closest('li')!.querySelector('.pw-awaiting-check'), null);
    fireEvent.click(p.getByLabelText('Mark checked: open the dashboard and confirm the counter shows 429s'));
    assert.deepEqual(p.sent('markChecked'), [
      {
        type: 'markChecked',
        planFile: '.vtcode/plans/rate-limiting.md',
        itemPath: '5',
        entry: 'open the dashboard and confirm the counter shows 429s',
      },
    ]);
  });

  it('refreshes "just now" to "3 min ago" on its own, without a new tracker', () => {
    const realSetInterval = globalThis.setInterval;
    const realNow = Date.now;
    const ticks: (() => void)[] = [];
    globalThis.setInterval = ((fn: () => void) => {
      ticks.push(fn);
      return 0;
    }) as unknown as typeof setInterval;
    try {
      const p = executing();
      const now = Date.now();
      p.update([{ op: 'tracker.set', tracker: agedTracker(now, 0, 0) }]);
      fireEvent.click(p.getByRole('button', { name: 'Expand step 1' }));
      assert.ok(p.getByText(/passed just now/));
      Date.now = () => now + 3 * 60_000;
      act(() => ticks.forEach((t) => t()));
      assert.ok(p.getByText(/passed 3 min ago/));
    } finally {
      globalThis.setInterval = realSetInterval;
      Date.now = realNow;
    }
  });

  it('offers Cancel while a verify runs', () => {
    const p = executing();
    const now = Date.now();
    const t = agedTracker(now, 120_000, 5_000);
    const running = {
      ...t,
      items: t.items.map((i) =>
        i.path === '1'
          ? {
              ...i,
              entries: [
                { ...i.entries[0]!, result: { status: 'running' as const, exitCode: null, at: now, durationMs: 0 } },
              ],
            }
          : i,
      ),
    };
    p.update([{ op: 'tracker.set', tracker: running }]);
    fireEvent.click(p.getByRole('button', { name: 'Expand step 1' }));
    fireEvent.click(p.getByLabelText('Cancel npm test'));
    assert.deepEqual(p.sent('cancelVerify'), [
      { type: 'cancelVerify', planFile: '.vtcode/plans/rate-limiting.md', itemPath: '1', entry: 'npm test' },
    ]);
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
    assert.deepEqual(p.sent('runVerify'), [
      { type: 'runVerify', planFile: '.vtcode/plans/rate-limiting.md', itemPath: '2.2', entry: 'npm test -- health' },
    ]);
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
    assert.equal(
      meter.getAttribute('aria-label'),
      'Budget: Tool calls 6 of 120, Context 8%, Spent 3.0k of 200k tokens',
    );
    assert.ok(meter.classList.contains('pw-level-ok'));
    assert.match(meter.getAttribute('title')!, /Requests to the model this turn: 3 of 60/);
    p.update([{ op: 'budget.set', budget: budget(100, 85, 20_000) }]);
    const hot = p.getByRole('group', { name: /^Budget:/ });
    assert.ok(hot.classList.contains('pw-level-warning'));
    p.update([{ op: 'budget.set', budget: budget(120, 85, 20_000) }]);
    assert.ok(p.getByRole('group', { name: /^Budget:/ }).classList.contains('pw-level-error'));
  });

  it('describes verify results', () => {
    const r = { exitCode: null, at: 0, durationMs: 0 };
    assert.deepEqual(describeVerify({ ...r, status: 'cancelled' }, 3_600_000), {
      text: 'cancelled, 1 h ago',
      ok: false,
    });
    assert.deepEqual(describeVerify({ ...r, status: 'timed_out' }, 0), { text: 'timed out, just now', ok: false });
    assert.deepEqual(describeVerify({ ...r, status: 'checked' }, 120_000), { text: 'checked 2 min ago', ok: true });
    assert.deepEqual(describeVerify({ ...r, status: 'failed', exitCode: 2 }, 0), {
      text: 'exit 2, just now',
      ok: false,
    });
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
