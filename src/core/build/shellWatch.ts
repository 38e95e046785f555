/**
 * What a build's shell command changed. `run_command` may write anywhere, so before it
 * runs the workspace is scanned through the reader port: every file's size and mtime, and its bytes
 * kept by content hash in the session's checkpoint store (only files new or changed since the last
 * scan are read again, so the second and later scans of a build are a stat walk). After it runs,
 * the same scan says which files it created, edited or deleted, with their bytes before and after;
 * `shellSettle.ts` records them in the ledger and the scope guard.
 *
 * Watched: the workspace's first root, minus what the listing tools skip (dependency, build-output,
 * cache and VCS folders; `.gitignore`d entries) and Planwise's own `.vtcode` folder. Build output
 * in those places is not checkpointed and not scope-checked. A file over `maxFileBytes` is noticed
 * but not kept (Revert Build cannot restore it, and the run says so); past `maxFiles` the scan stops
 * and says so.
 */
import { join } from 'node:path';
import type { WorkspaceReader } from '../ports';
import { IgnoreRules } from '../tools/ignoreRules';
import { hashOf, type WriteAction } from './ledger';
import type { CheckpointStore } from './ports';

export interface WatchLimits {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
}

export const WATCH_LIMITS: WatchLimits = { maxFiles: 20_000, maxFileBytes: 8 * 1024 * 1024 };

/** One file as a scan saw it; `hash` is absent for a file too large to keep. */
export interface SeenFile {
  readonly size: number;
  readonly mtimeMs: number;
  readonly hash?: string;
}

export interface TreeScan {
  /** Workspace-relative paths (forward slashes). */
  readonly files: ReadonlyMap<string, SeenFile>;
  /** The scan stopped at `maxFiles`. */
  readonly truncated: boolean;
}

export interface ShellChange {
  readonly path: string;
  readonly abs: string;
  readonly action: Extract<WriteAction, 'create' | 'edit' | 'delete'>;
  readonly before?: SeenFile;
  readonly after?: SeenFile;
}

/** Coarser than any file system's mtime resolution (FAT's 2 s). */
const RACY_MS = 2_000;

/** Planwise's own folder (the CLI's sessions and checkpoints): never a build command's change. */
const OWN_DIR = '.vtcode';

export class WorkspaceWatch {
  /** The last scan's view of each file: a file whose size and mtime match is not read again. */
  private readonly known = new Map<string, SeenFile & { readonly seenAt: number }>();
  /** Bytes by hash when the host gave no checkpoint store (tests, a host without storage). */
  private readonly memory = new Map<string, Uint8Array>();

  constructor(
    private readonly reader: WorkspaceReader,
    private readonly root: string,
    private readonly store: CheckpointStore | undefined,
    /** Wall-clock milliseconds, to tell a file already old when it was seen from one changed around then. */
    private readonly now: () => number,
    private readonly limits: WatchLimits = WATCH_LIMITS,
  ) {}

  /** Every watched file's size, mtime and content hash; new and changed files' bytes are stored. */
  async scan(signal?: AbortSignal): Promise<TreeScan> {
    const rules = new IgnoreRules(this.reader, this.root);
    const files = new Map<string, SeenFile>();
    const queue: { abs: string; rel: string }[] = [{ abs: this.root, rel: '' }];
    let truncated = false;
    for (let q = 0; q < queue.length && !truncated; q++) {
      signal?.throwIfAborted();
      const { abs, rel } = queue[q]!;
      let entries;
      try {
        entries = await this.reader.readDir(abs);
      } catch {
        continue; // unreadable folder: nothing in it is watched
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const childAbs = join(abs, entry.name);
        const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (childRel === OWN_DIR) continue;
        if (entry.type === 'dir') {
          if ((await rules.check(childAbs, true)) === undefined) queue.push({ abs: childAbs, rel: childRel });
          continue;
        }
        if (entry.type !== 'file') continue; // symlinks are not followed; their targets are watched where they lie
        if ((await rules.check(childAbs, false)) !== undefined) continue;
        if (files.size >= this.limits.maxFiles) {
          truncated = true;
          break;
        }
        const seen = await this.see(childRel, childAbs);
        if (seen) files.set(childRel, seen);
      }
    }
    return { files, truncated };
  }

  /** A file's bytes by the hash a scan recorded. */
  async bytes(hash: string): Promise<Uint8Array | undefined> {
    return this.memory.get(hash) ?? (await this.store?.get(hash));
  }

  private async see(rel: string, abs: string): Promise<SeenFile | undefined> {
    const stat = await this.reader.stat(abs);
    if (!stat || stat.type !== 'file') return undefined;
    const had = this.known.get(rel);
    // Size and mtime vouch for the content only when the file was already older than the file
    // system's timestamp resolution when it was seen (else a same-size rewrite in the same tick hides).
    const settled = had !== undefined && had.mtimeMs < had.seenAt - RACY_MS;
    if (had && settled && had.size === stat.size && had.mtimeMs === stat.mtimeMs) return had;
    let seen: SeenFile;
    if (stat.size > this.limits.maxFileBytes) seen = { size: stat.size, mtimeMs: stat.mtimeMs };
    else {
      let data: Uint8Array;
      try {
        data = await this.reader.readFile(abs);
      } catch {
        return undefined; // vanished or unreadable between the listing and the read
      }
      const hash = hashOf(data);
      if (this.store) await this.store.put(hash, data);
      else this.memory.set(hash, data);
      seen = { size: data.length, mtimeMs: stat.mtimeMs, hash };
    }
    this.known.set(rel, { ...seen, seenAt: this.now() });
    return seen;
  }
}

/** The files created, edited (content changed; an mtime alone is not a change) and deleted between two scans. */
export function changesBetween(root: string, before: TreeScan, after: TreeScan): ShellChange[] {
  const out: ShellChange[] = [];
  const abs = (rel: string) => join(root, ...rel.split('/'));
  for (const [rel, now] of after.files) {
    const was = before.files.get(rel);
    if (!was) out.push({ path: rel, abs: abs(rel), action: 'create', after: now });
    else if (
      was.hash !== now.hash ||
      (was.hash === undefined && (was.size !== now.size || was.mtimeMs !== now.mtimeMs))
    )
      out.push({ path: rel, abs: abs(rel), action: 'edit', before: was, after: now });
  }
  // A file missing from a truncated scan may only lie past the cut.
  if (!after.truncated) {
    for (const [rel, was] of before.files)
      if (!after.files.has(rel)) out.push({ path: rel, abs: abs(rel), action: 'delete', before: was });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
