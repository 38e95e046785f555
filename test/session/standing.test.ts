/**
 * A session's standing is folded once from its own events, and a resumed session folds the same
 * standing from its archive: what the status bar, "what would be lost" and auto-resume read.
 */
import assert from 'node:assert/strict';
import { startHarness } from '../support/sessionHarness';
import { checkStepBuild } from './checkStepBuild';

describe('a session standing', function () {
  this.timeout(30_000);

  it('follows the budget, the tracker and the build, and comes back the same after a resume', async () => {
    const { script, options } = checkStepBuild();
    const h = await startHarness(script, options);
    try {
      assert.deepEqual(h.session.standing, { buildRevertable: false }, 'nothing before the first event');
      let atGate: typeof h.session.standing | undefined;
      h.session.bus.on((e) => {
        if (e.type === 'plan.approval.requested') atGate = h.session.standing;
      });
      const stop = await h.session.start('show the greeting');
      assert.equal(stop.kind, 'completed');

      assert.equal(atGate?.buildRevertable, false, 'no build yet at the gate');
      assert.deepEqual(atGate?.tracker?.counts, { done: 0, inProgress: 0, pending: 1, blocked: 0, total: 1 });

      const after = h.session.standing;
      assert.ok(after.budget && after.budget.toolCalls.used >= 3, JSON.stringify(after.budget));
      assert.equal(after.tracker?.planFile, h.session.planFile);
      assert.equal(after.tracker?.awaitingCheck, true, 'the check waits for the person');
      assert.equal(after.tracker?.counts.inProgress, 1);
      assert.equal(after.buildRevertable, true, 'the build wrote a file: its report offers Revert');

      const resumed = await h.resume(h.session.id);
      assert.ok(resumed);
      assert.deepEqual(resumed.standing, after, 'folded again from the archive');
    } finally {
      await h.close();
    }
  });
});
