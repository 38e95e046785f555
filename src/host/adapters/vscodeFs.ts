/**
 * The workspace ports over `vscode.workspace.fs`, written against a structural copy of that API
 * so it can be exercised without VS Code. Writes are atomic: a temporary file beside the target,
 * then a rename over it.
 */
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DirEntry, EntryType, FileStat, WorkspaceReader, WorkspaceWriter } from '../../core/api/ports';

/** `vscode.FileType` bit values. */
export const FILE_TYPE = { File: 1, Directory: 2, SymbolicLink: 64 } as const;

/** The part of `vscode.workspace.fs` used here, generic in the URI type. */
export interface FsApi<U> {
  stat(uri: U): PromiseLike<{ type: number; size: number; mtime: number }>;
  readFile(uri: U): PromiseLike<Uint8Array>;
  readDirectory(uri: U): PromiseLike<[string, number][]>;
  writeFile(uri: U, content: Uint8Array): PromiseLike<void>;
  rename(source: U, target: U, options: { overwrite: boolean }): PromiseLike<void>;
  createDirectory(uri: U): PromiseLike<void>;
  delete(uri: U, options?: { recursive?: boolean; useTrash?: boolean }): PromiseLike<void>;
}

export function entryTypeOf(type: number): EntryType {
  if (type & FILE_TYPE.Directory) return 'dir';
  if (type & FILE_TYPE.File) return 'file';
  if (type & FILE_TYPE.SymbolicLink) return 'symlink';
  return 'other';
}

/** VS Code's `FileSystemError.FileNotFound` (code 'FileNotFound'), or a Node ENOENT. */
export function isNotFound(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown } | null;
  return (
    e?.code === 'FileNotFound' ||
    e?.code === 'ENOENT' ||
    e?.code === 'ENOTDIR' ||
    (typeof e?.name === 'string' && e.name.includes('EntryNotFound'))
  );
}

function enoent(path: string, cause: unknown): Error {
  const err = new Error(`no such file or directory: ${path}`, { cause }) as Error & { code: string };
  err.code = 'ENOENT';
  return err;
}

export class VscodeWorkspaceReader<U> implements WorkspaceReader {
  constructor(
    readonly roots: readonly string[],
    private readonly fs: FsApi<U>,
    private readonly toUri: (path: string) => U,
    /** `workspace.fs` has no realpath; the host passes Node's (the extension host runs on the files' machine). */
    private readonly realpathOf: (path: string) => Promise<string>,
  ) {
    if (roots.length === 0) throw new Error('Open a folder first: Planwise works inside a workspace folder.');
  }

  async realpath(path: string): Promise<string> {
    try {
      return await this.realpathOf(path);
    } catch (err) {
      if (isNotFound(err)) throw enoent(path, err);
      throw err;
    }
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await this.fs.stat(this.toUri(path));
      return { type: entryTypeOf(s.type), size: s.size, mtimeMs: s.mtime };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    try {
      return await this.fs.readFile(this.toUri(path));
    } catch (err) {
      if (isNotFound(err)) throw enoent(path, err);
      throw err;
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    try {
      const entries = await this.fs.readDirectory(this.toUri(path));
      return entries.map(([name, type]) => ({ name, type: entryTypeOf(type) }));
    } catch (err) {
      if (isNotFound(err)) throw enoent(path, err);
      throw err;
    }
  }
}

export class VscodeWorkspaceWriter<U> implements WorkspaceWriter {
  constructor(
    private readonly fs: FsApi<U>,
    private readonly toUri: (path: string) => U,
    /**
     * The rename that puts the temporary file in place. `workspace.fs.rename` over a file open in an
     * editor closes that editor (a plan file, while its tracker updates), so the host passes Node's,
     * after which VS Code sees a plain change and reloads the editor.
     */
    private readonly renameOf?: (source: string, target: string) => Promise<void>,
  ) {}

  async writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
    const dir = dirname(path);
    await this.fs.createDirectory(this.toUri(dir));
    const tmp = join(dir, `.${basename(path)}.planwise-${randomBytes(4).toString('hex')}.tmp`);
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    await this.fs.writeFile(this.toUri(tmp), bytes);
    try {
      if (this.renameOf) await this.renameOf(tmp, path);
      else await this.fs.rename(this.toUri(tmp), this.toUri(path), { overwrite: true });
    } catch (err) {
      await Promise.resolve(this.fs.delete(this.toUri(tmp), { useTrash: false })).catch(() => undefined);
      throw err;
    }
  }

  async mkdirp(path: string): Promise<void> {
    await this.fs.createDirectory(this.toUri(path));
  }
}
