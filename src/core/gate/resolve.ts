/**
 * Where a path word really points (rules §1.1 step 8), on the real file system through the gate's
 * port. Each distinct path is looked up once per judged command. A `..` after a symlink is
 * resolved as the kernel resolves it (from the symlink's target), and also lexically, as programs
 * that normalise paths themselves do; both must stay inside the workspace.
 */
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import type { FileStat } from '../ports';
import type { GateFs, GateWork } from './types';

/** Whether `absPath` is one of `roots` or lies below one, comparing normalised paths lexically. */
export function isInsideRoots(absPath: string, roots: readonly string[]): boolean {
  if (!isAbsolute(absPath)) return false;
  const target = resolve(absPath);
  for (const root of roots) {
    const base = resolve(root);
    if (target === base) return true;
    const prefix = base.endsWith(sep) ? base : base + sep;
    if (target.startsWith(prefix)) return true;
  }
  return false;
}

function hasDotDot(p: string): boolean {
  if (!p.includes('..')) return false;
  for (const part of p.split('/')) if (part === '..') return true;
  return false;
}

export class PathResolver {
  private readonly real = new Map<string, Promise<string | null>>();
  private readonly stats = new Map<string, Promise<FileStat | undefined>>();

  constructor(
    private readonly fs: GateFs,
    private readonly work: GateWork,
  ) {}

  /** The real path of an existing `abs`, or null when it does not exist (or cannot be read). */
  realpathOf(abs: string): Promise<string | null> {
    let hit = this.real.get(abs);
    if (!hit) {
      this.work.lookups++;
      hit = this.fs.realpath(abs).then(
        (r) => r,
        () => null,
      );
      this.real.set(abs, hit);
    }
    return hit;
  }

  /** What `abs` names (symlinks followed), or undefined when nothing is there (or it cannot be read). */
  private statOf(abs: string): Promise<FileStat | undefined> {
    let hit = this.stats.get(abs);
    if (!hit) {
      this.work.lookups++;
      hit = this.fs.stat(abs).then(
        (st) => st,
        () => undefined,
      );
      this.stats.set(abs, hit);
    }
    return hit;
  }

  /** Whether `abs` names an existing directory (symlinks followed). */
  async isDir(abs: string): Promise<boolean> {
    return (await this.statOf(abs))?.type === 'dir';
  }

  /**
   * Whether something exists at `abs` (symlinks followed; a dangling one does not count), as
   * `realpathOf` would find it, without asking for the real path.
   */
  async exists(abs: string): Promise<boolean> {
    return (await this.statOf(abs)) !== undefined;
  }

  /** The real path of a normalised absolute path, through its nearest existing ancestor. */
  private async nearest(abs: string): Promise<string> {
    const missing: string[] = [];
    let dir = abs;
    for (;;) {
      const r = await this.realpathOf(dir);
      if (r !== null) return missing.length === 0 ? r : join(r, ...missing.reverse());
      const parent = dirname(dir);
      if (parent === dir) return abs;
      missing.push(basename(dir));
      dir = parent;
    }
  }

  /**
   * The real paths `p` may reach from the physical directory `cwd`: as the kernel resolves it and,
   * when it has a `..`, as a program that normalises it first would. Every entry must be checked.
   */
  async targets(p: string, cwd: string): Promise<string[]> {
    // Joined as text: `path.join` would fold `up/..` away before the kernel's reading is known.
    const abs = isAbsolute(p) ? p : `${cwd}/${p}`;
    if (!hasDotDot(p)) return [await this.nearest(normalize(abs))];
    const lexical = await this.nearest(resolve(abs));
    return [await this.physical(abs), lexical];
  }

  /** Kernel resolution: component by component, `..` taken from the real directory reached so far. */
  private async physical(abs: string): Promise<string> {
    const parts = abs.split('/');
    let cur = '/';
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k] as string;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        cur = dirname(cur);
        continue;
      }
      const next = join(cur, part);
      const r = await this.realpathOf(next);
      // A missing component ends the lookup: the kernel fails there, so nothing further is read.
      if (r === null) return resolve(next, ...parts.slice(k + 1).filter((x) => x !== ''));
      cur = r;
    }
    return cur;
  }
}
