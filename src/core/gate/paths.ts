/**
 * Path containment for the gate (rules §1.1 step 8 and `cd`). Purely lexical: the gate never
 * touches the file system. Tools that open files resolve symlinks themselves before asking.
 */
import * as path from 'node:path';
import type { GateContext, Word } from './types';

/** Whether `absPath` is one of `roots` or lies below one, comparing normalised paths lexically. */
export function isInsideRoots(absPath: string, roots: readonly string[]): boolean {
  if (!path.isAbsolute(absPath)) return false;
  const target = path.resolve(absPath);
  for (const root of roots) {
    const base = path.resolve(root);
    if (target === base) return true;
    const prefix = base.endsWith(path.sep) ? base : base + path.sep;
    if (target.startsWith(prefix)) return true;
  }
  return false;
}

/** A path argument the gate admits even though it lies outside every root: it reads as empty. */
const HARMLESS_ABSOLUTE = new Set(['/dev/null']);

/**
 * Where a path-like string points, for each working directory the command may be in, or null when
 * it cannot be known (`~user`, `~+`, `~` without a known home). Plain relative paths without a
 * `..` segment are returned as an empty list: they cannot leave the working directory.
 */
function targets(p: string, tildeExpands: boolean, cwds: readonly string[], ctx: GateContext): string[] | null {
  if (tildeExpands && p.startsWith('~')) {
    const slash = p.indexOf('/');
    const user = slash < 0 ? p.slice(1) : p.slice(1, slash);
    if (user !== '' || ctx.home === undefined) return null;
    return [path.join(ctx.home, slash < 0 ? '' : p.slice(slash))];
  }
  if (p.startsWith('/')) return [p];
  if (!hasDotDot(p)) return [];
  if (cwds.length === 0) return null;
  return cwds.map((cwd) => path.resolve(cwd, p));
}

function hasDotDot(p: string): boolean {
  if (!p.includes('..')) return false;
  for (const part of p.split(/[/\\]/)) if (part === '..') return true;
  return false;
}

/** Whether the path-like string stays inside the workspace from every possible working directory. */
export function pathStaysInside(p: string, tildeExpands: boolean, cwds: readonly string[], ctx: GateContext): boolean {
  if (HARMLESS_ABSOLUTE.has(p)) return true;
  const resolved = targets(p, tildeExpands, cwds, ctx);
  return resolved !== null && resolved.every((t) => isInsideRoots(t, ctx.roots));
}

/** Resolves a `cd` or `-C` directory against each possible working directory (null: unknowable). */
export function resolveDirs(
  p: string,
  tildeExpands: boolean,
  cwds: readonly string[],
  ctx: GateContext,
): string[] | null {
  const fixed = targets(p, tildeExpands, cwds, ctx);
  if (fixed === null) return null;
  if (p.startsWith('/') || (tildeExpands && p.startsWith('~'))) return fixed.map((t) => path.resolve(t));
  if (cwds.length === 0) return null;
  return cwds.map((cwd) => path.resolve(cwd, p));
}

/**
 * The path-like parts of one argument: the word itself, the value after the first `=` of an
 * option or assignment-like word (`--file=/etc/x`, `a=~/x`), a `~` after a `:` (`a=b:~/x`), and
 * the value glued to a short option (`-f/etc/x`). Returns the first part that leaves the
 * workspace, or null.
 */
export function outsidePathIn(word: Word, cwds: readonly string[], ctx: GateContext): string | null {
  const v = word.value;
  if (v === '' || v === '-' || v === '--') return null;
  if (!pathStaysInside(v, word.tilde, cwds, ctx)) return v;
  const eq = v.indexOf('=');
  if (eq >= 0) {
    const value = v.slice(eq + 1);
    // Tilde expansion after `=` happens only when the `~` itself was not quoted.
    if (!pathStaysInside(value, eq + 1 < word.firstQuoted, cwds, ctx)) return value;
  }
  // In words that look like assignments, bash also expands an unquoted `~` right after a `:`.
  for (let colon = v.indexOf(':~'); colon >= 0; colon = v.indexOf(':~', colon + 1)) {
    const value = v.slice(colon + 1);
    if (colon + 1 < word.firstQuoted && !pathStaysInside(value, true, cwds, ctx)) return value;
  }
  if (v.startsWith('-') && !v.startsWith('--')) {
    const slash = v.search(/[/~]/);
    if (slash > 1 && (eq < 0 || slash < eq)) {
      const value = v.slice(slash);
      if (!pathStaysInside(value, false, cwds, ctx)) return value;
    }
  }
  return null;
}
