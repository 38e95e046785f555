/**
 * The thread event stream (rules §8). One stream feeds the sidebar, the status bar, the CLI's
 * `--json` output and the session archive. Every event carries a sequence number `seq`,
 * assigned by the `EventBus` when it is emitted.
 */
import type { ApprovalDecision, InterviewQuestion, InterviewAnswer } from '../lifecycle/ports';
import type { Usage } from '../agent/model';
import type { ModelEventBody } from './modelEvents';
import type { ModelErrorKind } from '../agent/model';
import type { ReviewEventBody } from './reviewEvents';
import type { InstructionEventBody } from './instructionEvents';
import type { VerifyStatus } from '../verify/verifier';
import type { BuildOutcome, ExecutionReport } from '../build/report';
import type { FileChange } from '../build/fileChange';

export type ItemKind =
  'user_message' | 'assistant_text' | 'reasoning' | 'tool_call' | 'tool_result' | 'plan' | 'interview' | 'notice';

export interface GateVerdictInfo {
  readonly allowed: boolean;
  readonly reason: string;
}

import type { PlanView } from '../plan/planCard';

/**
 * `ok`: allowed and ran; `failed`: allowed, ran and failed; `blocked`: the gate (or the build's
 * command policy) refused it before it ran; `refused`: the tool refused it itself, e.g. a write
 * outside the approved plan's scope; `skipped`: a guard held it back (a repeat, a budget).
 */
export type ToolOutcome = 'ok' | 'failed' | 'blocked' | 'refused' | 'skipped';

export interface ItemPayload {
  readonly id: string;
  readonly kind: ItemKind;
  /** Text so far (assistant text, reasoning, notice) or the full text on completion. */
  readonly text?: string;
  /** For `item.updated` of streaming items: the text appended since the last update. */
  readonly delta?: string;
  readonly tool?: {
    readonly callId: string;
    readonly name: string;
    readonly arguments: string;
    /** The call in a person's words (the tool's `describe`), set by the dispatcher. */
    readonly title?: string;
    /** What the call was done to (a path, a command), for a line that says it did not run. */
    readonly subject?: string;
  };
  readonly verdict?: GateVerdictInfo;
  readonly result?: {
    readonly callId: string;
    readonly ok: boolean;
    readonly bytes: number;
    readonly preview: string;
    /** What became of the call, decided once by the dispatcher (hosts render it, never re-derive it). */
    readonly outcome?: ToolOutcome;
    /** The call in a person's words once it ran, where the run settles them ("Created src/a.ts"). */
    readonly title?: string;
    /** What a file tool changed: lines added and removed, and the unified diff. */
    readonly change?: FileChange;
  };
  readonly plan?: {
    readonly file: string;
    readonly markdown: string;
    readonly valid: boolean;
    readonly revision: number;
    /** The card's view from the validator's parse: title, summary, steps with files and verify entries. */
    readonly view?: PlanView;
  };
  readonly interview?: {
    readonly questions: readonly InterviewQuestion[];
    readonly answers?: readonly InterviewAnswer[];
    readonly outcome?: 'answered' | 'cancelled' | 'denied';
  };
  readonly level?: 'info' | 'warning' | 'error';
}

export interface BudgetSnapshot {
  readonly toolCalls: { readonly used: number; readonly max: number };
  readonly loops: { readonly used: number; readonly max: number };
  readonly previewBytes: { readonly used: number; readonly max: number };
  readonly blockedCalls: { readonly consecutive: number; readonly total: number; readonly fuse: number };
  readonly tokens: { readonly input: number; readonly output: number; readonly cap: number };
  readonly contextPercent: number;
  /** The context window, in tokens, that `contextPercent` is a share of. */
  readonly contextWindow?: number;
}

/** One `verify:` entry of a tracker item, with its latest result (from the engine's `Verifier`). */
export interface VerifyEntryInfo {
  readonly kind: 'command' | 'check';
  /** The entry as written in the plan: results are keyed by it. */
  readonly text: string;
  /** For commands: what runs, exactly as parsed. */
  readonly command?: string;
  readonly result?: VerifyResultInfo;
}

