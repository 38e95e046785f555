/**
 * What binds a build run to its approved plan: the run's ledger and guard (scope,
 * reads, checkpoints), the tracker wrapper that starts and checkpoints steps, and the closing
 * audit at the end of the run. `runBuild` calls these three; everything else reads their facts.
 */
import { dirname, join } from 'node:path';
import { BuildGuard } from '../build/guard';
import { BuildLedger } from '../build/ledger';
import { buildReport, renderReport, type BuildOutcome, type ExecutionReport } from '../build/report';
import { scopeOfPlan } from '../build/scope';
import type { BufferWriter } from '../build/ports';
import { verifyEntryOf } from '../plan/verification';
import type { TrackerHandle } from '../tools/session/context';
import type { SessionCore } from './core';

/** Opens the run's ledger and guard over the approved plan (no plan: everything is in scope). */
export function openBuild(core: SessionCore, planMarkdown: string | undefined): BuildGuard {
  const ledger = new BuildLedger({
    session: core.id,
    root: core.root,
    mode: core.config.buildScope ?? 'ask',
    ...(planMarkdown !== undefined ? { scope: scopeOfPlan(core.plans.parse(planMarkdown).summary) } : {}),
    ...(core.planFile !== undefined ? { planFile: core.planFile } : {}),
    ...(core.deps.checkpoints ? { store: core.deps.checkpoints(core.id) } : {}),
    now: () => core.deps.clock.now(),
    onStoreError: (e) =>
      core.notice(`A build checkpoint could not be stored (${e.message}); Revert Build may miss it.`, 'warning'),
  });
  const writer: BufferWriter = core.deps.editWriter ?? core.deps.writer;
  return new BuildGuard({
    ledger,
    reader: core.deps.reader,
    writer,
    diskWriter: core.deps.writer,
    approver: core.deps.approver,
    interactive: core.config.interactive !== false,
  });
}

/** A mid-execution replan: the new revision's scope holds from now on. */
export function rescope(core: SessionCore, guard: BuildGuard, planMarkdown: string, planFile: string): void {
  guard.ledger.setScope(scopeOfPlan(core.plans.parse(planMarkdown).summary), planFile);
}

/** Starts the ledger's step when the agent starts one, and checkpoints every step that completed. */
export function checkpointingTracker(inner: TrackerHandle, guard: BuildGuard): TrackerHandle {
  return {
    get: () => inner.get(),
    async apply(action) {
      const r = await inner.apply(action);
      if (!r.ok || action.action !== 'update' || action.items !== undefined) return r;
      const path = action.index_path ?? (action.index !== undefined ? String(action.index) : undefined);
      if (path === undefined) return r;
      if (action.status === 'in_progress') guard.ledger.stepStarted(path);
      if (action.status === 'completed') await guard.ledger.stepCompleted(path);
      return r;
    },
  };
}

/**
 * The closing audit: the execution report, written next to the plan as `<stem>.report.md` and
 * announced in `plan.execution.completed`. Undefined for a build without a plan.
 */
export async function closeBuild(
  core: SessionCore,
  guard: BuildGuard,
  outcome: BuildOutcome,
  reason?: string,
  revises?: number,
): Promise<ExecutionReport | undefined> {
  const planFile = core.planFile;
  const stem = core.planStem;
  if (planFile === undefined || stem === undefined) return undefined;
  const ledger = guard.ledger;
  let title = '';
  try {
    title = (await core.store.load(stem)).summary.title;
  } catch {
    // the report names the plan file instead
  }
  const report = buildReport({
    planFile,
    title,
    outcome,
    ...(reason !== undefined ? { reason } : {}),
    tracker: core.tracker?.get(),
    entryOf: verifyEntryOf,
    latest: (step, entry) => core.verifier.latest(planFile, step, entry),
    scope: ledger.scope,
    linesByStep: ledger.linesByStep,
    touched: ledger.touched,
    drift: ledger.drift,
  });
  const markdown = renderReport(report, (f) => relativeTo(core.root, f));
  const reportFile = join(dirname(planFile), `${stem}.report.md`);
  try {
    await core.deps.writer.writeFileAtomic(reportFile, markdown);
  } catch (err) {
    core.notice(
      `The execution report could not be written (${err instanceof Error ? err.message : String(err)}).`,
      'warning',
    );
  }
  const event = core.bus.emit({
    type: 'plan.execution.completed',
    plan_file: planFile,
    report_file: reportFile,
    outcome,
    complete: report.complete,
    report,
    markdown,
    session: core.id,
    checkpoints: [...new Set(ledger.snapshot.checkpoints.flatMap((c) => (c.step !== undefined ? [c.step] : [])))],
    ...(revises !== undefined ? { revises } : {}),
  });
  core.closedBuild = { guard, outcome, ...(reason !== undefined ? { reason } : {}), seq: revises ?? event.seq };
  return report;
}

/**
 * A person's verify result after the build closed (Mark checked, a lens or panel run): the report
 * is written again from the plan's tracker and results now, and its card replaced.
 */
export async function reauditBuild(core: SessionCore): Promise<void> {
  const closed = core.closedBuild;
  if (!closed || core.build) return;
  await closeBuild(core, closed.guard, closed.outcome, closed.reason, closed.seq);
}

function relativeTo(root: string, file: string): string {
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}
