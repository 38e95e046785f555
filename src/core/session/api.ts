/**
 * The engine as a host sees it. A host (VS Code, CLI, tests) builds a `SessionDeps` from its own
 * adapters, calls `createSession` once per session, listens to `session.bus`, and forwards the
 * person's input. The engine asks the person through the `Interviewer` and `Approver` ports.
 */
import type { ArchiveStore, Clock, CommandRunner, Searcher, WorkspaceReader, WorkspaceWriter } from '../ports';
import type { ModelClient } from '../agent/model';
import type { BudgetOverrides } from '../agent/budgets';
import type { EventBus } from '../events/bus';
import type { LifecycleState } from '../events/types';
import type { ApprovalDecision, Approver, Interviewer } from '../lifecycle/ports';
import type { Verifier } from '../verify/verifier';
import type { AwaitingCheck } from './trackerView';
import type { ReviewBook } from '../plan/reviewBook';
import type { PlanWorkspace } from '../plan/workspace';
import type { HandEditOutcome } from './handEdit';
import type { SessionStanding } from './standing';
import type { CheckpointStore } from '../build/ports';
import type { ScopeMode } from '../build/scope';
import type { ExecutionReport } from '../build/report';
import type { GateFs } from '../gate/types';
import type { InstructionsConfig } from '../agent/instructions';
import type { McpClientPort, McpConfig } from '../mcp/ports';

export interface SessionDeps {
  readonly reader: WorkspaceReader;
  /**
   * The file system the read-only gate judges commands on, when `reader` is a filtered view (VS
   * Code's `files.exclude` leaves entries out of its listings): a shell expands globs over what is
   * really there, so the gate must see the same. Default: `reader`.
   */
  readonly gateFs?: GateFs;
  /** Writes the runtime owns: plan files, trackers. */
  readonly writer: WorkspaceWriter;
  /** Writes by the build agent (VS Code: undoable WorkspaceEdits); defaults to `writer`. */
  readonly editWriter?: WorkspaceWriter;
  readonly searcher: Searcher;
  /** Absent: no shell at all (e.g. a host that cannot run processes). */
  readonly runner?: CommandRunner;
  readonly model: ModelClient;
  readonly clock: Clock;
  readonly interviewer: Interviewer;
  readonly approver: Approver;
  /** Absent: no session archive, so resume is unavailable (and never advertised). */
  readonly archive?: ArchiveStore;
  /**
   * The engine's verify runner and result store. A host that runs verify outside sessions (the
   * CodeLens) hands in its one instance so every view reads the same results; otherwise the
   * session makes one over `runner`.
   */
  readonly verifier?: Verifier;
  /**
   * The workspace's plans: their parses, store, review threads and trackers, one owner per
   * workspace root. A host hands in its one instance so every surface follows the same plans;
   * otherwise the session makes one of its own.
   */
  readonly plans?: PlanWorkspace;
  /** Receives one line per notable engine event for the host's log; never secrets. */
  readonly log?: (line: string) => void;
  /**
   * The build's checkpoints of a session, in the session's storage (never the workspace).
   * Absent: no checkpoints, so no Revert Build.
   */
  readonly checkpoints?: (sessionId: string) => CheckpointStore;
  /**
   * The person's MCP servers (from the workspace's `.vscode/mcp.json` and `.mcp.json`). Absent: no
   * MCP tools. The session stops what it started when it is disposed.
   */
  readonly mcp?: McpClientPort;
}

