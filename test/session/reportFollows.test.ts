/**
 * A closed build's report follows its plan: it outlives the session that ran it (after a resume, a
 * person's sign-off writes it again from the build's stored manifest, and its card is the same
 * card, replaced), and it stays with the revision it built (a new revision is another plan).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ThreadEvent } from '../../src/core/api/sessions';
import { until } from '../host/engineHost';
import { sse, type ScriptedTurn } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness } from '../support/sessionHarness';
import { checkStepBuild, CHECK } from './checkStepBuild';

type Completed = Extract<ThreadEvent, { type: 'plan.execution.completed' }>;

describe("a closed build's report follows its plan", function () {
  this.timeout(30_000);
  let checkpointsDir: string;
  beforeEach(() => (checkpointsDir = mkdtempSync(path.join(os.tmpdir(), 'planwise-report-resume-'))));
  afterEach(() => rmSync(checkpointsDir, { recursive: true, force: true }));

  it("a sign-off in the resumed session rewrites the report and replaces the first build's card", async () => {
    const { script, options } = checkStepBuild();
    const h = await startHarness(script, { ...options, checkpointsDir });
    try {
      const stop = await h.session.start('show the greeting');
      assert.equal(stop.kind, 'completed');
      const planFile = h.session.planFile!;
      const reportFile = planFile.replace(/\.md$/, '.report.md');
      const first = h.eventsOf('plan.execution.completed') as Completed[];
      assert.equal(first.length, 1);
      assert.match(readFileSync(reportFile, 'utf8'), /0 of 1 steps completed/);

      const resumed = await h.resume(h.session.id);
      assert.ok(resumed);
      const written = new Promise<Completed>((resolve) =>
        resumed.bus.on((e) => {
          if (e.type === 'plan.execution.completed') resolve(e);
        }),
      );
      resumed.verifier.signOff(planFile, '1', CHECK);
      const again = await written;
      assert.equal(again.revises, first[0]!.seq, 'the first card is replaced');
      assert.equal(again.report.counts.stepsDone, 1);
      assert.equal(again.report.complete, true);
      assert.deepEqual(
        again.report.changed.map((f) => [f.path, f.added]),
        [['src/greet.ts', 1]],
        "the build's own facts come from its stored manifest",
      );
      const report = readFileSync(reportFile, 'utf8');
      assert.match(report, /1 of 1 steps completed/);
      assert.match(report, /checked by the person/);
    } finally {
      await h.close();
    }
  });

  it("a new revision of the plan is another plan: the build's report stays as it was written", async () => {
    const { script, options } = checkStepBuild();
    const h = await startHarness(
      [
        ...(script as readonly ScriptedTurn[]),
        sse.textTurn(planResponse(samplePlan('Show the greeting twice', 'src/greet.ts', CHECK))),
      ],
      { ...options, checkpointsDir, approve: (_r, n) => ({ decision: n === 1 ? 'execute' : 'cancel' }) },
    );
    try {
      assert.equal((await h.session.start('show the greeting')).kind, 'completed');
      const planFile = h.session.planFile!;
      const reportFile = planFile.replace(/\.md$/, '.report.md');
      const written = readFileSync(reportFile, 'utf8');
      await h.session.submit('show it twice');
      assert.match(readFileSync(planFile, 'utf8'), /Show the greeting twice/, 'revision 2 is the plan now');
      // The check of revision 2's step, signed: the tracker moves, but revision 1's build is done.
      h.session.verifier.signOff(planFile, '1', CHECK);
      await until(() => h.session.standing.tracker?.counts.done === 1, 'the new revision to settle its step');
      assert.equal(h.eventsOf('plan.execution.completed').length, 1, 'no report rewritten');
      assert.equal(readFileSync(reportFile, 'utf8'), written);
    } finally {
      await h.close();
    }
  });
});
