/**
 * "Awaiting your check" means the build reported the step done and only the person's sign-off is
 * missing: a check-only step the build has just started is being built, not waiting.
 */
import assert from 'node:assert/strict';
import { startHarness } from '../support/sessionHarness';
import { checkStepBuild } from './checkStepBuild';

describe('awaiting your check', function () {
  this.timeout(30_000);

  it('a check-only step started by the build is not awaiting; reported done, it is', async () => {
    const { script, options } = checkStepBuild();
    const h = await startHarness(script, options);
    try {
      const seen: [string, boolean][] = [];
      h.session.bus.on((e) => {
        if (e.type === 'tracker.updated') seen.push([e.items[0]!.status, e.items[0]!.awaitingCheck]);
      });
      const stop = await h.session.start('show the greeting');
      assert.equal(stop.kind, 'completed');
      const started = seen.findIndex(([status]) => status === 'in_progress');
      assert.ok(started >= 0, JSON.stringify(seen));
      assert.deepEqual(seen[started], ['in_progress', false], 'started: being built');
      assert.deepEqual(seen.at(-1), ['in_progress', true], 'reported done: waits for the person');
    } finally {
      await h.close();
    }
  });
});
