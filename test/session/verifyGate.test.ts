/** The build's verify gate cannot be stepped around by completing the whole checklist at once. */
import assert from 'node:assert/strict';
import { applyTrackerAction } from '../../src/core/plan/trackerActions';
import type { Tracker } from '../../src/core/plan/tracker';
import { verifyingTracker } from '../../src/core/session/verifyGate';
import type { TrackerHandle } from '../../src/core/tools/session/context';
import { Verifier } from '../../src/core/verify/verifier';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { policyFor } from '../support/commandPolicy';

const item = (description: string, verify: string[] = []) => ({
  description,
  status: 'pending' as const,
  files: [],
  verify,
  children: [],
});

function handle(t: Tracker): TrackerHandle {
  let tracker = t;
  return {
    get: () => tracker,
    async apply(action) {
      const r = applyTrackerAction(tracker, action);
      if (!r.ok) return { ok: false, error: r.error };
      tracker = r.tracker;
      return { ok: true, tracker };
    },
  };
}

describe('verify gate: whole-checklist updates', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = makeTempWorkspace({})));
  afterEach(() => ws.cleanup());

  const gated = (inner: TrackerHandle) =>
    verifyingTracker(inner, {
      verifier: new Verifier({
        runner: new NodeCommandRunner(),
        cwd: () => ws.root,
        now: Date.now,
        policy: policyFor(ws.root, ['node *']),
      }),
      commands: {},
      planFile: () => '/p.md',
      required: true,
    });

  it('index 0 completes the steps without verify, and puts back in progress the ones whose verify never ran', async () => {
    const inner = handle({ title: 'T', items: [item('Edit a'), item('Edit b', ['node -e "process.exit(1)"'])] });
    const r = await gated(inner).apply({ action: 'update', index: 0, status: 'completed' });
    assert.equal(r.ok, false);
    assert.match((r as { error: string }).error, /step 2 has verify entries, so it stays in progress/);
    assert.deepEqual(
      inner.get()?.items.map((i) => i.status),
      ['completed', 'in_progress'],
    );
  });

  it('a bulk items sync cannot complete a step with verify either; one step at a time runs its verify', async () => {
    const inner = handle({ title: 'T', items: [item('Edit b', ['node -e "process.exit(0)"'])] });
    const bulk = await gated(inner).apply({
      action: 'update',
      items: [{ description: 'Edit b -> verify: node -e "process.exit(0)"', status: 'completed' }],
    } as never);
    assert.equal(bulk.ok, false);
    assert.equal(inner.get()?.items[0]?.status, 'in_progress');
    const one = await gated(inner).apply({ action: 'update', index: 1, status: 'completed' });
    assert.equal(one.ok, true);
    assert.equal(inner.get()?.items[0]?.status, 'completed');
  });
});
