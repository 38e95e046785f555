/**
 * The planning lifecycle as a pure state machine (rules §2).
 *
 *   idle → planning → awaiting_approval → executing → idle
 *                          ↓ revise  ↑ plan_ready
 *                        revising
 *   cancel: any active state → cancelled; start_planning / start_build leave idle or cancelled.
 *
 * The extension owns the mode: only the person or an explicit setting produces a decision. A
 * model's attempt to approve, leave planning or switch modes is refused with a reason and a log
 * effect. The gate never opens while a required interview question is pending: a plan that
 * arrives meanwhile is held and presented when the question is settled.
 *
 * The machine performs nothing itself: `dispatch` returns effects (approval requested/resolved,
 * handoff, revision request, state change, log) that the runloop turns into events and actions.
 * `snapshot()` is plain JSON for the session archive; `new ApprovalMachine(snapshot)` resumes.
 */
import type { LifecycleState } from '../events/types';
import type { ApprovalDecision } from './ports';
import {
  snapshotSchema,
  type Mode,
  type ModelAction,
  type LifecycleEvent,
  type LifecycleEffect,
  type LifecycleSnapshot,
  type DispatchResult,
  type PendingApproval,
} from './machineTypes';

export type {
  Mode,
  Handoff,
  ModelAction,
  LifecycleEvent,
  LifecycleEffect,
  LifecycleSnapshot,
  DispatchResult,
  PendingApproval,
} from './machineTypes';

const INITIAL: LifecycleSnapshot = {
  version: 1,
  state: 'idle',
  mode: 'plan',
  revision: 0,
  handoffPending: false,
  interviewPending: false,
  proposedDuringExecution: false,
  refusedModelAttempts: 0,
};

const MODEL_REFUSALS: Record<ModelAction, string> = {
  approve: 'the model cannot approve a plan: only the person or an explicit approval setting decides',
  exit_plan: 'the model cannot leave planning: the plan must first be approved by the person or an explicit setting',
  switch_mode: 'the model cannot switch modes: the extension owns the mode, and the person switches it',
};

const DECISIONS: readonly ApprovalDecision[] = ['execute', 'fresh_context', 'revise', 'cancel'];

export class ApprovalMachine {
  private s: LifecycleSnapshot;

