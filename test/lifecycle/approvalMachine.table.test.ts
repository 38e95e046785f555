import assert from 'node:assert/strict';
import type { LifecycleState } from '../../src/core/events/types';
import { EVENTS, FIXTURES } from './machineFixtures';

type Expect = LifecycleState | 'refused';
const R = 'refused' as const;
const MODEL = { 'model approve': R, 'model exit_plan': R, 'model switch_mode': R } as const;

/** The complete transition table: fixture × event → next state, or refused. */
// prettier-ignore
const TABLE: Record<string, Record<string, Expect>> = {
  idle: {
    start_planning: 'planning', start_build: 'executing', plan_ready: R,
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: R, cancel: R, 'question pending': R, 'question settled': 'idle',
  },
  planning: {
    start_planning: R, start_build: R, plan_ready: 'awaiting_approval',
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: R, cancel: 'cancelled', 'question pending': 'planning', 'question settled': 'planning',
  },
  'planning (question pending)': {
    start_planning: R, start_build: R, plan_ready: 'planning',
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: R, cancel: 'cancelled', 'question pending': 'planning', 'question settled': 'planning',
  },
  awaiting_approval: {
    start_planning: R, start_build: R, plan_ready: R,
    'decision execute': 'executing', 'decision fresh_context': 'executing', 'decision revise': 'revising',
    'decision cancel': 'cancelled', 'setting execute': 'executing',
    ...MODEL, handoff_done: R, execution_done: R, cancel: 'cancelled', 'question pending': R, 'question settled': 'awaiting_approval',
  },
  revising: {
    start_planning: R, start_build: R, plan_ready: 'awaiting_approval',
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: R, cancel: 'cancelled', 'question pending': 'revising', 'question settled': 'revising',
  },
  'executing (handoff running)': {
    start_planning: R, start_build: R, plan_ready: 'executing',
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: 'executing', execution_done: R, cancel: 'cancelled', 'question pending': R, 'question settled': 'executing',
  },
  'executing (approved plan)': {
    start_planning: 'planning', start_build: R, plan_ready: 'executing',
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: 'idle', cancel: 'cancelled', 'question pending': R, 'question settled': 'executing',
  },
  'executing (no plan)': {
    start_planning: 'planning', start_build: R, plan_ready: 'awaiting_approval',
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: 'idle', cancel: 'cancelled', 'question pending': R, 'question settled': 'executing',
  },
  cancelled: {
    start_planning: 'planning', start_build: 'executing', plan_ready: R,
    'decision execute': R, 'decision fresh_context': R, 'decision revise': R, 'decision cancel': R, 'setting execute': R,
    ...MODEL, handoff_done: R, execution_done: R, cancel: R, 'question pending': R, 'question settled': 'cancelled',
  },
};

describe('ApprovalMachine: transition table', () => {
  it('covers every fixture and every event', () => {
    assert.deepEqual(Object.keys(TABLE).sort(), Object.keys(FIXTURES).sort());
    for (const [fixture, row] of Object.entries(TABLE)) {
      assert.deepEqual(Object.keys(row).sort(), Object.keys(EVENTS).sort(), `row ${fixture}`);
    }
  });

  for (const [fixture, row] of Object.entries(TABLE)) {
    for (const [eventName, expected] of Object.entries(row)) {
      it(`${fixture} + ${eventName} → ${expected}`, () => {
        const m = FIXTURES[fixture]!();
        const before = m.snapshot();
        const result = m.dispatch(EVENTS[eventName]!);
        if (expected === 'refused') {
          assert.equal(result.ok, false);
          assert.ok(!result.ok && result.reason.length > 20, 'a refusal says why');
          assert.equal(m.state, before.state, 'a refusal never changes the state');
          const { refusedModelAttempts: _a, ...restAfter } = m.snapshot();
          const { refusedModelAttempts: _b, ...restBefore } = before;
          assert.deepEqual(restAfter, restBefore, 'a refusal changes nothing but the refusal counter');
        } else {
          assert.ok(result.ok, `refused: ${result.ok ? '' : result.reason}`);
          assert.equal(result.state, expected);
          assert.equal(m.state, expected);
          const changes = result.effects.filter((e) => e.type === 'state_changed');
          if (expected === before.state) assert.equal(changes.length, 0, 'no state_changed without a change');
          else assert.deepEqual(changes[0], { type: 'state_changed', from: before.state, to: expected, mode: m.mode });
        }
      });
    }
  }
});
