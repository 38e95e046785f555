import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { Lifecycle } from '../../src/protocol';
import { modeCommandOf } from '../../webview/modeCommand';
import { reportScene } from './reportScene';

function panel(lifecycle: Lifecycle = { state: 'idle', mode: 'plan', busy: false }) {
  const p = mountPanel();
  p.update([{ op: 'lifecycle.set', lifecycle }]);
  return p;
}

function type(p: ReturnType<typeof panel>, text: string, key: Partial<KeyboardEvent> = {}) {
  const box = p.getByLabelText('Message Planwise');
  fireEvent.input(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter', ...key });
  return box as HTMLTextAreaElement;
}

describe('panel: composer', () => {
  it('sends a task on Enter and clears the box; Shift+Enter does not send', () => {
    const p = panel();
    type(p, 'Add rate limiting', { shiftKey: true });
    assert.deepEqual(p.sent('submit'), []);
    const box = type(p, '  Add rate limiting  ');
    assert.deepEqual(p.sent('submit'), [{ type: 'submit', text: 'Add rate limiting' }]);
    assert.equal(box.value, '');
    type(p, '   ');
    assert.equal(p.sent('submit').length, 1, 'blank input is not sent');
  });

  it('passes intent phrases and /plan through to the host when idle', () => {
    const p = panel();
    for (const text of ['stay in planning', 'implement the plan', '/plan', '/plan off']) type(p, text);
    assert.deepEqual(
      p.sent('submit').map((m) => m.text),
      ['stay in planning', 'implement the plan', '/plan', '/plan off'],
    );
  });

  it('drops /plan and /plan off with a notice while a turn runs, but still sends ordinary text', () => {
    const p = panel({ state: 'executing', mode: 'build', busy: true });
    type(p, '/plan');
    assert.deepEqual(p.sent('submit'), []);
    assert.match(p.getByRole('alert').textContent!, /“\/plan” was not sent: mode switches are locked/);
    type(p, '/PLAN   off');
    assert.deepEqual(p.sent('submit'), []);
    type(p, 'also handle 503s');
    assert.deepEqual(p.sent('submit'), [{ type: 'submit', text: 'also handle 503s' }]);
    assert.equal(p.queryByRole('alert'), null, 'the notice clears on the next send');
  });

  it('after a finished build, a new task asks first: Keep (the default) keeps the report and the draft', () => {
    const p = panel({ state: 'executing', mode: 'build', busy: false });
    p.update(reportScene().ops);
    assert.ok(p.getByTestId('report-revert'), 'the report offers Revert');
    type(p, '/plan');
    assert.deepEqual(p.sent('submit'), [{ type: 'submit', text: '/plan' }], 'a mode command starts no task');
    assert.equal(p.queryByRole('alertdialog'), null);
    const box = type(p, 'Add a health check');
    assert.equal(p.sent('submit').length, 1, 'nothing is sent before the person decides');
    const ask = p.getByRole('alertdialog', { name: 'Start a new task?' });
    assert.match(ask.textContent!, /replaces the finished build's report and its Revert buttons/);
    assert.equal(document.activeElement, p.getByTestId('new-task-confirm-keep'), 'Keep holds the focus');
    fireEvent.click(p.getByTestId('new-task-confirm-keep'));
    assert.equal(p.queryByRole('alertdialog'), null);
    assert.equal(box.value, 'Add a health check', 'the draft is kept whole');
    assert.equal(p.sent('submit').length, 1);
    // Esc keeps too.
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.keyDown(p.getByRole('alertdialog'), { key: 'Escape' });
    assert.equal(p.sent('submit').length, 1);
    // The deliberate choice sends it.
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.click(p.getByTestId('new-task-confirm-go'));
    assert.deepEqual(p.sent('submit').at(-1), { type: 'submit', text: 'Add a health check' });
    assert.equal(box.value, '');
  });

  it('asks nothing when no build report offers Revert', () => {
    const p = panel({ state: 'executing', mode: 'build', busy: false });
    type(p, 'Add a health check');
    assert.deepEqual(p.sent('submit'), [{ type: 'submit', text: 'Add a health check' }]);
    assert.equal(p.queryByRole('alertdialog'), null);
  });

  it('keeps the draft in the saved UI state', () => {
    const p = panel();
    fireEvent.input(p.getByLabelText('Message Planwise'), { target: { value: 'half a thought' } });
    const saved = p.savedUi();
    p.unmount();
    const again = mountPanel({ savedUi: saved });
    assert.equal((again.getByLabelText('Message Planwise') as HTMLTextAreaElement).value, 'half a thought');
  });

  it('recognises mode commands only as whole messages', () => {
    assert.equal(modeCommandOf(' /plan '), 'plan');
    assert.equal(modeCommandOf('/Plan Off'), 'plan_off');
    assert.equal(modeCommandOf('/plan the migration'), undefined);
    assert.equal(modeCommandOf('please /plan'), undefined);
  });
});

describe('panel: mode switch', () => {
  it('switches mode when idle', () => {
    const p = panel();
    const plan = p.getByRole('button', { name: 'Plan' });
    assert.equal(plan.getAttribute('aria-pressed'), 'true');
    fireEvent.click(plan);
    fireEvent.click(p.getByRole('button', { name: 'Build' }));
    assert.deepEqual(p.sent('setMode'), [{ type: 'setMode', mode: 'build' }]);
  });

  it('is locked while busy and says why', () => {
    const p = panel({ state: 'planning', mode: 'plan', busy: true });
    const build = p.getByRole('button', { name: 'Build' }) as HTMLButtonElement;
    assert.ok(build.disabled);
    assert.match(build.title, /locked while Planwise is working/);
    fireEvent.click(build);
    assert.deepEqual(p.sent('setMode'), []);
  });
});

describe('panel: prompts', () => {
  it('asks "Enter planning workflow?" and sends the answer once', () => {
    const p = panel({ state: 'executing', mode: 'build', busy: true });
    p.update([{ op: 'enterPlanning.set', prompt: { requestId: 'ep-1', reason: 'This change touches 14 files.' } }]);
    assert.ok(p.getByRole('region', { name: 'Enter planning workflow?' }));
    assert.ok(p.getByText('This change touches 14 files.'));
    fireEvent.click(p.getByText('Enter planning (recommended)'));
    fireEvent.click(p.getByText('Continue without'));
    assert.deepEqual(p.sent('enterPlanningResponse'), [
      { type: 'enterPlanningResponse', requestId: 'ep-1', accept: true },
    ]);
  });

  it('continues without planning', () => {
    const p = panel();
    p.update([{ op: 'enterPlanning.set', prompt: { requestId: 'ep-2' } }]);
    fireEvent.click(p.getByText('Continue without'));
    assert.deepEqual(p.sent('enterPlanningResponse'), [
      { type: 'enterPlanningResponse', requestId: 'ep-2', accept: false },
    ]);
  });

  it('asks to grant more when a limit is reached', () => {
    const p = panel();
    p.update([{ op: 'grantMore.set', prompt: { requestId: 'gm-1', kind: 'session_tool_calls', used: 120, max: 120 } }]);
    assert.ok(p.getByText(/Tool-call limit reached: 120 of 120 used\. Grant more\?/));
    fireEvent.click(p.getByText('Stop here'));
    assert.deepEqual(p.sent('grantMore'), [{ type: 'grantMore', requestId: 'gm-1', grant: false }]);
  });
});
