/**
 * `createSession`: the engine behind the `Session` facade. The extension owns the mode: the model
 * proposes a plan, and only the person (or an explicit setting) decides at the gate. Intents typed
 * at the gate map to decisions, "stay" always wins, and anything that is not a clear decision is
 * treated as revision feedback, never as approval.
 */
import { ModelError } from '../agent/model';
import { EventBus } from '../events/bus';
import { SessionArchive } from '../events/archive';
import { detectIntent, intentToDecision } from '../lifecycle/intents';
import type { ApprovalDecision, PlanApprovalResponse } from '../lifecycle/ports';
import type { Verifier } from '../verify/verifier';
import type { ReviewBook } from '../plan/reviewBook';
import { acceptHandEdit, type HandEditOutcome } from './handEdit';
import type { Session, SessionConfig, SessionDeps, SessionStop } from './api';
import { runBuild } from './buildRun';
import { SessionCore } from './core';
import { announceGate, gateRequest } from './gateCard';
import { PendingApproval, revisionRequest, takeDecision } from './gateDecision';
import { emitTracker, runPlanningTurn } from './planningTurn';
import { followReviewAtGate } from './reviewGate';
import { followVerifier } from './verifyFollow';
import { followPlans } from './planFollow';
import { StandingFollower, type SessionStanding } from './standing';
import { checkpointOf, restoreCheckpoint, type RestoredState, type SessionCheckpoint } from './checkpoint';

class PlanwiseSession implements Session {
  readonly bus: EventBus;
  private readonly core: SessionCore;
  private readonly archive: SessionArchive | undefined;
  private busy = false;
  private pending: PendingApproval | undefined;
  private task: string | undefined;
  /** Restored mid-turn: the message whose turn `reopen()` runs again. */
  private interruptedInput: string | undefined;
  private autoDecided = false;
  /** The person asked to stop the run now going: its end is a "Stopped", not an error. */
  private stopRequested = false;
  /** Disposed (the window is closing): a run cut off now leaves its last checkpoint as it was. */
  private disposed = false;
  private readonly unfollow: () => void;
  private readonly unfollowReview: () => void;
  private readonly unfollowPlans: () => void;
  private readonly standingFollower: StandingFollower;

  constructor(
    readonly id: string,
    private readonly deps: SessionDeps,
    private readonly config: SessionConfig,
    restored?: RestoredState,
  ) {
    this.bus = new EventBus(() => deps.clock.now(), restored?.lastSeq ?? 0);
    this.standingFollower = new StandingFollower(restored?.events);
    // First on the bus: a host that reads the standing while handling an event sees it applied.
    this.bus.on((e) => this.standingFollower.fold(e));
    this.core = new SessionCore(id, deps, config, this.bus, restored?.checkpoint.machine);
    if (deps.archive) {
      this.archive = new SessionArchive(deps.archive, id, { onError: (e) => deps.log?.(`archive: ${e.message}`) });
      this.archive.attach(this.bus);
    }
    this.unfollow = followVerifier(this.core);
    this.unfollowPlans = followPlans(this.core);
    this.unfollowReview = followReviewAtGate(this.core);
    if (restored) {
      const back = restoreCheckpoint(this.core, restored);
      this.task = back.task;
      this.interruptedInput = back.interrupted;
    }
  }

  get interrupted(): string | undefined {
    return this.interruptedInput;
  }

  get state() {
    return this.core.machine.state;
  }

  get mode() {
    return this.core.machine.mode;
  }

  get planFile() {
    return this.core.planFile;
  }

  get standing(): SessionStanding {
    return this.standingFollower.standing;
  }

  get verifier(): Verifier {
    return this.core.verifier;
  }

  get review(): ReviewBook {
    return this.core.review;
  }

