/**
 * `planwise plans`: lists the plans of a workspace (`.vtcode/plans/`), Planwise's and VT Code's
 * (`<epoch-ms>-<adjective>-<noun>.md`), with validity, revisions, tracker progress and unresolved
 * review comments; `--json` adds each tracker's items. Reads only; never writes.
 */
import * as path from 'node:path';
import { PlanWorkspace, type ParsedPlan } from '../../core/api/plans';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../node/fsWorkspace';
import { lastBuilds, type BuildRecord } from '../builds';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';

const USAGE = `Usage: planwise plans [--workspace DIR] [--json]

Lists the plans in DIR/.vtcode/plans, newest first, with their validity, number of steps, saved
revisions, task-tracker progress, unresolved review comments (planwise review) and the session id
of the plan's last build (what planwise revert takes).

Options:
  --workspace DIR  workspace root (default: the current directory)
  --json           print one JSON array of {stem, file, title, valid, steps, revisions, progress,
                   tracker, openComments, lastBuild};
                   progress is {counts: {done, inProgress, pending, blocked, total}, percent}, as in
                   the tracker.updated event (counting items without sub-items), or null;
                   tracker is {title, items}, each item {description, status, files, outcome
                   (when it has one), verify, children}, as read from the plan's .tasks.md file
                   (else the tracker inside the plan), or null; openComments is a count (null:
                   the review sidecar is unreadable); lastBuild is {session, at} or null
  -h, --help       show this help

Exit status: 0, or 2 for a usage error or a workspace that does not exist.
`;

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise plans: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

function progress(p: ParsedPlan): string {
  if (!p.progress) return 'no tracker';
  const c = p.progress.counts;
  const extra = [c.inProgress ? `${c.inProgress} in progress` : '', c.blocked ? `${c.blocked} blocked` : '']
    .filter((s) => s.length > 0)
    .join(', ');
  return `${c.done}/${c.total} done (${p.progress.percent}%)${extra ? `, ${extra}` : ''}`;
}

function titleOf(p: ParsedPlan): string {
  // A plan VT Code saved may have no `# ` title; its tracker's is the next best name.
  return p.verdict.summary.title || p.tracker?.title || '';
}

function table(
  plans: readonly ParsedPlan[],
  comments: readonly (number | undefined)[],
  builds: ReadonlyMap<string, BuildRecord>,
): string {
  const rows = plans.map((p, i) => [
    p.stem,
    p.verdict.valid ? 'valid' : 'invalid',
    String(p.verdict.summary.steps.length),
    String(p.revisions),
    progress(p),
    comments[i] === undefined ? '?' : comments[i] === 0 ? '-' : `${comments[i]} open`,
    builds.get(p.file)?.session ?? '-',
    titleOf(p) || '(untitled)',
  ]);
  const header = ['PLAN', 'STATUS', 'STEPS', 'REVISIONS', 'PROGRESS', 'COMMENTS', 'LAST BUILD', 'TITLE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const fmt = (r: readonly string[]) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(fmt).join('\n')}\n`;
}

export const plansCommand: CliCommand = async (args, io) => {
  let workspace = '.';
  let json = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    if (a === '--workspace') {
      const dir = args[++k];
      if (dir === undefined) return usageError(io, '--workspace needs a directory');
      workspace = dir;
    } else if (a.startsWith('--workspace=')) workspace = a.slice('--workspace='.length);
    else if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') {
      io.stdout.write(USAGE);
      return 0;
    } else return usageError(io, `unexpected argument '${a}'`);
  }
  const root = path.resolve(io.cwd, workspace);
  let reader: NodeWorkspaceReader;
  try {
    reader = new NodeWorkspaceReader([root]);
  } catch {
    return usageError(io, `workspace '${root}' is not an existing directory`);
  }
  const owner = new PlanWorkspace({
    reader,
    writer: new NodeWorkspaceWriter(),
    root: reader.roots[0] as string,
    now: Date.now,
  });
  const plans = await owner.list();
  const comments = plans.map((p) => p.review?.open);
  const builds = await lastBuilds(reader.roots[0] as string);
  if (json) {
    const out = plans.map((p, i) => ({
      stem: p.stem,
      file: p.file,
      title: titleOf(p),
      valid: p.verdict.valid,
      steps: p.verdict.summary.steps.length,
      revisions: p.revisions,
      progress: p.progress ?? null,
      tracker: p.tracker ? { title: p.tracker.title, items: p.tracker.items } : null,
      openComments: comments[i] ?? null,
      lastBuild: builds.get(p.file) ?? null,
    }));
    io.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  if (plans.length === 0) {
    io.stdout.write(`No plans in ${owner.plansDir}.\n`);
    return 0;
  }
  io.stdout.write(table(plans, comments, builds));
  return 0;
};
