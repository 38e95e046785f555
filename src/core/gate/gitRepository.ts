/**
 * Which repository a git command would use (rules §1.1 step 10). Git walks up from its working
 * directory and takes the first git directory it finds: a `.git` entry, or a directory that is
 * itself one (`HEAD` with `objects/` and `refs/`, or a `commondir` file naming them elsewhere).
 * Below a workspace root, either one is a repository that is not the workspace's own, and its
 * configuration, hooks, filters, alternates or `commondir` can run a program or read outside the
 * workspace; a git directory survives a clone as plain files. So git is not run there.
 *
 * The walk goes from the command's directory up to the workspace root, each directory looked up
 * at most once per judged command (through the resolver's cache).
 */
import { dirname, relative } from 'node:path';
import type { PathResolver } from './resolve';
import { blocked, type Verdict } from './types';

/** Whether `dir` is itself a git directory as git's discovery recognises one. */
async function isGitDirectory(dir: string, resolver: PathResolver): Promise<boolean> {
  if (!(await resolver.exists(`${dir}/HEAD`))) return false;
  if (await resolver.exists(`${dir}/commondir`)) return true;
  return (await resolver.isDir(`${dir}/objects`)) || (await resolver.isDir(`${dir}/refs`));
}

/** The workspace root `dir` lies in (the longest match), or undefined. */
function rootOf(dir: string, roots: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const r of roots) {
    if ((dir === r || dir.startsWith(r.endsWith('/') ? r : `${r}/`)) && (best === undefined || r.length > best.length))
      best = r;
  }
  return best;
}

/**
 * Why git must not run from the real directory `dir` (a repository nested in the workspace or a
 * git directory inside it, between `dir` and its workspace root), or null when git would use the
 * workspace's own repository.
 */
export async function foreignRepository(
  dir: string,
  roots: readonly string[],
  resolver: PathResolver,
): Promise<Verdict | null> {
  const root = rootOf(dir, roots);
  if (root === undefined) return null;
  for (let d = dir; d !== root && d.length > root.length; d = dirname(d)) {
    const shown = relative(root, d);
    if (await isGitDirectory(d, resolver)) {
      return blocked(
        'git-repository',
        `'${shown}' is a git directory inside the workspace (it holds HEAD, objects and refs, or a commondir); ` +
          'its own configuration could make git run programs or read outside the workspace, so git does not run there',
      );
    }
    if (await resolver.exists(`${d}/.git`)) {
      return blocked(
        'git-repository',
        `'${shown}' is a separate git repository inside the workspace (it has its own .git); ` +
          'its configuration could make git run programs or read outside the workspace, so git does not run there. ' +
          'Open it as a workspace folder of its own to inspect it with git',
      );
    }
  }
  return null;
}
