/**
 * A reload mid-plan brings the session back: the id of a live session (not idle, not cancelled,
 * or idle with a step awaiting the person's check) is kept in the workspace state, and at start-up a kept id is resumed, pending approval or
 * question included. Written against a structural copy of `Memento`.
 */
import type { SessionController } from './controller';

export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export const LAST_SESSION_KEY = 'planwise.lastSession';

export interface AutoResumeDeps {
  readonly controller: Pick<SessionController, 'current' | 'onDidChange' | 'resume'>;
  readonly state: StateStore;
  readonly log: { info(line: string): void; warn(line: string): void };
  readonly describeError: (err: unknown) => string;
  /**
   * Whether the session's tracker, as the engine announced it, has a step awaiting the person's
   * check: such a session is kept even when idle, so "Mark checked" after a reload still completes
   * the step.
   */
  readonly awaitingCheck?: () => boolean;
}

/** Keeps the live session's id and resumes a kept one now. Returns the subscription. */
export function autoResume(deps: AutoResumeDeps): { dispose(): void } {
  const { controller, state, log } = deps;
  const sub = controller.onDidChange(() => {
    const s = controller.current;
    const active = s !== undefined && s.state !== 'idle' && s.state !== 'cancelled';
    const live = active || (s !== undefined && s.state !== 'cancelled' && deps.awaitingCheck?.() === true);
    const id = live ? s.id : undefined;
    if (state.get<string>(LAST_SESSION_KEY) !== id) void state.update(LAST_SESSION_KEY, id);
  });
  const last = state.get<string>(LAST_SESSION_KEY);
  if (last !== undefined && controller.current === undefined) {
    log.info(`resuming session ${last}, which was live when the window closed`);
    controller
      .resume(last)
      .catch((err: unknown) => log.warn(`could not resume session ${last}: ${deps.describeError(err)}`));
  }
  return sub;
}
