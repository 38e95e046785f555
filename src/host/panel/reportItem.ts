/**
 * The build's final card: `plan.execution.completed` as the panel's `build_report` item. Only
 * reshaped (paths made workspace-relative): every figure comes from the engine's report.
 */
import type { ThreadEvent } from '../../core/api/sessions';
import type { BuildReportItem, ReportFile } from '../../protocol';

type Completed = Extract<ThreadEvent, { type: 'plan.execution.completed' }>;

export function reportItemId(seq: number): string {
  return `build-report-${seq}`;
}

/**
 * Undefined for an event archived before the card existed (no counts, no session): the panel then
 * shows its summary as a notice.
 */
export function toReportItem(
  event: Completed & { seq: number },
  relativePath: (p: string) => string,
): BuildReportItem | undefined {
  const r = event.report;
  if ((r as Partial<typeof r>).counts === undefined || typeof event.session !== 'string') return undefined;
  const file = (f: { path: string; added: number; removed: number; outOfScope?: boolean }): ReportFile => ({
    path: f.path,
    added: f.added,
    removed: f.removed,
    outOfScope: f.outOfScope === true,
  });
  return {
    // A report written again after the build replaces the first report's card.
    id: reportItemId(event.revises ?? event.seq),
    kind: 'build_report',
    sessionId: event.session,
    title: r.title,
    outcome: r.outcome,
    complete: r.complete,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    summary: r.summary,
    counts: { ...r.counts },
    steps: r.steps.map((s) => ({
      path: s.path,
      description: s.description,
      status: s.status,
      verify: s.verify.map((v) => ({
        kind: v.kind,
        entry: v.entry,
        ...(v.command !== undefined ? { command: v.command } : {}),
        status: v.status,
        ...(v.exitCode !== undefined ? { exitCode: v.exitCode } : {}),
      })),
      planned: [...s.planned],
      changed: s.changed.map(file),
      ...(s.reason !== undefined ? { reason: s.reason } : {}),
    })),
    changed: r.changed.map(file),
    outOfScope: r.outOfScope.map((d) => ({
      path: d.path,
      action: d.action,
      allowedBy: d.allowedBy,
      ...(d.step !== undefined ? { step: d.step } : {}),
      ...(d.command !== undefined ? { command: d.command } : {}),
    })),
    untouched: [...r.untouched],
    awaiting: r.awaiting.map((a) => ({ step: a.step, entry: a.entry })),
    reportFile: relativePath(event.report_file),
    checkpoints: [...(event.checkpoints ?? [])],
  };
}
