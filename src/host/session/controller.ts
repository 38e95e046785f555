/**
 * The host's hold on the engine: one session at a time. It forwards the person's input (composer
 * text, gate decisions, stop), turns the session's events into panel deltas through the
 * translator, reacts to why a run stopped, and exposes what the context keys and the status bar
 * need. It knows nothing of VS Code; the engine arrives through `EngineAccess`.
 */
import { Emitter } from '../../core/api/basics';
import type { ApprovalDecision } from '../../core/api/ports';
import type { ThreadEvent, Session, SessionStop } from '../../core/api/sessions';
import type { DeltaOp, Flags, Mode, PanelNotice, ViewState } from '../../protocol';
import type { AtStake } from '../../protocol/atStake';
import { emptyViewState } from '../../protocol/emptyState';
import type { ContextInputs } from '../contextKeys';
import type { EventTranslator } from '../panel/translate';
import type { PendingRequests } from '../prompts/pending';

export interface EngineAccess {
  /** A new session, built from the current settings and adapters. */
  create(): Promise<Session>;
  /** A session restored from its archive, with the events archived so far (to rebuild the panel). */
  resume(sessionId: string): Promise<{ session: Session; events: readonly ThreadEvent[] }>;
}

export interface HubLike {
  readonly state: ViewState;
  update(ops: readonly DeltaOp[]): void;
  reset(state: ViewState): void;
}

export interface ControllerDeps {
  readonly engine: EngineAccess;
  readonly hub: HubLike;
  readonly translator: EventTranslator;
  readonly pending: PendingRequests;
  readonly flags: () => Flags;
  readonly log: { info(line: string): void; warn(line: string): void; error(line: string, err?: unknown): void };
  /** Every event of the current session, after the panel got it (status, verify results, logs). */
  readonly onEvent?: (event: ThreadEvent) => void;
  /** A run ended in an error the person should see outside the panel too. */
  readonly onRunError?: (message: string) => void;
}

/** How long after a Stop a Start Planning is ignored (the second click of a double click). */
export const STOP_SETTLE_MS = 1500;

export class SessionController {
  private stoppedAt = Number.NEGATIVE_INFINITY;
  private session: Session | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<unknown> | undefined;
  private startMode: Mode = 'plan';
  private counter = 0;
  private readonly listeners = new Emitter<void>();
  private readonly sessionEvents = new Emitter<ThreadEvent>();
  private readonly standing = new Map<string, PanelNotice>();
  /** The person's last message and whether it started the session: what Retry sends again. */
  private lastInput: { text: string; started: boolean } | undefined;

  constructor(private readonly deps: ControllerDeps) {}

  get current(): Session | undefined {
    return this.session;
  }

  /**
   * The engine is working (a turn runs). A run that waits for the person (an open gate, a
   * question, a budget prompt) is not busy: the person may answer, or start something else.
   */
  get isBusy(): boolean {
    return this.running !== undefined && this.deps.pending.size === 0;
  }

  /** What a new start or a cancel would throw away: a plan waiting for approval, or a finished build's Revert. */
  atStake(): AtStake | undefined {
    if (this.deps.pending.has('approval')) return 'plan';
    if (this.isBusy) return undefined;
    return this.session?.standing.buildRevertable === true ? 'build' : undefined;
  }

  /** Inputs of the context keys. */
  contextInputs(): ContextInputs {
    return {
      lifecycle: this.session?.state,
      hasPlan: this.session?.planFile !== undefined,
      busy: this.isBusy,
      gateOpen: this.deps.pending.has('approval'),
      pendingQuestion: this.deps.pending.has('interview'),
      pendingGrant: this.deps.pending.has('grantMore'),
    };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return this.listeners.on(listener);
  }

  /** Every event of the current session, after the panel got it. */
  onSessionEvent(listener: (event: ThreadEvent) => void): { dispose(): void } {
    return this.sessionEvents.on(listener);
  }

  /** Starts a new session on `task`. Refused while a turn runs; a run waiting for the person is abandoned. */
  async start(task: string, mode: Mode = this.startMode): Promise<SessionStop | undefined> {
    if (this.isBusy) {
      this.notice('warning', 'Planwise is still working on the current request. Stop it first, then start again.');
      return undefined;
    }
    this.lastInput = { text: task, started: true };
    let session: Session;
    try {
      session = await this.deps.engine.create();
    } catch (err) {
      // No session (no key, no model): the message still shows, with the error and Retry under it.
      const message = err instanceof Error ? err.message : String(err);
      this.deps.log.error('the session could not start', err);
      this.echo(task);
      this.failed(message);
      return { kind: 'error', message };
    }
    this.adopt(session, mode);
    this.echo(task);
    return this.track(session.start(task, { mode }));
  }

