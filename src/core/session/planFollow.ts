/**
 * The session follows its plan in the workspace: whatever changes the plan's tracker or its verify
 * results (the build agent, a person's result, a revert, a hand edit, another tool writing the
 * files) goes out as `tracker.updated`, and the review threads of its plan go on its bus as
 * `review.*` events. After its build closed, a move of the tracker (a person's finished result, a
 * revert, a hand edit) writes the build's report again, so its card says what is done now; a new
 * revision of the plan leaves it as it was (`reauditBuild`).
 */
import { reauditBuild } from './buildBinding';
import type { SessionCore } from './core';
import { emitTracker } from './trackerView';

/** Subscribes the session to its plan's changes; returns the unsubscribe. */
export function followPlans(core: SessionCore): () => void {
  let announced: string | undefined;
  const changes = core.plans.onDidChange((c) => {
    if (c.file !== core.planFile || !c.plan?.tracker) return;
    const text = JSON.stringify(c.plan.tracker);
    // A result changes what the tracker shows even when no step moved.
    if (text === announced && c.reason !== 'verify') return;
    announced = text;
    emitTracker(core, c.plan.tracker);
    const byPerson = c.record?.origin === 'person' && c.record.status !== 'running';
    if (c.reason !== 'verify' || byPerson)
      void reauditBuild(core).catch((err: unknown) => core.deps.log?.(`report: ${String(err)}`));
  });
  const reviews = core.plans.onReview((e) => {
    if (core.planFile === undefined || e.plan_file === core.planFile) core.bus.emit(e);
  });
  return () => {
    changes.dispose();
    reviews.dispose();
    if (core.ownsPlans) core.plans.dispose();
  };
}
