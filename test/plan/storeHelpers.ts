import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { PlanStore } from '../../src/core/plan/store';
import { trackerFromPlan, type Tracker } from '../../src/core/plan/tracker';
import { applyTrackerAction } from '../../src/core/plan/trackerActions';
import { validatePlan } from '../../src/core/plan/validator';
import { buildPlan, type PlanParts } from './planBuilder';

/** A temporary workspace with a PlanStore over it; `cleanup()` removes the folder. */
export function tempStore(opts: { now?: () => number; random?: () => number; plansDir?: string } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'planwise-store-'));
  const reader = new NodeWorkspaceReader([root]);
  let t = 1_700_000_000_000;
  const store = new PlanStore(reader, new NodeWorkspaceWriter(), {
    root: reader.roots[0] as string,
    now: opts.now ?? (() => t++),
    random: opts.random ?? (() => 0.5),
    ...(opts.plansDir ? { plansDir: opts.plansDir } : {}),
  });
  return { root: reader.roots[0] as string, store, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A valid plan; `n` varies the steps so revisions differ. */
export function validPlan(n = 1, parts: PlanParts = {}): string {
  const steps = Array.from(
    { length: n },
    (_, i) => `${i + 1}. Step ${i + 1} of the work -> files: [src/m${i + 1}.ts] -> verify: [npm test]`,
  ).join('\n');
  return buildPlan({ steps, ...parts });
}

/** The fresh tracker of `validPlan(n)`: every step pending. */
export function trackerOf(n: number): Tracker {
  return trackerFromPlan(validatePlan(validPlan(n)).summary);
}

/** The tracker of `validPlan(n)` with step 1 marked completed. */
export function trackerWithStepOneDone(n: number): Tracker {
  const done = applyTrackerAction(trackerOf(n), { action: 'update', index: 1, status: 'completed' });
  assert.ok(done.ok, done.ok ? '' : done.error);
  return done.tracker;
}