  /**
   * Retry on a failed request's notice: the person's last message is sent again, with the
   * settings as they are now (a fresh session when it was the task that failed).
   */
  async retry(noticeId: string): Promise<SessionStop | undefined> {
    const last = this.lastInput;
    if (!last || this.isBusy) return undefined;
    this.deps.hub.update([{ op: 'item.patch', id: noticeId, patch: { actions: [] } }]);
    const session = this.session;
    if (last.started || !session || session.state === 'idle' || session.state === 'cancelled') {
      return this.start(last.text);
    }
    this.lastInput = { text: last.text, started: false };
    return this.track(session.submit(last.text));
  }

  async resume(sessionId: string): Promise<void> {
    if (this.isBusy) {
      this.notice('warning', 'Stop the current run before resuming another session.');
      return;
    }
    // "Interrupted — Resume" on the session already shown: its turn runs again.
    const current = this.session;
    if (current?.id === sessionId && current.interrupted !== undefined) {
      this.continueInterrupted(current, current.interrupted);
      return;
    }
    const { session, events } = await this.deps.engine.resume(sessionId);
    this.adopt(session, session.mode);
    for (const event of events) this.deps.hub.update(this.deps.translator.translate(event));
    // Whatever was running when the archive was written is not running now.
    this.deps.hub.update([
      ...this.deps.translator.syncLifecycle({ state: session.state, mode: session.mode, busy: false }),
      { op: 'handoff.set', handoff: null },
      { op: 'gate.set', gate: null },
      { op: 'interview.set', interview: null },
      { op: 'grantMore.set', prompt: null },
    ]);
    this.deps.log.info(`resumed session ${sessionId} in state ${session.state}`);
    // A pending approval (or question) is presented again; deciding it continues the run.
    if (session.state === 'awaiting_approval') void this.track(session.reopen());
    // A turn cut off by a reload waits for the person's word: "Interrupted — Resume".
    if (session.interrupted !== undefined) {
      this.lastInput = { text: session.interrupted, started: false };
      this.setStandingNotice('interrupted', {
        id: `interrupted-${++this.counter}`,
        kind: 'warning',
        text: 'Interrupted — the window closed before Planwise finished this turn. Resume runs it again.',
        resumeAvailable: true,
        sessionId: session.id,
      });
    }
    this.changed();
  }

  /** Runs again the turn a reload interrupted; its message, already on the panel, is not repeated. */
  private continueInterrupted(session: Session, input: string): void {
    this.setStandingNotice('interrupted', undefined);
    const row = [...this.deps.hub.state.transcript]
      .reverse()
      .find((i) => i.kind === 'user' && i.text.trim() === input.trim());
    if (row) this.deps.translator.expectUser(row.id, input);
    void this.track(session.reopen());
  }

  /** Composer text: a task when there is no session or the last one ended, else input to the session. */
  async submit(text: string): Promise<SessionStop | undefined> {
    const session = this.session;
    if (!session || session.state === 'idle' || session.state === 'cancelled') {
      return this.start(text);
    }
    this.lastInput = { text, started: false };
    this.echo(text);
    return this.track(session.submit(text));
  }

  /** The mode the next session starts in; with a session, `/plan` or `/plan off` is sent to it. */
  async setMode(mode: Mode): Promise<void> {
    this.startMode = mode;
    if (!this.session || this.session.state === 'idle' || this.session.state === 'cancelled') {
      this.deps.hub.update(this.deps.translator.syncLifecycle({ ...this.deps.translator.currentLifecycle, mode }));
      return;
    }
    const session = this.session;
    await this.track(session.submit(mode === 'plan' ? '/plan' : '/plan off'));
    // `/plan off` ended the session's planning: the toggle shows the mode the next start takes.
    if (this.session === session && (session.state === 'idle' || session.state === 'cancelled')) {
      this.deps.hub.update(this.deps.translator.syncLifecycle({ ...this.deps.translator.currentLifecycle, mode }));
    }
  }

  /**
   * A gate decision from a command, a CodeLens or the panel: it answers the engine's pending
   * approval request. False when no plan is waiting for a decision.
   */
  async decide(
    decision: ApprovalDecision,
    feedback?: string,
    requestId?: string,
    allowCommands?: readonly string[],
  ): Promise<boolean> {
    const pendingApproval = requestId ? this.deps.pending.get(requestId) : this.deps.pending.first('approval');
    if (!pendingApproval || pendingApproval.kind !== 'approval') return false;
    return this.deps.pending.resolve(pendingApproval.id, 'approval', {
      decision,
      ...(feedback !== undefined ? { feedback } : {}),
      ...(allowCommands && allowCommands.length > 0 ? { allowCommands } : {}),
    });
  }

  /**
   * A notice that stays above the transcript until removed (`undefined`): Restricted Mode, a
   * blocked run. Host-wide notices (the trust one) survive a new session; a blocked run's does not.
   */
  setStandingNotice(slot: string, notice: PanelNotice | undefined): void {
    if (notice) this.standing.set(slot, notice);
    else this.standing.delete(slot);
    this.deps.hub.update([{ op: 'notices.set', notices: [...this.standing.values()] }]);
  }

