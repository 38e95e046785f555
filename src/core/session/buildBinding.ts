/**
 * What binds a build run to its approved plan: the run's ledger and guard (scope,
 * reads, checkpoints), the tracker wrapper that starts and checkpoints steps, and the closing
 * audit at the end of the run. `runBuild` calls these three; everything else reads their facts.
 */
import { closedReport, reportText } from '../build/closing';
import { BuildGuard } from '../build/guard';
import { BuildLedger, type BuildManifest } from '../build/ledger';
import type { BuildOutcome, ExecutionReport } from '../build/report';
import { parseManifest } from '../build/revert';
import { scopeOfPlan } from '../build/scope';
import type { BufferWriter } from '../build/ports';
import type { TrackerHandle } from '../tools/session/context';
import type { ClosedBuild, SessionCore } from './core';

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
 * The closing audit: the ledger records how the build ended, and the execution report is written
 * next to the plan as `<stem>.report.md` and announced in `plan.execution.completed`. Undefined for
 * a build without a plan.
 */
export async function closeBuild(
  core: SessionCore,
  guard: BuildGuard,
  outcome: BuildOutcome,
  reason?: string,
): Promise<ExecutionReport | undefined> {
  const planFile = core.planFile;
  const revision = planFile !== undefined ? core.plans.peek(planFile)?.revisions : undefined;
  await guard.ledger.close(outcome, reason, revision);
  const manifest = guard.ledger.snapshot;
  const closed = await reportClosed(core, manifest);
  if (closed) core.closedBuild = { seq: closed.seq, manifest, markdown: closed.markdown };
  return closed?.report;
}

/**
 * The plan's tracker moved after the build closed (a person's result, a revert, a hand edit): the
 * report is written again from the build's manifest as stored (a revert there included) and the
 * plan now, and its card replaced.
 */
export function reauditBuild(core: SessionCore): Promise<void> {
  const closed = core.closedBuild;
  if (!closed || core.build) return Promise.resolve();
  const run = async () => {
    if (core.build || core.closedBuild !== closed) return;
    const stored = parseManifest(
      await core.deps
        .checkpoints?.(core.id)
        .readManifest()
        .catch(() => undefined),
    );
    const manifest = stored ?? closed.manifest;
    if (!manifest || (manifest.planFile !== undefined && manifest.planFile !== core.planFile)) return;
    const again = await reportClosed(core, manifest, closed);
    if (again) closed.markdown = again.markdown;
  };
  const next = (closed.queue ?? Promise.resolve()).then(run);
  closed.queue = next.catch(() => undefined);
  return next;
}

/**
 * Writes and announces the report of the closed build `manifest` records. A rewrite (`closed`)
 * replaces the first card, and is skipped when the report says what it said last time.
 */
async function reportClosed(
  core: SessionCore,
  manifest: BuildManifest,
  closed?: ClosedBuild,
): Promise<{ report: ExecutionReport; seq: number; markdown: string } | undefined> {
  const revises = closed?.seq;
  const planFile = core.planFile;
  if (planFile === undefined) return undefined;
  // The plan as the workspace holds it now: its tracker and title, as every surface reads them.
  const plan = core.plans.peek(planFile) ?? (await core.plans.plan(planFile).catch(() => undefined));
  const report = closedReport(manifest, {
    planFile,
    ...(plan ? { revisions: plan.revisions } : {}),
    title: plan?.verdict.summary.title ?? '',
    tracker: plan?.tracker ?? core.tracker?.get(),
    latest: (step, entry) => core.verifier.latest(planFile, step, entry),
  });
  if (!report) return undefined;
  const { file, markdown } = reportText(core.root, report);
  if (closed?.markdown === markdown) return undefined;
  try {
    await core.deps.writer.writeFileAtomic(file, markdown);
  } catch (err) {
    core.notice(
      `The execution report could not be written (${err instanceof Error ? err.message : String(err)}).`,
      'warning',
    );
  }
  const event = core.bus.emit({
    type: 'plan.execution.completed',
    plan_file: planFile,
    report_file: file,
    outcome: report.outcome,
    complete: report.complete,
    report,
    markdown,
    session: core.id,
    checkpoints: [...new Set(manifest.checkpoints.flatMap((c) => (c.step !== undefined ? [c.step] : [])))],
    ...(revises !== undefined ? { revises } : {}),
  });
  return { report, seq: revises ?? event.seq, markdown };
}