  async planEdited(planFile: string): Promise<HandEditOutcome> {
    if (this.busy && this.pending === undefined) return { kind: 'ignored', reason: 'a turn is running' };
    const outcome = await acceptHandEdit(this.core, planFile);
    if (outcome.kind === 'revision' || outcome.kind === 'invalid') await this.checkpoint();
    return outcome;
  }

  async start(task: string, options: { mode?: 'plan' | 'build' } = {}): Promise<SessionStop> {
    const mode = options.mode ?? this.config.startAgent ?? 'plan';
    this.task = task;
    this.bus.emit({ type: 'thread.started', thread_id: this.id, mode, task });
    if (mode === 'build') {
      if (!this.core.lifecycle({ type: 'start_build' })) return { kind: 'error', message: 'a run is already active' };
      return this.run(async () => this.afterBuild(await this.core.follow(runBuild(this.core, { kind: 'none', task }))));
    }
    if (!this.core.lifecycle({ type: 'start_planning' }))
      return { kind: 'error', message: 'planning is already active' };
    return this.run(() => this.planningCycle(task));
  }

  async submit(text: string): Promise<SessionStop | undefined> {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    if (this.busy && this.pending === undefined) {
      const what = /^\/plan\b/.test(trimmed) ? 'Mode switches are locked while a turn runs' : 'A turn is running';
      this.core.notice(`${what}; "${trimmed.slice(0, 60)}" was not sent.`, 'warning');
      return undefined;
    }
    const state = this.core.machine.state;
    if (trimmed === '/plan off') {
      return state === 'awaiting_approval' ? this.decide('cancel') : this.cancelPlanning();
    }
    if (state === 'awaiting_approval') {
      const intent = detectIntent(trimmed, { afterImplementQuestion: true });
      const decision = intentToDecision(intent.intent, trimmed);
      // Not a clear decision: it is feedback on the plan, so it asks for a revision.
      return this.decide(
        decision?.decision ?? 'revise',
        decision?.decision === 'revise' || !decision ? trimmed : undefined,
      );
    }
    if (trimmed === '/plan') {
      if (state === 'planning' || state === 'revising') return undefined;
      this.core.notice('Planning workflow: describe the task to plan.');
      return undefined;
    }
    if (state === 'planning' || state === 'revising') return this.run(() => this.planningCycle(trimmed));
    return this.start(trimmed);
  }

  async decide(
    decision: ApprovalDecision,
    feedback?: string,
    allowCommands?: readonly string[],
  ): Promise<SessionStop | undefined> {
    const extra = allowCommands && allowCommands.length > 0 ? { allowCommands } : {};
    if (this.pending) {
      this.pending.decide({ decision, ...(feedback !== undefined ? { feedback } : {}), ...extra });
      return undefined;
    }
    if (this.core.machine.state !== 'awaiting_approval') {
      this.core.notice('No plan awaits approval.', 'warning');
      return undefined;
    }
    return this.run(() =>
      this.afterDecision({ decision, ...(feedback !== undefined ? { feedback } : {}), ...extra }, 'person'),
    );
  }

  async reopen(): Promise<SessionStop | undefined> {
    const interrupted = this.interruptedInput;
    if (interrupted !== undefined && !this.busy) {
      this.interruptedInput = undefined;
      // The thread ends with the message or the turn's last complete tool batch: the turn continues from there.
      return this.run(() => this.planningTurn(interrupted));
    }
    if (this.core.machine.state !== 'awaiting_approval' || this.core.planFile === undefined) return undefined;
    return this.run(() => this.gate());
  }

  cancel(): void {
    if (this.busy) this.stopRequested = true;
    this.core.cancelRun(new Error('stopped by the person'));
  }

  dispose(): void {
    this.disposed = true;
    this.unfollow();
    this.unfollowReview();
    this.unfollowPlans();
    void this.core.mcp.close().catch((err: unknown) => this.deps.log?.(`mcp: ${String(err)}`));
  }

  private async cancelPlanning(): Promise<SessionStop> {
    this.core.lifecycle({ type: 'cancel' });
    return { kind: 'cancelled' };
  }

