import { promises as fsp, realpathSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DirEntry, EntryType, FileStat, WorkspaceReader, WorkspaceWriter } from '../core/ports';

function typeOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  if (s.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Node file-system reader over one or more workspace roots. Roots are resolved to real paths once. */
export class NodeWorkspaceReader implements WorkspaceReader {
  readonly roots: readonly string[];

  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw new Error('a workspace needs at least one root folder');
    this.roots = roots.map((r) => realpathSync(resolve(r)));
  }

  realpath(path: string): Promise<string> {
    return fsp.realpath(path);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await fsp.stat(path);
      return { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
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
}

export function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
