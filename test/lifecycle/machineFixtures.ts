/** Shared fixtures of the approval-machine tests: every situation, reached through legal events only. */
import assert from 'node:assert/strict';
import {
  ApprovalMachine,
  type DispatchResult,
  type LifecycleEffect,
  type LifecycleEvent,
} from '../../src/core/lifecycle/approvalMachine';

export function run(m: ApprovalMachine, ...events: LifecycleEvent[]): DispatchResult {
  let last: DispatchResult | undefined;
  for (const e of events) {
    last = m.dispatch(e);
    assert.ok(last.ok, `setup event ${JSON.stringify(e)} was refused: ${last.ok ? '' : last.reason}`);
  }
  return last!;
}

export const PLAN = '/ws/.vtcode/plans/1-a-b.md';
export const PLAN2 = '/ws/.vtcode/plans/1-a-b.r2.md';
export const ready = (planFile = PLAN): LifecycleEvent => ({ type: 'plan_ready', planFile });
export const person = (
  decision: 'execute' | 'fresh_context' | 'revise' | 'cancel',
  feedback?: string,
): LifecycleEvent =>
  feedback === undefined
    ? { type: 'decision', decision, by: 'person' }
    : { type: 'decision', decision, by: 'person', feedback };

/** Every distinct situation the machine can be in, reached through legal events only. */
export const FIXTURES: Record<string, () => ApprovalMachine> = {
  idle: () => new ApprovalMachine(),
  planning: () => {
    const m = new ApprovalMachine();
    run(m, { type: 'start_planning' });
    return m;
  },
  'planning (question pending)': () => {
    const m = FIXTURES.planning!();
    run(m, { type: 'interview_pending', pending: true });
    return m;
  },
  awaiting_approval: () => {
    const m = FIXTURES.planning!();
    run(m, ready());
    return m;
  },
  revising: () => {
    const m = FIXTURES.awaiting_approval!();
    run(m, person('revise', 'split step 2'));
    return m;
  },
  'executing (handoff running)': () => {
    const m = FIXTURES.awaiting_approval!();
    run(m, person('execute'));
    return m;
  },
  'executing (approved plan)': () => {
    const m = FIXTURES['executing (handoff running)']!();
    run(m, { type: 'handoff_done' });
    return m;
  },
  'executing (no plan)': () => {
    const m = new ApprovalMachine();
    run(m, { type: 'start_build' });
    return m;
  },
  cancelled: () => {
    const m = FIXTURES.planning!();
    run(m, { type: 'cancel' });
    return m;
  },
};

export const EVENTS: Record<string, LifecycleEvent> = {
  start_planning: { type: 'start_planning' },
  start_build: { type: 'start_build' },
  plan_ready: ready(PLAN2),
  'decision execute': person('execute'),
  'decision fresh_context': person('fresh_context'),
  'decision revise': person('revise', 'more detail'),
  'decision cancel': person('cancel'),
  'setting execute': { type: 'decision', decision: 'execute', by: 'setting' },
  'model approve': { type: 'model_attempt', action: 'approve' },
  'model exit_plan': { type: 'model_attempt', action: 'exit_plan' },
  'model switch_mode': { type: 'model_attempt', action: 'switch_mode' },
  handoff_done: { type: 'handoff_done' },
  execution_done: { type: 'execution_done' },
  cancel: { type: 'cancel' },
  'question pending': { type: 'interview_pending', pending: true },
  'question settled': { type: 'interview_pending', pending: false },
};

export function effectsOf(r: DispatchResult, type: LifecycleEffect['type']): LifecycleEffect[] {
  return r.effects.filter((e) => e.type === type);
}