  /** Runs one flow with the busy flag held and errors turned into a stop; checkpoints afterwards. */
  private async run(flow: () => Promise<SessionStop>): Promise<SessionStop> {
    this.busy = true;
    this.stopRequested = false;
    let stop: SessionStop;
    try {
      stop = await flow();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The window is closing mid-turn: the checkpoint taken before the turn stays the last one,
      // so the next window brings the session back as interrupted rather than failed.
      if (this.disposed) return { kind: 'cancelled' };
      if (this.stopRequested) return this.stoppedRun();
      this.bus.emit({
        type: 'error',
        message,
        recoverable: true,
        ...(err instanceof ModelError ? { kind: err.kind } : {}),
      });
      // The turn is over: back to idle, or to the gate the revision came from (never "planning").
      // A non-interactive run keeps planning active, so `planwise resume <id> "…"` continues it.
      if (this.config.interactive !== false) this.core.lifecycle({ type: 'turn_failed' });
      stop = { kind: 'error', message };
    } finally {
      this.busy = false;
    }
    if (this.disposed) return stop;
    await this.checkpoint();
    const backAtGate = this.core.machine.state === 'awaiting_approval' && this.core.planFile !== undefined;
    if (stop.kind === 'error' && backAtGate && this.config.interactive !== false) {
      return this.run(() => this.gate());
    }
    if (stop.kind === 'blocked') stop = await this.blockedHandoff(stop.reason);
    return stop;
  }

  /** The person's Stop ended the run: said as "Stopped", the lifecycle follows, and a checkpoint. */
  private async stoppedRun(): Promise<SessionStop> {
    this.stopRequested = false;
    this.busy = false;
    const what = this.core.machine.state === 'executing' ? 'build' : 'planning';
    this.bus.emit({ type: 'run.stopped', what });
    if (this.config.interactive !== false) this.core.lifecycle({ type: 'stopped' });
    await this.checkpoint();
    const backAtGate = this.core.machine.state === 'awaiting_approval' && this.core.planFile !== undefined;
    if (backAtGate && this.config.interactive !== false) return this.run(() => this.gate());
    return { kind: 'cancelled' };
  }

  private async blockedHandoff(reason: string): Promise<SessionStop> {
    const verified = this.archive ? await this.archive.verifyPersisted() : undefined;
    const resume = verified?.ok === true;
    const how = resume
      ? `Resume with \`planwise resume ${this.id}\` or the Resume button.`
      : this.archive
        ? `Resume is unavailable: the session archive could not be verified (${verified && !verified.ok ? verified.reason : 'unknown'}).`
        : 'Resume is unavailable: this run keeps no session archive.';
    this.core.notice(`Planning is still active: ${reason.replace(/[\s.]+$/, '')}. ${how}`, 'warning');
    return { kind: 'blocked', reason, ...(resume ? { resumeId: this.id } : {}) };
  }

  /** `inFlight`: the person's message whose turn starts now (a checkpoint taken before it runs). */
  async checkpoint(inFlight?: { input: string }): Promise<void> {
    if (!this.archive) return;
    await this.archive.checkpoint(checkpointOf(this.core, this.task, inFlight));
    await this.archive.flush();
  }

  /** Planning turns until a plan reaches the gate, the model waits for the person, or it is blocked. */
  private async planningCycle(input: string): Promise<SessionStop> {
    this.core.apply({ type: 'user_said', text: input });
    // Checkpointed before anything is sent, so a reload mid-turn can bring the session back and run the turn again.
    await this.checkpoint({ input });
    return this.planningTurn(input);
  }

