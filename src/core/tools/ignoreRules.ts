/**
 * Which workspace entries the listing and search tools skip: the usual heavy folders, and whatever
 * `.gitignore` files (the root's, every subfolder's, and `.git/info/exclude`) say, with deeper files
 * overriding shallower ones as git does.
 */
import ignore, { type Ignore } from 'ignore';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { WorkspaceReader } from '../ports';

/** Dependency, build-output, cache and VCS folders: never walked into, only named. */
export const HEAVY_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'dist',
  'out',
  'build',
  'target',
  'coverage',
  '.next',
  '.nuxt',
  '.turbo',
  '.cache',
  '.gradle',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.tox',
  '.vscode-test',
]);

export type Exclusion = 'heavy' | 'gitignore';

export class IgnoreRules {
  private readonly files = new Map<string, Promise<Ignore | undefined>>();

  /** `root` is the workspace root the walked paths lie under (a real path). */
  constructor(
    private readonly reader: WorkspaceReader,
    private readonly root: string,
  ) {}

  /** Why `abs` (a path under the root) is skipped, or undefined when it is not. */
  async check(abs: string, isDir: boolean): Promise<Exclusion | undefined> {
    if (isDir && HEAVY_DIRS.has(basename(abs))) return 'heavy';
    if (abs === this.root || !abs.startsWith(this.root + (this.root.endsWith(sep) ? '' : sep))) return undefined;
    let ignored = false;
    // From the root down to the entry's own folder: a deeper file's verdict overrides.
    const chain: string[] = [];
    for (let dir = dirname(abs); ; dir = dirname(dir)) {
      chain.unshift(dir);
      if (dir === this.root || dirname(dir) === dir) break;
    }
    for (const dir of chain) {
      const rules = await this.rulesOf(dir);
      if (!rules) continue;
      const rel = relative(dir, abs).split(sep).join('/') + (isDir ? '/' : '');
      const verdict = rules.test(rel);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored ? 'gitignore' : undefined;
  }

  private rulesOf(dir: string): Promise<Ignore | undefined> {
    let pending = this.files.get(dir);
    if (!pending) {
      pending = this.load(dir);
      this.files.set(dir, pending);
    }
    return pending;
  }

  private async load(dir: string): Promise<Ignore | undefined> {
    const texts: string[] = [];
    if (dir === this.root) texts.push(await this.readText(join(dir, '.git', 'info', 'exclude')));
    texts.push(await this.readText(join(dir, '.gitignore')));
    const body = texts.join('\n');
    return body.trim() === '' ? undefined : ignore({ ignorecase: false }).add(body);
  }

  private async readText(path: string): Promise<string> {
    try {
      return new TextDecoder().decode(await this.reader.readFile(path));
    } catch {
      return ''; // missing or unreadable: no rules from this file
    }
  }
}

/** The workspace root that contains `real`, or undefined. */
export function rootOf(roots: readonly string[], real: string): string | undefined {
  let best: string | undefined;
  for (const r of roots) {
    const inside = real === r || real.startsWith(r.endsWith(sep) ? r : r + sep);
    if (inside && (best === undefined || r.length > best.length)) best = r;
  }
  return best;
}
