/**
 * A failed model request ends the turn cleanly in the engine: planning with no plan goes back to
 * idle, and a revision that failed goes back to the gate of the plan it was revising.
 */
import assert from 'node:assert/strict';
import { ApprovalMachine } from '../../src/core/lifecycle/approvalMachine';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

describe('a failed request ends the turn', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('planning with no plan yet goes back to idle, with the error said once', async () => {
    h = await startHarness([sse.httpError(401, 'Incorrect API key provided.')]);
    const stop = await h.session.start('add a greeting helper');
    assert.equal(stop.kind, 'error');
    assert.equal(h.session.state, 'idle');
    assert.deepEqual(
      h.eventsOf('state.changed').map((e) => e.state),
      ['planning', 'idle'],
    );
    assert.equal(h.eventsOf('error').length, 1);
  });

  it('a revision that failed goes back to the gate it came from, same plan, same revision', async () => {
    h = await startHarness(
      [sse.textTurn(planResponse(samplePlan())), sse.httpError(401, 'Incorrect API key provided.')],
      {
        approve: (_r, n) => (n === 1 ? { decision: 'revise', feedback: 'also handle names' } : { decision: 'cancel' }),
      },
    );
    const stop = await h.session.start('add a greeting helper');
    assert.equal(h.people.approvals.length, 2, 'the gate was offered again after the failure');
    assert.equal(h.people.approvals[1]!.card.revision, h.people.approvals[0]!.card.revision);
    assert.equal(h.people.approvals[1]!.planFile, h.people.approvals[0]!.planFile);
    assert.equal(stop.kind, 'cancelled');
    assert.equal(h.eventsOf('error').length, 1);
    const states = h.eventsOf('state.changed').map((e) => e.state);
    assert.deepEqual(states.slice(0, 4), ['planning', 'awaiting_approval', 'revising', 'awaiting_approval']);
  });
});

describe('approval machine: turn_failed', () => {
  it('planning without a plan → idle; revising → awaiting_approval; others stay', () => {
    const m = new ApprovalMachine();
    assert.equal(m.dispatch({ type: 'turn_failed' }).state, 'idle');
    m.dispatch({ type: 'start_planning' });
    assert.equal(m.dispatch({ type: 'turn_failed' }).state, 'idle');
    m.dispatch({ type: 'start_planning' });
    m.dispatch({ type: 'plan_ready', planFile: '/p.md' });
    assert.equal(m.dispatch({ type: 'turn_failed' }).state, 'awaiting_approval');
    m.dispatch({ type: 'decision', decision: 'revise', by: 'person', feedback: 'x' });
    assert.equal(m.state, 'revising');
    const r = m.dispatch({ type: 'turn_failed' });
    assert.equal(r.state, 'awaiting_approval');
    assert.deepEqual(
      r.effects.map((e) => e.type),
      ['state_changed', 'approval_requested'],
    );
    m.dispatch({ type: 'decision', decision: 'execute', by: 'person' });
    assert.equal(m.dispatch({ type: 'turn_failed' }).state, 'executing');
  });
});