  /** One planning turn on the thread as it is (its last message is `input`). */
  private async planningTurn(input: string): Promise<SessionStop> {
    const outcome = await runPlanningTurn(this.core, input, {
      recorded: () => this.archive?.flush() ?? Promise.resolve(),
      // The thread as it stands after each tool batch, still in flight: a reload resumes from here.
      afterBatch: () => (this.disposed ? Promise.resolve() : this.checkpoint({ input })),
    });
    if (outcome.kind === 'reply') return { kind: 'completed', summary: outcome.text };
    if (outcome.kind === 'blocked') return { kind: 'blocked', reason: outcome.reason };
    this.core.apply(...outcome.effects);
    emitTracker(this.core, outcome.tracker);
    this.core.lifecycle({ type: 'plan_ready', planFile: outcome.file }, outcome.turnId);
    if (this.core.machine.state !== 'awaiting_approval') {
      return { kind: 'blocked', reason: 'the plan is held until the pending question is answered' };
    }
    return this.gate();
  }

  /** The approval gate: a setting decides, a headless run stops here, or the person is asked. */
  async gate(): Promise<SessionStop> {
    const planFile = this.core.planFile!;
    const request = (await announceGate(this.core)) ?? (await gateRequest(this.core));
    // An explicit setting decides once; a revision it asked for comes back to the gate like any other.
    if (this.config.autoDecision && !this.autoDecided) {
      this.autoDecided = true;
      return this.afterDecision({ decision: this.config.autoDecision }, 'setting');
    }
    await this.checkpoint();
    if (this.config.interactive === false) return { kind: 'awaiting_approval', planFile };
    const pending = new PendingApproval();
    this.pending = pending;
    const response = await pending.ask(this.deps.approver, request);
    this.pending = undefined;
    return this.afterDecision(response, 'person');
  }

  /** After a build run: a replan opens the gate; an accepted proposal to re-plan starts planning. */
  private async afterBuild(stop: SessionStop): Promise<SessionStop> {
    if (stop.kind === 'awaiting_approval') return this.gate();
    const reason = this.core.planningRequested;
    if (reason === undefined || stop.kind !== 'completed') return stop;
    this.core.apply({ type: 'planning_request_taken' });
    if (!this.core.lifecycle({ type: 'start_planning' })) return stop;
    return this.planningCycle(`Return to planning: ${reason}. Revise the plan for the repository as it is now.`);
  }

  private async afterDecision(r: PlanApprovalResponse, by: 'person' | 'setting'): Promise<SessionStop> {
    const taken = await takeDecision(this.core, r, by);
    if (taken.kind === 'not_handed') {
      return this.config.interactive === false ? { kind: 'error', message: taken.message } : this.gate();
    }
    if (taken.kind === 'refused') return { kind: 'error', message: taken.message };
    switch (r.decision) {
      case 'cancel':
        return { kind: 'cancelled' };
      case 'revise':
        return this.planningCycle(await revisionRequest(this.core, r.feedback));
      case 'execute':
      case 'fresh_context': {
        let built: SessionStop;
        try {
          built = await this.core.follow(runBuild(this.core, { kind: r.decision, prepared: taken.prepared! }));
        } finally {
          // The commands approved with the plan held for this build only.
          this.core.commands.approved.clear();
        }
        return this.afterBuild(built);
      }
    }
  }
}

export function createSession(deps: SessionDeps, config: SessionConfig, id?: string): Session {
  return new PlanwiseSession(id ?? `s${deps.clock.now().toString(36)}`, deps, config);
}

/**
 * Rebuilds a session from its archive: the thread, the plan, the lifecycle (a pending approval
 * stays pending) and the interview state. Undefined when there is no usable archive.
 */
export async function resumeSession(
  deps: SessionDeps,
  config: SessionConfig,
  id: string,
): Promise<Session | undefined> {
  if (!deps.archive) return undefined;
  const loaded = await SessionArchive.load(deps.archive, id);
  const checkpoint = loaded?.lastCheckpoint?.state as SessionCheckpoint | undefined;
  if (!loaded || !checkpoint) return undefined;
  return new PlanwiseSession(id, deps, config, { id, lastSeq: loaded.lastSeq, checkpoint, events: loaded.events });
}
