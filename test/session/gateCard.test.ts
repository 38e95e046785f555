/** The gate card is built once by the engine and travels in `plan.approval.requested` and the request. */
import assert from 'node:assert/strict';
import { describeChanges } from '../../src/core/session/gateCard';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const sevenSteps = samplePlan('Seven steps').replace(
  '1. Add the greet function -> files: [src/greet.ts] -> verify: [node -e "process.exit(0)"]',
  Array.from(
    { length: 7 },
    (_, i) => `${i + 1}. Step ${i + 1} -> files: [src/s${i + 1}.ts] -> verify: [npm test]`,
  ).join('\n'),
);

describe('the gate card', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('carries title, summary, the first steps with the elision count, validation, context and the previous revision', async () => {
    h = await startHarness([sse.textTurn(planResponse(sevenSteps)), sse.textTurn(planResponse(samplePlan('Fewer')))], {
      approve: (_r, n) => (n === 1 ? { decision: 'revise', feedback: 'fewer steps' } : { decision: 'cancel' }),
    });
    await h.session.start('seven steps');
    const [first, second] = h.eventsOf('plan.approval.requested');
    assert.ok(first && second);
    assert.equal(first.card.title, 'Seven steps');
    assert.match(first.card.summary, /consistent greeting/);
    assert.deepEqual(first.card.steps, ['Step 1', 'Step 2', 'Step 3', 'Step 4', 'Step 5']);
    assert.equal(first.card.moreSteps, 2);
    assert.deepEqual(first.card.validation, { valid: true, problems: [] });
    assert.equal(first.card.revision, 1);
    assert.equal(first.card.previousRevision, undefined);
    assert.ok(first.card.contextPercent >= 0 && first.card.contextPercent <= 100);
    // The person's approver got the same card the event carried.
    assert.deepEqual(h.people.approvals[0]!.card, first.card);
    assert.equal(second.card.revision, 2);
    assert.match(second.card.previousRevision ?? '', /\.history[\\/]001\.md$/);
    assert.deepEqual(h.people.approvals[1]!.card, second.card);
  });

  it('says what changed since the previous revision, counted once by the engine; a first draft has no changes', async () => {
    h = await startHarness([sse.textTurn(planResponse(sevenSteps)), sse.textTurn(planResponse(samplePlan('Fewer')))], {
      approve: (_r, n) => (n === 1 ? { decision: 'revise', feedback: 'fewer steps' } : { decision: 'cancel' }),
    });
    await h.session.start('seven steps');
    const [first, second] = h.eventsOf('plan.approval.requested');
    assert.ok(first && second);
    assert.equal(first.card.changes, undefined);
    // Seven steps became one new step (no action or targets in common).
    assert.deepEqual(second.card.changes, { added: 1, removed: 7, changed: 0, summary: '1 step added, 7 removed' });
    // The approver's step counts are the card's.
    const { added, removed, changed } = second.card.changes!;
    assert.deepEqual(h.people.approvals[1]!.stepChanges, { added, removed, changed });
  });

  it('words a change as the gate shows it', () => {
    assert.equal(describeChanges({ added: 0, removed: 1, changed: 1 }, true), '1 step removed, 1 changed');
    assert.equal(describeChanges({ added: 2, removed: 0, changed: 0 }, true), '2 steps added');
    assert.equal(describeChanges({ added: 0, removed: 0, changed: 3 }, true), '3 steps changed');
    assert.equal(describeChanges({ added: 0, removed: 0, changed: 0 }, true), 'wording only');
    assert.equal(describeChanges({ added: 0, removed: 0, changed: 0 }, false), 'no changes');
  });
});
