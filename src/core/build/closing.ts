/**
 * A closed build's report, from what outlives the build: its manifest (the lines changed per step,
 * the out-of-scope changes, how it ended and the scope it ran under) read with the plan's tracker
 * and verify results as they are now. The session writes it when the build closes, and again when
 * the plan's tracker moves after that (a revert, a sign-off, a hand edit); `planwise revert` writes
 * it after its own revert. Both render it through `reportText`, so the file on disk and the card
 * say the same.
 */
import type { Tracker } from '../plan/tracker';
import { verifyEntryOf } from '../plan/verification';
import type { VerifyRecord } from '../verify/verifier';
import type { BuildManifest } from './ledger';
import { buildReport, renderReport, type ExecutionReport } from './report';
import { scopeOfEntries } from './scope';

/** The plan as the report reads it now. */
export interface ReportedPlan {
  readonly planFile: string;
  /** Its revision count now; the report is of the revision the build built, and of no later one. */
  readonly revisions?: number;
  readonly title: string;
  readonly tracker: Tracker | undefined;
  /** The latest verify result of an entry of a step. */
  readonly latest: (step: string, entry: string) => VerifyRecord | undefined;
}

/**
 * The report of the build `manifest` records; undefined while the build has not closed, and once
 * the plan has a revision the build did not build.
 */
export function closedReport(manifest: BuildManifest, plan: ReportedPlan): ExecutionReport | undefined {
  const closed = manifest.closed;
  if (!closed) return undefined;
  if (closed.revision !== undefined && plan.revisions !== undefined && plan.revisions !== closed.revision) {
    return undefined;
  }
  return buildReport({
    planFile: plan.planFile,
    title: plan.title,
    outcome: closed.outcome,
    ...(closed.reason !== undefined ? { reason: closed.reason } : {}),
    tracker: plan.tracker,
    entryOf: verifyEntryOf,
    latest: plan.latest,
    scope: closed.scope ? scopeOfEntries(closed.scope) : undefined,
    lines: manifest.lines ?? {},
    touched: Object.keys(manifest.baseline),
    drift: manifest.drift ?? [],
  });
}

/**
 * The report as markdown (paths shown relative to `root`) and the file it is written to:
 * `<stem>.report.md`, next to the plan file.
 */
export function reportText(
  root: string,
  report: ExecutionReport,
): { readonly file: string; readonly markdown: string } {
  const markdown = renderReport(report, (f) => (f.startsWith(`${root}/`) ? f.slice(root.length + 1) : f));
  return { file: `${report.planFile.replace(/\.md$/, '')}.report.md`, markdown };
}
