import { closeSync, fstatSync, lstatSync, openSync, promises as fsp, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DirEntry, EntryType, FileStat, WorkspaceReader, WorkspaceWriter } from '../core/api/ports';

function typeOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  if (s.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** How long metadata lookups may run on the event loop before they let other work in. */
const SLICE_MS = 2;

/** Files up to this size are read on the event loop (see `readFile`); larger ones on the thread pool. */
export const SYNC_READ_MAX_BYTES = 256 * 1024;

/** A monotonic clock in milliseconds, without loading perf_hooks (this file is in `check-command`'s bundle). */
const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** The real path of the folder `dir`; throws ENOENT, or ENOTDIR when it is no folder. */
function folderRoot(dir: string): string {
  if (process.platform !== 'win32') return realpathSync.native(dir.endsWith('/') ? dir : `${dir}/`);
  const real = realpathSync.native(dir);
  if (!statSync(real).isDirectory())
    throw Object.assign(new Error(`ENOTDIR: not a folder, '${real}'`), { code: 'ENOTDIR' });
  return real;
}

/**
 * Node file-system reader over one or more workspace roots. Roots are resolved to real paths once.
 *
 * `realpath` and `stat` are metadata lookups of a few microseconds: a thread-pool round trip costs
 * ten times more than the lookup itself, and the gate makes one per path word. So they run on the
 * event loop, and after every 2 ms of them the next one waits for a turn of the loop
 * (`setImmediate`): the loop is never held longer than that, however many paths one command names.
 * A small file is read the same way: `fs.promises.readFile` is four thread-pool round trips (open,
 * fstat, read, close), each of which can cost the loop its time slice on a busy machine, for a read
 * of microseconds from the page cache. Larger files, files whose size is unknown (0, as /proc
 * reports) and directories are read on the thread pool.
 */
export class NodeWorkspaceReader implements WorkspaceReader {
  readonly roots: readonly string[];
  /** When the current slice began: at the first lookup, so a reader that looks nothing up reads no clock. */
  private sliceStart: number | undefined;

  /** Throws (ENOENT, ENOTDIR) unless every root is an existing folder. */
  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw new Error('a workspace needs at least one root folder');
    // The same resolution as realpath() below (one system call), so a root and the paths under it
    // are always compared in one spelling. On POSIX a trailing slash makes that call refuse a file
    // (ENOTDIR), so no stat is needed to know a root is a folder.
    this.roots = roots.map((r) => folderRoot(resolve(r)));
  }

  /** Resolves at once while this slice lasts; else after the loop had a turn. */
  private turn(): Promise<void> | undefined {
    const now = nowMs();
    this.sliceStart ??= now;
    if (now - this.sliceStart < SLICE_MS) return undefined;
    return new Promise((res) =>
      setImmediate(() => {
        this.sliceStart = nowMs();
        res();
      }),
    );
  }

  async realpath(path: string): Promise<string> {
    const wait = this.turn();
    if (wait) await wait;
    return realpathSync.native(path);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const wait = this.turn();
    if (wait) await wait;
    try {
      const s = statSync(path, { throwIfNoEntry: false });
      return s ? { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async exists(path: string): Promise<boolean> {
    const wait = this.turn();
    if (wait) await wait;
    try {
      return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // ENOTDIR, EACCES: nothing the shell could name there
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    const wait = this.turn();
    if (wait) await wait;
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size > 0 && size <= SYNC_READ_MAX_BYTES) {
        const data = Buffer.allocUnsafe(size);
        let got = 0;
        for (let n = -1; got < size && n !== 0; got += n) n = readSync(fd, data, got, size - got, got);
        return got === size ? data : data.subarray(0, got);
      }
    } finally {
      closeSync(fd);
    }
    return fsp.readFile(path);
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await fsp.readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, type: typeOf(e) }));
  }
}

/** Atomic writes: the data goes to a temporary file in the same folder, is flushed, then renamed over the target. */
export class NodeWorkspaceWriter implements WorkspaceWriter {
  async writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
    const dir = dirname(path);
    await fsp.mkdir(dir, { recursive: true });
    const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await fsp.open(tmp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fsp.rename(tmp, path);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async mkdirp(path: string): Promise<void> {
    await fsp.mkdir(path, { recursive: true });
  }

  /** Deletes one file (the build's `delete_file`). */
  async remove(path: string): Promise<void> {
    await fsp.unlink(path);
  }
}

export function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
