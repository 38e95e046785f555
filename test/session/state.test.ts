/** The session's state objects change only through the effects the flows return. */
import assert from 'node:assert/strict';
import {
  BudgetState,
  PlanState,
  ThreadState,
  applySessionEffect,
  type SessionStateParts,
} from '../../src/core/session/state';
import { createTrackerHandle } from '../../src/core/tools/session/trackerHandle';

function parts(): SessionStateParts {
  return {
    thread: new ThreadState(),
    plan: new PlanState(),
    budget: new BudgetState(),
    planningRequested: undefined,
    build: undefined,
  };
}

describe('session state', () => {
  it('applies each effect to the one object that owns it', () => {
    const s = parts();
    applySessionEffect(s, { type: 'user_said', text: 'plan the retry' });
    assert.deepEqual(s.thread.messages, [{ role: 'user', content: 'plan the retry' }]);
    applySessionEffect(s, { type: 'plan_adopted', stem: '1-calm-otter', file: '/ws/.vtcode/plans/1-calm-otter.md' });
    assert.equal(s.plan.stem, '1-calm-otter');
    assert.equal(s.plan.file, '/ws/.vtcode/plans/1-calm-otter.md');
    const handle = createTrackerHandle({ defaultTitle: 'Plan' });
    applySessionEffect(s, { type: 'tracker_opened', handle });
    assert.equal(s.plan.tracker, handle);
    applySessionEffect(s, { type: 'planning_requested', reason: 'the module split' });
    assert.equal(s.planningRequested, 'the module split');
    applySessionEffect(s, { type: 'planning_request_taken' });
    assert.equal(s.planningRequested, undefined);
  });

  it('a cleared thread also forgets the context share, and keeps the plan', () => {
    const s = parts();
    s.thread.say('hello');
    s.budget.record({ promptTokens: 64_000, completionTokens: 10, totalTokens: 64_010 }, 0);
    assert.equal(s.budget.contextPercent(128_000), 50);
    applySessionEffect(s, { type: 'plan_adopted', stem: 'a', file: '/a.md' });
    applySessionEffect(s, { type: 'thread_cleared' });
    assert.equal(s.thread.length, 0);
    assert.equal(s.budget.contextPercent(128_000), 0);
    assert.equal(s.budget.total.totalTokens, 64_010, 'spend is not forgotten');
    assert.equal(s.plan.file, '/a.md');
  });

  it("takes the context keeper's estimate when a provider reports no usage", () => {
    const b = new BudgetState();
    b.record(undefined, 1000);
    assert.equal(b.lastPromptTokens, 1000);
    assert.equal(b.total.totalTokens, 0);
  });
});