  /** Starts idle, or resumes from a snapshot (validated; an invalid one throws, naming the problems). */
  constructor(initial?: unknown) {
    if (initial === undefined) {
      this.s = { ...INITIAL };
      return;
    }
    const parsed = snapshotSchema.safeParse(initial);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message);
      throw new Error(`cannot resume the planning lifecycle from this snapshot: ${problems.join('; ')}`);
    }
    this.s = parsed.data;
  }

  get state(): LifecycleState {
    return this.s.state;
  }

  get mode(): Mode {
    return this.s.mode;
  }

  /** True while a handoff runs: new input is held until `handoff_done`. */
  get inputHeld(): boolean {
    return this.s.handoffPending;
  }

  /** The approval the person still owes (also after a resume), or undefined. */
  pendingApproval(): PendingApproval | undefined {
    const { state, planFile, revision, proposedDuringExecution, previousPlanFile } = this.s;
    if (state !== 'awaiting_approval' || planFile === undefined) return undefined;
    return previousPlanFile === undefined
      ? { planFile, revision, proposedDuringExecution }
      : { planFile, revision, proposedDuringExecution, previousPlanFile };
  }

  snapshot(): LifecycleSnapshot {
    return structuredClone(this.s);
  }

  dispatch(e: LifecycleEvent): DispatchResult {
    switch (e.type) {
      case 'model_attempt':
        return this.refuseModel(e.action);
      case 'start_planning':
        return this.startPlanning();
      case 'start_build':
        return this.startBuild();
      case 'plan_ready':
        return this.planReady(e.planFile);
      case 'decision':
        return this.decide(e.decision, e.by, e.feedback);
      case 'interview_pending':
        return this.interview(e.pending);
      case 'handoff_done':
        if (this.s.state !== 'executing' || !this.s.handoffPending) return this.refuse('no handoff is in progress');
        this.s = { ...this.s, handoffPending: false };
        return this.ok([]);
      case 'execution_done':
        if (this.s.state !== 'executing') return this.refuse('nothing is executing');
        if (this.s.handoffPending) return this.refuse('the handoff to execution has not finished yet');
        return this.moveTo('idle', {
          ...INITIAL,
          mode: this.s.mode,
          refusedModelAttempts: this.s.refusedModelAttempts,
        });
      case 'cancel':
        return this.cancel();
      case 'turn_failed':
        return this.turnFailed();
      case 'stopped':
        if (this.s.state === 'executing') {
          return this.moveTo('idle', {
            ...INITIAL,
            mode: this.s.mode,
            refusedModelAttempts: this.s.refusedModelAttempts,
          });
        }
        return this.turnFailed();
      default:
        return this.refuse(`unknown lifecycle event ${JSON.stringify((e as { type?: unknown }).type)}`);
    }
  }

  private ok(effects: LifecycleEffect[]): DispatchResult {
    return { ok: true, state: this.s.state, effects };
  }

  private refuse(reason: string, effects: LifecycleEffect[] = []): DispatchResult {
    return { ok: false, state: this.s.state, reason: `${reason} (lifecycle state: ${this.s.state})`, effects };
  }

  /** Replaces the snapshot with `next` in state `to`, reporting the change first among `effects`. */
  private moveTo(to: LifecycleState, next: LifecycleSnapshot, effects: LifecycleEffect[] = []): DispatchResult {
    const from = this.s.state;
    this.s = { ...next, state: to };
    return this.ok([{ type: 'state_changed', from, to, mode: this.s.mode }, ...effects]);
  }

  private refuseModel(action: ModelAction): DispatchResult {
    const reason = MODEL_REFUSALS[action] ?? `the model cannot perform lifecycle action ${JSON.stringify(action)}`;
    this.s = { ...this.s, refusedModelAttempts: this.s.refusedModelAttempts + 1 };
    return this.refuse(reason, [{ type: 'log', level: 'warning', message: `refused: ${reason}` }]);
  }

  private startPlanning(): DispatchResult {
    const { state } = this.s;
    if (state === 'planning' || state === 'revising' || state === 'awaiting_approval') {
      return this.refuse('planning is already active');
    }
    if (state === 'executing' && this.s.handoffPending) {
      return this.refuse('the handoff to execution is still running; wait for it or cancel');
    }
    return this.moveTo('planning', { ...INITIAL, mode: 'plan', refusedModelAttempts: this.s.refusedModelAttempts });
  }

  private startBuild(): DispatchResult {
    const { state } = this.s;
    if (state !== 'idle' && state !== 'cancelled') {
      return this.refuse('building without a plan starts only from idle or after a cancel; approve or cancel first');
    }
    return this.moveTo('executing', { ...INITIAL, mode: 'build', refusedModelAttempts: this.s.refusedModelAttempts });
  }

  private planReady(planFile: string): DispatchResult {
    if (typeof planFile !== 'string' || planFile === '') return this.refuse('a ready plan needs its plan file path');
    const { state } = this.s;
    if (state === 'planning' || state === 'revising') {
      if (this.s.interviewPending) {
        this.s = { ...this.s, deferredPlanFile: planFile };
        const message = 'the plan is held back until the pending question is answered';
        return this.ok([{ type: 'log', level: 'info', message }]);
      }
      return this.openGate(planFile, false);
    }
    if (state === 'executing') {
      if (this.s.approvedPlanFile !== undefined) {
        // A replan inside an approved run continues without a second gate.
        const revision = this.s.revision + 1;
        this.s = { ...this.s, planFile, approvedPlanFile: planFile, revision };
        const message = `the plan was revised during the approved run (revision ${revision}); execution continues`;
        return this.ok([
          { type: 'plan_revised_in_run', planFile, revision },
          { type: 'log', level: 'info', message },
        ]);
      }
      return this.openGate(planFile, true);
    }
    if (state === 'awaiting_approval') {
      return this.refuse('a plan already awaits approval; decide on it first (revise to change it)');
    }
    return this.refuse('no planning is in progress, so there is no gate to present a plan at');
  }

  private openGate(planFile: string, duringExecution: boolean): DispatchResult {
    const revision = this.s.revision + 1;
    const previousPlanFile = this.s.planFile;
    const next: LifecycleSnapshot = {
      ...this.s,
      mode: 'plan',
      planFile,
      previousPlanFile,
      revision,
      feedback: undefined,
      deferredPlanFile: undefined,
      proposedDuringExecution: duringExecution,
    };
    const requested: LifecycleEffect = {
      type: 'approval_requested',
      planFile,
      revision,
      proposedDuringExecution: duringExecution,
      ...(previousPlanFile !== undefined ? { previousPlanFile } : {}),
    };
    return this.moveTo('awaiting_approval', next, [requested]);
  }

  private decide(decision: ApprovalDecision, by: 'person' | 'setting', feedback?: string): DispatchResult {
    // Events may come from outside the type system (a host message, a restored archive).
    if ((by as string) !== 'person' && (by as string) !== 'setting') {
      return this.refuse(`a decision must come from the person or an explicit setting, not ${JSON.stringify(by)}`);
    }
    if (!DECISIONS.includes(decision)) {
      return this.refuse(`unknown decision ${JSON.stringify(decision)}; expected one of ${DECISIONS.join(', ')}`);
    }
    if (this.s.state !== 'awaiting_approval' || this.s.planFile === undefined) {
      return this.refuse('no plan awaits approval, so there is nothing to decide');
    }
    const planFile = this.s.planFile;
    const text = feedback?.trim() || undefined;
    const lastDecision = text === undefined ? { decision, by } : { decision, by, feedback: text };
    const resolved: LifecycleEffect =
      text === undefined || decision !== 'revise'
        ? { type: 'approval_resolved', decision, automatic: by === 'setting' }
        : { type: 'approval_resolved', decision, automatic: by === 'setting', feedback: text };
    const base = { ...this.s, lastDecision };
    switch (decision) {
      case 'execute':
      case 'fresh_context':
        return this.moveTo(
          'executing',
          { ...base, mode: 'build', approvedPlanFile: planFile, handoff: decision, handoffPending: true },
          [resolved, { type: 'handoff', mode: decision, planFile }],
        );
      case 'revise':
        return this.moveTo('revising', { ...base, feedback: text }, [
          resolved,
          text === undefined ? { type: 'revision_requested' } : { type: 'revision_requested', feedback: text },
        ]);
      case 'cancel':
        return this.moveTo('cancelled', base, [resolved]);
    }
  }

  private interview(pending: boolean): DispatchResult {
    const { state } = this.s;
    if (!pending) {
      const deferred = this.s.deferredPlanFile;
      this.s = { ...this.s, interviewPending: false, deferredPlanFile: undefined };
      if (deferred !== undefined && (state === 'planning' || state === 'revising')) {
        return this.openGate(deferred, false);
      }
      return this.ok([]);
    }
    if (state !== 'planning' && state !== 'revising') {
      return this.refuse('interview questions are asked only while planning or revising');
    }
    this.s = { ...this.s, interviewPending: true };
    return this.ok([]);
  }

  /**
   * A failed request never leaves the workflow "planning" with nothing running: planning without a
   * plan goes back to idle, and a revision goes back to the gate of the plan it was revising (same
   * revision, so the person decides on it again). Anything else stays where it is.
   */
  private turnFailed(): DispatchResult {
    const { state, planFile } = this.s;
    if (state === 'planning' && planFile === undefined) {
      return this.moveTo('idle', { ...INITIAL, mode: this.s.mode, refusedModelAttempts: this.s.refusedModelAttempts });
    }
    if (state === 'revising' && planFile !== undefined) {
      const next: LifecycleSnapshot = {
        ...this.s,
        feedback: undefined,
        deferredPlanFile: undefined,
        interviewPending: false,
      };
      const requested: LifecycleEffect = {
        type: 'approval_requested',
        planFile,
        revision: this.s.revision,
        proposedDuringExecution: this.s.proposedDuringExecution,
        ...(this.s.previousPlanFile !== undefined ? { previousPlanFile: this.s.previousPlanFile } : {}),
      };
      return this.moveTo('awaiting_approval', next, [requested]);
    }
    return this.ok([]);
  }

  private cancel(): DispatchResult {
    const { state } = this.s;
    if (state === 'idle') return this.refuse('nothing is active to cancel');
    if (state === 'cancelled') return this.refuse('the workflow is already cancelled');
    const next: LifecycleSnapshot = {
      ...this.s,
      handoffPending: false,
      interviewPending: false,
      deferredPlanFile: undefined,
      feedback: undefined,
    };
    const effects: LifecycleEffect[] =
      state === 'awaiting_approval' ? [{ type: 'approval_resolved', decision: 'cancel', automatic: false }] : [];
    return this.moveTo('cancelled', next, effects);
  }
}
