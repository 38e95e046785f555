/**
 * `planwise revert [--workspace DIR] [--to-step N] [--yes] <session>`: Revert Build. Shows the
 * diff it will undo, then restores every file the build touched to its state before the build
 * (edited and deleted files restored, created files removed), or to the checkpoint taken when
 * step N completed. Files the build never touched are left alone. On a terminal it asks first
 * (unless --yes), and asks again for each file changed since the build; without a terminal it
 * proceeds. The checkpoints live beside the session archive, in .vtcode/sessions/<id>.checkpoints.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { PlanWorkspace, resultIn } from '../../core/api/plans';
import {
  Verifier,
  VerifyJournal,
  afterRevert,
  closedReport,
  parseManifest,
  planRevert,
  reportText,
  type RevertItem,
} from '../../core/api/build';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../node/fsWorkspace';
import { checkSessionId } from '../../node/fileArchiveStore';
import { FileCheckpointStore } from '../../node/fileCheckpointStore';
import { applyRevertOnDisk, readOnDisk } from '../../node/revertFiles';
import { SESSIONS_DIR } from '../builds';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';

const USAGE = `Usage: planwise revert [--workspace DIR] [--to-step N] [--yes] <session-id>

Reverts what a build changed: every file the build touched goes back to its state before the
build (edited and deleted files are restored, created files removed); files it never touched are
left alone. --to-step N goes back to the checkpoint taken when step N completed instead.
The diff is shown first. On a terminal you are asked to confirm (unless --yes), and asked again for
each file that was changed after the build; without a terminal the revert proceeds.

Options:
  --workspace DIR  workspace root (default: the current directory)
  --to-step N      revert to the checkpoint of step N (e.g. 2, or 2.1)
  --yes            do not ask
  -h, --help       show this help

Exit status: 0 reverted (or nothing to revert), 1 declined or failed, 2 usage error or no checkpoints.
`;

interface Flags {
  workspace?: string;
  toStep?: string;
  yes: boolean;
  id?: string;
}

function parse(args: readonly string[]): Flags | { error: string } | { help: true } {
  const f: Flags = { yes: false };
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    const [name, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    if (name === '-h' || name === '--help') return { help: true };
    if (name === '--yes' || name === '-y') f.yes = true;
    else if (name === '--workspace' || name === '--to-step') {
      const v = inline ?? args[++k];
      if (v === undefined) return { error: `${name} needs a value` };
      if (name === '--workspace') f.workspace = v;
      else if (/^\d+(\.\d+)*$/.test(v)) f.toStep = v;
      else return { error: `--to-step needs a step number such as 2 or 2.1, not '${v}'` };
    } else if (a.startsWith('-')) return { error: `unknown option '${a}'` };
    else if (f.id === undefined) f.id = a;
    else return { error: `one session id only ('${f.id}', then '${a}')` };
  }
  return f;
}

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise revert: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

export const revertCommand: CliCommand = async (args, io) => {
  const flags = parse(args);
  if ('help' in flags) {
    io.stdout.write(USAGE);
    return 0;
  }
  if ('error' in flags) return usageError(io, flags.error);
  if (flags.id === undefined)
    return usageError(io, "give the session id of the build to revert ('planwise plans' lists each plan's last build)");
  try {
    checkSessionId(flags.id);
  } catch (err) {
    return usageError(io, (err as Error).message);
  }
  let root: string;
  try {
    root = realpathSync(path.resolve(io.cwd, flags.workspace ?? '.'));
  } catch {
    return usageError(io, `the workspace '${flags.workspace ?? '.'}' is not an existing directory`);
  }
  const store = new FileCheckpointStore(path.join(root, SESSIONS_DIR), flags.id);
  const manifest = parseManifest(await store.readManifest());
  if (!manifest) {
    io.stderr.write(`planwise revert: session '${flags.id}' has no build checkpoints in ${store.dir}\n`);
    return EXIT_USAGE;
  }
  const planned = await planRevert(manifest, store, readOnDisk, flags.toStep);
  if (!planned.ok) {
    io.stderr.write(`planwise revert: ${planned.error}\n`);
    return EXIT_USAGE;
  }
  const plan = planned.plan;
  const target = flags.toStep !== undefined ? `the checkpoint of step ${flags.toStep}` : 'its state before the build';
  if (plan.items.length === 0) {
    io.stdout.write(`Nothing to revert: every file the build touched is already at ${target}.\n`);
    return 0;
  }
  io.stdout.write(plan.diff.endsWith('\n') ? plan.diff : `${plan.diff}\n`);
  const terminal = io.stdin.isTTY === true && !flags.yes;
  const rl = terminal ? createInterface({ input: io.stdin, output: io.stdout }) : undefined;
  const yes = async (question: string) => /^\s*y(es)?\s*$/i.test((await rl!.question(question)) ?? '');
  let chosen: RevertItem[] = [...plan.items];
  try {
    if (rl) {
      const n = plan.items.length;
      if (!(await yes(`Revert ${n} file${n === 1 ? '' : 's'} to ${target}? [y/N] `))) {
        io.stdout.write('Nothing was reverted.\n');
        return 1;
      }
      chosen = [];
      for (const item of plan.items) {
        if (!item.personChanged || (await yes(`${item.path} was changed after the build; revert it anyway? [y/N] `))) {
          chosen.push(item);
        }
      }
    } else {
      for (const item of plan.items.filter((i) => i.personChanged)) {
        io.stdout.write(`! ${item.path} was changed after the build; reverting it too (no terminal to ask).\n`);
      }
    }
  } finally {
    rl?.close();
  }
  await applyRevertOnDisk(chosen);
  const reverted = afterRevert(manifest, chosen);
  await store.writeManifest(JSON.stringify(reverted));
  const restored = chosen.filter((i) => i.op === 'restore').map((i) => i.path);
  const removed = chosen.filter((i) => i.op === 'remove').map((i) => i.path);
  const kept = plan.items.filter((i) => !chosen.includes(i)).map((i) => i.path);
  const parts = [
    restored.length > 0 ? `restored ${restored.join(', ')}` : '',
    removed.length > 0 ? `removed ${removed.join(', ')}` : '',
    kept.length > 0 ? `kept your changes to ${kept.join(', ')}` : '',
  ].filter((p) => p !== '');
  io.stdout.write(`Reverted to ${target}: ${parts.join('; ')}.\n`);
  // The plan's tracker follows the files: the steps the revert undid are pending again.
  if (manifest.planFile !== undefined) {
    const reader = new NodeWorkspaceReader([root]);
    const writer = new NodeWorkspaceWriter();
    // Runs nothing: it holds the plan's kept results, so those of the reverted steps are forgotten.
    const verifier = new Verifier({
      cwd: () => root,
      now: Date.now,
      policy: () => ({ roots: [root], trusted: false, fs: reader, allowList: [] }),
      journal: new VerifyJournal({ reader, writer }),
    });
    const plans = new PlanWorkspace({ reader, writer, root, now: Date.now, verifier });
    const after = await plans.reverted(manifest.planFile, flags.toStep).catch((err: unknown) => {
      io.stderr.write(`planwise revert: the plan's tracker was not updated (${String(err)})\n`);
      return undefined;
    });
    if (after?.progress) {
      const p = after.progress;
      io.stdout.write(`The plan's tracker: ${p.counts.done}/${p.counts.total} done (${p.percent}%).\n`);
    }
    // The build's report follows the tracker: the steps the revert undid are no longer done.
    const report = after
      ? closedReport(reverted, {
          planFile: after.file,
          revisions: after.revisions,
          title: after.verdict.summary.title,
          tracker: after.tracker,
          latest: (step, entry) => resultIn(after, step, entry),
        })
      : undefined;
    if (report) {
      const { file, markdown } = reportText(root, report);
      try {
        await writer.writeFileAtomic(file, markdown);
        io.stdout.write(
          `The build's report: ${path.relative(root, file)} (${report.counts.stepsDone} of ${report.counts.stepsTotal} steps done).\n`,
        );
      } catch (err) {
        io.stderr.write(`planwise revert: the build's report was not written (${String(err)})\n`);
      }
    }
  }
  return 0;
};