export interface SessionConfig {
  readonly planningModel: string;
  /** Defaults to the planning model. */
  readonly buildModel?: string;
  readonly trusted: boolean;
  readonly home?: string;
  /** Workspace-relative, default `.vtcode/plans`. */
  readonly plansDir?: string;
  readonly budgets?: BudgetOverrides;
  /** Tokens of the model's context window, for the context-usage percentage. */
  readonly contextWindow?: number;
  /** Compact the request view past this share of the context window, in percent (default 80). */
  readonly compactAtPercent?: number;
  /**
   * The build agent completes a step with a `verify:` only after its commands passed and a person
   * signed its checks off (default true).
   */
  readonly requireVerifyToComplete?: boolean;
  /** How long one verify command may run (default `DEFAULT_VERIFY_TIMEOUT_MS`); ignored when `deps.verifier` is given. */
  readonly verifyTimeoutMs?: number;
  /** Build commands the person allows without asking (exact commands or prefixes ending in `*`). */
  readonly buildAllowList?: readonly string[];
  /** Non-interactive runs: interview denials are permanent, approval never prompts. */
  readonly interactive?: boolean;
  /** The agent a new session starts with (the seed's `default_primary_agent`). */
  readonly startAgent?: 'plan' | 'build';
  /** An explicit setting that decides the approval without asking (e.g. the CLI's `--approve`). */
  readonly autoDecision?: ApprovalDecision;
  /** Build writes outside the approved plan's scope: `ask` (default), `record` or `strict`. */
  readonly buildScope?: ScopeMode;
  /**
   * The repository's instruction files both agents get (AGENTS.md and its kin): which sources and
   * the bound (default: all, 16 KiB); `false` reads none.
   */
  readonly instructions?: InstructionsConfig | false;
  /** The MCP tools the person allowed (`server/tool`, `server/*`); none when absent. */
  readonly mcp?: McpConfig;
}

export interface Session {
  readonly id: string;
  readonly bus: EventBus;
  readonly state: LifecycleState;
  readonly mode: 'plan' | 'build';
  /** The current plan file (absolute), once one was persisted. */
  readonly planFile: string | undefined;
  /** Starts planning (or building, for `mode: 'build'`) on a task; resolves when the run stops. */
  start(task: string, options?: { mode?: 'plan' | 'build' }): Promise<SessionStop>;
  /**
   * Composer input. While the gate is open, intent phrases decide it (stay wins over exit; feedback
   * with "stay" becomes a revision request). `/plan` and `/plan off` are handled here. While a turn
   * runs, mode switches are refused with a notice.
   */
  submit(text: string): Promise<SessionStop | undefined>;
  /**
   * A decision from a button or command while the gate is open. `allowCommands`: verify commands
   * the gate card listed that the person approved together with the plan (by their text), for
   * the build this decision starts; approving the plan alone approves none.
   */
  decide(
    decision: ApprovalDecision,
    feedback?: string,
    allowCommands?: readonly string[],
  ): Promise<SessionStop | undefined>;
  /**
   * After a resume: re-presents a pending approval (or question) to the person, or runs again the
   * planning turn a reload interrupted (`interrupted`).
   */
  reopen(): Promise<SessionStop | undefined>;
  /**
   * Restored from a checkpoint taken after the person's message and before its turn completed (a
   * window reload mid-turn): that message. Undefined otherwise, and once `reopen()` ran it.
   */
  readonly interrupted?: string | undefined;
  /**
   * The engine's verify runner: hosts run entries (`run`), cancel them and sign checks off
   * (`signOff`) here. The session follows every result of its plan: it emits `verify.recorded`
   * and completes a step once a person's result satisfies its verification (a failing command puts
   * it back in progress).
   */
  readonly verifier: Verifier;
  /**
   * Where the session stands, folded once from its events: budget, tracker progress, whether its
   * last build offers Revert. What hosts read outside any panel.
   */
  readonly standing: SessionStanding;
  /**
   * The review threads of the session's plans (`<stem>.review.json`): hosts add, answer and
   * resolve threads here, so every change is a `review.thread.*` event on this session's bus. A
   * revision request carries every unresolved thread of the plan.
   */
  readonly review: ReviewBook;
  /**
   * The person saved the plan file (`planFile`, absolute). While it awaits approval, a valid edit
   * becomes the next revision (the tracker follows, the gate is announced again); an invalid one
   * writes nothing and comes back with its errors, on the file's lines, for diagnostics.
   */
  planEdited(planFile: string): Promise<HandEditOutcome>;
  /** Aborts the running turn (the person pressed Stop or closed the window). */
  cancel(): void;
  /** Stops following the verifier; the host dropped this session. */
  dispose(): void;
}

/** Why a run stopped. */
export type SessionStop =
  | { readonly kind: 'awaiting_approval'; readonly planFile: string }
  | {
      readonly kind: 'completed';
      readonly summary: string;
      /** Steps left in progress because a check awaits the person (a headless build lists them). */
      readonly awaitingChecks?: readonly AwaitingCheck[];
      /** A build's closing audit (also in `plan.execution.completed`). */
      readonly report?: ExecutionReport;
    }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'blocked'; readonly reason: string; readonly resumeId?: string }
  | { readonly kind: 'error'; readonly message: string };
