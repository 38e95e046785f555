/**
 * The gate follows the review. While a plan awaits approval, the person adds, answers, resolves
 * or reopens its threads (the comment widget, `planwise review`): each such change announces the
 * gate again with a fresh card, so its `openComments` (and "Approve with N unresolved comments?"
 * in every host) is the review as it is now, never as it was when the gate opened.
 *
 * Re-anchoring (`outdated`, `reanchored`) is left out: reading the review to build the card is
 * what re-anchors it, so following those would announce the gate for its own reading.
 */
import type { ThreadEvent } from '../events/types';
import type { SessionCore } from './core';
import { gateRequest } from './gateCard';

const CHANGES_THE_COUNT = new Set<string>([
  'review.thread.created',
  'review.thread.replied',
  'review.thread.resolved',
  'review.thread.reopened',
]);

/** Subscribes the session's gate to its plan's review; returns the unsubscribe. */
export function followReviewAtGate(core: SessionCore): () => void {
  let queued = false;
  let chain: Promise<void> = Promise.resolve();
  const atGate = (planFile: string | undefined) =>
    core.machine.state === 'awaiting_approval' && core.planFile !== undefined && planFile === core.planFile;
  return core.bus.on((e: ThreadEvent) => {
    if (!CHANGES_THE_COUNT.has(e.type) || !('plan_file' in e) || !atGate(e.plan_file)) return;
    if (queued) return; // one announcement covers every change made before it reads the review
    queued = true;
    chain = chain
      .then(async () => {
        queued = false;
        if (!atGate(core.planFile)) return;
        const request = await gateRequest(core);
        if (!atGate(request.planFile)) return;
        core.bus.emit({
          type: 'plan.approval.requested',
          turn_id: '',
          plan_file: request.planFile,
          ...(request.card.previousRevision !== undefined ? { previous_revision: request.card.previousRevision } : {}),
          card: request.card,
        });
      })
      .catch((err: unknown) => core.deps.log?.(`review: the gate was not refreshed: ${String(err)}`));
  });
}
