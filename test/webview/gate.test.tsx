import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { Gate } from '../../src/protocol';
import { gate } from './scenes';

function open(g: Gate = gate) {
  const p = mountPanel();
  p.update([
    { op: 'lifecycle.set', lifecycle: { state: 'awaiting_approval', mode: 'plan', busy: false } },
    { op: 'gate.set', gate: g },
  ]);
  return p;
}

const choice = (p: ReturnType<typeof open>, name: RegExp) => p.getByRole('button', { name });

describe('panel: "Ready to code?" gate', () => {
  it('shows the title, "revision N · what changed" and validation, and does not repeat the plan', () => {
    const p = open();
    const region = p.getByRole('region', { name: 'Ready to code?' });
    assert.equal(region.querySelector('.pw-gate-plan-title')?.textContent, 'Rate limiting for the public API');
    assert.equal(region.querySelector('.pw-gate-revision')?.textContent, 'revision 2 · 1 step removed, 1 changed');
    assert.ok(p.getByText('Plan validated'));
    // The plan card above shows the summary and the steps; the gate does not say them again.
    assert.doesNotMatch(region.textContent!, /token-bucket|Redis|Read limits from config|more steps/);
    assert.equal(p.queryByText('This plan was proposed during execution.'), null);
    p.unmount();
    const first = open({ ...gate, requestId: 'g1', revision: 1, changes: undefined, hasPreviousRevision: false });
    assert.equal(first.container.querySelector('.pw-gate-revision')?.textContent, 'revision 1');
  });

  it("says when the revision is the person's own edit of the plan file", () => {
    const p = open({ ...gate, author: 'person' });
    assert.equal(
      p.container.querySelector('.pw-gate-revision')?.textContent,
      'revision 2 · your edit · 1 step removed, 1 changed',
    );
    p.unmount();
  });

  it('makes the recommended choice primary (a fresh thread at 62% context) and never takes the focus', () => {
    const focused: string[] = [];
    const focus = HTMLElement.prototype.focus;
    HTMLElement.prototype.focus = function (this: HTMLElement, options?: FocusOptions) {
      if (this.closest('.pw-gate')) focused.push(this.className);
      focus.call(this, options);
    };
    let p: ReturnType<typeof open>;
    try {
      p = open();
    } finally {
      HTMLElement.prototype.focus = focus;
    }
    assert.deepEqual(focused, [], 'nothing in the gate was focused by its arrival');
    assert.equal(document.activeElement, p.getByLabelText('Message Planwise'));
    const fresh = choice(p, /Yes, clear context and implement/);
    assert.ok(fresh.classList.contains('pw-choice-primary'));
    assert.match(fresh.textContent!, /Recommended · context 62% used\./);
    const others = [choice(p, /Yes, implement this plan/), choice(p, /No, stay in Plan mode/)];
    assert.deepEqual(
      others.map((b) => b.classList.contains('pw-choice-primary') || /Recommended/.test(b.textContent!)),
      [false, false],
    );
    assert.equal(p.container.querySelectorAll('.pw-choice-primary').length, 1);
  });

  it('below 50% context implementing in this thread is the primary choice', () => {
    const p = open({ ...gate, requestId: 'g2', contextPercent: 49.4 });
    const fresh = choice(p, /Yes, clear context and implement/);
    assert.doesNotMatch(fresh.textContent!, /Recommended/);
    assert.match(fresh.textContent!, /Fresh thread; context 49% used\./);
    const execute = choice(p, /Yes, implement this plan/);
    assert.ok(execute.classList.contains('pw-choice-primary'));
    assert.notEqual(document.activeElement, execute);
  });

  it('a draft in the composer is kept whole through the plan, a revision and a snapshot', () => {
    const p = mountPanel();
    const box = () => p.getByLabelText('Message Planwise') as HTMLTextAreaElement;
    box().focus();
    fireEvent.input(box(), { target: { value: 'half a thought, with spaces ' } });
    p.update([
      { op: 'lifecycle.set', lifecycle: { state: 'awaiting_approval', mode: 'plan', busy: false } },
      { op: 'gate.set', gate },
    ]);
    assert.equal(document.activeElement, box());
    p.update([{ op: 'gate.set', gate: { ...gate, requestId: 'approve-2', revision: 3 } }]);
    p.send(JSON.parse(JSON.stringify(p.host.snapshot())));
    assert.equal(box().value, 'half a thought, with spaces ');
    assert.equal(document.activeElement, box());
    assert.deepEqual(p.sent('approvalResponse'), []);
  });

  it('Enter and Space on a choice the panel focused do nothing; Ctrl+Alt+Shift+G reaches the bar', () => {
    const p = open();
    const execute = choice(p, /Yes, implement this plan/);
    execute.focus(); // not the person's doing: no Tab, no pointer
    for (const key of ['Enter', ' ']) {
      const down = fireEvent.keyDown(execute, { key });
      assert.equal(down, false, `${JSON.stringify(key)} was let through`);
    }
    assert.ok(p.getByText('Move to a choice with Tab, then press Enter, or click it.'));
    fireEvent.keyDown(p.getByLabelText('Message Planwise'), {
      key: 'G',
      code: 'KeyG',
      ctrlKey: true,
      altKey: true,
      shiftKey: true,
    });
    assert.equal(document.activeElement, p.getByRole('region', { name: 'Ready to code?' }));
    assert.deepEqual(p.sent('approvalResponse'), []);
  });

  it("the feedback box takes the composer's place while it is open, and the draft comes back", () => {
    const p = open();
    fireEvent.input(p.getByLabelText('Message Planwise'), { target: { value: 'half-typed idea' } });
    fireEvent.click(choice(p, /No, stay in Plan mode/));
    assert.equal(p.queryByLabelText('Message Planwise'), null);
    assert.equal(p.container.querySelectorAll('textarea').length, 1);
    fireEvent.keyDown(p.getByLabelText('What should change?'), { key: 'Escape' });
    assert.equal((p.getByLabelText('Message Planwise') as HTMLTextAreaElement).value, 'half-typed idea');
    fireEvent.click(choice(p, /No, stay in Plan mode/));
    fireEvent.keyDown(p.getByLabelText('What should change?'), { key: 'Enter', ctrlKey: true });
    p.update([{ op: 'gate.set', gate: null }]);
    assert.ok(p.getByLabelText('Message Planwise'), 'the composer is back when the gate closes');
  });

  it('sends execute and fresh_context with the gate’s request id, once', () => {
    const p = open();
    fireEvent.click(choice(p, /Yes, implement this plan/));
    fireEvent.click(choice(p, /Yes, clear context/));
    assert.deepEqual(p.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-1', decision: 'execute' },
    ]);
    assert.ok(p.getByText('Sent. Waiting for Planwise…'));
    p.unmount();
    const q = open({ ...gate, requestId: 'g3' });
    fireEvent.click(choice(q, /Yes, clear context/));
    assert.deepEqual(q.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'g3', decision: 'fresh_context' },
    ]);
  });

  it('Enter on "stay" only opens the feedback box; there Enter sends a revision, Shift+Enter adds a line', () => {
    const p = open();
    const stay = choice(p, /No, stay in Plan mode/);
    fireEvent.keyDown(stay, { key: 'Enter' });
    fireEvent.click(stay); // a browser turns Enter on a button into a click
    const box = p.getByLabelText('What should change?') as HTMLTextAreaElement;
    assert.equal(document.activeElement, box);
    assert.ok(p.getByText('Enter sends · Shift+Enter new line · Esc closes'));
    fireEvent.input(box, { target: { value: 'Use a sliding window' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    assert.deepEqual(p.sent('approvalResponse'), []);
    fireEvent.keyDown(box, { key: 'Enter' });
    assert.deepEqual(p.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-1', decision: 'revise', feedback: 'Use a sliding window' },
    ]);
  });

  it('sends the feedback as a revision with the button or Cmd+Enter, and Esc closes the box', () => {
    const p = open();
    fireEvent.click(choice(p, /No, stay in Plan mode/));
    fireEvent.keyDown(p.getByLabelText('What should change?'), { key: 'Escape' });
    assert.equal(p.queryByLabelText('What should change?'), null);
    assert.equal(document.activeElement, choice(p, /No, stay in Plan mode/));
    fireEvent.click(choice(p, /No, stay in Plan mode/));
    fireEvent.keyDown(p.getByLabelText('What should change?'), { key: 'Enter', metaKey: true });
    assert.deepEqual(p.sent('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-1', decision: 'revise' },
    ]);
  });

  it('asks the host for a diff against the previous draft and opens the plan file', () => {
    const p = open();
    fireEvent.click(p.getByRole('button', { name: 'Compare with previous draft' }));
    assert.deepEqual(p.sent('compareRevisions'), [{ type: 'compareRevisions' }]);
    fireEvent.click(p.getByRole('link', { name: 'Open plan' }));
    assert.deepEqual(p.sent('openFile'), [{ type: 'openFile', path: '.vtcode/plans/rate-limiting.md' }]);
    p.unmount();
    const first = open({ ...gate, requestId: 'g4', hasPreviousRevision: false });
    assert.equal(first.queryByRole('button', { name: 'Compare with previous draft' }), null);
  });

  it('says when the plan was proposed during execution and lists validation problems', () => {
    const p = open({
      ...gate,
      requestId: 'g5',
      proposedDuringExecution: true,
      validation: { valid: false, problems: ['Step 3 has no verify command'] },
    });
    assert.ok(p.getByText('This plan was proposed during execution.'));
    assert.ok(p.getByText('Validation found 1 problem'));
    assert.ok(p.getByText('Step 3 has no verify command'));
  });

  it('shows handoff progress, disables the gate, the composer and the mode switch', () => {
    const p = open();
    p.update([
      {
        op: 'handoff.set',
        handoff: {
          steps: [
            { label: 'Preparing fresh execution thread...', status: 'done' },
            { label: 'Restoring approved plan...', status: 'active' },
            { label: 'Starting build...', status: 'pending' },
          ],
        },
      },
    ]);
    assert.ok(p.getByText('Restoring approved plan...'));
    assert.ok(p.getByText('Starting build...'));
    assert.ok((choice(p, /Yes, implement this plan/) as HTMLButtonElement).disabled);
    fireEvent.click(choice(p, /Yes, implement this plan/));
    assert.deepEqual(p.sent('approvalResponse'), []);
    const composer = p.getByLabelText('Message Planwise') as HTMLTextAreaElement;
    assert.ok(composer.disabled);
    assert.ok((p.getByRole('button', { name: 'Build' }) as HTMLButtonElement).disabled);
    p.update([
      { op: 'handoff.set', handoff: null },
      { op: 'gate.set', gate: null },
    ]);
    assert.equal((p.getByLabelText('Message Planwise') as HTMLTextAreaElement).disabled, false);
    assert.equal(p.queryByRole('region', { name: 'Ready to code?' }), null);
  });
});
