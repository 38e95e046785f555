import assert from 'node:assert/strict';
import { ApprovalMachine, type LifecycleEvent } from '../../src/core/lifecycle/approvalMachine';
import { FIXTURES, PLAN, PLAN2, effectsOf, person, ready, run } from './machineFixtures';

describe('ApprovalMachine: decisions and effects', () => {
  it('opens the gate with approval_requested for the first plan', () => {
    const m = FIXTURES.planning!();
    const r = m.dispatch(ready());
    assert.deepEqual(effectsOf(r, 'approval_requested'), [
      { type: 'approval_requested', planFile: PLAN, revision: 1, proposedDuringExecution: false },
    ]);
    assert.deepEqual(m.pendingApproval(), { planFile: PLAN, revision: 1, proposedDuringExecution: false });
  });

  it('execute and fresh_context record the handoff in the snapshot and hold input until handoff_done', () => {
    for (const decision of ['execute', 'fresh_context'] as const) {
      const m = FIXTURES.awaiting_approval!();
      const r = m.dispatch(person(decision));
      assert.deepEqual(r.effects, [
        { type: 'state_changed', from: 'awaiting_approval', to: 'executing', mode: 'build' },
        { type: 'approval_resolved', decision, automatic: false },
        { type: 'handoff', mode: decision, planFile: PLAN },
      ]);
      const s = m.snapshot();
      assert.equal(s.handoff, decision);
      assert.equal(s.approvedPlanFile, PLAN);
      assert.equal(m.inputHeld, true);
      assert.equal(m.mode, 'build');
      run(m, { type: 'handoff_done' });
      assert.equal(m.inputHeld, false);
      assert.equal(m.snapshot().handoff, decision, 'the handoff kind stays recorded');
    }
  });

  it('a decision by an explicit setting is automatic', () => {
    const m = FIXTURES.awaiting_approval!();
    const r = m.dispatch({ type: 'decision', decision: 'fresh_context', by: 'setting' });
    assert.deepEqual(effectsOf(r, 'approval_resolved'), [
      { type: 'approval_resolved', decision: 'fresh_context', automatic: true },
    ]);
    assert.deepEqual(m.snapshot().lastDecision, { decision: 'fresh_context', by: 'setting' });
  });

  it('revise carries feedback to the model, then the next plan reopens the gate with the previous one for a diff', () => {
    const m = FIXTURES.awaiting_approval!();
    const r = m.dispatch(person('revise', '  split step 2  '));
    assert.deepEqual(r.effects, [
      { type: 'state_changed', from: 'awaiting_approval', to: 'revising', mode: 'plan' },
      { type: 'approval_resolved', decision: 'revise', automatic: false, feedback: 'split step 2' },
      { type: 'revision_requested', feedback: 'split step 2' },
    ]);
    assert.equal(m.snapshot().feedback, 'split step 2');
    assert.equal(m.pendingApproval(), undefined, 'no approval is pending while revising');
    const again = m.dispatch(ready(PLAN2));
    assert.deepEqual(effectsOf(again, 'approval_requested'), [
      {
        type: 'approval_requested',
        planFile: PLAN2,
        revision: 2,
        proposedDuringExecution: false,
        previousPlanFile: PLAN,
      },
    ]);
    assert.equal(m.snapshot().feedback, undefined, 'feedback is consumed by the new revision');
  });

  it('revise without feedback still asks for a revision', () => {
    const m = FIXTURES.awaiting_approval!();
    const r = m.dispatch(person('revise', '   '));
    assert.deepEqual(effectsOf(r, 'revision_requested'), [{ type: 'revision_requested' }]);
  });

  it('cancel at the gate resolves the approval as cancel; cancel elsewhere does not', () => {
    const atGate = FIXTURES.awaiting_approval!().dispatch({ type: 'cancel' });
    assert.deepEqual(effectsOf(atGate, 'approval_resolved'), [
      { type: 'approval_resolved', decision: 'cancel', automatic: false },
    ]);
    const byDecision = FIXTURES.awaiting_approval!().dispatch(person('cancel'));
    assert.deepEqual(effectsOf(byDecision, 'approval_resolved'), [
      { type: 'approval_resolved', decision: 'cancel', automatic: false },
    ]);
    const whilePlanning = FIXTURES.planning!().dispatch({ type: 'cancel' });
    assert.deepEqual(effectsOf(whilePlanning, 'approval_resolved'), []);
    const duringHandoff = FIXTURES['executing (handoff running)']!();
    run(duringHandoff, { type: 'cancel' });
    assert.equal(duringHandoff.inputHeld, false, 'cancel releases held input');
  });

  it('refuses decisions from anyone but the person or a setting, and unknown decisions', () => {
    const m = FIXTURES.awaiting_approval!();
    const byModel = m.dispatch({ type: 'decision', decision: 'execute', by: 'model' } as unknown as LifecycleEvent);
    assert.equal(byModel.ok, false);
    assert.match(!byModel.ok ? byModel.reason : '', /person or an explicit setting, not "model"/);
    const unknown = m.dispatch({ type: 'decision', decision: 'maybe', by: 'person' } as unknown as LifecycleEvent);
    assert.match(!unknown.ok ? unknown.reason : '', /unknown decision "maybe"; expected one of execute, fresh_context/);
    assert.equal(m.state, 'awaiting_approval');
    const odd = m.dispatch({ type: 'teleport' } as unknown as LifecycleEvent);
    assert.match(!odd.ok ? odd.reason : '', /unknown lifecycle event "teleport"/);
  });
});

