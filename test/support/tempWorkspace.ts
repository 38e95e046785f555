/** Real files in a temporary folder, for tests that need a workspace on disk. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

export interface TempWorkspace {
  /** Real path of the workspace root. */
  readonly root: string;
  /** Real path of a sibling folder outside the workspace (for escape tests). */
  readonly outside: string;
  readonly reader: NodeWorkspaceReader;
  /** Absolute path of a workspace-relative path. */
  path(rel: string): string;
  write(rel: string, content: string | Uint8Array): string;
  mkdir(rel: string): string;
  /** Creates a symlink at `rel` pointing to `target` (absolute, or relative to the link's folder). */
  symlink(rel: string, target: string, type?: 'file' | 'dir'): string;
  cleanup(): void;
}

/** `files` maps workspace-relative paths to contents; a path ending in `/` makes an empty folder. */
export function makeTempWorkspace(files: Record<string, string | Uint8Array> = {}): TempWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-ws-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  const path = (rel: string) => join(root, rel);
  const write = (rel: string, content: string | Uint8Array) => {
    const p = path(rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    return p;
  };
  const mkdir = (rel: string) => {
    const p = path(rel);
    mkdirSync(p, { recursive: true });
    return p;
  };
  for (const [rel, content] of Object.entries(files)) {
    if (rel.endsWith('/')) mkdir(rel);
    else write(rel, content);
  }
  return {
    root,
    outside,
    reader: new NodeWorkspaceReader([root]),
    path,
    write,
    mkdir,
    symlink(rel, target, type = 'file') {
      const p = path(rel);
      mkdirSync(dirname(p), { recursive: true });
      symlinkSync(target, p, type);
      return p;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
