/**
 * The session follows the engine's verifier for its plan: every result goes out as
 * `verify.recorded`, and the tracker shows it. A result a person produced (a lens, the panel,
 * "Mark checked") can settle a step: once every command passed and every check is signed off the
 * step is completed; a failing command puts it back in progress. The build agent's results are
 * settled by the verify gate that asked for them.
 */
import { itemAtPath } from '../plan/tracker';
import type { VerifyRecord } from '../verify/verifier';
import type { TrackerHandle } from '../tools/session/context';
import type { SessionCore } from './core';
import { openTracker } from './planningTurn';
import { emitTracker, itemVerdict } from './trackerView';
import { reauditBuild } from './buildBinding';

/**
 * The session's live tracker; a resumed session (a reload) has none until its build runs again,
 * so the persisted one is opened for the plan it holds.
 */
async function liveTracker(core: SessionCore): Promise<TrackerHandle | undefined> {
  if (core.tracker || core.planStem === undefined) return core.tracker;
  const loaded = await core.store.load(core.planStem);
  if (!loaded.tracker || !loaded.valid) return undefined;
  const opened = await openTracker(core, loaded.stem, loaded.markdown);
  if (!core.tracker) core.apply(...opened.effects);
  return core.tracker;
}

async function settle(core: SessionCore, r: VerifyRecord): Promise<void> {
  // The verdict reads the plan's other results: the kept ones (a reload) come back first.
  await core.verifier.restore(r.planFile);
  const tracker = await liveTracker(core);
  const t = tracker?.get();
  const item = t ? itemAtPath(t.items, r.step) : undefined;
  if (!tracker || !t || !item) return;
  // A command that did not run (the person said no) changes nothing about its step.
  if (r.origin === 'person' && r.status !== 'running' && !r.refused && item.status !== 'completed') {
    const verdict = itemVerdict(core, r.step, item);
    const status = verdict.complete
      ? 'completed'
      : r.status === 'failed' || r.status === 'timed_out' || (r.status === 'checked' && item.status === 'pending')
        ? 'in_progress'
        : undefined;
    if (status !== undefined && status !== item.status) {
      await tracker.apply({ action: 'update', index_path: r.step, status });
      await reaudit(core, r);
      return; // the tracker's persist emitted it
    }
  }
  emitTracker(core, t);
  await reaudit(core, r);
}

/** A finished result of a person's after the build closed: the report follows it. */
async function reaudit(core: SessionCore, r: VerifyRecord): Promise<void> {
  if (r.origin === 'person' && r.status !== 'running') await reauditBuild(core);
}

/** Subscribes the session to the verifier; returns the unsubscribe. */
export function followVerifier(core: SessionCore): () => void {
  return core.verifier.onRecorded((r) => {
    if (core.planFile === undefined ? r.planFile !== '' : r.planFile !== core.planFile) return;
    core.bus.emit({
      type: 'verify.recorded',
      plan_file: r.planFile,
      step: r.step,
      entry: r.entry,
      kind: r.kind,
      ...(r.command !== undefined ? { command: r.command } : {}),
      status: r.status,
      exit_code: r.exitCode,
      duration_ms: r.durationMs,
      output: r.output,
      origin: r.origin,
    });
    settle(core, r).catch((err: unknown) => core.deps.log?.(`verify: updating the tracker failed: ${String(err)}`));
  });
}