describe('ApprovalMachine: the model cannot decide', () => {
  for (const action of ['approve', 'exit_plan', 'switch_mode'] as const) {
    it(`refuses and logs a model ${action} attempt in every state`, () => {
      for (const [fixture, make] of Object.entries(FIXTURES)) {
        const m = make();
        const before = m.state;
        const r = m.dispatch({ type: 'model_attempt', action });
        assert.equal(r.ok, false, fixture);
        assert.equal(m.state, before);
        assert.match(!r.ok ? r.reason : '', /the model cannot/);
        assert.equal(r.effects.length, 1);
        const log = r.effects[0]!;
        assert.equal(log.type, 'log');
        assert.ok(log.type === 'log' && log.level === 'warning' && log.message.startsWith('refused: the model cannot'));
        assert.equal(m.snapshot().refusedModelAttempts, 1);
      }
    });
  }
});

describe('ApprovalMachine: the gate waits for pending questions', () => {
  it('holds a plan back while a question is pending and opens the gate once it is settled', () => {
    const m = FIXTURES['planning (question pending)']!();
    const held = m.dispatch(ready());
    assert.ok(held.ok);
    assert.equal(m.state, 'planning');
    assert.equal(effectsOf(held, 'approval_requested').length, 0, 'no approval while a question is pending');
    assert.deepEqual(effectsOf(held, 'log').length, 1);
    assert.equal(m.snapshot().deferredPlanFile, PLAN);
    const settled = m.dispatch({ type: 'interview_pending', pending: false });
    assert.equal(m.state, 'awaiting_approval');
    assert.deepEqual(effectsOf(settled, 'approval_requested'), [
      { type: 'approval_requested', planFile: PLAN, revision: 1, proposedDuringExecution: false },
    ]);
    assert.equal(m.snapshot().deferredPlanFile, undefined);
  });

  it('a later plan replaces the held one, and a question cannot open at the gate', () => {
    const m = FIXTURES['planning (question pending)']!();
    run(m, ready(PLAN), ready(PLAN2), { type: 'interview_pending', pending: false });
    assert.equal(m.pendingApproval()?.planFile, PLAN2);
    const r = m.dispatch({ type: 'interview_pending', pending: true });
    assert.equal(r.ok, false);
    assert.equal(m.snapshot().interviewPending, false);
  });

  it('cancel drops a held plan and the pending question', () => {
    const m = FIXTURES['planning (question pending)']!();
    run(m, ready(), { type: 'cancel' });
    const s = m.snapshot();
    assert.equal(s.deferredPlanFile, undefined);
    assert.equal(s.interviewPending, false);
  });
});

