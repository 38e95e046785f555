/**
 * VS Code's `files.exclude` for listings. The core's `list_files` already honours `.gitignore`;
 * this reader wrapper drops what `files.exclude` hides too, so the agent sees the tree the person
 * sees in the Explorer. Reads of a named file are not affected.
 */
import { extname, relative, sep } from 'node:path';
import { globToRegExpSource } from '../../core/api/basics';
import type { DirEntry, FileStat, WorkspaceReader } from '../../core/api/ports';

/** The setting's shape: a glob to `true`/`false`, or to `{ when: "$(basename).ts" }`. */
export type FilesExcludeSetting = Readonly<Record<string, unknown>>;

interface Rule {
  readonly re: RegExp;
  /** Sibling that must exist for the rule to apply, with `$(basename)` in it. */
  readonly when?: string;
}

export type ExcludeMatcher = (relPath: string, siblingNames: ReadonlySet<string>) => boolean;

/** Compiles the setting once. Patterns are matched against the path relative to the workspace folder. */
export function compileFilesExclude(setting: FilesExcludeSetting | undefined): ExcludeMatcher {
  const rules: Rule[] = [];
  for (const [pattern, value] of Object.entries(setting ?? {})) {
    if (
      value !== true &&
      !(value && typeof value === 'object' && typeof (value as { when?: unknown }).when === 'string')
    ) {
      continue;
    }
    const glob = pattern.trim().replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
    if (glob === '') continue;
    const re = new RegExp(`^${globToRegExpSource(glob)}$`);
    rules.push(value === true ? { re } : { re, when: (value as { when: string }).when });
  }
  if (rules.length === 0) return () => false;
  return (relPath, siblings) =>
    rules.some((r) => {
      if (!r.re.test(relPath)) return false;
      if (r.when === undefined) return true;
      const name = relPath.slice(relPath.lastIndexOf('/') + 1);
      const stem = name.slice(0, name.length - extname(name).length);
      return siblings.has(r.when.replace(/\$\(basename\)/g, stem));
    });
}

/** A `WorkspaceReader` whose directory listings leave out what `files.exclude` hides. */
export class ExcludingReader implements WorkspaceReader {
  constructor(
    private readonly inner: WorkspaceReader,
    /** Read at every listing, so a changed setting applies at once. */
    private readonly matcher: () => ExcludeMatcher,
  ) {}

  get roots(): readonly string[] {
    return this.inner.roots;
  }

  realpath(path: string): Promise<string> {
    return this.inner.realpath(path);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.inner.stat(path);
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.inner.readFile(path);
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await this.inner.readDir(path);
    const root = this.rootOf(path);
    if (root === undefined) return entries;
    const isExcluded = this.matcher();
    const names = new Set(entries.map((e) => e.name));
    const relDir = relative(root, path).split(sep).join('/');
    return entries.filter((e) => !isExcluded(relDir === '' ? e.name : `${relDir}/${e.name}`, names));
  }

  private rootOf(path: string): string | undefined {
    let best: string | undefined;
    for (const r of this.inner.roots) {
      const rel = relative(r, path);
      if (rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel))) {
        if (best === undefined || r.length > best.length) best = r;
      }
    }
    return best;
  }
}
