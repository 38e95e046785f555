/**
 * The lifecycle machine's vocabulary: the events it takes, the effects it returns, and the
 * archived snapshot's schema (checked on resume). The machine itself is `approvalMachine.ts`.
 */
import * as z from 'zod';
import type { LifecycleState } from '../events/types';
import type { ApprovalDecision } from './ports';

export type Mode = 'plan' | 'build';
export type Handoff = 'execute' | 'fresh_context';
export type ModelAction = 'approve' | 'exit_plan' | 'switch_mode';

export type LifecycleEvent =
  | { readonly type: 'start_planning' }
  /** The person chose to build without a plan (no approved plan backs the execution). */
  | { readonly type: 'start_build' }
  | { readonly type: 'plan_ready'; readonly planFile: string }
  | {
      readonly type: 'decision';
      readonly decision: ApprovalDecision;
      readonly by: 'person' | 'setting';
      readonly feedback?: string;
    }
  | { readonly type: 'model_attempt'; readonly action: ModelAction }
  /** The runloop finished the handoff (fresh thread built, or current context continued). */
  | { readonly type: 'handoff_done' }
  | { readonly type: 'execution_done' }
  | { readonly type: 'cancel' }
  | { readonly type: 'interview_pending'; readonly pending: boolean }
  /** A model request failed and ended the turn (connection refused, a 401, a timeout). */
  | { readonly type: 'turn_failed' }
  /** The person stopped the run: a build ends (back to idle), a planning turn ends as a failed one would. */
  | { readonly type: 'stopped' };

export type LifecycleEffect =
  | { readonly type: 'state_changed'; readonly from: LifecycleState; readonly to: LifecycleState; readonly mode: Mode }
  | ({ readonly type: 'approval_requested' } & PendingApproval)
  | {
      readonly type: 'approval_resolved';
      readonly decision: ApprovalDecision;
      readonly automatic: boolean;
      readonly feedback?: string;
    }
  | { readonly type: 'revision_requested'; readonly feedback?: string }
  | { readonly type: 'handoff'; readonly mode: Handoff; readonly planFile: string }
  | { readonly type: 'plan_revised_in_run'; readonly planFile: string; readonly revision: number }
  | { readonly type: 'log'; readonly level: 'info' | 'warning'; readonly message: string };

export const snapshotSchema = z
  .object({
    version: z.literal(1),
    state: z.enum(['idle', 'planning', 'awaiting_approval', 'revising', 'executing', 'cancelled']),
    mode: z.enum(['plan', 'build']),
    planFile: z.string().min(1).optional(),
    previousPlanFile: z.string().min(1).optional(),
    revision: z.number().int().min(0),
    approvedPlanFile: z.string().min(1).optional(),
    handoff: z.enum(['execute', 'fresh_context']).optional(),
    handoffPending: z.boolean(),
    feedback: z.string().optional(),
    interviewPending: z.boolean(),
    deferredPlanFile: z.string().min(1).optional(),
    proposedDuringExecution: z.boolean(),
    lastDecision: z
      .object({
        decision: z.enum(['execute', 'fresh_context', 'revise', 'cancel']),
        by: z.enum(['person', 'setting']),
        feedback: z.string().optional(),
      })
      .optional(),
    refusedModelAttempts: z.number().int().min(0),
  })
  .superRefine((s, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (s.state === 'awaiting_approval' && s.planFile === undefined) problem('awaiting_approval needs a planFile');
    if (s.state === 'awaiting_approval' && s.interviewPending) {
      problem('the gate cannot be open while an interview question is pending');
    }
    if (s.handoffPending && (s.state !== 'executing' || s.handoff === undefined)) {
      problem('a pending handoff needs state executing and a handoff kind');
    }
    if (s.deferredPlanFile !== undefined && s.state !== 'planning' && s.state !== 'revising') {
      problem('a plan can only be held back while planning or revising');
    }
  });

export type LifecycleSnapshot = z.infer<typeof snapshotSchema>;

export type DispatchResult =
  | { readonly ok: true; readonly state: LifecycleState; readonly effects: readonly LifecycleEffect[] }
  | {
      readonly ok: false;
      readonly state: LifecycleState;
      readonly reason: string;
      readonly effects: readonly LifecycleEffect[];
    };

/** A plan at the gate: what `approval_requested` announces and `pendingApproval()` returns. */
export interface PendingApproval {
  readonly planFile: string;
  readonly revision: number;
  readonly proposedDuringExecution: boolean;
  /** The plan this one revises, for the diff shown at the gate. */
  readonly previousPlanFile?: string;
}
