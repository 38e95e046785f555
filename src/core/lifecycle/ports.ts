/** The person's side of the engine: questions and approvals go through these ports. */
import type { GateCardInfo } from '../events/types';

export interface InterviewOption {
  readonly label: string;
  readonly description?: string;
  readonly recommended?: boolean;
}

export interface InterviewQuestion {
  readonly id: string;
  readonly header: string;
  readonly question: string;
  readonly options: readonly InterviewOption[];
  /** Whether a free-form note may accompany the answer. */
  readonly allowNote?: boolean;
}

export interface InterviewAnswer {
  readonly questionId: string;
  /** The chosen option's label. */
  readonly choice: string;
  readonly note?: string;
}

export type InterviewOutcome =
  | { readonly kind: 'answered'; readonly answers: readonly InterviewAnswer[] }
  /** The person pressed Esc: no answer, the model may ask again later. */
  | { readonly kind: 'cancelled' }
  /** Non-interactive: permanently denied for this session. */
  | { readonly kind: 'denied'; readonly reason: string };

export interface Interviewer {
  ask(questions: readonly InterviewQuestion[], signal?: AbortSignal): Promise<InterviewOutcome>;
}

export type ApprovalDecision = 'execute' | 'fresh_context' | 'revise' | 'cancel';

export interface PlanApprovalRequest {
  /**
   * The card every host renders, built once by the engine (also in `plan.approval.requested`):
   * title, summary, steps, validation, context share, revision, previous revision.
   */
  readonly card: GateCardInfo;
  readonly planFile: string;
  /** What changed since the previous revision: a unified diff of the markdown. */
  readonly diff?: string;
  /** Steps added, removed and changed since the previous revision. */
  readonly stepChanges?: { readonly added: number; readonly removed: number; readonly changed: number };
}

export interface PlanApprovalResponse {
  readonly decision: ApprovalDecision;
  readonly feedback?: string;
  /**
   * Verify commands the person approved together with the plan, by their text (an explicit choice
   * on the gate, off by default). Only commands the gate card lists count; for this build only.
   */
  readonly allowCommands?: readonly string[];
}

/** The person's answer to a command that needs a yes; `always`: the allow-list entry they added. */
export type CommandAnswer = boolean | { readonly always: string };

export type LimitKind = 'session_tool_calls' | 'tool_loop';

/** The person's answer to a build write outside the approved plan's scope. */
export type ScopeChoice = 'allow_file' | 'allow_build' | 'replan';

/** A build-agent write outside the approved plan's scope. */
export interface ScopeRequest {
  /** Workspace-relative, forward slashes. */
  readonly path: string;
  readonly action: 'edit' | 'write' | 'create' | 'delete';
  /** The tracker step in progress, if any. */
  readonly step?: string;
  /** The plan's scope entries, as written (paths, globs, folders). */
  readonly scope: readonly string[];
  /**
   * Set when a shell command (`run_command`) already made the change: allowing keeps it, "stop
   * and replan" undoes it.
   */
  readonly command?: string;
}

export interface Approver {
  approvePlan(request: PlanApprovalRequest, signal?: AbortSignal): Promise<PlanApprovalResponse>;
  /** Asks whether to grant more calls/loops. Resolves to the extra amount granted, or 0 for a denial. */
  grantMore(kind: LimitKind, used: number, max: number, signal?: AbortSignal): Promise<number>;
  /**
   * A build-side command (the agent's `run_command`, a verify entry) the read-only gate and the
   * allow-list did not admit, shown whole: yes, no, or "always allow" with the allow-list entry the
   * person chose (the host has added it to the allow-list).
   */
  approveCommand(command: string, reason: string, signal?: AbortSignal): Promise<CommandAnswer>;
  /**
   * A command that needed a yes was refused without asking (a non-interactive run): the host may
   * tell the person, with how to allow it (`reason` says so).
   */
  commandRefused?(command: string, reason: string): void;
  /**
   * "Enter planning workflow?" after an execution agent proposed it (`start_planning`). Hosts
   * without it leave the proposal pending.
   */
  enterPlanning?(reason: string | undefined, signal?: AbortSignal): Promise<boolean>;
  /**
   * Asks the person at once whether the check `check` of step `step` holds (the interactive CLI).
   * Hosts without it leave the step "awaiting your check" until the person marks it.
   */
  signOffCheck?(step: string, check: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * A build write outside the approved plan's scope: allow this file, allow for the rest of this
   * build, or stop and replan. Hosts without it have such writes refused in `ask` mode.
   */
  approveScope?(request: ScopeRequest, signal?: AbortSignal): Promise<ScopeChoice>;
}
