/**
 * What the host does with a session's events besides the panel's transcript: the retry countdown
 * patches the notice of its request's retries (one per request, however many), and a gate
 * announced again while it is open (the person's edit of the plan, a review change) reaches the
 * review comments, and the panel's gate and the native prompts show the new card.
 */
import type { ThreadEvent } from '../../core/api/sessions';
import type { DeltaOp } from '../../protocol';
import type { PendingRequests } from '../prompts/pending';
import { regate } from '../prompts/regate';
import type { RetryCountdown } from '../status/retryCountdown';

export interface SessionEventHookDeps {
  /** The id of the notice of the retries under way (the translator's). */
  readonly retryNotice: () => string | undefined;
  readonly countdown: Pick<RetryCountdown, 'attachNotice'>;
  /** The review comments, read when an event comes (they are built after the controller). */
  readonly review: () => { onEvent(e: ThreadEvent): void };
  readonly pending: PendingRequests;
  readonly view: { update(ops: readonly DeltaOp[]): void };
  readonly relativePath: (path: string) => string;
}

export function sessionEventHooks(deps: SessionEventHookDeps): (e: ThreadEvent) => void {
  return (e) => {
    if (e.type === 'model.retrying') {
      const notice = deps.retryNotice();
      if (notice !== undefined) deps.countdown.attachNotice(notice);
    }
    if (e.type === 'plan.approval.requested') {
      deps.review().onEvent(e);
      regate(deps.pending, deps.view, e, deps.relativePath);
    }
  };
}