describe('ApprovalMachine: replans during execution', () => {
  it('inside an approved run a new plan continues execution and becomes the approved plan', () => {
    const m = FIXTURES['executing (approved plan)']!();
    const r = m.dispatch(ready(PLAN2));
    assert.equal(m.state, 'executing');
    assert.deepEqual(effectsOf(r, 'plan_revised_in_run'), [
      { type: 'plan_revised_in_run', planFile: PLAN2, revision: 2 },
    ]);
    assert.equal(effectsOf(r, 'approval_requested').length, 0, 'no second gate inside an approved run');
    assert.equal(m.snapshot().approvedPlanFile, PLAN2);
  });

  it('without an approved plan, the gate opens with the proposed-during-execution notice', () => {
    const m = FIXTURES['executing (no plan)']!();
    const r = m.dispatch(ready());
    assert.deepEqual(effectsOf(r, 'approval_requested'), [
      { type: 'approval_requested', planFile: PLAN, revision: 1, proposedDuringExecution: true },
    ]);
    assert.equal(m.mode, 'plan');
    assert.equal(m.pendingApproval()?.proposedDuringExecution, true);
  });

  it('execution_done returns to idle with a clean slate but keeps the mode', () => {
    const m = FIXTURES['executing (approved plan)']!();
    run(m, { type: 'execution_done' });
    const s = m.snapshot();
    assert.equal(s.state, 'idle');
    assert.equal(s.mode, 'build');
    assert.equal(s.approvedPlanFile, undefined);
    assert.equal(s.revision, 0);
  });
});

describe('ApprovalMachine: snapshot and resume', () => {
  it('a pending approval survives a JSON round trip and can then be decided', () => {
    const m = FIXTURES.revising!();
    run(m, ready(PLAN2));
    const restored = new ApprovalMachine(JSON.parse(JSON.stringify(m.snapshot())));
    assert.equal(restored.state, 'awaiting_approval');
    assert.deepEqual(restored.pendingApproval(), {
      planFile: PLAN2,
      revision: 2,
      proposedDuringExecution: false,
      previousPlanFile: PLAN,
    });
    run(restored, person('fresh_context'));
    assert.equal(restored.snapshot().approvedPlanFile, PLAN2);
  });

  it('every fixture round-trips through JSON unchanged', () => {
    for (const [fixture, make] of Object.entries(FIXTURES)) {
      const snap = JSON.parse(JSON.stringify(make().snapshot()));
      assert.deepEqual(JSON.parse(JSON.stringify(new ApprovalMachine(snap).snapshot())), snap, fixture);
    }
  });

  it('a handoff interrupted mid-way is still pending after resume', () => {
    const m = new ApprovalMachine(JSON.parse(JSON.stringify(FIXTURES['executing (handoff running)']!().snapshot())));
    assert.equal(m.inputHeld, true);
    assert.equal(m.snapshot().handoff, 'execute');
  });

  it('snapshot() is a copy: mutating it does not change the machine', () => {
    const m = FIXTURES.awaiting_approval!();
    const s = m.snapshot() as { state: string };
    s.state = 'executing';
    assert.equal(m.state, 'awaiting_approval');
  });

  it('rejects an invalid or inconsistent snapshot with a message naming the problem', () => {
    assert.throws(() => new ApprovalMachine({ state: 'flying' }), /cannot resume the planning lifecycle.*state/);
    const base = FIXTURES.awaiting_approval!().snapshot();
    assert.throws(() => new ApprovalMachine({ ...base, planFile: undefined }), /awaiting_approval needs a planFile/);
    assert.throws(
      () => new ApprovalMachine({ ...base, interviewPending: true }),
      /gate cannot be open while an interview question is pending/,
    );
    assert.throws(
      () => new ApprovalMachine({ ...base, handoffPending: true }),
      /pending handoff needs state executing/,
    );
    assert.throws(() => new ApprovalMachine({ ...base, revision: -1 }), /revision/);
  });
});
