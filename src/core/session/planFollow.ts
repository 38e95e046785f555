/**
 * The session follows its plan in the workspace: whatever changes the plan's tracker (the build
 * agent, a revert, a hand edit, another tool writing the files) goes out once as
 * `tracker.updated`, and the review threads of its plan go on its bus as `review.*` events. A
 * revert of its closed build writes the build's report again, so its card says what is done now.
 */
import { reauditBuild } from './buildBinding';
import type { SessionCore } from './core';
import { emitTracker } from './trackerView';

/** Subscribes the session to its plan's changes; returns the unsubscribe. */
export function followPlans(core: SessionCore): () => void {
  let announced: string | undefined;
  const changes = core.plans.onDidChange((c) => {
    if (c.file !== core.planFile || !c.plan?.tracker || c.reason === 'verify') return;
    const text = JSON.stringify(c.plan.tracker);
    if (text === announced) return;
    announced = text;
    emitTracker(core, c.plan.tracker);
    if (c.reason === 'reverted')
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
