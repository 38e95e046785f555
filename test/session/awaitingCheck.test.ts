/**
 * "Awaiting your check" means the build reported the step done and only the person's sign-off is
 * missing: a check-only step the build has just started is being built, not waiting.
 */
import assert from 'node:assert/strict';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness } from '../support/sessionHarness';

const CHECK = 'confirm the page shows the greeting';

describe('awaiting your check', function () {
  this.timeout(30_000);

  it('a check-only step started by the build is not awaiting; reported done, it is', async () => {
    const h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('Show the greeting', 'src/greet.ts', CHECK))),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/greet.ts', content: 'export const g = 1;\n' } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Written; the page check is yours.'),
      ],
      { files: { 'src/.keep': '' }, approve: () => ({ decision: 'execute' }) },
    );
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
