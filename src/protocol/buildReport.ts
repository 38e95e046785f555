/**
 * The build's final card: the engine's closing audit (`plan.execution.completed`) as the
 * panel shows it, and the card's Revert intents. Every figure here was computed by the engine; the
 * webview renders it and never counts anything itself.
 */
import * as z from 'zod';

const id = z.string().min(1).max(200);
const count = z.number().int().nonnegative();
const stepPath = z.string().regex(/^[1-9][0-9]*(\.[1-9][0-9]*)*$/, 'a step path like "2" or "2.1"');

export const ReportFileSchema = z.object({
  path: z.string(),
  added: count,
  removed: count,
  /** Outside the approved plan's scope (who allowed it is in `outOfScope`). */
  outOfScope: z.boolean(),
});

export const ReportVerifySchema = z.object({
  kind: z.enum(['command', 'check']),
  entry: z.string(),
  command: z.string().optional(),
  status: z.enum(['running', 'passed', 'failed', 'timed_out', 'cancelled', 'checked', 'not run']),
  exitCode: z.number().int().nullable().optional(),
});

export const ReportStepSchema = z.object({
  path: stepPath,
  description: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed', 'blocked']),
  verify: z.array(ReportVerifySchema),
  planned: z.array(z.string()),
  changed: z.array(ReportFileSchema),
  /** Why it is not completed; absent for a completed step. */
  reason: z.string().optional(),
});

export const ReportDriftSchema = z.object({
  path: z.string(),
  action: z.enum(['edit', 'write', 'create', 'delete']),
  allowedBy: z.string(),
  step: z.string().optional(),
  /** The shell command that made the change, when no file tool did. */
  command: z.string().optional(),
});

export const ReportCountsSchema = z.object({
  stepsDone: count,
  stepsTotal: count,
  filesChanged: count,
  filesOutOfScope: count,
  verifyPassed: count,
  verifyFailed: count,
  verifyChecked: count,
  verifyNotRun: count,
  verifyTotal: count,
});

export const BuildReportItemSchema = z.object({
  id,
  kind: z.literal('build_report'),
  /** The session whose checkpoints the card's Revert reads. */
  sessionId: id,
  title: z.string(),
  outcome: z.enum(['done', 'stopped', 'failed']),
  /** Every step completed and the build ended as done. */
  complete: z.boolean(),
  /** Why the build stopped or failed. */
  reason: z.string().optional(),
  /** The engine's outcome paragraph: changed files, verification, remaining blockers. */
  summary: z.string(),
  counts: ReportCountsSchema,
  steps: z.array(ReportStepSchema),
  changed: z.array(ReportFileSchema),
  outOfScope: z.array(ReportDriftSchema),
  untouched: z.array(z.string()),
  /** Checks waiting for the person's sign-off. */
  awaiting: z.array(z.object({ step: stepPath, entry: z.string() })),
  /** Workspace-relative `<stem>.report.md`. */
  reportFile: z.string(),
  /** Steps whose completion has a checkpoint, for "Revert to step N". */
  checkpoints: z.array(stepPath),
});

/**
 * The card's Revert: the host's Revert Build command for the session, the whole build or back to
 * the checkpoint of a completed step. The host shows the diff and asks before anything changes.
 */
export const RevertBuildMessageSchema = z.object({
  type: z.literal('revertBuild'),
  sessionId: id,
  toStep: stepPath.optional(),
});

export type BuildReportItem = z.infer<typeof BuildReportItemSchema>;
export type ReportFile = z.infer<typeof ReportFileSchema>;
export type ReportStep = z.infer<typeof ReportStepSchema>;
