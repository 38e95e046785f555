/**
 * The engine's `Approver` in VS Code: plan approvals and grant-more prompts go to the panel as
 * requests in the pending table (and to native UI when the panel is hidden); build commands the
 * gate did not admit are confirmed in a modal dialog. Plan decisions never time out: only the
 * person decides. A grant-more prompt left unanswered for 10 minutes is a denial.
 */
import type {
  CommandAnswer,
  Approver,
  LimitKind,
  PlanApprovalRequest,
  PlanApprovalResponse,
  ScopeChoice,
  ScopeRequest,
} from '../../core/api/ports';
import type { GateCardInfo } from '../../core/api/sessions';
import type { Gate } from '../../protocol';
import type { PendingRequests } from './pending';
import type { PromptSurface } from './surface';

/** Extra calls or loops granted per "grant more" (the engine's default grant). */
export const GRANT_AMOUNT = 50;
export const GRANT_TIMEOUT_MS = 10 * 60_000;
export const ENTER_PLANNING_TIMEOUT_MS = 10 * 60_000;

export interface ApprovalData {
  readonly request: PlanApprovalRequest;
}

export interface ApproverDeps {
  readonly pending: PendingRequests;
  readonly surface: PromptSurface;
  readonly relativePath: (path: string) => string;
}

/** The panel's gate: the engine's card as it is, with the pending request's id. */
export function gateOf(card: GateCardInfo, requestId: string, planFile: string): Gate {
  return {
    requestId,
    title: card.title,
    summary: card.summary,
    steps: [...card.steps],
    moreSteps: card.moreSteps,
    validation: { valid: card.validation.valid, problems: [...card.validation.problems] },
    contextPercent: card.contextPercent,
    proposedDuringExecution: card.proposedDuringExecution,
    revision: card.revision,
    ...(card.author ? { author: card.author } : {}),
    ...(card.changes ? { changes: card.changes.summary } : {}),
    hasPreviousRevision: card.previousRevision !== undefined,
    planFile,
    ...(card.openComments && card.openComments.length > 0
      ? { openComments: card.openComments.map((c) => ({ ...c })) }
      : {}),
    ...(card.verifyCommands && card.verifyCommands.length > 0
      ? { verifyCommands: card.verifyCommands.map((c) => ({ ...c })) }
      : {}),
  };
}

export class HostApprover implements Approver {
  constructor(private readonly deps: ApproverDeps) {}

  async approvePlan(request: PlanApprovalRequest, signal?: AbortSignal): Promise<PlanApprovalResponse> {
    const { pending, surface } = this.deps;
    const data: ApprovalData = { request };
    const { id, promise } = pending.open<PlanApprovalResponse>('approval', { ...(signal ? { signal } : {}), data });
    const gate = gateOf(request.card, id, this.deps.relativePath(request.planFile));
    surface.update([{ op: 'gate.set', gate }]);
    if (!surface.panelVisible()) surface.offerNative(id, { kind: 'approval', request });
    try {
      return await promise;
    } finally {
      surface.update([{ op: 'gate.set', gate: null }]);
    }
  }

  async grantMore(kind: LimitKind, used: number, max: number, signal?: AbortSignal): Promise<number> {
    const { pending, surface } = this.deps;
    const { id, promise } = pending.open<boolean>('grantMore', {
      timeoutMs: GRANT_TIMEOUT_MS,
      onTimeout: () => false,
      ...(signal ? { signal } : {}),
      data: { kind, used, max },
    });
    surface.update([{ op: 'grantMore.set', prompt: { requestId: id, kind, used, max } }]);
    if (!surface.panelVisible()) surface.offerNative(id, { kind: 'grantMore', limit: kind, used, max });
    try {
      return (await promise) ? GRANT_AMOUNT : 0;
    } finally {
      surface.update([{ op: 'grantMore.set', prompt: null }]);
    }
  }

  async approveCommand(command: string, reason: string, signal?: AbortSignal): Promise<CommandAnswer> {
    if (signal?.aborted) return false;
    return this.deps.surface.confirmCommand(command, reason);
  }

  /** A build write outside the approved plan's scope; a surface that cannot ask stops the build to replan. */
  async approveScope(request: ScopeRequest, signal?: AbortSignal): Promise<ScopeChoice> {
    if (signal?.aborted || !this.deps.surface.confirmScope) return 'replan';
    return this.deps.surface.confirmScope(request);
  }

  /**
   * An execution agent proposed entering planning (`start_planning`): "Enter planning workflow?".
   * Unanswered for 10 minutes counts as no.
   */
  async enterPlanning(reason: string | undefined, signal?: AbortSignal): Promise<boolean> {
    const { pending, surface } = this.deps;
    const { id, promise } = pending.open<boolean>('enterPlanning', {
      timeoutMs: ENTER_PLANNING_TIMEOUT_MS,
      onTimeout: () => false,
      ...(signal ? { signal } : {}),
      data: { reason },
    });
    surface.update([{ op: 'enterPlanning.set', prompt: { requestId: id, ...(reason ? { reason } : {}) } }]);
    if (!surface.panelVisible()) surface.offerNative(id, { kind: 'enterPlanning', ...(reason ? { reason } : {}) });
    try {
      return await promise;
    } finally {
      surface.update([{ op: 'enterPlanning.set', prompt: null }]);
    }
  }
}