export interface VerifyResultInfo {
  readonly status: Exclude<VerifyStatus, 'awaiting'>;
  /** Null while running, for checks, and when a run was stopped before it exited. */
  readonly exitCode: number | null;
  readonly at: number;
  readonly durationMs: number;
  readonly output?: string;
  /** The command policy refused it: it did not run (`output` says why and how to allow it). */
  readonly refused?: true;
}

export interface TrackerItemInfo {
  readonly path: string;
  readonly description: string;
  readonly status: 'pending' | 'in_progress' | 'completed' | 'blocked';
  readonly files: readonly string[];
  readonly verify: readonly string[];
  /** The parse of each `verify` entry, with its latest result. */
  readonly entries: readonly VerifyEntryInfo[];
  /** In progress, commands passed, a check still needs the person ("Awaiting your check"). */
  readonly awaitingCheck: boolean;
  readonly children: readonly TrackerItemInfo[];
}

/** Leaf items by status, computed once by the engine (`trackerProgress`). */
export interface TrackerCountsInfo {
  readonly done: number;
  readonly inProgress: number;
  readonly pending: number;
  readonly blocked: number;
  readonly total: number;
}

/** The "Ready to code?" card, built once by the engine and rendered by every host. */
export interface GateCardInfo {
  readonly title: string;
  readonly summary: string;
  /** The first steps' actions; `moreSteps` says how many were left out. */
  readonly steps: readonly string[];
  readonly moreSteps: number;
  readonly validation: { readonly valid: boolean; readonly problems: readonly string[] };
  readonly contextPercent: number;
  readonly revision: number;
  readonly proposedDuringExecution: boolean;
  /** The previous revision's file, for Compare; absent for a first draft. */
  readonly previousRevision?: string;
  /** `person`: this revision is the person's own edit of the plan file (absent: the planner's). */
  readonly author?: 'person';
  /** Unresolved review threads on the plan, for "3 open comments" and its links; absent: none. */
  readonly openComments?: readonly OpenCommentInfo[];
  /**
   * What changed since the previous revision, compared at step level once by the engine, with its
   * words ("1 step removed, 1 changed"); absent for a first draft. Hosts show `summary` as it is.
   */
  readonly changes?: GateCardChanges;
  /**
   * Every verify command of the plan with what will happen to it when it runs (rules §9), decided
   * once here by the build side's command policy; absent when the plan has none.
   */
  readonly verifyCommands?: readonly VerifyCommandInfo[];
}

/**
 * What the command policy will do with a verify command: run it as read-only, run it because it
 * is on the person's allow-list, ask the person first, or never run it.
 */
export type VerifyCommandVerdict = 'read_only' | 'allow_list' | 'ask' | 'refused';

/** One verify command as the gate card lists it. */
export interface VerifyCommandInfo {
  /** The step's path ("2"). */
  readonly step: string;
  /** The command exactly as it will run (for a read-only one, the text the gate admitted). */
  readonly command: string;
  readonly verdict: VerifyCommandVerdict;
  /** Why it asks or is refused, in the policy's words. */
  readonly reason?: string;
  /**
   * The person may approve it together with the plan (it asks, and a planner's revision listed
   * it; one a hand edit added is asked for when it first runs).
   */
  readonly approvable: boolean;
}

/** A revision's step-level change against the one before it. */
export interface GateCardChanges {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  /** "2 steps added, 1 changed"; "wording only" when no step changed but the text did; "no changes". */
  readonly summary: string;
}

/** One unresolved review thread as the gate lists it. */
export interface OpenCommentInfo {
  readonly id: string;
  /** "step 2", "the summary"… */
  readonly label: string;
  /** 1-based line of its element in the plan file. */
  readonly line: number;
  readonly outdated: boolean;
  /** The planner answered its last comment. */
  readonly answered: boolean;
}

