/**
 * What a session's checkpoint records, so `resumeSession` can rebuild it, and what a restore
 * starts from.
 */
import type { ChatMessage } from '../agent/model';
import type { SessionSpend } from '../agent/guards';
import type { ThreadEvent } from '../events/types';

export interface RestoredState {
  readonly id: string;
  readonly lastSeq: number;
  readonly checkpoint: SessionCheckpoint;
  /** The archived events, for what the session's standing folds from them. */
  readonly events: readonly ThreadEvent[];
}

/** What a checkpoint records, so `resumeSession` can rebuild the session. */
export interface SessionCheckpoint {
  readonly machine: unknown;
  readonly history: readonly ChatMessage[];
  readonly planStem?: string;
  readonly planFile?: string;
  readonly interviewDenied: boolean;
  readonly lastPromptTokens: number;
  /** Tool calls and tokens spent so far; a checkpoint without it resumes from none. */
  readonly spent?: SessionSpend;
  readonly task?: string;
  /**
   * The person's message whose planning turn had started but not completed when this checkpoint
   * was written. The thread ends with that message or with the last complete tool batch of its
   * turn (every call answered, the interview's answers among them). A session restored from such a
   * checkpoint was interrupted (a window reload, a crash): `reopen()` continues that turn from the
   * thread as it was, sending only the interrupted request again.
   */
  readonly inFlight?: { readonly input: string };
}

/**
 * The closed build a restored session's report follows: the card of the last report its archive
 * holds, unless a new plan reached the gate after it (a new plan's build writes its own report).
 */
export function closedBuildOf(session: string, events: readonly ThreadEvent[]): { readonly seq: number } | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'plan.approval.requested') return undefined;
    if (e.type === 'plan.execution.completed' && e.session === session) return { seq: e.revises ?? e.seq };
  }
  return undefined;
}
