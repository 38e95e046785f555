/**
 * The host's one PlanWorkspace: built on first use, shared, and told about plan files another
 * process wrote, so the surfaces that project it follow.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { Verifier, type PlanChange } from '../../src/core/index';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { HostPlans } from '../../src/host/session/hostPlans';
import { samplePlan } from '../support/sessionHarness';
import { makeTempWorkspace } from '../support/tempWorkspace';
import { policyFor } from '../support/commandPolicy';

describe('the host plans', () => {
  it('builds one workspace on first use, rebuilds it for another plans folder, and follows files written by others', async () => {
    const ws = makeTempWorkspace({ 'src/.keep': '' });
    let plansDir = '.vtcode/plans';
    const changes: PlanChange[] = [];
    const reader = new NodeWorkspaceReader([ws.root]);
    const writer = new NodeWorkspaceWriter();
    const host = new HostPlans({
      parts: () => ({ key: ws.root, reader, writer }),
      root: () => ws.root,
      plansDir: () => plansDir,
      verifier: () => new Verifier({ cwd: () => ws.root, now: Date.now, policy: policyFor(ws.root) }),
      log: () => undefined,
      onChange: (c) => changes.push(c),
      onReview: () => undefined,
    });
    try {
      host.changedOnDisk(ws.path('.vtcode/plans/x.md'));
      const plans = host.get();
      assert.equal(host.get(), plans, 'one instance while nothing changes');
      const saved = await plans.store.save(samplePlan());
      assert.ok(saved.ok);
      const tracker = saved.file.replace(/\.md$/, '.tasks.md');
      await plans.saveTracker(saved.file, {
        title: 'Add a greeting helper',
        items: [{ description: 'Add the greet function', status: 'pending', files: [], verify: [], children: [] }],
      });
      changes.length = 0;
      // Another process (planwise in a terminal) ticks the step in the tracker file.
      writeFileSync(tracker, '# Add a greeting helper\n\n- [x] Add the greet function\n');
      host.changedOnDisk(tracker);
      for (let i = 0; i < 50 && changes.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(changes.length, 1);
      assert.equal(changes[0]!.file, saved.file);
      assert.equal(changes[0]!.plan?.progress?.percent, 100);
      plansDir = 'plans';
      assert.notEqual(host.get(), plans, 'another plans folder: another workspace');
    } finally {
      host.dispose();
      ws.cleanup();
    }
  });
});
