/**
 * A build's shell command under the plan's scope and checkpoints. The file tools are
 * asked before they write; a shell command can only be looked at after it ran. So `run_command`
 * scans the workspace before the command (`beforeShell`) and `settleShell` compares after it:
 *
 * - a change inside the plan's scope is kept, checkpointed (the file's state before the build's
 *   first change of it, and as the command left it) and counted in the report, exactly like a
 *   file tool's write, so Revert Build restores it;
 * - a change outside the scope gets the scope decision of any write: `record` keeps and records
 *   it, `ask` puts it to the person (keep it for this file, keep for the build, or stop and
 *   replan), `strict` refuses it. A refused change is **undone** (the file goes back to its bytes
 *   before the command; a created file is removed) and the command's result is not ok, telling
 *   the model to propose a revised plan or keep to the plan's files. Undoing is what a person
 *   expects of "strict": nothing outside the approved files survives the build.
 *
 * The shell's changes do not count as reads: an edit computed on the agent's older read of a file
 * the command changed is refused as "changed since you read it".
 */
import { dirname } from 'node:path';
import { pastTense, type BuildGuard, type ScopeRefusal } from './guard';
import { changesBetween, WATCH_LIMITS, type ShellChange, type TreeScan } from './shellWatch';

/** What became of a command's changes: the note the model reads after the command's output. */
export interface ShellSettlement {
  readonly changes: readonly ShellChange[];
  /** Kept and checkpointed. */
  readonly kept: readonly string[];
  /** Refused by the scope and put back as they were before the command. */
  readonly undone: readonly string[];
  /** Noticed but too large to checkpoint (or to put back). */
  readonly unkept: readonly string[];
  /** Why the undone changes were refused (the first refusal). */
  readonly refusal?: ScopeRefusal;
  readonly truncated: boolean;
  /** Lines for the tool result; empty when the command changed nothing watched. */
  readonly note: string;
  /** The person chose "stop and replan" on one of the changes: the turn ends with this. */
  readonly endsTurn?: string;
}

/** The scan before a command runs. */
export function beforeShell(guard: BuildGuard, signal?: AbortSignal): Promise<TreeScan> {
  return guard.shellWatch.scan(signal);
}

/**
 * After the command: its changes recorded, decided and, where refused, undone. `signal` is the
 * turn's: once it is aborted nobody is asked, and an out-of-scope change is kept and recorded as
 * not asked (it is in the report, and Revert Build can undo it).
 */
export async function settleShell(
  guard: BuildGuard,
  command: string,
  before: TreeScan,
  signal?: AbortSignal,
): Promise<ShellSettlement> {
  const watch = guard.shellWatch;
  const ledger = guard.ledger;
  const after = await watch.scan();
  const changes = changesBetween(ledger.root, before, after);
  const kept: string[] = [];
  const undone: string[] = [];
  const unkept: string[] = [];
  let refusal: ScopeRefusal | undefined;
  for (const change of changes) {
    const beforeBytes = change.before?.hash !== undefined ? await watch.bytes(change.before.hash) : undefined;
    const afterBytes = change.after?.hash !== undefined ? await watch.bytes(change.after.hash) : undefined;
    const restorable = change.before === undefined || beforeBytes !== undefined;
    const recordable = restorable && (change.after === undefined || afterBytes !== undefined);
    const shown = `${change.path} (${pastTense(change.action)})`;
    const refused = await decide(guard, change, command, signal);
    if (refused) {
      refusal ??= refused;
      if (restorable) {
        await undo(guard, change, beforeBytes);
        undone.push(shown);
      } else unkept.push(`${change.path} (too large to keep, so it could not be put back)`);
      continue;
    }
    if (!recordable) {
      unkept.push(`${change.path} (over ${WATCH_LIMITS.maxFileBytes / (1024 * 1024)} MiB: not checkpointed)`);
      continue;
    }
    await ledger.beforeWrite(change.path, beforeBytes);
    await ledger.afterWrite(change.path, beforeBytes, afterBytes, { agentSaw: false });
    kept.push(shown);
  }
  return {
    changes,
    kept,
    undone,
    unkept,
    ...(refusal ? { refusal } : {}),
    truncated: after.truncated,
    note: noteOf(guard, kept, undone, unkept, refusal, after.truncated),
    ...(refusal?.kind === 'replan' ? { endsTurn: `the person chose to stop and replan (${refusal.reason})` } : {}),
  };
}

/** In scope first (kept even after the person chose to replan); otherwise the guard's decision. */
async function decide(
  guard: BuildGuard,
  change: ShellChange,
  command: string,
  signal: AbortSignal | undefined,
): Promise<ScopeRefusal | undefined> {
  const ledger = guard.ledger;
  if (ledger.inScope(change.path)) return undefined;
  if (signal?.aborted && ledger.mode === 'ask' && ledger.alreadyAllowed(change.path) === undefined) {
    ledger.recordDrift(
      change.path,
      change.action,
      'nobody: the run was cancelled before the person could be asked',
      command,
    );
    return undefined;
  }
  return guard.decide(change.path, change.action, signal, command);
}

/** Puts one file back as it was before the command: its bytes restored, or removed when it was created. */
async function undo(guard: BuildGuard, change: ShellChange, beforeBytes: Uint8Array | undefined): Promise<void> {
  const writer = guard.deps.writer;
  if (change.action === 'create') {
    if (!writer.remove) throw new Error(`cannot remove ${change.path}: this host cannot delete files`);
    await writer.remove(change.abs);
    return;
  }
  const disk = guard.deps.diskWriter ?? writer;
  await disk.mkdirp(dirname(change.abs));
  await disk.writeFileAtomic(change.abs, beforeBytes ?? new Uint8Array());
}

function noteOf(
  guard: BuildGuard,
  kept: readonly string[],
  undone: readonly string[],
  unkept: readonly string[],
  refusal: ScopeRefusal | undefined,
  truncated: boolean,
): string {
  const lines: string[] = [];
  if (kept.length > 0) lines.push(`[files this command changed (checkpointed for Revert Build): ${kept.join(', ')}]`);
  if (undone.length > 0 && refusal) {
    const list = undone.join(', ');
    if (refusal.kind === 'out_of_scope') {
      lines.push(
        `[undone: ${list}: outside the approved plan's scope (${guard.scopeText()}); ${refusal.reason}. ` +
          'If the change is needed, propose a revised plan that names these files (a <proposed_plan> block); ' +
          'otherwise keep to the files the plan names]',
      );
    } else if (refusal.kind === 'replan') {
      lines.push(`[undone: ${list}: the person chose to stop and replan because ${refusal.reason}]`);
    } else {
      lines.push(
        `[undone: ${list}: the person stopped this build to replan (${refusal.reason}). Make no more changes; ` +
          'reply with a one-line summary of what was done so far]',
      );
    }
  }
  if (unkept.length > 0) lines.push(`[noticed but not kept: ${unkept.join(', ')}]`);
  if (truncated) {
    lines.push(
      `[the workspace has more than ${WATCH_LIMITS.maxFiles} files; changes beyond them were not checked or checkpointed]`,
    );
  }
  return lines.join('\n');
}
