/**
 * `requireVerifyToComplete`: a step with `verify:` commands becomes completed only after every one
 * of them ran and passed. A failing verify leaves the step in progress with its output attached.
 */
import type { CommandRunner } from '../ports';
import type { TaskItem, Tracker } from '../plan/tracker';
import type { TrackerAction } from '../plan/trackerActions';
import { EXEC_ENV } from '../tools/execCommand';
import type { TrackerHandle } from '../tools/session/context';

export interface VerifyResult {
  readonly command: string;
  readonly exitCode: number | null;
  readonly at: number;
  readonly output: string;
}

export interface VerifyGateOptions {
  readonly runner?: CommandRunner;
  readonly root: string;
  readonly now: () => number;
  readonly required: boolean;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Where results are kept by item path ("2.1"), for the tracker view. */
  readonly results: Map<string, VerifyResult>;
}

const OUTPUT_TAIL = 4000;

/** The item an `update` action addresses, with its path, or undefined. */
export function addressedItem(
  tracker: Tracker | undefined,
  action: TrackerAction,
): { path: string; item: TaskItem } | undefined {
  if (!tracker || action.action !== 'update' || action.items !== undefined) return undefined;
  const path = action.index_path ?? (action.index !== undefined && action.index > 0 ? String(action.index) : undefined);
  if (path === undefined) return undefined;
  let items = tracker.items;
  let item: TaskItem | undefined;
  for (const part of path.split('.')) {
    item = items[Number(part) - 1];
    if (!item) return undefined;
    items = item.children;
  }
  return item ? { path, item } : undefined;
}

/** Runs one verify command in the workspace root and records the result. */
export async function runVerify(command: string, path: string, o: VerifyGateOptions): Promise<VerifyResult> {
  if (!o.runner) {
    const r = {
      command,
      exitCode: null,
      at: o.now(),
      output: 'verify commands cannot run here: this host has no shell',
    };
    o.results.set(path, r);
    return r;
  }
  const run = await o.runner.run(command, {
    cwd: o.root,
    env: EXEC_ENV,
    timeoutMs: o.timeoutMs ?? 300_000,
    maxOutputBytes: 256 * 1024,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const output = `${run.stdout}${run.stderr ? `\n${run.stderr}` : ''}${run.timedOut ? '\n(timed out)' : ''}`;
  const r = { command, exitCode: run.exitCode, at: o.now(), output: output.slice(-OUTPUT_TAIL) };
  o.results.set(path, r);
  return r;
}

/** Wraps a tracker handle so "completed" on a step with verify commands first runs them. */
export function verifyingTracker(inner: TrackerHandle, o: VerifyGateOptions): TrackerHandle {
  return {
    get: () => inner.get(),
    async apply(action) {
      const target = o.required && action.status === 'completed' ? addressedItem(inner.get(), action) : undefined;
      if (!target || target.item.verify.length === 0) return inner.apply(action);
      for (const command of target.item.verify) {
        const r = await runVerify(command, target.path, o);
        if (r.exitCode !== 0) {
          await inner.apply({ action: 'update', index_path: target.path, status: 'in_progress' });
          const code = r.exitCode === null ? 'did not finish' : `exit ${r.exitCode}`;
          return {
            ok: false,
            error: `step ${target.path} stays in progress: verify \`${command}\` failed (${code}).\n${r.output}`,
          };
        }
      }
      return inner.apply(action);
    },
  };
}
