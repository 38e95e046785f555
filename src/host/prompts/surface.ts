/**
 * Where questions and approvals reach the person: the panel (through view-state ops), and native
 * VS Code UI when the panel is not showing. The composition root implements it; tests fake it.
 */
import type {
  CommandAnswer,
  InterviewQuestion,
  LimitKind,
  PlanApprovalRequest,
  ScopeChoice,
  ScopeRequest,
} from '../../core/api/ports';
import type { DeltaOp } from '../../protocol';

export interface PromptSurface {
  panelVisible(): boolean;
  update(ops: readonly DeltaOp[]): void;
  /** The panel is hidden: offer the native flow (a notification with actions) for request `id`. */
  offerNative(
    id: string,
    prompt:
      | { kind: 'approval'; request: PlanApprovalRequest }
      | { kind: 'interview'; questions: readonly InterviewQuestion[] }
      | { kind: 'grantMore'; limit: LimitKind; used: number; max: number }
      | { kind: 'enterPlanning'; reason?: string },
  ): void;
  /**
   * A build-side command outside the gate and the allow-list (the agent's `run_command`, a verify
   * command): a modal with the whole command, "Run Once", "Always Allow…" or "Don't Run".
   */
  confirmCommand(command: string, reason: string): Promise<CommandAnswer>;
  /** A build write outside the approved plan's scope: a modal with the three choices (Esc: stop and replan). */
  confirmScope?(request: ScopeRequest): Promise<ScopeChoice>;
}
