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
  it('shows the title, summary, validation and the first five steps with a count of the rest', () => {
    const p = open();
    const region = p.getByRole('region', { name: 'Ready to code?' });
    assert.ok(p.getByText('Rate limiting for the public API'));
    assert.equal(region.querySelector('.pw-gate-summary strong')?.textContent, 'Redis');
    assert.ok(p.getByText('Plan validated'));
    const steps = region.querySelectorAll('.pw-steps li');
    assert.equal(steps.length, 5);
    assert.ok(p.getByText('…and 2 more steps'));
    assert.equal(p.queryByText('This plan was proposed during execution.'), null);
  });

  it('offers three actions, recommends a fresh thread at 62% context, and focuses "stay" first', () => {
    const p = open();
    const stay = choice(p, /No, stay in Plan mode/);
    assert.equal(document.activeElement, stay);
    const fresh = choice(p, /Yes, clear context and implement/);
    assert.match(fresh.textContent!, /Recommended/);
    assert.match(fresh.textContent!, /Fresh thread\. Context: 62% used\./);
    assert.ok(choice(p, /Yes, implement this plan/));
  });

  it('does not recommend a fresh thread below 50% context', () => {
    const p = open({ ...gate, requestId: 'g2', contextPercent: 49.4 });
    const fresh = choice(p, /Yes, clear context and implement/);
    assert.doesNotMatch(fresh.textContent!, /Recommended/);
    assert.match(fresh.textContent!, /Context: 49% used\./);
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

  it('Enter on "stay" only opens the feedback box; Enter there adds a line and never approves', () => {
    const p = open();
    const stay = choice(p, /No, stay in Plan mode/);
    fireEvent.keyDown(stay, { key: 'Enter' });
    fireEvent.click(stay); // a browser turns Enter on a button into a click
    const box = p.getByLabelText('What should change?') as HTMLTextAreaElement;
    assert.equal(document.activeElement, box);
    fireEvent.input(box, { target: { value: 'Use a sliding window' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    assert.deepEqual(p.sent('approvalResponse'), []);
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
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
    fireEvent.click(p.getByText('Compare with previous draft'));
    assert.deepEqual(p.sent('compareRevisions'), [{ type: 'compareRevisions' }]);
    fireEvent.click(p.getByRole('link', { name: 'Open the full plan' }));
    assert.deepEqual(p.sent('openFile'), [{ type: 'openFile', path: '.vtcode/plans/rate-limiting.md' }]);
    p.unmount();
    const first = open({ ...gate, requestId: 'g4', hasPreviousRevision: false });
    assert.equal(first.queryByText('Compare with previous draft'), null);
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
