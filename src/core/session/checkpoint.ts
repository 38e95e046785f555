/**
 * What a session's checkpoint records, so `resumeSession` can rebuild it, and what a restore
 * starts from: the checkpoint taken of a session's state, and that state put back.
 */
import type { ChatMessage } from '../agent/model';
import type { SessionSpend } from '../agent/guards';
import type { ThreadEvent } from '../events/types';
import type { SessionCore } from './core';

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

/** The checkpoint of a session as it stands; `inFlight`: the person's message whose turn starts now. */
export function checkpointOf(
  core: SessionCore,
  task: string | undefined,
  inFlight?: { input: string },
): SessionCheckpoint {
  return {
    machine: core.machine.snapshot(),
    history: core.thread.messages,
    ...(core.planStem !== undefined ? { planStem: core.planStem } : {}),
    ...(core.planFile !== undefined ? { planFile: core.planFile } : {}),
    interviewDenied: core.interviewState.denied,
    lastPromptTokens: core.budget.lastPromptTokens,
    spent: core.guards.spent,
    ...(task !== undefined ? { task } : {}),
    ...(inFlight ? { inFlight } : {}),
  };
}

/**
 * Puts a checkpoint's state back into a new session's core (its lifecycle came with the core):
 * the thread, the plan, the interview state, the budget and spend, and the closed build its report
 * follows. Returns the session's task, and the message whose planning turn was cut off when the
 * session is still planning or revising.
 */
export function restoreCheckpoint(
  core: SessionCore,
  restored: RestoredState,
): { task: string | undefined; interrupted: string | undefined } {
  const c = restored.checkpoint;
  core.thread.restore(c.history);
  if (c.planStem !== undefined && c.planFile !== undefined) {
    core.apply({ type: 'plan_adopted', stem: c.planStem, file: c.planFile });
  }
  core.interviewState.denied = c.interviewDenied;
  core.budget.restore(c.lastPromptTokens);
  if (c.spent) core.guards.restoreSpent(c.spent);
  core.closedBuild = closedBuildOf(core.id, restored.events);
  const s = core.machine.state;
  const interrupted = c.inFlight && (s === 'planning' || s === 'revising') ? c.inFlight.input : undefined;
  return { task: c.task, interrupted };
}
