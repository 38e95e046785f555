/** Rules §1.1 steps 4–8 for one segment (a simple command between operators). */
import { isOption, longOption } from './options';
import { patternWords } from './patterns';
import { outsidePathIn, resolveDirs, isInsideRoots } from './paths';
import { ALLOWED_PROGRAMS, COMMAND_RUNNERS, checkProgramOptions, programName, refuseProgram } from './programs';
import {
  PROJECT_CODE_PROGRAMS,
  SUBCOMMAND_PROGRAMS,
  checkGitOptions,
  checkProjectOptions,
  findSubcommand,
} from './subcommands';
import { blocked, type GateContext, type Segment, type Verdict, type Word } from './types';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/**
 * Beyond the rules: variables that make the next program load code, read another configuration
 * or run a helper (`GIT_EXTERNAL_DIFF=x git diff`, `LD_PRELOAD=...`, `RIPGREP_CONFIG_PATH=...`).
 * Other `NAME=value` prefixes are skipped as the rules say.
 */
const RISKY_VARIABLE =
  /^(PATH|HOME|IFS|ENV|BASH_ENV|SHELL|SHELLOPTS|BASHOPTS|CDPATH|PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|PS4|PROMPT_COMMAND|GCONV_PATH|NLSPATH|TMPDIR|GREP_OPTIONS|GNUPGHOME|MAGIC|(LD|DYLD|GIT|NPM_CONFIG|YARN|PNPM|COREPACK|NODE|RUSTUP|BASH_FUNC|BAT|RIPGREP|XDG|SSH|SED|JQ)_.*|(PYTHON|PERL|RUBY|CARGO|RUSTC|RUSTDOC|RUSTFLAGS|LESS).*)$/i;

/** An unquoted `NAME=` at the start of a word: the shell treats it as an assignment. */
function assignmentName(w: Word): string | null {
  const m = ASSIGNMENT.exec(w.value);
  return m && m[0].length <= w.firstQuoted ? m[0].slice(0, -1) : null;
}

/** Step 4: skips assignments and a bare `env`; returns the index of the program word or a verdict. */
function skipPrefixes(words: readonly Word[]): number | Verdict {
  let k = 0;
  let sawEnv = false;
  for (;;) {
    const w = words[k];
    if (w === undefined) {
      return sawEnv
        ? blocked('prefix', "'env' without a command prints the environment, which may hold secrets")
        : blocked('prefix', 'a variable assignment without a command is not allowed');
    }
    const name = assignmentName(w);
    if (name !== null) {
      if (RISKY_VARIABLE.test(name)) {
        return blocked('prefix', `setting '${name}' before a command can make programs load or run other code`);
      }
      k++;
      continue;
    }
    const program = programName(w.value);
    if (program !== 'env') return k;
    sawEnv = true;
    k++;
    const next = words[k]?.value;
    if (next !== undefined && isOption(next)) {
      if (longOption(next, ['--split-string']) || (!next.startsWith('--') && next.includes('S'))) {
        return blocked('option', `'env ${next}' splits a string into a new command line`);
      }
      return blocked('prefix', `'env ${next}': env options are not allowed; put NAME=value before the command`);
    }
  }
}

/** `cd DIR` (step 3): DIR must be inside a root. Returns where the shell is after it succeeds. */
function checkCd(args: readonly Word[], ctx: GateContext, cwds: readonly string[]): Verdict | string[] {
  let k = 0;
  while (args[k]?.value === '-L' || args[k]?.value === '-P') k++;
  if (args[k]?.value === '--') k++;
  const dir = args[k];
  if (dir === undefined)
    return blocked('path', "'cd' without a directory goes to the home directory, outside the workspace");
  if (k + 1 < args.length) return blocked('segment', "'cd' takes exactly one directory");
  if (dir.value === '-' || isOption(dir.value))
    return blocked('path', `'cd ${dir.value}' is not allowed; name the directory`);
  const dirs = resolveDirs(dir.value, dir.tilde, cwds, ctx);
  if (!dirs || !dirs.every((d) => isInsideRoots(d, ctx.roots))) {
    return blocked('path', `'cd ${dir.value}' leaves the workspace`);
  }
  return dirs;
}

/** What a passing segment tells the caller: where a `cd` moves to, or which project code it runs. */
export interface SegmentPass {
  readonly cdTo?: readonly string[];
  readonly projectCode?: string;
}

/** Steps 4–8 for one segment run from any of `cwds`: a verdict when it is refused, else what it does. */
export function checkSegment(segment: Segment, ctx: GateContext, cwds: readonly string[]): Verdict | SegmentPass {
  const words = segment.words;
  const start = skipPrefixes(words);
  if (typeof start !== 'number') return start;
  const word = (words[start] as Word).value;
  const args = words.slice(start + 1);
  const program = programName(word);
  if (typeof program !== 'string') return program;
  if (COMMAND_RUNNERS.has(program)) {
    return blocked('prefix', `'${word}' runs another command; command prefixes are not allowed`);
  }
  if (program === 'cd') {
    const to = checkCd(args, ctx, cwds);
    return Array.isArray(to) ? { cdTo: to } : to;
  }
  if (!ALLOWED_PROGRAMS.has(program) && !SUBCOMMAND_PROGRAMS.has(program)) return refuseProgram(program, word);

  const dirs = cwds.slice();
  let projectCode: string | undefined;
  if (SUBCOMMAND_PROGRAMS.has(program)) {
    const sub = findSubcommand(program, args);
    if ('allowed' in sub) return sub;
    if (PROJECT_CODE_PROGRAMS.has(program)) projectCode = sub.label;
    if (PROJECT_CODE_PROGRAMS.has(program) && !ctx.trusted) {
      return blocked('trust', `'${sub.label}' runs project code; not allowed in an untrusted workspace`);
    }
    const v = program === 'git' ? checkGitOptions(args, sub.index, ctx, dirs) : checkProjectOptions(program, args);
    if (v) return v;
  } else {
    const v = checkProgramOptions(program, args);
    if (v) return v;
  }

  const patterns = patternWords(program, args);
  for (let k = 0; k < args.length; k++) {
    if (patterns?.has(k)) continue;
    const outside = outsidePathIn(args[k] as Word, dirs, ctx);
    if (outside !== null) return blocked('path', `path '${outside}' is outside the workspace`);
  }
  return projectCode ? { projectCode } : {};
}