  /** Stops the running turn (the Stop button, "Planwise: Stop"). */
  stop(now = Date.now()): void {
    if (this.running) this.stoppedAt = now;
    this.session?.cancel();
  }

  /**
   * A Stop happened within `STOP_SETTLE_MS`: Start Planning takes Stop's place in the view's title
   * bar, so a second click of a double click must not start a new plan.
   */
  justStopped(now = Date.now()): boolean {
    return now - this.stoppedAt < STOP_SETTLE_MS;
  }

  /** Cancel Plan: at the gate it is the "cancel" decision; while planning it stops and cancels. */
  async cancelPlan(): Promise<void> {
    if (await this.decide('cancel')) return;
    const session = this.session;
    if (!session) return;
    if (this.running) {
      session.cancel();
      await this.running.catch(() => undefined);
    }
    if (session.state !== 'idle' && session.state !== 'cancelled') await this.track(session.submit('/plan off'));
  }

  dispose(): void {
    this.session?.cancel();
    this.session?.dispose();
    this.unsubscribe?.();
    this.deps.pending.closeAll('Planwise is shutting down');
    this.listeners.clear();
  }

  private adopt(session: Session, mode: Mode): void {
    this.unsubscribe?.();
    this.releasePrompts();
    this.session?.cancel();
    this.session?.dispose();
    this.deps.pending.closeAll('A new session replaced the previous one');
    this.session = session;
    const lifecycle = { state: session.state, mode, busy: false };
    this.deps.translator.reset(lifecycle);
    this.standing.delete('blocked');
    this.standing.delete('interrupted');
    this.deps.hub.reset({
      ...emptyViewState(),
      lifecycle,
      flags: this.deps.flags(),
      notices: [...this.standing.values()],
    });
    this.unsubscribe = session.bus.on((event) => {
      this.deps.hub.update(this.deps.translator.translate(event));
      this.deps.onEvent?.(event);
      this.sessionEvents.fire(event);
      if (event.type === 'state.changed' || event.type === 'turn.started' || event.type === 'turn.completed') {
        this.changed();
      }
    });
    this.changed();
  }

  /** The previous session's open prompts get their "no" answers, so its run ends cleanly. */
  private releasePrompts(): void {
    const { pending } = this.deps;
    for (const e of pending.entries()) {
      if (e.kind === 'approval') pending.resolve(e.id, 'approval', { decision: 'cancel' });
      else if (e.kind === 'interview') pending.resolve(e.id, 'interview', { kind: 'cancelled' });
      else pending.resolve(e.id, e.kind, false);
    }
  }

  private echo(text: string): void {
    this.deps.hub.update(this.deps.translator.echoUser(`host-user-${++this.counter}`, text));
  }

  private track(run: Promise<SessionStop | undefined>): Promise<SessionStop | undefined> {
    const tracked = run.then(
      (stop) => this.stopped(stop),
      (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        this.deps.log.error('the session failed', err);
        this.failed(message);
        this.deps.onRunError?.(message);
        return { kind: 'error', message } as SessionStop;
      },
    );
    const done = tracked.finally(() => {
      if (this.running === done) this.running = undefined;
      this.changed();
    });
    this.running = done;
    this.changed();
    return done;
  }

  private async stopped(stop: SessionStop | undefined): Promise<SessionStop | undefined> {
    if (!stop) return stop;
    this.deps.log.info(`run stopped: ${stop.kind}`);
    switch (stop.kind) {
      case 'awaiting_approval':
        break; // the engine asked through the Approver; its card is on the panel
      case 'blocked':
        this.setStandingNotice('blocked', {
          id: `blocked-${++this.counter}`,
          kind: 'blocked_handoff',
          text: stop.reason,
          resumeAvailable: stop.resumeId !== undefined,
          ...(stop.resumeId !== undefined ? { sessionId: stop.resumeId } : {}),
        });
        break;
      case 'error':
        // The engine's error event already put the message, with Retry, in the transcript.
        this.deps.onRunError?.(stop.message);
        break;
      case 'completed':
      case 'cancelled':
        break;
    }
    return stop;
  }

  /** A failure outside the engine's run: one error notice with Retry and Change provider, and nothing is busy. */
  private failed(message: string): void {
    const item = {
      id: `host-${++this.counter}`,
      kind: 'notice' as const,
      level: 'error' as const,
      text: message,
      actions: ['retry' as const, 'changeProvider' as const],
    };
    const lifecycle = this.deps.translator.syncLifecycle({ ...this.deps.translator.currentLifecycle, busy: false });
    this.deps.hub.update([{ op: 'item.add', item }, ...lifecycle]);
  }

  private notice(level: 'info' | 'warning' | 'error', text: string): void {
    this.deps.hub.update([{ op: 'item.add', item: { id: `host-${++this.counter}`, kind: 'notice', level, text } }]);
  }

  private changed(): void {
    this.listeners.fire();
  }
}