export type ThreadEventBody =
  | {
      readonly type: 'thread.started';
      readonly thread_id: string;
      readonly mode: 'plan' | 'build';
      readonly task?: string;
    }
  | { readonly type: 'turn.started'; readonly turn_id: string }
  | { readonly type: 'item.started'; readonly turn_id: string; readonly item: ItemPayload }
  | { readonly type: 'item.updated'; readonly turn_id: string; readonly item: ItemPayload }
  | { readonly type: 'item.completed'; readonly turn_id: string; readonly item: ItemPayload }
  | { readonly type: 'plan.delta'; readonly turn_id: string; readonly delta: string }
  | {
      readonly type: 'plan.approval.requested';
      readonly turn_id: string;
      readonly plan_file: string;
      readonly proposed_during_execution?: boolean;
      readonly previous_revision?: string;
      readonly card: GateCardInfo;
    }
  | {
      readonly type: 'plan.approval.resolved';
      readonly decision: ApprovalDecision;
      readonly automatic: boolean;
      readonly feedback?: string;
    }
  | {
      readonly type: 'context.reset';
      readonly trigger: string;
      readonly plan_preserved: boolean;
      readonly previous_context_usage_percent: number;
      readonly tool_budget_reset: boolean;
    }
  | { readonly type: 'session_tool_limit_increased'; readonly granted: number; readonly max: number }
  | { readonly type: 'tool_loop_limit_increased'; readonly granted: number; readonly max: number }
  | {
      readonly type: 'budget_exhausted';
      readonly budget: 'tool_calls' | 'tool_loop' | 'session_calls' | 'preview' | 'blocked_calls' | 'tokens';
      readonly used: number;
      readonly max: number;
    }
  | { readonly type: 'budget.updated'; readonly budget: BudgetSnapshot }
  | {
      readonly type: 'tracker.updated';
      readonly plan_file?: string;
      readonly title: string;
      readonly items: readonly TrackerItemInfo[];
      readonly counts: TrackerCountsInfo;
      /** Completed leaves as a whole-number percentage of all leaves. */
      readonly percent: number;
    }
  | {
      readonly type: 'verify.recorded';
      readonly plan_file: string;
      readonly step: string;
      readonly entry: string;
      readonly kind: 'command' | 'check';
      readonly command?: string;
      readonly status: VerifyStatus;
      readonly exit_code: number | null;
      readonly duration_ms: number;
      readonly output: string;
      readonly origin: 'build' | 'person';
    }
  | {
      /** The build's closing audit: the execution report, also written next to the plan. */
      readonly type: 'plan.execution.completed';
      readonly plan_file: string;
      readonly report_file: string;
      readonly outcome: BuildOutcome;
      /** The run ended as done with every step completed. */
      readonly complete: boolean;
      readonly report: ExecutionReport;
      /** The report as written to `report_file`; its first paragraph is the outcome summary. */
      readonly markdown: string;
      /** The session whose checkpoints Revert Build reads. */
      readonly session: string;
      /** Steps whose completion has a checkpoint ("Revert to step N"), in the order they completed. */
      readonly checkpoints: readonly string[];
      /**
       * The same build's report again, after a person's verify result (Mark checked, a run) changed
       * it: the `seq` of the first report, whose card this one replaces.
       */
      readonly revises?: number;
    }
  | { readonly type: 'state.changed'; readonly state: LifecycleState; readonly mode: 'plan' | 'build' }
  | { readonly type: 'progress'; readonly message: string }
  | { readonly type: 'turn.completed'; readonly turn_id: string; readonly usage: Usage }
  | { readonly type: 'thread.completed'; readonly thread_id: string }
  | {
      readonly type: 'error';
      readonly message: string;
      readonly recoverable: boolean;
      /** What failed, when it was the model request (`auth`: the endpoint refused the key, or asked for one). */
      readonly kind?: ModelErrorKind;
    }
  /** The person stopped the run (Stop, Ctrl-C): nothing failed and there is nothing to fix. */
  | { readonly type: 'run.stopped'; readonly what: 'planning' | 'build' }
  | ModelEventBody
  | ReviewEventBody
  | InstructionEventBody;

export type LifecycleState = 'idle' | 'planning' | 'awaiting_approval' | 'revising' | 'executing' | 'cancelled';

export type ThreadEvent = ThreadEventBody & { readonly seq: number; readonly at: number };
export type ThreadEventType = ThreadEventBody['type'];
