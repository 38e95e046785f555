/**
 * Workspace path containment for the tools. A path is accepted only when its real location
 * (every symlink followed) lies inside a workspace root. Relative paths resolve against the
 * first root; `~` is refused outright.
 */
import { dirname, basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isInsideRoots } from './gate';
import type { WorkspaceReader } from './ports';

export interface ResolvedPath {
  /** The absolute path as asked for (lexically normalised, symlinks not followed). */
  readonly abs: string;
  /** The real path: symlinks followed; for a missing target, the nearest existing ancestor's real path plus the rest. */
  readonly real: string;
  /** True when the path does not exist. */
  readonly missing: boolean;
}

export interface PathError {
  readonly error: string;
}

export async function resolveWorkspacePath(reader: WorkspaceReader, input: string): Promise<ResolvedPath | PathError> {
  const roots = reader.roots;
  const primary = roots[0];
  if (primary === undefined) return { error: 'no workspace folder is open, so no path can be read' };
  if (input.trim() === '') return { error: 'the path is empty; give a path relative to the workspace root, e.g. "."' };
  if ([...input].some((c) => c.charCodeAt(0) < 0x20))
    return { error: `path ${JSON.stringify(input)} contains a control character` };
  if (input.startsWith('~')) {
    return {
      error: `path '${input}' starts with '~' (a home folder), which is outside the workspace; give a path relative to the workspace root`,
    };
  }
  const abs = isAbsolute(input) ? resolve(input) : resolve(primary, input);
  const found = await realOf(reader, abs);
  if ('error' in found) return { error: `path '${input}': ${found.error}` };
  if (!isInsideRoots(found.real, roots)) {
    const how = found.real === abs ? '' : ` (it resolves to ${found.real})`;
    const where = roots.length === 1 ? primary : roots.join(', ');
    return { error: `path '${input}' is outside the workspace${how}; only paths under ${where} are allowed` };
  }
  return { abs, real: found.real, missing: found.missing };
}

/** How a path is shown to the model: relative to the first root (forward slashes), else absolute. */
export function displayPath(roots: readonly string[], abs: string): string {
  const primary = roots[0];
  if (primary !== undefined) {
    const rel = relative(primary, abs);
    if (rel === '') return '.';
    if (!rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return abs;
}

async function realOf(
  reader: WorkspaceReader,
  abs: string,
): Promise<{ real: string; missing: boolean } | { error: string }> {
  try {
    return { real: await reader.realpath(abs), missing: false };
  } catch (err) {
    if (codeOf(err) === 'ELOOP') return { error: 'it goes through a loop of symlinks' };
    if (!isMissingError(err)) throw err;
  }
  // Walk up to the nearest existing ancestor; the missing rest is appended to its real path.
  const rest: string[] = [];
  let current = abs;
  for (;;) {
    const parent = dirname(current);
    rest.unshift(basename(current));
    if (parent === current) return { real: abs, missing: true };
    current = parent;
    let realParent: string;
    try {
      realParent = await reader.realpath(current);
    } catch (err) {
      if (isMissingError(err)) continue;
      throw err;
    }
    // The first missing component may be a dangling symlink: its target cannot be checked.
    const first = rest[0] ?? '';
    const entries = await reader.readDir(realParent).catch(() => []);
    if (entries.some((e) => e.name === first && e.type === 'symlink')) {
      return { error: `'${first}' is a symlink whose target does not exist, so where it points cannot be checked` };
    }
    return { real: join(realParent, ...rest), missing: true };
  }
}

function codeOf(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

export function isMissingError(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
