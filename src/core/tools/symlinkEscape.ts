/**
 * The gate checks paths lexically, before anything runs. A symlink inside the workspace can still
 * point outside it, so before `exec_command` runs, every argument that names an existing path is
 * resolved (symlinks followed) and must stay inside a workspace root.
 */
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'shell-quote';
import { isInsideRoots } from '../gate';
import type { WorkspaceReader } from '../ports';

/** The first argument that resolves outside every root through a symlink, or undefined. */
export async function symlinkEscape(
  command: string,
  reader: WorkspaceReader,
  cwd: string,
): Promise<string | undefined> {
  const words = parse(command).filter((t): t is string => typeof t === 'string');
  const dirs = [cwd];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '' || word.startsWith('-') || word.includes('\n')) continue;
    // `--flag=path` style values are paths too.
    const candidates = [word, ...(word.includes('=') ? [word.slice(word.indexOf('=') + 1)] : [])];
    for (const candidate of candidates) {
      if (candidate === '') continue;
      for (const dir of isAbsolute(candidate) ? [cwd] : dirs) {
        const abs = resolve(dir, candidate);
        const st = await reader.stat(abs).catch(() => undefined);
        if (!st) continue;
        const real = await reader.realpath(abs).catch(() => abs);
        if (!isInsideRoots(real, reader.roots)) return candidate;
      }
    }
    if (words[i - 1] === 'cd') dirs.push(resolve(cwd, word));
  }
  return undefined;
}
