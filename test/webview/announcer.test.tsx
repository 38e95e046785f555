import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import type { DeltaOp } from '../../src/protocol';
import { gate, interview, tracker } from './scenes';

describe('panel: the polite live region', () => {
  it('announces each state change once, in words', () => {
    const p = mountPanel();
    const region = () => p.getByTestId('announcer');
    assert.equal(region().getAttribute('aria-live'), 'polite');
    const says = (ops: DeltaOp[]) => {
      p.update(ops);
      return region().textContent;
    };
    assert.equal(
      says([{ op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true } }]),
      'Planning.',
    );
    assert.match(says([{ op: 'interview.set', interview }])!, /^Planwise has (a question|\d questions): /);
    assert.equal(
      says([
        {
          op: 'item.add',
          item: {
            id: 'c1',
            kind: 'tool_call',
            callId: 'c1',
            name: 'exec_command',
            title: 'Ran `rm x`',
            subject: '`rm x`',
            argsSummary: 'rm x',
            verdict: { allowed: false, reason: "blocked: 'rm' changes files" },
            outcome: 'blocked',
          },
        },
      ]),
      "Not run: rm x. 'rm' changes files",
    );
    assert.equal(
      says([
        { op: 'interview.set', interview: null },
        { op: 'gate.set', gate },
      ]),
      `Plan ready: ${gate.title}. Ready to code? Ctrl+Alt+Shift+G goes to the choices.`,
    );
    const t0 = { ...tracker, counts: { ...tracker.counts, done: 0 } };
    p.update([{ op: 'tracker.set', tracker: t0 }]);
    assert.match(
      says([{ op: 'tracker.set', tracker: { ...t0, counts: { ...t0.counts, done: 1 } } }])!,
      /^Step done: 1 of \d+/,
    );
    assert.equal(
      says([{ op: 'item.add', item: { id: 'e', kind: 'notice', level: 'error', text: 'Cannot reach the model.' } }]),
      'Error: Cannot reach the model.',
    );
  });
});
