/**
 * Rules §1.1 step 6 (read-only subcommands of git, cargo, npm, pnpm and yarn) and the git rows of
 * the unsafe-option table (step 7). cargo and the package managers run the project's own code, so
 * they additionally need a trusted workspace.
 */
import { longOption, shortOption } from './options';
import { isInsideRoots, resolveDirs } from './paths';
import { blocked, type GateContext, type Verdict, type Word } from './types';

const GIT_READ = ['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'rev-parse', 'describe', 'shortlog', 'grep'];
const GIT_READ_SET = new Set(GIT_READ);
const CARGO_READ = new Set(['check', 'test', 'metadata', 'tree', 'clippy']);
const NEXTEST_READ = new Set(['run', 'list']);
/** Programs whose allowed subcommands run project code (tests, build scripts). */
export const PROJECT_CODE_PROGRAMS = new Set(['cargo', 'npm', 'pnpm', 'yarn']);
export const SUBCOMMAND_PROGRAMS = new Set(['git', ...PROJECT_CODE_PROGRAMS]);

/** The subcommand found, or the verdict that refuses it. `index` is where it sits in `args`. */
export type SubcommandResult = { readonly label: string; readonly index: number } | Verdict;

function isSkipped(w: string, program: string): boolean {
  return w.startsWith('-') || w.includes('=') || (program === 'cargo' && w.startsWith('+'));
}

function nextPositional(args: readonly Word[], from: number, program: string): number {
  let k = from;
  while (k < args.length && isSkipped((args[k] as Word).value, program)) k++;
  return k;
}

/** Step 6: which subcommand runs; `args` are the words after the program name. */
export function findSubcommand(program: string, args: readonly Word[]): SubcommandResult {
  if (program === 'git') {
    let k = 0;
    for (; k < args.length; k++) {
      const w = (args[k] as Word).value;
      if (w === '-C')
        k++; // its directory is checked with the options
      else if (!isSkipped(w, program)) break;
    }
    const sub = args[k]?.value;
    if (sub === undefined) return blocked('subcommand', `'git' needs a read-only subcommand (${GIT_READ.join(', ')})`);
    if (!GIT_READ_SET.has(sub)) {
      return blocked('subcommand', `'git ${sub}' is not a read-only git command (allowed: ${GIT_READ.join(', ')})`);
    }
    return { label: `git ${sub}`, index: k };
  }
  const k = nextPositional(args, 0, program);
  const sub = args[k]?.value;
  if (program === 'cargo') {
    const allowedList = 'check, test, metadata, tree, clippy, nextest run, nextest list';
    if (sub === undefined) return blocked('subcommand', `'cargo' needs a read-only subcommand (${allowedList})`);
    if (CARGO_READ.has(sub)) return { label: `cargo ${sub}`, index: k };
    if (sub === 'nextest') {
      const action = args[nextPositional(args, k + 1, program)]?.value;
      if (action !== undefined && NEXTEST_READ.has(action)) return { label: `cargo nextest ${action}`, index: k };
      return blocked(
        'subcommand',
        `'cargo nextest${action ? ` ${action}` : ''}' is not allowed; use 'cargo nextest run' or 'cargo nextest list'`,
      );
    }
    return blocked('subcommand', `'cargo ${sub}' is not a read-only cargo command (allowed: ${allowedList})`);
  }
  // npm, pnpm, yarn
  const allowedList = `'${program} test', '${program} run test', '${program} install --dry-run'`;
  if (sub === 'test') return { label: `${program} test`, index: k };
  if (sub === 'run') {
    const script = args[nextPositional(args, k + 1, program)]?.value;
    if (script === 'test') return { label: `${program} run test`, index: k };
    return blocked(
      'subcommand',
      `'${program} run${script ? ` ${script}` : ''}' is not allowed (allowed: ${allowedList})`,
    );
  }
  if (sub === 'install') {
    if (isDryRun(args)) return { label: `${program} install --dry-run`, index: k };
    return blocked('subcommand', `'${program} install' is allowed only with --dry-run`);
  }
  if (sub === undefined) return blocked('subcommand', `'${program}' needs a subcommand (allowed: ${allowedList})`);
  return blocked('subcommand', `'${program} ${sub}' is not allowed (allowed: ${allowedList})`);
}

/** `--dry-run` is present and nothing later in the line switches it off again. */
function isDryRun(args: readonly Word[]): boolean {
  let dry = false;
  for (const { value: w } of args) {
    if (w === '--dry-run' || w === '--dry-run=true') dry = true;
    else if (w.startsWith('--dry-run=') || w.startsWith('--no-d')) return false;
  }
  return dry;
}

const GIT_GLOBAL_REJECT = ['--exec-path', '--git-dir', '--work-tree', '--config-env', '--super-prefix'];
const GIT_LONG_REJECT = ['--output', '--ext-diff', '--textconv', '--open-files-in-pager'];
const GIT_LONG_SAFE = new Set(['--text']);
/** Short options that take a glued value, so later letters are that value and not options. */
const GIT_GREP_VALUES = 'ABCefm';
const GIT_DIFF_VALUES = 'SGLUnMCBlX';
const GIT_LONG_REASON: Record<string, string> = {
  '--output': 'writes its output to a file',
  '--ext-diff': 'runs an external diff program',
  '--textconv': 'runs text-conversion programs',
  '--open-files-in-pager': 'opens a pager that can run commands',
};

/** Step 7 for git: global options before the subcommand at `sub`, then the subcommand's options. */
export function checkGitOptions(args: readonly Word[], sub: number, ctx: GateContext, cwds: string[]): Verdict | null {
  for (let k = 0; k < sub; k++) {
    const w = (args[k] as Word).value;
    if (w.startsWith('-c')) return blocked('option', "'git -c' sets configuration, which can make git run programs");
    const global = longOption(w, GIT_GLOBAL_REJECT);
    if (global) return blocked('option', `'git ${global}' points git at another repository or program`);
    if (w.startsWith('-C')) {
      const dir = w === '-C' ? args[++k] : undefined;
      if (!dir) return blocked('option', `'git ${w}' needs its directory as a separate word`);
      const dirs = resolveDirs(dir.value, dir.tilde, cwds, ctx);
      if (!dirs || !dirs.every((d) => isInsideRoots(d, ctx.roots))) {
        return blocked('option', `'git -C ${dir.value}' points outside the workspace`);
      }
      cwds.splice(0, cwds.length, ...dirs); // later relative paths are git's, from that directory
    }
  }
  const subName = (args[sub] as Word).value;
  const values = subName === 'grep' ? GIT_GREP_VALUES : GIT_DIFF_VALUES;
  for (let k = sub + 1; k < args.length; k++) {
    const w = (args[k] as Word).value;
    const long = longOption(w, GIT_LONG_REJECT, GIT_LONG_SAFE);
    if (long) return blocked('option', `'git ${subName} ${w}' ${GIT_LONG_REASON[long]}`);
    const short = shortOption(w, 'oO', values);
    if (short === 'o') return blocked('option', `'git ${subName} ${w}': '-o' writes output to a file`);
    if (short === 'O')
      return blocked('option', `'git ${subName} ${w}': '-O' opens files in a pager that can run commands`);
  }
  return null;
}

const NPM_LONG_REJECT = [
  '--script-shell',
  '--shell',
  '--node-options',
  '--userconfig',
  '--globalconfig',
  '--init-module',
];

/** Step 7 for cargo and the package managers: options that swap in other programs or configuration. */
export function checkProjectOptions(program: string, args: readonly Word[]): Verdict | null {
  for (const { value: w } of args) {
    if (program === 'cargo') {
      const bad = longOption(w, ['--config', '--fix']);
      if (bad === '--config') return blocked('option', `'cargo ${w}' overrides configuration, which can run programs`);
      if (bad) return blocked('option', `'cargo ${w}' applies fixes to source files`);
    } else {
      const bad = longOption(w, NPM_LONG_REJECT);
      if (bad) return blocked('option', `'${program} ${w}' changes which programs or configuration run`);
    }
  }
  return null;
}
