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
  /**
   * Per folder, the `.gitignore` rules that apply to its entries, root first: built once per
   * folder (from its parent's), so checking the entries of one folder costs one lookup each.
   */
  private readonly chains = new Map<string, Promise<readonly { dir: string; rules: Ignore }[]>>();

  /** `root` is the workspace root the walked paths lie under (a real path). */
  constructor(
    private readonly reader: WorkspaceReader,
    private readonly root: string,
  ) {}

  /** Why `abs` (a path under the root) is skipped, or undefined when it is not. */
  async check(abs: string, isDir: boolean): Promise<Exclusion | undefined> {
    if (isDir && HEAVY_DIRS.has(basename(abs))) return 'heavy';
    if (abs === this.root || !abs.startsWith(this.rootPrefix())) return undefined;
    return verdictOf(await this.chainOf(dirname(abs)), abs, isDir);
  }

  /**
   * The check for the entries of folder `dir` (`dir/<name>`), its rules read once: a listing asks
   * it for every entry without waiting again.
   */
  async forFolder(
    dir: string,
    listed?: { readonly hasGitignore: boolean },
  ): Promise<(abs: string, name: string, isDir: boolean) => Exclusion | undefined> {
    // A listing that has read the folder says whether it holds a `.gitignore`: without one the
    // folder adds no rules, and no read is tried for it (the root's `.git/info/exclude` still is).
    if (listed && !listed.hasGitignore && dir !== this.root && !this.files.has(dir))
      this.files.set(dir, Promise.resolve(undefined));
    const chain = dir === this.root || dir.startsWith(this.rootPrefix()) ? await this.chainOf(dir) : undefined;
    return (abs, name, isDir) => {
      if (isDir && HEAVY_DIRS.has(name)) return 'heavy';
      return chain ? verdictOf(chain, abs, isDir) : undefined;
    };
  }

  private rootPrefix(): string {
    return this.root + (this.root.endsWith(sep) ? '' : sep);
  }

  private chainOf(dir: string): Promise<readonly { dir: string; rules: Ignore }[]> {
    let chain = this.chains.get(dir);
    if (!chain) {
      chain = this.buildChain(dir);
      this.chains.set(dir, chain);
    }
    return chain;
  }

  private async buildChain(dir: string): Promise<readonly { dir: string; rules: Ignore }[]> {
    const top = dir === this.root || dirname(dir) === dir;
    const above = top ? [] : await this.chainOf(dirname(dir));
    const rules = await this.rulesOf(dir);
    return rules ? [...above, { dir, rules }] : above;
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

/** The `.gitignore` verdict on `abs` of the rules from the root down to its folder: a deeper file's verdict overrides. */
function verdictOf(
  chain: readonly { dir: string; rules: Ignore }[],
  abs: string,
  isDir: boolean,
): Exclusion | undefined {
  let ignored = false;
  for (const { dir, rules } of chain) {
    const rel = relativeSlashed(dir, abs) + (isDir ? '/' : '');
    const verdict = rules.test(rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored ? 'gitignore' : undefined;
}

/** A `.`, `..` or empty segment: a path that only `path.relative` (which normalises) reads right. */
const DOT_SEGMENT = /(?:^|[\\/])\.{0,2}(?:[\\/]|$)/;

/** `abs` relative to `dir` with forward slashes; a plain slice when `abs` lies under `dir` (the walk's case). */
function relativeSlashed(dir: string, abs: string): string {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const rest = abs.startsWith(prefix) ? abs.slice(prefix.length) : undefined;
  const rel = rest !== undefined && !DOT_SEGMENT.test(rest) ? rest : relative(dir, abs);
  return sep === '/' ? rel : rel.split(sep).join('/');
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
