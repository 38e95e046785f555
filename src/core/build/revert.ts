/**
 * Revert Build: from a build's manifest, what reverting changes, file by file. The
 * whole build reverts to each touched file's state before the build (edited files restored,
 * created files removed, deleted files restored); "to step N" reverts to the checkpoint taken
 * when step N completed (a file first touched after it goes back to its state before the build).
 * Files the build never touched are not in the manifest, so they are never part of a revert. A
 * file whose current content is neither what the build left nor a state a Planwise revert left is
 * marked `personChanged`: the host asks about it first. Applying is the host's (VS Code: one
 * undoable WorkspaceEdit).
 */
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { looksBinary } from '../tools/result';
import { sameState, stateOf, type BuildManifest, type FileState } from './ledger';
import type { CheckpointStore } from './ports';

export interface RevertItem {
  /** Workspace-relative, forward slashes. */
  readonly path: string;
  readonly abs: string;
  /** `restore`: write `data` (an edited or deleted file); `remove`: delete a file the build created. */
  readonly op: 'restore' | 'remove';
  readonly data?: Uint8Array;
  /** The file was created by the build (remove) or deleted by it (restore of a missing file). */
  readonly existsNow: boolean;
  /**
   * The current content is neither what the build left nor a state a Planwise revert left (nor,
   * so, what an Undo of such a revert gives back): the person changed it since.
   */
  readonly personChanged: boolean;
  readonly binary: boolean;
  /** What reverting this file changes, as a unified diff (current → restored); a note for binary files. */
  readonly diff: string;
}

export interface RevertPlan {
  readonly items: readonly RevertItem[];
  /** Touched files already in the state the revert would give them. */
  readonly unchanged: readonly string[];
  readonly toStep?: string;
  /** The whole plan's diff, for the confirmation. */
  readonly diff: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function textOf(data: Uint8Array | undefined): string | undefined {
  if (data === undefined) return '';
  if (looksBinary(data)) return undefined;
  try {
    return decoder.decode(data);
  } catch {
    return undefined;
  }
}

/** The state each touched file goes back to. */
export function revertTargets(
  manifest: BuildManifest,
  toStep?: string,
): { ok: true; targets: Map<string, FileState> } | { ok: false; error: string } {
  const targets = new Map<string, FileState>(Object.entries(manifest.baseline));
  if (toStep === undefined) return { ok: true, targets };
  const checkpoint = [...manifest.checkpoints].reverse().find((c) => c.step === toStep);
  if (!checkpoint) {
    const done = [...new Set(manifest.checkpoints.map((c) => c.step))].filter((s) => s !== undefined);
    return {
      ok: false,
      error: `step ${toStep} never completed in this build, so it has no checkpoint${done.length > 0 ? ` (steps with one: ${done.join(', ')})` : ' (no step completed)'}`,
    };
  }
  for (const [path, state] of Object.entries(checkpoint.files)) targets.set(path, state);
  return { ok: true, targets };
}

/**
 * What reverting changes. `readCurrent` is the file's content as the person has it now (an open
 * document's text in VS Code), undefined when it is missing.
 */
export async function planRevert(
  manifest: BuildManifest,
  store: CheckpointStore,
  readCurrent: (abs: string) => Promise<Uint8Array | undefined>,
  toStep?: string,
): Promise<{ ok: true; plan: RevertPlan } | { ok: false; error: string }> {
  const t = revertTargets(manifest, toStep);
  if (!t.ok) return t;
  const items: RevertItem[] = [];
  const unchanged: string[] = [];
  for (const [path, target] of t.targets) {
    const abs = join(manifest.root, ...path.split('/'));
    const current = await readCurrent(abs);
    const now = stateOf(current);
    if (sameState(now, target)) {
      unchanged.push(path);
      continue;
    }
    let data: Uint8Array | undefined;
    if (target.kind === 'file') {
      data = await store.get(target.hash);
      if (!data) return { ok: false, error: `the checkpoint of ${path} is missing from the session's storage` };
    }
    const before = textOf(current);
    const after = textOf(data);
    const binary = before === undefined || after === undefined;
    const diff = binary
      ? `Binary file ${path}: ${current ? `${current.length} bytes` : 'absent'} -> ${data ? `${data.length} bytes` : 'removed'}\n`
      : createTwoFilesPatch(
          current ? `a/${path}` : '/dev/null',
          data ? `b/${path}` : '/dev/null',
          before ?? '',
          after ?? '',
          undefined,
          undefined,
          { context: 3 },
        ).replace(/^=+\n/, '');
    items.push({
      path,
      abs,
      op: target.kind === 'absent' ? 'remove' : 'restore',
      ...(data ? { data } : {}),
      existsNow: current !== undefined,
      personChanged: !planwiseLeft(manifest, path).some((state) => sameState(now, state)),
      binary,
      diff,
    });
  }
  return {
    ok: true,
    plan: {
      items,
      unchanged,
      ...(toStep !== undefined ? { toStep } : {}),
      diff: items.map((i) => i.diff).join(''),
    },
  };
}

/** The states Planwise left `path` in: the build's result, then each state a revert left it in. */
function planwiseLeft(manifest: BuildManifest, path: string): FileState[] {
  const built = manifest.current[path];
  return [...(built ? [built] : []), ...(manifest.reverted?.[path] ?? [])];
}

/**
 * The manifest after a revert: each reverted file's new state is recorded as one a Planwise revert
 * left, beside the build's result, which stays what the build left.
 */
export function afterRevert(manifest: BuildManifest, applied: readonly RevertItem[]): BuildManifest {
  const reverted: Record<string, FileState[]> = { ...manifest.reverted };
  for (const item of applied) {
    const state = stateOf(item.op === 'remove' ? undefined : item.data);
    const known = reverted[item.path] ?? [];
    if (!known.some((s) => sameState(s, state))) reverted[item.path] = [...known, state];
  }
  return { ...manifest, reverted };
}

export function parseManifest(text: string | undefined): BuildManifest | undefined {
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as BuildManifest;
    return m && m.version === 1 && typeof m.root === 'string' && m.baseline ? m : undefined;
  } catch {
    return undefined;
  }
}
